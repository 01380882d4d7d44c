"""BatchLookup's last beats: the input and E stay put, the answers read large and clear.

Issue 18, a teacher's review of GPT-2's batch at 720p: the input block and
its B and T edges vanished at 66.0 s (E rose into their place for the
equality marks), and E jumped twice (66 s and 72.1 s); the answer
``output 2 × 4 × 768`` stood at a label's size under the slices, and the
marks (``out[1,2] = out[0,0]``) at a label's size under E.

Read back from the stage's own mobjects, sampled through every beat from
the first lookup to the end: E moves at most once (one glide) and, where the
input stays, not at all; every place of the block (its outline: the IDs
went on as the tags) and its B and T edges stand at every beat end after
the lookups; the shape's line is set at the labels' size, stands under the
stack and clear of every table, tag and mark (issue 18: larger, right of the
marks, it floated away from the slices); the marks are set at the table
digits' size.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np
import pytest
from manim import Group

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import SPACE
from embedviz.render.glyphs import NumberText
from embedviz.render.metrics import digit_height
from embedviz.render.moments import play_moments

GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "gpt2": GPT2,
    # The default IDs at GPT-2's size: the legend stood under the narrow slices, where
    # the marks come; it glides to the frame's right margin.
    "gpt2-default-ids": {"vocab": 50257, "dim": 768},
    "light": {"theme": "light"},
}
ALPHAS = (0.1, 0.3, 0.5, 0.7, 0.9, 1.0)
# Half seen counts as shown (conftest.SHOWN).
SHOWN = 0.5


def _box(m: Any) -> tuple[float, float, float, float]:
    low, high = m.get_corner([-1, -1, 0]), m.get_corner([1, 1, 0])
    return float(low[0]), float(low[1]), float(high[0]), float(high[1])


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _seen(scene: Any, mobject: Any) -> bool:
    """Whether ``mobject`` is on screen with some member drawn at least half seen."""
    shown = {id(m) for top in scene.mobjects for m in top.get_family()}
    return any(
        id(m) in shown and max(float(m.get_fill_opacity()), float(m.get_stroke_opacity())) >= SHOWN
        for m in mobject.family_members_with_points()
    )


@functools.cache
def _play(case: str) -> dict[str, Any]:
    """Return E's centres from the first lookup on, the block's state and the end's measures."""
    board = prepared_storyboard("BatchLookup", CASES[case], environ={})
    lookups = [i for i, b in enumerate(board.beats) if b.action in ("lookup", "lookup_many")]
    got: dict[str, Any] = {"centres": [], "block": [], "end": {}}

    def grab(scene: Any, moment: Any) -> None:
        stage = scene.stage
        index = board.beats.index(moment.beat)
        if index < lookups[0]:
            return
        got["centres"].append(np.array(stage.matrix.grid.get_center()[:2]))
        chips = stage.chips
        if index > lookups[-1] and moment.alpha >= 1:
            parts = [*chips.slots, chips.batch_label, chips.length_label]
            got["block"].append((moment.beat.name, [_seen(scene, p) for p in parts]))
        if moment.beat is board.beats[-1] and moment.alpha >= 1:
            stack = stage.stack
            shape = stack.shape
            drawn = [*stack.slices, stage.matrix.grid, *stage.chips.chips, *stack.notes]
            got["end"] = {
                "shape_digit": float(shape[0].height),
                "line_box": _box(_line_of(scene, shape)),
                "drawn": [_box(m) for m in drawn if m is not _line_of(scene, shape)],
                "marks": [
                    float(m.height)
                    for top in scene.mobjects
                    for m in top.get_family()
                    if getattr(getattr(m, "cell", None), "kind", None) == "equal_to"
                    and _seen(scene, m)
                ],
                "data": float(digit_height(stack.plan.scale.data)),
                "label_digit": float(
                    NumberText(shape[0].cell, stack.plan.scale.label, "#ffffff").height
                ),
                "stack_box": _box(Group(*stack.slices, *stack.row_numbers, stack.edge_b)),
                "label_mark": _label_mark(scene),
                "mark_digit": _mark_digit(scene),
                "keeps": bool(getattr(stage, "keeps_input", False)),
            }

    play_moments(board, grab, alphas=ALPHAS)
    return got


def _marks_on(scene: Any) -> list[Any]:
    return [
        m
        for top in scene.mobjects
        for m in top.get_family()
        if getattr(getattr(m, "cell", None), "kind", None) == "equal_to" and _seen(scene, m)
    ]


def _label_mark(scene: Any) -> float:
    """Return the height a mark on screen would have at a label's size (its size before)."""
    from embedviz.render.glyphs import NumberText

    mark = _marks_on(scene)[0]
    return float(NumberText(mark.cell, scene.stage.stack.plan.scale.label, "#ffffff").height)


def _mark_digit(scene: Any) -> float:
    """Return the digit height of the marks' font as drawn (their ink scaled to a digit)."""
    from embedviz.render.glyphs import NumberText

    mark = _marks_on(scene)[0]
    label = scene.stage.stack.plan.scale.label
    probe = float(NumberText(mark.cell, label, "#ffffff").height)
    return float(digit_height(label)) * float(mark.height) / probe


def _line_of(scene: Any, shape: Any) -> Any:
    """Return the top-level group the shape's label stands in (its line: word and sizes)."""
    for top in scene.mobjects:
        for m in top.get_family():
            if shape in m.submobjects:
                return m
    return shape


def _moves(centres: list[np.ndarray]) -> int:
    """Return how many separate runs of motion the centres show (one glide is one run)."""
    runs, moving = 0, False
    for a, b in itertools.pairwise(centres):
        now = float(np.hypot(*(b - a))) > 1e-4
        runs += now and not moving
        moving = now
    return runs


@pytest.mark.parametrize("case", sorted(CASES))
def test_e_moves_at_most_once_after_the_lookups_begin(case: str) -> None:
    """E glided up twice (66 s, 72.1 s in GPT-2's batch); where the input stays, it never moves."""
    got = _play(case)
    moves = _moves(got["centres"])
    assert moves <= 1, f"E moves {moves} times from the first lookup on"
    if got["end"]["keeps"]:
        assert moves == 0, f"E moves {moves} times though the input stays"


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_input_block_stays_at_every_beat_end_after_the_lookups(case: str) -> None:
    """Every place of the block (its outline), and its B and T edges, stand to the end."""
    got = _play(case)
    assert got["block"]
    missing = [(beat, flags.count(False)) for beat, flags in got["block"] if not all(flags)]
    assert not missing, f"the input block lost parts at (beat, how many): {missing}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_shape_is_the_stacks_label_clear_of_the_data(case: str) -> None:
    """``output 2 × 4 × 768`` is set at the labels' size, under the stack, over nothing.

    Issue 18 (a teacher's 720p review, ~81.0 s toy, ~89.6 s GPT-2): from one and a
    half caption sizes down, right of the marks, it floated bottom right, away from the
    slices, larger than every other label. Its line stands within 2 SPACE of the stack.
    """
    end = _play(case)["end"]
    assert abs(end["shape_digit"] - end["label_digit"]) < 1e-3, (
        end["shape_digit"],
        end["label_digit"],
    )
    line, stack = end["line_box"], end["stack_box"]
    gap = max(line[0] - stack[2], stack[0] - line[2], line[1] - stack[3], stack[1] - line[3])
    assert gap <= 2 * SPACE + 1e-6, f"{gap * 90:.1f} px from the stack"
    hit = [box for box in end["drawn"] if _overlap(end["line_box"], box)]
    assert not hit, f"the shape's line stands over {hit}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_marks_read_larger_than_a_label(case: str) -> None:
    """The marks under the slices are larger than a label's (a footnote's size before), at
    the table digits' size in GPT-2's batch.

    (GPT-2's size with the default IDs keeps a label's: its legend, as wide as the narrow
    slices, finds room over the caption only beside marks that small.)
    """
    end = _play(case)["end"]
    assert end["marks"], "no marks on screen"
    assert min(end["marks"]) >= end["label_mark"] - 1e-6, (end["marks"], end["label_mark"])
    if case != "gpt2-default-ids":
        assert min(end["marks"]) > end["label_mark"] + 1e-6, (end["marks"], end["label_mark"])
    if case == "gpt2":
        assert end["mark_digit"] >= end["data"] - 1e-6, (end["mark_digit"], end["data"])
