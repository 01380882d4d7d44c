"""The empty-area search finds every row's answer at once, and it is the row-by-row walk's.

:func:`~embedviz.render.space.largest_empty_rectangle` is what PositionBlindness's
``same`` beat measures hundreds of layouts with (``PositionStage._drop``, a third
of the scene's play when the search walked its rows one numpy step at a time).
Found for all rows at once, it must give the very floats the walk gave, or a
layout's choice could move: each case here is checked against the walk written
out in plain Python from its description (exactly) and against every rectangle
whose edges are the boxes' and the band's (its area, to rounding).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from embedviz.render import space
from embedviz.render.space import Box, largest_empty_rectangle

LINE = 1e-6  # a line (no width or height) counts as a millionth wide about its centre


def _thick(box: Box) -> Box:
    x0, y0, x1, y1 = box
    if x1 - x0 < LINE:
        x0, x1 = (x0 + x1 - LINE) / 2, (x0 + x1 + LINE) / 2
    if y1 - y0 < LINE:
        y0, y1 = (y0 + y1 - LINE) / 2, (y0 + y1 + LINE) / 2
    return (x0, y0, x1, y1)


def _clipped(boxes: list[Box], region: Box) -> list[Box]:
    """The boxes, thickened, cut to the region (those that reach into it)."""
    left, bottom, right, top = region
    return [
        (max(b[0], left), max(b[1], bottom), min(b[2], right), min(b[3], top))
        for b in map(_thick, boxes)
        if b[2] > left and b[0] < right and b[3] > bottom and b[1] < top
    ]


def _holds(a: Box, b: Box) -> bool:
    return a[0] <= b[0] and a[1] <= b[1] and b[2] <= a[2] and b[3] <= a[3]


def _walk(boxes: list[Box], region: Box) -> tuple[float, float, float, float, float]:
    """The row-by-row walk: cells between the outermost boxes' edges, from the top row down.

    Each free cell keeps the free height above it (summed in walking order)
    and the widest run of cells free over all that height; a row's first
    widest cell replaces the best only when it beats it by more than 1e-12.
    """
    left, bottom, right, top = region
    cut = _clipped(boxes, region)
    # A box another holds whole adds only cuts (of equal boxes the first stays).
    kept = [
        b
        for i, b in enumerate(cut)
        if not any(
            (_holds(a, b) and not _holds(b, a)) or (j < i and a == b) for j, a in enumerate(cut)
        )
    ]
    xs = sorted({left, right, *(e for b in kept for e in (b[0], b[2]) if left < e < right)})
    ys = sorted({bottom, top, *(e for b in kept for e in (b[1], b[3]) if bottom < e < top)})
    count = len(xs) - 1

    def is_covered(row: int, col: int) -> bool:
        return any(
            b[0] <= xs[col] and xs[col + 1] <= b[2] and b[1] <= ys[row] and ys[row + 1] <= b[3]
            for b in kept
        )

    best = (0.0, left, bottom, left, bottom)
    most = 1e-12
    free, lefts, rights = [0.0] * count, [0] * count, [count] * count
    for row in range(len(ys) - 2, -1, -1):
        blocked = [is_covered(row, col) for col in range(count)]
        areas = []
        for col in range(count):
            if blocked[col]:
                free[col], lefts[col], rights[col] = 0.0, 0, count
            else:
                run_left = max([c + 1 for c in range(col) if blocked[c]], default=0)
                run_right = min([c for c in range(col + 1, count) if blocked[c]], default=count)
                free[col] = free[col] + (ys[row + 1] - ys[row])
                lefts[col] = max(lefts[col], run_left)
                rights[col] = min(rights[col], run_right)
            areas.append(free[col] * (xs[rights[col]] - xs[lefts[col]]))
        col = areas.index(max(areas))
        if areas[col] > most:
            low = ys[row]
            best = (areas[col], xs[lefts[col]], low, xs[rights[col]], low + free[col])
            most = areas[col] + 1e-12
    return best


def _brute_force(boxes: list[Box], region: Box) -> float:
    """The largest rectangle clear of every box, of all with the boxes' and the band's edges."""
    cut = _clipped(boxes, region)
    xs = sorted({region[0], region[2], *(e for b in cut for e in (b[0], b[2]))})
    ys = sorted({region[1], region[3], *(e for b in cut for e in (b[1], b[3]))})
    x0, x1 = np.array(list(itertools.combinations(xs, 2))).T
    y0, y1 = np.array(list(itertools.combinations(ys, 2))).T
    clear = np.ones((len(y0), len(x0)), dtype=bool)
    for b in cut:
        across = (b[0] < x1) & (x0 < b[2])
        up = (b[1] < y1) & (y0 < b[3])
        clear &= ~(up[:, None] & across[None, :])
    areas = np.where(clear, (y1 - y0)[:, None] * (x1 - x0)[None, :], 0.0)
    return float(areas.max())


# Edges on a grid of thirds or tenths (ties, near ties, nested and equal boxes, lines) or anywhere.
edge = st.one_of(
    st.integers(-3, 27).map(lambda k: k / 3),
    st.integers(-10, 90).map(lambda k: k / 10),
    st.floats(-1.0, 9.0),
)
corners = st.tuples(edge, edge, edge, edge)
regions = st.sampled_from([(0.0, 0.0, 8.0, 6.0), (0.5, -0.25, 7.0, 5.5), (-1.0, 1.0, 9.0, 2.0)])


@given(st.lists(corners, max_size=9), regions)
# Two rows' best areas a rounding apart (14.399999999999999 found first, then 14.4):
# the first stays, as a later row must beat it by more than 1e-12.
@example(
    [(3.6, 2.6666666666666665, 5.8, 4.2), (1.6, 1.2, 6.0, 1.8), (0.0, 1.6, 4.1, 2.0)],
    (0.0, 0.0, 8.0, 6.0),
)
def test_the_search_is_the_row_by_row_walk(raw: list[Box], region: Box) -> None:
    boxes = [(min(a, c), min(b, d), max(a, c), max(b, d)) for a, b, c, d in raw]
    found = largest_empty_rectangle(boxes, region)
    walked = _walk(boxes, region)
    assert (found.area, found.left, found.bottom, found.right, found.top) == walked
    assert found.area == pytest.approx(_brute_force(boxes, region), rel=1e-9, abs=1e-9)


class _Counting:
    """numpy, counting the names looked up on it."""

    def __init__(self) -> None:
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        self.calls += 1
        return getattr(np, name)


def _lookups(monkeypatch: pytest.MonkeyPatch, boxes: list[Box], region: Box) -> int:
    counting = _Counting()
    monkeypatch.setattr(space, "np", counting)
    largest_empty_rectangle(boxes, region)
    monkeypatch.setattr(space, "np", np)
    return counting.calls


def test_the_search_takes_as_many_numpy_steps_for_many_rows_as_for_few(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The walk took a dozen numpy steps per row of cells, and the layouts a beat
    measures cut the band into some sixty rows; found for all rows at once, a band
    cut into a hundred rows costs no more numpy steps than one cut into four."""

    def steps(count: int) -> list[Box]:
        # A staircase: every box adds a row and a column of cells.
        return [(k / count, k / count, (k + 0.5) / count, (k + 0.5) / count) for k in range(count)]

    few = _lookups(monkeypatch, steps(2), (0.0, 0.0, 1.0, 1.0))
    many = _lookups(monkeypatch, steps(50), (0.0, 0.0, 1.0, 1.0))
    assert few > 0
    assert many == few
