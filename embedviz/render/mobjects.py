"""The nouns of every scene: grid, chips, output block, printed tensor, caption."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Line,
    Rectangle,
    RoundedRectangle,
    VGroup,
    VMobject,
)

from embedviz.render.glyphs import (
    LabelText,
    NumberText,
    SansText,
)
from embedviz.render.metrics import char_advance, digit_height, xyz
from embedviz.render.parts.captions import Caption
from embedviz.render.theme import DARK, Theme, value_colour
from embedviz.story.model import Gap, NumberCell, Window
from embedviz.story.printed import PrintedLine

__all__ = [
    "CELL_PAD_CHARS",
    "GAP_CHARS",
    "Caption",
    "ColourLegend",
    "GridMetrics",
    "MatrixGrid",
    "OutputBlock",
    "PrintedTensor",
    "ShapeLabel",
    "TokenChip",
    "char_advance",
    "digit_height",
    "font_for_px",
    "gap_band_height",
    "grid_metrics_at",
    "grid_width_per_font",
    "xyz",
]

# An elided range takes less height than a row of numbers.
GAP_ROW_PITCH = 0.6
# Ratio of a cell's height to the height of a digit, and the padding (in
# character slots) around a cell's number.
_ROW_PITCH = 2.0
CELL_PAD_CHARS = 1.0
# The width of an elided column, in character slots (its mark is one character).
GAP_CHARS = 1.8


@dataclass(frozen=True)
class GridMetrics:
    """Sizes shared by the matrix grid and the output block.

    Attributes
    ----------
    font_size
        Font size of the numbers.
    cell_width, cell_height
        One cell's box.
    gap_width
        The width of an elided column.
    gap_height
        The height of an elided range of rows (its band); by default
        :data:`GAP_ROW_PITCH` of a cell's height. A compact grid draws thin
        bands, just tall enough for their label.
    gap_label_font
        The font size of a band's label; by default 0.7 of ``font_size``.
    """

    font_size: float
    cell_width: float
    cell_height: float
    gap_width: float
    gap_height: float | None = None
    gap_label_font: float | None = None

    @property
    def row_gap_height(self) -> float:
        """The height of one elided range of rows."""
        return self.cell_height * GAP_ROW_PITCH if self.gap_height is None else self.gap_height

    @property
    def row_gap_font(self) -> float:
        """The font size of an elided range's label."""
        return self.font_size * 0.7 if self.gap_label_font is None else self.gap_label_font

    @classmethod
    def fit(
        cls,
        value_chars: int,
        columns: int,
        column_gaps: int,
        label_chars: int,
        rows: float,
        width: float,
        height: float,
        max_font_size: float = 24.0,
    ) -> GridMetrics:
        """Choose the largest font size at which a grid fits a region (with :func:`fit_font`).

        Parameters
        ----------
        value_chars
            The longest value string.
        columns, column_gaps
            Drawn columns and elided columns.
        label_chars
            The longest row label.
        rows
            Drawn rows, elision rows (each counting as a fraction of a row)
            and the header row together.
        width, height
            The region.
        max_font_size
            Never larger than this.

        Returns
        -------
        GridMetrics
            The sizes.
        """
        from embedviz.render.layout import fit_font

        advance = char_advance(1.0)
        digit = digit_height(1.0)
        cell_chars = value_chars + CELL_PAD_CHARS
        width_chars = label_chars + 1.0 + columns * cell_chars + column_gaps * GAP_CHARS

        def fits(size: float) -> bool:
            across = size * advance * width_chars
            return across <= width and size * digit * _ROW_PITCH * rows <= height

        font_size = fit_font(fits, largest=max_font_size, smallest=1.0, precision=1e-9)
        return cls(
            font_size=font_size,
            cell_width=advance * font_size * cell_chars,
            cell_height=digit * font_size * _ROW_PITCH,
            gap_width=advance * font_size * GAP_CHARS,
        )


def grid_metrics_at(
    font_size: float,
    value_chars: int,
    pitch: float = _ROW_PITCH,
    gap_label_font: float | None = None,
) -> GridMetrics:
    """Return the grid sizes at a given font size (as :meth:`GridMetrics.fit` sizes them).

    Parameters
    ----------
    font_size
        Font size of the numbers.
    value_chars
        The longest value string.
    pitch
        A cell's height, in digit heights (2 by default; a tall table packs
        its rows closer).
    gap_label_font
        For a compact grid: the font size of the hidden-range labels, whose
        bands are then just tall enough for them (see :func:`gap_band_height`).

    Returns
    -------
    GridMetrics
        The sizes.
    """
    advance = char_advance(font_size)
    return GridMetrics(
        font_size=font_size,
        cell_width=advance * (value_chars + CELL_PAD_CHARS),
        cell_height=digit_height(font_size) * pitch,
        gap_width=advance * GAP_CHARS,
        gap_height=None if gap_label_font is None else gap_band_height(gap_label_font),
        gap_label_font=gap_label_font,
    )


def font_for_px(pixels: float, frame_pixels: int = 720) -> float:
    """Return the font size whose digits are ``pixels`` tall on a frame ``frame_pixels`` high."""
    from manim import config

    per_unit = frame_pixels / float(config.frame_height)
    return pixels / (digit_height(1.0) * per_unit)


def gap_band_height(label_font: float) -> float:
    """Return the height of a thin hidden-range band whose label has this font size."""
    return digit_height(label_font) * 1.25


def grid_width_per_font(value_chars: int, columns: int, column_gaps: int) -> float:
    """Return a grid body's width per unit of font size."""
    advance = char_advance(1.0)
    return advance * (columns * (value_chars + CELL_PAD_CHARS) + column_gaps * GAP_CHARS)


def _column_slots(
    cols: Sequence[int], gaps: Sequence[Gap], metrics: GridMetrics
) -> list[tuple[str, int, float]]:
    """Interleave drawn columns and elided ranges; return (kind, index, centre x)."""
    slots: list[tuple[str, int, float]] = []
    items: list[tuple[int, str, int]] = [(c, "col", c) for c in cols]
    items += [(gap.first, "gap", number) for number, gap in enumerate(gaps)]
    x = 0.0
    for _, kind, index in sorted(items):
        width = metrics.cell_width if kind == "col" else metrics.gap_width
        slots.append((kind, index, x + width / 2))
        x += width
    return slots


def _row_slots(
    rows: Sequence[int], gaps: Sequence[Gap], metrics: GridMetrics
) -> list[tuple[str, int, float]]:
    """Interleave drawn rows and elided ranges; return (kind, index, centre y)."""
    items: list[tuple[int, str, int]] = [(r, "row", r) for r in rows]
    items += [(gap.first, "gap", number) for number, gap in enumerate(gaps)]
    slots = []
    top = 0.0
    for _, kind, index in sorted(items):
        pitch = metrics.row_gap_height if kind == "gap" else metrics.cell_height
        slots.append((kind, index, top - pitch / 2))
        top -= pitch
    return slots


def _row_edges(slots: list[tuple[str, int, float]], metrics: GridMetrics) -> list[float]:
    """Return the y of the line below each slot (the last one is the bottom)."""
    return [
        y - (metrics.row_gap_height if kind == "gap" else metrics.cell_height) / 2
        for kind, _, y in slots
    ]


def _grid_lines(
    width: float, height: float, xs: Iterable[float], ys: Iterable[float], theme: Theme
) -> VGroup:
    """One background box and thin separators, instead of a box per cell."""
    background = Rectangle(width=width, height=height)
    background.set_fill(theme.cell_fill, opacity=1.0).set_stroke(theme.cell_stroke, width=1.5)
    background.move_to(xyz(width / 2, -height / 2))
    lines = VGroup(background)
    for x in xs:
        lines.add(Line(xyz(x, 0), xyz(x, -height), stroke_width=0.8, color=theme.cell_stroke))
    for y in ys:
        lines.add(Line(xyz(0, y), xyz(width, y), stroke_width=0.8, color=theme.cell_stroke))
    return lines


def _place_right(text: LabelText | NumberText, right_x: float, y: float) -> None:
    """Right-align a glyph string by its slot box, so decimal points line up."""
    text.place([right_x, y, 0], align="right")


class MatrixGrid(VGroup):
    """The visible window of the V×d embedding matrix, spreadsheet-style.

    Zero-based row numbers run down the left, column numbers along the top,
    and every hidden range is one labelled elision row or column.

    Parameters
    ----------
    window
        The visible rows, columns and gaps.
    numbers
        The storyboard's cells: ``weight``, ``row_label`` and ``col_label``
        cells are drawn.
    metrics
        Shared sizes.
    theme
        Colours.
    value_scale
        The magnitude that gets the strongest value colour.
    """

    def __init__(
        self,
        window: Window,
        numbers: Sequence[NumberCell],
        metrics: GridMetrics,
        theme: Theme = DARK,
        value_scale: float = 1.0,
    ) -> None:
        super().__init__()
        self.window = window
        self.metrics = metrics
        by_key = {(cell.kind, cell.index): cell for cell in numbers}
        col_slots = _column_slots(window.cols, window.col_gaps, metrics)
        row_slots = _row_slots(window.rows, window.row_gaps, metrics)
        width = sum(
            metrics.cell_width if kind == "col" else metrics.gap_width for kind, _, _ in col_slots
        )
        edges = _row_edges(row_slots, metrics)
        height = -edges[-1]
        separators_x = np.cumsum(
            [metrics.cell_width if kind == "col" else metrics.gap_width for kind, _, _ in col_slots]
        )[:-1]
        separators_y = edges[:-1]
        self.body = _grid_lines(width, height, separators_x, separators_y, theme)
        self.add(self.body)
        fs = metrics.font_size
        small = fs * 0.8
        self.cells: dict[tuple[int, int], NumberText] = {}
        self.row_labels: dict[int, NumberText] = {}
        self.rows_by_index: dict[int, VGroup] = {}
        self.row_y: dict[int, float] = {}
        self.col_labels = VGroup()
        self.gap_labels = VGroup()
        pad = char_advance(fs) * (CELL_PAD_CHARS / 2)
        for kind, index, x in col_slots:
            if kind == "col":
                label = NumberText(by_key[("col_label", (index,))], small, theme.muted)
                label.move_to(xyz(x, metrics.cell_height * 0.45))
                self.col_labels.add(label)
        for kind, index, y in row_slots:
            if kind == "gap":
                self._add_row_gap(window.row_gaps[index], col_slots, y, width, theme)
                continue
            row = VGroup()
            label = NumberText(by_key[("row_label", (index,))], small, theme.muted)
            _place_right(label, -0.18, y)
            self.row_labels[index] = label
            self.row_y[index] = y
            for col_kind, col_index, x in col_slots:
                if col_kind == "gap":
                    dots = LabelText("\u2026", fs, theme.muted).move_to(xyz(x, y))
                    row.add(dots)
                    continue
                source = by_key[("weight", (index, col_index))]
                cell = NumberText(source, fs, value_colour(source.value, value_scale, theme))
                _place_right(cell, x + metrics.cell_width / 2 - pad, y)
                self.cells[(index, col_index)] = cell
                row.add(cell)
            self.rows_by_index[index] = VGroup(label, row)
            self.add(label, row)
        for number, gap in enumerate(window.col_gaps):
            x = next(x for kind, i, x in col_slots if kind == "gap" and i == number)
            gap_label = LabelText(gap.label, small * 0.85, theme.muted)
            gap_label.next_to(xyz(x, -height), DOWN, buff=0.12)
            self.gap_labels.add(gap_label)
        self.add(self.col_labels, self.gap_labels)
        self.width_of_body = width
        self.label_width = max(label.width for label in self.row_labels.values())

    def _add_row_gap(
        self,
        gap: Gap,
        col_slots: list[tuple[str, int, float]],
        y: float,
        width: float,
        theme: Theme,
    ) -> None:
        metrics = self.metrics
        fs = metrics.font_size
        label = LabelText(gap.label, metrics.row_gap_font, theme.muted)
        if metrics.gap_label_font is not None:
            # A thin band: the label, at its readable size, may run over the
            # row-number column on the left (no row number sits in a band).
            label.move_to(xyz(0, y)).align_to(xyz(width, 0), RIGHT)
            band = VGroup(label)
            dots = LabelText("\u22ee", metrics.row_gap_font, theme.muted)
            if label.get_left()[0] - 0.1 - dots.width > 0:
                # Room inside the body: the vertical ellipsis goes before the label.
                band.add(dots.next_to(label, LEFT, buff=0.1))
            self.gap_labels.add(band)
            return
        if label.width > width * 0.9:
            label.scale_to_fit_width(width * 0.9)
        label.move_to(xyz(width / 2, y))
        dots = LabelText("\u22ee", fs, theme.muted).next_to(label, LEFT, buff=0.15)
        self.gap_labels.add(VGroup(dots, label))

    def cell(self, row: int, col: int) -> NumberText:
        """Return the number drawn at ``(row, col)``."""
        return self.cells[(row, col)]

    def row_cells(self, row: int) -> list[NumberText]:
        """Return a row's drawn numbers, left to right."""
        return [self.cells[(row, col)] for col in self.window.cols]

    def row_group(self, row: int) -> VGroup:
        """Return a row's label and cells, for dimming or highlighting."""
        return self.rows_by_index[row]

    def row_anchor(self, row: int, width: float = 0.55) -> np.ndarray:
        """Return where a chip of ``width`` parks, just left of a row's number."""
        label = self.row_labels[row]
        left_of_labels = self.body.get_left()[0] - 0.18 - self.label_width
        return xyz(left_of_labels - 0.12 - width / 2, label.get_center()[1])

    def row_box(self, row: int, theme: Theme = DARK) -> Rectangle:
        """Return an outline around one row, for highlighting."""
        box = Rectangle(width=self.width_of_body + 0.1, height=self.metrics.cell_height * 1.05)
        box.set_stroke(theme.highlight, width=4).set_fill(opacity=0)
        box.move_to(xyz(self.body.get_left()[0] + self.width_of_body / 2, self._y(row)))
        return box

    def _y(self, row: int) -> float:
        return float(self.row_labels[row].get_center()[1])


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


class ColourLegend(VGroup):
    """The value colour scale: a strip from ``-s`` through ``0`` to ``+s``.

    Parameters
    ----------
    cells
        The three ``legend`` cells (``-s``, ``0``, ``+s``), in order.
    font_size
        Font size of the numbers.
    theme
        Colours.
    title
        The word to its left, from the storyboard (``value colour``).
    """

    def __init__(
        self, cells: Sequence[NumberCell], font_size: float, theme: Theme, title: str
    ) -> None:
        super().__init__()
        scale = abs(cells[-1].value)
        steps = 11
        swatches = VGroup()
        for step in range(steps):
            value = scale * (2 * step / (steps - 1) - 1)
            swatch = Rectangle(width=0.16, height=0.16)
            swatch.set_fill(value_colour(value, scale, theme), opacity=1.0)
            swatch.set_stroke(width=0)
            swatches.add(swatch)
        swatches.arrange(RIGHT, buff=0.0)
        numbers = [NumberText(cell, font_size, theme.muted) for cell in cells]
        for number, marker in zip(
            numbers, (swatches[0], swatches[steps // 2], swatches[-1]), strict=True
        ):
            number.next_to(marker, DOWN, buff=0.08)
        heading = SansText(title, font_size, theme.muted)
        heading.next_to(swatches, LEFT, buff=0.2)
        self.add(heading, swatches, *numbers)


class ShapeLabel(VGroup):
    """A shape such as ``4 × 3``, its sizes drawn as checked numbers.

    Parameters
    ----------
    cells
        The size cells, one per axis, in order.
    font_size
        Font size.
    color
        Colour.
    """

    def __init__(self, cells: Sequence[NumberCell], font_size: float, color: str) -> None:
        parts: list[VMobject] = []
        for axis, cell in enumerate(cells):
            if axis:
                parts.append(LabelText("\u00d7", font_size, color))
            parts.append(NumberText(cell, font_size, color))
        super().__init__(*parts)
        self.arrange(RIGHT, buff=0.12)


class TokenChip(VGroup):
    """A token ID in a rounded chip, with its text piece above the ID when known.

    Parameters
    ----------
    cell
        The ``token_id`` cell.
    font_size
        Font size of the ID.
    theme
        Colours.
    piece
        The token's text (e.g. ``##bed``) when the IDs came from text.
    """

    def __init__(
        self, cell: NumberCell, font_size: float, theme: Theme = DARK, piece: str | None = None
    ) -> None:
        number = NumberText(cell, font_size, theme.chip_text)
        parts: list[VMobject] = [number]
        self.piece: LabelText | None = None
        if piece is not None:
            self.piece = LabelText(piece, font_size * 0.7, theme.chip_text)
            self.piece.next_to(number, UP, buff=0.08)
            parts.insert(0, self.piece)
        content = VGroup(*parts)
        box = RoundedRectangle(
            corner_radius=0.08,
            width=max(content.width + 0.3, 0.55),
            height=content.height + number.height * 0.9,
        )
        box.set_fill(theme.chip, opacity=1.0).set_stroke(theme.chip, width=1)
        box.move_to(content)
        super().__init__(box, *parts)
        self.number = number


class PrintedTensor(VGroup):
    """A PyTorch-style print laid out in monospace, numbers drawn as cells.

    Parameters
    ----------
    lines
        The print, split by :func:`embedviz.story.printed.split_printed`.
    numbers
        The storyboard's ``printed`` cells.
    labels
        The beat's labels: the text of each piece that is not a number is the
        label with role ``printed_<line>_<piece>`` (three-digit piece).
    omitted_label
        The elision line's text when lines were left out.
    font_size
        Font size.
    theme
        Colours.
    """

    def __init__(
        self,
        lines: Sequence[PrintedLine],
        numbers: Sequence[NumberCell],
        labels: Mapping[str, str],
        omitted_label: str | None,
        font_size: float,
        theme: Theme = DARK,
    ) -> None:
        super().__init__()
        advance = char_advance(font_size)
        line_height = digit_height(font_size) * 2.1
        by_index = {cell.index: cell for cell in numbers if cell.kind == "printed"}
        rows: list[list[tuple[int, LabelText | NumberText]]] = []
        self.pieces: list[LabelText | NumberText] = []
        self.text_pieces: list[LabelText] = []
        for line_number, line in enumerate(lines):
            row: list[tuple[int, LabelText | NumberText]] = []
            for piece_number, (column, _, element) in enumerate(line.pieces):
                piece: LabelText | NumberText
                if element is None:
                    role = f"printed_{line_number}_{piece_number:03d}"
                    piece = LabelText(labels[role], font_size, theme.muted)
                    self.text_pieces.append(piece)
                else:
                    piece = NumberText(by_index[element], font_size, theme.text)
                row.append((column, piece))
                self.pieces.append(piece)
            rows.append(row)
        if omitted_label is not None:
            elision = LabelText(omitted_label, font_size, theme.muted)
            rows.insert(len(rows) - 2, [(8, elision)])
        for line_number, row in enumerate(rows):
            for column, piece in row:
                # Every piece starts at its character column, as in a terminal.
                piece.place([column * advance, -line_number * line_height, 0], align="left")
                self.add(piece)

    def last_text_piece(self) -> VMobject:
        """Return the print's last text piece (PyTorch ends a print with its ``grad_fn``)."""
        return self.text_pieces[-1]
