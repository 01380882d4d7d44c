"""The lookup layout: the matrix grid, input chips and the output block.

Used by SingleTokenLookup and SequenceLookup, and as the base of other
layouts that look rows up.
"""

from __future__ import annotations

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
    LaggedStart,
    SurroundingRectangle,
    VGroup,
    VMobject,
)

from embedviz.render.animations import (
    make_count_rows_animation,
    make_dim_rows_animation,
    make_lookup_animation,
    make_reveal_animation,
)
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.mobjects import (
    GAP_ROW_PITCH,
    ColourLegend,
    GridMetrics,
    MatrixGrid,
    OutputBlock,
    PrintedTensor,
    ShapeLabel,
    char_advance,
    xyz,
)
from embedviz.render.stage import Stage, register_stage
from embedviz.story.model import Beat, Storyboard
from embedviz.story.printed import split_printed

__all__ = ["LookupStage"]

# Regions of the frame used by this layout, in scene units.
_CHIPS_Y = 2.72
_REGION_TOP = 2.05
_GRID_LEFT, _GRID_RIGHT = -6.7, -0.6
_OUTPUT_LEFT, _OUTPUT_RIGHT = 0.9, 6.7
_CHIP_LANE = 0.7  # a chip parks left of the row numbers


@register_stage
class LookupStage(Stage):
    """A grid of the visible window, token chips, and an output block."""

    layout = "lookup"

    def build(self) -> None:
        """Lay out the grid, the input chips and the output block."""
        board = self.board
        theme = self.theme
        final = board.beats[-1]
        first = board.beats[0]
        window = first.window
        cells = self.cells
        weight_texts = [c.text for c in cells.values() if c.kind in ("weight", "output")]
        row_labels = [c.text for c in cells.values() if c.kind == "row_label"]
        positions = sorted({c.index for c in cells.values() if c.kind == "position"})
        grid_rows = len(window.rows) + GAP_ROW_PITCH * len(window.row_gaps) + 1
        chip_cells = sorted(
            (c for c in cells.values() if c.kind == "token_id"), key=lambda c: c.index
        )
        self.chips = [self.make_chip(cell, 24) for cell in chip_cells]
        # A parked chip sits in a lane left of the row numbers; text pieces widen it.
        lane = max([_CHIP_LANE, *(chip.width + 0.15 for chip in self.chips)])
        bottom = -1.05 if board.printed is not None else -2.55
        height = _REGION_TOP - bottom
        metrics = GridMetrics.fit(
            value_chars=max(len(t) for t in weight_texts),
            columns=len(window.cols),
            column_gaps=len(window.col_gaps),
            label_chars=max(max(len(t) for t in row_labels), 2),
            rows=max(grid_rows, len(positions) + 1),
            width=min(_GRID_RIGHT - _GRID_LEFT - lane, _OUTPUT_RIGHT - _OUTPUT_LEFT),
            height=height,
        )
        self.metrics = metrics

        scale = board.value_scale
        self.grid = MatrixGrid(window, list(cells.values()), metrics, theme, scale)
        # Leave room on the left for the row numbers and a parked chip.
        label_width = char_advance(metrics.font_size * 0.8) * max(len(t) for t in row_labels)
        top_left = np.array(
            [_GRID_LEFT + lane + label_width + 0.2, _REGION_TOP - metrics.cell_height, 0]
        )
        self.grid.shift(top_left - self.grid.body.get_corner(UP + LEFT))
        size_cells = [cells[("table_size", (axis,))] for axis in (0, 1)]
        self.grid_title = VGroup(
            SansText("embedding matrix E", 22, theme.muted),
            ShapeLabel(size_cells, 22, theme.muted),
        ).arrange(RIGHT, buff=0.25)
        self.grid_title.next_to(self.grid.col_labels, UP, buff=0.15)
        self.grid_title.align_to(self.grid.body, LEFT)
        note = next((b.labels["dtype_note"] for b in board.beats if "dtype_note" in b.labels), None)
        self.dtype_note = LabelText(note, 16, theme.muted) if note else None
        if self.dtype_note is not None:
            self.dtype_note.next_to(self.grid_title, UP, buff=0.1).align_to(self.grid_title, LEFT)
        legend_cells = [cells[key] for key in sorted(cells) if key[0] == "legend"]
        self.legend: ColourLegend | None = None
        if legend_cells:
            self.legend = ColourLegend(legend_cells, 16, theme)

        chip_row = VGroup(*self.chips).arrange(RIGHT, buff=0.18)
        if chip_row.width > _OUTPUT_RIGHT - _OUTPUT_LEFT:
            chip_row.scale_to_fit_width(_OUTPUT_RIGHT - _OUTPUT_LEFT)
        chip_row.move_to(xyz((_OUTPUT_LEFT + _OUTPUT_RIGHT) / 2, _CHIPS_Y))
        self.chip_homes = [chip.get_center().copy() for chip in self.chips]
        self.chips_label = SansText("token IDs", 20, theme.muted)
        self.chips_label.next_to(chip_row, LEFT, buff=0.3)

        self.output: OutputBlock | None = None
        if positions:
            self.output = OutputBlock(
                positions, window, list(cells.values()), metrics, theme, scale
            )
            out_top_left = np.array([_OUTPUT_LEFT + 0.6, _REGION_TOP - metrics.cell_height, 0])
            self.output.shift(out_top_left - self.output.body.get_corner(UP + LEFT))
            self.output_title = SansText("output", 22, theme.output)
            self.output_title.next_to(self.output.body, UP, buff=0.2).align_to(
                self.output.body, LEFT
            )
            if self.legend is not None:
                self.legend.next_to(self.output.body, DOWN, buff=0.45)
                self.legend.align_to(self.output.body, RIGHT)
        if board.printed is not None:
            self._layout_print(board, final)

    def _layout_print(self, board: Storyboard, final: Beat) -> None:
        assert board.printed is not None
        shape = _output_shape(final)
        lines, omitted = split_printed(board.printed, shape)
        omitted_label = final.labels.get("printed_omitted")
        code_text = final.label("code")
        width = max(len(t) for t in board.printed.split("\n"))
        per_unit = char_advance(1.0)
        font_size = min(22.0, (_GRID_RIGHT - _GRID_LEFT + 7.0) / (per_unit * (width + 1)))
        self.code = LabelText(code_text, font_size, self.theme.chip)
        self.printed = PrintedTensor(
            lines,
            final.numbers,
            final.labels,
            omitted_label if omitted else None,
            font_size,
            self.theme,
        )
        self.code.move_to(xyz(0, -1.55)).align_to(xyz(_GRID_LEFT, 0), LEFT)
        self.printed.next_to(self.code, DOWN, buff=0.3, aligned_edge=LEFT)

    # -- beat handlers ---------------------------------------------------------
    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the grid and the input chips."""
        parts: list[VMobject] = [
            self.title,
            self.grid,
            self.grid_title,
            *self.chips,
            self.chips_label,
            *([self.legend] if self.legend is not None else []),
            *([self.dtype_note] if self.dtype_note is not None else []),
        ]
        return make_reveal_animation(parts)

    def beat_count_rows(self, beat: Beat) -> Animation:
        """Pulse the row numbers up to the highlighted row."""
        assert beat.highlight is not None
        return make_count_rows_animation(self.grid, beat.highlight.row)

    def beat_predict(self, beat: Beat) -> Animation:
        """Ask for the output shape before revealing it."""
        question = beat.label("question")
        self.question = LabelText(question, 24, self.theme.output)
        assert self.output is not None
        self.question.move_to(self.output.body)
        return FadeIn(self.question, shift=0.2 * DOWN)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Reveal the empty output block."""
        assert self.output is not None
        leaving = [self.question] if hasattr(self, "question") else []
        return make_reveal_animation([self.output, self.output_title], leaving)

    def _output_cells(self, position: tuple[int, ...]) -> list[NumberText]:
        assert self.output is not None
        cells = sorted(
            (c for c in self.cells.values() if c.kind == "output" and c.index[:-1] == position),
            key=lambda c: c.index,
        )
        return [self.output.make_cell(cell) for cell in cells]

    def beat_lookup(self, beat: Beat) -> Animation:
        """Walk a chip to its row and copy the row out."""
        assert beat.highlight is not None
        assert self.output is not None
        if beat.output is not None and not any(m is self.output for m in self.scene.mobjects):
            self.scene.add(self.output, self.output_title)
        position = beat.highlight.position
        chip_index = position[-1] if len(self.chips) > 1 else 0
        targets = self._output_cells(position)
        return make_lookup_animation(
            self.chips[chip_index],
            self.chip_homes[chip_index],
            self.grid,
            beat.highlight.row,
            targets,
            self.theme,
        )

    def beat_dim(self, beat: Beat) -> Animation:
        """Dim the rows no ID selected."""
        return make_dim_rows_animation(self.grid, beat.dimmed_rows)

    def beat_shape(self, beat: Beat) -> Animation:
        """Label the output's shape."""
        assert self.output is not None
        sizes = [c for c in beat.numbers if c.kind == "output_size"]
        label = ShapeLabel(sorted(sizes, key=lambda c: c.index), 26, self.theme.output)
        label.next_to(self.output_title, RIGHT, buff=0.35)
        return AnimationGroup(
            FadeIn(label, scale=1.3),
            Create(SurroundingRectangle(self.output.body, color=self.theme.output, buff=0.06)),
        )

    def beat_print(self, beat: Beat) -> Animation:
        """Show the PyTorch call and its print."""
        return LaggedStart(FadeIn(self.code), FadeIn(self.printed), lag_ratio=0.4)

    def beat_grad_fn(self, beat: Beat) -> Animation:
        """Point at the grad_fn label."""
        piece = self.printed.last_text_piece()
        return Create(SurroundingRectangle(piece, color=self.theme.chip, buff=0.05))


def _output_shape(beat: Beat) -> tuple[int, ...]:
    assert beat.output is not None
    return beat.output.shape
