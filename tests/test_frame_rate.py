"""Variable frame rate against its ``--cfr`` twin: the same video, written with fewer frames.

Each still picture is written once for as long as it is held (see
:mod:`embedviz.render.writer`). These tests render a short composite storyboard
(SingleTokenLookup, its transition and ZeroBasedIndexing: two sections, 98 s)
both ways and check that a viewer cannot tell them apart: the same frame at
times spread over holds and motion, the same length, the same section starts,
and in an export with a voice, the same narration onsets, caption cues and
chapter starts. The renders are tiny (192 x 108 at 15 fps, the export -qt) and
shared by every test through session fixtures.
"""

from __future__ import annotations

import bisect
import json
import os
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest
from webvtt_strict import parse_webvtt

from embedviz.inputs import prepared_storyboard
from embedviz.story.model import Storyboard

pytestmark = pytest.mark.slow

FPS = 15
TICK = 1 / FPS
CI = os.environ.get("CI") == "true"


def _board() -> Storyboard:
    """FullExplainer's first two concepts and the transition between them."""
    full = prepared_storyboard("FullExplainer", {}, environ={})
    return replace(full, parts=full.parts[:3])


@dataclass
class Render:
    """One render of the composite storyboard, with --save_sections."""

    movie: Path
    sections: list[Path]
    beat_ends: list[float]


def _render(folder: Path, *, cfr: bool) -> Render:
    from manim import tempconfig

    from embedviz.export.media import recording_scene

    board = _board()
    # Burned-in captions: each cue's text changes the picture when the cue starts.
    scene_class, beat_ends = recording_scene(board, burn_captions=True, constant_frame_rate=cfr)
    settings = {
        "media_dir": str(folder),
        "pixel_width": 192,
        "pixel_height": 108,
        "frame_rate": FPS,
        "disable_caching": True,
        "save_sections": True,
        "verbosity": "ERROR",
        "progress_bar": "none",
        "output_file": "Twin",
    }
    with tempconfig(settings):
        scene = scene_class(storyboard=board)
        scene.render()
        writer = scene.renderer.file_writer
        assert writer.variable is not cfr
        index = json.loads(Path(writer.output_plan.section_index).read_text())
        sections = [Path(writer.sections_output_dir) / entry["video"] for entry in index]
        return Render(Path(writer.movie_file_path), sections, beat_ends)


@pytest.fixture(scope="session")
def twins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Render]:
    root = tmp_path_factory.mktemp("twins")
    return {
        "vfr": _render(root / "vfr", cfr=False),
        "cfr": _render(root / "cfr", cfr=True),
    }


@dataclass
class Frames:
    """A video's frames in display order: each one's start (seconds) and RGB pixels."""

    starts: list[float]
    pictures: list[np.ndarray]
    end: float

    def at(self, time: float) -> np.ndarray:
        """The picture on screen at ``time``."""
        return self.pictures[bisect.bisect_right(self.starts, time + 1e-9) - 1]


def _frames(path: Path) -> Frames:
    starts, pictures = [], []
    with av.open(str(path)) as container:
        for frame in container.decode(video=0):
            starts.append(float(frame.pts * frame.time_base))
            pictures.append(frame.to_ndarray(format="rgb24"))
    return Frames(starts, pictures, _end(path))


def _end(path: Path) -> float:
    """When the picture ends: the end of its last packet."""
    with av.open(str(path)) as container:
        return max(
            float((packet.pts + packet.duration) * packet.time_base)
            for packet in container.demux(video=0)
            if packet.size
        )


def _psnr(a: np.ndarray, b: np.ndarray) -> float:
    error = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return float("inf") if error == 0 else 10 * np.log10(255**2 / error)


def _sample_times(frames: Frames) -> tuple[list[float], list[float]]:
    """Twelve times inside holds and twelve inside motion, spread over the video.

    A hold is a variable-rate frame that lasts at least three ticks (its
    middle is sampled); motion is a run of one-tick frames (the middle of a
    frame in it is sampled).
    """
    spans = list(zip(frames.starts, [*frames.starts[1:], frames.end], strict=True))
    holds = [(a + b) / 2 for a, b in spans if b - a >= 3 * TICK - 1e-6]
    moving = [a + TICK / 2 for a, b in spans if b - a < 1.5 * TICK]
    assert len(holds) >= 12, len(holds)
    assert len(moving) >= 12, len(moving)

    def spread(times: list[float]) -> list[float]:
        return [times[round(i)] for i in np.linspace(0, len(times) - 1, 12)]

    return spread(holds), spread(moving)


def test_a_still_picture_is_written_once(twins: dict[str, Render]) -> None:
    vfr, cfr = _frames(twins["vfr"].movie), _frames(twins["cfr"].movie)
    ticks = round(cfr.end * FPS)
    assert len(cfr.starts) == ticks  # one frame per tick, as manim writes them
    # Most of a storyboard is a still picture held while the narration speaks.
    assert len(vfr.starts) < ticks / 2, (len(vfr.starts), ticks)
    # Every frame still starts on the 1/15 s grid.
    assert max(abs(s * FPS - round(s * FPS)) for s in vfr.starts) < 1e-6


def test_vfr_and_cfr_show_the_same_frame_over_holds_and_motion(twins: dict[str, Render]) -> None:
    vfr, cfr = _frames(twins["vfr"].movie), _frames(twins["cfr"].movie)
    holds, moving = _sample_times(vfr)
    for time in [*holds, *moving]:
        assert _psnr(vfr.at(time), cfr.at(time)) >= 35, time
    # At this size every tick is cheap to compare too. The comparison tells
    # frames apart: a video one tick late fails it at dozens of ticks.
    middles = [(tick + 0.5) * TICK for tick in range(round(cfr.end * FPS))]
    assert min(_psnr(vfr.at(t), cfr.at(t)) for t in middles) >= 35
    late = [_psnr(vfr.at(t), cfr.at(t + TICK)) for t in middles[:-1]]
    assert sum(psnr < 35 for psnr in late) >= 20


def test_vfr_and_cfr_last_as_long(twins: dict[str, Render]) -> None:
    board = _board()
    vfr, cfr = _end(twins["vfr"].movie), _end(twins["cfr"].movie)
    assert abs(vfr - cfr) <= TICK
    assert abs(vfr - board.duration) <= TICK
    for render in twins.values():
        with av.open(str(render.movie)) as container:
            length = float(container.duration) / av.time_base
        # What a player reads as the length is when the picture ends.
        assert abs(length - board.duration) <= TICK
        assert render.beat_ends[-1] == pytest.approx(board.duration, abs=TICK)


def test_sections_start_at_the_same_times(twins: dict[str, Render]) -> None:
    board = _board()

    def starts(render: Render) -> list[float]:
        lengths = [_end(path) for path in render.sections]
        return [float(x) for x in np.cumsum([0.0, *lengths])]

    vfr, cfr = starts(twins["vfr"]), starts(twins["cfr"])
    assert len(twins["vfr"].sections) == len(twins["cfr"].sections) == 2
    assert np.abs(np.subtract(vfr, cfr)).max() <= TICK
    # The second concept starts after the first and its transition.
    first = board.parts[0].duration + board.parts[1].duration
    assert vfr[1] == pytest.approx(first, abs=TICK)
    # Each section opens on the picture the whole video shows at its start.
    whole = _frames(twins["cfr"].movie)
    for start, path in zip(vfr, twins["vfr"].sections, strict=False):
        opening = _frames(path).pictures[0]
        assert _psnr(opening, whole.at(start + TICK / 2)) >= 35


def test_burned_captions_change_with_the_picture_at_each_beat(twins: dict[str, Render]) -> None:
    vfr, cfr = _frames(twins["vfr"].movie), _frames(twins["cfr"].movie)
    for end in twins["vfr"].beat_ends[:-1]:
        for time in (end - TICK / 2, end + TICK / 2):
            assert _psnr(vfr.at(time), cfr.at(time)) >= 35, time


# -- beats in parallel: ranges rendered by worker processes, joined without re-encoding --


@pytest.fixture(scope="session")
def in_parallel(tmp_path_factory: pytest.TempPathFactory) -> Render:
    """The variable-rate twin again, in three ranges of beats (two cut a section)."""
    from embedviz.export.media import recording_scene
    from embedviz.render.parallel import render_in_parallel

    board = _board()
    scene_class, _ = recording_scene(board, burn_captions=True)
    settings = {
        "pixel_width": 192,
        "pixel_height": 108,
        "frame_rate": FPS,
        "disable_caching": True,
        "save_sections": True,
        "verbosity": "ERROR",
        "progress_bar": "none",
        "output_file": "Twin",
    }
    joined = render_in_parallel(
        scene_class, board, settings, 3, tmp_path_factory.mktemp("parallel")
    )
    return Render(joined.movie, [clip for _, clip in joined.sections], joined.beat_ends)


def test_beats_rendered_in_parallel_join_into_the_same_video(
    in_parallel: Render, twins: dict[str, Render]
) -> None:
    serial = twins["vfr"]
    joined, whole = _frames(in_parallel.movie), _frames(serial.movie)
    assert abs(joined.end - whole.end) <= 1e-6
    # Every tick shows the same picture; each range starts with its own key
    # frame, so the pictures are the same up to the encoder's rounding.
    middles = [(tick + 0.5) * TICK for tick in range(round(whole.end * FPS))]
    assert min(_psnr(joined.at(t), whole.at(t)) for t in middles) >= 35
    # Each worker started from the state the storyboard describes at its first
    # beat, so every beat ends when it ends in the serial render (the clock of
    # a skipped play differs by manim's float rounding, far under a frame).
    assert in_parallel.beat_ends == pytest.approx(serial.beat_ends, abs=1e-3)
    # The sections a range cut in two are joined again, by name.
    assert len(in_parallel.sections) == len(serial.sections)
    for ours, theirs in zip(in_parallel.sections, serial.sections, strict=True):
        assert _end(ours) == pytest.approx(_end(theirs), abs=1e-6)
        assert _psnr(_frames(ours).pictures[-1], _frames(theirs).pictures[-1]) >= 35


# -- an export with a voice: sound, captions and chapters ------------------------------


@pytest.fixture(scope="session")
def twin_exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from embedviz.export.media import export_clip
    from embedviz.export.voice import choose_voice

    if not CI and shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    root = tmp_path_factory.mktemp("twin-exports")
    voice = choose_voice("espeak")
    folders = {}
    for name, cfr, workers in (("vfr", False, 1), ("cfr", True, 1), ("ranges", False, 3)):
        export_clip(
            "FullExplainer",
            "t",
            root / name,
            voice=voice,
            board=_board(),
            constant_frame_rate=cfr,
            beat_workers=workers,
        )
        folders[name] = root / name / "FullExplainer"
    return folders


def _onsets(path: Path, starts: list[float]) -> list[float]:
    """When speech starts after each time: the first 10 ms above -40 dBFS."""
    resampler = av.AudioResampler(format="flt", layout="mono", rate=48000)
    chunks: list[Any] = []
    with av.open(str(path)) as container:
        for frame in container.decode(audio=0):
            chunks += [f.to_ndarray().reshape(-1) for f in resampler.resample(frame)]
    chunks += [f.to_ndarray().reshape(-1) for f in resampler.resample(None)]
    samples = np.concatenate(chunks).astype(np.float64)
    usable = samples[: samples.size - samples.size % 480]
    loud = np.sqrt((usable.reshape(-1, 480) ** 2).mean(axis=1)) > 10 ** (-40 / 20)
    found = []
    for start in starts:
        first = max(0, int((start - 0.3) * 100))
        after = np.flatnonzero(loud[first:])
        assert after.size, f"no speech after {start:.2f} s in {path.name}"
        found.append((first + after[0]) / 100)
    return found


def _vtt(folder: Path, name: str, *, chapters: bool = False) -> list[tuple[float, float, str]]:
    text = (folder / name).read_text(encoding="utf-8")
    return [(cue.start, cue.end, cue.text) for cue in parse_webvtt(text, chapters=chapters)]


def test_export_keeps_captions_chapters_and_narration_in_sync(
    twin_exports: dict[str, Path],
) -> None:
    vfr, cfr = twin_exports["vfr"], twin_exports["cfr"]
    for name, chapters in (("FullExplainer.en.vtt", False), ("FullExplainer.chapters.vtt", True)):
        ours, theirs = _vtt(vfr, name, chapters=chapters), _vtt(cfr, name, chapters=chapters)
        assert [text for _, _, text in ours] == [text for _, _, text in theirs]
        assert len(ours) >= (2 if chapters else 10)
        for (start, end, _), (start_cfr, end_cfr, _) in zip(ours, theirs, strict=True):
            assert abs(start - start_cfr) <= TICK, name
            assert abs(end - end_cfr) <= TICK, name
    cues = [start for start, _, _ in _vtt(vfr, "FullExplainer.en.vtt")]
    for suffix in ("mp4", "webm"):
        heard = _onsets(vfr / f"FullExplainer.{suffix}", cues)
        heard_cfr = _onsets(cfr / f"FullExplainer.{suffix}", cues)
        assert np.abs(np.subtract(heard, heard_cfr)).max() <= TICK, suffix
        # Each phrase is heard as its caption appears.
        assert np.abs(np.subtract(heard, cues)).max() <= 0.25, suffix
    for suffix in ("mp4", "webm"):
        assert (
            abs(_end(vfr / f"FullExplainer.{suffix}") - _end(cfr / f"FullExplainer.{suffix}"))
            <= TICK
        )
    timing = [json.loads((f / "FullExplainer.timing.json").read_text()) for f in (vfr, cfr)]
    assert (
        np.abs(np.subtract(timing[0]["rendered_beat_ends"], timing[1]["rendered_beat_ends"])).max()
        <= TICK
    )


def test_exported_webm_keeps_the_variable_frame_rate(twin_exports: dict[str, Path]) -> None:
    for name, fewer in (("vfr", True), ("cfr", False)):
        for suffix in ("mp4", "webm"):
            path = twin_exports[name] / f"FullExplainer.{suffix}"
            with av.open(str(path)) as container:
                packets = [p for p in container.demux(video=0) if p.size]
            ticks = _end(path) * FPS
            assert (len(packets) < ticks / 2) is fewer, (name, suffix, len(packets), ticks)


def test_an_export_rendered_in_ranges_of_beats_is_the_same_clip(
    twin_exports: dict[str, Path],
) -> None:
    serial, ranges = twin_exports["vfr"], twin_exports["ranges"]
    # Documents come from the storyboard and the video's length: the same bytes.
    for suffix in ("en.vtt", "chapters.vtt", "transcript.html", "storyboard.json"):
        name = f"FullExplainer.{suffix}"
        assert (ranges / name).read_bytes() == (serial / name).read_bytes(), name
    timing = [json.loads((f / "FullExplainer.timing.json").read_text()) for f in (serial, ranges)]
    assert timing[1]["rendered_beat_ends"] == pytest.approx(
        timing[0]["rendered_beat_ends"], abs=1e-3
    )
    ours, theirs = _frames(ranges / "FullExplainer.mp4"), _frames(serial / "FullExplainer.mp4")
    assert ours.end == pytest.approx(theirs.end, abs=1e-6)
    middles = [(tick + 0.5) * TICK for tick in range(round(theirs.end * FPS))]
    assert min(_psnr(ours.at(t), theirs.at(t)) for t in middles) >= 35
