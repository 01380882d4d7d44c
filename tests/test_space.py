"""The largest empty rectangle among drawn boxes (issue 18's empty-area measure)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from embedviz.render.space import best_drop, best_slide, largest_empty_rectangle

# Boxes on a small integer grid, so that a brute-force oracle can try every rectangle.
WIDTH, HEIGHT = 8, 6
corners = st.tuples(
    st.integers(0, WIDTH), st.integers(0, HEIGHT), st.integers(0, WIDTH), st.integers(0, HEIGHT)
)


def _brute_force(boxes: list[tuple[int, int, int, int]]) -> int:
    """The largest empty rectangle, trying every one with integer corners."""
    best = 0
    for x0, x1 in itertools.combinations(range(WIDTH + 1), 2):
        for y0, y1 in itertools.combinations(range(HEIGHT + 1), 2):
            if all(not (b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3]) for b in boxes):
                best = max(best, (x1 - x0) * (y1 - y0))
    return best


@given(st.lists(corners, max_size=6))
def test_the_largest_empty_rectangle_is_found(raw: list[tuple[int, int, int, int]]) -> None:
    boxes = [(min(a, c), min(b, d), max(a, c), max(b, d)) for a, b, c, d in raw]
    found = largest_empty_rectangle([tuple(map(float, b)) for b in boxes], (0, 0, WIDTH, HEIGHT))
    # (A line counts as a sliver a millionth wide, so areas agree to that.)
    assert found.area == pytest.approx(_brute_force(boxes), abs=1e-4)
    # The rectangle it names is that large and empty.
    assert (found.right - found.left) * (found.top - found.bottom) == pytest.approx(found.area)
    shrunk = 1e-5
    for b in boxes:
        assert not (
            b[0] < found.right - shrunk
            and found.left + shrunk < b[2]
            and b[1] < found.top - shrunk
            and found.bottom + shrunk < b[3]
        )


def test_boxes_outside_the_band_are_ignored() -> None:
    found = largest_empty_rectangle([(-5.0, -5.0, -1.0, -1.0), (9.0, 0.0, 12.0, 6.0)], (0, 0, 8, 6))
    assert found.area == 48.0


def test_a_drop_that_fills_the_band_wins() -> None:
    # A block at the top of a 10-high band leaves its lower half empty; lowered
    # to the middle, no empty rectangle is larger than 20.
    fixed = [(0.0, 0.0, 4.0, 10.0)]
    moving = [(4.0, 8.0, 10.0, 10.0)]
    drop, empty = best_drop(fixed, moving, (0.0, 0.0, 10.0, 10.0), [0.0, 2.0, 4.0, 6.0], 200.0)
    assert drop == 4.0
    assert empty.area == 24.0
    # A drop past the band's bottom is never taken.
    drop, _ = best_drop(fixed, moving, (0.0, 0.0, 10.0, 10.0), [0.0, 9.0], 200.0)
    assert drop == 0.0


def test_a_slide_across_is_a_drop_with_the_axes_swapped() -> None:
    # The same block at the right end of the band, beside a fixed column: slid
    # left to the middle, it leaves 24 empty, in the frame's own axes.
    fixed = [(0.0, 0.0, 10.0, 4.0)]
    moving = [(8.0, 4.0, 10.0, 10.0)]
    slide, empty = best_slide(fixed, moving, (0.0, 0.0, 10.0, 10.0), [0.0, 2.0, 4.0, 6.0], 200.0)
    assert slide == 4.0
    assert empty.area == 24.0
    assert (empty.left, empty.bottom, empty.right, empty.top) == (6.0, 4.0, 10.0, 10.0)
    # A slide past the band's left end is never taken.
    slide, _ = best_slide(fixed, moving, (0.0, 0.0, 10.0, 10.0), [0.0, 9.0], 200.0)
    assert slide == 0.0


def test_a_framed_box_with_nothing_in_it_counts_as_empty_only_when_asked() -> None:
    """Issue 18: a rectangle filled with the background (or nothing) is a frame round
    empty space. ``mobject_boxes`` counts it whole by default, by its four sides given
    the background's colour; a filled cell, or a text inside the frame, counts whole."""
    from manim import Rectangle

    from embedviz.render.boxes import mobject_boxes

    background = "#101318"
    frame = Rectangle(width=4.0, height=2.0).set_fill(background, opacity=1.0)
    hollow = Rectangle(width=4.0, height=2.0).set_fill(opacity=0.0).shift([0.0, -3.0, 0.0])
    cell = Rectangle(width=4.0, height=5.0).set_fill("#1c2030", opacity=1.0).shift([5, -1.5, 0])
    region = (-2.0, -4.0, 7.0, 1.0)
    whole = largest_empty_rectangle(mobject_boxes([frame, hollow, cell]), region)
    seen = largest_empty_rectangle(mobject_boxes([frame, hollow, cell], (), background), region)
    # Counted whole, only the gaps between the boxes are empty (1 wide, 5 long).
    assert whole.area == pytest.approx(5.0)
    # Counted by their sides, each frame's inside (4 x 2) is empty too; the cell is not.
    assert seen.area == pytest.approx(4.0 * 2.0)
    assert (seen.left, seen.right) == pytest.approx((-2.0, 2.0))
    assert mobject_boxes([cell], (), background) == mobject_boxes([cell])


@given(st.lists(corners, min_size=1, max_size=4), st.data())
def test_boxes_held_inside_others_change_nothing(
    raw: list[tuple[int, int, int, int]], data: st.DataObject
) -> None:
    """The search drops boxes another box holds whole (numbers in their cells): same answer."""
    boxes = [(min(a, c), min(b, d), max(a, c), max(b, d)) for a, b, c, d in raw]
    held = []
    for x0, y0, x1, y1 in boxes:
        # A box inside this one, and a copy of it.
        a, c = sorted(data.draw(st.tuples(st.integers(x0, x1), st.integers(x0, x1))))
        b, d = sorted(data.draw(st.tuples(st.integers(y0, y1), st.integers(y0, y1))))
        held += [(a, b, c, d), (x0, y0, x1, y1)]
    found = largest_empty_rectangle(
        [tuple(map(float, b)) for b in [*boxes, *held]], (0, 0, WIDTH, HEIGHT)
    )
    assert found.area == pytest.approx(_brute_force(boxes), abs=1e-4)
