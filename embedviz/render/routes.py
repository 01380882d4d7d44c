"""Clear paths for strips: how far to raise the output block, and the order rows fill in.

In the solver's ``beside`` arrangement a strip goes out to the right at its
matrix row's height and then up or down the output block's column into its
output row; every output row it sweeps past must still be empty, and it may
not rise above the block (the headings are there). :func:`raise_and_order`
finds the raise of the output block, and an order of filling, that keep every
path clear, with the shortest content (and then the least travel). Distances
are in rows, so one search serves every font size.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from embedviz.render.parts.grid import GridSizes, row_slots
from embedviz.render.spec import LookupSpec
from embedviz.story.model import Window

__all__ = ["clear_order", "clear_paths", "raise_and_order", "source_centres"]


def _blocked(
    path: tuple[float, float], filled: Iterable[int], target: int, top: float, row_h: float
) -> bool:
    """Whether a strip sweeping ``path`` (down from the matrix top) crosses a filled output row.

    It may not rise above the block's top either (the headings are there).
    """
    low, high = path
    if low < top - 1e-6:
        return True
    for row in filled:
        start = top + row * row_h
        if row != target and low < start + row_h - 1e-6 and high > start + 1e-6:
            return True
    return False


def raise_and_order(
    sources: Sequence[int], centres: dict[int, float], matrix_h: float, row_h: float
) -> tuple[float, tuple[int, ...]] | None:
    """Find how far to raise the output, and an order whose strips never cross a filled row.

    A strip goes out at its row's height, then up or down the output block's
    column into its row: every output row it sweeps past must still be
    empty. The first two rows go in input order (they are taught one by
    one); the rest in the order closest to input order that keeps every path
    clear. Of the raises that allow one, the one with the shortest content wins.

    Parameters
    ----------
    sources
        For output row *t*, the matrix row it copies.
    centres
        Each drawn matrix row's centre line, down from the matrix body's top.
    matrix_h, row_h
        The matrix body's height, and a row's.

    Returns
    -------
    tuple or None
        The raise (the output's top is this far above the matrix's) and the
        order; None when no raise works.
    """
    units = tuple(round(centres[s] / row_h, 6) for s in sources)
    found = _raise_in_rows(units, round(matrix_h / row_h, 6))
    return None if found is None else (found[0] * row_h, found[1])


@cache
def _raise_in_rows(
    sources: tuple[float, ...], matrix_h: float
) -> tuple[float, tuple[int, ...]] | None:
    """:func:`_raise_and_order` in row units (so that it is cached across font sizes)."""
    count = len(sources)
    best: tuple[float, float, float, tuple[int, ...]] | None = None
    for step in range(int((matrix_h + count) * 4) + 1):
        raise_rows = count - step / 4
        order = _order(sources, -raise_rows)
        if order is None:
            continue
        extent = max(matrix_h, count - raise_rows) - min(0.0, -raise_rows)
        # Of equally short layouts, the one whose strips travel least (a single
        # row's output sits level with its source).
        travel = sum(abs(t + 0.5 - raise_rows - s) for t, s in enumerate(sources))
        if best is None or (round(extent, 6), travel) < (round(best[0], 6), best[1]):
            best = (extent, travel, raise_rows, order)
    return None if best is None else (best[2], best[3])


def _order(sources: tuple[float, ...], top: float) -> tuple[int, ...] | None:
    """Return the order nearest input order (first two fixed) that keeps every path clear."""
    count = len(sources)
    paths = [
        (min(s, top + t + 0.5) - 0.5, max(s, top + t + 0.5) + 0.5) for t, s in enumerate(sources)
    ]

    def clear(target: int, filled: frozenset[int]) -> bool:
        return not _blocked(paths[target], filled, target, top, 1.0)

    @cache
    def rest(filled: frozenset[int]) -> tuple[int, ...] | None:
        if len(filled) == count:
            return ()
        for target in range(count):
            if target not in filled and clear(target, filled):
                after = rest(filled | {target})
                if after is not None:
                    return (target, *after)
        return None

    first = tuple(range(min(2, count)))
    for number, target in enumerate(first):
        if not clear(target, frozenset(first[:number])):
            return None
    after = rest(frozenset(first))
    return None if after is None else (*first, *after)


def _row_centres(spec: LookupSpec, sizes: GridSizes) -> tuple[dict[int, float], float]:
    """Each drawn matrix row's centre, down from the body's top, and the body's height."""
    centres: dict[int, float] = {}
    depth = 0.0
    for slot in row_slots(spec.window, sizes):
        if not slot.gap:
            centres[slot.key] = depth + slot.size / 2
        depth += slot.size
    return centres, depth


def source_centres(
    spec: LookupSpec, sizes: GridSizes
) -> tuple[tuple[int, ...], dict[int, float], float]:
    """Return the keys :func:`raise_and_order` sees, their centres, and the tallest matrix body.

    Without ``spec.source_windows`` the keys are the source rows, at their
    centres in ``spec.window``; with them (a window that scrolls), each
    output row is its own key, at its source's centre in the window it is
    looked up in (or at the centre of the band that hides it there).

    Parameters
    ----------
    spec
        What the frame holds.
    sizes
        The grid's slot sizes.

    Returns
    -------
    tuple
        The keys, their centres down from the matrix body's top, and the
        tallest body of any window.
    """
    if not spec.source_windows:
        centres, matrix_h = _row_centres(spec, sizes)
        return spec.sources, centres, matrix_h
    by_output: dict[int, float] = {}
    for output, (row, window) in enumerate(zip(spec.sources, spec.source_windows, strict=True)):
        depth = 0.0
        # row_slots lists rows and bands top down, as _firsts lists their first rows.
        for slot, first in zip(row_slots(window, sizes), _firsts(window), strict=True):
            last = window.row_gaps[slot.key].last if slot.gap else slot.key
            if first <= row <= last:
                by_output[output] = depth + slot.size / 2
            depth += slot.size
    tallest = max(
        sum(slot.size for slot in row_slots(window, sizes))
        for window in {spec.window, *spec.source_windows}
    )
    return tuple(range(len(spec.sources))), by_output, tallest


def _firsts(window: Window) -> list[int]:
    """Return the first table row of each of :func:`row_slots`'s slots, in its order."""
    return sorted([*window.rows, *(gap.first for gap in window.row_gaps)])


def clear_order(
    sources: Sequence[int],
    centres: dict[int, float],
    row_h: float,
    raise_d: float,
    filled: Iterable[int],
    targets: Sequence[int],
) -> tuple[int, ...] | None:
    """Order some rows so that every strip's path is clear, with the output raised by ``raise_d``.

    The output block may sit elsewhere than where :func:`raise_and_order` put
    it (a stage rests it where it fills the frame best); this says whether the
    strips of one beat still have clear paths there.

    Parameters
    ----------
    sources, centres, row_h
        As for :func:`raise_and_order`.
    raise_d
        How far the output block's top is above the matrix body's top.
    filled
        The output rows already filled.
    targets
        The rows to fill now.

    Returns
    -------
    tuple or None
        ``targets`` in the order nearest the given one whose strips all have
        clear paths; None when there is none.
    """
    top = -raise_d / row_h
    units = [centres[s] / row_h for s in sources]

    def clear(target: int, done: frozenset[int]) -> bool:
        middle = top + target + 0.5
        path = (min(units[target], middle) - 0.5, max(units[target], middle) + 0.5)
        return not _blocked(path, done, target, top, 1.0)

    @cache
    def rest(done: frozenset[int], left: tuple[int, ...]) -> tuple[int, ...] | None:
        if not left:
            return ()
        for number, target in enumerate(left):
            if clear(target, done):
                after = rest(done | {target}, left[:number] + left[number + 1 :])
                if after is not None:
                    return (target, *after)
        return None

    return rest(frozenset(filled), tuple(targets))


def clear_paths(
    mode: str,
    sources: tuple[tuple[int, ...], dict[int, float], float],
    row_h: float,
    count: int,
    problems: list[str],
) -> tuple[float, tuple[int, ...]]:
    """Return how far the output block rises and the order rows fill, so no strip crosses a row.

    Beside the matrix (``mode`` ``"beside"``) the block may rise and the rows
    fill out of order (:func:`raise_and_order`, given the sources that
    :func:`source_centres` returns); in a stack below it they fill in order.
    A layout with no clear path adds ``"no clear path"`` to ``problems``.
    """
    in_order = tuple(range(count))
    if mode != "beside":
        return 0.0, in_order
    found = raise_and_order(*sources, row_h)
    if found is None:
        problems.append("no clear path")
        return 0.0, in_order
    return found
