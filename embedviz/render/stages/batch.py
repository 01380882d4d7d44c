"""The batch layout: the matrix, a B x T block of chips, and B output slices.

Used by BatchLookup. The matrix sits on the left as in the lookup layout; the
input batch is drawn top right as B rows of chips, and the output below it
as B stacked T x d slices (one or two columns of them, whichever gives the
larger numbers). Grid and slices share one font size, chosen as the largest
at which everything fits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Brace,
    FadeIn,
    FadeOut,
    Line,
    Mobject,
    Rectangle,
    Succession,
    Transform,
    VGroup,
    VMobject,
)

from embedviz.render.animations import (
    make_copy_row_animation,
    make_reveal_animation,
)
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.layout import (
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
    MatrixGrid,
    OutputBlock,
    ShapeLabel,
    TokenChip,
    char_advance,
    digit_height,
    grid_metrics_at,
    grid_width_per_font,
    xyz,
)
from embedviz.render.stage import register_stage
from embedviz.render.stages.lookup import LookupStage
from embedviz.render.theme import Theme
from embedviz.story.model import Beat

__all__ = ["BatchStage", "make_batch_lookup_animation"]

# Chips travel along this lane, above the batch block.
_LANE_Y = 3.1
# Chips shrink for three or more sequences, to leave the slices more height.
_CHIP_FONT = 20
_SMALL_CHIP_FONT = 16
_CHIP_GAP = 0.12  # between chips, both ways
_LABEL_FONT = 18
_BRACE_DEPTH = 0.18
_MIN_FONT = 8.0
# Each card stands this far right of the card in front of it (and one header band up).
_CARD_DX = 0.3
# The opacity of the numbers on cards behind the front one.
_BEHIND = 0.3
# The column between the corridor and the front card, for the T brace.
_AXIS_W = 0.36


def _move(
    mobject: VMobject, point: np.ndarray, run_time: float, opacity: float | None = None
) -> Animation:
    """Move to an absolute point (and fade); safe to chain on one mobject."""
    target = mobject.copy().move_to(point)
    if opacity is not None:
        target.set_opacity(opacity)
    return Transform(mobject, target, run_time=run_time)


def _changed(mobject: Mobject, change: Callable[[Mobject], object]) -> Animation:
    """Animate ``mobject`` into a copy of itself that ``change`` altered."""
    target = mobject.copy()
    change(target)
    return Transform(mobject, target)


def make_batch_lookup_animation(
    chip: TokenChip,
    home: np.ndarray,
    lane_y: float,
    grid: MatrixGrid,
    row: int,
    targets: Sequence[NumberText],
    theme: Theme,
    route: Sequence[np.ndarray] = (),
    provenance: Sequence[VMobject] = (),
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
    route
        Waypoints of the copied strip (see :func:`make_copy_row_animation`).
    provenance
        Tags that fade in beside the landed row as the chip goes home.

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
        make_copy_row_animation(grid, row, targets, route, theme, keep_marks=bool(route)),
        AnimationGroup(back, FadeOut(box), *[FadeIn(tag) for tag in provenance]),
    )


@register_stage
class BatchStage(LookupStage):
    """The matrix, the batch as B rows of chips, and B output slices as stacked cards.

    Slice ``b`` is a card; later slices stand in front of earlier ones, each
    offset down and left by one header band, so the B × T × d result reads as
    a block with depth: B along the diagonal, T down the front card's left
    edge, d along its bottom. A copied row leaves its grid row to the right,
    moves up or down in an empty corridor and slides into the front card
    from the left, so it crosses nothing.
    """

    layout = "batch"

    def build(self) -> None:
        """Lay out the grid, the batch block, the corridor and the stack of slices."""
        board, theme, cells = self.board, self.theme, self.cells
        final = board.beats[-1]
        assert final.output is not None
        self.batch, self.length, self.dim = final.output.shape
        window = board.beats[0].window
        frame = frame_regions()
        self.tags = {}
        self.route_x = None
        self.travel_lane_y = None
        self.shape_label = None

        self._build_chips()
        self.batch_label, self.length_label = self._build_axis_labels()
        stack_top = self.chip_block.get_bottom()[1] - 0.3

        size_cells = [cells[("table_size", (axis,))] for axis in (0, 1)]
        self.grid_title = VGroup(
            SansText("embedding matrix E", HEADING_FONT, theme.muted),
            ShapeLabel(size_cells, HEADING_FONT, theme.muted),
        ).arrange(RIGHT, buff=0.25)
        legend_cells = [cells[key] for key in sorted(cells) if key[0] == "legend"]
        self.legend: ColourLegend | None = None
        if legend_cells:
            self.legend = ColourLegend(legend_cells, NOTE_FONT, theme)
            place_legend(self.legend)

        value_chars = max(len(c.text) for c in cells.values() if c.kind in ("weight", "output"))
        row_chars = max(2, *(len(c.text) for c in cells.values() if c.kind == "row_label"))

        def widest(kind: str) -> int:
            return max([len(c.text) for c in cells.values() if c.kind == kind] or [0])

        label_chars = widest("position") + widest("output_id") + widest("equal_to")
        lines = len(window.rows) + GAP_ROW_PITCH * len(window.row_gaps)
        lane = self._chip_lane_width()
        per_font_w = grid_width_per_font(value_chars, len(window.cols), len(window.col_gaps))
        label_per_font = char_advance(1.0) * LABEL_RATIO
        header = digit_height(_LABEL_FONT) + 0.16
        axis_w = _AXIS_W
        stack_bottom = frame.legend_top - SPACE - 0.4  # room for the d label below
        grid_top = self.grid_title_y() - 0.25
        font = MAX_NUMBER_FONT
        while font > _MIN_FONT:
            metrics = grid_metrics_at(font, value_chars)
            body_w = per_font_w * font
            card_w = body_w + label_per_font * font * label_chars + 0.15
            width = (
                lane
                + label_per_font * font * row_chars
                + 0.2
                + body_w
                + 2 * CORRIDOR_MARGIN
                + body_w
                + axis_w
                + card_w
                + (self.batch - 1) * _CARD_DX
            )
            height = header * self.batch + self.length * metrics.cell_height
            grid_h = metrics.cell_height * (lines + 0.75)
            if (
                width <= frame.right - frame.left
                and stack_top - height >= stack_bottom
                and grid_top - grid_h >= frame.legend_top - SPACE
            ):
                break
            font -= 0.25
        # The estimate above is rough (tags and marks have padding): start a little
        # above it and shrink until the stack really fits.
        font = min(MAX_NUMBER_FONT, font + 1.0)
        while True:
            self._layout_at(font, value_chars, lane, row_chars, grid_top, stack_top, header)
            if self.output_group.get_right()[0] <= frame.right or font <= _MIN_FONT:
                break
            font -= 0.25
        self._place_batch_block(frame.right)
        self.lane_y = _LANE_Y
        self.landed: set[tuple[int, ...]] = set()
        self._landed_texts: list[NumberText] = []

    def _layout_at(
        self,
        font: float,
        value_chars: int,
        lane: float,
        row_chars: int,
        grid_top: float,
        stack_top: float,
        header: float,
    ) -> None:
        """Build the grid and the stack of cards at one font size."""
        board, theme, cells = self.board, self.theme, self.cells
        window = board.beats[0].window
        frame = frame_regions()
        axis_w = _AXIS_W
        metrics = grid_metrics_at(font, value_chars)
        self.metrics = metrics
        scale = board.value_scale
        self.grid = MatrixGrid(window, list(cells.values()), metrics, theme, scale)
        body_w = self.grid.width_of_body
        row_label_w = char_advance(font * LABEL_RATIO) * row_chars
        body_left = frame.left + lane + row_label_w + 0.2
        self.grid.shift(
            xyz(body_left, grid_top - metrics.cell_height * 0.75)
            - self.grid.body.get_corner(UP + LEFT)
        )
        self.grid_title.move_to(xyz(0, self.grid_title_y())).align_to(self.grid.body, LEFT)
        self.route_x = body_left + body_w + CORRIDOR_MARGIN
        front_left = self.route_x + body_w + CORRIDOR_MARGIN + axis_w
        self._build_slices(front_left, stack_top, header)

    def grid_title_y(self) -> float:
        """Return the grid title's centre line: level with the lowest chip row."""
        return float(self.chip_block.get_bottom()[1] + 0.05)

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

    def _build_slices(self, front_left: float, stack_top: float, header: float) -> None:
        """Build the B cards: slice 0 at the back (top right), slice B-1 in front."""
        theme, by_key = self.theme, self.cells
        cells = list(by_key.values())
        window = self.board.beats[0].window
        self.slices: list[OutputBlock] = []
        self.cards: list[VGroup] = []
        self.card_texts: list[VGroup] = []
        depth = self.batch - 1
        all_tags: dict[tuple[int, ...], VGroup] = {}
        for b in range(self.batch):
            positions: list[tuple[int, ...]] = [(b, t) for t in range(self.length)]
            block = OutputBlock(
                positions,
                window,
                cells,
                self.metrics,
                theme,
                self.board.value_scale,
                labels_right=True,
            )
            back = depth - b
            top = stack_top - b * header - header
            block.shift(xyz(front_left + back * _CARD_DX, top) - block.body.get_corner(UP + LEFT))
            self.output = block
            self._build_tags(positions)
            all_tags.update(self.tags)
            self.tags = all_tags
            self.slices.append(block)
            title = VGroup(
                SansText("slice", _LABEL_FONT, theme.output),
                NumberText(by_key[("slice", (b,))], _LABEL_FONT, theme.output),
            ).arrange(RIGHT, buff=0.1)
            title.next_to(block.body, UP, buff=0.08).align_to(block.body, LEFT).shift(0.08 * RIGHT)
            self.card_texts.append(VGroup(title, block.labels))
            self.cards.append(VGroup(block, title))
        self.tags = all_tags
        self.output = None
        # Every card has the width of the widest (labels, tags and marks included).
        card_w = max(
            max([block.get_right()[0], *(t.get_right()[0] for t in self.card_tags(b))])
            - block.body.get_left()[0]
            for b, block in enumerate(self.slices)
        )
        for block, group in zip(self.slices, self.cards, strict=True):
            card = Rectangle(width=card_w + 0.1, height=block.body.height + header)
            card.set_fill(theme.background, opacity=1.0)
            card.set_stroke(theme.output, width=1.5, opacity=0.8)
            card.move_to(
                block.body.get_corner(UP + LEFT) + xyz(-0.06, header), aligned_edge=UP + LEFT
            )
            group.add_to_back(card)
        # Later cards stand in front: each card and what lands on it get their own depth.
        for b, group in enumerate(self.cards):
            group.set_z_index(2 * b + 1)
            for tag in self.card_tags(b):
                tag.set_z_index(2 * b + 2)
        front, back_card = self.cards[-1][0], self.cards[0][0]
        self.output_group = VGroup(*self.cards)
        # T down the front card's left edge, d along its bottom, B along the diagonal.
        body = self.slices[-1].body
        brace_t = Brace(body, direction=LEFT, buff=0.08, color=theme.muted)
        brace_t.stretch_to_fit_width(_BRACE_DEPTH).next_to(body, LEFT, buff=0.1)
        # B and T keep their numbers on the batch of chips; the block's edges name them.
        text_t = VGroup(LabelText("T", _LABEL_FONT, theme.muted))
        # The text sits below the card's corner, where no copied row passes.
        text_t.next_to(front, DOWN, buff=0.1).align_to(brace_t, RIGHT)
        brace_d = Brace(body, direction=DOWN, buff=0.06, color=theme.muted)
        brace_d.stretch_to_fit_height(_BRACE_DEPTH).next_to(front, DOWN, buff=0.06)
        brace_d.align_to(body, LEFT)
        text_d = VGroup(
            LabelText("d =", _LABEL_FONT, theme.muted),
            NumberText(by_key[("batch_dim", (2,))], _LABEL_FONT, theme.text),
        ).arrange(RIGHT, buff=0.1)
        text_d.next_to(brace_d, DOWN, buff=0.04)
        self.edge_t = VGroup(brace_t, text_t)
        self.edge_d = VGroup(brace_d, text_d)
        # Shown with the first card, at the back; they move forward with each new card.
        offset = xyz(depth * _CARD_DX, depth * header)
        self.edge_t.shift(offset)
        self.edge_d.shift(offset)
        self.card_step = xyz(-_CARD_DX, -header)
        start = front.get_corner(UP + LEFT) + xyz(-0.05, 0.05)
        end = back_card.get_corner(UP + LEFT) + xyz(-0.05, 0.05)
        diagonal = Line(start, end, color=theme.muted, stroke_width=2)
        text_b = VGroup(LabelText("B", _LABEL_FONT, theme.muted))
        text_b.next_to(end, LEFT, buff=0.12)
        self.edge_b = VGroup(diagonal, text_b)
        if self.batch == 1:
            self.edge_b = VGroup()
        self.dim_label = text_d

    def card_tags(self, b: int) -> list[VGroup]:
        """Return the provenance tags of slice ``b``'s rows (those the story gives)."""
        return [self.tags[(b, t)] for t in range(self.length) if (b, t) in self.tags]

    def _place_batch_block(self, right: float) -> None:
        """Centre the chips over the stack, clear of the grid title, inside the frame."""
        centre = self.output_group.get_center()[0]
        block = VGroup(self.chip_block, self.batch_label, self.length_label)
        shift = centre - self.chip_block.get_center()[0]
        min_left = self.grid_title.get_right()[0] + 0.3
        shift = max(shift, min_left - self.batch_label.get_left()[0])
        shift = min(
            shift, right - max(self.chip_block.get_right()[0], self.length_label.get_right()[0])
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
        """Ask for the output's shape where the stack will appear."""
        question = beat.label("question")
        self.question = LabelText(question, 24, self.theme.output)
        self.question.move_to(self.cards[-1])
        return FadeIn(self.question, shift=0.2 * DOWN)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Reveal the first card (slice 0, at the back) and the block's three edges."""
        leaving = [self.question] if hasattr(self, "question") else []
        appearing = [self.cards[0], self.edge_t, self.edge_d, *self.edge_b]
        if leaving:
            return Succession(make_reveal_animation([], leaving), make_reveal_animation(appearing))
        return make_reveal_animation(appearing)

    def _next_card(self, b: int) -> Animation:
        """Set slice ``b``'s card in front of the stack; the rows it hides leave."""
        # The card in front hides the rows of the one behind it; its header still shows.
        behind: list[Mobject] = [self.slices[b - 1].labels, *self.card_tags(b - 1)]
        behind += [t for t in self._landed_texts if t.cell.index[0] == b - 1]
        # The elision marks its strips left behind rest at that card's depth.
        depth = 2 * (b - 1) + 2
        behind += [
            m for m in self.scene.mobjects if isinstance(m, LabelText) and m.z_index == depth
        ]
        step = self.card_step
        return AnimationGroup(
            *[FadeOut(m) for m in behind],
            _changed(self.cards[b - 1][2], lambda t: t.set_opacity(_BEHIND)),
            FadeIn(self.cards[b], shift=-step),
            _changed(self.edge_t, lambda t: t.shift(step)),
            _changed(self.edge_d, lambda t: t.shift(step)),
        )

    def _lookup(self, position: tuple[int, ...]) -> Animation:
        b = position[0]
        chip = self.batch_chips[position]
        row = int(chip.number.cell.value)
        block = self.slices[b]
        cells = sorted(
            (c for c in self.cells.values() if c.kind == "output" and c.index[:-1] == position),
            key=lambda c: c.index,
        )
        targets = [block.make_cell(cell).set_z_index(2 * b + 2) for cell in cells]
        self.landed.add(position)
        self.scene.bring_to_front(chip)
        first = self.grid.row_cells(row)[0]
        start = first.get_center()
        x = self.route_x + (start[0] - self.grid.body.get_left()[0])
        route = [xyz(x, start[1]), xyz(x, targets[0].get_center()[1])] if self.route_x else []
        tag = self.tags.get(position)
        lookup = make_batch_lookup_animation(
            chip,
            self.batch_homes[position],
            self.lane_y,
            self.grid,
            row,
            targets,
            self.theme,
            route=route,
            provenance=[tag] if tag is not None else [],
        )
        self._landed_texts.extend(targets)
        if b > 0 and position[1] == 0:
            return Succession(self._next_card(b), lookup)
        return lookup

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
        """Write the output's shape, B × T × d, below the stack; d leaves its edge."""
        theme = self.theme
        sizes = sorted((c for c in beat.numbers if c.kind == "output_size"), key=lambda c: c.index)
        shape = ShapeLabel(sizes, HEADING_FONT, theme.output)
        title = SansText("output", HEADING_FONT, theme.output)
        label = VGroup(title, shape).arrange(RIGHT, buff=0.2)
        # Right of "d = ...", under the front card; above the stack if the legend is there.
        label.next_to(self.edge_d[1], RIGHT, buff=0.4)
        legend = self.legend
        if legend is not None and label.get_right()[0] > legend.get_left()[0] - 0.1:
            label.next_to(self.cards[0][0], UP, buff=0.08).align_to(self.cards[0][0], RIGHT)
        # d's number leaves the edge as the shape is written; the edges stay named.
        d_equals, d_number = self.edge_d[1]
        d_name = LabelText("d", _LABEL_FONT, theme.muted).move_to(d_equals, aligned_edge=LEFT)
        return AnimationGroup(
            Succession(FadeOut(d_number, run_time=0.4), FadeIn(label, shift=0.15 * UP)),
            Transform(d_equals, d_name),
        )
