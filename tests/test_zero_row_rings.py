"""TrainingNudge's ``unchanged`` beat: each zero row's passing ring frames the whole row.

A 720p review at GPT-2 size (issue 18, about 52.3-53.7 s): the purple rings on the
zero-gradient rows 0 and 50256 began about 17 px inside the rows' left edge, round
the numbers' ink and not round the cells (the first column's cell padding stood
outside them), so they framed only part of each row. Each ring now runs on its
row's cells: mid-beat, every highlight-coloured ring on the gradient has its left
side within 2 px of the row's first cell's left edge and its right side within
2 px of the last cell's right edge, and its middle on its row, at toy and GPT-2 size.
"""

from __future__ import annotations

from typing import Any

import pytest
from boards import shared_board
from conftest import box_of
from manim import Rectangle, config

from embedviz.render.moments import MomentScene, play_moments

GPT2: dict[str, Any] = {"vocab": 50257, "dim": 768}
SLACK_PX = 2.0


def _rings(scene: MomentScene) -> list[tuple[float, float, float, float]]:
    """(left, bottom, right, top) of every visible highlight-coloured rectangle."""
    colour = scene.stage.theme.highlight.lower()
    found = []
    for top in scene.mobjects:
        for mobject in top.get_family():
            if not isinstance(mobject, Rectangle) or mobject.get_num_points() == 0:
                continue
            if mobject.get_stroke_color().to_hex().lower() != colour:
                continue
            if mobject.get_stroke_width() <= 0 or mobject.get_stroke_opacity() < 0.05:
                continue
            (left, bottom), (right, top_y) = box_of(mobject)
            found.append((float(left), float(bottom), float(right), float(top_y)))
    return found


@pytest.mark.parametrize("overrides", [{}, GPT2], ids=["toy", "gpt2"])
def test_each_zero_rows_ring_spans_its_whole_row(overrides: dict[str, Any]) -> None:
    px = 720 / float(config.frame_height)
    problems: list[str] = []
    framed: set[int] = set()
    zero_rows: set[int] = set()

    def check(scene: MomentScene, moment: Any) -> None:
        gradient = scene.stage.gradient
        grid = gradient.grid
        boxes = {row: grid.row_box(row, buff=0.0) for row in gradient.zero_rows}
        zero_rows.update(boxes)
        for ring in _rings(scene):
            middle = (ring[1] + ring[3]) / 2
            row = next((r for r, b in boxes.items() if b[1] < middle < b[3]), None)
            if row is None:
                continue  # a ring elsewhere (not on a zero row)
            framed.add(row)
            box = boxes[row]
            off = ((ring[0] - box[0]) * px, (ring[2] - box[2]) * px)
            if max(abs(off[0]), abs(off[1])) > SLACK_PX:
                where = f"step {moment.step} a{moment.alpha:.2f}"
                problems.append(f"{where} row {row}: left {off[0]:+.1f} px, right {off[1]:+.1f} px")

    board = shared_board("TrainingNudge", overrides)
    play_moments(board, check, alphas=(0.25, 0.5, 0.75), beats={"unchanged"})
    assert zero_rows
    assert framed == zero_rows, (framed, zero_rows)
    assert not problems, problems
