"""The older stages' output block (the lookup family's is a ``CellGrid``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import VGroup

from embedviz.render.glyphs import LabelText, NumberText
from embedviz.render.metrics import char_advance, xyz
from embedviz.render.mobjects import (
    CELL_PAD_CHARS,
    GridMetrics,
    _column_slots,
    _grid_lines,
    _place_right,
)
from embedviz.render.theme import DARK, Theme, value_colour
from embedviz.story.model import NumberCell, Window

__all__ = ["OutputBlock"]


class OutputBlock(VGroup):
    """The lookup result: one row per input position, same columns as the grid.

    Parameters
    ----------
    positions
        Output positions in input order, e.g. ``[(0,), (1,), ...]``.
    window
        The grid's window; the block shows the same columns.
    numbers
        Cells of kind ``position`` label the rows.
    metrics
        Shared sizes.
    theme
        Colours.
    value_scale
        The magnitude that gets the strongest value colour (as the grid's).
    labels_right
        Put the row labels right of the block, so that rows can arrive from
        the left without crossing them.
    """

    def __init__(
        self,
        positions: Sequence[tuple[int, ...]],
        window: Window,
        numbers: Sequence[NumberCell],
        metrics: GridMetrics,
        theme: Theme = DARK,
        value_scale: float = 1.0,
        labels_right: bool = False,
    ) -> None:
        super().__init__()
        self.metrics = metrics
        self.theme = theme
        self.value_scale = value_scale
        self.labels_right = labels_right
        self.window = window
        by_key = {(cell.kind, cell.index): cell for cell in numbers}
        self.col_slots = _column_slots(window.cols, window.col_gaps, metrics)
        width = sum(
            metrics.cell_width if kind == "col" else metrics.gap_width
            for kind, _, _ in self.col_slots
        )
        height = len(positions) * metrics.cell_height
        separators_x = np.cumsum(
            [
                metrics.cell_width if kind == "col" else metrics.gap_width
                for kind, _, _ in self.col_slots
            ]
        )[:-1]
        separators_y = [-(i + 1) * metrics.cell_height for i in range(len(positions) - 1)]
        self.body = _grid_lines(width, height, separators_x, separators_y, theme)
        self.body[0].set_stroke(theme.output, width=2)
        self.add(self.body)
        self.labels = VGroup()
        self.row_y: dict[tuple[int, ...], float] = {}
        small = metrics.font_size * 0.8
        for order, position in enumerate(positions):
            y = -(order + 0.5) * metrics.cell_height
            self.row_y[position] = y
            label = NumberText(by_key[("position", position)], small, theme.output)
            if labels_right:
                label.place([width + 0.15, y, 0], align="left")
            else:
                _place_right(label, -0.18, y)
            self.labels.add(label)
            for kind, _, x in self.col_slots:
                # With labels on the right, a copied row arrives from the left
                # carrying its own elision marks; none are drawn before.
                if kind == "gap" and not labels_right:
                    self.body.add(
                        LabelText("\u2026", metrics.font_size, theme.muted).move_to(xyz(x, y))
                    )
        self.add(self.labels)
        self.width_of_body = width
        self.height_of_body = height

    def make_cell(self, cell: NumberCell) -> NumberText:
        """Create (without adding) the number for an output cell, in place.

        Parameters
        ----------
        cell
            A cell of kind ``output``: index is the position then the column.

        Returns
        -------
        NumberText
            Positioned in its slot.
        """
        position, col = cell.index[:-1], cell.index[-1]
        colour = value_colour(cell.value, self.value_scale, self.theme)
        text = NumberText(cell, self.metrics.font_size, colour)
        x = next(x for kind, i, x in self.col_slots if kind == "col" and i == col)
        left = self.body.get_left()[0]
        top = self.body.get_top()[1]
        pad = char_advance(self.metrics.font_size) * (CELL_PAD_CHARS / 2)
        _place_right(text, left + x + self.metrics.cell_width / 2 - pad, top + self.row_y[position])
        return text
