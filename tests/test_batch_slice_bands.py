"""BatchLookup: a copy on its way to slice b never passes over another slice's rows.

Issue 18, a 720p review of mid-motion frames (lookup beats at 0.2 to 0.8 of
their steps), default batch and GPT-2's: sequence 0's copies rose beside E,
across slice 1's empty, dimmed rows on their way to slice 0; for a moment a
copy lay over slice 1's rows and read as landing in the wrong slice.
tests/test_batch_paths.py lets a strip pass over a slice with no rows in yet
(its rule is about covering rows already filled); here no travelling strip's
box overlaps the body (the row band: frame and rows) of any slice but its
own, filled or empty, by more than a pixel both ways, at any sample or
between two samples of one step where it rose or fell (a strip may cross a
slice's four rows in a twentieth of a step). A slice folded behind the
strip's own slice (parts/batch_fold.py: drawn under it, its opaque body
hiding the other's rows) counts only where it shows: what lies inside the
own slice's body is over that slice, as in tests/test_batch_paths.py.

In the ``beside`` arrangement no way of a whole strip and no place of the
stack kept the copies off slice 1 (session 39, in row units: the column
beside E is narrower than a strip, and no stack top or spread up to 16 rows
kept every copy off another slice's rows with the headers clear and a clear
fill order); the corridor arrangement did, at the cost of the type floors.
So an empty slice whose band the beat's copies would cross now steps aside
while they pass (parts/batch_fold.py): it slides up behind their slice (its
frame's top edge peeking over it) and back to its place once the beat's rows
are in, each way a glide of half a second at least; every beat ends with
every slice in its place (a slice left folded until its own turn left its
place empty at GPT-2's beat ends, 20.4 % of the frame). The corridor case
keeps its own way (no fold).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from boards import shared_board
from carry_plays import drawn_box
from test_batch_paths import _box, _cut, _within

from embedviz.render.moments import MomentScene, play_moments

ALPHAS = tuple(i / 20 for i in range(1, 20))
GPT2 = {"ids": [[4821, 0, 50256, 17], [33000, 2, 4821, 0]], "vocab": 50257, "dim": 768}
OPTIONS: dict[str, dict[str, Any]] = {
    "default": {},
    "light": {"theme": "light"},
    "gpt2": GPT2,
    # The corridor arrangement (tests/test_batch_paths.py's case): strips go down the
    # corridor between E and the stack and slide into their rows from the left.
    "corridor": {"vocab": 50257, "dim": 768, "ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1"},
}
CASES = sorted(OPTIONS)

Box = tuple[float, float, float, float]


def _swept(one: Box, two: Box) -> Box:
    """What a strip passed over between two samples: all between, where it went up or down.

    A strip that rose or fell (no more than a tenth of its width sideways)
    passed every row between; one that also went sideways turned a corner
    (out of E, into its row), and the hull of two boxes would hold places it
    never passed: only its box at the later sample counts.
    """
    if abs(one[0] - two[0]) > 0.1 * (two[2] - two[0]):
        return two
    return min(one[0], two[0]), min(one[1], two[1]), max(one[2], two[2]), max(one[3], two[3])


def _read(scene: MomentScene, moment: Any, found: dict[str, Any]) -> None:
    """Note each travelling strip over a slice not its own (at or since the last sample)."""
    stage: Any = scene.stage
    shown = {id(m) for top in scene.mobjects for m in top.get_family()}
    slices = stage.stack.slices
    length = len(stage.stack.positions) // len(slices)
    chips = stage.chips.chips
    where = f"{moment.beat.name} s{moment.step} a{moment.alpha:.2f}"
    found["copies"] = len(slices) * length
    # Each slice's top over slice 0's (a folded slice's stands just over it).
    top = slices[0].body_top()
    found["tops"].append((moment.time, where, [g.body_top() - top for g in slices]))
    for carry in stage.motion.carries:
        strip = carry.strip
        if carry.landed or carry.chip is None or id(strip) not in shown or not len(strip):
            continue
        box = drawn_box(strip)
        if box is None:
            continue
        found["seen"].add(id(carry))
        b = next(i for i, c in enumerate(chips) if c is carry.chip) // length
        reached = box
        before = found["last"].get(id(carry))
        if before is not None and before[0] == (moment.beat.name, moment.step):
            reached = _swept(before[1], box)
        found["last"][id(carry)] = ((moment.beat.name, moment.step), box)
        own = slices[b]
        for other, grid in enumerate(slices):
            cut = _cut(reached, _box(grid.body)) if other != b else None
            if cut is None or _hidden(cut, own, grid):
                continue
            found["over"].append((where, f"row {strip.source_row} to slice {b}", other))


def _hidden(cut: Box, own: Any, other: Any) -> bool:
    """Whether ``cut`` of another slice lies under the strip's own slice (drawn over it)."""
    under = other.body[0].z_index < own.body[0].z_index
    return under and _within(cut, _box(own.body))


@functools.cache
def _found(case: str) -> dict[str, Any]:
    board = shared_board("BatchLookup", OPTIONS[case])
    found: dict[str, Any] = {"seen": set(), "over": [], "last": {}, "tops": []}
    names = {beat.name for beat in board.beats if beat.action in ("lookup", "lookup_many")}
    play_moments(board, lambda s, m: _read(s, m, found), alphas=ALPHAS, beats=names)
    return found


@pytest.mark.parametrize("case", sorted(OPTIONS))
def test_every_copy_is_seen_travelling(case: str) -> None:
    """The rule below reads every copy on its way (so an open case fails on the rule alone)."""
    found = _found(case)
    assert len(found["seen"]) == found["copies"]


@pytest.mark.parametrize("case", CASES)
def test_a_copy_passes_over_no_other_slices_rows(case: str) -> None:
    """No travelling strip overlaps another slice's body (its row band), filled or empty."""
    assert not _found(case)["over"], _found(case)["over"][:8]


@pytest.mark.parametrize("case", CASES)
def test_every_slice_stands_in_its_place_at_every_lookup_beat_end(case: str) -> None:
    """A slice folded for the copies is back in its place whenever a beat ends (a0 = 1)."""
    tops = _found(case)["tops"]
    home = tops[0][2]
    ends = [(where, now) for _, where, now in tops if where.endswith("a1.00")]
    assert len(ends) >= 4
    away = [(where, now) for where, now in ends if not np.allclose(now, home, atol=1e-6)]
    assert not away, away[:4]


@pytest.mark.parametrize("case", [c for c in CASES if c != "corridor"])
def test_slice_1_folds_and_comes_back_calmly(case: str) -> None:
    """Slice 1 folds behind slice 0 and back in a glide of half a second at least, never a jump.

    Each way is seen mid-way at two samples at least, and half a second at
    least passes from its last sample at one end to its first at the other.
    """
    tops = [(time, where, now[1]) for time, where, now in _found(case)["tops"]]
    home = tops[0][2]
    folded = max(now for _, _, now in tops)
    assert 0 < folded < 0.2, folded
    ends = [(home, "home"), (folded, "folded")]
    at = [
        (time, where, next((n for v, n in ends if abs(now - v) < 1e-6), None))
        for time, where, now in tops
    ]
    ways, last = [], None
    for time, where, end in at:
        if end is None:
            if last is not None:
                last[2].append(time)
            continue
        if last is not None and last[1] != end:
            ways.append((last[0], time, last[2], where))
        last = (time, end, [])
    assert len(ways) >= 6, ways
    short = [
        (where, round(t1 - t0, 2), len(mid))
        for t0, t1, mid, where in ways
        if t1 - t0 < 0.5 or len(mid) < 2
    ]
    assert not short, short
