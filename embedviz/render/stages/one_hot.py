"""The one-hot layout: ``one_hot(i)`` beside ``E``, one column's sum, two equal rows.

Left to right: the one-hot vector drawn on its side (entry ``k`` level with
row ``k``, hidden entries labelled to its left), the matrix grid, and a panel
that holds the product row, the terms of one column while they are summed,
then the looked-up row under the product, the typeset product and the cost
of each way.

The stage is composed of parts (:mod:`embedviz.render.components`): a
:class:`~embedviz.render.components.GridPanel` (grid, title, dtype note,
legend), a :class:`~embedviz.render.components.ChipLane` with the one token
chip, and a :class:`CostPart` that plays the ``cost`` and ``copy`` beats. The
beats that use several parts at once (the vector, the terms, the sum, the
columns and the comparison) are the stage's own.

Every motion is rigid and keeps clear of other text: the terms are written
level with their rows while a band sweeps down the vector and the column
(nothing flies over the grid); the column's sum leaves its line to the right,
rises beside the terms and slides into the empty product row; the column box
slides from column to column; and the looked-up row leaves the grid to the
right as one strip, then rises or falls into its row in the empty panel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
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
    Scene,
    Succession,
    Transform,
    VectorizedPoint,
    VGroup,
    VMobject,
)
from manim.utils.rate_functions import linear, smooth

from embedviz.render.animations import Steps, make_copy_row_animation, make_reveal_animation
from embedviz.render.components import ChipLane, GridPanel, dtype_note_text
from embedviz.render.formula import FormulaText
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.layout import (
    CHIP_FONT,
    HEADING_FONT,
    LABEL_RATIO,
    MAX_NUMBER_FONT,
    MIN_LABEL_PX,
    MIN_NUMBER_PX,
    NOTE_FONT,
    SPACE,
    fit_font,
    frame_regions,
)
from embedviz.render.mobjects import (
    CELL_PAD_CHARS,
    GAP_ROW_PITCH,
    ColourLegend,
    GridMetrics,
    MatrixGrid,
    ShapeLabel,
    _column_slots,
    _grid_lines,
    _row_edges,
    _row_slots,
    char_advance,
    digit_height,
    grid_metrics_at,
    xyz,
)
from embedviz.render.stage import Component, Stage, StageHost, register_stage
from embedviz.render.theme import Theme, value_colour
from embedviz.story.model import Beat, NumberCell, Window

__all__ = ["CostPanel", "CostPart", "OneHotStage", "OneHotStrip", "RowVector", "TermList"]

# Where things sit below the frame's title line, in scene units.
_CHIPS_DROP = 0.7  # the token chip and the product row's title
_PANEL_GAP = 0.5  # between the grid and the right-hand panel
_STRIP_GAP = 0.35  # between the one-hot vector and the row numbers
_LABEL_FONT = 20.0  # row titles and cost names
_DIM = 0.3  # opacity of terms that are exactly zero
_EQUALS_GAP = 0.5  # between the product row and the lookup row, for the = marks
_UNDER_GRID = 0.75  # the vector's shape and the column-gap label, under the grid
_FORMULA_FONT = 30.0  # the typeset product, at most
_COST_FONT = 20.0  # the cost lines, at most
_COST_PITCH = 1.9  # their line pitch, in digit heights
_PX_PER_UNIT = 90.0  # at 720p


def _font_for_px(pixels: float) -> float:
    """Return the font size whose digits are ``pixels`` tall at 720p."""
    return pixels / (_PX_PER_UNIT * digit_height(1.0))


def _fade_to(mobject: VMobject, opacity: float) -> Animation:
    """Fade to an opacity without ``.animate`` (whose builder type manim hints loosely)."""
    return Transform(mobject, mobject.copy().set_opacity(opacity))


def _slide_to(mobject: VMobject, point: np.ndarray) -> Animation:
    """Move rigidly to an absolute point (a translated copy: no shape changes on the way)."""
    return Transform(mobject, mobject.copy().move_to(point))


class OneHotStrip(VGroup):
    """A one-hot vector on its side: one cell per drawn row of the grid.

    Parameters
    ----------
    window
        The grid's window: entries sit on the grid's row slots, hidden ranges
        on its (shorter) elision rows.
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
        edges = _row_edges(slots, metrics)
        self.body = _grid_lines(width, -edges[-1], [], edges[:-1], theme)
        self.add(self.body)
        self.entries: dict[int, NumberText] = {}
        self.gap_labels = VGroup()
        for kind, index, y in slots:
            if kind == "gap":
                dots = LabelText("\u22ee", fs * LABEL_RATIO, theme.muted).move_to(xyz(width / 2, y))
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
        self.add(self.body)
        # The elision marks are not part of the body: a row that numbers land
        # on shows them only once they have landed (the strip carries its own).
        self.dots = VGroup(
            *[
                LabelText("\u2026", metrics.font_size, theme.muted).move_to(
                    xyz(x, -metrics.cell_height / 2)
                )
                for kind, _, x in self.col_slots
                if kind == "gap"
            ]
        )
        self.add(self.dots)

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
        pad = char_advance(metrics.font_size) * CELL_PAD_CHARS / 2
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
        Font size (the grid's, so the sum lands in the product row unchanged).
    metrics
        The grid's sizes: line ``n`` sits on the grid's row slot ``n``, so
        placing ``y = 0`` on the grid's top edge puts every line level with
        the row (or hidden range) it uses; the sum goes one row below.
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
        metrics: GridMetrics,
        theme: Theme,
    ) -> None:
        super().__init__()
        advance = char_advance(font_size)
        slots = _row_slots(window.rows, window.row_gaps, metrics)
        self.lines: dict[int, VGroup] = {}
        self.gap_lines: list[LabelText] = []
        self.zero_lines: list[VMobject] = []
        # A point that moves with the list (the grid's top-left corner when
        # placed), and each line's slot centre below it, top to bottom.
        self.anchor = VectorizedPoint(ORIGIN)
        self.add(self.anchor)
        self.slot_offsets: list[float] = []
        for line_number, (kind, index, y) in enumerate(slots):
            self.slot_offsets.append(y)
            if kind == "gap":
                label = LabelText(gap_labels[index], font_size * LABEL_RATIO, theme.muted)
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
        y = _row_edges(slots, metrics)[-1] - metrics.cell_height / 2
        self.equals = LabelText("=", font_size, theme.text).place(xyz(0, y), align="left")
        self.total = NumberText(total, font_size, theme.highlight)
        self.total.place(xyz(2 * advance, y), align="left")
        self.add(self.equals, self.total)

    def slot_ys(self) -> list[float]:
        """Return the centre y of every line's slot, where the list is now."""
        top = float(self.anchor.get_y())
        return [top + offset for offset in self.slot_offsets]

    def pieces(self) -> list[VMobject]:
        """Return every unit that is added to the scene on its own."""
        return [*self.lines.values(), *self.gap_lines, self.equals, self.total]


def term_list_width(font_size: float, value_chars: int, gap_labels: Sequence[str]) -> float:
    """Return the width of a :class:`TermList` (``+ 1 × (-0.4015)`` or its gap lines)."""
    advance = char_advance(font_size)
    widest_gap = max((len(t) for t in gap_labels), default=0) * char_advance(
        font_size * LABEL_RATIO
    )
    return max(advance * (8 + value_chars), widest_gap)


class CostPanel(VGroup):
    """What each way costs per token: the product here, GPT-2's, the lookup.

    Parameters
    ----------
    cells
        The storyboard's cells by ``(kind, index)``: ``cost_size``,
        ``multiply_adds`` and ``copy_count``.
    gpt2_name
        The recorded label that names GPT-2's row.
    copy_unit
        The recorded word after the copy count (``number`` or ``numbers``).
    font_size
        Font size.
    theme
        Colours.
    words
        The storyboard's UI words: ``multiply_adds``, ``lookup``, ``copies``.
    """

    def __init__(
        self,
        cells: dict[tuple[str, tuple[int, ...]], NumberCell],
        gpt2_name: str,
        copy_unit: str,
        font_size: float,
        theme: Theme,
        words: Mapping[str, str],
    ) -> None:
        super().__init__()
        self.font_size = font_size
        self.header = SansText(words["multiply_adds"], font_size, theme.muted)
        names = ("one_hot @ E", gpt2_name, words["lookup"])
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
            LabelText(words["copies"], font_size, theme.muted),
            NumberText(cells[("copy_count", (0,))], font_size, theme.output),
            LabelText(copy_unit, font_size, theme.muted),
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


class CostPart(Component):
    """The costs as a part of the stage, with their own beats: ``cost`` and ``copy``.

    Parameters
    ----------
    host
        The scene.
    theme
        Colours.
    panel
        The costs, built and placed.
    """

    def __init__(self, host: StageHost, theme: Theme, panel: CostPanel) -> None:
        super().__init__(host, theme)
        self.panel = panel

    def beat_cost(self, beat: Beat) -> Animation:
        """Show the multiply-adds of the product for this table; then, with its phrase, GPT-2's."""
        panel = self.panel
        return Steps(
            LaggedStart(FadeIn(panel.header), FadeIn(panel.entries[0]), lag_ratio=0.4),
            FadeIn(panel.entries[1]),
        )

    def beat_copy(self, beat: Beat) -> Animation:
        """Show that the lookup does no multiply-adds; then, with its phrase, that it copies d."""
        panel = self.panel
        return Steps(FadeIn(panel.entries[2]), FadeIn(panel.copy_note))


class _Carry(Animation):
    """A copy of a number that leaves its place, travels a polyline, and lands.

    The copy is made when the animation begins (nothing of it shows before),
    moves by pure shifts (it stays rigid), and is faint until it has cleared
    the number it was copied from; when the play ends it hands over to the
    target number, drawn where it landed.
    """

    def __init__(
        self, source: VMobject, target: VMobject, route: Sequence[np.ndarray], **kwargs: Any
    ) -> None:
        self.group = VGroup()
        super().__init__(self.group, rate_func=linear, introducer=True, **kwargs)
        self.source = source
        self.target = target
        self.route = [np.asarray(p, dtype=float) for p in route]

    def begin(self) -> None:
        mover = self.source.copy()
        self.group.add(mover)
        self.points_on_path = [mover.get_center(), *self.route, self.target.get_center()]
        lengths = [float(np.linalg.norm(b - a)) for a, b in pairwise(self.points_on_path)]
        self.cumulative = np.concatenate([[0.0], np.cumsum(lengths)])
        # It is clear of its source once it has moved its own width (or height).
        self.clear_after = float(max(mover.width, mover.height)) + 0.05
        self.offset = np.zeros(3)
        super().begin()

    def create_starting_mobject(self) -> VMobject:
        return VMobject()

    def interpolate_mobject(self, alpha: float) -> None:
        total = float(self.cumulative[-1])
        distance = smooth(alpha) * total
        leg = int(np.searchsorted(self.cumulative, distance, side="right")) - 1
        leg = min(max(leg, 0), len(self.points_on_path) - 2)
        length = self.cumulative[leg + 1] - self.cumulative[leg]
        along = 0.0 if length <= 0 else (distance - self.cumulative[leg]) / length
        a, b = self.points_on_path[leg], self.points_on_path[leg + 1]
        offset = a + (b - a) * along - self.points_on_path[0]
        self.group.shift(offset - self.offset)
        self.offset = offset
        cleared = min(1.0, distance / self.clear_after) if self.clear_after > 0 else 1.0
        self.group.set_opacity(0.4 * cleared if cleared < 1 else 1.0)

    def clean_up_from_scene(self, scene: Scene) -> None:
        scene.remove(self.group)
        scene.add(self.target)


@dataclass(frozen=True)
class _Plan:
    """Sizes and left edges at one font size: the vector, the grid body, the panel."""

    metrics: GridMetrics
    strip_left: float
    grid_left: float
    panel_left: float
    panel_width: float
    grid_top: float
    fits: bool


def _plan(
    font: float,
    window: Window,
    value_chars: int,
    row_chars: int,
    strip_gaps: Sequence[str],
    term_gaps: Sequence[str],
    strip_title: str,
    ceiling: float,
) -> _Plan:
    """Size and place the vector, the grid and the panel at one font size.

    ``ceiling`` is the lowest top edge of what sits above the grid's title
    (the token chip, a dtype note); the title and the column numbers go
    between it and the grid.
    """
    frame = frame_regions()
    metrics = grid_metrics_at(font, value_chars)
    label_font = strip_label_font(font)
    gap_width = max((char_advance(label_font) * len(t) for t in strip_gaps), default=0.0)
    strip_left = frame.left + (gap_width + 0.2 if gap_width else 0.0)
    label_width = char_advance(font * LABEL_RATIO) * row_chars
    grid_left = strip_left + strip_width(font) + _STRIP_GAP + label_width + 0.18
    # The vector's title starts at its left edge, on the line of the column
    # numbers: keep it clear of the first one (one digit, centred on its cell).
    title_width = char_advance(_LABEL_FONT) * len(strip_title)
    title_right = max(frame.left + title_width, strip_left + strip_width(font))
    first_number_left = grid_left + metrics.cell_width / 2 - char_advance(font * LABEL_RATIO)
    grid_left += max(0.0, title_right + 0.25 - first_number_left)
    grid_width = metrics.cell_width * len(window.cols) + metrics.gap_width * len(window.col_gaps)
    panel_left = grid_left + grid_width + _PANEL_GAP
    # The panel holds the product row, and the terms with the sum travelling
    # up on their right.
    terms = term_list_width(font, value_chars, term_gaps)
    panel_width = max(grid_width, terms + SPACE + char_advance(font) * value_chars)
    grid_top = ceiling - _title_drop(font)
    rows = len(window.rows) + GAP_ROW_PITCH * len(window.row_gaps)
    grid_bottom = grid_top - rows * metrics.cell_height
    # Under the grid: the sum's line (in the panel), the vector's shape and the
    # column-gap label (on the left); all above the legend and the caption.
    below = max(metrics.cell_height * 1.1, _UNDER_GRID)
    fits = (
        panel_left + panel_width <= frame.right and grid_bottom - below >= frame.legend_top + SPACE
    )
    return _Plan(metrics, strip_left, grid_left, panel_left, panel_width, grid_top, fits)


def _title_drop(font: float) -> float:
    """Return how far the grid's top edge sits below what is above its title."""
    metrics = grid_metrics_at(font, 1)
    column_numbers = metrics.cell_height * 0.45 + digit_height(font * LABEL_RATIO) / 2
    return digit_height(HEADING_FONT) * 1.5 + 0.15 + column_numbers


@register_stage
class OneHotStage(Stage):
    """One-hot vector, grid, product row, terms, lookup row, typeset product and costs."""

    layout = "one_hot"

    def build(self) -> None:
        """Size everything to fit the frame, then place it."""
        board = self.board
        theme = self.theme
        cells = self.cells
        frame = frame_regions()
        beats = {beat.name: beat for beat in board.beats}
        window = board.beats[0].window
        self.window = window
        self.token = board.single_id()
        strip_title = beats["one-hot"].label("one_hot_title")
        labels = {
            "one-hot": strip_title,
            "terms": beats["terms"].label("product_title"),
            "compare": beats["compare"].label("lookup_title"),
            "formula": beats["compare"].label("product_formula"),
        }
        strip_gaps = beats["one-hot"].labels_with("one_hot_gap_")
        term_gaps = beats["terms"].labels_with("term_gap_")
        gpt2_name = beats["cost"].label("cost_gpt2")
        copy_unit = beats["cost"].label("copy_unit")
        self.term_column = next(c.index[0] for c in cells.values() if c.kind == "term_weight")
        value_chars = max(
            len(c.text) for c in cells.values() if c.kind in ("weight", "output", "product")
        )
        row_chars = max(2, *(len(c.text) for c in cells.values() if c.kind == "row_label"))

        # The token chip, top left: the ID that the vector below encodes.
        chips_y = frame.title_y - _CHIPS_DROP
        lane = ChipLane(self.scene, theme)
        chip = self.make_chip(cells[("token_id", (0,))], CHIP_FONT)
        self.chips_label = SansText(self.word("token_id"), 20, theme.muted)
        lane.set_chips([chip], self.chips_label)
        chips_bottom = lane.arrange(
            chips_y + chip.height / 2, frame.left, frame.right, lanes=1, align_left=frame.left
        )
        self.chip_lane = self.add_part(lane)
        self.chips = lane.chips
        # A table stored in another dtype (bf16, fp16) says so above the grid's title.
        ceiling = chips_bottom - SPACE
        note = dtype_note_text(board)
        if note is not None:
            ceiling -= LabelText(note, NOTE_FONT, theme.muted).height + 0.1

        def plan(font: float) -> _Plan:
            return _plan(
                font, window, value_chars, row_chars, strip_gaps, term_gaps, strip_title, ceiling
            )

        fs = fit_font(
            lambda font: plan(font).fits,
            largest=MAX_NUMBER_FONT,
            smallest=_font_for_px(MIN_NUMBER_PX),
        )
        layout = plan(fs)
        metrics = layout.metrics
        self.metrics = metrics
        scale = board.value_scale
        grid_top = layout.grid_top

        # The grid panel (grid, title, dtype note above it, legend) and the
        # one-hot vector, on the left.
        panel = GridPanel.from_board(self.scene, board, cells, metrics, theme)
        assert panel.grid is not None
        assert panel.title is not None
        if panel.title.width > panel.grid.body.width + _PANEL_GAP / 2:
            # A long shape would run into the panel: name the matrix by its letter.
            size_cells = [cells[("table_size", (axis,))] for axis in (0, 1)]
            panel.title = VGroup(
                SansText("E", HEADING_FONT, theme.muted),
                ShapeLabel(size_cells, HEADING_FONT, theme.muted),
            ).arrange(RIGHT, buff=0.25)
        panel.place(layout.grid_left, grid_top, note_below=False)
        self.grid_panel = self.add_part(panel)
        self.grid: MatrixGrid = panel.grid
        self.grid_title: VGroup = panel.title
        self.dtype_note: LabelText | None = panel.dtype_note
        self.legend: ColourLegend | None = panel.legend
        entries = {c.index[0]: c for c in cells.values() if c.kind == "one_hot"}
        self.strip = OneHotStrip(window, entries, strip_gaps, metrics, theme)
        self.strip.shift(
            xyz(layout.strip_left, float(self.grid.body.get_top()[1]))
            - self.strip.body.get_corner(UP + LEFT)
        )
        self.strip_title = LabelText(labels["one-hot"], _LABEL_FONT, theme.highlight)
        # Right-aligned over the vector, it reaches into the free space above
        # the gap labels rather than over the grid (but never off the frame).
        title_left = max(frame.left, layout.strip_left + strip_width(fs) - self.strip_title.width)
        self.strip_title.place(
            xyz(title_left, float(self.grid.col_labels.get_center()[1])), align="left"
        )
        one_hot_sizes = [cells[("one_hot_size", (axis,))] for axis in (0, 1)]
        self.strip_shape = ShapeLabel(one_hot_sizes, NOTE_FONT, theme.muted)
        self.strip_shape.next_to(self.strip.body, DOWN, buff=0.15)
        self.strip_shape.align_to(self.strip.body, LEFT)

        # The panel: the product row, then its terms or the lookup row and the costs.
        product_sizes = [cells[("product_size", (axis,))] for axis in (0, 1)]
        self.product_title = VGroup(
            LabelText(labels["terms"], _LABEL_FONT, theme.output),
            ShapeLabel(product_sizes, NOTE_FONT, theme.muted),
        ).arrange(RIGHT, buff=0.3)
        self.product_title.move_to(xyz(0, chips_y)).align_to(xyz(layout.panel_left, 0), LEFT)
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
            fs,
            metrics,
            theme,
        )
        self.terms.shift(xyz(layout.panel_left + 0.1, grid_top))

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

        # The typeset product under the two rows it equates, then the costs,
        # down to the legend.
        panel_width = frame.right - layout.panel_left
        self.formula = self._fit_formula(labels["formula"], panel_width, 1.0)
        self.formula.next_to(self.lookup_title, DOWN, buff=0.3).align_to(
            xyz(layout.panel_left, 0), LEFT
        )
        # The costs go under the formula, or under the grid when a short grid
        # leaves more room there (they appear after the comparison, apart).
        floor = frame.legend_top + 2 * SPACE
        panel_top = float(self.formula.get_bottom()[1]) - 0.35
        beside = self._fit_cost(gpt2_name, copy_unit, panel_width, panel_top - floor)
        under_top = min(float(self.strip_shape.get_bottom()[1]), float(self.grid.get_bottom()[1]))
        under_top -= 0.35
        under = self._fit_cost(
            gpt2_name, copy_unit, layout.panel_left - _PANEL_GAP - frame.left, under_top - floor
        )
        if under.font_size > beside.font_size + 0.5:
            under.shift(xyz(frame.left, under_top) - under.get_corner(UP + LEFT))
            self.cost_part = self.add_part(CostPart(self.scene, theme, under))
        else:
            beside.shift(xyz(layout.panel_left, panel_top) - beside.get_corner(UP + LEFT))
            self.cost_part = self.add_part(CostPart(self.scene, theme, beside))
        self.cost = self.cost_part.panel
        self._centre()

    def _fit_formula(self, source: str, width: float, height: float) -> FormulaText:
        """Typeset the product as large as its region allows (up to 30)."""
        probe = FormulaText(source, _FORMULA_FONT, self.theme.text)
        # Its width and height grow in proportion to the font size.
        per_font = np.array([probe.width, probe.height], dtype=float) / _FORMULA_FONT
        font = fit_font(
            lambda size: bool(size * per_font[0] <= width and size * per_font[1] <= height),
            largest=_FORMULA_FONT,
            smallest=_font_for_px(MIN_LABEL_PX) + 2.0,
        )
        if font == _FORMULA_FONT:
            return probe
        return FormulaText(source, font, self.theme.text)

    def _fit_cost(self, gpt2_name: str, copy_unit: str, width: float, height: float) -> CostPanel:
        """Build the costs as large as fits: side by side if possible, else stacked."""
        cells = self.cells

        def build(font: float, one_line: bool) -> CostPanel:
            panel = CostPanel(cells, gpt2_name, copy_unit, font, self.theme, self.board.words)
            panel.arrange_in(xyz(0, 0), digit_height(font) * _COST_PITCH, one_line)
            return panel

        def fits(font: float, one_line: bool) -> bool:
            panel = build(font, one_line)
            wide = panel.widths()[0 if one_line else 1]
            return wide <= width and float(panel.height) <= height

        smallest = _font_for_px(MIN_LABEL_PX) + 1.0
        side_by_side = fit_font(lambda f: fits(f, True), _COST_FONT, smallest)
        stacked = fit_font(lambda f: fits(f, False), _COST_FONT, smallest)
        if fits(side_by_side, True) and side_by_side >= stacked - 1.0:
            return build(side_by_side, True)
        return build(stacked, False)

    def _centre(self) -> None:
        """Shift the whole layout sideways so the free space is split evenly.

        The legend keeps its one fixed place, whatever the layout.
        """
        frame = frame_regions()
        parts: list[VMobject] = [
            self.grid,
            self.grid_title,
            self.strip,
            self.strip_title,
            self.strip_shape,
            *self.chips,
            self.chips_label,
            *([self.dtype_note] if self.dtype_note is not None else []),
            self.product_title,
            self.product,
            *self.product_cells.values(),
            self.terms,
            self.lookup,
            *self.lookup_cells,
            self.lookup_title,
            self.equals,
            self.formula,
            self.cost,
        ]
        everything = VGroup(*parts)
        left = float(everything.get_left()[0])
        right = float(everything.get_right()[0])
        everything.shift(xyz(((frame.right - right) - (left - frame.left)) / 2, 0))
        self.chip_lane.mark_homes()

    # -- beat handlers -----------------------------------------------------------

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the grid panel and the token chip."""
        return make_reveal_animation(self.intro_mobjects())

    def beat_one_hot(self, beat: Beat) -> Animation:
        """Stand the one-hot vector beside the grid; pulse its single 1."""
        one = self.strip.entries[self.token]
        # Step 0, with "one_hot(i) holds V numbers: 1 at position i, ...": the
        # vector appears and its 1 pulses. Step 1, with "entry k sits beside
        # row k of E": the 1 and row i's label pulse together.
        return Steps(
            Succession(
                make_reveal_animation([self.strip, self.strip_title, self.strip_shape]),
                Indicate(one, scale_factor=1.6, color=self.theme.highlight),
            ),
            AnimationGroup(
                Indicate(one, scale_factor=1.6, color=self.theme.highlight),
                Indicate(
                    self.grid.row_labels[self.token], scale_factor=1.6, color=self.theme.highlight
                ),
            ),
        )

    def beat_terms(self, beat: Beat) -> Animation:
        """Box a column; a band sweeps down the rows, writing each row's term level with it.

        Row ``k``'s term pairs the vector entry and the column's number that
        the band lights up beside it; nothing travels over the grid.
        """
        self.column_box = _column_box(self.grid, self.term_column, self.theme)
        left = float(self.strip.body.get_left()[0]) - 0.08
        right = float(self.terms.get_right()[0]) + 0.12
        height = self.metrics.cell_height
        band = Rectangle(width=right - left, height=height)
        band.set_fill(self.theme.highlight, opacity=0.12).set_stroke(self.theme.highlight, 1.5)
        ys = self.terms.slot_ys()
        band.move_to(xyz((left + right) / 2, ys[0]))
        self.sweep_band = band
        lines: list[VMobject] = []
        gaps = iter(self.terms.gap_lines)
        slots = _row_slots(self.window.rows, self.window.row_gaps, self.metrics)
        for kind, index, _ in slots:
            lines.append(next(gaps) if kind == "gap" else self.terms.lines[index])
        steps: list[Animation] = [FadeIn(band)]
        for number, (line, y) in enumerate(zip(lines, ys, strict=True)):
            if number:
                steps.append(_slide_to(band, xyz((left + right) / 2, y)))
            steps.append(FadeIn(line, shift=0.15 * RIGHT))
        steps.append(FadeOut(band))
        # Step 0, with "Entry j of the product:": the product row and the
        # column box. Step 1, with "multiply each one-hot entry by ...": the sweep.
        return Steps(
            AnimationGroup(
                self._appear(self.product.body),
                FadeIn(self.product_title),
                Create(self.column_box),
                # A fair share of the beat, not one of the sweep's many parts.
                run_time=max(1.0, len(steps) / 4),
            ),
            Succession(*steps),
        )

    def beat_sum(self, beat: Beat) -> Animation:
        """Fade the zero terms, write the sum, and carry it up into the product row.

        The sum leaves its line to the right, rises beside the terms (never
        over them) and slides into the empty product row from the right.
        """
        cell = self.product_cells[self.term_column]
        total = self.terms.total
        x = float(self.terms.get_right()[0]) + SPACE + float(total.width) / 2
        route = [xyz(x, float(total.get_y())), xyz(x, float(cell.get_y()))]
        # Step 0, with "Each 0 x E[k, j] is exactly 0, ...": the zero terms
        # fade. Step 1, with "the sum is the value in row i": the sum is
        # written and carried into the product.
        return Steps(
            # With V = 1 there is no zero term: the single line just pulses.
            AnimationGroup(*[_fade_to(line, _DIM) for line in self.terms.zero_lines])
            if self.terms.zero_lines
            else Indicate(self.terms.lines[self.token], color=self.theme.highlight),
            Succession(
                AnimationGroup(FadeIn(self.terms.equals), FadeIn(total)),
                _Carry(total, cell, route, run_time=1.5),
            ),
        )

    def beat_columns(self, beat: Beat) -> Animation:
        """Clear the terms; the column box moves on, and each column's sum lands likewise.

        The box hops from column to column (fading out and in, so its edges
        never sweep across the numbers), and the column's value at row ``i``
        lights up as the product's entry appears.
        """
        row = self.token
        others = sorted(col for col in self.product_cells if col != self.term_column)
        leaving = [*self.terms.pieces()]
        steps: list[Animation] = []
        box = self.column_box
        for col in others:
            following = _column_box(self.grid, col, self.theme)
            steps.append(AnimationGroup(FadeOut(box), FadeIn(following)))
            steps.append(
                AnimationGroup(
                    Indicate(
                        self.grid.cell(row, col), scale_factor=1.0, color=self.theme.highlight
                    ),
                    FadeIn(self.product_cells[col]),
                )
            )
            box = following
        if not steps:
            steps.append(Indicate(self.product_cells[self.term_column], color=self.theme.output))
        return Succession(
            AnimationGroup(*[FadeOut(m) for m in leaving]),
            *steps,
            AnimationGroup(FadeOut(box), FadeIn(self.product.dots))
            if len(self.product.dots)
            else FadeOut(box),
        )

    def beat_compare(self, beat: Beat) -> Animation:
        """Copy row i out as the lookup does, under the product; mark them equal.

        The row leaves the grid to the right as one strip, level with itself,
        then rises (or falls) into the lookup row in the empty panel.
        """
        box = self.grid.row_box(self.token, self.theme)
        first = self.lookup_cells[0]
        row_y = float(self.grid.cell(self.token, self.window.cols[0]).get_y())
        route = [xyz(float(first.get_x()), row_y)]
        # The row's own elision marks rest under the opaque strip as it slides
        # off them; they step back while it does.
        marks = [m for m in self.grid.row_group(self.token)[1] if not isinstance(m, NumberText)]
        # Step 0, with "The lookup E[i] copies row i directly.": box and copy
        # the row. Step 1, with "The two rows match value for value: ...": the
        # equals signs, then the formula.
        return Steps(
            Succession(
                AnimationGroup(
                    self._appear(self.lookup.body),
                    Create(box),
                    *[_fade_to(mark, _DIM) for mark in marks],
                ),
                make_copy_row_animation(
                    self.grid, self.token, self.lookup_cells, route, self.theme, keep_marks=True
                ),
                AnimationGroup(
                    *[_fade_to(mark, 1.0) for mark in marks],
                    FadeOut(box),
                    FadeIn(self.lookup_title),
                ),
            ),
            Succession(
                LaggedStart(*[FadeIn(m) for m in self.equals]),
                FadeIn(self.formula, shift=0.15 * UP),
            ),
        )

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


def _column_label(grid: MatrixGrid, col: int) -> NumberText:
    """Return the grid's number over a column."""
    return next(m for m in grid.col_labels if isinstance(m, NumberText) and m.cell.index == (col,))


def _column_box(grid: MatrixGrid, col: int, theme: Theme) -> Rectangle:
    """Return an outline around one column of the grid's body."""
    box = Rectangle(width=grid.metrics.cell_width, height=grid.body.height + 0.06)
    box.set_stroke(theme.highlight, width=4).set_fill(opacity=0)
    label = _column_label(grid, col)
    return box.move_to(xyz(float(label.get_x()), float(grid.body.get_center()[1])))
