"""The colour legend (embedviz.render.parts.legend): in a row, or upright as a colour bar."""

from __future__ import annotations

import numpy as np
import pytest

from embedviz.render.parts.legend import SWATCHES, Legend
from embedviz.render.theme import DARK
from embedviz.story.model import NumberCell

CELLS = [
    NumberCell("legend", (i,), text, value)
    for i, (text, value) in enumerate([("-3", -3.0), ("0", 0.0), ("+3", 3.0)])
]


def test_an_upright_legend_stacks_its_swatches_from_minus_to_plus() -> None:
    bar = Legend(CELLS, 20, DARK, "value colour", upright=True, length=3.0)
    centres = np.array([s.get_center() for s in bar.swatches])
    # One column, rising from -s to +s, as tall as asked.
    assert np.allclose(centres[:, 0], centres[0, 0])
    assert np.all(np.diff(centres[:, 1]) > 0)
    assert bar.swatches.height == pytest.approx(3.0)
    # Each value at the right of its swatch (-s, 0, +s), the title above the bar.
    for tick, swatch in zip(bar.ticks, (0, SWATCHES // 2, SWATCHES - 1), strict=True):
        assert tick.get_left()[0] > bar.swatches.get_right()[0]
        assert tick.get_center()[1] == pytest.approx(bar.swatches[swatch].get_center()[1])
    assert bar.title.get_bottom()[1] > bar.swatches.get_top()[1]


def test_the_upright_legend_has_the_row_legend_s_parts_in_order() -> None:
    """So that one morphs into the other, part by part (ZeroBasedIndexing's intro)."""
    row = Legend(CELLS, 20, DARK, "value colour")
    bar = Legend(CELLS, 20, DARK, "value colour", upright=True)
    assert [type(m) for m in row.get_family()] == [type(m) for m in bar.get_family()]
    assert [len(m.points) for m in row.get_family()] == [len(m.points) for m in bar.get_family()]
    row_y = [s.get_center()[1] for s in row.swatches]
    assert np.allclose(row_y, row_y[0])


def test_a_level_legend_sets_its_values_on_the_swatches_line() -> None:
    """In the title band, no taller than a line: -s and +s at the ends, 0 on the zero swatch."""
    row = Legend(CELLS, 20, DARK, "value colour")
    level = Legend(CELLS, 20, DARK, "value colour", level=True)
    low, zero, high = level.ticks
    swatches = level.swatches
    assert low.get_right()[0] < swatches.get_left()[0]
    assert high.get_left()[0] > swatches.get_right()[0]
    middle = swatches[SWATCHES // 2]
    assert np.allclose(zero.get_center()[:2], middle.get_center()[:2])
    # The zero in the cells' fill on the zero swatch (a cell's zero colour, 4.5:1 on that fill).
    assert zero.get_fill_color().to_hex().upper() == DARK.cell_fill.upper()
    for tick in (low, zero, high):
        assert swatches.get_bottom()[1] <= tick.get_center()[1] <= swatches.get_top()[1]
    assert level.title.get_right()[0] < low.get_left()[0]
    # One line: as tall as its swatches or its title, not the swatches over their values.
    assert level.height <= max(swatches.height, level.title.height) + 1e-9
    assert level.height < row.height
