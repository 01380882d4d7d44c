"""The training layout: the matrix with its gradient beside it, and the loss weights.

Left: the visible window of ``E`` and, on the same rows, ``∂L/∂E``; under
them the SGD rule and the loss. Right: the loss, the token IDs each beside
its weight ``w_t`` (which is also ``∂L/∂e_t``), and the column sum that a
repeated ID collects. Only small things move: a row's few numbers fly from
``w_t`` into the gradient, and each changed cell of ``E`` turns into its new
value.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace

from manim import (
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
    Line,
    Rectangle,
    Succession,
    VGroup,
    VMobject,
    Wait,
)

from embedviz.render.animations import (
    Steps,
    make_carry_numbers_animation,
    make_fade_out_later,
    make_reveal_animation,
)
from embedviz.render.formula import FormulaText
from embedviz.render.glyphs import LabelText, NumberText, SansText, glyph_font
from embedviz.render.layout import MIN_LABEL_PX, fit_font, frame_regions, place_legend
from embedviz.render.mobjects import (
    CELL_PAD_CHARS,
    GAP_CHARS,
    ColourLegend,
    GridMetrics,
    MatrixGrid,
    ShapeLabel,
    TokenChip,
    char_advance,
    digit_height,
    font_for_px,
    gap_band_height,
    xyz,
)
from embedviz.render.output_block import OutputBlock
from embedviz.render.stage import Stage, register_stage
from embedviz.render.stages.zero_based import mono_line
from embedviz.render.theme import MONO_FONT, SANS_FONT, Theme, value_colour
from embedviz.story.model import Beat, NumberCell, Window

__all__ = ["GradientBlock", "SumPanel", "TrainingStage"]

# The band between the title and the caption, in scene units.
_TOP = 3.08
_BOTTOM = -2.45  # above the colour legend and the caption
_INSET_BOTTOM = -2.9  # left of the legend: above a two-line caption
_SIDE_MARGIN = 0.25
_COLUMN_GUTTER = 0.45
_TITLE_SIZE = 20.0
_TITLE_HEIGHT = 0.36
_LEGEND_SIZE = 16.0
_LABEL_SCALE = 0.8  # row numbers, positions and term names, as in MatrixGrid
_MARK_SCALE = 0.8  # "nudged" / "unchanged" beside the gradient
_CHIP_SCALE = 0.9
_GRADIENT_GAP = 0.25  # between E and ∂L/∂E
_COL_GAP_HEIGHT = 0.35  # the "columns ... not shown" label under the grid
_SUM_GAP = 0.3
_PITCH = 2.0  # row height in digit heights, as in MatrixGrid
_MAX_PITCH = 2.6  # when the band has room, rows breathe a little more
_MAX_FONT = 22.0
_MIN_FONT = 10.0


def _block_body(
    width: float, rows: int, col_edges: Sequence[float], metrics: GridMetrics, theme: Theme
) -> VGroup:
    """Draw a background box with thin separators, styled like the matrix grid."""
    height = rows * metrics.cell_height
    background = Rectangle(width=width, height=height)
    background.set_fill(theme.cell_fill, opacity=1.0).set_stroke(theme.cell_stroke, width=1.5)
    background.move_to(xyz(width / 2, -height / 2))
    body = VGroup(background)
    for x in col_edges:
        body.add(Line(xyz(x, 0), xyz(x, -height), stroke_width=0.8, color=theme.cell_stroke))
    for i in range(1, rows):
        y = -i * metrics.cell_height
        body.add(Line(xyz(0, y), xyz(width, y), stroke_width=0.8, color=theme.cell_stroke))
    return body


def _roll_distance(text: NumberText) -> float:
    """Return how far a number rolls when it changes: short of the rows beside it."""
    return float(text.height) * 0.7


def _is_vertical(line: Line) -> bool:
    start, end = line.get_start(), line.get_end()
    return bool(abs(start[0] - end[0]) < 1e-9 and abs(start[1] - end[1]) > 1e-9)


class GradientBlock(VGroup):
    """``∂L/∂E`` on the same rows as the matrix, drawn to its right.

    Parameters
    ----------
    grid
        The matrix, already in place; the block copies its cell boxes and
        row positions.
    cells
        The ``grad`` cells, one per drawn row and column.
    shift
        How far right of the matrix the block sits.
    theme
        Colours.
    value_scale
        The magnitude that gets the strongest value colour (the matrix's).
    """

    def __init__(
        self,
        grid: MatrixGrid,
        cells: Sequence[NumberCell],
        shift: float,
        theme: Theme,
        value_scale: float,
    ) -> None:
        super().__init__()
        offset = xyz(shift, 0)
        self.body = grid.body.copy().shift(offset)
        fs = grid.metrics.font_size
        self.add(self.body)
        self.numbers: dict[tuple[int, int], NumberText] = {}
        for cell in cells:
            row, col = cell.index
            # Exact zeros are the point of the picture: muted, so that the
            # rows that did receive a gradient stand out.
            colour = (
                theme.muted if cell.value == 0 else value_colour(cell.value, value_scale, theme)
            )
            text = NumberText(cell, fs, colour)
            source = grid.cell(row, col)
            text.place(
                [source.slot_corners()[1][0] + shift, source.get_center()[1], 0], align="right"
            )
            self.numbers[(row, col)] = text
        # Elided columns and rows keep their place, drawn as dots.
        self.dots = VGroup()
        for row_group in grid.rows_by_index.values():
            for piece in row_group[1]:
                if isinstance(piece, LabelText):
                    self.dots.add(piece.copy().shift(offset))
        for gap in grid.gap_labels:
            if isinstance(gap, VGroup):
                dots = LabelText("\u22ee", fs, theme.muted)
                dots.move_to(xyz(self.body.get_center()[0], gap.get_center()[1]))
                self.dots.add(dots)
        self.add(self.dots)

    def row_cells(self, row: int) -> list[NumberText]:
        """Return one row's numbers, left to right."""
        return [self.numbers[key] for key in sorted(self.numbers) if key[0] == row]

    def zero_cells(self) -> list[NumberText]:
        """Return the numbers that are exactly zero."""
        return [text for text in self.numbers.values() if text.cell.value == 0]

    def row_box(self, row: int, theme: Theme) -> Rectangle:
        """Return an outline around one row of the block."""
        first = self.row_cells(row)[0]
        box = Rectangle(width=self.body.width + 0.1, height=first.height * 2.1)
        box.set_stroke(theme.highlight, width=4).set_fill(opacity=0)
        box.move_to(xyz(self.body.get_center()[0], first.get_center()[1]))
        return box


class SumPanel(VGroup):
    """The contributions a repeated ID collects, added column by column.

    Parameters
    ----------
    title
        What is being summed, e.g. ``∂L/∂E[2] = w_0 + w_2``.
    names
        One name per row: ``w_0``, ``+ w_2``, ..., ``=`` for the sum.
    rows
        The numbers of each row, left to right (the last row is the sum).
    column_rights
        Where each number's right edge goes, relative to the panel's left.
    width
        The panel's width.
    col_edges
        Column separators, relative to the panel's left.
    dots_x
        Centres of elided columns, relative to the panel's left.
    metrics
        Shared sizes.
    theme
        Colours.
    """

    def __init__(
        self,
        title: FormulaText,
        names: Sequence[LabelText],
        rows: Sequence[Sequence[NumberText]],
        column_rights: Sequence[float],
        width: float,
        col_edges: Sequence[float],
        dots_x: Sequence[float],
        metrics: GridMetrics,
        theme: Theme,
    ) -> None:
        super().__init__()
        self.body = _block_body(width, len(rows), col_edges, metrics, theme)
        for order in range(len(rows)):
            for x in dots_x:
                dots = LabelText("\u2026", metrics.font_size, theme.muted)
                self.body.add(dots.move_to(xyz(x, -(order + 0.5) * metrics.cell_height)))
        # The sum row is set off by a rule, as in a column sum on paper.
        rule_y = -(len(rows) - 1) * metrics.cell_height
        self.body.add(Line(xyz(0, rule_y), xyz(width, rule_y), stroke_width=3, color=theme.text))
        self.title = title
        title.move_to(xyz(0, metrics.cell_height * 0.55)).align_to(xyz(width, 0), RIGHT)
        self.names = VGroup(*names)
        self.numbers: list[list[NumberText]] = []
        for order, (name, numbers) in enumerate(zip(names, rows, strict=True)):
            y = -(order + 0.5) * metrics.cell_height
            name.place([-0.18, y, 0], align="right")
            for text, right in zip(numbers, column_rights, strict=True):
                # Drawn above the body, which fades in after the numbers' flights begin.
                text.place([right, y, 0], align="right").set_z_index(1)
            self.numbers.append(list(numbers))
        self.add(self.body, self.title, self.names, *[n for row in self.numbers for n in row])


@dataclass(frozen=True)
class _Plan:
    """Sizes that follow from one font size."""

    metrics: GridMetrics
    row_label_width: float
    block_width: float
    left_width: float
    right_width: float
    top: float = _TOP


def _plan(
    font_size: float,
    value_chars: int,
    window: Window,
    row_label_chars: int,
    beside_chars: float,
    pitch: float,
) -> _Plan:
    advance = char_advance(font_size)
    metrics = GridMetrics(
        font_size=font_size,
        cell_width=advance * (value_chars + CELL_PAD_CHARS),
        cell_height=digit_height(font_size) * pitch,
        gap_width=advance * GAP_CHARS,
    )
    block = len(window.cols) * metrics.cell_width + len(window.col_gaps) * metrics.gap_width
    small = char_advance(font_size * _LABEL_SCALE)
    row_labels = small * max(row_label_chars, 2)
    marks = char_advance(font_size * _MARK_SCALE) * len("unchanged")
    left = row_labels + 0.18 + block + _GRADIENT_GAP + block + 0.15 + marks
    # Left of the weights: a chip, then the position; or the sum's term names.
    right = advance * beside_chars + 0.42 + 0.18 + block
    return _Plan(metrics, row_labels, block, left, right)


@register_stage
class TrainingStage(Stage):
    """The matrix and its gradient, the loss weights, and one SGD update."""

    layout = "training_nudge"

    # -- reading the storyboard --------------------------------------------------
    def _cells_of(self, kind: str) -> list[NumberCell]:
        return sorted((c for c in self.cells.values() if c.kind == kind), key=lambda c: c.index)

    def _label(self, role: str, *, last: bool = False) -> str:
        """Return the label with this role in the first (or last) beat that shows it."""
        beats = reversed(self.board.beats) if last else iter(self.board.beats)
        for beat in beats:
            if role in beat.labels:
                return beat.labels[role]
        raise KeyError(f"no beat of {self.board.scene} has a label with role {role!r}")

    def _sum_beat(self) -> Beat | None:
        return next((b for b in self.board.beats if any(c.kind == "sum" for c in b.numbers)), None)

    def _term_names(self) -> list[str]:
        """Return the sum panel's row names in order: ``w_0``, ``+ w_2``, ``=``."""
        beat = self._sum_beat()
        if beat is None:
            return []
        return [*beat.labels_with("sum_term_"), beat.label("sum_total")]

    # -- layout ------------------------------------------------------------------
    def _choose_font(self) -> _Plan:
        """Pick the largest font size at which both columns fit, then spread the rows.

        Returns
        -------
        _Plan
            The sizes, with rows spaced a little wider when the band has room,
            and the top of the layout lowered so that it sits in the middle of
            the band.
        """
        window = self.board.beats[0].window
        value_kinds = ("weight", "updated", "grad", "upstream", "term", "sum")
        value_chars = max(len(c.text) for c in self.cells.values() if c.kind in value_kinds)
        positions = self._cells_of("position")
        names = self._term_names()
        beside = max(
            _CHIP_SCALE * max(len(c.text) for c in self._cells_of("token_id"))
            + _LABEL_SCALE * max(len(c.text) for c in positions),
            _LABEL_SCALE * max((len(name) for name in names), default=0),
        )
        row_label_chars = max(len(c.text) for c in self._cells_of("row_label"))
        # Each column's height is a fixed part plus a number of row pitches.
        left_rows = len(window.rows) + len(window.row_gaps) + 1 + 1
        left_fixed = _TITLE_HEIGHT + 0.1 + (_COL_GAP_HEIGHT if window.col_gaps else 0.0) + 0.25
        right_rows = 2 + len(positions) + len(names)
        right_fixed = 0.12 + _TITLE_HEIGHT + 0.05 + (_SUM_GAP + _TITLE_HEIGHT if names else 0.0)
        band = _TOP - _BOTTOM
        frame = frame_regions(margin=_SIDE_MARGIN)
        limit = frame.right - frame.left

        def fits(candidate: float) -> bool:
            plan = _plan(candidate, value_chars, window, row_label_chars, beside, _PITCH)
            pitch = plan.metrics.cell_height
            tallest = max(left_fixed + pitch * left_rows, right_fixed + pitch * right_rows)
            return plan.left_width + _COLUMN_GUTTER + plan.right_width <= limit and tallest <= band

        font_size = fit_font(fits, _MAX_FONT, _MIN_FONT)
        digit = digit_height(font_size)
        spread = min(
            _MAX_PITCH,
            (band - left_fixed) / (digit * left_rows),
            (band - right_fixed) / (digit * right_rows),
        )
        spread = max(spread, _PITCH) if font_size > _MIN_FONT else _PITCH
        plan = _plan(font_size, value_chars, window, row_label_chars, beside, spread)
        pitch = plan.metrics.cell_height
        tallest = max(left_fixed + pitch * left_rows, right_fixed + pitch * right_rows)
        return replace(plan, top=_TOP - max(0.0, band - tallest) / 2)

    def _grid_metrics(self, plan: _Plan) -> GridMetrics:
        """Return the matrix's sizes: its hidden-range labels never under a label's minimum.

        A band's label is drawn in the band, shrunk to the grid's width; when
        that would make it too small to read (long row numbers, a small font),
        the bands are drawn thin with their labels at the smallest readable
        size, reaching left over the row numbers' column (no row number sits
        in a band).
        """
        metrics = plan.metrics
        window = self.board.beats[0].window
        readable = font_for_px(MIN_LABEL_PX) * 1.02
        body_w = plan.block_width
        # A band's label at its usual size, and the size it has once fitted to the grid.
        widest = max((len(gap.label) for gap in window.row_gaps), default=0)
        usual = metrics.row_gap_font
        fitted = usual * min(1.0, 0.9 * body_w / (char_advance(usual) * widest or 1.0))
        if fitted >= readable:
            return metrics
        return replace(metrics, gap_label_font=readable, gap_height=gap_band_height(readable))

    def build(self) -> None:
        """Lay out the matrix, the gradient, the loss weights and the update rule."""
        board = self.board
        theme = self.theme
        cells = self.cells
        window = board.beats[0].window
        scale = board.value_scale
        # Measure every new character (∂, Σ, ←, ...) in one layout per font
        # rather than one per string that first uses it.
        labels = [t for beat in board.beats for t in beat.labels.values()]
        glyph_font(MONO_FONT).ensure("".join(labels) + "\u2026\u22ee\u00d7")
        glyph_font(SANS_FONT).ensure("∂×")
        plan = self._choose_font()
        metrics = plan.metrics
        fs = metrics.font_size
        self.plan = plan
        total = plan.left_width + _COLUMN_GUTTER + plan.right_width
        left_x = -total / 2
        right_edge = total / 2

        # The matrix, its title, and the gradient on the same rows.
        self.grid = MatrixGrid(window, list(cells.values()), self._grid_metrics(plan), theme, scale)
        top = plan.top
        body_top = top - _TITLE_HEIGHT - 0.1 - metrics.cell_height
        corner = xyz(left_x + plan.row_label_width + 0.18, body_top)
        self.grid.shift(corner - self.grid.body.get_corner(UP + LEFT))
        size_cells = [cells[("table_size", (axis,))] for axis in (0, 1)]
        self.grid_title = VGroup(
            SansText(self.word("embedding_matrix"), _TITLE_SIZE, theme.muted),
            ShapeLabel(size_cells, _TITLE_SIZE, theme.muted),
        ).arrange(RIGHT, buff=0.2)
        title_y = top - _TITLE_HEIGHT / 2
        self.grid_title.move_to(xyz(0, title_y)).align_to(self.grid.body, LEFT)
        shift = plan.block_width + _GRADIENT_GAP
        self.gradient = GradientBlock(self.grid, self._cells_of("grad"), shift, theme, scale)
        self.gradient_title = SansText(self.word("gradient"), _TITLE_SIZE, theme.accent)
        # In the block's header row, which has no column numbers: the matrix's
        # title above may reach past the matrix, and a one-column block is
        # narrower than this title, which may then reach over the marks' column.
        header_y = self.grid.col_labels.get_center()[1]
        self.gradient_title.move_to(xyz(0, header_y)).align_to(self.gradient.body, LEFT)
        marks_x = self.gradient.body.get_right()[0] + 0.15
        self.marks: dict[int, LabelText] = {}
        for row in window.rows:
            mark_text = self._mark_text(row)
            if mark_text is not None:
                text, changed = mark_text
                colour = theme.highlight if changed else theme.muted
                mark = LabelText(text, fs * _MARK_SCALE, colour)
                mark.place([marks_x, self.grid.row_labels[row].get_center()[1], 0], align="left")
                self.marks[row] = mark

        # Under the matrix: the update rule.
        below = self.grid.body.get_bottom()[1] - (_COL_GAP_HEIGHT if window.col_gaps else 0.0)
        rule_y = below - 0.25 - metrics.cell_height / 2
        self.update_rule: VGroup | None = None
        lr_cells = self._cells_of("lr")
        if lr_cells:
            self.update_rule = VGroup(
                LabelText(self._label("update_left"), fs, theme.text),
                # Amber means a token ID; the learning rate is a plain number.
                NumberText(lr_cells[0], fs, theme.text),
                LabelText(self._label("update_right"), fs, theme.text),
            ).arrange(RIGHT, buff=char_advance(fs) * 0.6)
            self.update_rule.move_to(xyz(0, rule_y)).align_to(self.grid.body, LEFT)
        # Below the rule, each nudged row shows before -> after side by side.
        self.inset_top = rule_y - metrics.cell_height * 0.55

        # The colour legend sits in the top right corner, beside the title.
        legend_cells = self._cells_of("legend")
        self.legend: ColourLegend | None = None
        if legend_cells:
            self.legend = ColourLegend(legend_cells, _LEGEND_SIZE, theme, self.word("value_colour"))
            place_legend(self.legend)

        # Right: the loss and its value, then each token ID beside its weight w_t.
        weights_left = right_edge - plan.block_width
        formula_x = right_edge - plan.right_width
        self.formula = FormulaText(self._label("loss_formula"), fs, theme.output)
        formula_y = top - metrics.cell_height / 2
        self.formula.move_to(xyz(0, formula_y)).align_to(xyz(formula_x, 0), LEFT)
        loss_cells = self._cells_of("loss")
        # The value's "=" sits under the formula's "=", as in a derivation.
        self.loss_equals = LabelText(self._label("loss_equals"), fs, theme.text)
        self.loss_equals.place(
            [formula_x + 2 * char_advance(fs), formula_y - metrics.cell_height, 0], align="left"
        )
        self.loss_before = NumberText(loss_cells[0], fs, theme.text)
        line: list[VMobject] = [self.loss_equals, self.loss_before]
        self.loss_arrow: LabelText | None = None
        self.loss_after: NumberText | None = None
        if len(loss_cells) > 1:
            self.loss_arrow = LabelText(self._label("loss_arrow"), fs, theme.muted)
            # A loss is a value: its colour says its sign, as every value's does.
            self.loss_after = NumberText(
                loss_cells[1], fs, value_colour(loss_cells[1].value, self.board.value_scale, theme)
            )
            line += [self.loss_arrow, self.loss_after]
        for previous, piece in itertools.pairwise(line):
            piece.next_to(previous, RIGHT, buff=char_advance(fs) * 0.8)
        positions = [c.index for c in self._cells_of("position")]
        self.weights = OutputBlock(positions, window, list(cells.values()), metrics, theme, scale)
        weights_title_y = formula_y - 1.5 * metrics.cell_height - 0.12 - _TITLE_HEIGHT / 2
        weights_top = weights_title_y - _TITLE_HEIGHT / 2 - 0.05
        self.weights.shift(xyz(weights_left, weights_top) - self.weights.body.get_corner(UP + LEFT))
        self.weight_numbers = {
            c.index: self.weights.make_cell(c) for c in self._cells_of("upstream")
        }
        self.weights_title = LabelText(self._label("upstream_title"), fs, theme.output)
        self.weights_title.place([weights_left, weights_title_y, 0], align="left")
        self.weights_title_full = LabelText(
            self._label("upstream_title", last=True), fs, theme.output
        )
        self.weights_title_full.place([weights_left, weights_title_y, 0], align="left")
        self.chips: list[TokenChip] = []
        label_left = min(label.get_left()[0] for label in self.weights.labels)
        for cell in self._cells_of("token_id"):
            chip = self.make_chip(cell, fs * _CHIP_SCALE)
            if chip.height > metrics.cell_height * 0.86:
                chip.scale_to_fit_height(metrics.cell_height * 0.86)
            row_y = self.weights.body.get_top()[1] + self.weights.row_y[cell.index]
            chip.move_to(xyz(0, row_y)).align_to(xyz(label_left - 0.12, 0), RIGHT)
            self.chips.append(chip)
        self.sum_panel: SumPanel | None = None
        if self._sum_beat() is not None:
            self._layout_sum_panel(metrics)

    def _mark_text(self, row: int) -> tuple[str, bool] | None:
        """Return a row's recorded mark and whether it changed, once the storyboard marks rows."""
        for beat in self.board.beats:
            if f"mark_{row:06d}" in beat.labels:
                changed = {c.index[0] for c in beat.numbers if c.kind == "updated"}
                return beat.labels[f"mark_{row:06d}"], row in changed
        return None

    def _layout_sum_panel(self, metrics: GridMetrics) -> None:
        beat = self._sum_beat()
        assert beat is not None
        theme = self.theme
        fs = metrics.font_size
        scale = self.board.value_scale
        by_position: dict[int, list[NumberCell]] = {}
        for cell in sorted((c for c in beat.numbers if c.kind == "term"), key=lambda c: c.index):
            by_position.setdefault(cell.index[0], []).append(cell)
        sums = sorted((c for c in beat.numbers if c.kind == "sum"), key=lambda c: c.index)
        rows = [
            [NumberText(c, fs, value_colour(c.value, scale, theme)) for c in row_cells]
            for row_cells in [*by_position.values(), sums]
        ]
        names = [LabelText(t, fs * _LABEL_SCALE, theme.muted) for t in self._term_names()]
        title = FormulaText(self._label("sum_title"), fs * _LABEL_SCALE, theme.accent)
        body = self.weights.body
        left = body.get_left()[0]
        rights = [number.slot_corners()[1][0] - left for number in self._weight_row(0)]
        edges = [
            line.get_start()[0] - left
            for line in body
            if isinstance(line, Line) and _is_vertical(line)
        ]
        # The weights block draws elided columns as dots; the panel does the same.
        dots_x = sorted(
            {round(float(m.get_center()[0] - left), 6) for m in body if isinstance(m, LabelText)}
        )
        self.sum_panel = SumPanel(
            title, names, rows, rights, body.width, edges, dots_x, metrics, theme
        )
        top = body.get_bottom()[1] - _SUM_GAP - _TITLE_HEIGHT
        self.sum_panel.shift(xyz(left, top) - self.sum_panel.body.get_corner(UP + LEFT))

    # -- beat handlers -----------------------------------------------------------
    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title and the matrix."""
        parts: list[VMobject] = [self.title, self.grid, self.grid_title]
        if self.legend is not None:
            parts.append(self.legend)
        return make_reveal_animation(parts)

    def beat_loss(self, beat: Beat) -> Animation:
        """Show the token IDs, outline the rows they look up, then the loss and its weights.

        Three steps, one per phrase: the step's IDs come in; each ID's row is
        outlined as the narration says it is looked up; the loss and its
        weights appear as it is defined.
        """
        looked_up = sorted({int(c.value) for c in beat.numbers if c.kind == "token_id"})
        self.lookup_boxes = [self.grid.row_box(row, self.theme) for row in looked_up]
        for box in self.lookup_boxes:
            box.set_stroke(self.theme.chip, width=3)
        appearing: list[VMobject] = [
            self.formula,
            self.weights,
            self.weights_title,
            *self.weight_numbers.values(),
            self.loss_equals,
            self.loss_before,
        ]
        return Steps(
            LaggedStart(*[FadeIn(chip, shift=0.2 * LEFT) for chip in self.chips], lag_ratio=0.1),
            LaggedStart(*[Create(box) for box in self.lookup_boxes], lag_ratio=0.1),
            make_reveal_animation(appearing),
        )

    def beat_upstream(self, beat: Beat) -> Animation:
        """Name the weights as the gradient with respect to each looked-up vector.

        Two steps: the loss is pointed at as the narration asks how it
        changes; the weights' title becomes ``∂L/∂e_t`` as the answer is given.
        """
        # One title gives way to the other: two overlapping would be unreadable.
        return Steps(
            Indicate(self.formula, scale_factor=1.1, color=self.theme.accent, run_time=1.5),
            Succession(
                FadeOut(self.weights_title, run_time=0.3),
                FadeIn(self.weights_title_full),
                Indicate(self.weights_title_full, scale_factor=1.15, color=self.theme.accent),
            ),
        )

    def _weight_row(self, position: int) -> list[NumberText]:
        return [n for key, n in sorted(self.weight_numbers.items()) if key[0] == position]

    def _staging_y(self, order: int) -> float:
        """Return the centre line of row ``order`` of the sum panel's place, under the weights."""
        top = self.weights.body.get_bottom()[1] - _SUM_GAP - _TITLE_HEIGHT
        return float(top - (order + 0.5) * self.plan.metrics.cell_height)

    def _staging_shift(self, rows: int) -> float:
        """Return how far left of the weights' columns ``rows`` staging rows must sit.

        Under the weights' columns when they end above the colour legend;
        otherwise moved left, clear of it.
        """
        if self.legend is None:
            return 0.0
        bottom = self._staging_y(rows - 1) - self.plan.metrics.cell_height / 2
        if bottom >= self.legend.get_top()[1] + 0.1:
            return 0.0
        return min(0.0, float(self.legend.get_left()[0] - 0.3 - self.weights.body.get_right()[0]))

    def _staged(
        self, numbers: Sequence[NumberText], order: int, shift: float = 0.0
    ) -> list[NumberText]:
        """Copy numbers into staging row ``order``, under the weights' columns (and ``shift``)."""
        rights = [n.slot_corners()[1][0] + shift for n in self._weight_row(0)]
        y = self._staging_y(order)
        return [
            number.copy().shift(
                xyz(right - number.slot_corners()[1][0], y - number.get_center()[1])
            )
            for number, right in zip(numbers, rights, strict=True)
        ]

    def _staged_marks(self, order: int, shift: float) -> list[LabelText]:
        """Copy the weights' elision marks of one row into staging row ``order``."""
        y = self._weight_row(0)[0].get_center()[1]
        marks = [
            m
            for m in self.weights.body
            if isinstance(m, LabelText) and abs(m.get_center()[1] - y) < 1e-6
        ]
        dy = self._staging_y(order) - y
        return [m.copy().shift(xyz(shift, dy)) for m in marks]

    def _row_outline(self, position: int) -> Rectangle:
        numbers = self._weight_row(position)
        box = Rectangle(width=self.weights.body.width + 0.1, height=numbers[0].height * 2.1)
        box.set_stroke(self.theme.highlight, width=3).set_fill(opacity=0)
        return box.move_to(xyz(self.weights.body.get_center()[0], numbers[0].get_center()[1]))

    def beat_scatter(self, beat: Beat) -> Animation:
        """Scatter-add: each w_t goes into row id_t of the gradient, row by row.

        Each w_t is copied under the weights, in the place the sum panel takes
        later; a row that several positions select first adds its copies up
        there, as a column sum. The copy (or the sum) then travels as one
        strip: left along its line, under the chips and the gradient, and up
        into its row. Rows are filled from the top and the zeros come last, so
        the rows a strip rises through are still empty. Two steps: the
        scatter-adds with the first phrase, the zeros with "Every other row".
        """
        theme = self.theme
        frame = AnimationGroup(FadeIn(self.gradient.body), FadeIn(self.gradient_title))
        by_row: dict[int, list[TokenChip]] = {}
        for chip in self.chips:
            by_row.setdefault(int(chip.number.cell.value), []).append(chip)
        steps: list[Animation] = [frame]
        small = self.plan.metrics.font_size * _LABEL_SCALE
        landed: list[VMobject] = []
        for row in sorted(by_row):
            chips = by_row[row]
            positions = [chip.number.cell.index[0] for chip in chips]
            targets = self.gradient.row_cells(row)
            rows = len(positions) + (1 if len(positions) > 1 else 0)
            dx = self._staging_shift(rows)
            staged = [self._staged(self._weight_row(p), k, dx) for k, p in enumerate(positions)]
            marks = [self._staged_marks(k, dx) for k in range(len(positions) + 1)]
            staged_all = [m for k in range(len(positions)) for m in [*staged[k], *marks[k]]]
            boxes = [self._row_outline(p) for p in positions]
            names_right = self.weights.body.get_left()[0] - 0.18 + dx
            shown: list[VMobject] = [*boxes, *staged_all]
            reveal: list[Animation] = [
                *[Indicate(chip, scale_factor=1.2, color=theme.highlight) for chip in chips],
                *[FadeIn(m) for m in shown],
            ]
            row_y = targets[0].get_center()[1]
            row_marks = [
                m
                for m in self.gradient.dots
                if isinstance(m, LabelText) and abs(m.get_center()[1] - row_y) < 1e-6
            ]
            if len(positions) == 1:
                moving: list[VMobject] = [*staged[0], *marks[0]]
                steps.append(AnimationGroup(*reveal))
                leaving: list[VMobject] = list(boxes)
            else:
                moving = [*self._staged(targets, len(positions), dx), *marks[-1]]
                rule_y = self._staging_y(len(positions)) + self.plan.metrics.cell_height / 2
                body = self.weights.body
                rule = Line(
                    xyz(body.get_left()[0] + dx, rule_y), xyz(body.get_right()[0] + dx, rule_y)
                )
                rule.set_stroke(theme.text, width=2)
                position_cells = {c.index[0]: c for c in self._cells_of("position")}
                names = VGroup(
                    *[
                        mono_line(
                            [f"{'+ ' if k else ''}w_", position_cells[p]],
                            small,
                            [theme.muted] * 2,
                        )
                        for k, p in enumerate(positions)
                    ],
                    LabelText("=", small, theme.muted),
                )
                for k, name in enumerate(names):
                    name.move_to(xyz(0, self._staging_y(k))).align_to(xyz(names_right, 0), RIGHT)
                steps += [
                    AnimationGroup(*reveal, FadeIn(VGroup(*names[:-1]))),
                    AnimationGroup(FadeIn(rule), FadeIn(names[-1]), *[FadeIn(n) for n in moving]),
                    Wait(run_time=0.4),
                ]
                leaving = [*boxes, *staged_all, rule, *names]
            route = [xyz(targets[0].get_center()[0], moving[0].get_center()[1])]
            steps += [
                make_fade_out_later(leaving, run_time=0.3),
                make_carry_numbers_animation(
                    moving, [*targets, *row_marks], route, theme, take=True
                ),
            ]
            landed += row_marks
        # Every other row gets exactly zero; the elision marks come with them.
        steps.append(
            AnimationGroup(
                *[FadeIn(m) for m in self.gradient.dots if not any(m is n for n in landed)],
                *[FadeIn(zero) for zero in self.gradient.zero_cells()],
                # Its own step: a share of the beat long enough to see.
                run_time=2.0,
            )
        )
        # The scatter's own fade-outs stay deferred inside its Succession.
        return Steps(Succession(*steps[:-1]), steps[-1])

    def beat_accumulate(self, beat: Beat) -> Animation:
        """Show the contributions a repeated ID collects, and their column sum.

        The panel fills the place where the scatter added them up; its rows
        are outlined where they come from (the weights and the gradient row).
        Two steps: the contributions with the phrase that names them, their
        sum with "Repeats add up".
        """
        panel = self.sum_panel
        if panel is None or beat.highlight is None:
            return Indicate(self.gradient_title, scale_factor=1.1)
        row = beat.highlight.row
        terms = sorted({c.index[0] for c in beat.numbers if c.kind == "term"})
        boxes: list[VMobject] = [self._row_outline(position) for position in terms]
        boxes.append(self.gradient.row_box(row, self.theme))
        self.sum_boxes = boxes
        return Steps(
            Succession(
                AnimationGroup(
                    *[Create(box) for box in boxes], FadeIn(panel.body), FadeIn(panel.title)
                ),
                AnimationGroup(
                    FadeIn(panel.names),
                    *[FadeIn(n) for numbers in panel.numbers[:-1] for n in numbers],
                ),
            ),
            AnimationGroup(*[FadeIn(n) for n in panel.numbers[-1]]),
        )

    def beat_update(self, beat: Beat) -> Animation:
        """SGD: the rule appears, then each looked-up row's numbers turn into their new values.

        Two steps, one per phrase: the rule (as the outlines of the last beats
        leave), then old and new values side by side while the grid's cells
        roll over.
        """
        assert self.update_rule is not None
        leaving: list[VMobject] = [
            *getattr(self, "lookup_boxes", []),
            *getattr(self, "sum_boxes", []),
        ]
        changes: list[Animation] = []
        updated = sorted((c for c in beat.numbers if c.kind == "updated"), key=lambda c: c.index)
        # Before the grid's numbers are swapped: old values beside the new ones.
        before, after = self._before_after(sorted({c.index[0] for c in updated}), updated)
        for cell in updated:
            row, col = cell.index
            old = self.grid.cells[(row, col)]
            # Detach the old number from the grid, so that the transform takes
            # it off screen whole and leaves the rest of the grid as it was.
            self.grid.rows_by_index[row][1].remove(old)
            self.scene.add(old)
            colour = value_colour(cell.value, self.board.value_scale, self.theme)
            new = NumberText(cell, old.font_size, colour)
            new.place([old.slot_corners()[1][0], old.get_center()[1], 0], align="right")
            self.grid.cells[(row, col)] = new
            # The old value rolls up and out as the new one rolls in: a morph
            # between two strings of digits would be unreadable halfway.
            lift = UP * _roll_distance(old)
            # One after the other: the two values never stand over each other.
            changes.append(Succession(FadeOut(old, shift=lift), FadeIn(new, shift=lift)))
        rows = sorted({c.index[0] for c in updated})
        self.updated_rows = rows
        pulses = [
            Indicate(VGroup(*self.gradient.row_cells(row)), scale_factor=1.1, color=self.theme.chip)
            for row in rows
        ]
        rule = AnimationGroup(
            FadeIn(self.update_rule), *[FadeOut(m) for m in leaving], run_time=1.5
        )
        moves: list[Animation] = []
        if before is not None and after is not None:
            moves.append(FadeIn(before))
            moves.append(FadeIn(after, shift=0.15 * RIGHT))
        moves.append(AnimationGroup(*pulses, *changes))
        if before is not None and after is not None:
            # Deferred: the pair is not on screen until its own fade-in.
            moves.append(make_fade_out_later([before, after]))
        return Steps(rule, Succession(*moves))

    def _before_after(
        self, rows: list[int], updated: list[NumberCell]
    ) -> tuple[VGroup | None, VGroup | None]:
        """Each nudged row, old values under E's columns and new ones under ∂L/∂E's.

        Returns ``(None, None)`` when the rows do not fit above the legend.
        """
        pitch = self.grid.metrics.cell_height
        # Left of the legend, only the caption is below: the rows may reach
        # down to just above a two-line caption.
        if not rows or self.inset_top - pitch * len(rows) < _INSET_BOTTOM:
            return None, None
        shift = self.gradient.body.get_left()[0] - self.grid.body.get_left()[0]
        before, after = VGroup(), VGroup()
        by_index = {c.index: c for c in updated}
        for number, row in enumerate(rows):
            y = self.inset_top - (number + 0.5) * pitch
            dy = y - float(self.grid.row_labels[row].get_center()[1])
            label = self.grid.row_labels[row].copy().shift(xyz(0, dy))
            old = VGroup(*[cell.copy() for cell in self.grid.row_cells(row)]).shift(xyz(0, dy))
            arrow = LabelText("\u2192", self.grid.metrics.font_size, self.theme.muted)
            middle = (self.grid.body.get_right()[0] + self.gradient.body.get_left()[0]) / 2
            arrow.move_to(xyz(middle, y))
            new = VGroup()
            for col in self.grid.window.cols:
                cell = by_index[(row, col)]
                colour = value_colour(cell.value, self.board.value_scale, self.theme)
                source = self.grid.cells[(row, col)]
                text = NumberText(cell, source.font_size, colour)
                text.place([source.slot_corners()[1][0] + shift, y, 0], align="right")
                new.add(text)
            before.add(label, old, arrow)
            after.add(new)
        return before, after

    def beat_unchanged(self, beat: Beat) -> Animation:
        """Point at the zero gradient rows, then mark each drawn row as nudged or unchanged."""
        marks = LaggedStart(
            *[FadeIn(mark, shift=0.15 * LEFT) for mark in self.marks.values()], lag_ratio=0.15
        )
        zeros = self.gradient.zero_cells()
        if not zeros:
            return marks
        return Steps(Indicate(VGroup(*zeros), scale_factor=1.0, color=self.theme.highlight), marks)

    def beat_loss_drop(self, beat: Beat) -> Animation:
        """Show the loss after the step; then point at the rows that moved, when it went down."""
        assert self.loss_arrow is not None
        assert self.loss_after is not None
        loss = Succession(
            FadeIn(self.loss_arrow),
            FadeIn(self.loss_after, shift=0.2 * LEFT),
            Indicate(self.loss_after, scale_factor=1.15),
        )
        moved = [
            self.grid.cells[(row, col)]
            for row in getattr(self, "updated_rows", [])
            for col in self.grid.window.cols
        ]
        if not moved or self.loss_after.cell.value >= self.loss_before.cell.value:
            return loss
        return Steps(
            loss, Indicate(VGroup(*moved), scale_factor=1.0, color=self.theme.chip, run_time=2.0)
        )

    def beat_meaning(self, beat: Beat) -> Animation:
        """Point at the columns: none of them was given a meaning."""
        labels = list(self.grid.col_labels)
        if not labels:
            return Wait()
        return LaggedStart(*[Indicate(label, scale_factor=1.4) for label in labels], lag_ratio=0.3)
