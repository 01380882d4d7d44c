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
