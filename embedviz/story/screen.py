"""What is on screen while a storyboard is being written.

Builders mutate a :class:`Screen` beat by beat and freeze a copy into each
:class:`~embedviz.story.model.Beat`, so the recorded numbers are exactly the
set the renderer must show, derived from the core's arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from embedviz.core.cells import format_cell, format_scale
from embedviz.core.colour_key import table_key
from embedviz.core.errors import EmbedvizError
from embedviz.core.table import Table
from embedviz.story.model import NumberCell, NumberKind, Window
from embedviz.story.vocabulary import GAP_WORDS
from embedviz.story.words import Words

__all__ = ["Screen", "int_cell", "value_cell"]


def value_cell(kind: NumberKind, index: tuple[int, ...], value: np.floating | float) -> NumberCell:
    """Make the cell for a table value: its rounded string and its float.

    Parameters
    ----------
    kind
        ``weight``, ``output`` or ``printed``.
    index
        Where it sits.
    value
        The float32 value from the core.

    Returns
    -------
    NumberCell
        The cell.
    """
    return NumberCell(kind, index, format_cell(value), float(value))


def int_cell(kind: NumberKind, index: tuple[int, ...], value: int) -> NumberCell:
    """Make the cell for a whole number (an ID, a row number, a size).

    Parameters
    ----------
    kind
        What the number is.
    index
        Where it sits.
    value
        The number.

    Returns
    -------
    NumberCell
        The cell, shown in plain decimal.
    """
    return NumberCell(kind, index, str(int(value)), float(value))


@dataclass
class Screen:
    """The mutable set of numbers and labels currently visible.

    Attributes
    ----------
    numbers
        Keyed by ``(kind, index)`` so that a cell can be replaced in place.
    labels
        Keyed by a role name, so that a label can be removed later.
    words
        The storyboard's words, which fill the labels it writes itself
        (the note on a half-precision table); English by default.
    """

    numbers: dict[tuple[str, tuple[int, ...]], NumberCell] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    words: Words = field(default_factory=lambda: Words(GAP_WORDS))

    def add(self, *cells: NumberCell) -> None:
        """Show cells (replacing any at the same kind and index)."""
        for cell in cells:
            self.numbers[(cell.kind, cell.index)] = cell

    def remove_kind(self, kind: str) -> None:
        """Hide every cell of one kind."""
        for key in [key for key in self.numbers if key[0] == kind]:
            del self.numbers[key]

    def add_grid(
        self, table: Table, window: Window, title_size: bool, legend: bool = True
    ) -> float:
        """Show the visible window of the table with its row and column numbers.

        Parameters
        ----------
        table
            The V×d table; only the window's rows are read.
        window
            The visible part.
        title_size
            Whether the grid's title shows ``V × d``.
        legend
            Whether the colour legend (``-s``, ``0``, ``+s``) is shown.

        Returns
        -------
        float
            The colour scale ``s``: the table's own
            (:func:`~embedviz.core.colour_key.table_key`), the same in every
            scene that draws the table, whichever rows it shows.

        Raises
        ------
        EmbedvizError
            If a visible value is NaN or infinite.
        """
        block = table.rows(np.asarray(window.rows))[:, list(window.cols)]
        if not np.isfinite(block).all():
            r, c = (int(i) for i in np.argwhere(~np.isfinite(block))[0])
            raise EmbedvizError(
                f"the table holds {block[r, c]} at row {window.rows[r]}, column "
                f"{window.cols[c]}; only finite values can be drawn"
            )
        for i, row in enumerate(window.rows):
            self.add(int_cell("row_label", (row,), row))
            for j, col in enumerate(window.cols):
                self.add(value_cell("weight", (row, col), block[i, j]))
        for col in window.cols:
            self.add(int_cell("col_label", (col,), col))
        if title_size:
            self.add(
                int_cell("table_size", (0,), table.vocab_size),
                int_cell("table_size", (1,), table.dim),
            )
        for number, gap in enumerate(window.row_gaps):
            self.labels[f"row_gap_{number}"] = gap.label
        for number, gap in enumerate(window.col_gaps):
            self.labels[f"col_gap_{number}"] = gap.label
        stored = getattr(table, "stored_dtype", "float32")
        if stored in ("bfloat16", "float16"):
            # Widening is exact, but the viewer should know what the file held.
            self.labels["dtype_note"] = self.words("dtype_note", dtype=stored)
        scale = table_key(table)
        if legend:
            for position, value in enumerate((-scale, 0.0, scale)):
                self.add(NumberCell("legend", (position,), format_scale(value), value))
        return scale

    def frozen_numbers(self) -> tuple[NumberCell, ...]:
        """Return the visible numbers in a stable order."""
        return tuple(self.numbers[key] for key in sorted(self.numbers))

    def frozen_labels(self) -> dict[str, str]:
        """Return the visible labels keyed by role, in role order."""
        return {key: self.labels[key] for key in sorted(self.labels)}
