"""Clear paths for the batch's strips: where the slices stand, and the order rows fill in.

In the batch solver's ``beside`` arrangement a strip goes out to the right at
its row of E and then up or down the slices' column into its row of its
slice. While slice b fills, the slices after it are still empty space; the d
band, the headers of slices up to b and the rows already filled are in the
way. :func:`place_slices` searches the stack's height (in quarter rows) and,
slice by slice, the order its rows fill in (the first two of slice 0 in
input order: they are taught one by one), and keeps the shortest content,
then the least travel. Distances are in rows, so one search serves every font
size (it is cached).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from embedviz.render.routes import _first_clear

__all__ = ["fill_order", "place_slices"]


@cache
def place_slices(
    sources: tuple[float, ...],
    matrix_h: float,
    header: float,
    band: float,
    batch: int,
    length: int,
) -> tuple[float, tuple[int, ...]] | None:
    """Return the stack's top (row units, down from E's top) and the order rows fill in.

    Parameters
    ----------
    sources
        For output row ``b * length + t``, the centre line of its source row
        of E, in rows down from E's top.
    matrix_h, header, band
        E's body height, a slice's header band and the d band, in rows.
    batch, length
        B and T.

    Returns
    -------
    tuple or None
        The stack's top and the order; None when no place keeps every path clear.
    """
    stack_h = band + batch * (header + length)
    ranked: list[tuple[float, float, int, float]] = []
    for step in range(int((stack_h + matrix_h) * 4) + 1):
        top = -stack_h + step / 4
        extent = max(matrix_h, top + stack_h) - min(0.0, top)
        centres = [
            top + band + (b + 1) * header + b * length + t + 0.5 for b, t in _cells(batch, length)
        ]
        travel = sum(abs(c - s) for c, s in zip(centres, sources, strict=True))
        ranked.append((round(extent, 4), travel, step, top))
    # Content and travel do not depend on the order rows fill in: the best place is the
    # first, ranked so (ties to the highest), whose rows have a clear order at all. The
    # order search is most of the solver's time; it runs for the few best places only.
    # Most places fail whatever the order, and are told all at once (:func:`_ways_clear`).
    way = _ways_clear(sources, np.array([r[3] for r in ranked]), header, band, batch, length)
    for _, _, step, top in sorted(ranked):
        if not way[step]:
            continue
        order = _slice_orders(sources, top, header, band, batch, length, 0.0)
        if order is not None:
            return top, order
    return None


def _cells(batch: int, length: int) -> list[tuple[int, int]]:
    return [(b, t) for b in range(batch) for t in range(length)]


def _row_centres(
    top: float, header: float, band: float, length: int, gap: float
) -> Callable[[int, int], float]:
    """Return where slice b's row t stands (its centre, row units down from E's top)."""

    def centre(b: int, t: int) -> float:
        return top + band + (b + 1) * header + b * (length + gap) + t + 0.5

    return centre


def fill_order(
    sources: Sequence[float],
    top: float,
    header: float,
    band: float,
    batch: int,
    length: int,
    gap: float = 0.0,
) -> tuple[int, ...] | None:
    """Return an order, slice by slice, in which no strip crosses a filled row or a header.

    Row units, down from E's top; a strip sweeps from its source to its
    target, one row tall. While slice b fills, the slices after it are empty
    space; the d band and the headers of slices up to b are in the way.
    ``gap`` stands each slice that much further down than the one before (a
    stack spread down the frame from the start, ``BatchStage._spread_early``).
    """
    centre = _row_centres(top, header, band, length, gap)

    # First every strip against what stands in its way whatever the order (the d
    # band, the headers, the slices filled before its own): each must travel some
    # time, so one blocked path fails the place before any order is searched.
    for b in range(batch):
        walls = [(top, top + band)] + [
            (centre(k, 0) - 0.5 - header, centre(k, 0) - 0.5) for k in range(b + 1)
        ]
        walls += [(centre(k, 0) - 0.5, centre(k, length - 1) + 0.5) for k in range(b)]
        for t in range(length):
            source, target = sources[b * length + t], centre(b, t)
            low, high = min(source, target) - 0.5, max(source, target) + 0.5
            if low < top - 1e-6 or any(_meet((low, high), wall) for wall in walls):
                return None
    return _slice_orders(sources, top, header, band, batch, length, gap)


def _slice_orders(
    sources: Sequence[float],
    top: float,
    header: float,
    band: float,
    batch: int,
    length: int,
    gap: float,
) -> tuple[int, ...] | None:
    """Return :func:`fill_order`'s order for a place whose strips' ways are clear."""
    centre = _row_centres(top, header, band, length, gap)

    order: list[int] = []
    for b in range(batch):
        paths = []
        for t in range(length):
            source, target = sources[b * length + t], centre(b, t)
            paths.append((min(source, target) - 0.5, max(source, target) + 0.5))
        rows = [(centre(b, k) - 0.5, centre(b, k) + 0.5) for k in range(length)]
        # Bit k of masks[t]: row k, once filled, stands in strip t's way (its own row never).
        masks = [
            sum(1 << k for k in range(length) if k != t and _meet(paths[t], rows[k]))
            for t in range(length)
        ]
        fixed = tuple(range(min(2, length))) if b == 0 else ()
        found = _order_within(length, fixed, masks)
        if found is None:
            return None
        order += [b * length + t for t in found]
    return tuple(order)


def _ways_clear(
    sources: Sequence[float], tops: np.ndarray, header: float, band: float, batch: int, length: int
) -> np.ndarray:
    """For each stack top, whether every strip's sweep misses what is in its way whatever the order.

    :func:`fill_order`'s first test (the d band, the headers of the slices up
    to the strip's own and the slices before it; no sweep over the stack's
    top), for all tops at once, with the very float sums it makes one top at
    a time: most quarter-row places fail so, and testing them one by one was
    most of the batch solver's time. A place that passes may still have no
    clear order.
    """
    gap = 0.0  # (place_slices' stacks are not spread)
    centres = [
        [tops + band + (b + 1) * header + b * (length + gap) + t + 0.5 for t in range(length)]
        for b in range(batch)
    ]
    clear = np.ones(len(tops), dtype=bool)
    for b in range(batch):
        walls = [(tops, tops + band)] + [
            (centres[k][0] - 0.5 - header, centres[k][0] - 0.5) for k in range(b + 1)
        ]
        walls += [(centres[k][0] - 0.5, centres[k][length - 1] + 0.5) for k in range(b)]
        for t in range(length):
            source, target = sources[b * length + t], centres[b][t]
            low, high = np.minimum(source, target) - 0.5, np.maximum(source, target) + 0.5
            blocked = low < tops - 1e-6
            for start, end in walls:  # as _meet
                blocked |= (low < end - 1e-6) & (high > start + 1e-6)
            clear &= ~blocked
    return clear


def _meet(path: tuple[float, float], box: tuple[float, float]) -> bool:
    """Whether a strip's sweep and a box overlap by more than a rounding error."""
    return path[0] < box[1] - 1e-6 and path[1] > box[0] + 1e-6


def _order_within(length: int, fixed: tuple[int, ...], masks: list[int]) -> tuple[int, ...] | None:
    """Return the order nearest input order (``fixed`` first) in which every path is clear.

    Row t's strip is clear while no row of ``masks[t]`` is filled. The search
    that tried each next row in input order and backed off where the rest had
    no clear order found the first order keeping "row t before every row of
    masks[t]" (a blocked strip stays blocked): :func:`~embedviz.render.routes._first_clear`
    finds it in one pass (tests/test_batch_routes.py checks it against a brute force).
    """
    filled = 0
    for t in fixed:
        if masks[t] & filled:
            return None
        filled |= 1 << t
    rest = [t for t in range(length) if t not in fixed]
    after = _first_clear([1 << t for t in rest], [masks[t] for t in rest], filled)
    return None if after is None else (*fixed, *(rest[k] for k in after))
