"""A travelling strip heads for its own output row, and shows no number beside its source row.

A teacher's review of mid-motion 720p frames of the lookup family rejected two
things, both read back here from a dry run sampled at many moments of every
lookup beat (default SequenceLookup, GPT-2's sizes, the GPT-2 batch, the
default batch and the 3 x 6 batch):

- beside the matrix a strip went out across the output block at its source
  row's height and only then up or down into its row: mid-motion it stood in
  the block's columns level with another ID's row (the ID-2 strip of the
  default beside chip 5, going to row 0), and a viewer following one ID read
  it as landing there. Now, whenever a strip is clear of the matrix and over
  the output block, level (within a third of a row) with an output row not
  its own, it must be between its source's height and its target's, moving
  on toward its target (its next sample is nearer its target's height), and
  nearer where it stood clear of the matrix (touching the matrix's right
  edge) than its landing place: it crosses other rows on its way up or down,
  never aligned with their cells;
- while a strip slid out of its row, its last number showed just right of the
  matrix on the row's line, and the row read as one more value
  (``1.2753 -0.2010 -0.1606 -0.1606``). Now, while the strip still overlaps
  the matrix's columns, no strip number that shows (opacity over 0.05)
  stands on its source row's line (its centre less than half a row off the
  row's centre line) within the matrix's columns or one column width right
  of them, unless the row's own numbers are hidden or faint then (a riding
  strip lifts out of its row, parts/lift.py: those under it hidden, those it
  has passed faint, so the row reads as copied, not as longer). (Once all of
  it is out beside the matrix it reads as a copy.)

Heights and spans are read from the frame as drawn (grids' row centre lines,
bodies' edges, the output row's numbers the strip hands over to). A row
under another slice's opaque body drawn over it (a batch's slice folded
behind slice 0) does not show and is not read.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

ALPHAS = tuple(k / 20 for k in range(1, 20))
GPT2 = {"vocab": 50257, "dim": 768}
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "default": ("SequenceLookup", {}),
    "gpt2": ("SequenceLookup", {**GPT2, "ids": "4821,0,50256"}),
    "gpt2-batch": ("BatchLookup", {**GPT2, "ids": "4821,0,50256,17;33000,2,4821,0"}),
    # The default batch's strips rose at the walking column's middle, as near slice 1's
    # cells as E's side, and stood in its rows' cells on their way to slice 0 (issue 18).
    "batch": ("BatchLookup", {}),
    # The corridor arrangement (a strip-wide walking column).
    "batch-3x6": (
        "BatchLookup",
        {"ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1", "vocab": 10, "dim": 5},
    ),
}
# A pixel at 720p (scene units).
PIXEL = 8 / 720
SHOWN = 0.05
# A lifting row's own numbers the copy has passed show this faintly at most while the
# copy still reaches into the matrix: the source left behind, not more of its values
# (a review read the row blank through the whole slide as moved, not copied).
FAINT = 0.4

Box = tuple[float, float, float, float]


@dataclass
class _Sample:
    """One travelling strip at one moment, and what stood around it."""

    where: str
    strip: int
    time: float
    box: Box
    numbers: list[tuple[Box, float]]
    target_y: float
    source_y: float | None
    # How far right of its row the strip stands (its first number's from the row's).
    slid: float | None
    matrix: Box
    cell: float
    row_h: float
    # Each output row as (its grid body's left, right, its centre line).
    rows: list[tuple[float, float, float]]
    # Each output grid's body (left, right) and its centre x.
    bodies: list[tuple[float, float]]
    # The largest opacity of the source row's own numbers in the matrix (0 for a hidden row).
    own: float = 0.0


def _box(mobject: Any) -> Box:
    low, high = mobject.get_corner([-1, -1, 0]), mobject.get_corner([1, 1, 0])
    return float(low[0]), float(low[1]), float(high[0]), float(high[1])


def _under(grid: Any, row_y: float, grids: list[Any]) -> bool:
    """Whether a row's line lies under another grid's opaque body drawn over it.

    A batch's slice folded behind slice 0 (parts/batch_fold.py): its rows
    do not show, and no strip reads as level with them.
    """
    for other in grids:
        left, bottom, right, top = _box(other.body)
        over = other.body[0].z_index > grid.body[0].z_index
        if (
            over
            and bottom < row_y < top
            and left < _box(grid.body)[2]
            and _box(grid.body)[0] < right
        ):
            return True
    return False


def _read(scene: MomentScene, moment: Any, found: list[_Sample]) -> None:
    if not moment.beat.name.startswith("lookup"):
        return
    motion: Any = scene.stage.motion
    shown = {id(m) for top in scene.mobjects for m in top.get_family()}
    output = motion.output
    grids = list(getattr(output, "slices", None) or [output.grid])
    rows = []
    for grid in grids:
        left, _, right, _ = _box(grid.body)
        rows += [
            (left, right, float(grid.row_y(r)))
            for r in grid.get_rows()
            if not _under(grid, float(grid.row_y(r)), grids)
        ]
    bodies = [(_box(g.body)[0], _box(g.body)[2]) for g in grids]
    matrix = motion.matrix.grid
    row_h = float(motion.plan.sizes.row_height)
    where = f"{moment.beat.name} a{moment.alpha:.2f} s{moment.step}"
    for carry in motion.carries:
        strip = carry.strip
        if carry.landed or id(strip) not in shown or len(strip) < 2 or not carry.targets:
            continue
        numbers = [
            (_box(text), float(text.get_fill_opacity()))
            for text in [*strip[1].submobjects, *strip[2].submobjects]
        ]
        target_y = float(np.mean([t.get_center()[1] for t in carry.targets]))
        # Its matrix row's centre line (a hidden row's band: where it was first seen).
        drawn = carry.row in matrix.get_rows()
        source_y = float(matrix.row_y(carry.row)) if drawn else None
        slid = None
        own = 0.0
        if drawn:
            texts = [*matrix.get_row_numbers(carry.row), *matrix.marks.get(carry.row, [])]
            own = max((float(t.get_fill_opacity()) for t in texts), default=0.0)
        if drawn and strip[1].submobjects:
            first = matrix.get_row_numbers(carry.row)[0]
            slid = float(strip[1].submobjects[0].get_center()[0] - first.get_center()[0])
        found.append(
            _Sample(
                where,
                id(strip),
                moment.time,
                _box(strip[0]),
                numbers,
                target_y,
                source_y,
                slid,
                _box(matrix.body),
                float(matrix.col_slots[-1].size),
                row_h,
                rows,
                bodies,
                own,
            )
        )


@functools.cache
def _samples(case: str) -> tuple[_Sample, ...]:
    scene, overrides = CASES[case]
    board = prepared_storyboard(scene, overrides, environ={})
    found: list[_Sample] = []
    play_moments(board, lambda s, m: _read(s, m, found), alphas=ALPHAS)
    return tuple(found)


def _by_strip(samples: tuple[_Sample, ...]) -> dict[int, list[_Sample]]:
    strips: dict[int, list[_Sample]] = {}
    for sample in samples:
        strips.setdefault(sample.strip, []).append(sample)
    for seen in strips.values():
        seen.sort(key=lambda s: s.time)
    return strips


def _source_y(sample: _Sample, first: _Sample) -> float:
    """Return the strip's source row's centre line (where it was first seen, for a band)."""
    if sample.source_y is not None:
        return sample.source_y
    return (first.box[1] + first.box[3]) / 2


def _misled(sample: _Sample, source_y: float, after: _Sample | None) -> list[str]:
    """Return why ``sample`` stands level with another output row in the block, if it does."""
    left, bottom, right, top = sample.box
    matrix_left, _, matrix_right, _ = sample.matrix
    width = right - left
    # Clear of the matrix, and wholly drawn (the strip's own box, not its part out of its row).
    if left < matrix_right - 1e-6 or width < matrix_right - matrix_left - 1e-6:
        return []
    centre = ((left + right) / 2, (bottom + top) / 2)
    landing = next(
        ((a + b) / 2 for a, b in sample.bodies if abs((b - a) - width) < 1e-3 and a < right),
        None,
    )
    problems = []
    for row_left, row_right, row_y in sample.rows:
        over = right > row_left + PIXEL and left < row_right - PIXEL
        own = abs(row_y - sample.target_y) < 1e-3
        if not over or own or abs(centre[1] - row_y) >= sample.row_h / 3:
            continue
        low, high = sorted((source_y, sample.target_y))
        if not low - 1e-3 <= centre[1] <= high + 1e-3:
            problems.append(f"level with the row at {row_y:.3f}, beyond its way")
        if after is not None:
            now = abs(centre[1] - sample.target_y)
            then = abs((after.box[1] + after.box[3]) / 2 - sample.target_y)
            if then > now - 1e-4:
                problems.append(f"held level with the row at {row_y:.3f}")
        if landing is not None:
            cleared = matrix_right + width / 2
            if abs(centre[0] - landing) < abs(centre[0] - cleared):
                problems.append(f"in the cells of the row at {row_y:.3f}")
    return problems


# Issue 18's trade at GPT-2's size and the toy's (ride.strip_way): a strip going to a row of
# the raised block from under it must pass the heights of the rows between, where E's rows
# stand level with the block's; the corridor is narrower than a strip, so at those heights
# it stands either beside E's rows, numbers shown (tests/test_strip_beside.py), or in the
# block's empty rows' cells. It rises through the cells now: GPT-2's row 4821 through
# output rows 2 and 1 (lookup-0, 0.85 to 0.90 of its second step), the toy's rows 2, 3
# and 5 through rows 3 and 2 (lookup-0, lookup-1, lookup-rest). No chip waits there (they
# wait in the lane over E), no number is covered, and it never stops there.
# No route passes both rules here (seq41, measured at lookup-0's end): at a height level
# with one of E's other rows, test_strip_beside bars the strip's numbers from E's right edge
# until they reach the block's number column, and this test bars it from there over the
# block; the toy's output rows 2, 3 stand at E's rows 0, 1 (y 0.668, 0.043), GPT-2's rows 1,
# 2 at E's 0, 1 (1.345, 0.829). Left of the block it covers E's numbers (toy: strip 5.61
# wide, corridor 0.64; GPT-2: 3.81, 1.29); right of it, off the frame (its right end at
# 10.93 and 9.09, the frame's edge 7.11). The corridor arrangement (clear_block: 4.55 and
# 4.07 wide) passes this test but sets the numbers at 18.4 px (toy, under its 24 px floor)
# and 18.5 px (GPT-2, from 24.2), leaves the intro 25.9 % and 23.2 % empty, and its copies
# still rise in the corridor beside E's rows (toy: 5 beside 4; GPT-2: 4821 beside 4820).
THROUGH = pytest.mark.xfail(
    strict=True, reason="issue 18: a strip rises through the raised block's empty rows"
)
HEADING_MARKS = {"default": THROUGH, "gpt2": THROUGH}


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, marks=HEADING_MARKS[c]) if c in HEADING_MARKS else c for c in sorted(CASES)],
)
def test_a_strip_over_the_block_heads_for_its_own_row(case: str) -> None:
    strips = _by_strip(_samples(case))
    checked = 0
    bad = []
    for seen in strips.values():
        first = seen[0]
        for sample, after in zip(seen, [*seen[1:], None], strict=True):
            problems = _misled(sample, _source_y(sample, first), after)
            checked += 1
            bad += [(sample.where, p) for p in problems]
    assert checked, "no strip was seen: nothing was checked"
    assert not bad, bad[:6]


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_strip_number_shows_beside_its_source_row(case: str) -> None:
    strips = _by_strip(_samples(case))
    shown = 0
    bad = []
    for seen in strips.values():
        for sample in seen:
            source_y = _source_y(sample, seen[0])
            matrix_left, _, matrix_right, _ = sample.matrix
            # Once the whole strip is out beside the matrix it reads as a copy of the row.
            if sample.slid is None or sample.slid >= matrix_right - matrix_left - 1e-6:
                continue
            # A strip seen while it slides out (its numbers may all be hidden then).
            shown += 1
            if sample.own <= FAINT:
                continue  # the row lifts out: its own numbers hidden, or faint (the source)
            for (left, bottom, right, top), opacity in sample.numbers:
                if opacity <= SHOWN:
                    continue
                on_line = abs((bottom + top) / 2 - source_y) < sample.row_h / 2
                beside = left < matrix_right + sample.cell - PIXEL and right > matrix_left
                if on_line and beside:
                    bad.append((sample.where, round(left - matrix_right, 3), round(opacity, 2)))
    assert shown, "no strip was seen sliding out: nothing was checked"
    assert not bad, bad[:6]
