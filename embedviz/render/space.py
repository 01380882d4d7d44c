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


def _cuts(low: float, high: float, edges: Iterable[float]) -> np.ndarray:
    """Return the band's edges and every box edge strictly inside it, sorted and distinct."""
    inside = [e for e in edges if low < e < high]
    return np.unique(np.array([low, high, *inside], dtype=float))


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
    boxes = [_thick(b) for b in boxes]
    clipped = [
        (max(b[0], left), max(b[1], bottom), min(b[2], right), min(b[3], top))
        for b in boxes
        if b[2] > left and b[0] < right and b[3] > bottom and b[1] < top
    ]
    clipped = _outermost(clipped)
    xs = _cuts(left, right, [e for b in clipped for e in (b[0], b[2])])
    ys = _cuts(bottom, top, [e for b in clipped for e in (b[1], b[3])])
    covered = np.zeros((len(ys) - 1, len(xs) - 1), dtype=bool)
    for b in clipped:
        x0, x1 = np.searchsorted(xs, [b[0], b[2]])
        y0, y1 = np.searchsorted(ys, [b[1], b[3]])
        covered[y0:y1, x0:x1] = True
    return _largest_free(covered, xs, ys, Emptiness(0.0, left, bottom, left, bottom))


def _largest_free(
    covered: np.ndarray, xs: np.ndarray, ys: np.ndarray, best: Emptiness
) -> Emptiness:
    """Return the largest rectangle of free cells, walking the rows from the top down.

    For every free cell the walk keeps the free height above it and the widest
    run of cells free over all that height (the classic maximal-rectangle
    recurrence); each row is a handful of numpy operations over its cells, so
    a search that measures hundreds of layouts stays cheap.
    """
    count = len(xs) - 1
    index = np.arange(count)
    free = np.zeros(count)
    lefts = np.zeros(count, dtype=int)  # the first cell of each cell's widest run
    rights = np.full(count, count)  # one past its last
    heights = np.diff(ys)
    most = best.area + 1e-12
    for row in range(len(heights) - 1, -1, -1):
        blocked = covered[row]
        free = np.where(blocked, 0.0, free + heights[row])
        run_left = np.maximum.accumulate(np.where(blocked, index + 1, 0))
        run_right = np.minimum.accumulate(np.where(blocked, index, count)[::-1])[::-1]
        lefts = np.where(blocked, 0, np.maximum(lefts, run_left))
        rights = np.where(blocked, count, np.minimum(rights, run_right))
        areas = free * (xs[rights] - xs[lefts])
        cell = int(np.argmax(areas))
        if areas[cell] > most:
            low = float(ys[row])
            area = float(areas[cell])
            best = Emptiness(
                area, float(xs[lefts[cell]]), low, float(xs[rights[cell]]), low + float(free[cell])
            )
            most = area + 1e-12
    return best


def _outermost(boxes: list[Box]) -> list[Box]:
    """Return the boxes that no other box holds whole (one of each run of equal boxes).

    A box inside another covers nothing more, but its edges cut the band into
    more cells: a table's numbers inside its cells doubled the cells a search
    walks (the free space, and so the largest empty area, is the same).
    """
    if len(boxes) < 2:
        return boxes
    edges = np.array(boxes)
    inside = (
        (edges[:, None, 0] >= edges[None, :, 0])
        & (edges[:, None, 1] >= edges[None, :, 1])
        & (edges[:, None, 2] <= edges[None, :, 2])
        & (edges[:, None, 3] <= edges[None, :, 3])
    )
    # Of equal boxes (each inside the other) the first stays.
    equal = inside & inside.T
    held: np.ndarray = np.asarray(
        (inside & ~equal).any(axis=1) | np.tril(equal, -1).any(axis=1), dtype=bool
    )
    return [box for box, gone in zip(boxes, held, strict=True) if not gone]


def _thick(box: Box, least: float = 1e-6) -> Box:
    """Return the box, at least ``least`` wide and tall (about its centre line)."""
    x0, y0, x1, y1 = box
    if x1 - x0 < least:
        x0, x1 = (x0 + x1 - least) / 2, (x0 + x1 + least) / 2
    if y1 - y0 < least:
        y0, y1 = (y0 + y1 - least) / 2, (y0 + y1 + least) / 2
    return (x0, y0, x1, y1)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6


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
    for drop in drops:
        moved = [(b[0], b[1] - drop, b[2], b[3] - drop) for b in moving]
        if any(b[1] < band[1] - 1e-6 or b[3] > band[3] + 1e-6 for b in moved):
            continue
        if any(_overlap(a, b) for a in moved for b in fixed):
            continue
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
