"""The batch stage's fast searches against plain ones written here (issue 18, speed31).

Building a BatchLookup stage was most of the batch tests' time: the solver
tried each quarter-row place of the stack one by one and searched each
slice's fill order by backtracking (:mod:`~embedviz.render.batch_routes`),
E's rise and the stack's spread tested every pair of boxes in Python for
every drop (:func:`~embedviz.render.space.best_drop`), and every chip, chip
place and tag place rounded its corners afresh. The fast code must give
exactly what the plain search gives: the references below are written from
the rules (a strip may not cross a filled row, a header, the d band or a
slice filled before its own; a group may not leave the band nor meet a fixed
box by more than 1e-6), not from the fast code.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from manim import RoundedRectangle, tempconfig

from embedviz.render.batch_routes import _ways_clear, fill_order
from embedviz.render.rounded import rounded_box
from embedviz.render.space import Box, _clear_drops, best_drop, largest_empty_rectangle

EPS = 1e-6


def _meets(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] < b[1] - EPS and a[1] > b[0] + EPS


def _centre(
    top: float, header: float, band: float, length: int, gap: float, b: int, t: int
) -> float:
    return top + band + (b + 1) * header + b * (length + gap) + t + 0.5


def _sweep(sources: list[float], at: tuple[float, ...], b: int, t: int) -> tuple[float, float]:
    target = _centre(*at, b, t)
    source = sources[b * at[3] + t]
    return min(source, target) - 0.5, max(source, target) + 0.5


def _ways_in_order(
    sources: list[float],
    top: float,
    header: float,
    band: float,
    batch: int,
    length: int,
    gap: float,
) -> bool:
    """Whether no strip meets the d band, a header up to its slice or a slice before it."""
    at = (top, header, band, length, gap)
    for b in range(batch):
        walls = [(top, top + band)]
        walls += [
            (_centre(*at, k, 0) - 0.5 - header, _centre(*at, k, 0) - 0.5) for k in range(b + 1)
        ]
        walls += [(_centre(*at, k, 0) - 0.5, _centre(*at, k, length - 1) + 0.5) for k in range(b)]
        for t in range(length):
            path = _sweep(sources, at, b, t)
            if path[0] < top - EPS or any(_meets(path, wall) for wall in walls):
                return False
    return True


def _backtracking_order(
    sources: list[float],
    top: float,
    header: float,
    band: float,
    batch: int,
    length: int,
    gap: float,
) -> tuple[int, ...] | None:
    """Slice by slice, the first clear order by trying each next row in input order."""
    if not _ways_in_order(sources, top, header, band, batch, length, gap):
        return None
    at = (top, header, band, length, gap)
    order: list[int] = []
    for b in range(batch):
        rows = [(_centre(*at, b, k) - 0.5, _centre(*at, b, k) + 0.5) for k in range(length)]

        def clear(t: int, filled: frozenset[int], b: int = b, rows: list = rows) -> bool:  # type: ignore[type-arg]
            return not any(_meets(_sweep(sources, at, b, t), rows[k]) for k in filled)

        fixed = tuple(range(min(2, length))) if b == 0 else ()
        if not all(clear(t, frozenset(fixed[:n])) for n, t in enumerate(fixed)):
            return None

        @cache
        def rest(filled: frozenset[int], clear=clear) -> tuple[int, ...] | None:  # type: ignore[no-untyped-def]
            if len(filled) == length:
                return ()
            for t in range(length):
                if t not in filled and clear(t, filled):
                    after = rest(filled | {t})
                    if after is not None:
                        return (t, *after)
            return None

        after = rest(frozenset(fixed))
        if after is None:
            return None
        order += [b * length + t for t in (*fixed, *after)]
    return tuple(order)


# Quarter rows (sweeps meet rows edge to edge, the 1e-6 margins decide), up to 3 x 7 rows.
_layout = st.fixed_dictionaries(
    {
        "batch": st.integers(1, 3),
        "length": st.integers(1, 7),
        "top": st.integers(-40, 8).map(lambda q: q / 4),
        "header": st.sampled_from([0.0, 0.5, 0.8, 1.0, 1.4]),
        "band": st.sampled_from([0.0, 0.6, 1.0]),
        "gap": st.sampled_from([0.0, 0.5, 1.5]),
    }
)


@settings(max_examples=400, deadline=None)
@given(_layout, st.data())
def test_fill_order_is_the_backtracking_search_s(layout: dict, data: st.DataObject) -> None:  # type: ignore[type-arg]
    count = layout["batch"] * layout["length"]
    sources = data.draw(
        st.lists(st.integers(-4, 60).map(lambda q: q / 4), min_size=count, max_size=count)
    )
    args = (layout["top"], layout["header"], layout["band"], layout["batch"], layout["length"])
    if data.draw(st.booleans()):
        # Sources near their own rows, up and down: most such stacks have a clear order,
        # and many not in input order (far sources mostly fail on a header or a cycle).
        at = (layout["top"], layout["header"], layout["band"], layout["length"], layout["gap"])
        near = st.sampled_from([0.0, 0.0, 0.25, -0.25, 1.0, -1.0, 2.0, -2.0, 3.5])
        offsets = data.draw(st.lists(near, min_size=count, max_size=count))
        sources = [
            _centre(*at, n // layout["length"], n % layout["length"]) + offset
            for n, offset in enumerate(offsets)
        ]
    expected = _backtracking_order(sources, *args, layout["gap"])
    assert fill_order(sources, *args, layout["gap"]) == expected


@settings(max_examples=300, deadline=None)
@given(_layout, st.data())
def test_the_ways_of_every_place_are_told_as_one_place_at_a_time(
    layout: dict,  # type: ignore[type-arg]
    data: st.DataObject,
) -> None:
    count = layout["batch"] * layout["length"]
    sources = data.draw(
        st.lists(st.integers(-4, 60).map(lambda q: q / 4), min_size=count, max_size=count)
    )
    tops = data.draw(st.lists(st.integers(-60, 12).map(lambda q: q / 4), min_size=1, max_size=30))
    size = (layout["header"], layout["band"], layout["batch"], layout["length"])
    way = _ways_clear(sources, np.array(tops), *size)
    assert way.tolist() == [_ways_in_order(sources, top, *size, 0.0) for top in tops]


def _boxes(count: int) -> st.SearchStrategy[list[Box]]:
    corner = st.integers(-16, 16).map(lambda q: q / 4)
    size = st.integers(0, 12).map(lambda q: q / 4)
    box = st.tuples(corner, corner, size, size).map(
        lambda b: (b[0], b[1], b[0] + b[2], b[1] + b[3])
    )
    return st.lists(box, min_size=0, max_size=count)


def _pairwise_clear(fixed: list[Box], moving: list[Box], band: Box, drop: float) -> bool:
    moved = [(b[0], b[1] - drop, b[2], b[3] - drop) for b in moving]
    if any(b[1] < band[1] - EPS or b[3] > band[3] + EPS for b in moved):
        return False
    return not any(
        a[0] < f[2] - EPS and f[0] < a[2] - EPS and a[1] < f[3] - EPS and f[1] < a[3] - EPS
        for a in moved
        for f in fixed
    )


_drops = st.lists(st.integers(-24, 24).map(lambda q: q / 8), min_size=0, max_size=21)
_band = (-5.0, -4.0, 5.0, 4.0)


@settings(max_examples=400, deadline=None)
@given(_boxes(12), _boxes(6), _drops)
def test_every_drop_is_told_clear_as_box_by_box(
    fixed: list[Box], moving: list[Box], drops: list[float]
) -> None:
    expected = [_pairwise_clear(fixed, moving, _band, drop) for drop in drops]
    assert _clear_drops(fixed, moving, _band, drops) == expected


@settings(max_examples=150, deadline=None)
@given(_boxes(10), _boxes(4), _drops)
def test_best_drop_keeps_the_drop_the_box_by_box_search_keeps(
    fixed: list[Box], moving: list[Box], drops: list[float]
) -> None:
    frame = 80.0
    best = None
    for drop in drops:
        if not _pairwise_clear(fixed, moving, _band, drop):
            continue
        moved = [(b[0], b[1] - drop, b[2], b[3] - drop) for b in moving]
        empty = largest_empty_rectangle([*fixed, *moved], _band)
        over = empty.area > frame / 8
        key = (over, empty.area if over else 0.0, 0, empty.area)
        if best is None or key < best[0]:
            best = (key, drop, empty)
    expected = (
        (0.0, largest_empty_rectangle([*fixed, *moving], _band)) if best is None else best[1:]
    )
    assert best_drop(fixed, moving, _band, iter(drops), frame) == expected


def test_a_rounded_box_has_the_points_of_one_built_afresh_and_is_its_own() -> None:
    for width, height, radius in [(0.6, 0.3, 0.066), (1.25, 0.41, 0.0902), (0.6, 0.3, 0.05)]:
        fresh = RoundedRectangle(corner_radius=radius, width=width, height=height)
        first = rounded_box(width, height, radius)
        assert np.array_equal(first.points, fresh.points)
        assert first.corner_radius == fresh.corner_radius
        first.shift([1.0, 2.0, 0.0]).set_stroke(width=9.0)
        again = rounded_box(width, height, radius)
        assert again is not first
        assert np.array_equal(again.points, fresh.points)
        assert again.get_stroke_width() == fresh.get_stroke_width()


def test_the_batch_solver_solves_each_spec_once_per_frame() -> None:
    """The stage solved one spec twice where it rebuilt, and every test built the same batch."""
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.batch_plan import batch_spec
    from embedviz.render.solve_batch import solve_batch

    spec = batch_spec(prepared_storyboard("BatchLookup", {"ids": "1,0;2,3;3,1"}, environ={}))
    first = solve_batch(spec)
    assert solve_batch(spec) is first
    with tempconfig({"frame_width": 16.0, "frame_height": 9.0}):
        assert solve_batch(spec) is not first
