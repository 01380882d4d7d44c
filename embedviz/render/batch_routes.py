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
    best: tuple[float, float, float, tuple[int, ...]] | None = None
    for step in range(int((stack_h + matrix_h) * 4) + 1):
        top = -stack_h + step / 4
        order = fill_order(sources, top, header, band, batch, length)
        if order is None:
            continue
        extent = max(matrix_h, top + stack_h) - min(0.0, top)
        centres = [
            top + band + (b + 1) * header + b * length + t + 0.5 for b, t in _cells(batch, length)
        ]
        travel = sum(abs(c - s) for c, s in zip(centres, sources, strict=True))
        if best is None or (round(extent, 4), travel) < (round(best[0], 4), best[1]):
            best = (extent, travel, top, order)
    return None if best is None else (best[2], best[3])


def _cells(batch: int, length: int) -> list[tuple[int, int]]:
    return [(b, t) for b in range(batch) for t in range(length)]


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

    def centre(b: int, t: int) -> float:
        return top + band + (b + 1) * header + b * (length + gap) + t + 0.5

    order: list[int] = []
    for b in range(batch):
        walls = [(top, top + band)] + [
            (centre(k, 0) - 0.5 - header, centre(k, 0) - 0.5) for k in range(b + 1)
        ]
        walls += [(centre(k, 0) - 0.5, centre(k, length - 1) + 0.5) for k in range(b)]
        paths: dict[int, tuple[float, float]] = {}
        for t in range(length):
            source, target = sources[b * length + t], centre(b, t)
            paths[t] = (min(source, target) - 0.5, max(source, target) + 0.5)

        def clear(
            t: int,
            filled: frozenset[int],
            b: int = b,
            paths: dict[int, tuple[float, float]] = paths,
            walls: list[tuple[float, float]] = walls,
        ) -> bool:
            low, high = paths[t]
            if low < top - 1e-6:
                return False
            boxes = walls + [(centre(b, k) - 0.5, centre(b, k) + 0.5) for k in filled]
            return not any(low < hi - 1e-6 and high > lo + 1e-6 for lo, hi in boxes)

        fixed = tuple(range(min(2, length))) if b == 0 else ()
        found = _order_within(length, fixed, clear)
        if found is None:
            return None
        order += [b * length + t for t in found]
    return tuple(order)


def _order_within(
    length: int, fixed: tuple[int, ...], clear: Callable[[int, frozenset[int]], bool]
) -> tuple[int, ...] | None:
    """Return the order nearest input order (``fixed`` first) in which every path is clear."""
    for number, t in enumerate(fixed):
        if not clear(t, frozenset(fixed[:number])):
            return None

    @cache
    def rest(filled: frozenset[int]) -> tuple[int, ...] | None:
        if len(filled) == length:
            return ()
        for t in range(length):
            if t not in filled and clear(t, filled):
                after = rest(filled | {t})
                if after is not None:
                    return (t, *after)
        return None

    after = rest(frozenset(fixed))
    return None if after is None else (*fixed, *after)
