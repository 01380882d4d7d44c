"""OneHotEquivalence, from a lecture hall (issue 18, a teacher's 720p review).

- The working on screen did not match the highlight (columns, 33.7–38.6 s):
  the purple box moved on to columns 1 and 2 and their results (0.9666,
  -1.1481) filled in while column 0's worked terms (``0 × 0.3374 + … =
  -0.4015``) stood beside E. Column 0's terms went as the box left column 0,
  before the next column's result came; since, each column's terms replace
  them as the box reaches it: the working on screen is the highlighted column's.
- The token-ID chip wandered: beside row 3 (1.0–16.2 s), then at the panel's
  far right attached to nothing (17.2–38.6 s), then back beside row 3 to fetch
  it (39.9 s). It now waits at the right end of row i of E, in one place once
  the camera has pulled back, until it fetches the row.

Each beat is sampled at many moments; the rules are read from the mobjects.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import box_of
from drawn import drawn_opacity, on_screen
from manim import Rectangle

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

ALPHAS = (0.1, 0.3, 0.5, 0.7, 0.9)
# The columns beat is one step: each hop of the box takes a tenth of it.
DENSE = tuple(round(0.02 * k, 2) for k in range(1, 50))
GPT2 = {"ids": "4821", "vocab": 50257, "dim": 768}
# The beats where the chip stands for the ID beside E, before it fetches its row.
WAITING = ("intro", "one-hot", "terms", "sum", "columns")
# Shown: a fade past this opacity is read; gone: under this, it is not.
SHOWN, GONE = 0.9, 0.01


def _boxed_columns(scene: MomentScene, shown: set[int]) -> dict[int, float]:
    """Return each column of E a highlight box stands on, with the box's opacity."""
    stage: Any = scene.stage
    grid, highlight = stage.matrix.grid, stage.theme.highlight.lower()
    columns: dict[int, float] = {}
    for top in scene.mobjects:
        for box in top.get_family():
            if not isinstance(box, Rectangle) or not len(box.points):
                continue
            if box.get_stroke_color().to_hex().lower() != highlight:
                continue
            x = float(box.get_center()[0])
            col = min(stage.product.cells, key=lambda c: abs(grid.col_x(c) - x))
            if abs(grid.col_x(col) - x) < 0.25 * stage.plan.sizes.cell_width:
                columns[col] = max(columns.get(col, 0.0), drawn_opacity(box, shown))
    return columns


@pytest.mark.parametrize("overrides", [{}, {"theme": "light"}, GPT2], ids=["dark", "light", "gpt2"])
def test_the_working_on_screen_is_the_highlighted_columns(overrides: dict[str, Any]) -> None:
    """At every sample of the columns' beats and the compare: while a later column's result
    shows, or the box stands on another column, a column's terms and sum are gone.

    Each column's terms now replace the last column's as the box reaches it
    (tests/test_one_hot_columns.py reads their values): none stands beside E
    while the box is on another column, nor once a later column's result shows.
    """
    board = prepared_storyboard("OneHotEquivalence", overrides, environ={})
    problems: list[str] = []
    seen = {"results": 0, "boxes": 0}
    beats = {b.name for b in board.beats if b.action in ("columns", "compare")}

    def read(scene: MomentScene, moment: Any) -> None:
        stage: Any = scene.stage
        shown, product = on_screen(scene), stage.product
        where = f"{moment.beat.name} step {moment.step} a{moment.alpha:.2f}"
        for worked, terms in product.lists.items():
            working = max(drawn_opacity(m, shown) for m in terms.pieces())
            for col, cell in product.cells.items():
                if col > worked and drawn_opacity(cell, shown) > GONE:
                    seen["results"] += 1
                    if working > GONE:
                        problems.append(
                            f"{where}: column {col}'s result with column {worked}'s terms"
                        )
            for col, opacity in _boxed_columns(scene, shown).items():
                if col != worked and opacity > SHOWN:
                    seen["boxes"] += 1
                    if working > 0.1:
                        problems.append(
                            f"{where}: the box on column {col}, column {worked}'s terms shown"
                        )

    play_moments(board, read, alphas=DENSE, pixel_width=192, pixel_height=108, beats=beats)
    assert min(seen.values()) >= 5, seen
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("overrides", [{}, GPT2], ids=["default", "gpt2"])
def test_the_chip_waits_at_the_end_of_its_row_in_one_place(overrides: dict[str, Any]) -> None:
    """Until the compare, at every sample: the chip stands right of E's body, no further
    from it than its own height, level with row i; and after the camera has pulled back
    (from the end of the terms beat) it does not move."""
    board = prepared_storyboard("OneHotEquivalence", overrides, environ={})
    token = board.single_id()
    problems: list[str] = []
    seen: set[str] = set()
    places: list[np.ndarray] = []

    def read(scene: MomentScene, moment: Any) -> None:
        name = moment.beat.name
        if name not in WAITING:
            return
        seen.add(name)
        stage: Any = scene.stage
        chip, grid = stage.compare.chip, stage.matrix.grid
        (_, _), (body_right, _) = box_of(grid.body)
        (chip_left, chip_bottom), (_, chip_top) = box_of(chip)
        row = [box_of(grid.get_cell(token, col)) for col in stage.product.cells]
        row_y = float(np.mean([(low[1] + high[1]) / 2 for low, high in row]))
        gap, height = float(chip_left - body_right), float(chip_top - chip_bottom)
        where = f"{name} step {moment.step} a{moment.alpha:.2f}"
        if not 0 <= gap <= height:
            problems.append(f"{where}: the chip stands {gap:.2f} from E's right edge")
        if abs((chip_top + chip_bottom) / 2 - row_y) > 0.25 * height:
            problems.append(f"{where}: the chip is not level with row {token}")
        if name in ("sum", "columns") or (name == "terms" and moment.alpha >= 1):
            places.append(np.asarray(chip.get_center(), dtype=float))

    play_moments(board, read, alphas=ALPHAS, pixel_width=192, pixel_height=108)
    assert seen == set(WAITING)
    assert problems == [], "\n".join(problems[:20])
    # From the terms' end (the camera pulled back) to the compare: one place.
    assert len(places) >= 10
    spread = float(np.ptp(np.array(places), axis=0).max())
    assert spread < 1e-6, f"the chip moved {spread:.3f} between the terms and the compare"
