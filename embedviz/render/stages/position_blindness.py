"""The position-blindness layout: a lookup, then token + position = sum.

Used by PositionBlindness. It opens as the lookup layout (matrix, chips,
output block). Once the lookup has shown that a repeated ID gets identical
rows, the matrix leaves; the output block shrinks to the left with each
token's chip beside its row, and two blocks join it: the position vectors
``P`` and the sums ``E[id] + P[pos]``, with ``+`` and ``=`` between them.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    Rectangle,
    Succession,
    Transform,
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
from embedviz.render.classic import classic_layout
from embedviz.render.components import ChipLane, GridPanel, OutputPanel
from embedviz.render.formula import FormulaText
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.layout import fit_font, frame_regions
from embedviz.render.mobjects import (
    ColourLegend,
    GridMetrics,
    MatrixGrid,
    ShapeLabel,
    TokenChip,
    char_advance,
    xyz,
)
from embedviz.render.output_block import OutputBlock
from embedviz.render.stage import Stage, register_stage
from embedviz.render.stages.batch import make_batch_lookup_animation
from embedviz.render.stages.zero_based import mono_line
from embedviz.render.theme import Theme
from embedviz.story.model import Beat, NumberCell, Window

__all__ = ["PositionStage", "RowBlock"]

# Regions of the second layout, in scene units (its width comes from the frame).
_BODY_TOP = 1.85  # the highest the rows may start
_BOTTOM = -1.2  # the rows end above the formula lines
_CENTRE_Y = 0.1  # the second layout is centred here, between title and caption
# The add step works each sum out under the sum block, in three rows (E[id],
# + P[pos], =) that end above a two-line caption.
_WORK_GAP = 0.25
_WORK_BOTTOM = -2.85
_SIGN_SLOT = 0.8
_LABEL_FONT = 18
_HEADER_FONT = 20
_MIN_FONT, _MAX_FONT = 8.0, 24.0
_PE_KINDS = ("sinusoid", "learned_position")
# The three blocks' names: a storyboard word (its role) and the formula, if any.
_HEADERS = (("token_vector", "E[id]"), ("position_vector", "P[pos]"), ("sum", ""))
_SUM_KINDS = ("sum_sinusoid", "sum_learned")
# The lookup layout's chips travel this far above their line.
_LANE_RISE = 0.5


class RowBlock(OutputBlock):
    """An output-style block of T rows without row numbers.

    The position and sum blocks stand beside the token block, whose row
    numbers (the positions) already label every row.

    Parameters
    ----------
    positions
        Row positions, ``[(0,), (1,), ...]``.
    window
        The columns to show.
    numbers
        The storyboard's cells (``position`` cells are read but not drawn).
    metrics
        Sizes.
    theme
        Colours.
    value_scale
        The magnitude that gets the strongest value colour.
    """

    def __init__(
        self,
        positions: Sequence[tuple[int, ...]],
        window: Window,
        numbers: Sequence[NumberCell],
        metrics: GridMetrics,
        theme: Theme,
        value_scale: float,
    ) -> None:
        super().__init__(positions, window, numbers, metrics, theme, value_scale)
        self.remove(self.labels)
        self.labels = VGroup()


def _row_box(block: OutputBlock, position: tuple[int, ...], colour: str) -> Rectangle:
    """Outline one row of a block, wherever the block has been moved or scaled."""
    # row_y is in the block's units at construction; the body says how it has scaled since.
    scale = block.body.height / block.height_of_body
    box = Rectangle(width=block.body.width + 0.1, height=block.metrics.cell_height * scale * 1.05)
    box.set_stroke(colour, width=4)
    box.move_to(
        xyz(block.body.get_center()[0], block.body.get_top()[1] + block.row_y[position] * scale)
    )
    return box


@register_stage
class PositionStage(Stage):
    """The lookup layout, then token vectors + position vectors = sums.

    Composed of the kit's parts (:mod:`embedviz.render.components`): a
    :class:`~embedviz.render.components.GridPanel`, a
    :class:`~embedviz.render.components.ChipLane` and an
    :class:`~embedviz.render.components.OutputPanel`, in the classic lookup
    arrangement (:func:`~embedviz.render.classic.classic_layout`). Every
    beat of this story moves several parts at once, so the beats are the
    stage's own.
    """

    layout = "position_blindness"

    grid_panel: GridPanel
    chip_lane: ChipLane
    output_panel: OutputPanel

    def build(self) -> None:
        """Lay out both arrangements: the lookup now, the sum for later."""
        chip_cells = sorted(
            (c for c in self.cells.values() if c.kind == "token_id"), key=lambda c: c.index
        )
        chips = [self.make_chip(cell, 24) for cell in chip_cells]
        laid = classic_layout(self.scene, self.board, self.cells, self.theme, chips)
        self.metrics = laid.metrics
        self.grid_panel = self.add_part(laid.grid)
        self.chip_lane = self.add_part(laid.chips)
        self.output_panel = self.add_part(laid.output)
        cells = self.cells
        self.pe_kind = next(k for k in _PE_KINDS if any(c.kind == k for c in cells.values()))
        self.sum_kind = next(k for k in _SUM_KINDS if any(c.kind == k for c in cells.values()))
        self.positions = sorted(c.index for c in cells.values() if c.kind == "position")
        self.token_numbers: list[NumberText] = []
        self.first_row_box: Rectangle | None = None
        self._plan_second_layout()

    # -- the parts' pieces -----------------------------------------------------------
    @property
    def grid(self) -> MatrixGrid:
        """The matrix grid (the grid panel's)."""
        grid = self.grid_panel.grid
        assert grid is not None
        return grid

    @property
    def grid_title(self) -> VGroup:
        """The grid's title (the grid panel's)."""
        title = self.grid_panel.title
        assert title is not None
        return title

    @property
    def legend(self) -> ColourLegend | None:
        """The colour legend, if any (the grid panel's)."""
        return self.grid_panel.legend

    @property
    def chips(self) -> list[TokenChip]:
        """The input chips (the chip lane's)."""
        return self.chip_lane.chips

    @property
    def chip_homes(self) -> list[np.ndarray]:
        """Where each chip rests in the input line (the chip lane's)."""
        return self.chip_lane.homes

    @property
    def chips_label(self) -> SansText:
        """``token IDs`` (the chip lane's)."""
        label = self.chip_lane.label
        assert label is not None
        return label

    @property
    def output(self) -> OutputBlock:
        """The lookup's output block (the output panel's)."""
        output = self.output_panel.output
        assert output is not None
        return output

    @property
    def output_title(self) -> SansText:
        """``output`` (the output panel's)."""
        title = self.output_panel.title
        assert title is not None
        return title

    def _output_cells(self, position: tuple[int, ...]) -> list[NumberText]:
        return self.output_panel.output_cells(position, self.cells)

    # -- the second arrangement ----------------------------------------------------
    def _plan_second_layout(self) -> None:
        theme = self.theme
        cells = self.cells
        window = self.board.beats[0].window
        count = len(self.positions)
        kinds = ("output", self.pe_kind, self.sum_kind)
        value_chars = max(len(c.text) for c in cells.values() if c.kind in kinds)
        assert self.output is not None
        chip_height = max(chip.height for chip in self.chips)
        chip_width = max(chip.width for chip in self.chips)
        label_chars = len(str(count - 1))
        width = frame_regions().right - frame_regions().left - 0.3

        def measure(font: float) -> tuple[GridMetrics, float, float, float, float, bool]:
            metrics = GridMetrics.fit(
                value_chars=value_chars,
                columns=len(window.cols),
                column_gaps=len(window.col_gaps),
                label_chars=2,
                rows=1,
                width=1e9,
                height=1e9,
                max_font_size=font,
            )
            chip_scale = min(1.0, 0.8 * metrics.cell_height / chip_height)
            body_w = metrics.cell_width * len(window.cols) + metrics.gap_width * len(
                window.col_gaps
            )
            label_w = char_advance(font * 0.8) * label_chars + 0.18
            total = chip_width * chip_scale + 0.25 + label_w + 3 * body_w + 2 * _SIGN_SLOT
            cell_h = metrics.cell_height
            fits = (
                total <= width
                and _BODY_TOP - count * cell_h >= _BOTTOM
                and _BODY_TOP - (count + 3) * cell_h - _WORK_GAP >= _WORK_BOTTOM
            )
            return metrics, chip_scale, body_w, label_w, total, fits

        font = fit_font(lambda size: measure(size)[-1], _MAX_FONT, _MIN_FONT)
        metrics, chip_scale, body_w, label_w, total, _ = measure(font)
        self.metrics2 = metrics
        self.chip_scale = chip_scale
        # Centre headers, rows and formula lines vertically, no higher than _BODY_TOP.
        cell_h = metrics.cell_height
        self.body_top = min(_BODY_TOP, _CENTRE_Y - (cell_h + 0.6 - count * cell_h - 1.1) / 2)
        # High enough for the add step's working rows under the sum block.
        lowest = _WORK_BOTTOM + _WORK_GAP + (count + 3) * cell_h
        self.body_top = min(_BODY_TOP, max(self.body_top, lowest))
        body_top = self.body_top
        left = -total / 2
        token_left = left + chip_width * chip_scale + 0.25 + label_w
        pe_left = token_left + body_w + _SIGN_SLOT
        sum_left = pe_left + body_w + _SIGN_SLOT
        self.token_left = token_left
        # The token block keeps its phase-one cell widths, scaled to the new font.
        self.token_scale = metrics.font_size / self.metrics.font_size
        all_cells = list(cells.values())
        scale = self.board.value_scale
        self.pe_block = RowBlock(self.positions, window, all_cells, metrics, theme, scale)
        self.sum_block = RowBlock(self.positions, window, all_cells, metrics, theme, scale)
        # P gets its own colour; the sums are the new output.
        self.pe_block.body[0].set_stroke(theme.accent, width=2)
        for block, x in ((self.pe_block, pe_left), (self.sum_block, sum_left)):
            block.shift(xyz(x, body_top) - block.body.get_corner(UP + LEFT))
        self.pe_numbers = self._block_numbers(self.pe_block, self.pe_kind)
        # The sum block's rows get their elision marks when their sums land
        # (each rising sum carries its own): none is drawn in an empty row.
        self.sum_marks: dict[tuple[int, ...], list[LabelText]] = {}
        top = self.sum_block.body.get_top()[1]
        for mark in [m for m in self.sum_block.body if isinstance(m, LabelText)]:
            self.sum_block.body.remove(mark)
            for position, row_y in self.sum_block.row_y.items():
                if abs(mark.get_center()[1] - (top + row_y)) < 1e-6:
                    self.sum_marks.setdefault(position, []).append(mark)
        self.sum_numbers = self._block_numbers(self.sum_block, self.sum_kind)
        self.pe_col_labels = VGroup()
        for kind, col, x in self.pe_block.col_slots:
            if kind == "col":
                label = NumberText(cells[("pe_col", (col,))], metrics.font_size * 0.8, theme.muted)
                label.move_to(xyz(pe_left + x, body_top + metrics.cell_height * 0.45))
                self.pe_col_labels.add(label)
        middle_y = body_top - count * metrics.cell_height / 2
        sign_font = min(36.0, metrics.font_size * 1.5)
        self.plus = LabelText("+", sign_font, theme.text).move_to(
            xyz(pe_left - _SIGN_SLOT / 2, middle_y)
        )
        self.equals = LabelText("=", sign_font, theme.text).move_to(
            xyz(sum_left - _SIGN_SLOT / 2, middle_y)
        )
        body_w_token = self.output.body.width * self.token_scale
        spans = ((token_left, body_w_token), (pe_left, body_w), (sum_left, body_w))
        colours = (theme.output, theme.accent, theme.text)
        self.headers = self._headers(spans, colours, body_top + cell_h + 0.35)
        bottom = body_top - count * metrics.cell_height
        self.formula = self._formula(bottom)

    def _headers(
        self, spans: Sequence[tuple[float, float]], colours: Sequence[str], y: float
    ) -> list[SansText]:
        """Title the three blocks, in short form when the blocks are narrow."""
        long = [f"{self.word(role)} {formula}".strip() for role, formula in _HEADERS]
        short = [formula or self.word(role) for role, formula in _HEADERS]
        for texts in (long, short):
            headers = [
                SansText(text, _HEADER_FONT, colour).move_to(xyz(x + width / 2, y))
                for text, colour, (x, width) in zip(texts, colours, spans, strict=True)
            ]
            if all(a.get_right()[0] + 0.2 <= b.get_left()[0] for a, b in pairwise(headers)):
                break
        return headers

    def _formula(self, bottom: float) -> VGroup:
        """Build the definition of P, to sit under the position block."""
        theme = self.theme
        final = self.board.beats[-1]
        # Labels are frozen in role order: the sine line, then the cosine line.
        lines = final.labels_with("formula_")
        parts: list[VMobject]
        if lines:
            parts = [FormulaText(text, _LABEL_FONT, theme.muted) for text in lines]
        else:
            sizes = sorted(
                (c for c in self.cells.values() if c.kind == "pe_size"), key=lambda c: c.index
            )
            parts = [
                VGroup(
                    SansText(self.word("learned_table"), _LABEL_FONT, theme.muted),
                    ShapeLabel(sizes, _LABEL_FONT, theme.muted),
                ).arrange(RIGHT, buff=0.2)
            ]
        group = VGroup(*parts).arrange(DOWN, buff=0.16, aligned_edge=LEFT)
        group.next_to(xyz(0, bottom), DOWN, buff=0.35)
        # Centred under the token and position blocks: the sum block's note goes
        # under the sum block.
        centre = (self.token_left + self.pe_block.body.get_right()[0]) / 2
        group.move_to(xyz(centre, group.get_center()[1]))
        overflow = group.get_left()[0] - (frame_regions().left + 0.31)
        if overflow < 0:
            group.shift(xyz(-overflow, 0))
        return group

    def _block_numbers(
        self, block: OutputBlock, kind: str
    ) -> dict[tuple[int, ...], list[NumberText]]:
        numbers: dict[tuple[int, ...], list[NumberText]] = {}
        for cell in sorted(
            (c for c in self.cells.values() if c.kind == kind), key=lambda c: c.index
        ):
            numbers.setdefault(cell.index[:-1], []).append(block.make_cell(cell))
        return numbers

    # -- beat handlers -------------------------------------------------------------
    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the grid panel and the input chips."""
        return make_reveal_animation(self.intro_mobjects())

    def beat_lookup_all(self, beat: Beat) -> Animation:
        """Look every ID up, one after another, into the output block.

        Two steps, for "As before, each ID selects its row of E," (each chip
        flashes with the row it selects, in turn) and "and the copies land in
        the output in input order." (the lookups, in input order).
        """
        assert self.output is not None
        self.scene.add(self.output, self.output_title)
        lookups = []
        selects = []
        accent = self.theme.highlight
        for position in self.positions:
            chip_index = position[-1]
            chip = self.chips[chip_index]
            row = int(chip.number.cell.value)
            targets = self._output_cells(position)
            self.token_numbers.extend(targets)
            home = self.chip_homes[chip_index]
            lookups.append(
                make_batch_lookup_animation(
                    chip, home, home[1] + _LANE_RISE, self.grid, row, targets, self.theme
                )
            )
            selects.append(
                AnimationGroup(
                    Circumscribe(chip, color=accent, buff=0.04),
                    Indicate(self.grid.row_group(row), color=accent, scale_factor=1.0),
                )
            )
        copies = Succession(*lookups)
        if len(beat.phrases) < 2:
            return copies
        # The lookups keep about five sixths of the beat's motion time.
        pointed = LaggedStart(*selects, lag_ratio=0.6, run_time=copies.get_run_time() / 5)
        return Steps(pointed, copies)

    def beat_same(self, beat: Beat) -> Animation:
        """Outline the two identical output rows and the one matrix row behind them."""
        assert beat.highlight is not None
        assert self.output is not None
        theme = self.theme
        first, second = self._pair(beat)
        self.same_boxes = [_row_box(self.output, p, theme.highlight) for p in (first, second)]
        self.source_box = self.grid.row_box(beat.highlight.row, theme)
        self.identical = self._note(
            self.word("identical"), self.same_boxes, self.output, theme.highlight
        )
        return AnimationGroup(
            *[FadeIn(box) for box in [*self.same_boxes, self.source_box]],
            FadeIn(self.identical),
            Indicate(self.chips[first[-1]], color=theme.highlight),
            Indicate(self.chips[second[-1]], color=theme.highlight),
        )

    def _pair(self, beat: Beat) -> tuple[tuple[int, ...], tuple[int, ...]]:
        assert beat.highlight is not None
        ids = [int(self.chips[p[-1]].number.cell.value) for p in self.positions]
        matches = [p for p, i in zip(self.positions, ids, strict=True) if i == beat.highlight.row]
        return matches[0], matches[1]

    def _note(
        self, text: str, boxes: Sequence[Rectangle], block: OutputBlock, colour: str
    ) -> VGroup:
        """Join two row outlines with a bracket and a word (or put the word below)."""
        top, bottom = boxes[0].get_right(), boxes[1].get_right()
        x = top[0] + 0.15
        bracket = VGroup(
            Line(xyz(top[0], top[1]), xyz(x, top[1])),
            Line(xyz(x, top[1]), xyz(x, bottom[1])),
            Line(xyz(bottom[0], bottom[1]), xyz(x, bottom[1])),
        ).set_stroke(colour, width=3)
        word = SansText(text, _HEADER_FONT, colour)
        word.next_to(bracket, RIGHT, buff=0.12)
        if word.get_right()[0] > frame_regions().right:
            # No room on the right: under the block, on the side away from the legend.
            word.next_to(block.body, DOWN, buff=0.2).align_to(block.body, LEFT)
            return VGroup(word)
        return VGroup(bracket, word)

    def beat_arrange(self, beat: Beat) -> Animation:
        """Clear the matrix; line the chips and token rows up on the left."""
        assert self.output is not None
        leaving: list[VMobject] = [
            self.grid,
            self.grid_title,
            self.chips_label,
            self.output_title,
            *self.same_boxes,
            self.source_box,
            self.identical,
            *([self.legend] if self.legend is not None else []),
        ]
        anchor = self.output.body.get_corner(UP + LEFT)
        shift = xyz(self.token_left, self.body_top) - anchor
        moves: list[Animation] = []
        for mobject in [self.output, *self.token_numbers]:
            target = mobject.copy().scale(self.token_scale, about_point=anchor).shift(shift)
            moves.append(Transform(mobject, target))
        label_left = self.token_left - (anchor[0] - self.output.labels.get_left()[0]) * (
            self.token_scale
        )
        # Each chip, the last first, steps down to a lane under the input line
        # (the matrix side has gone), travels left along it and comes down
        # beside its row: the rows above it are still empty, and the chips left
        # on the line are above the lane.
        walks: list[Animation] = []
        for position in reversed(self.positions):
            chip = self.chips[position[-1]]
            home = self.chip_homes[position[-1]]
            lane = home[1] - _LANE_RISE
            target = chip.copy().scale(self.chip_scale).set_opacity(1.0)
            y = self.body_top + self.output.row_y[position] * self.token_scale
            target.move_to(xyz(label_left - 0.2 - target.width / 2, y))
            x = target.get_center()[0]
            up = chip.copy().set_opacity(1.0).move_to(xyz(home[0], lane))
            across = up.copy().move_to(xyz(x, lane))
            walks.append(
                Succession(
                    Transform(chip, up, run_time=0.2),
                    Transform(chip, across, run_time=0.4),
                    Transform(chip, target, run_time=0.4),
                )
            )
        # The matrix side clears first, so that the moving chips and rows
        # never pass over its labels. Two steps: "... adds a position vector to
        # each row:" clears the matrix and moves the token rows left, where the
        # position vectors will stand beside them; "one vector per position,
        # whatever token sits there." brings each token beside its position.
        return Steps(
            Succession(
                AnimationGroup(*[FadeOut(mobject) for mobject in leaving], run_time=0.5),
                AnimationGroup(*moves, FadeIn(self.headers[0]), run_time=1.0),
            ),
            Succession(*walks),
        )

    def beat_positions(self, beat: Beat) -> Animation:
        """Bring in the position vectors, their columns, and the rule that made them.

        One step per phrase: "Here P is sinusoidal:" brings in the block P,
        "column 2i holds sin(...) and column 2i+1 its cosine," its column
        numbers, the rule and the values, and "so row 0 is 0, 1, 0." outlines
        row 0. A learned P has two phrases: the block with its size note, then
        its values.
        """
        numbers = [n for row in self.pe_numbers.values() for n in row]
        block = AnimationGroup(FadeIn(self.pe_block), FadeIn(self.headers[1]), FadeIn(self.plus))
        rule = AnimationGroup(
            FadeIn(self.pe_col_labels),
            LaggedStart(*[FadeIn(n) for n in numbers], lag_ratio=0.05),
            FadeIn(self.formula, shift=0.2 * UP),
        )
        if len(beat.phrases) < 2:
            return AnimationGroup(block, rule)
        if len(beat.phrases) < 3:
            # A learned P: "Here P is learned: a second table ... up to 16," brings
            # the block and its size note, "starting random like E ..." its values.
            values = AnimationGroup(
                FadeIn(self.pe_col_labels),
                LaggedStart(*[FadeIn(n) for n in numbers], lag_ratio=0.05),
            )
            return Steps(AnimationGroup(block, FadeIn(self.formula, shift=0.2 * UP)), values)
        self.first_row_box = _row_box(self.pe_block, self.positions[0], self.theme.accent)
        return Steps(block, rule, Create(self.first_row_box))

    def beat_add(self, beat: Beat) -> Animation:
        """Add row by row, worked out under the sum block, each sum rising into place.

        For each position the token row and the position row are outlined and
        written under the sum block, column over column, with their sum under
        a rule: the token vector and the sum it becomes stand together for a
        moment. Then the addends clear and the sum rises, as one strip, into
        its row; the rows below it are still empty, so it crosses no number.
        """
        theme = self.theme
        assert self.output is not None
        token_rows: dict[tuple[int, ...], list[NumberText]] = {}
        for number in self.token_numbers:
            token_rows.setdefault(number.cell.index[:-1], []).append(number)
        cell_h = self.metrics2.cell_height
        body = self.sum_block.body
        work_top = body.get_bottom()[1] - _WORK_GAP
        work_y = [work_top - (k + 0.5) * cell_h for k in range(3)]
        name_right = body.get_left()[0] - 0.15
        small = self.metrics2.font_size * 0.8
        rule_y = work_top - 2 * cell_h
        leaving = [FadeOut(self.first_row_box)] if self.first_row_box is not None else []
        steps: list[Animation] = [
            AnimationGroup(
                FadeIn(self.sum_block), FadeIn(self.headers[2]), FadeIn(self.equals), *leaving
            )
        ]
        for position in self.positions:
            chip = self.chips[position[-1]]
            tokens = sorted(token_rows[position], key=lambda n: n.cell.index)
            sums = self.sum_numbers[position]
            dy = work_y[0] - (body.get_top()[1] + self.sum_block.row_y[position])
            rows = [
                VGroup(
                    *[self.sum_block.make_cell(n.cell).shift(xyz(0, dy + k * -cell_h)) for n in row]
                )
                for k, row in enumerate((tokens, self.pe_numbers[position]))
            ]
            row_marks = self.sum_marks.get(position, [])
            for k, row_group in enumerate(rows):
                row_group.add(*[m.copy().shift(xyz(0, dy - k * cell_h)) for m in row_marks])
            worked: list[VMobject] = [
                n.copy().shift(xyz(0, dy - 2 * cell_h)) for n in [*sums, *row_marks]
            ]
            position_cell = self.cells[("position", position)]
            names = VGroup(
                mono_line(["E[", chip.number.cell, "]"], small, [theme.output] * 3),
                mono_line(["+ P[", position_cell, "]"], small, [theme.accent] * 3),
                LabelText("=", small, theme.text),
            )
            for name, y in zip(names, work_y, strict=True):
                name.move_to(xyz(0, y)).align_to(xyz(name_right, 0), RIGHT)
            rule = Line(xyz(body.get_left()[0], rule_y), xyz(body.get_right()[0], rule_y))
            rule.set_stroke(theme.text, width=2)
            boxes = [
                _row_box(self.output, position, theme.output),
                _row_box(self.pe_block, position, theme.accent),
            ]
            addends = [*boxes, *rows, names[0], names[1]]
            steps += [
                AnimationGroup(*[FadeIn(m) for m in addends]),
                AnimationGroup(FadeIn(rule), FadeIn(names[2]), *[FadeIn(n) for n in worked]),
                Wait(run_time=0.4),
                make_fade_out_later([*addends, rule, names[2]], run_time=0.4),
                make_carry_numbers_animation(
                    worked, [*sums, *row_marks], (), theme, take=True, run_time=0.9
                ),
            ]
        added = Succession(*steps)
        if len(beat.phrases) < 2:
            return added
        # "these sums are what the model's next layers receive.": the
        # finished sums are circled (a quarter of the beat's motion time).
        received = Circumscribe(
            self.sum_block.body, color=theme.highlight, run_time=added.get_run_time() / 3
        )
        return Steps(added, received)

    def beat_differ(self, beat: Beat) -> Animation:
        """Outline the two rows in every block: same tokens, different sums."""
        theme = self.theme
        assert self.output is not None
        first, second = self._pair(beat)
        boxes = [
            _row_box(block, position, colour)
            for block, colour in (
                (self.output, theme.muted),
                (self.pe_block, theme.highlight),
                (self.sum_block, theme.highlight),
            )
            for position in (first, second)
        ]
        note = SansText(self.word("different"), _HEADER_FONT, theme.highlight)
        note.next_to(self.sum_block.body, DOWN, buff=0.3).align_to(self.sum_block.body, RIGHT)
        outlined = AnimationGroup(*[FadeIn(box) for box in boxes])
        if len(beat.phrases) < 2:
            return AnimationGroup(outlined, FadeIn(note, shift=0.2 * UP))
        # "... same token row, different position rows." outlines the rows;
        # "The two copies of ID 2 are no longer equal." writes the verdict.
        return Steps(outlined, FadeIn(note, shift=0.2 * UP))
