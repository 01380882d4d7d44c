"""Equality marks under E, rings round the rows they equal (BatchLookup).

A view-only review of the repeats beat (issue 18, lecture-hall frames, the
default batch and GPT-2's) found three faults:

- the only marks on the rows were thin passing lines beside the ID tags,
  gone by the beat's end while the caption said "Each marked row…":
  :func:`equal_rings` rings every row a mark names (the repeat and its first
  copy) in the verdict's neutral accent (equal is shown by a shape, the
  ring and the ``=``; amber stays the ID's, blue and vermillion the values'),
  :data:`RING_WIDTH` wide, from the marks' step to the beat's end;
- the two marks' lines ran 2 SPACE apart beside E (about 10 px on a sheet of
  720p frames) and one crossed the other: the lines of two marks that each
  ran into both their rows must cross wherever the rows interleave (GPT-2's
  ``out[1,2] = out[0,0]`` and ``out[1,3] = out[0,1]``) or nest (the
  default's), so each mark now leads to its repeat only (the rings mark the
  first copies, the mark names them); the leaders climb as a staircase (the
  highest row's mark on top, its lane furthest out) that never crosses, and
  no two come closer than :data:`LEADER_GAP`; since session 34 no line is
  drawn: each pair's letter (:mod:`~embedviz.render.parts.pair_marks`) names
  its rows, and the leaders' plan only places the marks;
- the marks stood over E, where its heading and column headings are: they
  stand under E (:func:`under_plan`), where E's rise leaves the band free.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from manim import VGroup

from embedviz.render.design import APART, SPACE
from embedviz.render.parts.grid import CellGrid

__all__ = [
    "LEADER_GAP",
    "LEADER_WIDTH",
    "RING_WIDTH",
    "UnderPlan",
    "beside_room",
    "equal_rings",
    "lane_spots",
    "spread_entries",
    "under_plan",
]

# The least distance between two marks' leaders: half as much again as the lanes' old
# step (2 SPACE, LANE_STEP), which a review read as one pair of lines ~10 px apart on a
# sheet of 720p frames; 3 SPACE is 32 px at 720p, a line of the marks' text.
LEADER_GAP = 3 * SPACE
# The rings' stroke (3.6 px at 720p): the amber outline's, a mark seen from the back of
# a hall (the passing lines beside the tags were 2.7 px, and went).
RING_WIDTH = 4.0
# The leaders' stroke (2.2 px at 720p): the repeat tie's (mark_repeat.TIE_WIDTH).
LEADER_WIDTH = 2.5
# How far a row's ring stands out of its cells (CellGrid.row_box's buff).
RING_BUFF = 0.04


def beside_room(count: int, row: float = 0.0) -> float:
    """Return the least room between E's body and the slices' for ``count`` leaders beside E.

    Where a repeat's row stands level with E, the leaders climb between E and
    the slices (:func:`under_plan`): a row's height (``row``) from E (issue 18:
    nearer, a run read as leaving an E row; at least SPACE / 2),
    :data:`LEADER_GAP` apart,
    a SPACE from the rings (:data:`RING_BUFF` out of the cells), their ink
    past each end. The batch solver keeps the chips' column at least this
    wide (``solve_batch._across``).
    """
    ink = LEADER_WIDTH / 200
    return (count - 1) * (LEADER_GAP + ink) + max(row, SPACE / 2) + SPACE + 2 * ink + RING_BUFF


@dataclass(frozen=True)
class UnderPlan:
    """Where each mark and its leader stand, in the marks' order.

    ``ys`` are the marks' centres (their left at ``left``), ``lanes`` their
    leaders' upright runs, ``entries`` the heights at which the leaders meet
    their repeats' rings, ``end`` the x they end at (the rings' left side).
    """

    left: float
    ys: tuple[float, ...]
    lanes: tuple[float, ...]
    entries: tuple[float, ...]
    end: float


def spread_entries(rows: Sequence[float], gap: float, reach: float) -> list[float] | None:
    """Return heights near ``rows`` (one per row, highest first) at least ``gap`` apart.

    The least squares shift (pool adjacent violators) that keeps each entry
    within ``reach`` of its row's centre, where the rows stand closer than
    ``gap``; ``None`` where that is not enough.
    """
    pools: list[list[float]] = []  # [mean, count] of w_k = row_k + k * gap, non-increasing
    for k, row in enumerate(rows):
        pools.append([row + k * gap, 1.0])
        while len(pools) > 1 and pools[-2][0] < pools[-1][0]:
            mean, count = pools.pop()
            pools[-1] = [
                (pools[-1][0] * pools[-1][1] + mean * count) / (pools[-1][1] + count),
                pools[-1][1] + count,
            ]
    values = [mean for mean, count in pools for _ in range(int(count))]
    entries = [value - k * gap for k, value in enumerate(values)]
    if any(abs(e - r) > reach + 1e-9 for e, r in zip(entries, rows, strict=True)):
        return None
    return entries


def under_plan(
    sizes: Sequence[tuple[float, float]],
    rows: Sequence[float],
    row_height: float,
    matrix: tuple[float, float, float, float],
    floor: float,
    body: float,
) -> UnderPlan | None:
    """Return where the marks and their leaders stand under E, if they fit; else ``None``.

    Parameters
    ----------
    sizes
        Each mark's width and height.
    rows
        Each mark's repeat's row height (the row's centre).
    row_height
        The output's row height (an entry keeps SPACE / 2 inside its row).
    matrix
        E's ink once it has risen (left, bottom, right, top): the marks stand
        2 SPACE under it, left-aligned with it, stacked LEADER_GAP (or a line) apart.
    floor
        The lowest a mark may reach (the caption's band, a SPACE over it).
    body
        The slices' left (their rings stand :data:`RING_BUFF` out of it).
    """
    count = len(sizes)
    # A run reaches half its stroke past its corner (_run): a lane's end, and a run's,
    # come that much nearer the next leader.
    ink = LEADER_WIDTH / 200
    apart = LEADER_GAP + ink
    order = sorted(range(count), key=lambda n: -rows[n])
    entries = spread_entries([rows[n] for n in order], apart, row_height / 2 - SPACE / 2)
    if entries is None:
        return None
    pitch = max(apart, *(h + SPACE for _, h in sizes))
    # Two SPACEs under E (a group of their own, tied to the slices, not to E): at APART the
    # marks of GPT-2's batch did not fit where E's rise leaves no more than an eighth empty.
    top = matrix[1] - 2 * SPACE
    # Under every entry too, so that each leader climbs (a staircase: the runs of one
    # never meet another's lane but past its end).
    first = min(top - sizes[order[0]][1] / 2, min(entries) - apart)
    ys = [first - k * pitch for k in range(count)]
    if ys[-1] - sizes[order[-1]][1] / 2 < floor:
        return None
    end = body - RING_BUFF
    # The lanes' ink keeps a SPACE from the marks and the rings (no line reads as part of
    # a border) and, beside E, SPACE / 2 from it.
    low = max(matrix[0] + w for w, _ in sizes) + SPACE / 2 + SPACE + ink
    beside = max(entries) > matrix[1] - SPACE / 2  # a leader climbs beside E's rows
    if beside:
        low = max(low, matrix[2] + SPACE / 2 + ink)
    xs = lane_spots(
        count, (low, end - SPACE - ink), (matrix[2], end, row_height) if beside else None
    )
    if xs is None:
        return None
    placed = [0] * count
    for k, n in enumerate(order):
        placed[n] = k
    return UnderPlan(
        left=matrix[0],
        ys=tuple(ys[placed[n]] for n in range(count)),
        lanes=tuple(xs[placed[n]] for n in range(count)),
        entries=tuple(entries[placed[n]] for n in range(count)),
        end=end,
    )


def _centred(count: int, low: float, high: float) -> list[float] | None:
    """Return ``count`` lanes centred in [low, high], up to APART apart, if they fit.

    ``None`` where they would come closer than :data:`LEADER_GAP` (and their ink).
    """
    step = APART if count == 1 else min(APART, (high - low) / (count - 1))
    if step < LEADER_GAP + LEADER_WIDTH / 200 - 1e-9 or high < low:
        return None
    middle = (low + high) / 2
    return [middle + (k - (count - 1) / 2) * step for k in range(count)]


def lane_spots(
    count: int, span: tuple[float, float], beside: tuple[float, float, float] | None = None
) -> list[float] | None:
    """Return the leaders' lanes' x (left to right) in ``span`` (low, high), if they fit.

    ``None`` where they do not fit :data:`LEADER_GAP` apart.
    ``beside`` (E's right edge, the leaders' end at the slices, a row's height)
    where the leaders climb beside E's rows. Issue 18's review (GPT-2's batch,
    720p) read a lane 21 px right of E, whose run entered the slices level
    with E's row 2, as "E's row 2 goes to out[1,2]": the lanes stand in the
    right half of the room between E and the slices where they fit there;
    else packed :data:`LEADER_GAP` apart against ``high``, where that keeps
    the nearest's ink a row's height clear of E; else (a column too narrow)
    centred in ``span``, as before.
    """
    low, high = span
    centred = _centred(count, low, high)
    if centred is None or beside is None:
        return centred
    edge, end, row = beside
    ink = LEADER_WIDTH / 200
    clear = _centred(count, max(low, (edge + end) / 2 + ink), high)
    if clear is not None:
        return clear
    packed = [high - (count - 1 - k) * (LEADER_GAP + ink) for k in range(count)]
    if packed[0] >= low and packed[0] - ink >= edge + row - 1e-9:
        return packed
    return centred


def equal_rings(rows: Sequence[tuple[CellGrid, int]], colour: str) -> VGroup:
    """Return a ring round each row (grid, key), once each, in the neutral accent (not added).

    Rings of neighbouring rows keep their ink inside their own rows
    (:meth:`CellGrid.row_outline`'s ``beside``), so that two read as two.
    """
    by_grid: dict[int, tuple[CellGrid, list[int]]] = {}
    for grid, key in rows:
        keys = by_grid.setdefault(id(grid), (grid, []))[1]
        if key not in keys:
            keys.append(key)
    rings = VGroup()
    for grid, keys in by_grid.values():
        for key in keys:
            rings.add(grid.row_outline(key, colour, width=RING_WIDTH, beside=keys))
    return rings
