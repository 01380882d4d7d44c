"""Export and render: never replace what embedviz did not write; quiet, readable, repeatable.

Covers issue 8 §2 (ownership, permissions, SIGTERM), §3 (captions in the track
only, 720p30, quiet output, progress) and the render options of §4 and §5.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import select
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest

from embedviz.cli import main
from embedviz.core.errors import EmbedvizError
from embedviz.export.documents import transcript_html
from embedviz.export.folders import (
    MANIFEST,
    check_replaceable,
    merge_into_place,
    publish_permissions,
    swap_into_place,
    write_manifest,
)
from embedviz.inputs import prepared_storyboard

REPO = Path(__file__).resolve().parent.parent


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}


def _umask_022() -> None:
    os.umask(0o022)


def _embedviz(cwd: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "embedviz", *args],
        cwd=cwd, env=_env(), capture_output=True, text=True, timeout=timeout,
        preexec_fn=_umask_022,
    )  # fmt: skip


def _start(cwd: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "embedviz", *args],
        cwd=cwd, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_umask_022,
    )  # fmt: skip


def _tree(folder: Path) -> dict[str, str]:
    """Every path under ``folder``, with a digest for files and a marker for folders."""
    found = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_dir():
            found[name] = "folder"
        else:
            found[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _wait_for(condition: Callable[[], bool], what: str, process: Any = None) -> None:
    """Poll until ``condition`` holds; fail the test at the deadline or if the process ends."""
    deadline = time.monotonic() + 300
    while not condition():
        if process is not None and process.poll() is not None:
            pytest.fail(f"the process ended ({process.returncode}) before {what}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


def _descendants(pid: int) -> set[int]:
    """Every live process below ``pid``, read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _caption_band_ink(image: np.ndarray) -> float:
    """The share of pixels in the caption band that are not background.

    The band is where captions are drawn: the bottom 14% of the frame, between the
    left edge and the colour legend, which sits in the bottom right corner.
    """
    pixels = image.astype(int)
    height, width = pixels.shape[:2]
    background = pixels[2, 2]
    band = pixels[int(0.86 * height) : int(0.985 * height), : int(0.75 * width)]
    return float((np.abs(band - background).sum(axis=2) > 60).mean())


def _png(path: Path) -> np.ndarray:
    from PIL import Image

    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


# -- folders that embedviz may replace ---------------------------------------------------


def _make_site(folder: Path) -> None:
    (folder / "Clip").mkdir(parents=True)
    (folder / "index.html").write_text("old gallery")
    (folder / "Clip" / "Clip.mp4").write_bytes(b"old video")
    write_manifest(folder)


def test_a_new_or_empty_folder_or_an_embedviz_site_may_be_replaced(tmp_path: Path) -> None:
    check_replaceable(tmp_path / "new")
    (tmp_path / "empty").mkdir()
    check_replaceable(tmp_path / "empty")
    _make_site(tmp_path / "site")
    check_replaceable(tmp_path / "site")


@pytest.mark.parametrize(
    ("make", "needle"),
    [
        (lambda p: p.write_text("notes"), "is not a folder"),
        (lambda p: p.symlink_to(p.parent), "is not a folder"),
        (lambda p: (p.mkdir(), (p / "notes.txt").write_text("mine")), "not made by embedviz"),
        (lambda p: (_make_site(p), (p / "notes.txt").write_text("mine")), "holds notes.txt"),
        (lambda p: (_make_site(p), (p / "Clip" / "cut.mp4").write_text("x")), "Clip/cut.mp4"),
        (lambda p: (_make_site(p), (p / "drafts").mkdir()), "holds drafts/"),
        (lambda p: (_make_site(p), (p / MANIFEST).write_text("{")), "not made by embedviz"),
        (
            lambda p: (_make_site(p), (p / MANIFEST).write_text('{"files": []}')),
            "not made by embedviz",
        ),
    ],
)
def test_anything_else_is_refused_in_one_line(
    tmp_path: Path, make: Callable[[Path], object], needle: str
) -> None:
    target = tmp_path / "target"
    make(target)
    with pytest.raises(EmbedvizError, match=re.escape(needle)) as error:
        check_replaceable(target)
    message = str(error.value)
    assert "\n" not in message
    assert "new folder, or an empty one" in message


def test_a_site_exported_before_manifests_may_be_replaced_but_not_with_extra_files(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    (site / "Clip").mkdir(parents=True)
    (site / "index.html").write_text('<figure class="embedviz-clip" id="Clip"></figure>')
    for suffix in ("mp4", "webm", "poster.png", "en.vtt", "transcript.html"):
        (site / "Clip" / f"Clip.{suffix}").write_text("old")
    check_replaceable(site)
    (site / "Clip" / "Other.mp4").write_text("mine")
    with pytest.raises(EmbedvizError, match=r"holds Clip/Other\.mp4"):
        check_replaceable(site)
    (site / "Clip" / "Other.mp4").unlink()
    (site / "index.html").write_text("<p>my own page</p>")
    with pytest.raises(EmbedvizError, match="not made by embedviz"):
        check_replaceable(site)


def test_swap_replaces_an_embedviz_site_and_leaves_nothing_behind(tmp_path: Path) -> None:
    _make_site(tmp_path / "site")
    staging = tmp_path / ".site.new-1"
    staging.mkdir()
    (staging / "index.html").write_text("new gallery")
    write_manifest(staging)
    swap_into_place(staging, tmp_path / "site")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    assert (tmp_path / "site" / "index.html").read_text() == "new gallery"
    assert not (tmp_path / "site" / "Clip").exists()


def test_swap_refuses_a_folder_that_gained_a_stranger(tmp_path: Path) -> None:
    _make_site(tmp_path / "site")
    before = _tree(tmp_path / "site")
    staging = tmp_path / ".site.new-1"
    staging.mkdir()
    (tmp_path / "site" / "notes.txt").write_text("mine")
    with pytest.raises(EmbedvizError, match=r"notes\.txt"):
        swap_into_place(staging, tmp_path / "site")
    after = _tree(tmp_path / "site")
    assert after.pop("notes.txt") == hashlib.sha256(b"mine").hexdigest()
    assert after == before


def _new_site(staging: Path, clip: str) -> Path:
    (staging / clip).mkdir(parents=True)
    (staging / "index.html").write_text(f"gallery of {clip}")
    (staging / clip / f"{clip}.mp4").write_text(f"video of {clip}")
    write_manifest(staging)
    return staging


def test_force_keeps_every_file_embedviz_did_not_write(tmp_path: Path) -> None:
    target = tmp_path / "course"
    (target / "sub").mkdir(parents=True)
    (target / "notes.txt").write_text("my notes")
    (target / "sub" / "draft.md").write_text("draft")
    mine = {k: v for k, v in _tree(target).items()}
    merge_into_place(_new_site(tmp_path / "new1", "First"), target)
    assert (target / "First" / "First.mp4").read_text() == "video of First"
    merge_into_place(_new_site(tmp_path / "new2", "Second"), target)
    after = _tree(target)
    assert {k: after[k] for k in mine} == mine  # the user's files, byte for byte
    assert not (target / "First").exists()  # embedviz's earlier clip is gone
    assert (target / "index.html").read_text() == "gallery of Second"
    manifest = json.loads((target / MANIFEST).read_text())
    assert manifest["files"] == ["Second/Second.mp4", "index.html"]


def test_force_never_replaces_a_file_embedviz_did_not_write(tmp_path: Path) -> None:
    target = tmp_path / "course"
    target.mkdir()
    (target / "index.html").write_text("my own page")
    before = _tree(target)
    with pytest.raises(EmbedvizError, match="was not written by embedviz"):
        merge_into_place(_new_site(tmp_path / "new", "First"), target)
    assert _tree(target) == before
    (target / "notes.txt").write_text("x")
    with pytest.raises(EmbedvizError, match="not a folder"):
        merge_into_place(_new_site(tmp_path / "new3", "First"), target / "notes.txt")


def test_force_onto_an_existing_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    assert main(["export", "single", "-ql", "--force", "--out", str(notes)]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
    assert notes.read_text() == "my notes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_published_outputs_are_readable_by_others(tmp_path: Path) -> None:
    folder = tmp_path / "site"
    (folder / "a" / "b").mkdir(parents=True, mode=0o700)
    (folder / "a" / "b" / "f.txt").write_text("x")
    (folder / "a" / "b" / "f.txt").chmod(0o600)
    folder.chmod(0o700)
    old = os.umask(0o022)
    try:
        publish_permissions(folder)
    finally:
        os.umask(old)
    for path in [folder, *folder.rglob("*")]:
        expected = 0o755 if path.is_dir() else 0o644
        assert stat.S_IMODE(path.stat().st_mode) == expected, path


# -- the command line refuses before it renders -----------------------------------------


def test_export_into_a_folder_of_user_files_refuses_and_touches_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "course"
    (folder / "sub").mkdir(parents=True)
    (folder / "notes.txt").write_text("my notes")
    (folder / "sub" / "draft.md").write_text("draft")
    before = _tree(folder)
    status = main(["export", "single", "-ql", "--out", str(folder)])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("embedviz: error: ")
    assert "empty" in lines[0]
    assert _tree(folder) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["course"]


def test_export_onto_an_existing_file_refuses_and_hides_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    status = main(["export", "single", "-ql", "--out", str(notes)])
    captured = capsys.readouterr()
    assert status == 2
    assert len(captured.err.splitlines()) == 1
    assert "not a folder" in captured.err
    assert notes.read_text() == "my notes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_render_into_an_existing_file_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    status = main(["render", "single", "-ql", "-o", str(notes)])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("embedviz: error: ")
    assert "is a file, not a folder" in lines[0]
    assert notes.read_text() == "my notes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_render_does_not_overwrite_a_file_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    mine = out / "SingleTokenLookup.png"
    mine.write_bytes(b"my own picture")
    status = main(["render", "single", "-ql", "--format", "png", "-o", str(out)])
    captured = capsys.readouterr()
    assert status == 2
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert "was not written by embedviz" in lines[0]
    assert mine.read_bytes() == b"my own picture"
    assert sorted(p.name for p in out.iterdir()) == ["SingleTokenLookup.png"]


# -- small fixes --------------------------------------------------------------------------


@pytest.mark.parametrize("scene", ["SingleTokenLookup", "FullExplainer"])
def test_transcript_does_not_repeat_its_title(scene: str, tmp_path: Path) -> None:
    board = prepared_storyboard(scene, cwd=tmp_path, environ={})
    page = transcript_html(board)
    h1 = re.findall(r"<h1>(.*?)</h1>", page)
    h2 = re.findall(r"<h2>(.*?)</h2>", page)
    assert len(h1) == 1
    assert board.title in h1[0]
    assert board.title not in h2
    assert len(h2) == len(set(h2))


def test_quiet_logging_hides_manim_and_pyav_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    from embedviz.export.media import quiet_logging

    manim_level = logging.getLogger("manim").level
    av_level = logging.getLogger("av").level
    try:
        quiet_logging(verbose=False)
        logging.getLogger("av.container.output").warning("Some options were not used: {}")
        logging.getLogger("manim").warning("Output format set as webm")
        assert capsys.readouterr().err == ""
        quiet_logging(verbose=True)
        assert logging.getLogger("av.container.output").isEnabledFor(logging.WARNING)
    finally:
        logging.getLogger("manim").setLevel(manim_level)
        logging.getLogger("av").setLevel(av_level)


# -- captions: in the track for an export, in the picture for a render ------------------


def _captions_on_screen(burn: bool | None, tmp_path: Path) -> list[int]:
    """Play the export's scene as a dry run and count caption mobjects after each beat."""
    from manim import tempconfig

    from embedviz.export.media import recording_scene
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.mobjects import Caption

    board = prepared_storyboard("SingleTokenLookup", {}, cwd=tmp_path, environ={})
    scene_class, _ = (
        recording_scene(board) if burn is None else recording_scene(board, burn_captions=burn)
    )
    counts: list[int] = []

    class Counting(scene_class):  # type: ignore[misc, valid-type]
        def after_beat(self, beat: Any) -> None:
            super().after_beat(beat)
            counts.append(
                sum(isinstance(m, Caption) for top in self.mobjects for m in top.get_family())
            )

    settings = {"dry_run": True, "disable_caching": True, "media_dir": str(tmp_path),
                "pixel_width": 192, "pixel_height": 108, "frame_rate": 15}  # fmt: skip
    with tempconfig(settings):
        Counting(storyboard=board, skip_animations=True).render()
    return counts


def test_export_scene_draws_no_captions_by_default(tmp_path: Path) -> None:
    counts = _captions_on_screen(None, tmp_path)
    assert counts
    assert set(counts) == {0}


def test_export_scene_burns_captions_when_asked(tmp_path: Path) -> None:
    counts = _captions_on_screen(True, tmp_path)
    assert counts
    assert set(counts) == {1}


# -- real exports --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Four real exports of SingleTokenLookup: one at the default quality, two alike, one burned.

    The two alike (b and c) are at -qt: they show that an export is
    deterministic, which does not need a large picture. The burned one has a
    voice too, so Manim mixes in sound, the step that made PyAV warn "Some
    options were not used: {'shortest': ...}" (espeak-ng: any voice mixes in
    sound, and Piper's own export is tested in test_export.py).
    """
    root = tmp_path_factory.mktemp("exports")
    done: dict[str, Any] = {"root": root}
    burned = ["-ql", "--burn-captions", "--voice", "espeak"]
    for name, extra in (("a", []), ("b", ["-qt"]), ("c", ["-qt"]), ("burned", burned)):
        result = _embedviz(root, "export", "single", *extra, "--out", name)
        assert result.returncode == 0, result.stderr[-3000:]
        done[name] = result
    return done


@pytest.mark.slow
def test_export_output_is_quiet_and_reports_each_clip(exports: dict[str, Any]) -> None:
    result = exports["a"]
    assert result.stdout == f"{Path('a') / 'index.html'} (1 clip)\n"
    # Not a terminal: one line per finished clip, with its time, and nothing else.
    for result in (exports["a"], exports["burned"]):
        assert re.fullmatch(
            r"exported SingleTokenLookup in \d+\.\d s \(1/1 clips\)\n", result.stderr
        ), result.stderr


@pytest.mark.slow
def test_exported_clip_is_720p30_with_captions_only_in_the_track(exports: dict[str, Any]) -> None:
    folder = exports["root"] / "a" / "SingleTokenLookup"
    for suffix in ("mp4", "webm"):
        with av.open(str(folder / f"SingleTokenLookup.{suffix}")) as container:
            stream = container.streams.video[0]
            assert (stream.width, stream.height) == (1280, 720), suffix
            assert stream.guessed_rate == 30, suffix
            # Every frame starts on an exact 1/30 s, however many plays manim
            # joined (WebM stores milliseconds, so 1/30 s reads as 33 or 34 ms);
            # a still picture is one frame for as long as it is held.
            ticks = [
                float(packet.pts * packet.time_base) * 30
                for packet in container.demux(stream)
                if packet.size
            ]
            slack = 0.0 if suffix == "mp4" else 0.03
            assert max(abs(tick - round(tick)) for tick in ticks) <= slack + 1e-9, suffix
            assert len(ticks) < max(ticks), suffix
    poster = _png(folder / "SingleTokenLookup.poster.png")
    assert poster.shape[:2] == (720, 1280)
    assert _caption_band_ink(poster) == 0.0
    timing = json.loads((folder / "SingleTokenLookup.timing.json").read_text())
    assert timing["burned_captions"] is False
    assert "SingleTokenLookup.en.vtt" in (folder / "SingleTokenLookup.snippet.html").read_text()


@pytest.mark.slow
def test_burn_captions_draws_them_into_the_picture(exports: dict[str, Any]) -> None:
    folder = exports["root"] / "burned" / "SingleTokenLookup"
    poster = _png(folder / "SingleTokenLookup.poster.png")
    assert poster.shape[:2] == (480, 854)
    assert _caption_band_ink(poster) > 0.02
    timing = json.loads((folder / "SingleTokenLookup.timing.json").read_text())
    assert timing["burned_captions"] is True


@pytest.mark.slow
def test_two_exports_give_the_same_webm_bytes(exports: dict[str, Any]) -> None:
    b = exports["root"] / "b" / "SingleTokenLookup" / "SingleTokenLookup.webm"
    c = exports["root"] / "c" / "SingleTokenLookup" / "SingleTokenLookup.webm"
    assert b.read_bytes() == c.read_bytes()


@pytest.mark.slow
def test_exported_site_is_readable_by_others_and_lists_its_files(exports: dict[str, Any]) -> None:
    site = exports["root"] / "a"
    for path in [site, *site.rglob("*")]:
        expected = 0o755 if path.is_dir() else 0o644
        assert stat.S_IMODE(path.stat().st_mode) == expected, path
    manifest = json.loads((site / MANIFEST).read_text())
    files = {str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()}
    assert set(manifest["files"]) == files - {MANIFEST}
    assert sorted(p.name for p in exports["root"].iterdir()) == ["a", "b", "burned", "c"]


@pytest.mark.slow
def test_export_with_force_keeps_the_users_files(tmp_path: Path) -> None:
    course = tmp_path / "course"
    (course / "sub").mkdir(parents=True)
    (course / "notes.txt").write_text("my notes")
    (course / "sub" / "draft.md").write_text("draft")
    mine = _tree(course)
    # -qt: which files stand is checked, not the picture.
    result = _embedviz(tmp_path, "export", "single", "-qt", "--force", "--out", "course")
    assert result.returncode == 0, result.stderr[-2000:]
    after = _tree(course)
    assert {name: after[name] for name in mine} == mine
    assert (course / "index.html").is_file()
    assert (course / "SingleTokenLookup" / "SingleTokenLookup.webm").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["course"]


@pytest.mark.slow
def test_export_reports_progress_by_frames(tmp_path: Path) -> None:
    from embedviz.export.media import export_clip, set_progress_sink
    from embedviz.quality import PRESETS

    events: list[tuple[str, str, float]] = []
    set_progress_sink(lambda *event: events.append(event))
    try:
        export_clip("SingleTokenLookup", "t", tmp_path)
    finally:
        set_progress_sink(None)
    board = prepared_storyboard("SingleTokenLookup", cwd=tmp_path, environ={})
    frames = round(board.duration * PRESETS["t"].fps)
    totals = [value for kind, _, value in events if kind == "total"]
    advances = [value for kind, _, value in events if kind == "advance"]
    assert totals == [2 * frames]
    assert {scene for _, scene, _ in events} == {"SingleTokenLookup"}
    # Rendering reports every frame it adds; encoding, every ten frames.
    assert len(advances) > len(board.beats) * 5
    assert frames * 2 - 10 <= sum(advances) <= frames * 2


@pytest.mark.slow
def test_in_a_terminal_the_bar_moves_with_the_frames(tmp_path: Path) -> None:
    import pty

    master, slave = pty.openpty()
    env = {**_env(), "COLUMNS": "120", "TERM": "xterm"}
    process = subprocess.Popen(
        [sys.executable, "-m", "embedviz", "export", "single", "-ql", "--out", "site"],
        cwd=tmp_path, env=env, stdin=slave, stdout=slave, stderr=slave,
    )  # fmt: skip
    os.close(slave)
    chunks = []
    deadline = time.monotonic() + 300
    while True:
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("the export did not finish in time")
        if not select.select([master], [], [], 0.5)[0]:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the process closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert process.wait(timeout=120) == 0
    shown = b"".join(chunks).decode(errors="replace")
    # Before the one clip is finished, the bar shows several steps, not only 0%.
    steps = {int(p) for p in re.findall(r"(\d+)% 0/1 clips", shown)}
    assert len(steps) >= 3, sorted(steps)
    assert max(steps) > 50


@pytest.mark.slow
def test_sigterm_during_export_leaves_the_site_as_it_was(exports: dict[str, Any]) -> None:
    root = exports["root"]
    site = root / "b"
    before = _tree(site)
    process = _start(root, "export", "single", "sequence", "-ql", "-j", "2", "--out", "b")

    def rendering() -> bool:
        staging = [p for p in root.iterdir() if p.name.startswith(".b.new-")]
        return any(f.is_file() for s in staging for f in s.rglob("partial_movie_files/**/*"))

    _wait_for(rendering, "the export to start writing video", process)
    workers = _descendants(process.pid)
    assert workers, "the export runs its clips in worker processes"
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 143, stderr
    assert "Traceback" not in stderr
    assert stderr.splitlines()[-1] == "embedviz: terminated; nothing was replaced"
    assert _tree(site) == before
    assert sorted(p.name for p in root.iterdir()) == ["a", "b", "burned", "c"]
    _wait_for(lambda: not any(_running(pid) for pid in workers), "the workers to end")


# -- real renders ----------------------------------------------------------------------------


@pytest.mark.slow
def test_render_names_non_default_options_apart_and_prints_the_path(tmp_path: Path) -> None:
    def render(*extra: str) -> Path:
        result = _embedviz(tmp_path, "render", "single", "-qt", "--format", "png", *extra,
                           "-o", "out")  # fmt: skip
        assert result.returncode == 0, result.stderr[-2000:]
        # Away from a terminal, the one progress line a scene gets, and nothing else.
        beats = len(prepared_storyboard("SingleTokenLookup", cwd=tmp_path, environ={}).beats)
        assert re.fullmatch(
            rf"embedviz render: SingleTokenLookup: {beats} beats in \d+\.\d s\n", result.stderr
        ), result.stderr
        printed = Path(result.stdout.strip())
        assert (tmp_path / printed).is_file()
        return printed

    plain = render()
    assert plain == Path("out") / "SingleTokenLookup.png"
    other = render("--ids", "4")
    assert re.fullmatch(r"SingleTokenLookup-[0-9a-f]{8}\.png", other.name), other
    assert render("--ids", "4") == other  # stable
    silent = render("--no-captions")
    assert len({plain, other, render("--ids", "5"), silent}) == 4
    assert render() == plain
    for name in ("SingleTokenLookup.png", other.name):
        assert stat.S_IMODE((tmp_path / "out" / name).stat().st_mode) == 0o644
    # The default render still draws its captions; --no-captions does not.
    assert _caption_band_ink(_png(tmp_path / plain)) > 0.02
    assert _caption_band_ink(_png(tmp_path / silent)) == 0.0


@pytest.mark.slow
@pytest.mark.parametrize(
    ("signal_number", "status", "message"),
    [
        (signal.SIGTERM, 143, "embedviz: terminated; nothing was replaced\n"),
        (signal.SIGINT, 130, "embedviz: interrupted; nothing was replaced\n"),
    ],
)
def test_stopped_render_replaces_nothing(
    tmp_path: Path, signal_number: int, status: int, message: str
) -> None:
    out = tmp_path / "out"
    # The render that stands in the folder: -qt, since only its bytes are compared.
    first = _embedviz(tmp_path, "render", "single", "-qt", "--format", "webm", "-o", "out")
    assert first.returncode == 0, first.stderr[-2000:]
    # The progress line only: no "Output format set as webm, this can be slower".
    beats = len(prepared_storyboard("SingleTokenLookup", cwd=tmp_path, environ={}).beats)
    assert first.stderr.startswith(f"embedviz render: SingleTokenLookup: {beats} beats in ")
    assert first.stderr.count("\n") == 1
    video = out / "SingleTokenLookup.webm"
    before = _tree(out)
    assert stat.S_IMODE(video.stat().st_mode) == 0o644

    process = _start(tmp_path, "render", "single", "-ql", "--format", "webm", "-o", "out")

    def rendering() -> bool:
        return any(f.is_file() for f in out.glob(".embedviz-render-*/**/partial_movie_files/**/*"))

    _wait_for(rendering, "the render to start writing video", process)
    process.send_signal(signal_number)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == status, stderr
    assert stderr == message
    assert _tree(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def _processes_naming(text: str) -> list[int]:
    """Process IDs whose command line contains ``text`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if text in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode():
                    found.append(int(entry.name))
    return found


@pytest.mark.slow
def test_stopped_render_in_ranges_of_beats_leaves_nothing_running(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    process = _start(tmp_path, "render", "single", "-ql", "-j", "3", "-o", str(out))

    def rendering() -> bool:
        ranges = out.glob(".embedviz-render-*/ranges/range-*/media/**/partial_movie_files/**/*")
        return any(f.is_file() for f in ranges)

    _wait_for(rendering, "a range of beats to start writing video", process)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 143, stderr
    assert stderr == "embedviz: terminated; nothing was replaced\n"
    # Every worker has ended with it, and nothing is left in the folder.
    deadline = time.monotonic() + 10
    while _processes_naming(str(out)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_naming(str(out)) == []
    assert list(out.iterdir()) == []


@pytest.mark.slow
def test_render_save_sections_writes_one_clip_per_concept(tmp_path: Path) -> None:
    # -qt: the sections are checked, not the picture.
    result = _embedviz(tmp_path, "render", "full", "-qt", "--save_sections", "-o", "out",
                       timeout=1800)  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    out = tmp_path / "out"
    board = prepared_storyboard("FullExplainer", cwd=tmp_path, environ={})
    concepts = [p for p in board.parts if p.layout != "transition"]
    expected = [f"{n:02d}_{p.scene}.mp4" for n, p in enumerate(concepts, start=1)]
    sections = out / "FullExplainer_sections"
    assert sorted(p.name for p in sections.iterdir()) == sorted([*expected, MANIFEST])
    assert result.stdout.splitlines() == [
        f"{Path('out') / 'FullExplainer_sections'}{os.sep} ({len(expected)} clips)",
        str(Path("out") / "FullExplainer.mp4"),
    ]
    total = 0.0
    for name in expected:
        with av.open(str(sections / name)) as container:
            total += float(container.duration) / av.time_base
    assert total == pytest.approx(board.duration, abs=len(expected) * 2 / 15)
    assert sorted(p.name for p in out.iterdir()) == [
        MANIFEST,
        "FullExplainer.mp4",
        "FullExplainer_sections",
    ]
    # A second run replaces embedviz's own sections folder.
    check_replaceable(sections)


def test_a_stop_signal_whose_exception_was_lost_still_stops_publishing() -> None:
    import signal as signals

    from embedviz.export.folders import (
        Terminated,
        forget_stop_signals,
        on_stop_signal,
        signals_held,
    )

    previous = signals.getsignal(signals.SIGTERM)
    forget_stop_signals()
    try:
        # Python drops an exception raised inside a finalizer or weakref callback.
        with contextlib.suppress(Terminated):
            on_stop_signal(signals.SIGTERM, None)
        published = []
        with pytest.raises(Terminated), signals_held():
            published.append(True)
        assert published == []
        forget_stop_signals()
        with contextlib.suppress(KeyboardInterrupt):
            on_stop_signal(signals.SIGINT, None)
        with pytest.raises(KeyboardInterrupt), signals_held():
            published.append(True)
        assert published == []
    finally:
        forget_stop_signals()
        signals.signal(signals.SIGTERM, previous)
    with signals_held():
        published.append(True)
    assert published == [True]


def test_a_stop_dropped_in_a_finalizer_adds_no_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from embedviz.cli import _sigterm_unwinds

    class DroppedStop:
        def __del__(self) -> None:
            raise KeyboardInterrupt  # as on_stop_signal does when Ctrl-C lands here

    class OtherError:
        def __del__(self) -> None:
            raise ValueError("something else")

    with _sigterm_unwinds():
        stop = DroppedStop()
        del stop
        other = OtherError()
        del other
    err = capsys.readouterr().err
    assert "KeyboardInterrupt" not in err
    assert "ValueError: something else" in err  # anything else is still reported
