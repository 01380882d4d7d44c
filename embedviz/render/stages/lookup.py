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
    Indicate,
    LaggedStart,
    RoundedRectangle,
    Succession,
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
from embedviz.render.layout import (
    CHIP_FONT,
    CORRIDOR_MARGIN,
    HEADING_FONT,
    LABEL_RATIO,
    MAX_NUMBER_FONT,
    NOTE_FONT,
    SPACE,
    frame_regions,
    place_legend,
)
from embedviz.render.mobjects import (
    GAP_ROW_PITCH,
    ColourLegend,
    GridMetrics,
    MatrixGrid,
    OutputBlock,
    PrintedTensor,
    ShapeLabel,
    char_advance,
    digit_height,
    grid_metrics_at,
    grid_width_per_font,
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

    # Whether this stage lays the grid, a clear corridor and the output block
    # side by side (rows travel through the corridor), or in the older shared
    # arrangement that other stages still build on.
    corridor: bool = True
    # Set by the corridor layout; stages that build their own keep these.
    route_x: float | None = None
    travel_lane_y: float | None = None
    shape_label: ShapeLabel | None = None

    def build(self) -> None:
        """Lay out the grid, the input chips and the output block."""
        self.route_x: float | None = None
        self.travel_lane_y: float | None = None
        self.shape_label: ShapeLabel | None = None
        self.tags: dict[tuple[int, ...], VGroup] = {}
        if type(self).layout == "lookup" and self.corridor:
            self._build_corridor()
        else:
            self._build_classic()

    def _build_classic(self) -> None:
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
        note = next(
            (t for b in board.beats for t in b.labels if t.endswith("values shown as float32")),
            None,
        )
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
                place_legend(self.legend)
        if board.printed is not None:
            self._layout_print(board, final)

    def _build_corridor(self) -> None:
        """Grid | corridor | output, sized from the frame so numbers stay readable.

        Every size comes from the frame and the strings to show: the widest
        font at which three grid-wide blocks (grid, corridor, output) and the
        labels fit across, and the grid's rows fit down. A copied row leaves
        its grid row to the right, moves up or down inside the empty corridor
        and slides into its output row from the left, so it never crosses a
        number; output labels sit right of the block for the same reason.
        """
        board, theme, cells = self.board, self.theme, self.cells
        final = board.beats[-1]
        window = board.beats[0].window
        frame = frame_regions()
        value_chars = max(len(c.text) for c in cells.values() if c.kind in ("weight", "output"))
        row_chars = max(2, *(len(c.text) for c in cells.values() if c.kind == "row_label"))
        positions = sorted({c.index for c in cells.values() if c.kind == "position"})
        chip_cells = sorted(
            (c for c in cells.values() if c.kind == "token_id"), key=lambda c: c.index
        )
        self.chips = [self.make_chip(cell, CHIP_FONT) for cell in chip_cells]
        chip_h = max(chip.height for chip in self.chips)
        lane = max(chip.width for chip in self.chips) + 0.12

        # Vertical bands, top down: title, chips, the chips' travel lane, titles, grid.
        self.title.move_to(xyz(0, frame.title_y))
        title_bottom = self.title.get_bottom()[1]
        chips_y = title_bottom - SPACE - chip_h / 2
        self.travel_lane_y = chips_y - chip_h - SPACE
        heading_y = self.travel_lane_y - chip_h / 2 - SPACE - HEADING_FONT * 0.006
        bottom = -1.05 if board.printed is not None else frame.legend_top - SPACE

        # Output labels: the position, then the ID tag, its piece and an equality mark.
        def widest(kind: str) -> int:
            return max([len(c.text) for c in cells.values() if c.kind == kind] or [0])

        marks = [c.text for c in cells.values() if c.kind == "equal_to"]
        label_chars = (
            widest("position")
            + widest("output_id")
            + max([len(p) for p in self.pieces or ()] or [0])
            + max([len(t) for t in marks] or [0])
        )
        # Gaps between the block, the position, the tag (and its padding), piece and mark.
        labels_fixed = 0.15 + 0.1 + 0.12 + 0.08 + 0.1
        grid_rows = len(window.rows) + GAP_ROW_PITCH * len(window.row_gaps)
        per_font_w = grid_width_per_font(value_chars, len(window.cols), len(window.col_gaps))
        label_per_font = char_advance(1.0) * LABEL_RATIO
        fixed = lane + 0.2 + 2 * CORRIDOR_MARGIN + labels_fixed
        by_width = (frame.right - frame.left - fixed) / (
            3 * per_font_w + label_per_font * (row_chars + label_chars)
        )
        region = heading_y - 0.2 - bottom
        by_height = region / (digit_height(1.0) * 2.0 * (max(grid_rows, len(positions)) + 0.75))
        font = min(MAX_NUMBER_FONT, by_width, by_height)
        metrics = grid_metrics_at(font, value_chars)
        self.metrics = metrics
        scale = board.value_scale
        self.grid = MatrixGrid(window, list(cells.values()), metrics, theme, scale)
        body_w = self.grid.width_of_body
        row_label_w = char_advance(font * LABEL_RATIO) * row_chars
        corridor_w = body_w + 2 * CORRIDOR_MARGIN
        total = fixed + row_label_w + 3 * body_w + label_per_font * font * label_chars
        slack = max(0.0, frame.right - frame.left - total)
        body_left = frame.left + slack / 2 + lane + row_label_w + 0.2
        body_top = heading_y - 0.2 - metrics.cell_height * 0.75
        self.grid.shift(xyz(body_left, body_top) - self.grid.body.get_corner(UP + LEFT))
        self.route_x = body_left + body_w + CORRIDOR_MARGIN

        size_cells = [cells[("table_size", (axis,))] for axis in (0, 1)]
        self.grid_title = VGroup(
            SansText("embedding matrix E", HEADING_FONT, theme.muted),
            ShapeLabel(size_cells, HEADING_FONT, theme.muted),
        ).arrange(RIGHT, buff=0.25)
        self.grid_title.move_to(xyz(0, heading_y)).align_to(self.grid.body, LEFT)
        note = next(
            (t for b in board.beats for t in b.labels if t.endswith("values shown as float32")),
            None,
        )
        self.dtype_note = LabelText(note, NOTE_FONT, theme.muted) if note else None
        if self.dtype_note is not None:
            self.dtype_note.next_to(self.grid.body, DOWN, buff=0.12).align_to(self.grid.body, LEFT)
        legend_cells = [cells[key] for key in sorted(cells) if key[0] == "legend"]
        self.legend = ColourLegend(legend_cells, NOTE_FONT, theme) if legend_cells else None
        if self.legend is not None:
            place_legend(self.legend)

        self.output = None
        out_left = body_left + body_w + corridor_w
        if positions:
            self.output = OutputBlock(
                positions, window, list(cells.values()), metrics, theme, scale, labels_right=True
            )
            self.output.shift(xyz(out_left, body_top) - self.output.body.get_corner(UP + LEFT))
            self.output_title = SansText("output", HEADING_FONT, theme.output)
            self.output_title.move_to(xyz(0, heading_y)).align_to(self.output.body, LEFT)
            self._build_tags(positions)

        chip_row = VGroup(*self.chips).arrange(RIGHT, buff=0.18)
        self.chips_label = SansText("token IDs", HEADING_FONT, theme.muted)
        room = frame.right - out_left
        if chip_row.width + self.chips_label.width + 0.3 > room:
            room = frame.right - frame.left - self.chips_label.width - 0.3
            chip_row.move_to(xyz(0, chips_y)).align_to(xyz(frame.right, 0), RIGHT)
        else:
            chip_row.move_to(xyz(0, chips_y)).align_to(xyz(out_left, 0), LEFT)
            chip_row.shift(xyz(self.chips_label.width + 0.3, 0))
        if chip_row.width > room:
            chip_row.scale_to_fit_width(room).align_to(xyz(frame.right, 0), RIGHT)
        self.chip_homes = [chip.get_center().copy() for chip in self.chips]
        self.chips_label.next_to(chip_row, LEFT, buff=0.3)
        if board.printed is not None:
            self._layout_print(board, final)

    def _build_tags(self, positions: list[tuple[int, ...]], font: float | None = None) -> None:
        """Build each output row's provenance: its ID in the chip colour, piece, equality."""
        assert self.output is not None
        theme, cells = self.theme, self.cells
        self.tags = {}
        font = self.metrics.font_size * LABEL_RATIO if font is None else font
        for position in positions:
            cell = cells.get(("output_id", position))
            if cell is None:
                continue
            number = NumberText(cell, font, theme.chip_text)
            box = RoundedRectangle(
                corner_radius=0.06, width=number.width + 0.12, height=number.height * 1.8
            )
            box.set_fill(theme.chip, opacity=1.0).set_stroke(theme.chip, width=1)
            label = self.output.labels[positions.index(position)]
            if self.output.labels_right:
                box.next_to(label, RIGHT, buff=0.1)
            else:
                # Row labels on the left: the tag goes right of the block, on the row.
                box.move_to(xyz(0, label.get_center()[1]))
                box.align_to(xyz(self.output.body.get_right()[0] + 0.12, 0), LEFT)
            number.move_to(box)
            tag = VGroup(box, number)
            if self.pieces and position[-1] < len(self.pieces):
                piece = LabelText(self.pieces[position[-1]], font, theme.chip)
                piece.next_to(box, RIGHT, buff=0.08)
                tag.add(piece)
            mark = cells.get(("equal_to", position))
            if mark is not None:
                text = NumberText(mark, font, theme.accent)
                text.next_to(tag, RIGHT, buff=0.1)
                tag.add(text)
            self.tags[position] = tag

    def _layout_print(self, board: Storyboard, final: Beat) -> None:
        assert board.printed is not None
        shape = _output_shape(final)
        lines, omitted = split_printed(board.printed, shape)
        omitted_label = next((t for t in final.labels if "more lines" in t), None)
        code_text = next(t for t in final.labels if t.startswith("embedding_layer("))
        width = max(len(t) for t in board.printed.split("\n"))
        per_unit = char_advance(1.0)
        font_size = min(22.0, (_GRID_RIGHT - _GRID_LEFT + 7.0) / (per_unit * (width + 1)))
        self.code = LabelText(code_text, font_size, self.theme.chip)
        self.printed = PrintedTensor(
            lines, final.numbers, omitted_label if omitted else None, font_size, self.theme
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
        question = next(t for t in beat.labels if t.startswith("output shape?"))
        self.question = LabelText(question, 24, self.theme.output)
        assert self.output is not None
        self.question.move_to(self.output.body)
        return FadeIn(self.question, shift=0.2 * DOWN)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Reveal the empty output block, with its shape written when the story has it."""
        assert self.output is not None
        leaving = [self.question] if hasattr(self, "question") else []
        appearing: list[VMobject] = [self.output, self.output_title]
        sizes = sorted((c for c in beat.numbers if c.kind == "output_size"), key=lambda c: c.index)
        if sizes:
            self.shape_label = ShapeLabel(sizes, HEADING_FONT, self.theme.output)
            self.shape_label.next_to(self.output_title, RIGHT, buff=0.3)
            appearing.append(self.shape_label)
        if leaving:
            # The question leaves before the block arrives where it stood.
            return Succession(make_reveal_animation([], leaving), make_reveal_animation(appearing))
        return make_reveal_animation(appearing)

    def _output_cells(self, position: tuple[int, ...]) -> list[NumberText]:
        assert self.output is not None
        cells = sorted(
            (c for c in self.cells.values() if c.kind == "output" and c.index[:-1] == position),
            key=lambda c: c.index,
        )
        return [self.output.make_cell(cell) for cell in cells]

    def copy_route(self, row: int, targets: list[NumberText]) -> list[np.ndarray]:
        """Waypoints for a copied row: out to the right, through the corridor, in.

        Parameters
        ----------
        row
            The grid row being copied.
        targets
            Its output numbers (the first one is the strip's reference point).

        Returns
        -------
        list of arrays
            Where the strip's first number passes, in order; empty (a straight
            move) when this layout has no corridor.
        """
        if self.route_x is None:
            return []
        first = self.grid.row_cells(row)[0]
        start = first.get_center()
        # The strip's first number sits this far right of the body's left edge.
        inset = start[0] - self.grid.body.get_left()[0]
        x = self.route_x + inset
        end_y = targets[0].get_center()[1]
        return [xyz(x, start[1]), xyz(x, end_y)]

    def beat_lookup(self, beat: Beat) -> Animation:
        """Walk a chip to its row and copy the row out."""
        assert beat.highlight is not None
        assert self.output is not None
        if beat.output is not None and not any(m is self.output for m in self.scene.mobjects):
            self.scene.add(self.output, self.output_title)
        position = beat.highlight.position
        chip_index = position[-1] if len(self.chips) > 1 else 0
        targets = self._output_cells(position)
        row = beat.highlight.row
        tag = getattr(self, "tags", {}).get(position)
        return make_lookup_animation(
            self.chips[chip_index],
            self.chip_homes[chip_index],
            self.grid,
            row,
            targets,
            self.theme,
            route=self.copy_route(row, targets),
            lane_y=self.travel_lane_y,
            provenance=[tag] if tag is not None else [],
        )

    def beat_dim(self, beat: Beat) -> Animation:
        """Dim the rows no ID selected."""
        return make_dim_rows_animation(self.grid, beat.dimmed_rows)

    def beat_shape(self, beat: Beat) -> Animation:
        """Label the output's shape (or point at it, when the reveal wrote it)."""
        assert self.output is not None
        frame = Create(SurroundingRectangle(self.output.body, color=self.theme.output, buff=0.06))
        if self.shape_label is not None:
            return AnimationGroup(Indicate(self.shape_label, color=self.theme.output), frame)
        sizes = [c for c in beat.numbers if c.kind == "output_size"]
        label = ShapeLabel(sorted(sizes, key=lambda c: c.index), 26, self.theme.output)
        label.next_to(self.output_title, RIGHT, buff=0.35)
        self.shape_label = label
        return AnimationGroup(FadeIn(label, scale=1.3), frame)

    def beat_print(self, beat: Beat) -> Animation:
        """Show the PyTorch call and its print."""
        return LaggedStart(FadeIn(self.code), FadeIn(self.printed), lag_ratio=0.4)

    def beat_grad_fn(self, beat: Beat) -> Animation:
        """Point at the grad_fn label."""
        piece = self.printed.find_label("grad_fn")
        return Create(SurroundingRectangle(piece, color=self.theme.chip, buff=0.05))


def _output_shape(beat: Beat) -> tuple[int, ...]:
    assert beat.output is not None
    return beat.output.shape
