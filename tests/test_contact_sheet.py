"""``embedviz contact-sheet``: one PNG, a tile mid-motion and at the end of every beat."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from embedviz.inputs import prepared_storyboard

REPO = Path(__file__).resolve().parent.parent


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "embedviz", "contact-sheet", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.slow
def test_a_sheet_has_two_tiles_per_beat(tmp_path: Path) -> None:
    out = tmp_path / "sheets" / "single.png"
    width, columns = 160, 4
    done = _run(
        tmp_path,
        "single",
        "-o",
        str(out),
        "--tile-width",
        str(width),
        "--columns",
        str(columns),
        "--frame-height",
        "480",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out)
    names = [b.name for b in prepared_storyboard("SingleTokenLookup", {}, environ={}).beats]
    # One tile mid-motion per step and one at the end of every beat. Steps, by
    # design: the row count flashes row 0, then counts; the lookup walks, copies,
    # returns; the print shows, outlines the brackets, then the numbers; grad_fn
    # boxes the label, then flashes the numbers.
    steps_of = {"intro": 1, "zero-based": 2, "lookup": 3, "print": 3, "grad-fn": 2}
    assert sorted(names) == sorted(steps_of)
    tiles = sum(steps_of[name] + 1 for name in names)
    rows = -(-tiles // columns)
    tile_height = round(width * 9 / 16)
    with Image.open(out) as image:
        assert image.format == "PNG"
        # Tiles of 160 x 90 px, 6 px apart, each with a 22 px caption strip below.
        assert image.size == (columns * (width + 6) + 6, rows * (tile_height + 22 + 6) + 6)
        pixels = np.asarray(image.convert("RGB")).astype(int)

    def tile(number: int) -> np.ndarray:
        row, column = divmod(number, columns)
        x, y = 6 + column * (width + 6), 6 + row * (tile_height + 22 + 6)
        return pixels[y : y + tile_height, x : x + width]

    # The lookup beat's steps (the row outlined, the row in flight, the settle)
    # differ from each other, and the first two from its end. The settle holds
    # still: the row stays outlined to the beat's end (test_beat_end_outline),
    # so its middle may be the end's picture.
    first = sum(steps_of[name] + 1 for name in names[: names.index("lookup")])
    steps = [tile(first + k) for k in range(3)]
    for k, earlier in enumerate(steps):
        for later in [*steps[k + 1 :], *([tile(first + 3)] if k < 2 else [])]:
            assert np.abs(earlier - later).sum() > 0
    # Every tile has something drawn on the theme's background.
    for number in range(tiles):
        assert tile(number).std() > 5


def test_a_sheet_must_be_a_png_and_fails_in_one_line(tmp_path: Path) -> None:
    done = _run(tmp_path, "single", "-o", str(tmp_path / "sheet.jpg"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "PNG" in done.stderr
    assert not (tmp_path / "sheet.jpg").exists()
    folder = tmp_path / "folder.png"
    folder.mkdir()
    done = _run(tmp_path, "single", "-o", str(folder))
    assert done.returncode == 2
    assert "folder" in done.stderr
    done = _run(tmp_path, "single", "-o", str(tmp_path / "x.png"), "--ids", "99")
    assert done.returncode == 2
    assert "out of range" in done.stderr
    assert not (tmp_path / "x.png").exists()
