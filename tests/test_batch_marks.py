"""BatchLookup at 720p: the slices' labels, the title band, the output's panel.

Issue 18's frame review of the batch (labels readable and not colliding, no
blank boxes) measured, at 720p, "slice 0" 3 px over its slice, a legend
16 px from the title, and the output's panel blank for the first beats.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_batch import _end_of_repeats, _end_of_shape  # the stage as those beats end

from embedviz.inputs import prepared_storyboard

PX = 720 / 8
GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
CASES = [{}, {"theme": "light"}, GPT2]


def _frame_box(grid: Any) -> np.ndarray:
    """Return a slice's body frame's box, its stroke's ink included."""
    from conftest import box_of

    frame = grid.body[0]
    reach = float(frame.get_stroke_width()) / 200
    return box_of(frame) + np.array([[-reach, -reach], [reach, reach]])


@pytest.mark.parametrize("overrides", [*CASES, {"ids": "1;2;3"}])
def test_each_slice_label_stands_clear_of_the_slices(overrides: dict[str, Any]) -> None:
    """Each slice's header ("slice 1") keeps at least 10 px of clear ground at 720p from its
    slice under it and from the slice over it, and does not overhang its slice's left edge
    (a review measured 3 px over slice 0, 1 px past its edge, and "slice 1" 5 px under one
    slice and 3 px over the other)."""
    from conftest import box_of

    stage = _end_of_shape(overrides)["stage"]
    stack = stage.stack
    for b, (grid, header) in enumerate(zip(stack.slices, stack.headers, strict=True)):
        body, ink = _frame_box(grid), box_of(header)
        assert (ink[0][1] - body[1][1]) * PX >= 10, (b, (ink[0][1] - body[1][1]) * PX)
        assert ink[0][0] >= body[0][0], (b, (body[0][0] - ink[0][0]) * PX)
        if b:
            over = _frame_box(stack.slices[b - 1])
            assert (over[0][1] - ink[1][1]) * PX >= 10, (b, (over[0][1] - ink[1][1]) * PX)


def _title_legend(overrides: dict[str, Any]) -> tuple[np.ndarray, np.ndarray | None, Any]:
    """Return the title's ink, the legend's (None where it has none) and the stage."""
    from conftest import box_of

    stage = _end_of_shape(overrides)["stage"]
    legend = stage.matrix.legend
    return box_of(stage.title), None if legend is None else box_of(legend), stage


@pytest.mark.parametrize("overrides", CASES)
def test_the_title_stands_centred_and_clear_of_the_legend(overrides: dict[str, Any]) -> None:
    """The title stands centred in the frame, and a legend level with it keeps at least
    40 px of clear ground from it at 720p (a review measured 16 px, title x 278-1003 and
    the legend from x 1019, which read as one line and the title as off-centre)."""
    title, legend, _ = _title_legend(overrides)
    assert abs(float(title[0][0] + title[1][0])) / 2 * PX <= 1.0
    if legend is None or legend[0][1] >= title[1][1] or legend[1][1] <= title[0][1]:
        return
    gap = max(float(legend[0][0] - title[1][0]), float(title[0][0] - legend[1][0]))
    assert gap * PX >= 40, gap * PX


@pytest.mark.parametrize("overrides", [{}, GPT2])
def test_the_last_beats_leave_no_band_empty(overrides: dict[str, Any]) -> None:
    """At the repeats and shape beats' ends no empty area between the title and the caption
    is larger than an eighth of the frame (a review measured a full-width empty band under
    the slices at the default's shape end, y 550-646: 0.133; the legend now stands there)."""
    from frame_space import empty_shares

    shares = empty_shares("BatchLookup", overrides)
    last = {beat: shares[beat] for beat in ("repeats", "shape")}
    assert max(last.values()) <= 1 / 8, last


CORRIDOR = {"vocab": 50257, "dim": 768, "ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1"}


@pytest.mark.parametrize(
    "overrides", [*CASES, CORRIDOR, {**CORRIDOR, "vocab": 10, "dim": 5}, {"ids": "1;2;3"}]
)
def test_the_taller_headers_cost_the_numbers_no_floor(overrides: dict[str, Any]) -> None:
    """The slices' headers with their clear ground make the stack taller: the 3 x 6 batch
    drew its numbers at 15.4 px with them, under the 18 px floor it kept with the old, shorter
    header band (18.1 px). Wherever the old band keeps the numbers over a floor (18 or 24 px
    at 720p), the solved layout does too."""
    from dataclasses import replace

    from embedviz.render.batch_plan import batch_spec
    from embedviz.render.design import MIN_DATA_PX, MIN_DEFAULT_DATA_PX, px_for_font
    from embedviz.render.solve_batch import solve_batch

    spec = batch_spec(prepared_storyboard("BatchLookup", overrides, environ={}))
    chosen = px_for_font(solve_batch(spec).scale.data)
    old = px_for_font(solve_batch(replace(spec, header_clear=False)).scale.data)
    for floor in (MIN_DATA_PX, MIN_DEFAULT_DATA_PX):
        if old >= floor:
            assert chosen >= floor - 1e-6, (floor, chosen, old)


@pytest.mark.parametrize("overrides", [{}, CORRIDOR])
def test_the_question_stands_inside_the_output_panel(overrides: dict[str, Any]) -> None:
    """At the intro's end the question ("output shape?") stands inside the output's plain
    panel, the only thing drawn in it before the reveal (tests/test_batch_predict.py): in
    the 3 x 6 batch at GPT-2 size the panel spans the T and B edges' place too."""
    from conftest import box_of

    from embedviz.render.moments import play_moments

    board = prepared_storyboard("BatchLookup", overrides, environ={})
    boxes: list[tuple[np.ndarray, np.ndarray]] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha == 1.0 and moment.beat.name == "intro":
            stack = scene.stage.stack
            boxes.append((box_of(stack.placeholder), box_of(stack.question)))

    play_moments(board, read, alphas=())
    assert len(boxes) == 1
    for panel, part in boxes:
        assert (part[0] >= panel[0] - 1e-6).all(), (panel * PX, part * PX)
        assert (part[1] <= panel[1] + 1e-6).all(), (panel * PX, part * PX)


@pytest.mark.parametrize(
    "overrides", [{}, GPT2, {"ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1", "vocab": 10, "dim": 5}]
)
def test_the_pair_letters_read_in_order_down_the_batch(overrides: dict[str, Any]) -> None:
    """Read down the slices, each repeated ID's letter first comes in order: a, then b, ...

    A review of the toy batch saw (b) over (a) in slice 0 (the letters followed
    the marks' order, not their rows'). The marks' lines, where they stand in
    one column one under the other (not each level with its row), read in
    their letters' order too.
    """
    from embedviz.render.parts.pair_marks import pair_letters

    seen = _end_of_repeats(overrides)
    stage = seen["stage"]
    badges = sorted(stage.stack.row_badges, key=lambda b: -float(b.get_center()[1]))
    order = list(dict.fromkeys(b.letter for b in badges))
    assert len(order) >= 2, order
    assert order == sorted(order), order
    letters = pair_letters(stage.board.beats[-1])
    marks = [
        m
        for m in stage.stack.notes.get_family()
        if getattr(getattr(m, "cell", None), "kind", None) == "equal_to" and id(m) in seen["shown"]
    ]
    assert marks
    slices = stage.stack.slices
    # Right of the slices each mark stands level with its own row: the rows order them.
    half = stage.plan.sizes.row_height / 2
    level = all(
        abs(float(m.get_center()[1]) - slices[m.cell.index[0]].row_y(m.cell.index[1])) < half
        for m in marks
    )
    lefts = {round(float(m.get_left()[0]), 3) for m in marks}
    if len(lefts) == 1 and not level:
        down = sorted(marks, key=lambda m: -float(m.get_center()[1]))
        written = [letters[tuple(m.cell.index)] for m in down]
        assert written == sorted(written), written
