"""The batch layout: the matrix, a B x T block of chips, and B output slices.

Used by BatchLookup. The matrix sits on the left as in the lookup layout; the
input batch is drawn top right as B rows of chips, and the output below it
as B stacked T x d slices (one or two columns of them, whichever gives the
larger numbers). Grid and slices share one font size, chosen as the largest
at which everything fits.
"""

from __future__ import annotations

import math
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
    Brace,
    Create,
    FadeIn,
    FadeOut,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
    VMobject,
)

from embedviz.render.animations import (
    make_copy_row_animation,
    make_reveal_animation,
)
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.layout import place_legend
from embedviz.render.mobjects import (
    ColourLegend,
    GridMetrics,
    MatrixGrid,
    OutputBlock,
    ShapeLabel,
    TokenChip,
    char_advance,
    digit_height,
    xyz,
)
from embedviz.render.stage import register_stage
from embedviz.render.stages.lookup import LookupStage
from embedviz.render.theme import Theme
from embedviz.story.model import Beat

__all__ = ["BatchStage", "make_batch_lookup_animation"]

# Frame regions, in scene units.
_LEFT, _RIGHT = -6.85, 6.85
# Chips travel along this lane, between the title and the batch block.
_LANE_Y = 3.1
# Chips shrink for three or more sequences, to leave the slices more height.
_CHIP_FONT = 20
_SMALL_CHIP_FONT = 16
_CHIP_GAP = 0.12  # between chips, both ways
_LABEL_FONT = 18
_BRACE_DEPTH = 0.18
_GRID_TOP = 2.05  # top of the column-number row
_GRID_BOTTOM = -2.15  # above the colour legend
_GRID_BOTTOM_WITH_GAPS = -1.9  # leaves room for the column-gap label
_LEGEND_Y = -2.6
_SLICES_BOTTOM = -2.45  # above the colour legend (bottom right) and the caption
_HEADER = 0.3  # a slice's "slice b" line
_SLICE_ROW_GAP = 0.12
_SLICE_COL_GAP = 0.55
_GRID_SLICE_GAP = 0.55
_MIN_FONT, _MAX_FONT, _FONT_STEP = 8.0, 24.0, 0.25


def _move(
    mobject: VMobject, point: np.ndarray, run_time: float, opacity: float | None = None
) -> Animation:
    """Move to an absolute point (and fade); safe to chain on one mobject."""
    target = mobject.copy().move_to(point)
    if opacity is not None:
        target.set_opacity(opacity)
    return Transform(mobject, target, run_time=run_time)


def make_batch_lookup_animation(
    chip: TokenChip,
    home: np.ndarray,
    lane_y: float,
    grid: MatrixGrid,
    row: int,
    targets: Sequence[NumberText],
    theme: Theme,
) -> Animation:
    """Walk a chip from the batch block to its row, copy the row, walk back dimmed.

    The chip rises to a lane above the whole block (so that chips in lower
    rows travel above the rest of the batch), crosses to the lane left of
    the row numbers, and comes down beside its row; then the row's numbers
    fly to their output cells and the chip returns the same way.

    Parameters
    ----------
    chip
        The token's chip.
    home
        Where the chip rests in the batch block.
    lane_y
        The height at which chips travel.
    grid
        The matrix.
    row
        The zero-based row the ID selects.
    targets
        The output numbers the row's copy becomes, already placed.
    theme
        Colours.

    Returns
    -------
    Animation
        A succession: walk and highlight, copy, return.
    """
    anchor = grid.row_anchor(row)
    # A Succession puts every part's mobject on screen when it starts, so a
    # later lookup's outline starts transparent and fades in on its turn.
    box = grid.row_box(row, theme)
    shown = box.copy()
    box.set_stroke(opacity=0.0)
    walk = Succession(
        _move(chip, xyz(home[0], lane_y), 0.25),
        _move(chip, xyz(anchor[0], lane_y), 0.4),
        _move(chip, anchor, 0.35),
    )
    back = Succession(
        _move(chip, xyz(anchor[0], lane_y), 0.3),
        _move(chip, xyz(home[0], lane_y), 0.3),
        _move(chip, home, 0.2, opacity=0.55),
    )
    return Succession(
        AnimationGroup(walk, Transform(box, shown, run_time=0.6)),
        make_copy_row_animation(grid, row, targets),
        AnimationGroup(back, FadeOut(box)),
    )


@dataclass(frozen=True)
class _Fit:
    """One candidate layout: its font size and how many columns of slices."""

    font_size: float
    slice_columns: int


@register_stage
class BatchStage(LookupStage):
    """The matrix, the batch as B rows of chips, and B output slices."""

    layout = "batch"

    def build(self) -> None:
        """Lay out the grid, the batch block, its axis labels and the slices."""
        board = self.board
        theme = self.theme
        cells = self.cells
        final = board.beats[-1]
        assert final.output is not None
        self.batch, self.length, self.dim = final.output.shape
        window = board.beats[0].window

        self._build_chips()
        self.batch_label, self.length_label = self._build_axis_labels()
        slices_top = self.chip_block.get_bottom()[1] - 0.2

        size_cells = [cells[("table_size", (axis,))] for axis in (0, 1)]
        self.grid_title = VGroup(
            SansText("embedding matrix E", 22, theme.muted),
            ShapeLabel(size_cells, 22, theme.muted),
        ).arrange(RIGHT, buff=0.25)
        legend_cells = [cells[key] for key in sorted(cells) if key[0] == "legend"]
        self.legend: ColourLegend | None = None
        if legend_cells:
            self.legend = ColourLegend(legend_cells, 16, theme)

        value_chars = max(len(c.text) for c in cells.values() if c.kind in ("weight", "output"))
        row_chars = max(len(c.text) for c in cells.values() if c.kind == "row_label")
        lines = len(window.rows) + len(window.row_gaps)
        fit = self._choose_fit(value_chars, row_chars, lines, slices_top)
        metrics = GridMetrics.fit(
            value_chars=value_chars,
            columns=len(window.cols),
            column_gaps=len(window.col_gaps),
            label_chars=max(row_chars, 2),
            rows=1,
            width=1e9,
            height=1e9,
            max_font_size=fit.font_size,
        )
        self.metrics = metrics

        scale = board.value_scale
        self.grid = MatrixGrid(window, list(cells.values()), metrics, theme, scale)
        label_width = self.grid.label_width
        lane = self._chip_lane_width()
        body_left = _LEFT + lane + label_width + 0.18
        self.grid.shift(
            xyz(body_left, _GRID_TOP - metrics.cell_height) - self.grid.body.get_corner(UP + LEFT)
        )
        self.grid_title.next_to(self.grid.col_labels, UP, buff=0.15)
        self.grid_title.align_to(self.grid.body, LEFT)
        if self.legend is not None:
            place_legend(self.legend)

        self._build_slices(fit, slices_top)
        self._place_batch_block()
        self.lane_y = _LANE_Y
        self.landed: set[tuple[int, ...]] = set()

    # -- layout ------------------------------------------------------------------
    def _build_chips(self) -> None:
        chip_cells = sorted(
            (c for c in self.cells.values() if c.kind == "token_id"), key=lambda c: c.index
        )
        font = _CHIP_FONT if self.batch <= 2 else _SMALL_CHIP_FONT
        self.batch_chips = {c.index: self.make_chip(c, font) for c in chip_cells}
        pitch_x = max(chip.width for chip in self.batch_chips.values()) + _CHIP_GAP
        pitch_y = max(chip.height for chip in self.batch_chips.values()) + _CHIP_GAP * 0.7
        for (b, t), chip in self.batch_chips.items():
            chip.move_to(xyz(t * pitch_x, -b * pitch_y))
        self.chip_block = VGroup(*self.batch_chips.values())
        # Below the lane come the T label and its brace, then the chips.
        chip_half = max(chip.height for chip in self.batch_chips.values()) / 2
        label_top = _LANE_Y - chip_half - 0.04
        label_height = digit_height(_LABEL_FONT)
        top = label_top - label_height - 0.05 - _BRACE_DEPTH - 0.06
        self.chip_block.shift(xyz(0, top - self.chip_block.get_top()[1]))

    def _build_axis_labels(self) -> tuple[VGroup, VGroup]:
        theme = self.theme
        cells = self.cells
        brace_b = Brace(self.chip_block, direction=LEFT, buff=0.1, color=theme.muted)
        brace_b.stretch_to_fit_width(_BRACE_DEPTH).next_to(self.chip_block, LEFT, buff=0.1)
        text_b = VGroup(
            LabelText("batch B =", _LABEL_FONT, theme.muted),
            NumberText(cells[("batch_dim", (0,))], _LABEL_FONT, theme.text),
        ).arrange(RIGHT, buff=0.14)
        text_b.next_to(brace_b, LEFT, buff=0.1)
        brace_t = Brace(self.chip_block, direction=UP, buff=0.06, color=theme.muted)
        brace_t.stretch_to_fit_height(_BRACE_DEPTH).next_to(self.chip_block, UP, buff=0.06)
        text_t = VGroup(
            LabelText("sequence length T =", _LABEL_FONT, theme.muted),
            NumberText(cells[("batch_dim", (1,))], _LABEL_FONT, theme.text),
        ).arrange(RIGHT, buff=0.14)
        text_t.next_to(brace_t, UP, buff=0.05)
        self.axis_texts = (text_b, text_t)
        return VGroup(brace_b, text_b), VGroup(brace_t, text_t)

    def _chip_lane_width(self) -> float:
        # A parked chip sits 0.58 left of the row numbers (see MatrixGrid.row_anchor).
        widest = max(chip.width for chip in self.batch_chips.values())
        return 0.58 + widest / 2 + 0.05

    def _choose_fit(self, value_chars: int, row_chars: int, lines: int, slices_top: float) -> _Fit:
        """Find the largest font size at which grid and slices fit side by side."""
        window = self.board.beats[0].window
        lane = self._chip_lane_width()
        has_col_gaps = bool(window.col_gaps)
        grid_bottom = _GRID_BOTTOM_WITH_GAPS if has_col_gaps else _GRID_BOTTOM
        position_chars = len(str(self.length - 1))
        best: _Fit | None = None
        font = _MAX_FONT
        while font >= _MIN_FONT and best is None:
            # The same sizes the grid and slices will get at this font size.
            sizes = GridMetrics.fit(
                value_chars=value_chars,
                columns=len(window.cols),
                column_gaps=len(window.col_gaps),
                label_chars=row_chars,
                rows=1,
                width=1e9,
                height=1e9,
                max_font_size=font,
            )
            body_w = sizes.cell_width * len(window.cols) + sizes.gap_width * len(window.col_gaps)
            cell_h = sizes.cell_height
            grid_label_w = char_advance(font * 0.8) * row_chars + 0.18
            grid_right = _LEFT + lane + grid_label_w + body_w
            grid_ok = _GRID_TOP - cell_h * (1 + lines) >= grid_bottom
            slice_w = char_advance(font * 0.8) * position_chars + 0.18 + body_w
            for columns in (1, 2):
                if columns > self.batch:
                    continue
                rows = math.ceil(self.batch / columns)
                width = columns * slice_w + (columns - 1) * _SLICE_COL_GAP
                height = rows * (_HEADER + self.length * cell_h) + (rows - 1) * _SLICE_ROW_GAP
                if (
                    grid_ok
                    and grid_right + _GRID_SLICE_GAP + width <= _RIGHT
                    and slices_top - height >= _SLICES_BOTTOM
                ):
                    best = _Fit(font, columns)
                    break
            font -= _FONT_STEP
        return best or _Fit(_MIN_FONT, 2 if self.batch > 1 else 1)

    def _build_slices(self, fit: _Fit, slices_top: float) -> None:
        theme = self.theme
        cells = list(self.cells.values())
        by_key = self.cells
        metrics = self.metrics
        window = self.board.beats[0].window
        self.slices: list[OutputBlock] = []
        self.slice_headers: list[VGroup] = []
        for b in range(self.batch):
            positions = [(b, t) for t in range(self.length)]
            block = OutputBlock(positions, window, cells, metrics, theme, self.board.value_scale)
            header = VGroup(
                SansText("slice", _LABEL_FONT, theme.output),
                NumberText(by_key[("slice", (b,))], _LABEL_FONT, theme.output),
            ).arrange(RIGHT, buff=0.1)
            self.slices.append(block)
            self.slice_headers.append(header)
        slice_w = self.slices[0].width
        label_w = slice_w - self.slices[0].body.width
        cell_h = metrics.cell_height
        total_w = fit.slice_columns * slice_w + (fit.slice_columns - 1) * _SLICE_COL_GAP
        right_limit = _RIGHT
        left_limit = self.grid.body.get_right()[0] + _GRID_SLICE_GAP
        # Centre the slices in the free region to the right of the matrix.
        left = max(left_limit, (left_limit + right_limit) / 2 - total_w / 2)
        for b, (block, header) in enumerate(zip(self.slices, self.slice_headers, strict=True)):
            row, column = divmod(b, fit.slice_columns)
            top = slices_top - row * (_HEADER + self.length * cell_h + _SLICE_ROW_GAP) - _HEADER
            x = left + column * (slice_w + _SLICE_COL_GAP) + label_w
            block.shift(xyz(x, top) - block.body.get_corner(UP + LEFT))
            header.next_to(block.body, UP, buff=0.08).align_to(block.body, LEFT)
        self.slices_box = VGroup(*[block.body for block in self.slices])
        # Everything that belongs to the output, for the final outline.
        self.output_group = VGroup(*self.slices, *self.slice_headers)
        self.dim_label = VGroup(
            LabelText("d =", _LABEL_FONT, theme.muted),
            NumberText(by_key[("batch_dim", (2,))], _LABEL_FONT, theme.text),
        ).arrange(RIGHT, buff=0.14)
        # d sits at the right end of the first line of slice headers.
        self.corner_slice = self.slices[min(fit.slice_columns, self.batch) - 1]
        self.corner_header = self.slice_headers[min(fit.slice_columns, self.batch) - 1]
        self.dim_label.next_to(self.corner_slice.body, UP, buff=0.08).align_to(
            self.corner_slice.body, RIGHT
        )

    def _place_batch_block(self) -> None:
        """Centre the chips over the slices, clear of the grid title, inside the frame."""
        centre = self.slices_box.get_center()[0]
        block = VGroup(self.chip_block, self.batch_label, self.length_label)
        shift = centre - self.chip_block.get_center()[0]
        # The batch label must clear the grid title, which shares its height.
        min_left = self.grid_title.get_right()[0] + 0.3
        shift = max(shift, min_left - self.batch_label.get_left()[0])
        shift = min(
            shift, _RIGHT - max(self.chip_block.get_right()[0], self.length_label.get_right()[0])
        )
        block.shift(xyz(shift, 0))
        self.batch_homes = {
            index: chip.get_center().copy() for index, chip in self.batch_chips.items()
        }

    # -- beat handlers -----------------------------------------------------------
    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the grid and the batch of chips."""
        parts: list[VMobject] = [
            self.title,
            self.grid,
            self.grid_title,
            *self.batch_chips.values(),
            *([self.legend] if self.legend is not None else []),
        ]
        return make_reveal_animation(parts)

    def beat_axes(self, beat: Beat) -> Animation:
        """Name the batch's two axes: B sequences (rows) of T IDs (columns)."""
        return AnimationGroup(
            FadeIn(self.batch_label, shift=0.2 * RIGHT),
            FadeIn(self.length_label, shift=0.2 * UP),
            lag_ratio=0.5,
        )

    def beat_predict(self, beat: Beat) -> Animation:
        """Ask for the output's shape where the slices will appear."""
        question = next(t for t in beat.labels if t.startswith("output shape?"))
        self.question = LabelText(question, 24, self.theme.output)
        self.question.move_to(self.slices_box)
        return FadeIn(self.question, shift=0.2 * DOWN)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Reveal the empty slices, their headers and the d label."""
        leaving = [self.question] if hasattr(self, "question") else []
        return make_reveal_animation([*self.slices, *self.slice_headers, self.dim_label], leaving)

    def _lookup(self, position: tuple[int, ...]) -> Animation:
        b = position[0]
        chip = self.batch_chips[position]
        row = int(chip.number.cell.value)
        block = self.slices[b]
        cells = sorted(
            (c for c in self.cells.values() if c.kind == "output" and c.index[:-1] == position),
            key=lambda c: c.index,
        )
        targets = [block.make_cell(cell) for cell in cells]
        self.landed.add(position)
        # A moving chip passes over the chips above it, so it is drawn on top.
        self.scene.bring_to_front(chip)
        return make_batch_lookup_animation(
            chip, self.batch_homes[position], self.lane_y, self.grid, row, targets, self.theme
        )

    def beat_lookup(self, beat: Beat) -> Animation:
        """Walk one chip to its row and copy the row into its slice."""
        assert beat.highlight is not None
        return self._lookup(beat.highlight.position)

    def beat_lookup_many(self, beat: Beat) -> Animation:
        """Look up every newly filled position, one after another."""
        assert beat.output is not None
        fresh = [p for p in beat.output.filled if p not in self.landed]
        return Succession(*[self._lookup(position) for position in fresh])

    def beat_shape(self, beat: Beat) -> Animation:
        """Gather B, T and d into the output's shape, B × T × d, and outline the output."""
        theme = self.theme
        sizes = sorted((c for c in beat.numbers if c.kind == "output_size"), key=lambda c: c.index)
        shape = ShapeLabel(sizes, _LABEL_FONT + 2, theme.output)
        title = SansText("output", _LABEL_FONT + 2, theme.output)
        label = VGroup(title, shape).arrange(RIGHT, buff=0.2)
        # It replaces "d = ...", right-aligned on the first line of slice headers.
        room = self.corner_slice.body.get_right()[0] - self.corner_header.get_right()[0] - 0.3
        if label.width > room:
            label.scale_to_fit_width(room)
        label.move_to(self.dim_label).align_to(self.dim_label, RIGHT)
        batch_number, length_number = self.axis_texts[0][1], self.axis_texts[1][1]
        numbers = [part for part in shape if isinstance(part, NumberText)]
        signs = [part for part in shape if not isinstance(part, NumberText)]
        return AnimationGroup(
            # B and T keep their labels on the batch; copies fly to the shape.
            TransformFromCopy(batch_number, numbers[0]),
            TransformFromCopy(length_number, numbers[1]),
            ReplacementTransform(self.dim_label[1], numbers[2]),
            FadeOut(self.dim_label[0]),
            FadeIn(title),
            *[FadeIn(sign) for sign in signs],
            Create(SurroundingRectangle(self.output_group, color=theme.output, buff=0.1)),
        )
