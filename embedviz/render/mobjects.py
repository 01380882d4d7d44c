"""The nouns of every scene: grid, chips, output block, printed tensor, caption."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Line,
    Rectangle,
    VGroup,
)

from embedviz.render import design
from embedviz.render.blocks import PrintedTensor, ShapeLabel, TokenChip
from embedviz.render.glyphs import (
    LabelText,
    NumberText,
)
from embedviz.render.metrics import char_advance, digit_height, xyz
from embedviz.render.parts.captions import Caption
from embedviz.render.theme import DARK, Theme, value_colour
from embedviz.story.model import Gap, NumberCell, Window

__all__ = [
    "CELL_PAD_CHARS",
    "GAP_CHARS",
    "Caption",
    "GridMetrics",
    "MatrixGrid",
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
    return design.font_for_px(pixels * 720 / frame_pixels)


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
