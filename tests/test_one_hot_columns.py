"""OneHotEquivalence's other columns, worked as column 0 was (issue 18, lecture-hall frames).

The ``columns`` beat ("Every other column works the same way, so the product
is exactly row 3 of E") ended with 26.8 % of the frame empty (toy and light;
GPT-2 27.3 %): column 0's terms faded out as the box glided on to columns 1
and 2, whose results just faded in, and the panel right of E and under the
product's row (x 670–1260, y 206–624 px at 1280 × 720) stood empty. It now
shows that every column works the same way: as the box reaches column j the
terms beside E are rewritten for column j in place, and their sum climbs into
entry j of the product, as column 0's did. Each column is a beat of its own
(``column-1``, ..., the last one ``columns``), so that the storyboard records
every column's terms as the screen shows them at that beat's end
(tests/test_screen_numbers.py checks those against tests/oracles).

Here: every beat's end fills the frame (:func:`frame_space.empty_shares`), and
at every moment the box stands on a column, the terms beside E are that
column's, read from what is drawn (the digits, and the row each line is level
with) against values recomputed with plain numpy from an independently
derived table (tests/oracles), never from the storyboard.
"""

from __future__ import annotations

from typing import Any

import frame_space
import numpy as np
import pytest
from drawn import drawn_opacity, on_screen
from manim import Rectangle
from oracles import make_context

from embedviz.inputs import prepared_storyboard
from embedviz.render.glyphs import NumberText
from embedviz.render.moments import MomentScene, play_moments

SCENE = "OneHotEquivalence"
GPT2 = {"ids": "4821", "vocab": 50257, "dim": 768}
# Every twentieth of each step: the box's hops and the rolls last about a second.
ALPHAS = tuple(k / 20 for k in range(1, 20))
# Drawn: a number at this opacity or more is read (the zero terms are dimmed, not gone).
DRAWN = 0.2
# Half a unit of the fourth decimal place, and float noise.
HALF_UNIT = 0.5e-4 + 1e-6


@pytest.mark.parametrize("options", [{}, {"theme": "light"}, GPT2], ids=["toy", "light", "gpt2"])
def test_no_beat_end_leaves_an_eighth_of_the_frame_empty(options: dict[str, Any]) -> None:
    shares = frame_space.empty_shares(SCENE, options)
    assert {"sum", "columns", "compare"} <= set(shares)
    roomy = {name: f"{share:.1%}" for name, share in shares.items() if share > frame_space.EIGHTH}
    assert not roomy, f"more than an eighth of the frame empty: {roomy}"


def _boxed_column(scene: MomentScene, shown: set[int]) -> int | None:
    """Return the column of E the highlight box stands on in full, if any."""
    stage: Any = scene.stage
    grid, highlight = stage.matrix.grid, stage.theme.highlight.lower()
    for top in scene.mobjects:
        for box in top.get_family():
            if not isinstance(box, Rectangle) or not len(box.points):
                continue
            if box.get_stroke_color().to_hex().lower() != highlight:
                continue
            if box.height < 0.5 * grid.height_of_body or drawn_opacity(box, shown) < 0.9:
                continue  # a ring round one cell, or the box fading
            x = float(box.get_center()[0])
            col = min(stage.board.beats[0].window.cols, key=lambda c: abs(grid.col_x(c) - x))
            if abs(grid.col_x(col) - x) < 0.1 * stage.plan.sizes.cell_width:
                return int(col)
    return None


def _drawn_terms(scene: MomentScene, shown: set[int]) -> list[NumberText]:
    """Every term and sum drawn right of E now (at least half as strong as a spent term)."""
    stage: Any = scene.stage
    left = float(stage.matrix.grid.body.get_right()[0])
    return [
        m
        for top in scene.mobjects
        for m in top.get_family()
        if isinstance(m, NumberText)
        and m.cell.kind in ("term_one_hot", "term_weight", "term_sum")
        and float(m.get_left()[0]) > left
        and drawn_opacity(m, shown) >= DRAWN
    ]


@pytest.mark.parametrize("options", [{}, GPT2], ids=["toy", "gpt2"])
def test_the_terms_beside_e_are_the_boxed_columns_true_values(options: dict[str, Any]) -> None:
    """While the box stands on column j, the lines beside E read E[k, j] level with row k,
    one per drawn row, and the sum reads one_hot(i) · E[:, j]: column j's working."""
    board = prepared_storyboard(SCENE, options, environ={})
    oracle = make_context(SCENE, options, board)
    weight, token = np.asarray(oracle.weight, dtype=np.float64), int(oracle.ids[0])
    window = board.beats[0].window
    beats = {beat.name for beat in board.beats if beat.action == "columns"}
    problems: list[str] = []
    read_on: dict[int, int] = {}

    def read(scene: MomentScene, moment: Any) -> None:
        shown = on_screen(scene)
        column = _boxed_column(scene, shown)
        if column is None or column == window.cols[0]:
            return
        where = f"{moment.beat.name} step {moment.step} a{moment.alpha:.2f} (column {column})"
        grid = scene.stage.matrix.grid  # type: ignore[attr-defined]
        rows = {row: float(grid.row_y(row)) for row in window.rows}
        terms = _drawn_terms(scene, shown)
        weights = [t for t in terms if t.cell.kind == "term_weight"]
        sums = [t for t in terms if t.cell.kind == "term_sum"]
        level = {min(rows, key=lambda r: abs(rows[r] - float(w.get_y()))): w for w in weights}
        if len(weights) != len(window.rows) or set(level) != set(rows) or len(sums) != 1:
            problems.append(f"{where}: {len(weights)} weights and {len(sums)} sums drawn")
            return
        read_on[column] = read_on.get(column, 0) + 1
        for row, drawn in level.items():
            if abs(float(drawn.text) - weight[row, column]) > HALF_UNIT:
                problems.append(f"{where}: row {row} reads {drawn.text}, E[{row}, {column}]")
        # The sum, recomputed: every row's one-hot entry times E[k, j], added in float64.
        entries = np.zeros(weight.shape[0])
        entries[token] = 1.0
        total = float(entries @ weight[:, column])
        if abs(float(sums[0].text) - total) > HALF_UNIT:
            problems.append(f"{where}: the sum reads {sums[0].text}, not {total:.4f}")

    play_moments(board, read, alphas=ALPHAS, pixel_width=192, pixel_height=108, beats=beats)
    assert problems == [], "\n".join(problems[:20])
    others = [col for col in window.cols if col != window.cols[0]]
    assert sorted(read_on) == others, read_on
    assert min(read_on.values()) >= 5, read_on
