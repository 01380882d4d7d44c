"""A manifest is data, not instructions: names inside its folder, or nothing is touched.

Issue 22 §1: a crafted ``.embedviz-manifest.json`` once made ``export`` delete files outside the
site. Every way of pointing outside (a relative ``..``, an absolute path, a link
inside the folder) is refused in one line, for export, render and slides, and
nothing is deleted.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from embedviz.core.errors import EmbedvizError
from embedviz.export.folders import (
    MANIFEST,
    check_replaceable,
    merge_into_place,
    read_manifest,
    record_files,
    swap_into_place,
    write_manifest,
)

REPO = Path(__file__).resolve().parent.parent


def _need_reveal() -> None:
    from embedviz.core.errors import EmbedvizError
    from embedviz.export.reveal_assets import find_reveal

    try:
        find_reveal()
    except EmbedvizError:
        pytest.skip("reveal.js is not set up ('embedviz setup slides')")


def _tree(folder: Path) -> dict[str, str]:
    found = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            found[name] = "-> " + os.readlink(path)
        elif path.is_dir():
            found[name] = "folder"
        else:
            found[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _manifest(folder: Path, *files: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    record = {"generator": "embedviz", "files": list(files)}
    (folder / MANIFEST).write_text(json.dumps(record))


def _victim(root: Path) -> Path:
    victim = root / "victim.txt"
    victim.write_text("precious")
    return victim


# The ways a listed name can point outside its folder, given the folder's parent.
OUTSIDE: dict[str, Callable[[Path], str]] = {
    "relative": lambda root: "../victim.txt",
    "absolute": lambda root: str(root / "victim.txt"),
    "dot-dot inside": lambda root: "Clip/../../victim.txt",
}


# The command-line tests start a process each, so they try two of the ways.
CLI_WAYS = ["absolute", "relative"]


def _staged(root: Path) -> Path:
    staging = root / ".site.new-1"
    staging.mkdir()
    (staging / "index.html").write_text("new gallery")
    write_manifest(staging)
    return staging


@pytest.mark.parametrize("way", sorted(OUTSIDE))
def test_a_swap_never_deletes_a_listed_file_outside_the_site(tmp_path: Path, way: str) -> None:
    victim = _victim(tmp_path)
    site = tmp_path / "site"
    _manifest(site, OUTSIDE[way](tmp_path))
    before = _tree(tmp_path)
    with pytest.raises(EmbedvizError, match="does not trust this manifest") as error:
        swap_into_place(_staged(tmp_path), site)
    assert "\n" not in str(error.value)
    assert victim.read_text() == "precious"
    after = _tree(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith(".site.new-")} == before


@pytest.mark.parametrize("way", sorted(OUTSIDE))
def test_force_never_deletes_a_listed_file_outside_the_folder(tmp_path: Path, way: str) -> None:
    victim = _victim(tmp_path)
    course = tmp_path / "course"
    _manifest(course, OUTSIDE[way](tmp_path))
    with pytest.raises(EmbedvizError, match="does not trust this manifest"):
        merge_into_place(_staged(tmp_path), course)
    assert victim.read_text() == "precious"
    assert sorted(p.name for p in course.iterdir()) == [MANIFEST]


def test_a_listed_file_behind_a_link_is_never_deleted(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.txt").write_text("precious")
    site = tmp_path / "site"
    _manifest(site, "sub", "sub/x.txt", "index.html")
    (site / "index.html").write_text("old")
    (site / "sub").symlink_to(outside)
    with pytest.raises(EmbedvizError, match="behind a link"):
        check_replaceable(site)
    with pytest.raises(EmbedvizError, match="behind a link"):
        swap_into_place(_staged(tmp_path), site)
    with pytest.raises(EmbedvizError, match="behind a link"):
        merge_into_place(_staged(tmp_path / "site"), site)
    assert (outside / "x.txt").read_text() == "precious"
    assert (site / "index.html").read_text() == "old"


@pytest.mark.parametrize(
    "name",
    ["../x", "/etc/passwd", "a/../b", "./a", "a//b", "a/", "", "a\\..\\b", "a\x00b", 3, None],
)
def test_a_manifest_lists_only_plain_relative_names(tmp_path: Path, name: object) -> None:
    _manifest(tmp_path / "f", "index.html", name)  # type: ignore[arg-type]
    with pytest.raises(EmbedvizError, match=r"lists .*does not trust") as error:
        read_manifest(tmp_path / "f")
    assert "\n" not in str(error.value)


def test_good_names_are_read_back(tmp_path: Path) -> None:
    _manifest(tmp_path / "f", "index.html", "Clip/Clip.mp4", ".hidden")
    assert read_manifest(tmp_path / "f") == {"index.html", "Clip/Clip.mp4", ".hidden"}
    assert read_manifest(tmp_path / "none") is None


def test_recording_a_render_refuses_a_crafted_manifest(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    _manifest(tmp_path / "out", "../victim.txt")
    before = (tmp_path / "out" / MANIFEST).read_bytes()
    with pytest.raises(EmbedvizError, match="does not trust"):
        record_files(tmp_path / "out", "Single.mp4")
    assert (tmp_path / "out" / MANIFEST).read_bytes() == before
    assert victim.read_text() == "precious"
    with pytest.raises(ValueError, match="leads out"):
        record_files(tmp_path / "ok", "../elsewhere.mp4")


# -- the commands ---------------------------------------------------------------------------


def _embedviz(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "embedviz", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def _refused_in_one_line(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("embedviz: error: ")
    assert "does not trust this manifest" in done.stderr


@pytest.mark.parametrize("way", CLI_WAYS)
@pytest.mark.parametrize("force", [False, True])
def test_export_refuses_a_manifest_that_points_outside(
    tmp_path: Path, way: str, force: bool
) -> None:
    victim = _victim(tmp_path)
    _manifest(tmp_path / "site", OUTSIDE[way](tmp_path))
    before = _tree(tmp_path)
    extra = ["--force"] if force else []
    _refused_in_one_line(
        _embedviz(tmp_path, "export", "single", "-q", "l", "--out", "site", *extra)
    )
    assert victim.read_text() == "precious"
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("way", CLI_WAYS)
def test_render_refuses_a_manifest_that_points_outside(tmp_path: Path, way: str) -> None:
    victim = _victim(tmp_path)
    _manifest(tmp_path / "out", OUTSIDE[way](tmp_path))
    before = _tree(tmp_path)
    done = _embedviz(tmp_path, "render", "single", "-ql", "--format", "png", "-o", "out")
    _refused_in_one_line(done)
    assert victim.read_text() == "precious"
    assert _tree(tmp_path) == before


def test_render_refuses_a_sections_manifest_that_points_outside(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    _manifest(tmp_path / "out" / "SingleTokenLookup_sections", "../../victim.txt")
    before = _tree(tmp_path)
    done = _embedviz(tmp_path, "render", "single", "-ql", "--save_sections", "-o", "out")
    _refused_in_one_line(done)
    assert victim.read_text() == "precious"
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("way", CLI_WAYS)
def test_slides_refuse_a_manifest_that_points_outside(tmp_path: Path, way: str) -> None:
    _need_reveal()
    victim = _victim(tmp_path)
    _manifest(tmp_path / "deck", OUTSIDE[way](tmp_path))
    before = _tree(tmp_path)
    _refused_in_one_line(_embedviz(tmp_path, "slides", "single", "-ql", "--out", "deck"))
    assert victim.read_text() == "precious"
    assert _tree(tmp_path) == before
