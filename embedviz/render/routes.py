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

import numpy as np

from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import GridSizes, row_slots
from embedviz.render.spec import LookupSpec
from embedviz.story.model import Window

__all__ = [
    "clear_order",
    "clear_paths",
    "curved_route",
    "raise_and_order",
    "rising_route",
    "source_centres",
]


def _blocker_masks(
    paths: Sequence[tuple[float, float]],
    owners: Sequence[int],
    rows: Sequence[int],
    top: float,
    row_h: float,
) -> list[int]:
    """For each strip's sweep, the output rows in its way (bit *i* for ``rows[i]``).

    Path *k* is the sweep (low, high; down from the matrix top) of the strip
    for output row ``owners[k]``: every other output row it overlaps by more
    than a rounding error blocks it once filled. A sweep that rises above the
    block's top (the headings are there) is blocked whatever is filled: -1.
    Each row is tested once, so the order search asks one integer per step.
    """
    masks = []
    for (low, high), owner in zip(paths, owners, strict=True):
        mask = 0
        for number, row in enumerate(rows):
            start = top + row * row_h
            if row != owner and low < start + row_h - 1e-6 and high > start + 1e-6:
                mask |= 1 << number
        masks.append(-1 if low < top - 1e-6 else mask)
    return masks


def _beside_other(source: float, target: int, top: float, count: int) -> bool:
    """Whether a strip at its row's height (``source``) overlaps an output row not ``target``.

    In rows, down from the matrix top; the output's row *t* spans ``top + t`` to ``top + t + 1``.
    """
    for row in range(count):
        start = top + row
        if row != target and source - 0.5 < start + 1 - 1e-6 and source + 0.5 > start + 1e-6:
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
    # Filled rows are a bit set (bit t for row t): a path is clear when it meets none.
    masks = _blocker_masks(paths, range(count), range(count), top, 1.0)
    first = tuple(range(min(2, count)))
    for number, target in enumerate(first):
        if masks[target] == -1 or masks[target] & (1 << number) - 1:
            return None
    bits = [1 << target for target in range(count)]
    after = _first_clear(bits[len(first) :], masks[len(first) :], (1 << len(first)) - 1)
    return None if after is None else (*first, *(len(first) + k for k in after))


def _first_clear(bits: Sequence[int], masks: Sequence[int], filled: int) -> tuple[int, ...] | None:
    """Return the first order (by list position) of the rows ``bits`` in which each strip is clear.

    Row *k* (bit ``bits[k]``) may fill when no row of ``masks[k]`` is filled (-1:
    never). The search that tried each next row in list order, and backed off
    when the rest had no clear order, found this order: a row blocked by a filled
    row stays blocked, so row *k* must fill before every row of ``masks[k]``, and
    the first order that keeps all those constraints takes, each time, the first
    row whose forerunners are all in. Positions into ``bits`` are returned;
    None when there is no such order (a row never clear, or a cycle).
    """
    if any(mask == -1 or mask & filled for mask in masks):
        return None
    # The rows that must fill before row k: those that row k's strip would block.
    before = [0] * len(bits)
    for k, bit in enumerate(bits):
        for j, mask in enumerate(masks):
            if mask & bit:
                before[k] |= bits[j]
    order: list[int] = []
    left = list(range(len(bits)))
    while left:
        ready = next((k for k in left if not before[k] & ~filled), None)
        if ready is None:
            return None
        order.append(ready)
        left.remove(ready)
        filled |= bits[ready]
    return tuple(order)


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
    over: bool = False,
) -> tuple[int, ...] | None:
    """Order some rows so that every strip's path is clear, with the output raised by ``raise_d``.

    The output block may sit elsewhere than where :func:`raise_and_order` put
    it (a stage rests it where it fills the frame best); this says whether the
    strips of one beat still have clear paths there. With ``over`` (the
    corridor is narrower than a strip: it slides over the block's columns at
    its row's height before it turns), a strip level with an output row not
    its own, filled or empty, is not clear either: it would run along that row
    (GPT-2's first strip ran over empty output row 2 on its way to row 0).

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
    over
        Whether the strips pass over the block's columns before they turn.

    Returns
    -------
    tuple or None
        ``targets`` in the order nearest the given one whose strips all have
        clear paths; None when there is none.
    """
    top = -raise_d / row_h
    units = [centres[s] / row_h for s in sources]
    # Every row that may be filled, each a bit (the targets are rows of the output too).
    rows = sorted(set(filled) | set(targets) | set(range(len(units))))
    bit = {row: 1 << number for number, row in enumerate(rows)}
    masks = _target_masks(units, targets, rows, top, over)
    found = _first_clear([bit[t] for t in targets], masks, sum(bit[row] for row in set(filled)))
    return None if found is None else tuple(targets[k] for k in found)


def _target_masks(
    units: Sequence[float], targets: Sequence[int], rows: Sequence[int], top: float, over: bool
) -> list[int]:
    """For each target, the rows in its strip's way (as :func:`_blocker_masks`); -1: never clear."""
    paths = []
    for target in targets:
        middle = top + target + 0.5
        paths.append((min(units[target], middle) - 0.5, max(units[target], middle) + 0.5))
    masks = _blocker_masks(paths, targets, rows, top, 1.0)
    if over:
        for number, target in enumerate(targets):
            if _beside_other(units[target], target, top, len(units)):
                masks[number] = -1
    return masks


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


# Points sampled along each rounded corner of a strip's route.
_PER_CORNER = 24
# A rise or fall under a pixel at 720p (90 px a scene unit): too short to round its turns.
_LEVEL = 1 / 90


def curved_route(
    clear_x: float, corners: Sequence[tuple[float, float, float]], end: tuple[float, float]
) -> list[np.ndarray]:
    """Return a strip centre's way from where it clears the matrix to its landing, as one curve.

    The strip slides straight out of its row only until it is clear of the
    matrix (``clear_x``: no other row's numbers are beside it from there);
    from there each corner of its lanes is rounded off by a quadratic curve
    as wide as the free room allows (``corners``: the corner's x and y and
    how far before and after it the curve may start and end), so the row
    travels to its output row in one continuous move, not in straight legs.
    A quadratic curve stays inside the triangle of its ends and the corner,
    so it sweeps no place the straight legs did not leave free.

    Parameters
    ----------
    clear_x
        The strip centre's x where it is clear of the matrix (it starts at
        its source row's height).
    corners
        Each corner as (x, y, room): the lanes turn there; the curve starts at
        most ``room`` before the corner and ends at most ``room`` after it
        (and never beyond half of a leg shared with another corner).
    end
        The landing place of the strip's centre.

    Returns
    -------
    list of arrays
        Points along the way, from ``(clear_x, source y)`` to ``end``.
    """
    if not corners:
        return [xyz(*end)]
    source_y = corners[0][1]
    points = [xyz(clear_x, source_y), *(xyz(x, y) for x, y, _ in corners), xyz(*end)]
    rooms = [room for _, _, room in corners]
    route = [points[0]]
    for number, (before, corner, after) in enumerate(
        zip(points, points[1:], points[2:], strict=False)
    ):
        into, away = corner - before, after - corner
        len_in, len_out = float(np.linalg.norm(into)), float(np.linalg.norm(away))
        # A leg between two corners is shared: each curve may take half of it.
        share_in = len_in if number == 0 else len_in / 2
        share_out = len_out if number == len(corners) - 1 else len_out / 2
        r_in, r_out = min(rooms[number], share_in), min(rooms[number], share_out)
        start = corner - into / max(len_in, 1e-9) * r_in
        stop = corner + away / max(len_out, 1e-9) * r_out
        for t in _even_turns(corner - start, stop - corner):
            route.append((1 - t) ** 2 * start + 2 * (1 - t) * t * corner + t**2 * stop)
    route.append(points[-1])
    # Drop repeated points (a corner curve that starts where the last one ended).
    kept = [route[0]]
    for point in route[1:]:
        if float(np.linalg.norm(point - kept[-1])) > 1e-9:
            kept.append(point)
    return kept


def _even_turns(into: np.ndarray, away: np.ndarray) -> np.ndarray:
    """Return the curve parameters at which a quadratic corner has turned by even steps.

    The curve's direction at ``t`` is ``(1 - t) * into + t * away``: where one
    leg is much shorter than the other it turns mostly near one end, and even
    steps of ``t`` would show that end as a corner.
    """
    fine = np.linspace(0.0, 1.0, 2001)
    directions = np.outer(1 - fine, into[:2]) + np.outer(fine, away[:2])
    angles = np.unwrap(np.arctan2(directions[:, 1], directions[:, 0]))
    turned = np.abs(angles - angles[0])
    if turned[-1] <= 1e-9:
        return np.linspace(0.0, 1.0, _PER_CORNER)
    result: np.ndarray = np.interp(np.linspace(0.0, turned[-1], _PER_CORNER), turned, fine)
    return result


def rising_route(
    clear_x: float, landing_x: float, source_y: float, target_y: float, room: float
) -> list[np.ndarray]:
    """Return a strip centre's way beside the matrix: up (or down) first, then into its row.

    Once clear of the matrix the strip turns at once toward its output row's
    height, rises or falls beside the walking column (the way its chip went
    home), and slides into its row at that row's height: it is never carried
    across the output block level with another row, aligned with that row's
    cells (a 720p review read such a strip as landing in the row beside it).
    Both turns are rounded alike, by at most ``room`` and by at most half the
    way across or up, so the strip stays within the rows between its source's
    height and its target's, as the straight lanes did (see :func:`curved_route`).

    Parameters
    ----------
    clear_x
        The strip centre's x where it is clear of the matrix (at ``source_y``).
    landing_x
        Its centre's x in its output row.
    source_y, target_y
        Its source row's centre line and its output row's.
    room
        The most a turn is rounded by (scene units).

    Returns
    -------
    list of arrays
        Points along the way, from ``(clear_x, source_y)`` to its landing.
    """
    if 1e-9 < abs(target_y - source_y) < _LEVEL:
        # Two turns squeezed into less than a pixel make a kink (a row of E and an output
        # row of GPT-2's layout stood 0.3 px apart): the strip slides straight, so sloped.
        return [xyz(clear_x, source_y), xyz(landing_x, target_y)]
    turn = min(room, (landing_x - clear_x) / 2, abs(target_y - source_y) / 2)
    if turn <= 1e-9:
        return curved_route(clear_x, [(landing_x, source_y, float("inf"))], (landing_x, target_y))
    rise_x = clear_x + turn
    corners = [(rise_x, source_y, turn), (rise_x, target_y, turn)]
    return curved_route(clear_x, corners, (landing_x, target_y))
