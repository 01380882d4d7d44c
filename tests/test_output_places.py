"""Where outputs go: read-only folders, files in the way, a user's file at the sheet's path.

Issue 22 §5 and §6: each is refused in one line with exit 2, before any
rendering, and nothing is changed; ``contact-sheet`` replaces only a sheet that
embedviz wrote (its folder's manifest lists it), never a user's file or a link.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from embedviz.cli import main
from embedviz.export.folders import MANIFEST, write_manifest

REPO = Path(__file__).resolve().parent.parent


def _need_reveal() -> None:
    from embedviz.core.errors import EmbedvizError
    from embedviz.export.reveal_assets import find_reveal

    try:
        find_reveal()
    except EmbedvizError:
        pytest.skip("reveal.js is not set up ('embedviz setup slides')")


# prctl(PR_CAPBSET_DROP, ...): CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH let root ignore modes.
_PR_CAPBSET_DROP = 24
_ROOT_POWERS = (1, 2)


def _without_root_powers() -> None:
    """In the child: as root, drop the capabilities that ignore file modes (before exec)."""
    os.umask(0o022)
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in _ROOT_POWERS:
        if libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "cannot drop a capability")


def _embedviz(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    env["PYTHONPATH"] = str(REPO)
    try:
        return subprocess.run(
            [sys.executable, "-m", "embedviz", *args],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False,
            preexec_fn=_without_root_powers,
        )  # fmt: skip
    except subprocess.SubprocessError as error:
        pytest.skip(f"cannot run without the powers that ignore file modes: {error}")


def _tree(folder: Path) -> dict[str, str]:
    found = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            found[name] = "-> " + os.readlink(path)
        elif path.is_dir():
            found[name] = f"folder {oct(path.stat().st_mode)}"
        else:
            found[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _refused(done: subprocess.CompletedProcess[str], needle: str) -> None:
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("embedviz: error: ")
    assert needle in lines[0]


@pytest.fixture
def read_only(tmp_path: Path) -> Any:
    """A folder nobody may write into; made writable again afterwards, for clean-up."""
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    yield folder
    folder.chmod(0o755)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["render", "single", "-ql", "-o", "locked"], "locked is read-only"),
        (["render", "single", "-ql", "-o", "locked/new"], "cannot create this folder"),
        (["export", "single", "-q", "l", "--out", "locked/site"], "locked is read-only"),
        (["export", "single", "-q", "l", "--out", "locked"], "locked is read-only"),
        (["contact-sheet", "single", "-o", "locked/sheet.png"], "locked is read-only"),
        (["contact-sheet", "single", "-o", "locked/new/sheet.png"], "locked is read-only"),
        (["slides", "single", "-ql", "--out", "locked/deck"], "locked is read-only"),
    ],
)
def test_a_read_only_output_folder_is_refused_in_one_line(
    tmp_path: Path, read_only: Path, args: list[str], needle: str
) -> None:
    if args[0] == "slides":
        _need_reveal()
    before = _tree(tmp_path)
    _refused(_embedviz(tmp_path, *args), needle)
    assert _tree(tmp_path) == before


def test_an_embedviz_site_that_is_read_only_inside_is_refused(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "Clip").mkdir(parents=True)
    (site / "index.html").write_text("old gallery")
    (site / "Clip" / "Clip.mp4").write_text("old video")
    write_manifest(site)
    (site / "Clip").chmod(0o555)
    try:
        before = _tree(tmp_path)
        _refused(_embedviz(tmp_path, "export", "single", "-q", "l", "--out", "site"), "read-only")
        assert _tree(tmp_path) == before
    finally:
        (site / "Clip").chmod(0o755)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["contact-sheet", "single", "-o", "afile/x.png"], "afile is a file, not a folder"),
        (["contact-sheet", "single", "-o", "afile/sub/x.png"], "afile is a file, not a folder"),
        (["render", "single", "-ql", "-o", "afile/sub"], "cannot create this folder"),
        (["export", "single", "-q", "l", "--out", "afile/site"], "afile is a file, not a folder"),
    ],
)
def test_a_file_in_the_way_is_refused_in_one_line(
    tmp_path: Path, args: list[str], needle: str
) -> None:
    (tmp_path / "afile").write_text("mine")
    before = _tree(tmp_path)
    _refused(_embedviz(tmp_path, *args), needle)
    assert _tree(tmp_path) == before


# -- the contact sheet replaces only its own sheet ----------------------------------------


@pytest.fixture
def fake_sheet(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the sheet without rendering: a small image, a new colour each time."""
    from PIL import Image

    import embedviz.render.moments as moments

    made: list[int] = []

    def contact_sheet(tiles: Any, columns: int, tile_width: int) -> Any:
        made.append(len(made))
        return Image.new("RGB", (8, 8), (len(made) * 40, 0, 0))

    monkeypatch.setattr(moments, "capture_tiles", lambda board, **size: [])
    monkeypatch.setattr(moments, "contact_sheet", contact_sheet)
    return made


def test_the_sheet_is_listed_and_replaced_the_next_time(
    tmp_path: Path, fake_sheet: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "sheets" / "single.png"
    assert main(["contact-sheet", "single", "-o", str(sheet)]) == 0
    first = sheet.read_bytes()
    assert json.loads((sheet.parent / MANIFEST).read_text())["files"] == ["single.png"]
    assert main(["contact-sheet", "single", "-o", str(sheet)]) == 0
    assert sheet.read_bytes() != first
    assert fake_sheet == [0, 1]
    assert sorted(p.name for p in sheet.parent.iterdir()) == [MANIFEST, "single.png"]
    assert capsys.readouterr().err == ""


def test_a_users_file_at_the_sheets_path_is_refused(
    tmp_path: Path, fake_sheet: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"my holiday")
    assert main(["contact-sheet", "single", "-o", str(photo)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert "was not written by embedviz" in lines[0]
    assert photo.read_bytes() == b"my holiday"
    assert fake_sheet == []  # refused before anything was drawn
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photo.png"]


def test_a_link_at_the_sheets_path_is_refused_and_stays_a_link(
    tmp_path: Path, fake_sheet: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "elsewhere.png"
    target.write_bytes(b"mine")
    link = tmp_path / "sheet.png"
    link.symlink_to(target)
    assert main(["contact-sheet", "single", "-o", str(link)]) == 2
    assert "is not a file" in capsys.readouterr().err
    assert link.is_symlink()
    assert target.read_bytes() == b"mine"
    assert fake_sheet == []
