"""Offline narration with espeak-ng: one WAV per beat, and beats long enough to say it."""

from __future__ import annotations

import math
import shutil
import subprocess
import wave
from dataclasses import replace
from pathlib import Path

from embedviz.core.errors import EmbedvizError
from embedviz.story.model import Storyboard
from embedviz.story.scenes.common import snap_seconds

__all__ = ["ESPEAK", "espeak_voice", "require_espeak", "speak", "voice_storyboard"]

ESPEAK = "espeak-ng"
# A little silence after each sentence before the next beat starts.
_PAUSE = 0.4
_TICK = 0.2  # beats are whole ticks long (see snap_seconds)


def require_espeak() -> str:
    """Return the path of espeak-ng, or fail with how to install it.

    Returns
    -------
    str
        The executable.

    Raises
    ------
    EmbedvizError
        If espeak-ng is not installed.
    """
    found = shutil.which(ESPEAK)
    if found is None:
        raise EmbedvizError(
            "--voice needs espeak-ng, which is not installed; on Debian or Ubuntu run "
            "'sudo apt-get install espeak-ng'"
        )
    return found


def espeak_voice(language: str) -> str:
    """Return the espeak-ng voice for a BCP 47 tag: ``en`` speaks ``en-us``, ``de`` ``de``.

    Parameters
    ----------
    language
        The storyboard's ``language``.

    Returns
    -------
    str
        An espeak-ng voice name (espeak-ng names voices by lower-case tags).
    """
    tag = language.lower()
    return "en-us" if tag == "en" else tag


def speak(text: str, target: Path, language: str = "en") -> float:
    """Speak one sentence into a WAV file.

    Parameters
    ----------
    text
        The sentence.
    target
        The ``.wav`` file to write.
    language
        The BCP 47 tag of the sentence; it chooses the voice.

    Returns
    -------
    float
        Its length in seconds.
    """
    executable = require_espeak()
    subprocess.run(
        [executable, "-v", espeak_voice(language), "-s", "165", "-w", str(target), text],
        check=True,
        capture_output=True,
    )
    with wave.open(str(target)) as audio:
        return float(audio.getnframes()) / float(audio.getframerate())


def voice_storyboard(board: Storyboard, folder: Path) -> tuple[Storyboard, list[Path | None]]:
    """Speak every beat's narration and stretch beats that are too short for it.

    Parameters
    ----------
    board
        The storyboard.
    folder
        Where the WAV files go.

    Returns
    -------
    tuple
        The retimed storyboard (its ``voice`` records the engine) and, per beat
        of :meth:`Storyboard.all_beats`, its WAV file or ``None``.
    """
    folder.mkdir(parents=True, exist_ok=True)
    durations: list[float] = []
    sounds: list[Path | None] = []
    for number, beat in enumerate(board.all_beats()):
        if not beat.narration:
            durations.append(beat.duration)
            sounds.append(None)
            continue
        path = folder / f"beat-{number:03d}.wav"
        spoken = speak(beat.narration, path, board.language)
        # Round up to whole ticks so beats still start on frames.
        needed = snap_seconds(math.ceil((spoken + _PAUSE) / _TICK) * _TICK)
        durations.append(max(beat.duration, needed))
        sounds.append(path)
    retimed = board.retimed(durations)
    return replace(retimed, voice=ESPEAK), sounds
