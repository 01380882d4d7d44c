"""BatchLookup: the marks' lines go after the repeats beat; the marks and their letters stay.

A lecture-hall review of GPT-2's batch (issue 18, 720p) saw the lines from
``out[1,2] = out[0,0]`` and ``out[1,3] = out[0,1]`` (under E, each led to its
repeat in slice 1) stay through the ``dim`` and ``shape`` beats, pointing at
slice 1's rows long after the caption had moved on. They now fade with the
rings as the next beat's first phrase plays.

Since session 34 no mark leads a line to its rows (each pair's letter names
them). Read back from what is on screen: from the repeats beat's end on, no
line leads from a mark (no open line in the marks' colour from its right
end: ``test_batch_repeats._leaders``), and every mark and letter stays.
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
# Four pairs' marks over E led lines to their rows until session 34; each pair's rows and
# marks now carry its letter (parts.pair_marks), which stays with the marks.
LINELESS = {
    "default": {},
    "gpt2": GPT2,
    "light": {"theme": "light"},
    "four-pairs": {"ids": "1,0;2,3;3,1;0,2", "vocab": 4, "dim": 2},
}


def _drawn(mobject: Any, shown: set[int]) -> bool:
    """Whether any member of ``mobject`` with points is on screen with some opacity.

    (A line's runs are drawn one by one: they stand on screen themselves.)
    """
    return any(
        id(m) in shown and max(float(m.get_fill_opacity()), float(m.get_stroke_opacity())) > 0
        for m in mobject.family_members_with_points()
    )


@functools.cache
def _reads(case: str) -> tuple[tuple[str, int, float, int, int, int, int], ...]:
    """Return (beat, step, alpha, lines drawn, marks drawn, -, letters drawn) per sample
    (lines read at beat ends only)."""
    from test_batch_repeats import _leaders

    board = prepared_storyboard("BatchLookup", LINELESS[case], environ={})
    names = [b.name for b in board.beats]
    after = names[names.index("repeats") :]
    found: list[tuple[str, int, float, int, int, int, int]] = []

    def read(scene: Any, moment: Any) -> None:
        shown = {id(m) for top in scene.mobjects for m in top.get_family()}
        family = [m for top in scene.mobjects for m in top.get_family()]
        drawn = []
        if moment.alpha == 1:
            leaders = _leaders({"stage": scene.stage, "drawn": family})
            drawn = [run for runs in leaders.values() for run in runs]
        marks = [
            m
            for top in scene.mobjects
            for m in top.get_family()
            if getattr(getattr(m, "cell", None), "kind", None) == "equal_to" and _drawn(m, shown)
        ]
        letters = [
            m
            for top in scene.mobjects
            for m in top.get_family()
            if isinstance(getattr(m, "letter", None), str) and _drawn(m, shown)
        ]
        found.append(
            (
                moment.beat.name,
                moment.step,
                moment.alpha,
                len(drawn),
                len(marks),
                0,
                len(letters),
            )
        )

    play_moments(board, read, alphas=(0.5, 1.0), beats=set(after))
    return tuple(found)


@pytest.mark.parametrize("case", sorted(LINELESS))
def test_marks_under_the_slices_have_no_lines_and_stay(case: str) -> None:
    """Under the slices the marks name their rows by notation (rows ringed): no line is
    drawn, and every mark stays from the repeats beat's end to the last beat's."""
    reads = _reads(case)
    ends = [r for r in reads if r[0] == "repeats"]
    assert ends
    assert all(r[3] == 0 for r in reads), [r for r in reads if r[3]]
    later = [r for r in reads if r[0] != "repeats"]
    assert later
    assert all(marks == ends[-1][4] > 0 for *_, marks, _, _ in later)


@pytest.mark.parametrize("case", sorted(LINELESS))
def test_the_pairs_letters_stay_with_the_marks(case: str) -> None:
    """The rows' rings go with the next beat's first phrase; each pair's letters (on its
    rows and at its marks' starts: parts.pair_marks) stay with the marks to the last
    beat's end, naming the pairs the marks write: one on each marked row and each mark."""
    reads = _reads(case)
    end = [r for r in reads if r[0] == "repeats"][-1]
    board = prepared_storyboard("BatchLookup", LINELESS[case], environ={})
    rows = sum(role.startswith("pair_") for role in board.beats[-1].labels)
    assert end[6] == rows + end[4], end
    later = [r for r in reads if r[0] != "repeats"]
    assert later
    assert all(r[6] == end[6] for r in later), later
