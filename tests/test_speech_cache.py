"""The speech cache: a phrase a voice has spoken once is read back, never spoken again."""

from __future__ import annotations

import os
import shutil
import wave
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from embedviz.export import voice as voice_module
from embedviz.export.speech_cache import SpeechCache
from embedviz.export.voice import Voice, synthesise

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="needs espeak-ng")

ENGLISH = Voice("espeak", "en-us", "en-US")
LINES = ["Row two is looked up.", "The other IDs do the same."]


@pytest.fixture
def runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each line the engine is asked to speak, in a fresh cache folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    spoken: list[str] = []
    real = voice_module._run

    def counting(command: list[str], what: str, stdin: str | None = None) -> None:
        spoken.extend((stdin or "").splitlines())
        real(command, what, stdin)

    monkeypatch.setattr(voice_module, "_run", counting)
    return spoken


def _speak(tmp_path: Path, lines: list[str], voice: Voice = ENGLISH) -> list[Any]:
    folder = tmp_path / f"work-{len(list(tmp_path.glob('work-*')))}"
    return synthesise(voice, lines, folder)


def test_a_line_spoken_once_is_read_back_with_the_same_samples(
    tmp_path: Path, runs: list[str]
) -> None:
    first = _speak(tmp_path, LINES)
    assert runs == LINES
    again = _speak(tmp_path, LINES)
    assert runs == LINES  # nothing spoken the second time
    for kept, fresh in zip(again, first, strict=True):
        assert kept.size > 4_800  # speech, at 48 kHz
        np.testing.assert_array_equal(kept, fresh)


def test_an_edited_line_alone_is_spoken_again(tmp_path: Path, runs: list[str]) -> None:
    _speak(tmp_path, LINES)
    edited = [LINES[0], "The other ten IDs do the same."]
    clips = _speak(tmp_path, edited)
    assert runs == [*LINES, edited[1]]
    # The edited line's speech is that line's, as an uncached engine speaks it.
    assert clips[1].size != _speak(tmp_path, [LINES[1]])[0].size


def test_another_voice_or_speed_speaks_for_itself(tmp_path: Path, runs: list[str]) -> None:
    _speak(tmp_path, LINES)
    _speak(tmp_path, LINES, Voice("espeak", "en-gb", "en-GB"))
    assert runs == LINES + LINES
    named = {"engine": "espeak", "name": "en-gb", "language": "en-GB"}
    british = SpeechCache(named, {"speed": "165"})
    slower = SpeechCache(named, {"speed": "140"})
    assert british.get(LINES[0]) is not None
    assert slower.get(LINES[0]) is None


def test_a_new_piper_model_file_is_a_new_voice(tmp_path: Path) -> None:
    model = tmp_path / "voice.onnx"
    model.write_bytes(b"one model")
    voice = {"engine": "piper", "name": "joe", "model": str(model)}
    before = SpeechCache(voice, {}, tmp_path / "speech").path("Hello.")
    assert SpeechCache(voice, {}, tmp_path / "speech").path("Hello.") == before
    model.write_bytes(b"another model, retrained")
    assert SpeechCache(voice, {}, tmp_path / "speech").path("Hello.") != before


def test_a_damaged_kept_file_is_spoken_again(tmp_path: Path, runs: list[str]) -> None:
    fresh = _speak(tmp_path, LINES[:1])[0]
    kept = SpeechCache(
        {"engine": "espeak", "name": "en-us", "language": "en-US"}, {"speed": "165"}
    ).get(LINES[0])
    assert kept is not None
    kept.write_bytes(b"RIFF, but cut short")
    again = _speak(tmp_path, LINES[:1])[0]
    assert runs == [LINES[0], LINES[0]]
    np.testing.assert_array_equal(again, fresh)
    with wave.open(str(kept)) as audio:  # and it is kept whole again
        assert audio.getnframes() > 0


def test_a_cache_that_cannot_be_written_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    clips = _speak(tmp_path, LINES)
    assert [clip.size > 4_800 for clip in clips] == [True, True]
    assert blocked.read_text() == "a file where the cache folder would go"


def test_trim_deletes_the_least_recently_used_of_its_own_files_only(tmp_path: Path) -> None:
    cache = SpeechCache({"engine": "espeak", "name": "en-us"}, {}, tmp_path / "speech")
    wav = tmp_path / "line.wav"
    wav.write_bytes(b"x" * 1000)
    for number in range(4):
        cache.put(f"line {number}", wav)
        os.utime(cache.path(f"line {number}"), ns=(number * 10**9, number * 10**9))
    cache.get("line 0")  # used just now: kept
    own_note = tmp_path / "speech" / "README"
    own_note.write_text("a file someone put here")
    cache.trim(limit=2500)
    kept = {n for n in range(4) if cache.path(f"line {n}").exists()}
    assert kept == {0, 3}
    assert own_note.read_text() == "a file someone put here"
