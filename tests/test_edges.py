"""tests/edges.py reads the same edges as Manim's own box methods, float for float.

tests/carry_plays.py reads a carry's edges at 2,001 alphas with tests/edges.py
instead of ``get_left``/``get_center``/``get_gradient_start_and_end_points``
(issue 18: suite time); what the carry tests assert must not move by one ulp.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from edges import LEFT, ORIGIN, RIGHT, bounds, centre, critical, gradient_ends, left
from manim import DOWN, UL, UP, Circle, Dot, Rectangle, Text, VGroup, VMobject


def _shapes() -> list[Any]:
    """Mobjects of every kind the carries hold: text, boxes with gradients, groups, odd ones."""
    word = Text("-0.9560", font_size=24).shift(2.3 * LEFT + 0.7 * UP)
    box = Rectangle(width=3.1, height=0.47).shift(0.3 * RIGHT + 1.1 * DOWN)
    box.set_fill(["#ff0000", "#0000ff00"], opacity=0.8).set_stroke(["#00ff00", "#ffffff"], 2)
    box.set_sheen_direction(UL)
    lone = VMobject()
    lone.set_points(np.array([[0.25, -3.0, 0.0]]))
    row = VGroup(
        *(
            Text(f"{v:.2f}", font_size=18).shift(0.8 * k * RIGHT)
            for k, v in enumerate([0.1, -2, 3.5])
        )
    )
    return [
        word,
        box,
        Circle(radius=0.7).rotate(0.3),
        Dot(),
        VGroup(row, box.copy(), lone),
        VGroup(lone.copy(), Circle()),
    ]


@pytest.mark.parametrize("index", range(6))
def test_edges_are_manims_own(index: int) -> None:
    shape = _shapes()[index]
    found = bounds(shape)
    for direction in (LEFT, RIGHT, ORIGIN, UP, DOWN, UL):
        assert np.array_equal(
            critical(found, np.asarray(direction)), shape.get_critical_point(direction)
        )
    assert left(shape) == float(shape.get_left()[0])
    assert np.array_equal(centre(shape), shape.get_center())
    ours, manims = gradient_ends(shape), shape.get_gradient_start_and_end_points()
    assert all(np.array_equal(a, b) for a, b in zip(ours, manims, strict=True))


def test_an_empty_mobject_has_manims_origin() -> None:
    empty = VGroup()
    assert bounds(empty) is None
    assert np.array_equal(centre(empty), empty.get_center())
    assert left(empty) == float(empty.get_left()[0])
