"""BatchLookup: the marks' lines go after the repeats beat; the marks stay.

A lecture-hall review of GPT-2's batch (issue 18, 720p) saw the lines from
``out[1,2] = out[0,0]`` and ``out[1,3] = out[0,1]`` (under E, each led to its
repeat in slice 1) stay through the ``dim`` and ``shape`` beats, pointing at
slice 1's rows long after the caption had moved on. They now fade with the
rings as the next beat's first phrase plays.

Read back from the stage's own mobjects: at the repeats beat's end every
mark's line is drawn; from the end of the next beat's first step on, none
is (no member of them on screen with any opacity), and every mark still is.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
# The default batch's and GPT-2's marks now stand under the slices with no lines (the
# input and E stay: tests/test_batch_close_thread.py); the marks over E in the block's
# place still lead to their rows.
CASES = {"four-pairs": {"ids": "1,0;2,3;3,1;0,2", "vocab": 4, "dim": 2}}
LINELESS = {"default": {}, "gpt2": GPT2, "light": {"theme": "light"}}


def _drawn(mobject: Any, shown: set[int]) -> bool:
    """Whether any member of ``mobject`` with points is on screen with some opacity.

    (A line's runs are drawn one by one: they stand on screen themselves.)
    """
    return any(
        id(m) in shown and max(float(m.get_fill_opacity()), float(m.get_stroke_opacity())) > 0
        for m in mobject.family_members_with_points()
    )


@functools.cache
def _reads(case: str) -> tuple[tuple[str, int, float, int, int, int], ...]:
    """Return (beat, step, alpha, lines drawn, marks drawn, lines there were) per sample."""
    board = prepared_storyboard("BatchLookup", {**CASES, **LINELESS}[case], environ={})
    names = [b.name for b in board.beats]
    after = names[names.index("repeats") :]
    lines: list[Any] = []
    found: list[tuple[str, int, float, int, int, int]] = []

    def read(scene: Any, moment: Any) -> None:
        stack = scene.stage.stack
        if moment.beat.name == "repeats" and moment.alpha == 1 and moment.step == 0:
            lines[:] = [*stack.links, *stack.firsts]
        shown = {id(m) for top in scene.mobjects for m in top.get_family()}
        drawn = [m for m in lines if _drawn(m, shown)]
        marks = [
            m
            for top in scene.mobjects
            for m in top.get_family()
            if getattr(getattr(m, "cell", None), "kind", None) == "equal_to" and _drawn(m, shown)
        ]
        found.append(
            (moment.beat.name, moment.step, moment.alpha, len(drawn), len(marks), len(lines))
        )

    play_moments(board, read, alphas=(0.5, 1.0), beats=set(after))
    return tuple(found)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_marks_lines_go_after_the_repeats_beat(case: str) -> None:
    """Drawn as the repeats beat ends; none drawn once the next beat's first step has played."""
    reads = _reads(case)
    # The beat's end is its last sample (step 0, alpha 1).
    ends = [r for r in reads if r[0] == "repeats"]
    assert ends
    assert ends[-1][3] == ends[-1][5] > 0, ends
    # From the end of the next beat's first step (its first sample at alpha 1) on.
    rest = [r for r in reads if r[0] != "repeats"]
    first = next(i for i, r in enumerate(rest) if r[2] == 1)
    later = rest[first:]
    assert later
    kept = [(beat, step, alpha, n) for beat, step, alpha, n, _, _ in later if n]
    assert not kept, f"the marks' lines stay after the repeats beat: {kept[:6]}"
    # The marks themselves stay, naming their rows.
    assert all(marks == ends[-1][4] > 0 for _, _, _, _, marks, _ in later)


@pytest.mark.parametrize("case", sorted(LINELESS))
def test_marks_under_the_slices_have_no_lines_and_stay(case: str) -> None:
    """Under the slices the marks name their rows by notation (rows ringed): no line is
    drawn, and every mark stays from the repeats beat's end to the last beat's."""
    reads = _reads(case)
    ends = [r for r in reads if r[0] == "repeats"]
    assert ends
    assert ends[-1][5] == 0, ends
    later = [r for r in reads if r[0] != "repeats"]
    assert later
    assert all(marks == ends[-1][4] > 0 for *_, marks, _ in later)
