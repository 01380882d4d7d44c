"""``CellGrid``: one table mobject for the matrix, the output block, gradients and sums.

Like manim's ``Table`` and ``Matrix``, a grid is built from an element
factory and read back through getters (:meth:`CellGrid.get_row`,
:meth:`CellGrid.get_cell`, :meth:`CellGrid.get_entries`, ...). Unlike them it
knows elided ranges: a row or column slot may be a *gap* (a hidden range of
the V×d table), drawn as a thin band or a narrow column, whose label sits in
the margin rather than between rows. One background and thin rules draw the
body, so a grid of any size is a handful of paths.

:func:`~embedviz.render.parts.matrix_grid.matrix_grid` and
:func:`output_grid` build the two blocks of the lookup layouts from a
storyboard; a gradient or sum block is another ``CellGrid`` with its own factory.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

import numpy as np
from manim import LEFT, RIGHT, UP, Line, Rectangle, VGroup, VMobject, config

from embedviz.render.design import OUTLINE_REACH, SPACE, Theme, TypeScale, dimmed
from embedviz.render.gap_text import GapLabel
from embedviz.render.glyphs import GlyphString
from embedviz.render.metrics import char_advance, digit_height, xyz
from embedviz.story.model import Window

__all__ = ["CellGrid", "GridSizes", "Slot", "col_slots", "output_grid", "row_slots"]

# Characters of padding around a cell's number, and an elided column's width.
CELL_PAD_CHARS = 1.0
GAP_COL_CHARS = 1.8
# A hidden range of rows is a thin band this many data-digit heights tall: a
# break in the table; its label sits in the margin.
GAP_BAND_DIGITS = 0.45
# A band that holds its own label (``gaps_inside``): a line of the legend's digits with air
# above and below, in the legend's digit heights.
INSIDE_BAND_DIGITS = 1.8
# A band whose label stands in the margin clear of the rows' outlines (``gaps_clear``): the
# label's ink in the legend's digit heights (a descender may reach into the air), and the
# pixels (at 720p) kept between it and an outline's ink on either side, as between two
# outlines side by side.
CLEAR_LABEL_DIGITS = 1.1
CLEAR_PX = 3.5
# Above the column numbers, the hidden columns' note (``gaps_inside``): its line, in the
# legend's digit heights (the air under it: ``GridSizes.col_note_air``).
COL_NOTE_DIGITS = 1.3


def clear_units() -> float:
    """Return :data:`CLEAR_PX` (pixels at 720p) in scene units."""
    return CLEAR_PX * float(config.frame_height) / 720


@dataclass(frozen=True)
class Slot:
    """One row or column of a grid.

    Attributes
    ----------
    key
        The row or column index it shows (for a gap: the gap's number).
    size
        Its height (a row) or width (a column), in scene units.
    gap
        Whether it stands for a hidden range.
    """

    key: int
    size: float
    gap: bool = False


@dataclass(frozen=True)
class GridSizes:
    """The sizes a grid's slots are cut from.

    Attributes
    ----------
    scale
        The frame's type scale: numbers at ``scale.data``.
    value_chars
        The longest number, in characters.
    pitch
        A row's height, in digit heights of the data font.
    gaps_apart
        Whether the hidden ranges' labels stand in a column of their own, left
        of the row numbers, rather than right-aligned with them
        (:func:`~embedviz.render.gap_lines.gap_labels_crowd`).
    gaps_inside
        Whether each hidden range's label is written inside its band, across
        the table, and the hidden columns' note above the column numbers,
        rather than both in the left margin: the margin then holds only the
        row numbers, and the width goes to the table's columns.
    gaps_wrapped
        Whether each hidden range's label stands on two lines in the margin
        and the hidden columns' note over the column numbers (see
        :mod:`~embedviz.render.gap_lines`): a narrower margin for many bands.
    gaps_clear
        Whether each hidden range's band is tall enough for its label in the
        margin to stand :data:`CLEAR_PX` clear of the outlines of the rows on
        either side (TrainingNudge outlines its rows beside the bands).
    cell_extra
        Characters a number cell widens by, beyond its padding, where the frame
        has width to spare (BatchLookup); its number stays centred in it.
    col_note_air
        The air between the hidden columns' note and the column numbers under
        it, in SPACEs (see :attr:`~embedviz.render.spec.LookupSpec.col_note_air`).
    """

    scale: TypeScale
    value_chars: int
    pitch: float
    gaps_apart: bool = False
    gaps_inside: bool = False
    gaps_wrapped: bool = False
    gaps_clear: bool = False
    cell_extra: float = 0.0
    col_note_air: float = 0.5

    @property
    def cell_width(self) -> float:
        """A number cell's width."""
        return char_advance(self.scale.data) * (self.value_chars + CELL_PAD_CHARS + self.cell_extra)

    @property
    def gap_width(self) -> float:
        """An elided column's width."""
        return char_advance(self.scale.data) * GAP_COL_CHARS

    @property
    def row_height(self) -> float:
        """A row's height."""
        return digit_height(self.scale.data) * self.pitch

    @property
    def band_height(self) -> float:
        """A hidden range's band: a thin break in the table, or one that holds its label."""
        if self.gaps_inside:
            return digit_height(self.scale.note) * INSIDE_BAND_DIGITS
        if self.gaps_clear:
            air = OUTLINE_REACH + clear_units()
            return digit_height(self.scale.note) * CLEAR_LABEL_DIGITS + 2 * air
        return digit_height(self.scale.data) * GAP_BAND_DIGITS

    @property
    def col_note_height(self) -> float:
        """The height the hidden columns' note adds above the column numbers (0: in the margin)."""
        if not (self.gaps_inside or self.gaps_wrapped):
            return 0.0
        return digit_height(self.scale.note) * COL_NOTE_DIGITS + SPACE * self.col_note_air


def row_slots(window: Window, sizes: GridSizes) -> list[Slot]:
    """Interleave a window's drawn rows and hidden ranges, top to bottom."""
    items = [(row, Slot(row, sizes.row_height)) for row in window.rows]
    items += [
        (gap.first, Slot(n, sizes.band_height, True)) for n, gap in enumerate(window.row_gaps)
    ]
    return [slot for _, slot in sorted(items, key=lambda item: item[0])]


def col_slots(window: Window, sizes: GridSizes) -> list[Slot]:
    """Interleave a window's drawn columns and hidden ranges, left to right."""
    items = [(col, Slot(col, sizes.cell_width)) for col in window.cols]
    items += [(gap.first, Slot(n, sizes.gap_width, True)) for n, gap in enumerate(window.col_gaps)]
    return [slot for _, slot in sorted(items, key=lambda item: item[0])]


Element = Callable[[Slot, Slot], VMobject | None]
MobjectT = TypeVar("MobjectT", bound=VMobject)


class CellGrid(VGroup):
    """A grid of cells built from an element factory, with labels and getters.

    The body's top-left corner starts at the origin; move the grid as a whole.

    Parameters
    ----------
    rows, cols
        The slots, top to bottom and left to right.
    element
        Returns what a cell shows (or None for an empty cell): called for every
        pair of a non-gap row and any column (a gap column may hold a mark).
        A :class:`~embedviz.render.glyphs.GlyphString` is right-aligned in its
        cell, so decimal points line up; anything else is centred.
    theme
        Colours of the background and rules.
    frame
        The outline's colour (by default the rules' colour).
    pad
        Space between a number and its cell's right edge.
    """

    def __init__(
        self,
        rows: Sequence[Slot],
        cols: Sequence[Slot],
        element: Element,
        theme: Theme,
        frame: str | None = None,
        pad: float = 0.0,
    ) -> None:
        super().__init__()
        self.row_slots = list(rows)
        self.col_slots = list(cols)
        self.theme = theme
        self.pad = pad
        self.width_of_body = float(sum(slot.size for slot in cols))
        self.height_of_body = float(sum(slot.size for slot in rows))
        self._row_top = _starts(rows)
        self._col_left = _starts(cols)
        self.body = self._draw_body(frame or theme.cell_stroke)
        self.add(self.body)
        self.entries: dict[tuple[int, int], VMobject] = {}
        self.marks: dict[int, VGroup] = {}
        self.rows_group: dict[int, VGroup] = {}
        for row in rows:
            if row.gap:
                continue
            group = VGroup()
            for col in cols:
                made = element(row, col)
                if made is None:
                    continue
                self._place(made, row, col)
                if col.gap:
                    self.marks.setdefault(row.key, VGroup()).add(made)
                else:
                    self.entries[(row.key, col.key)] = made
                group.add(made)
            self.rows_group[row.key] = group
            self.add(group)
        self.row_labels: dict[int, VMobject] = {}
        self.gap_labels: dict[int, VMobject] = {}
        self.col_gap_labels: dict[int, VMobject] = {}
        self.col_labels: dict[int, VMobject] = {}

    def _draw_body(self, frame: str) -> VGroup:
        width, height = self.width_of_body, self.height_of_body
        background = Rectangle(width=width, height=height)
        background.set_fill(self.theme.cell_fill, opacity=1.0).set_stroke(frame, width=1.5)
        background.move_to(xyz(width / 2, -height / 2))
        body = VGroup(background)
        rule = self.theme.cell_stroke
        for x in self._col_left[1:]:
            body.add(Line(xyz(x, 0), xyz(x, -height), stroke_width=0.8, color=rule))
        for y in self._row_top[1:]:
            body.add(Line(xyz(0, -y), xyz(width, -y), stroke_width=0.8, color=rule))
        for slot, y in zip(self.row_slots, self._row_top, strict=True):
            if slot.gap:
                # A hidden range is a break in the table, in the frame's own colour.
                band = Rectangle(width=width, height=slot.size)
                band.set_fill(self.theme.background, opacity=1.0).set_stroke(rule, width=0.8)
                body.add(band.move_to(xyz(width / 2, -y - slot.size / 2)))
        return body

    # -- geometry -------------------------------------------------------------
    def _origin(self) -> np.ndarray:
        corner: np.ndarray = self.body[0].get_corner(UP + LEFT)
        return corner

    def _row_index(self, key: int, gap: bool = False) -> int:
        return next(i for i, s in enumerate(self.row_slots) if s.key == key and s.gap == gap)

    def _col_index(self, key: int, gap: bool = False) -> int:
        return next(i for i, s in enumerate(self.col_slots) if s.key == key and s.gap == gap)

    def row_y(self, key: int, gap: bool = False) -> float:
        """Return the centre line of a row (or of a hidden range's band)."""
        index = self._row_index(key, gap)
        top = self._row_top[index] + self.row_slots[index].size / 2
        return float(self._origin()[1] - top)

    def col_x(self, key: int, gap: bool = False) -> float:
        """Return the centre line of a column (or of a hidden range's column)."""
        index = self._col_index(key, gap)
        return float(self._origin()[0] + self._col_left[index] + self.col_slots[index].size / 2)

    def body_left(self) -> float:
        """Return the x of the body's left edge."""
        return float(self._origin()[0])

    def body_right(self) -> float:
        """Return the x of the body's right edge."""
        return float(self._origin()[0] + self.width_of_body)

    def body_top(self) -> float:
        """Return the y of the body's top edge."""
        return float(self._origin()[1])

    def _place(self, mobject: VMobject, row: Slot, col: Slot) -> None:
        index, col_index = self.row_slots.index(row), self.col_slots.index(col)
        y = -(self._row_top[index] + row.size / 2)
        left = self._col_left[col_index]
        if isinstance(mobject, GlyphString) and not col.gap:
            mobject.place(xyz(left + col.size - self.pad, y), align="right")
        else:
            mobject.move_to(xyz(left + col.size / 2, y))
        mobject.shift(self._origin())

    # -- getters ----------------------------------------------------------------
    def get_entries(self) -> VGroup:
        """Return every cell's content, row by row."""
        return VGroup(*[self.entries[k] for k in sorted(self.entries)])

    def get_cell(self, row: int, col: int) -> VMobject:
        """Return what the cell at (row, column) shows."""
        return self.entries[(row, col)]

    def get_row(self, row: int) -> VGroup:
        """Return a row's contents (numbers and column-gap marks), left to right."""
        return self.rows_group[row]

    def get_row_numbers(self, row: int) -> list[VMobject]:
        """Return a row's cell contents without its marks, in column order."""
        keys = [slot.key for slot in self.col_slots if not slot.gap]
        return [self.entries[(row, col)] for col in keys if (row, col) in self.entries]

    def get_rows(self) -> list[int]:
        """Return the keys of the drawn (non-gap) rows, top to bottom."""
        return [slot.key for slot in self.row_slots if not slot.gap]

    def get_row_labels(self) -> VGroup:
        """Return the row labels, top to bottom."""
        return VGroup(*self.row_labels.values())

    def get_col_labels(self) -> VGroup:
        """Return the column labels, left to right."""
        return VGroup(*self.col_labels.values())

    # -- labels and marks ---------------------------------------------------------
    def add_row_labels(
        self,
        make: Callable[[Slot], VMobject | None],
        side: Literal["left", "right"] = "left",
        buff: float = SPACE,
    ) -> None:
        """Label rows (and bands) beside the body, aligned to it on its left or on its right.

        Parameters
        ----------
        make
            Returns a row's (or a band's) label, or None.
        side
            Which side of the body.
        buff
            Space between the body and the labels.
        """
        for slot in self.row_slots:
            label = make(slot)
            if label is None:
                continue
            y = self.row_y(slot.key, slot.gap)
            if side == "left":
                x, align = self.body_left() - buff, "right"
            else:
                x, align = self.body_right() + buff, "left"
            if isinstance(label, GlyphString | GapLabel):
                label.place(xyz(x, y), align=align)
            else:
                label.move_to(xyz(x, y)).align_to(xyz(x, 0), RIGHT if side == "left" else LEFT)
            (self.gap_labels if slot.gap else self.row_labels)[slot.key] = label
            if not slot.gap and slot.key in self.rows_group:
                self.rows_group[slot.key].add(label)
            self.add(label)

    def add_col_labels(self, make: Callable[[Slot], VMobject | None], buff: float = SPACE) -> None:
        """Label columns above the body."""
        for slot in self.col_slots:
            label = make(slot)
            if label is None:
                continue
            label.move_to(xyz(self.col_x(slot.key, slot.gap), 0))
            label.next_to(xyz(0, self.body_top(), 0), UP, buff=buff)
            label.set_x(self.col_x(slot.key, slot.gap))
            self.col_labels[slot.key] = label
            self.add(label)

    def put(self, row: int, col: int, mobject: MobjectT) -> MobjectT:
        """Place ``mobject`` in a cell's slot, as the grid places its own, without adding it."""
        row_slot = self.row_slots[self._row_index(row)]
        col_slot = self.col_slots[self._col_index(col)]
        mobject.shift(-self._origin())
        self._place(mobject, row_slot, col_slot)
        return mobject

    def row_box(self, row: int, buff: float = 0.04) -> tuple[float, float, float, float]:
        """Return (left, bottom, right, top) of a row's body cells."""
        index = self._row_index(row)
        top = self.body_top() - self._row_top[index]
        bottom = top - self.row_slots[index].size
        return self.body_left() - buff, bottom - buff, self.body_right() + buff, top + buff

    def row_outline(
        self, row: int, colour: str, width: float = 4.0, beside: Collection[int] = ()
    ) -> Rectangle:
        """Return an outline around a row's cells (not yet added).

        Beside a hidden range's band whose label is written across the table, that
        side's stroke stays inside the row: a frame review found the outline of row 3
        cutting through "row 2 hidden". Beside a row of ``beside`` (outlined at the same
        time), that side's ink stays half of :data:`CLEAR_PX` inside the row: two outlines
        side by side shared an edge. Beside any other drawn row, or a band with a row of
        ``beside`` past it (five IDs at GPT-2 size: four outlines read as one block), the
        stroke runs on the row's border, as far from the next row's digits as from its
        own: outside it, a tightly packed table's outline touched the next row's digits
        (a 720p review: PositionBlindness's sums, TrainingNudge in the light theme).
        """
        left, bottom, right, top = self.row_box(row)
        index, inset = self._row_index(row), width / 200
        row_top = self.body_top() - self._row_top[index]
        keep = inset + clear_units() / 2
        row_bottom = row_top - self.row_slots[index].size
        if self._label_inside(index - 1):
            top = row_top - inset
        elif self._drawn(index - 1, beside):
            top = row_top - keep
        elif self._drawn(index - 1, None) or self._drawn(index - 2, beside):
            top = row_top
        if self._label_inside(index + 1):
            bottom = row_bottom + inset
        elif self._drawn(index + 1, beside):
            bottom = row_bottom + keep
        elif self._drawn(index + 1, None) or self._drawn(index + 2, beside):
            bottom = row_bottom
        box = Rectangle(width=right - left, height=top - bottom)
        box.move_to(xyz((left + right) / 2, (bottom + top) / 2))
        return box.set_stroke(colour, width=width).set_fill(opacity=0.0)

    def _drawn(self, index: int, rows: Collection[int] | None) -> bool:
        """Whether row slot ``index`` is a drawn row of ``rows`` (of any, for None)."""
        if not 0 <= index < len(self.row_slots) or self.row_slots[index].gap:
            return False
        return rows is None or self.row_slots[index].key in rows

    def _label_inside(self, index: int) -> bool:
        """Whether row slot ``index`` is a hidden range's band with its label across the table."""
        if not 0 <= index < len(self.row_slots) or not self.row_slots[index].gap:
            return False
        label = self.gap_labels.get(self.row_slots[index].key)
        return label is not None and float(label.get_right()[0]) > self.body_left()

    def dimmed_colours(self, rows: Iterable[int]) -> dict[int, str]:
        """Return each text's dimmed colour in these rows, by id: still 3:1 against its ground."""
        theme = self.theme
        colours: dict[int, str] = {}
        for row in rows:
            label = self.row_labels.get(row)
            for mobject in self.get_row(row):
                ground = theme.background if mobject is label else theme.cell_fill
                colour = mobject.get_fill_color().to_hex()
                colours[id(mobject)] = dimmed(colour, ground)
        return colours


def _starts(slots: Sequence[Slot]) -> list[float]:
    starts, total = [], 0.0
    for slot in slots:
        starts.append(total)
        total += slot.size
    return starts


def output_grid(
    positions: Sequence[tuple[int, ...]],
    window: Window,
    sizes: GridSizes,
    theme: Theme,
) -> CellGrid:
    """Build the empty output block: one row per input position, the matrix's columns.

    Its cells are filled as rows land (:meth:`CellGrid.put`); its frame is the
    neutral output colour.

    Parameters
    ----------
    positions
        The output positions, in input order; row ``t`` of the grid has key ``t``.
    window
        The matrix's window (its columns are the block's).
    sizes
        Slot sizes.
    theme
        Colours.

    Returns
    -------
    CellGrid
        The block, without entries.
    """
    rows = [Slot(number, sizes.row_height) for number in range(len(positions))]
    pad = char_advance(sizes.scale.data) * (CELL_PAD_CHARS + sizes.cell_extra) / 2
    grid = CellGrid(rows, col_slots(window, sizes), lambda r, c: None, theme, theme.output, pad)
    grid.body[0].set_stroke(theme.output, width=2)
    return grid
