"""The embedding matrix E's window as a :class:`~embedviz.render.parts.grid.CellGrid`.

:func:`matrix_grid` builds it from a storyboard's window and cells: the
values coloured by sign and size, row and column numbers, and the labels of
the hidden ranges (in the margin, or inside the table when the layout asks).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from manim import RIGHT, Rectangle, VMobject

from embedviz.render.design import SPACE, Theme, value_colour
from embedviz.render.gap_lines import gap_label_lines, line_gap
from embedviz.render.gap_text import GapLabel
from embedviz.render.glyphs import LabelText, NumberText
from embedviz.render.metrics import char_advance, digit_height, xyz
from embedviz.render.parts.grid import (
    CELL_PAD_CHARS,
    COL_NOTE_DIGITS,
    CellGrid,
    GridSizes,
    Slot,
    col_slots,
    row_slots,
)
from embedviz.render.parts.id_rows import IdRows
from embedviz.story.model import NumberCell, Window

__all__ = ["ROW_LABEL_BUFF", "MatrixGrid", "matrix_grid"]

# How far the row numbers stand left of the body.
ROW_LABEL_BUFF = SPACE * 1.5


class MatrixGrid(CellGrid):
    """E's grid: a row outlined in the ID's amber lights its row number (see ``id_rows``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.id_rows = IdRows(self.row_labels, self.theme.id_ink)

    def row_outline(
        self, row: int, colour: str, width: float = 4.0, beside: Collection[int] = ()
    ) -> Rectangle:
        """Return :meth:`CellGrid.row_outline`; an amber one lights the row's number as it shows."""
        box = super().row_outline(row, colour, width, beside)
        if colour == self.theme.id_line:
            self.id_rows.watch(row, box)
        return box


def matrix_grid(
    window: Window,
    cells: Mapping[tuple[str, tuple[int, ...]], NumberCell],
    sizes: GridSizes,
    theme: Theme,
    value_scale: float,
    gap_labels: Mapping[int, str],
) -> CellGrid:
    """Build the visible window of the embedding matrix E.

    Rows are numbered from 0 down the left, columns along the top, and each
    hidden range of rows is a thin band whose label (``rows 6–4818 not
    shown``) sits in the margin left of it, right-aligned with the row numbers
    (or, when ``sizes.gaps_apart``, in a column of its own left of them; or,
    when ``sizes.gaps_inside``, inside the band, across the table). When
    ``sizes.gaps_wrapped``, each such label stands on two lines and the
    hidden columns' note over the column numbers.

    Parameters
    ----------
    window
        Which rows and columns are drawn.
    cells
        The storyboard's cells by (kind, index): ``weight``, ``row_label`` and
        ``col_label`` ones are drawn.
    sizes
        Slot sizes and fonts.
    theme
        Colours.
    value_scale
        The magnitude that gets a value's strongest colour.
    gap_labels
        Each hidden row range's label, by gap number.

    Returns
    -------
    CellGrid
        The matrix (a :class:`MatrixGrid`).
    """
    scale = sizes.scale
    pad = char_advance(scale.data) * (CELL_PAD_CHARS + sizes.cell_extra) / 2

    def element(row: Slot, col: Slot) -> VMobject | None:
        if col.gap:
            return LabelText("\u2026", scale.data, theme.muted)
        cell = cells[("weight", (row.key, col.key))]
        return NumberText(cell, scale.data, value_colour(cell.value, value_scale, theme))

    grid = MatrixGrid(row_slots(window, sizes), col_slots(window, sizes), element, theme, pad=pad)

    def row_label(slot: Slot) -> VMobject | None:
        if slot.gap and sizes.gaps_wrapped:
            text = gap_labels[slot.key]
            lines = gap_label_lines(text)
            return GapLabel(text, scale.note, theme.muted, lines, line_gap(sizes))
        if slot.gap:
            # Words, not tabular data (issue 18): sans, as the legend's other notes.
            return GapLabel(gap_labels[slot.key], scale.note, theme.muted)
        # The ID that looks the row up: brighter than the notes between the rows (issue 18).
        return NumberText(cells[("row_label", (slot.key,))], scale.index, theme.index)

    grid.add_row_labels(row_label, "left", buff=ROW_LABEL_BUFF)
    _place_band_labels(grid, sizes)
    grid.add_col_labels(
        lambda slot: (
            None
            if slot.gap
            else NumberText(cells[("col_label", (slot.key,))], scale.label, theme.muted)
        ),
        buff=SPACE * 0.8,
    )
    _add_col_notes(grid, window, sizes, theme)
    return grid


def _place_band_labels(grid: CellGrid, sizes: GridSizes) -> None:
    """Move the bands' labels inside their bands, or into a column of their own, if so sized."""
    if sizes.gaps_inside:
        # Each band holds its own label, across the table: the margin keeps only numbers.
        middle = (grid.body_left() + grid.body_right()) / 2
        for label in grid.gap_labels.values():
            label.set_x(middle)
            # One wider than the table (a narrow window, long row numbers) ends where the
            # table's numbers do and runs left into the margin: a band has no row number.
            if label.width > grid.body_right() - grid.body_left() - 2 * SPACE:
                label.align_to(xyz(grid.body_right() - SPACE, 0), RIGHT)
    if sizes.gaps_wrapped:
        # Placed by its last line's slot: the two lines are centred on the band instead,
        # their longer line's end on the row numbers' right edge.
        right = grid.body_left() - SPACE * 1.5
        for key, label in grid.gap_labels.items():
            assert isinstance(label, GapLabel)
            corners = [label.line_corners(n) for n in range(len(label.lines))]
            middle = (corners[0][1][1] + corners[-1][0][1]) / 2
            ends = max(high[0] for _, high in corners)
            label.shift(xyz(right - ends, grid.row_y(key, True) - middle))
    if sizes.gaps_apart and grid.row_labels:
        # Tight rows: the bands' labels stand left of the row numbers, not among them.
        numbers_left = min(label.get_left()[0] for label in grid.row_labels.values())
        for label in grid.gap_labels.values():
            label.shift(xyz(numbers_left - SPACE - label.get_right()[0], 0))


def _add_col_notes(grid: CellGrid, window: Window, sizes: GridSizes, theme: Theme) -> None:
    """Label each hidden range of columns.

    In the margin, on the column numbers' line; or, with the bands' labels
    inside the table, centred over the column numbers.
    """
    scale = sizes.scale
    header_y = next(iter(grid.col_labels.values())).get_y()
    for number, gap in enumerate(window.col_gaps):
        note = GapLabel(gap.label, scale.note, theme.muted)
        if sizes.gaps_inside or sizes.gaps_wrapped:
            y = header_y + digit_height(scale.label) / 2 + sizes.col_note_height
            y -= digit_height(scale.note) * COL_NOTE_DIGITS / 2
            note.place(xyz((grid.body_left() + grid.body_right()) / 2, y))
        else:
            note.place(xyz(grid.body_left() - SPACE * 1.5, header_y), align="right")
        grid.col_gap_labels[number] = note
        grid.add(note)
