"""How much of a frame is left empty: the largest empty rectangle among drawn boxes.

Issue 18 asks that at the end of every beat no empty area between the title
and the caption is larger than about an eighth of the frame.
:func:`largest_empty_rectangle` measures that from the boxes of what is drawn
(axis-aligned, in scene units): the coordinates of every box edge cut the band
into a grid of cells, each either covered or free, and the largest rectangle
of free cells is found row by row, from the free height over each cell and the
widest run free over all that height (cells of unequal widths). It is pure numpy, so the
moment tests, the contact sheet and a solver can all use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "EMPTY_SHARE",
    "Box",
    "Emptiness",
    "best_drop",
    "best_slide",
    "box_union",
    "largest_empty_rectangle",
    "shifted_boxes",
]

# (left, bottom, right, top), in scene units.
Box = tuple[float, float, float, float]

# The largest empty rectangle may be at most this share of the whole frame.
EMPTY_SHARE = 1 / 8


@dataclass(frozen=True)
class Emptiness:
    """The largest empty rectangle of a band.

    Attributes
    ----------
    area
        Its area (scene units squared).
    left, bottom, right, top
        Its edges.
    """

    area: float
    left: float
    bottom: float
    right: float
    top: float


def _cuts(low: float, high: float, edges: np.ndarray) -> np.ndarray:
    """Return the band's edges and every box edge strictly inside it, sorted and distinct."""
    inside = edges[(edges > low) & (edges < high)]
    return np.unique(np.concatenate([np.array([low, high], dtype=float), inside]))


def largest_empty_rectangle(boxes: Iterable[Box], region: Box) -> Emptiness:
    """Return the largest axis-aligned rectangle of ``region`` that no box overlaps.

    Parameters
    ----------
    boxes
        ``(left, bottom, right, top)`` of everything drawn; parts outside the
        region are ignored.
    region
        ``(left, bottom, right, top)`` of the band to search.

    Returns
    -------
    Emptiness
        The rectangle (of area 0 when every point of the region is covered).
    """
    left, bottom, right, top = region
    # A line (a box of no width or height) still divides the space it crosses.
    edges = _thick(np.array(list(boxes), dtype=float).reshape(-1, 4))
    edges = edges[
        (edges[:, 2] > left) & (edges[:, 0] < right) & (edges[:, 3] > bottom) & (edges[:, 1] < top)
    ]
    low, high = np.array([left, bottom]), np.array([right, top])
    clipped = _outermost(
        np.concatenate([np.maximum(edges[:, :2], low), np.minimum(edges[:, 2:], high)], axis=1)
    )
    xs = _cuts(left, right, clipped[:, [0, 2]].ravel())
    ys = _cuts(bottom, top, clipped[:, [1, 3]].ravel())
    covered = np.zeros((len(ys) - 1, len(xs) - 1), dtype=bool)
    spans = zip(
        np.searchsorted(xs, clipped[:, 0]).tolist(),
        np.searchsorted(xs, clipped[:, 2]).tolist(),
        np.searchsorted(ys, clipped[:, 1]).tolist(),
        np.searchsorted(ys, clipped[:, 3]).tolist(),
        strict=True,
    )
    for x0, x1, y0, y1 in spans:
        covered[y0:y1, x0:x1] = True
    return _largest_free(covered, xs, ys, Emptiness(0.0, left, bottom, left, bottom))


def _largest_free(
    covered: np.ndarray, xs: np.ndarray, ys: np.ndarray, best: Emptiness
) -> Emptiness:
    """Return the largest rectangle of free cells, walking the rows from the top down.

    For every free cell the walk keeps the free height above it and the widest
    run of cells free over all that height (the classic maximal-rectangle
    recurrence). Each quantity is found for all rows at once: a run of free
    cells down a column is a segment, and the widest run is a running maximum
    (or minimum) over its segment; the free height is the heights summed from
    the segment's top in walking order, so every area is the very float the
    row-by-row walk computes. Only the choice among the rows' best cells walks
    row by row (plain floats), as a later row must beat the best by 1e-12.
    """
    count, rows = len(xs) - 1, len(ys) - 1
    blocked = covered[::-1]  # in walking order: the top row first
    if blocked.all():
        return best
    index = np.arange(count)
    step = np.arange(rows)[:, None]
    # Blocked cells seen so far down each column: each segment's own number.
    segment = np.cumsum(blocked, axis=0) * (count + 2)
    run_left = np.maximum.accumulate(np.where(blocked, index + 1, 0), axis=1)
    run_right = np.minimum.accumulate(np.where(blocked, index, count)[:, ::-1], axis=1)[:, ::-1]
    # The running maximum within a segment: a blocked cell starts a larger number.
    lefts = np.maximum.accumulate(segment + np.where(blocked, 0, run_left), axis=0) - segment
    rights = count - (
        np.maximum.accumulate(segment + np.where(blocked, 0, count - run_right), axis=0) - segment
    )
    # The first step of each cell's segment, and the heights summed from there.
    start = np.maximum.accumulate(np.where(blocked, step + 1, 0), axis=0)
    heights = np.diff(ys)[::-1]
    first = np.zeros(rows + 1, dtype=bool)
    first[start[~blocked]] = True
    tops = np.flatnonzero(first)
    sums = np.add.accumulate(np.where(np.arange(rows) >= tops[:, None], heights, 0.0), axis=1)
    # (A blocked cell's own start is past it: any row of sums will do, as its height is 0.)
    which = (np.cumsum(first) - 1)[np.minimum(start, rows - 1)]
    free = np.where(blocked, 0.0, sums[which, step])
    areas = free * (xs[rights] - xs[lefts])
    cells = np.argmax(areas, axis=1)
    most = best.area + 1e-12
    chosen = -1
    for walked, area in enumerate(areas[np.arange(rows), cells].tolist()):
        if area > most:
            chosen, most = walked, area + 1e-12
    if chosen < 0:
        return best
    cell, row = cells[chosen], rows - 1 - chosen
    low = float(ys[row])
    return Emptiness(
        float(areas[chosen, cell]),
        float(xs[lefts[chosen, cell]]),
        low,
        float(xs[rights[chosen, cell]]),
        low + float(free[chosen, cell]),
    )


def _outermost(edges: np.ndarray) -> np.ndarray:
    """Return the boxes (rows of edges) that no other box holds whole (one of equal boxes).

    A box inside another covers nothing more, but its edges cut the band into
    more cells: a table's numbers inside its cells doubled the cells a search
    walks (the free space, and so the largest empty area, is the same).
    """
    if len(edges) < 2:
        return edges
    inside = (
        (edges[:, None, 0] >= edges[None, :, 0])
        & (edges[:, None, 1] >= edges[None, :, 1])
        & (edges[:, None, 2] <= edges[None, :, 2])
        & (edges[:, None, 3] <= edges[None, :, 3])
    )
    # Of equal boxes (each inside the other) the first stays.
    equal = inside & inside.T
    order = np.arange(len(edges))
    held = (inside & ~equal).any(axis=1) | (equal & (order[:, None] > order)).any(axis=1)
    return edges[~held]


def _thick(edges: np.ndarray, least: float = 1e-6) -> np.ndarray:
    """Return the boxes (rows of edges), at least ``least`` wide and tall (about their centres)."""
    low, high = edges[:, :2], edges[:, 2:]
    thin = high - low < least
    middle = low + high
    return np.concatenate(
        [np.where(thin, (middle - least) / 2, low), np.where(thin, (middle + least) / 2, high)],
        axis=1,
    )


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6


def _clear_drops(
    fixed: Sequence[Box], moving: Sequence[Box], band: Box, drops: Sequence[float]
) -> list[bool]:
    """Return, for each drop, whether the lowered group stays in the band and clear of ``fixed``.

    The same float comparisons as testing every box pair with :func:`_overlap`
    (each moved edge is ``edge - drop``), for all drops at once: the pairs, in
    Python, were most of the batch stage's spreading time.
    """
    if not drops:
        return []
    lowered = np.array(drops, dtype=float)[:, None]
    group = np.array(moving, dtype=float).reshape(-1, 4)
    still = np.array(fixed, dtype=float).reshape(-1, 4)
    bottom, top = group[:, 1] - lowered, group[:, 3] - lowered  # (drop, box)
    outside = ((bottom < band[1] - 1e-6) | (top > band[3] + 1e-6)).any(axis=1)
    across = (group[:, None, 0] < still[None, :, 2] - 1e-6) & (
        still[None, :, 0] < group[:, None, 2] - 1e-6
    )  # (moving, fixed): the same for every drop
    meets = (
        across[None]
        & (bottom[:, :, None] < still[None, None, :, 3] - 1e-6)
        & (still[None, None, :, 1] < top[:, :, None] - 1e-6)
    )
    clear: list[bool] = (~(outside | meets.any(axis=(1, 2)))).tolist()
    return clear


def best_drop(
    fixed: Sequence[Box],
    moving: Sequence[Box],
    band: Box,
    drops: Iterable[float],
    frame_area: float,
    cost: Callable[[float], int] = lambda drop: 0,
) -> tuple[float, Emptiness]:
    """Choose how far to lower a group of boxes so that the band is best filled.

    Of the drops that keep the group inside the band and clear of the fixed
    boxes, the ones that leave no empty rectangle over :data:`EMPTY_SHARE` of
    the frame come first, and of those the lowest ``cost`` (for example, how
    many beats must move the group out of the way), then the smallest empty
    area; when none does, the smallest empty area wins.

    Parameters
    ----------
    fixed, moving
        Boxes that stay, and boxes that move together.
    band
        ``(left, bottom, right, top)`` of the band measured.
    drops
        The distances to try (0: where the group is).
    frame_area
        The whole frame's area.
    cost
        What a drop costs besides empty space.

    Returns
    -------
    tuple
        The chosen drop and the largest empty rectangle with it.
    """
    best: tuple[tuple[bool, float, int, float], float, Emptiness] | None = None
    tried = list(drops)
    for drop, free in zip(tried, _clear_drops(fixed, moving, band, tried), strict=True):
        if not free:
            continue
        moved = [(b[0], b[1] - drop, b[2], b[3] - drop) for b in moving]
        empty = largest_empty_rectangle([*fixed, *moved], band)
        # Within the limit the cost decides; over it, the emptier frame loses first.
        over = empty.area > EMPTY_SHARE * frame_area
        key = (over, empty.area if over else 0.0, cost(drop), empty.area)
        if best is None or key < best[0]:
            best = (key, drop, empty)
    if best is None:
        return 0.0, largest_empty_rectangle([*fixed, *moving], band)
    return best[1], best[2]


def _transposed(box: Box) -> Box:
    """Return ``box`` with its axes swapped (across becomes up and down)."""
    return (box[1], box[0], box[3], box[2])


def best_slide(
    fixed: Sequence[Box],
    moving: Sequence[Box],
    band: Box,
    slides: Iterable[float],
    frame_area: float,
) -> tuple[float, Emptiness]:
    """Choose how far left to slide a group of boxes so that the band is best filled.

    :func:`best_drop` across the frame (the boxes with their axes swapped): of
    the slides that keep the group inside the band and clear of the fixed
    boxes, the smallest empty area wins (the first of equals).

    Returns
    -------
    tuple
        The chosen slide (positive: left) and the largest empty rectangle with it.
    """
    swapped = [_transposed(b) for b in fixed], [_transposed(b) for b in moving]
    slide, empty = best_drop(*swapped, _transposed(band), slides, frame_area)
    return slide, Emptiness(empty.area, empty.bottom, empty.left, empty.top, empty.right)


def shifted_boxes(boxes: Iterable[Box], dx: float) -> list[Box]:
    """Return ``boxes`` moved ``dx`` right.

    Parameters
    ----------
    boxes
        The boxes.
    dx
        How far right.

    Returns
    -------
    list of Box
        The moved boxes, in order.
    """
    return [(b[0] + dx, b[1], b[2] + dx, b[3]) for b in boxes]


def box_union(boxes: Iterable[Box]) -> Box | None:
    """Return the box around ``boxes`` (None for none).

    Parameters
    ----------
    boxes
        The boxes.

    Returns
    -------
    Box or None
        The least box holding them all.
    """
    found = list(boxes)
    if not found:
        return None
    return (
        min(b[0] for b in found),
        min(b[1] for b in found),
        max(b[2] for b in found),
        max(b[3] for b in found),
    )
