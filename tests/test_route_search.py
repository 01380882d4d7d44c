"""The route search's fast order (bit sets, one pass) against a plain search written here.

:func:`~embedviz.render.routes.clear_order` and the raise search's order
(``_order``) once tried each next row in turn, tested each strip's sweep
against every filled row, and backed off when the rest had no clear order;
that search took most of a 12-token LargeVocab build. The reference below is
that search, written again from the rule (a strip may not cross a filled
output row other than its own, nor rise above the block's top), and the fast
code must give exactly its answer on random layouts.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.render.routes import _blocker_masks, _order, clear_order


def _crosses(low: float, high: float, row: int, top: float) -> bool:
    """Whether a sweep from ``low`` to ``high`` overlaps output row ``row`` (one row tall)."""
    return low < top + row + 1 - 1e-6 and high > top + row + 1e-6


def _clear(path: tuple[float, float], filled: frozenset[int], own: int, top: float) -> bool:
    low, high = path
    if low < top - 1e-6:
        return False
    return not any(row != own and _crosses(low, high, row, top) for row in filled)


def _sweep(unit: float, target: int, top: float) -> tuple[float, float]:
    middle = top + target + 0.5
    return min(unit, middle) - 0.5, max(unit, middle) + 0.5


def _reference_order(units: Sequence[float], top: float) -> tuple[int, ...] | None:
    """First two rows in order, then the first clear order by backtracking."""
    count = len(units)
    paths = [_sweep(u, t, top) for t, u in enumerate(units)]
    first = tuple(range(min(2, count)))
    for number, target in enumerate(first):
        if not _clear(paths[target], frozenset(first[:number]), target, top):
            return None

    @cache
    def rest(filled: frozenset[int]) -> tuple[int, ...] | None:
        if len(filled) == count:
            return ()
        for target in range(count):
            if target not in filled and _clear(paths[target], filled, target, top):
                after = rest(filled | {target})
                if after is not None:
                    return (target, *after)
        return None

    after = rest(frozenset(first))
    return None if after is None else (*first, *after)


def _reference_clear(
    units: Sequence[float], top: float, filled: Sequence[int], targets: Sequence[int], over: bool
) -> tuple[int, ...] | None:
    def level_with_other(target: int) -> bool:
        low, high = units[target] - 0.5, units[target] + 0.5
        return any(row != target and _crosses(low, high, row, top) for row in range(len(units)))

    def rest(done: frozenset[int], left: tuple[int, ...]) -> tuple[int, ...] | None:
        if not left:
            return ()
        for number, target in enumerate(left):
            if over and level_with_other(target):
                continue
            if _clear(_sweep(units[target], target, top), done, target, top):
                after = rest(done | {target}, left[:number] + left[number + 1 :])
                if after is not None:
                    return (target, *after)
        return None

    return rest(frozenset(filled), tuple(targets))


# Quarter rows: sweeps meet rows edge to edge (the 1e-6 margins decide), as real layouts do.
_units = st.lists(st.integers(-4, 40).map(lambda q: q / 4), min_size=1, max_size=7)
_tops = st.integers(-28, 8).map(lambda q: q / 4)


@settings(max_examples=400, deadline=None)
@given(_units, _tops)
def test_the_raise_search_order_is_the_backtracking_search_s(
    units: list[float], top: float
) -> None:
    assert _order(tuple(units), top) == _reference_order(units, top)


@settings(max_examples=400, deadline=None)
@given(_units, _tops, st.data(), st.booleans())
def test_clear_order_is_the_backtracking_search_s(
    units: list[float], top: float, data: st.DataObject, over: bool
) -> None:
    rows = list(range(len(units)))
    filled = data.draw(st.lists(st.sampled_from(rows), unique=True))
    targets = data.draw(st.permutations([r for r in rows if r not in filled]))
    targets = targets[: data.draw(st.integers(0, len(targets)))]
    centres = {number: unit for number, unit in enumerate(units)}
    expected = _reference_clear(units, top, filled, targets, over)
    assert clear_order(rows, centres, 1.0, -top, filled, targets, over) == expected


@settings(max_examples=300, deadline=None)
@given(_units, _tops, st.data())
def test_each_blocker_mask_holds_exactly_the_rows_that_block_the_sweep(
    units: list[float], top: float, data: st.DataObject
) -> None:
    rows = list(range(len(units)))
    paths = [_sweep(u, t, top) for t, u in enumerate(units)]
    masks = _blocker_masks(paths, rows, rows, top, 1.0)
    for target, path in enumerate(paths):
        filled = frozenset(data.draw(st.lists(st.sampled_from(rows), unique=True)))
        bits = sum(1 << row for row in filled)
        fast_clear = masks[target] != -1 and not masks[target] & bits
        assert fast_clear == _clear(path, filled, target, top)
