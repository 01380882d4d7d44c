"""End to end: real renders through manim's CLI and embedviz's, read back with PyAV."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import av
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.story.scenes import SCENES

REPO = Path(__file__).resolve().parent.parent
FPS = 15  # -ql

pytestmark = pytest.mark.slow


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}


def _probe(path: Path) -> tuple[float, list[float], str, tuple[int, int]]:
    """Read a video's length, when each of its frames starts, its codec and size."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        starts = [float(frame.pts * frame.time_base) for frame in container.decode(stream)]
        duration = float(container.duration) / av.time_base
        return duration, starts, stream.codec_context.name, (stream.width, stream.height)


# FullExplainer (every scene again) has its own end-to-end test, with sections.
SINGLE_SCENES = [name for name in SCENES if name != "FullExplainer"]


# The first scene at Manim's own -ql; the others at 144p (-r), which costs less and
# checks the same: the scene plays through Manim's CLI into a playable video.
SIZES = {name: (854, 480) if n == 0 else (256, 144) for n, name in enumerate(SINGLE_SCENES)}


@pytest.mark.parametrize("scene", SINGLE_SCENES)
def test_manim_render_gives_a_playable_video(scene: str, tmp_path: Path) -> None:
    spec = SCENES[scene]
    width, height = SIZES[scene]
    size_flags = [] if height == 480 else ["-r", f"{width},{height}"]
    command = [
        sys.executable, "-m", "manim", "render", "-ql", *size_flags, "--disable_caching",
        "--media_dir", str(tmp_path), f"scenes/{spec.module}.py", scene,
    ]  # fmt: skip
    result = subprocess.run(
        command, cwd=REPO, env=_clean_env(), capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-2000:]
    video = tmp_path / "videos" / spec.module / f"{height}p{FPS}" / f"{scene}.mp4"
    assert video.is_file()
    duration, starts, codec, size = _probe(video)
    expected = prepared_storyboard(scene, cwd=tmp_path, environ={}).duration
    assert codec == "h264"
    assert size == (width, height)
    assert duration == pytest.approx(expected, abs=2 / FPS)
    # Every frame starts on the 1/15 s grid, in order...
    ticks = [start * FPS for start in starts]
    assert max(abs(tick - round(tick)) for tick in ticks) < 0.01
    assert ticks == sorted(ticks)
    # ...but a still picture is written once, for as long as it is held
    # (variable frame rate), so there are fewer frames than ticks.
    assert len(starts) < 0.9 * expected * FPS


RENDER_SINGLE = [sys.executable, "-m", "embedviz", "render", "single", "-ql"]


@pytest.fixture(scope="module")
def single_render(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """``embedviz render single -ql`` into a new folder, once for the two tests that read it.

    One checks that a failed render leaves it as it was; the other compares it,
    the serial render, with the same render in ranges of beats.
    """
    root = tmp_path_factory.mktemp("single")
    out = root / "out"
    result = subprocess.run(
        [*RENDER_SINGLE, "-o", str(out)],
        cwd=root, env=_clean_env(), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    return out, result


def test_embedviz_render_replaces_only_after_success(
    single_render: tuple[Path, Any], tmp_path: Path
) -> None:
    out, result = single_render
    command = [*RENDER_SINGLE, "-o", str(out)]
    assert result.returncode == 0, result.stderr[-2000:]
    video = out / "SingleTokenLookup.mp4"
    assert result.stdout.strip().endswith(str(video))
    first = video.read_bytes()
    assert _probe(video)[0] == pytest.approx(
        prepared_storyboard("SingleTokenLookup", cwd=tmp_path, environ={}).duration, abs=2 / FPS
    )

    failed = subprocess.run(
        [*command, "--ids", "9"], cwd=tmp_path, env=_clean_env(), capture_output=True,
        text=True, timeout=600,
    )  # fmt: skip
    assert failed.returncode == 2
    assert len(failed.stderr.strip().splitlines()) == 1
    assert "Traceback" not in failed.stderr
    assert video.read_bytes() == first
    assert sorted(p.name for p in out.iterdir()) == [
        ".embedviz-manifest.json",
        "SingleTokenLookup.mp4",
    ]


def test_plain_manim_render_with_bad_option_fails_in_one_line(tmp_path: Path) -> None:
    env = {**_clean_env(), "EMBEDVIZ_IDS": "2,3,99"}
    result = subprocess.run(
        [sys.executable, "-m", "manim", "render", "-ql", "--media_dir", str(tmp_path),
         "scenes/sequence.py", "SequenceLookup"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "embedviz: error: token ID 99 at position 2 is out of range for a vocabulary of 6 "
        "(valid IDs are 0 to 5)"
    ]
    assert not list(tmp_path.rglob("*.mp4"))


def test_embedviz_toml_reaches_a_plain_manim_render(tmp_path: Path) -> None:
    (tmp_path / "embedviz.toml").write_text('[SequenceLookup]\nids = "4,4"\n')
    # Manim reads options relative to the working directory; run from tmp_path.
    result = subprocess.run(
        [sys.executable, "-m", "manim", "render", "-ql", "--disable_caching",
         "--media_dir", str(tmp_path / "media"), str(REPO / "scenes" / "sequence.py"),
         "SequenceLookup"],
        cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    expected = prepared_storyboard("SequenceLookup", cwd=tmp_path, environ={})
    assert list(expected.ids) == [4, 4]
    video = next((tmp_path / "media").rglob("SequenceLookup.mp4"))
    assert _probe(video)[0] == pytest.approx(expected.duration, abs=2 / FPS)


def test_storyboard_scene_encodes_clips_while_it_draws_the_next(tmp_path: Path) -> None:
    # A storyboard plays dozens of short clips: manim's default (one encoder in
    # flight) would make drawing wait for each clip's encoder to drain.
    from manim import config, tempconfig

    from embedviz.render.base import StoryboardScene
    from embedviz.render.writer import ENCODERS_IN_FLIGHT_UP_TO_720P

    board = prepared_storyboard("SingleTokenLookup", cwd=tmp_path, environ={})
    scene_class = type("SingleTokenLookup", (StoryboardScene,), {"scene_name": "SingleTokenLookup"})
    with tempconfig(
        {"media_dir": str(tmp_path), "quality": "low_quality", "max_inflight_encoders": 1}
    ):
        scene = scene_class(storyboard=board)
        in_flight = scene.renderer.file_writer.settings.max_inflight_encoders
        assert in_flight == ENCODERS_IN_FLIGHT_UP_TO_720P >= 2  # 480p: small x264 buffers
        assert config.max_inflight_encoders == 1  # only this scene's writer changed
    with tempconfig(
        {"media_dir": str(tmp_path), "quality": "low_quality", "max_inflight_encoders": 9}
    ):
        scene = scene_class(storyboard=board)
        assert scene.renderer.file_writer.settings.max_inflight_encoders == 9  # a larger one stays


def _pictures(path: Path) -> tuple[list[float], list[Any]]:
    with av.open(str(path)) as container:
        frames = list(container.decode(video=0))
    return [float(f.pts * f.time_base) for f in frames], [
        f.to_ndarray(format="rgb24") for f in frames
    ]


def test_embedviz_render_in_ranges_of_beats_gives_the_same_video(
    single_render: tuple[Path, Any], tmp_path: Path
) -> None:
    import bisect

    import numpy as np

    base = RENDER_SINGLE
    # The serial render is the one test_embedviz_render_replaces_only_after_success reads.
    serial_out, serial_result = single_render
    assert serial_result.returncode == 0, serial_result.stderr[-2000:]
    runs = {"serial": serial_out / "SingleTokenLookup.mp4"}
    result = subprocess.run(
        [*base, "-j", "3", "--save_sections", "-o", str(tmp_path / "ranges")],
        cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    runs["ranges"] = tmp_path / "ranges" / "SingleTokenLookup.mp4"
    serial, ranges = (_probe(runs[name])[0] for name in ("serial", "ranges"))
    assert ranges == pytest.approx(serial, abs=1e-6)
    ours, theirs = _pictures(runs["ranges"]), _pictures(runs["serial"])
    for tick in range(round(serial * FPS)):
        time = (tick + 0.5) / FPS
        a = ours[1][bisect.bisect_right(ours[0], time) - 1].astype(float)
        b = theirs[1][bisect.bisect_right(theirs[0], time) - 1].astype(float)
        assert 10 * np.log10(255**2 / max(np.mean((a - b) ** 2), 1e-9)) >= 35, time
    # The one section, cut into three ranges, is joined again.
    section = tmp_path / "ranges" / "SingleTokenLookup_sections" / "01_SingleTokenLookup.mp4"
    assert _probe(section)[0] == pytest.approx(serial, abs=1e-6)
    refused = subprocess.run(
        [*base, "-j", "0", "-o", str(tmp_path / "none")],
        cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert refused.returncode == 2
    assert refused.stderr == "embedviz: error: -j must be at least 1, not 0\n"


def test_embedviz_render_qt_is_144p15_in_its_own_folder(tmp_path: Path) -> None:
    env = {**_clean_env(), "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "embedviz", "render", "single", "-qt"]
    result = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    video = Path("media") / "renders" / "144p15" / "SingleTokenLookup.mp4"
    assert result.stdout.strip() == str(video)
    duration, starts, codec, size = _probe(tmp_path / video)
    assert (codec, size) == ("h264", (256, 144))
    ticks = [start * FPS for start in starts]
    assert max(abs(tick - round(tick)) for tick in ticks) < 0.01
    expected = prepared_storyboard("SingleTokenLookup", cwd=tmp_path, environ={}).duration
    assert duration == pytest.approx(expected, abs=2 / FPS)
