"""The batch's strip routes: the order rows fill in keeps every strip's path clear.

:func:`~embedviz.render.batch_routes.fill_order` is checked against a brute
force written here from its contract, not from its code: every order of each
slice's rows (the first two of slice 0 in input order) is tried in
lexicographic order, and the first whose every path is clear when its strip
travels is the answer (the search returns the order nearest input order).
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.render.batch_routes import fill_order, place_slices

EPS = 1e-6


def _overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] < b[1] - EPS and a[1] > b[0] + EPS


def _brute_order(
    sources: list[float],
    top: float,
    header: float,
    band: float,
    batch: int,
    length: int,
    gap: float,
) -> tuple[int, ...] | None:
    """Return the first order, slice by slice, whose strips each pass nothing in their way."""

    def row(b: int, t: int) -> tuple[float, float]:
        centre = top + band + (b + 1) * header + b * (length + gap) + t + 0.5
        return centre - 0.5, centre + 0.5

    order: list[int] = []
    for b in range(batch):
        fixed = tuple(range(min(2, length))) if b == 0 else ()
        rest = [t for t in range(length) if t not in fixed]
        found = None
        for tail in itertools.permutations(rest):
            candidate = (*fixed, *tail)
            if all(
                _clear(sources, top, header, band, b, length, candidate, i, row)
                for i in range(length)
            ):
                found = candidate
                break
        if found is None:
            return None
        order += [b * length + t for t in found]
    return tuple(order)


def _clear(sources, top, header, band, b, length, candidate, i, row) -> bool:  # type: ignore[no-untyped-def]
    """Whether the i-th strip of slice b's candidate order travels clear."""
    t = candidate[i]
    source, (low_row, high_row) = sources[b * length + t], row(b, t)
    target = (low_row + high_row) / 2
    path = (min(source, target) - 0.5, max(source, target) + 0.5)
    if path[0] < top - EPS:
        return False
    in_the_way = [(top, top + band)]
    for k in range(b + 1):  # headers of the slices up to this one
        first = row(k, 0)
        in_the_way.append((first[0] - header, first[0]))
    for k in range(b):  # the slices already filled
        in_the_way.append((row(k, 0)[0], row(k, length - 1)[1]))
    in_the_way += [row(b, k) for k in candidate[:i]]  # this slice's rows filled before
    return not any(_overlaps(path, box) for box in in_the_way)


@settings(max_examples=150, deadline=None)
@given(
    batch=st.integers(1, 3),
    length=st.integers(1, 4),
    data=st.data(),
)
def test_fill_order_is_the_first_clear_order(batch: int, length: int, data: st.DataObject) -> None:
    """For random sources and stack places, fill_order gives the brute force's order."""
    quarter = st.integers(-40, 40).map(lambda q: q / 4)
    sources = data.draw(
        st.lists(
            st.integers(0, 40).map(lambda q: q / 4 + 0.5),
            min_size=batch * length,
            max_size=batch * length,
        )
    )
    top = data.draw(quarter)
    header = data.draw(st.sampled_from([0.0, 0.5, 0.8, 1.0]))
    band = data.draw(st.sampled_from([0.0, 0.6, 1.0]))
    gap = data.draw(st.sampled_from([0.0, 0.5, 1.5]))
    expected = _brute_order(sources, top, header, band, batch, length, gap)
    assert fill_order(sources, top, header, band, batch, length, gap) == expected


@settings(max_examples=60, deadline=None)
@given(batch=st.integers(1, 3), length=st.integers(1, 3), data=st.data())
def test_place_slices_keeps_the_shortest_content_then_the_least_travel(
    batch: int, length: int, data: st.DataObject
) -> None:
    """Of every quarter-row place of the stack whose rows have a clear order, place_slices
    keeps the one with the shortest content (E and the stack together), then the least
    travel, then the highest; with the brute force's order for it."""
    matrix_h = float(data.draw(st.integers(1, 8)))
    sources = data.draw(
        st.lists(
            st.integers(0, int(matrix_h) - 1).map(lambda r: r + 0.5),
            min_size=batch * length,
            max_size=batch * length,
        )
    )
    header = data.draw(st.sampled_from([0.5, 0.8, 1.0]))
    band = data.draw(st.sampled_from([0.6, 1.0]))
    stack_h = band + batch * (header + length)
    best = None
    for step in range(int((stack_h + matrix_h) * 4) + 1):
        top = -stack_h + step / 4
        order = _brute_order(sources, top, header, band, batch, length, 0.0)
        if order is None:
            continue
        content = max(matrix_h, top + stack_h) - min(0.0, top)
        targets = [
            top + band + (b + 1) * header + b * length + t + 0.5
            for b in range(batch)
            for t in range(length)
        ]
        travel = sum(abs(a - s) for a, s in zip(targets, sources, strict=True))
        key = (round(content, 4), travel)
        if best is None or key < best[0]:
            best = (key, top, order)
    found = place_slices.__wrapped__(tuple(sources), matrix_h, header, band, batch, length)
    assert found == (None if best is None else (best[1], best[2]))
