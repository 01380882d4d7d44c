"""The one-hot layout: ``one_hot(i)`` beside ``E``, one column's sum, two equal rows.

Left to right: the one-hot vector drawn on its side (entry ``k`` level with
row ``k``, hidden entries labelled to its left), the matrix grid, and a panel
that holds the product row, the terms of one column while they are summed,
then the looked-up row under the product and the cost of each way. The grid,
the chip and the legend are drawn as :class:`LookupStage` draws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Rectangle,
    ReplacementTransform,
    Succession,
    Transform,
    VGroup,
    VMobject,
)

from embedviz.render.animations import make_copy_row_animation, make_reveal_animation
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.layout import place_legend
from embedviz.render.mobjects import (
    ColourLegend,
    GridMetrics,
    MatrixGrid,
    ShapeLabel,
    _column_slots,
    _grid_lines,
    _row_slots,
    char_advance,
    digit_height,
    xyz,
)
from embedviz.render.stage import register_stage
from embedviz.render.stages.lookup import LookupStage
from embedviz.render.theme import Theme, value_colour
from embedviz.story.model import Beat, NumberCell, Window

__all__ = ["CostPanel", "OneHotStage", "OneHotStrip", "RowVector", "TermList"]

# Frame regions used by this layout, in scene units.
_LEFT, _RIGHT = -6.85, 6.85
_REGION_TOP = 2.05
_BOTTOM = -2.45  # above the colour legend and the caption
_CHIPS_Y = 2.85  # the token chip, top left, above the vector it becomes
_PANEL_TITLE_Y = 2.8  # the product row's title, top right
_PANEL_GAP = 0.5  # between the grid and the right-hand panel
_STRIP_GAP = 0.35  # between the one-hot vector and the row numbers
_LABEL_FONT = 20  # row titles and cost names
_MIN_FONT = 16.0
_DIM = 0.3  # opacity of terms that are exactly zero
_EQUALS_GAP = 0.5  # between the product row and the lookup row, for the = marks


def _fade_to(mobject: VMobject, opacity: float) -> Animation:
    """Fade to an opacity without ``.animate`` (whose builder type manim hints loosely)."""
    return Transform(mobject, mobject.copy().set_opacity(opacity))


class OneHotStrip(VGroup):
    """A one-hot vector on its side: one cell per drawn row of the grid.

    Parameters
    ----------
    window
        The grid's window: entries sit on the grid's row slots, hidden ranges
        on its elision rows.
    cells
        The ``one_hot`` cells, by row.
    gap_labels
        One exact label per hidden range (``entries 6–4818 are 0``).
    metrics
        The grid's sizes (rows line up).
    theme
        Colours.
    """

    def __init__(
        self,
        window: Window,
        cells: dict[int, NumberCell],
        gap_labels: Sequence[str],
        metrics: GridMetrics,
        theme: Theme,
    ) -> None:
        super().__init__()
        fs = metrics.font_size
        width = strip_width(fs)
        slots = _row_slots(window.rows, window.row_gaps, metrics)
        height = len(slots) * metrics.cell_height
        separators = [-(n + 1) * metrics.cell_height for n in range(len(slots) - 1)]
        self.body = _grid_lines(width, height, [], separators, theme)
        self.add(self.body)
        self.entries: dict[int, NumberText] = {}
        self.gap_labels = VGroup()
        for kind, index, y in slots:
            if kind == "gap":
                dots = LabelText("\u22ee", fs, theme.muted).move_to(xyz(width / 2, y))
                label = LabelText(gap_labels[index], strip_label_font(fs), theme.muted)
                label.place(xyz(-0.15, y), align="right")
                self.body.add(dots)
                self.gap_labels.add(label)
                continue
            cell = cells[index]
            # highlight, not chip: the chip colour is a fill, too pale for text on white.
            colour = theme.highlight if cell.value == 1 else theme.muted
            entry = NumberText(cell, fs, colour)
            entry.place(xyz(width / 2, y))
            self.entries[index] = entry
            self.add(entry)
        self.add(self.gap_labels)


def strip_width(font_size: float) -> float:
    """Return the width of the one-hot vector's single column."""
    return char_advance(font_size) * 2.8


def strip_label_font(font_size: float) -> float:
    """Return the font size of the vector's gap labels (as the grid's, at least 14)."""
    return max(14.0, font_size * 0.7)


class RowVector(VGroup):
    """A single row of values on the grid's column slots (a product or a lookup).

    It is :class:`~embedviz.render.mobjects.OutputBlock` without the position
    numbers (both rows here are titled instead), built from the same column
    slots and grid lines so that its cells sit exactly under the grid's.

    Parameters
    ----------
    window
        The grid's window: the same columns and column gaps.
    metrics
        Shared sizes.
    theme
        Colours.
    value_scale
        The magnitude that gets the strongest value colour (as the grid's).
    """

    def __init__(
        self, window: Window, metrics: GridMetrics, theme: Theme, value_scale: float
    ) -> None:
        super().__init__()
        self.metrics = metrics
        self.theme = theme
        self.value_scale = value_scale
        self.col_slots = _column_slots(window.cols, window.col_gaps, metrics)
        widths = [
            metrics.cell_width if k == "col" else metrics.gap_width for k, _, _ in self.col_slots
        ]
        width = float(sum(widths))
        self.body = _grid_lines(width, metrics.cell_height, np.cumsum(widths)[:-1], [], theme)
        self.body[0].set_stroke(theme.output, width=2)
        for kind, _, x in self.col_slots:
            if kind == "gap":
                dots = LabelText("\u2026", metrics.font_size, theme.muted)
                self.body.add(dots.move_to(xyz(x, -metrics.cell_height / 2)))
        self.add(self.body)

    def slot_x(self, col: int) -> float:
        """Return the current centre x of a column's slot."""
        x = next(x for kind, i, x in self.col_slots if kind == "col" and i == col)
        return float(self.body.get_left()[0] + x)

    def make_cell(self, cell: NumberCell) -> NumberText:
        """Create (without adding) the number for a cell whose last index is its column.

        Parameters
        ----------
        cell
            A ``product`` or ``output`` cell.

        Returns
        -------
        NumberText
            Right-aligned in its slot, as the grid's numbers are.
        """
        metrics = self.metrics
        colour = value_colour(cell.value, self.value_scale, self.theme)
        text = NumberText(cell, metrics.font_size, colour)
        pad = char_advance(metrics.font_size) * 0.7
        right = self.slot_x(cell.index[-1]) + metrics.cell_width / 2 - pad
        text.place(xyz(right, float(self.body.get_center()[1])), align="right")
        return text


class TermList(VGroup):
    """The terms of one column of ``one_hot(i) @ E``, one line per drawn row.

    Each line is one group (sign, factor, times sign, value), so that it can
    arrive, fade and leave as a unit; hidden ranges get one labelled line.

    Parameters
    ----------
    window
        Which rows are drawn and which are hidden (one line per range).
    factors
        ``term_one_hot`` cells by row.
    weights
        ``term_weight`` cells by row.
    gap_labels
        One exact label per hidden range (``+ terms 6–4818: all 0``).
    total
        The ``term_sum`` cell.
    font_size
        Font size.
    pitch
        Distance between lines: the grid's row height. Line 0 is centred
        half a pitch below ``y = 0``, so placing ``y = 0`` on the grid's top
        edge puts every line level with its row.
    theme
        Colours.
    """

    def __init__(
        self,
        window: Window,
        factors: dict[int, NumberCell],
        weights: dict[int, NumberCell],
        gap_labels: Sequence[str],
        total: NumberCell,
        font_size: float,
        pitch: float,
        theme: Theme,
    ) -> None:
        super().__init__()
        advance = char_advance(font_size)
        items = [(r, "row", r) for r in window.rows]
        items += [(gap.first, "gap", n) for n, gap in enumerate(window.row_gaps)]
        self.lines: dict[int, VGroup] = {}
        self.gap_lines: list[LabelText] = []
        self.zero_lines: list[VMobject] = []
        line_number = 0
        for line_number, (_, kind, index) in enumerate(sorted(items)):
            # Line n sits on the grid's row slot n: level with the row it uses.
            y = -(line_number + 0.5) * pitch
            if kind == "gap":
                label = LabelText(gap_labels[index], font_size, theme.muted)
                label.place(xyz(0, y), align="left")
                self.gap_lines.append(label)
                self.zero_lines.append(label)
                self.add(label)
                continue
            factor_cell, weight_cell = factors[index], weights[index]
            colour = theme.highlight if factor_cell.value == 1 else theme.text
            factor = NumberText(factor_cell, font_size, colour)
            factor.place(xyz(2 * advance, y), align="left")
            negative = weight_cell.text.startswith("-")
            # A negative factor is bracketed, as one writes 1 × (-0.4015).
            weight = NumberText(weight_cell, font_size, colour)
            weight.place(xyz((7 if negative else 6) * advance, y), align="left")
            marks = VGroup(
                LabelText("+" if line_number else " ", font_size, theme.muted).place(
                    xyz(0, y), align="left"
                ),
                LabelText("\u00d7", font_size, theme.muted).place(
                    xyz(4 * advance, y), align="left"
                ),
            )
            if negative:
                marks.add(
                    LabelText("(", font_size, theme.muted).place(xyz(6 * advance, y), "left"),
                    LabelText(")", font_size, theme.muted).place(weight.get_right(), "left"),
                )
            line = VGroup(marks, factor, weight)
            self.lines[index] = line
            self.add(line)
            if factor_cell.value != 1:
                self.zero_lines.append(line)
        y = -(line_number + 1.5) * pitch
        self.equals = LabelText("=", font_size, theme.text).place(xyz(0, y), align="left")
        self.total = NumberText(total, font_size, theme.highlight)
        self.total.place(xyz(2 * advance, y), align="left")
        self.add(self.equals, self.total)

    def pieces(self) -> list[VMobject]:
        """Return every unit that is added to the scene on its own."""
        return [*self.lines.values(), *self.gap_lines, self.equals, self.total]


class CostPanel(VGroup):
    """What each way costs per token: the product here, GPT-2's, the lookup.

    Parameters
    ----------
    cells
        The storyboard's cells by ``(kind, index)``: ``cost_size``,
        ``multiply_adds`` and ``copy_count``.
    gpt2_name
        The recorded label that names GPT-2's row.
    font_size
        Font size.
    theme
        Colours.
    """

    def __init__(
        self,
        cells: dict[tuple[str, tuple[int, ...]], NumberCell],
        gpt2_name: str,
        font_size: float,
        theme: Theme,
    ) -> None:
        super().__init__()
        self.font_size = font_size
        self.header = SansText("multiply-adds per token", font_size, theme.muted)
        names = ("one_hot @ E", gpt2_name, "lookup")
        self.entries: list[VGroup] = []
        for number, name in enumerate(names):
            title = LabelText(name, font_size, theme.highlight if number < 2 else theme.output)
            if number < 2:
                sizes = [cells[("cost_size", (number, axis))] for axis in (0, 1)]
                value = VGroup(
                    ShapeLabel(sizes, font_size, theme.text),
                    LabelText("=", font_size, theme.text),
                    NumberText(cells[("multiply_adds", (number,))], font_size, theme.text),
                ).arrange(RIGHT, buff=0.15)
            else:
                value = VGroup(NumberText(cells[("multiply_adds", (2,))], font_size, theme.output))
            self.entries.append(VGroup(title, value))
        # The lookup's only work, on a line of its own under its zero.
        self.copy_note = VGroup(
            LabelText("copies", font_size, theme.muted),
            NumberText(cells[("copy_count", (0,))], font_size, theme.output),
            LabelText(
                "number" if cells[("copy_count", (0,))].value == 1 else "numbers",
                font_size,
                theme.muted,
            ),
        ).arrange(RIGHT, buff=0.15)

    def arrange_in(self, top_left: np.ndarray, pitch: float, one_line: bool) -> None:
        """Lay the header and rows out from ``top_left`` down.

        Parameters
        ----------
        top_left
            Where the header starts.
        pitch
            Distance between lines.
        one_line
            Names and values side by side in two columns; otherwise each
            product row's value goes on an indented line under its name.
        """
        left = float(top_left[0])
        self.header.next_to(top_left, DOWN, buff=0).align_to(top_left, LEFT)
        y = float(self.header.get_bottom()[1]) - pitch * 0.7
        for number, (title, value) in enumerate(self.entries):
            title.place(xyz(left, y), align="left")
            if one_line:
                x = left + max(entry[0].width for entry in self.entries) + 0.35
            elif number < 2:
                y -= pitch
                x = left + 0.3
            else:
                x = left + title.width + 0.35
            value.align_to(xyz(x, 0), LEFT).set_y(y)
            y -= pitch
        self.copy_note.align_to(self.entries[2][1], LEFT).set_y(y + 0.1 * pitch)
        self.add(self.header, *self.entries, self.copy_note)

    def widths(self) -> tuple[float, float]:
        """Return the widths needed side by side and with values on their own lines."""
        name_width = max(entry[0].width for entry in self.entries)
        value_width = max(entry[1].width for entry in self.entries[:2])
        lookup = self.entries[2][0].width + 0.35 + self.copy_note.width
        return max(name_width + 0.35 + value_width, lookup), max(0.3 + value_width, lookup)


@register_stage
class OneHotStage(LookupStage):
    """One-hot vector, grid, product row, terms, lookup row and costs."""

    layout = "one_hot"

    def build(self) -> None:
        """Size everything to fit the frame, then place it."""
        board = self.board
        theme = self.theme
        cells = self.cells
        beats = {beat.name: beat for beat in board.beats}
        window = board.beats[0].window
        self.token = int(board.ids)
        strip_title = _label(beats["one-hot"], "one_hot(")
        labels = {
            "one-hot": strip_title,
            "terms": _label(beats["terms"], f"{strip_title} @ E", exact=True),
            "compare": _label(beats["compare"], "E["),
        }
        strip_gaps = _labels_in(beats["one-hot"], "entr")
        term_gaps = _labels_in(beats["terms"], "+ term")
        gpt2_name = _label(beats["cost"], "GPT-")
        self.term_column = next(c.index[0] for c in cells.values() if c.kind == "term_weight")
        metrics, layout = _fit(board.beats, window, strip_gaps, strip_title)
        self.metrics = metrics
        fs = metrics.font_size
        scale = board.value_scale

        # The grid, its title and the one-hot vector, on the left.
        self.grid = MatrixGrid(window, list(cells.values()), metrics, theme, scale)
        self.grid.shift(
            xyz(layout.grid_left, _REGION_TOP - metrics.cell_height)
            - self.grid.body.get_corner(UP + LEFT)
        )
        size_cells = [cells[("table_size", (axis,))] for axis in (0, 1)]
        self.grid_title = VGroup(
            SansText("embedding matrix E", 22, theme.muted),
            ShapeLabel(size_cells, 22, theme.muted),
        ).arrange(RIGHT, buff=0.25)
        if self.grid_title.width > self.grid.body.width + _PANEL_GAP:
            # A long shape would run into the panel: name the matrix by its letter.
            self.grid_title = VGroup(
                SansText("E", 22, theme.muted), ShapeLabel(size_cells, 22, theme.muted)
            ).arrange(RIGHT, buff=0.25)
        self.grid_title.next_to(self.grid.col_labels, UP, buff=0.15)
        self.grid_title.align_to(self.grid.body, LEFT)
        # A table stored in another dtype (bf16, fp16) says so above its title.
        note = next(
            (t for b in board.beats for t in b.labels if t.endswith("values shown as float32")),
            None,
        )
        self.dtype_note = LabelText(note, 16, theme.muted) if note else None
        if self.dtype_note is not None:
            self.dtype_note.next_to(self.grid_title, UP, buff=0.1).align_to(self.grid_title, LEFT)
        entries = {c.index[0]: c for c in cells.values() if c.kind == "one_hot"}
        self.strip = OneHotStrip(window, entries, strip_gaps, metrics, theme)
        self.strip.shift(
            xyz(layout.strip_left, float(self.grid.body.get_top()[1]))
            - self.strip.body.get_corner(UP + LEFT)
        )
        self.strip_title = LabelText(labels["one-hot"], _LABEL_FONT, theme.highlight)
        # Right-aligned over the vector, it reaches into the free space above
        # the gap labels rather than over the grid (but never off the frame).
        title_left = max(_LEFT, layout.strip_left + strip_width(fs) - self.strip_title.width)
        self.strip_title.place(
            xyz(title_left, float(self.grid.col_labels.get_center()[1])), align="left"
        )
        one_hot_sizes = [cells[("one_hot_size", (axis,))] for axis in (0, 1)]
        self.strip_shape = ShapeLabel(one_hot_sizes, 16, theme.muted)
        self.strip_shape.next_to(self.strip.body, DOWN, buff=0.15)
        self.strip_shape.align_to(self.strip.body, LEFT)

        # The token chip, top left: the ID that the vector below encodes.
        chip_cell = cells[("token_id", (0,))]
        self.chips = [self.make_chip(chip_cell, 24)]
        self.chips_label = SansText("token ID", 20, theme.muted)
        self.chips_label.move_to(xyz(0, _CHIPS_Y)).align_to(xyz(_LEFT, 0), LEFT)
        self.chips[0].next_to(self.chips_label, RIGHT, buff=0.3)
        self.chip_homes = [self.chips[0].get_center().copy()]

        legend_cells = [cells[key] for key in sorted(cells) if key[0] == "legend"]
        self.legend: ColourLegend | None = None
        if legend_cells:
            self.legend = ColourLegend(legend_cells, 16, theme)
            place_legend(self.legend)

        # The panel: the product row, then its terms or the lookup row and the costs.
        product_sizes = [cells[("product_size", (axis,))] for axis in (0, 1)]
        self.product_title = VGroup(
            LabelText(labels["terms"], _LABEL_FONT, theme.output),
            ShapeLabel(product_sizes, 16, theme.muted),
        ).arrange(RIGHT, buff=0.3)
        self.product_title.move_to(xyz(0, _PANEL_TITLE_Y)).align_to(xyz(layout.panel_left, 0), LEFT)
        self.product = RowVector(window, metrics, theme, scale)
        self.product.next_to(self.product_title, DOWN, buff=0.15, aligned_edge=LEFT)
        self.product_cells = {
            c.index[0]: self.product.make_cell(c) for c in cells.values() if c.kind == "product"
        }

        self.terms = TermList(
            window,
            {c.index[1]: c for c in cells.values() if c.kind == "term_one_hot"},
            {c.index[1]: c for c in cells.values() if c.kind == "term_weight"},
            term_gaps,
            cells[("term_sum", (self.term_column,))],
            min(fs, 20.0),
            metrics.cell_height,
            theme,
        )
        self.terms.shift(xyz(layout.panel_left + 0.1, float(self.grid.body.get_top()[1])))

        self.lookup = RowVector(window, metrics, theme, scale)
        self.lookup.next_to(self.product.body, DOWN, buff=_EQUALS_GAP, aligned_edge=LEFT)
        self.lookup_cells = [
            self.lookup.make_cell(c)
            for c in sorted(cells.values(), key=lambda c: c.index)
            if c.kind == "output"
        ]
        self.lookup_title = LabelText(labels["compare"], _LABEL_FONT, theme.output)
        self.lookup_title.next_to(self.lookup.body, DOWN, buff=0.15, aligned_edge=LEFT)
        middle = (self.product.body.get_bottom()[1] + self.lookup.body.get_top()[1]) / 2
        self.equals = VGroup(
            *[
                # Upright: a rotated "=" reads as "||".
                LabelText("=", fs * 1.2, theme.accent).move_to(
                    xyz(self.product.slot_x(col), float(middle))
                )
                for col in window.cols
            ]
        )

        # The largest font (20 down to 16) at which the costs fit the panel,
        # side by side if possible, else with each value under its name.
        panel_width = _RIGHT - layout.panel_left
        # It must also end above the colour legend's fixed place.
        options = [
            (one_line, size, pitch)
            for pitch in (2.3, 1.9)
            for one_line in (True, False)
            for size in (20, 19, 18, 17, 16)
        ]
        for one_line, cost_font, pitch in options:
            self.cost = CostPanel(cells, gpt2_name, cost_font, theme)
            if self.cost.widths()[0 if one_line else 1] > panel_width:
                continue
            self.cost.arrange_in(
                xyz(layout.panel_left, float(self.lookup_title.get_bottom()[1]) - 0.3),
                digit_height(cost_font) * pitch,
                one_line,
            )
            if self.cost.get_bottom()[1] >= _BOTTOM:
                break
        self._centre()

    def _centre(self) -> None:
        """Shift the whole layout sideways so the free space is split evenly."""
        parts: list[VMobject] = [
            self.grid,
            self.grid_title,
            self.strip,
            self.strip_title,
            self.strip_shape,
            *self.chips,
            self.chips_label,
            *([self.legend] if self.legend is not None else []),
            *([self.dtype_note] if self.dtype_note is not None else []),
            self.product_title,
            self.product,
            *self.product_cells.values(),
            self.terms,
            self.lookup,
            *self.lookup_cells,
            self.lookup_title,
            self.equals,
            self.cost,
        ]
        everything = VGroup(*parts)
        left = float(everything.get_left()[0])
        right = float(everything.get_right()[0])
        everything.shift(xyz(((_RIGHT - right) - (left - _LEFT)) / 2, 0))
        self.chip_homes = [chip.get_center().copy() for chip in self.chips]

    # -- beat handlers -----------------------------------------------------------
    # beat_intro is LookupStage's: title, grid, chip, legend.

    def beat_one_hot(self, beat: Beat) -> Animation:
        """Stand the one-hot vector beside the grid; pulse its single 1."""
        one = self.strip.entries[self.token]
        return Succession(
            make_reveal_animation([self.strip, self.strip_title, self.strip_shape]),
            AnimationGroup(
                Indicate(one, scale_factor=1.6, color=self.theme.highlight),
                Indicate(
                    self.grid.row_labels[self.token], scale_factor=1.6, color=self.theme.highlight
                ),
            ),
        )

    def beat_terms(self, beat: Beat) -> Animation:
        """Box a column and pair each vector entry with the number beside it."""
        self.column_box = _column_box(self.grid, self.term_column, self.theme)
        arrivals: list[Animation] = []
        for row, line in self.terms.lines.items():
            marks, _, _ = line
            # Copies of the vector entry and the grid value turn into the
            # line's numbers; the line then stays on screen as one unit.
            source = VGroup(
                marks.copy().set_opacity(0),
                self.strip.entries[row].copy(),
                self.grid.cell(row, self.term_column).copy(),
            )
            arrivals.append(ReplacementTransform(source, line))
        arrivals += [FadeIn(label) for label in self.terms.gap_lines]
        return Succession(
            AnimationGroup(
                self._appear(self.product), FadeIn(self.product_title), Create(self.column_box)
            ),
            LaggedStart(*arrivals, lag_ratio=0.25),
        )

    def beat_sum(self, beat: Beat) -> Animation:
        """Fade the zero terms, write the sum, and land it in the product row."""
        cell = self.product_cells[self.term_column]
        return Succession(
            # With V = 1 there is no zero term: the single line just pulses.
            AnimationGroup(*[_fade_to(line, _DIM) for line in self.terms.zero_lines])
            if self.terms.zero_lines
            else Indicate(self.terms.lines[self.token], color=self.theme.highlight),
            AnimationGroup(FadeIn(self.terms.equals), FadeIn(self.terms.total)),
            ReplacementTransform(self.terms.total.copy(), cell),
        )

    def beat_columns(self, beat: Beat) -> Animation:
        """Clear the terms; the other columns' sums land likewise."""
        row = self.token
        others = sorted(col for col in self.product_cells if col != self.term_column)
        leaving = [*self.terms.pieces(), self.column_box]
        landing = [
            ReplacementTransform(self.grid.cell(row, col).copy(), self.product_cells[col])
            for col in others
        ]
        return Succession(
            AnimationGroup(*[FadeOut(m) for m in leaving]),
            LaggedStart(*landing, lag_ratio=0.3)
            if landing
            else Indicate(self.product_cells[self.term_column], color=self.theme.output),
        )

    def beat_compare(self, beat: Beat) -> Animation:
        """Copy row i out as the lookup does, under the product; mark them equal."""
        box = self.grid.row_box(self.token, self.theme)
        return Succession(
            AnimationGroup(
                self._appear(self.lookup),
                FadeIn(self.lookup_title),
                Create(box),
            ),
            make_copy_row_animation(self.grid, self.token, self.lookup_cells),
            AnimationGroup(FadeOut(box), LaggedStart(*[FadeIn(m) for m in self.equals])),
        )

    def beat_cost(self, beat: Beat) -> Animation:
        """Show the multiply-adds of the product, for this table and for GPT-2."""
        return LaggedStart(
            FadeIn(self.cost.header), *[FadeIn(e) for e in self.cost.entries[:2]], lag_ratio=0.4
        )

    def beat_copy(self, beat: Beat) -> Animation:
        """Show that the lookup does none, and copies d numbers."""
        return LaggedStart(FadeIn(self.cost.entries[2]), FadeIn(self.cost.copy_note), lag_ratio=0.5)

    def _appear(self, backdrop: VMobject) -> Animation:
        """Fade in a row that numbers will land on during the same beat.

        ``FadeIn`` would add the row when it starts, on top of the beat's
        animation group, which already holds the numbers that land on it;
        the row's cell fill would then hide them. Adding it now, transparent,
        keeps it underneath.
        """
        target = backdrop.copy()
        backdrop.set_opacity(0)
        self.scene.add(backdrop)
        return Transform(backdrop, target)


@dataclass(frozen=True)
class _Layout:
    """Left edges chosen by :func:`_fit`: the vector, the grid body, the panel."""

    strip_left: float
    grid_left: float
    panel_left: float


def _label(beat: Beat, prefix: str, exact: bool = False) -> str:
    """Return the beat's label that starts with (or equals) ``prefix``."""
    return next(t for t in beat.labels if (t == prefix if exact else t.startswith(prefix)))


def _labels_in(beat: Beat, prefix: str) -> list[str]:
    """Return the beat's labels that start with ``prefix``, in gap order."""
    return [t for t in beat.labels if t.startswith(prefix)]


def _fit(
    beats: Sequence[Beat], window: Window, strip_gaps: Sequence[str], strip_title: str
) -> tuple[GridMetrics, _Layout]:
    """Choose the largest grid font at which everything fits; place the columns."""
    numbers = [c for beat in beats for c in beat.numbers]
    values = [c.text for c in numbers if c.kind in ("weight", "output", "product")]
    row_labels = [c.text for c in numbers if c.kind == "row_label"]
    grid_rows = len(window.rows) + len(window.row_gaps) + 1
    font = 24.0
    while True:
        metrics = GridMetrics.fit(
            value_chars=max(len(t) for t in values),
            columns=len(window.cols),
            column_gaps=len(window.col_gaps),
            label_chars=max(max(len(t) for t in row_labels), 2),
            rows=grid_rows,
            width=100.0,
            height=100.0,
            max_font_size=font,
        )
        fs = metrics.font_size
        label_font = strip_label_font(fs)
        gap_width = max((char_advance(label_font) * len(t) for t in strip_gaps), default=0.0)
        strip_left = _LEFT + (gap_width + 0.2 if gap_width else 0.0)
        label_width = char_advance(fs * 0.8) * max(len(t) for t in row_labels)
        grid_left = strip_left + strip_width(fs) + _STRIP_GAP + label_width + 0.18
        # The vector's title starts at its left edge, on the line of the column
        # numbers: keep it clear of the first one (one digit, centred on its cell).
        title_width = char_advance(_LABEL_FONT) * len(strip_title)
        title_right = max(_LEFT + title_width, strip_left + strip_width(fs))
        first_number_left = grid_left + metrics.cell_width / 2 - char_advance(fs * 0.8)
        grid_left += max(0.0, title_right + 0.25 - first_number_left)
        widths = [metrics.cell_width] * len(window.cols) + [metrics.gap_width] * len(
            window.col_gaps
        )
        grid_width = float(sum(widths))
        panel_left = grid_left + grid_width + _PANEL_GAP
        # The grid, the one-hot vector's label and the legend below them.
        grid_bottom = _REGION_TOP - grid_rows * metrics.cell_height
        fits_height = grid_bottom - 0.5 - 0.6 >= _BOTTOM
        fits_width = panel_left + grid_width <= _RIGHT
        if (fits_width and fits_height) or font <= _MIN_FONT:
            break
        font -= 0.5
    return metrics, _Layout(strip_left=strip_left, grid_left=grid_left, panel_left=panel_left)


def _column_box(grid: MatrixGrid, col: int, theme: Theme) -> Rectangle:
    """Return an outline around one column of the grid's body."""
    label = next(m for m in grid.col_labels if isinstance(m, NumberText) and m.cell.index == (col,))
    box = Rectangle(width=grid.metrics.cell_width, height=grid.body.height + 0.06)
    box.set_stroke(theme.highlight, width=4).set_fill(opacity=0)
    return box.move_to(xyz(float(label.get_center()[0]), float(grid.body.get_center()[1])))
