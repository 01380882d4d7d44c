"""The batch layout (BatchLookup): E, a B × T block of chips, and B slices, all in view.

A thin composition of parts (:mod:`embedviz.render.parts.batch`) placed by
:func:`~embedviz.render.solve_batch.solve_batch`: E
(:class:`~embedviz.render.parts.lookup.MatrixPart`; beat ``dim``), the chips
(:class:`BatchChips`; ``axes``), the slices (:class:`SliceStack`;
``predict``, ``reveal``, ``shape``) and the thread of motion
(:class:`BatchMotion`; ``lookup``, and ``lookup_many`` within a slice). The
stage plays the beats that use several parts: ``intro``, a new slice's
first lookups, and ``repeats``.
"""

from __future__ import annotations

from dataclasses import replace

from manim import (
    Animation,
    Group,
    Succession,
    VGroup,
    config,
)

from embedviz.render.animations import Steps, beat_steps, make_reveal_animation
from embedviz.render.batch_close import all_in, keep_parted
from embedviz.render.batch_finale import keep_input, repeats, shape_below
from embedviz.render.batch_legend import give_way, legend_beside
from embedviz.render.batch_opening import opening_members, plan_opening, reveal
from embedviz.render.batch_plan import MARK_LINE, BatchPlan, BatchSpec, batch_spec
from embedviz.render.batch_routes import fill_order
from embedviz.render.batch_under import marks_under, rings_off
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import APART, MARGIN, SPACE
from embedviz.render.glyphs import SansText
from embedviz.render.metrics import digit_height, text_width, xyz
from embedviz.render.parts.batch import BatchChips, SliceStack
from embedviz.render.parts.batch_focus import focus
from embedviz.render.parts.batch_fold import step_aside
from embedviz.render.parts.batch_motion import BatchMotion
from embedviz.render.parts.batch_room import room_opening, room_rule
from embedviz.render.parts.batch_rule import (
    BatchRule,
    place_rule,
    stand_legend_upright,
)
from embedviz.render.parts.batch_spread import choose_spread
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.resting import rest_across
from embedviz.render.rests import Rests
from embedviz.render.routes import source_centres
from embedviz.render.solve_batch import notes_size, solve_batch
from embedviz.render.space import (
    EMPTY_SHARE,
    Emptiness,
    best_drop,
    best_slide,
)
from embedviz.render.stage import Stage, register_stage
from embedviz.story.model import Beat, NumberCell

__all__ = ["BatchStage"]


@register_stage
class BatchStage(Stage):
    """Chips over E | walking column | slices | tags, row numbers, edges.

    Parts: :class:`MatrixPart` (``dim``), :class:`BatchChips` (``axes``),
    :class:`SliceStack` (``predict``, ``reveal``, ``shape``) and
    :class:`BatchMotion` (``lookup``).
    """

    layout = "batch"

    plan: BatchPlan
    matrix: MatrixPart
    chips: BatchChips
    stack: SliceStack
    motion: BatchMotion
    # How much further E rises as the marks under it come (batch_under.marks_under).
    under_rise: float
    # Whether the input and E stay to the end, the marks under the slices (batch_finale.py).
    keeps_input: bool
    marks_below: VGroup

    def build(self) -> None:
        """Solve and build; keep the input where E rose for the marks (:func:`keep_input`)."""
        self._build(batch_spec(self.board))
        self.marks_below = VGroup()
        keep_input(self)

    def _build(self, spec: BatchSpec) -> None:
        """Solve the layout for ``spec`` and build every part in its place."""
        plan = solve_batch(spec)
        self.plan = plan
        self.title = SansText(self.board.title, plan.title_font, self.theme.text)
        self.title.move_to(xyz(plan.title_x, plan.title_y))
        args = (self.scene, self.board, self.cells, plan, self.theme)
        self.matrix = self.add_part(MatrixPart(*args))
        if plan.col_gap_y is not None:
            for label in self.matrix.grid.col_gap_labels.values():
                label.move_to(xyz(0, plan.col_gap_y - label.height / 2))
                label.align_to(self.matrix.heading, xyz(-1, 0))
        self.chips = self.add_part(BatchChips(*args))
        self.stack = self.add_part(SliceStack(*args))
        self.motion = self.add_part(self._motion(plan))
        # Slices whose header stands (every body stands from the reveal).
        self.shown = {0}
        self.notes_h = 0.0
        self._rest(spec)
        # The rule's card (placed last, clear of everything else: parts/batch_rule.py).
        self.rule: BatchRule | None = None
        upright = self.upright = stand_legend_upright(self)
        # Under GPT-2's short slices, the room the upright legend left (parts/batch_room.py).
        self.rule = room_rule(self)
        # How far E rises into the block's place once its last chip has gone; where that
        # leaves too much empty, how far the stack rises and its slices move apart then.
        self.spread = (0.0, 0.0)
        # Where the stack stands spread from the start (up, gap), if it does.
        self.early: tuple[float, float] | None = None
        # A legend upright beside the tags stands where a spread stack's B brace would reach.
        self.rise = self._rise(spec, spread=not upright)
        self._spread_early(spec)
        self._marks_in_block(spec)
        if not upright and legend_beside(self):
            # E's rise again, with the column filled (the marks keep their band over E).
            self.rise = self._rise(spec, spread=False)
            self._marks_in_block(spec)
        marks_under(self)
        # Where the block of chips stands while only the intro shows (home, or further left).
        block = [self.chips.slots, *self.chips.chips]
        self.block_rest = Rests({"block": block, "opening": opening_members(self)})
        self._rest_block()
        # E and the block drawn large until the reveal (batch_opening), if that gains.
        self.opening = plan_opening(self)
        # Under GPT-2's short slices the panel reaches over the card's room until the reveal.
        self.opening = room_opening(self)
        self.rule = self.rule or place_rule(self)

    def _motion(self, plan: BatchPlan) -> BatchMotion:
        """Return the thread of motion between E, the block of chips and the stack."""
        return BatchMotion(
            self.scene, self.theme, plan, self.matrix, self.stack, self.chips, self.cells
        )

    def _spread_order(self, spec: BatchSpec, up: float, gap: float) -> tuple[int, ...] | None:
        """Return the order rows fill in with the stack spread from the start, or None.

        None where some strip would cross a filled row or a header then
        (:func:`~embedviz.render.batch_routes.fill_order`, ``beside`` paths
        only: the corridor's strips take its own way).
        """
        plan = self.plan
        if plan.mode != "beside":
            return None
        row = plan.sizes.row_height
        keys, centres, _ = source_centres(spec, plan.sizes)
        # Rows down from E's top; the d edge stands in slice 0's header band (no band).
        top = (plan.matrix_top - plan.slice_tops[0] - plan.header_h - up) / row
        sources = tuple(centres[k] / row for k in keys)
        header, batch, length = plan.header_h / row, spec.batch, spec.length
        return fill_order(sources, top, header, 0.0, batch, length, gap / row)

    def _spread_early(self, spec: BatchSpec) -> None:
        """Stand a short stack spread down the frame from the start (``early``, :meth:`_rise`).

        A stack that spread only once every row was in stood compact until
        then, level with E under the block of chips: three sequences of one
        ID left the frame's top right empty over it from the intro to the
        second lookup (21.9 % and 22.3 % of the frame). Where a spread keeps
        every strip's path clear (and leaves no more than an eighth empty once
        E has risen), the slices stand there from the intro and the empty
        panel spans them; the last lookup raises E and glides the slices on to
        the unconstrained spread where that fills the frame better.
        """
        if self.early is None:
            return
        up, gap = self.early
        order = self._spread_order(spec, up, gap)
        assert order is not None
        plan = self.plan
        moves = [up - gap * b for b in range(spec.batch)]
        self.plan = plan = replace(
            plan,
            slice_tops=tuple(t + m for t, m in zip(plan.slice_tops, moves, strict=True)),
            edge_d_y=plan.edge_d_y + up,
            output_top=plan.output_top + up,
            output_heading_y=plan.output_heading_y + up,
            order=order,
        )
        old = (self.stack, self.motion)
        self.stack = SliceStack(self.scene, self.board, self.cells, plan, self.theme)
        self.motion = self._motion(plan)
        new = {id(old[0]): self.stack, id(old[1]): self.motion}
        self.parts = [new.get(id(part), part) for part in self.parts]
        # The notes come under the last slice where it stands.
        self.stack.notes_drop = moves[-1]

    def _block(self) -> VGroup:
        """Return the block of chips with its edges (its place over E)."""
        chips = self.chips
        return VGroup(chips.slots, chips.batch_label, chips.length_label)

    def _rise(self, spec: BatchSpec, spread: bool = True) -> float:
        """Return how far E rises once every row is in: where it leaves the least empty.

        The block keeps the input's shape (each place's outline) through the
        lookups and gives way as E rises into its place, as soon as every row
        is in (:func:`~embedviz.render.batch_close.all_in`; in twentieths of the block's
        height, where the largest empty area is smallest), and the marks take
        the band left above E (:meth:`_marks_in_block`).
        """
        parts = (self.matrix.grid, self.matrix.heading, self.matrix.note)
        matrix = [m for m in parts if m is not None]
        above = float(self._block().get_top()[1] - Group(*matrix).get_top()[1])
        # The marks' lines keep their band over E (where they fit in the block at all).
        marks = len(self._marks()) * digit_height(self.stack.mark_font) * MARK_LINE
        if marks + SPACE < above:
            above -= marks + SPACE
        if above <= 0:
            return 0.0
        stack = self.stack
        fixed = [*stack.slices, *stack.headers, *stack.row_numbers]
        fixed += [stack.edge_d, stack.edge_t, stack.edge_b]
        fixed += [m for m in (self.matrix.legend,) if m is not None]
        fixed += [self.rule.card] if self.rule is not None else []
        frame = float(config.frame_width * config.frame_height)
        drops = [-above * step / 20 for step in range(21)]
        band = content_band(self.title)
        moving = mobject_boxes(matrix)
        drop, empty = best_drop(mobject_boxes(fixed), moving, band, drops, frame)
        # (Marks stand in the notes, where a spread would move them, unless over E.)
        marks = bool(self._marks()) and not self.plan.marks_over
        if empty.area <= EMPTY_SHARE * frame or marks or not spread:
            return -drop
        # A short stack: it spreads down the band as E rises (parts/batch_spread.py).
        legend = mobject_boxes([m for m in (self.matrix.legend,) if m is not None])
        late = choose_spread(stack, legend, moving, band, drops, frame)
        assert late is not None
        if late[0] >= empty.area:
            return -drop
        # Spread from the start where the strips' paths allow it and it fills the frame.
        early = choose_spread(
            stack,
            legend,
            moving,
            band,
            drops,
            frame,
            clear=lambda up, gap: self._spread_order(spec, up, gap) is not None,
        )
        if early is not None and early[0] <= EMPTY_SHARE * frame:
            self.early = (early[2], early[3])
            if early[0] <= late[0]:
                return early[1]
        # The last lookup glides the stack from where it stands to the late spread.
        start = self.early or (0.0, 0.0)
        self.spread = (late[2] - start[0], late[3] - start[1])
        return late[1]

    def _marks_in_block(self, spec: BatchSpec) -> None:
        """Give the marks the block's place over E (empty once every chip has gone), if they fit.

        The place runs from the frame's margin to the block's right end and
        from its T edge down to E's top once E has risen (the marks' lines need
        room left of the slices too: :meth:`SliceStack.write_marks` checks it
        when they come). Marks taller than that, which would otherwise stand
        in the notes with no lines, take the band up to their ceiling too.
        """
        marks = self._marks()
        self.stack.marks_box = self.stack.marks_ceiling = None
        if not marks:
            return
        block = self._block()
        parts = (self.matrix.grid, self.matrix.heading, self.matrix.note)
        matrix = Group(*[m for m in parts if m is not None])
        left = -float(config.frame_width) / 2 + MARGIN
        right = float(block.get_right()[0])
        bottom, top = float(matrix.get_top()[1]) + self.rise + SPACE, float(block.get_top()[1])
        width = max(text_width(c.text, self.stack.mark_font) for c in marks)
        height = len(marks) * digit_height(self.stack.mark_font) * MARK_LINE
        # A mark may stand level with its first copy's row up to the title's band,
        # APART under it and under a legend over the place.
        ceiling = content_band(self.title)[3] - APART
        legend = self.matrix.legend
        over = legend is not None and float(legend.get_left()[0]) < right
        if legend is not None and over and float(legend.get_bottom()[1]) >= top:
            ceiling = min(ceiling, float(legend.get_bottom()[1]) - APART)
        # Else the marks would stand in the notes, with no lines to their rows: the place
        # reaches up to the ceiling for them (five marks 14.3 SPACE tall, the block 13.8).
        beside = self.notes_h > 0 or self.plan.marks == "right"
        low = legend is not None and over and float(legend.get_bottom()[1]) < top
        if height > top - bottom and not (beside or low):
            top = max(top, ceiling)
        if width + 2 * SPACE <= right - left and height <= top - bottom + 1e-9:
            self.stack.marks_box = (left, right, bottom, top)
            self.stack.marks_ceiling = ceiling

    def _rest_block(self) -> None:
        """Stand the block of chips further left for the intro, if its home leaves too much empty.

        The block's home is the right end of the band over E, its B edge (named
        in the ``batch`` beat) standing left of it. While only the intro shows, a
        short batch's block (3 × 2) left that edge's place and the band over it
        empty (13.6 % of the frame); the block then stands up to the edge's
        width further left (in twentieths, where the largest empty area is
        smallest), and glides home as the ``batch`` beat begins, before its
        edges are named (:meth:`beat_axes`). Where that still leaves too much
        empty (four sequences of one ID: 12.7 %, the column right of the panel
        and the band left of the block), the panel spans the edges' place too
        and the block may stand anywhere over E.
        """
        frame = float(config.frame_width * config.frame_height)
        if self._intro_slide([0.0])[1].area <= EMPTY_SHARE * frame:
            return
        chips = self.chips
        room = float(chips.slots.get_left()[0] - chips.batch_label.get_left()[0])
        slide, empty = self._intro_slide([room * step / 20 for step in range(21)])
        if empty.area > EMPTY_SHARE * frame:
            panel = self.stack.placeholder
            width, left = float(panel.width), float(panel.get_left()[0])
            self.stack.span_edges()
            grid = self.matrix.grid
            far = max(room, float(chips.slots.get_left()[0] - grid.get_left()[0]))
            wide = self._intro_slide([far * step / 20 for step in range(21)])
            if wide[1].area < empty.area:
                slide, empty = wide
            else:
                panel.stretch_to_fit_width(width).align_to(xyz(left, 0), xyz(-1, 0))
        if slide > 0:
            x, y, _ = self.block_rest.centres["block"]
            self.block_rest.put({"block": (1.0, float(x) - slide, float(y))})

    def _intro_slide(self, slides: list[float]) -> tuple[float, Emptiness]:
        """Return the slide left of the block of chips that leaves the intro least empty."""
        block = [self.chips.slots, *self.chips.chips]
        members = {id(m) for m in block}
        shown = [m for m in self.intro_mobjects() if m is not self.title and id(m) not in members]
        frame = float(config.frame_width * config.frame_height)
        band = content_band(self.title)
        return best_slide(mobject_boxes(shown), mobject_boxes(block), band, slides, frame)

    def _marks(self) -> list[NumberCell]:
        """Return the equality marks the last beat shows."""
        return [c for c in self.board.beats[-1].numbers if c.kind == "equal_to"]

    def _rest(self, spec: BatchSpec) -> None:
        """Rest the slices beside E between lookups, if the notes then fit right of them.

        The corridor stands empty but while strips travel: the stack rests
        left (and E right, as far as leaves the least empty), gliding apart
        once for the run of lookup beats (:mod:`~embedviz.render.batch_close`).
        Once every row is in, the stack closes up to E, and the notes (the
        shape, the marks) stand right of the stack, where E's rest left room.
        """
        slide = self.plan.rest_slide
        if slide <= 0:
            return
        width, self.notes_h = notes_size(spec, self.plan.scale)
        edges = (self.stack.edge_t, self.stack.edge_b)
        right = max(float(edge.get_right()[0]) for edge in edges) - slide
        if right + 2 * SPACE + width > float(config.frame_width) / 2 - MARGIN:
            return
        # The panel holds the output's whole place, where the stack will rest.
        self.stack.span_edges()
        rest_across(self.motion, self.title)
        keep_parted(self)

    def animate(self, beat: Beat) -> Animation:
        """Play the beat; the rings round the marked rows go with the next one's first phrase."""
        played = self._animate(beat)
        played = played if self.rule is None else self.rule.wrap(beat, played)
        return rings_off(self.stack, played, beat)

    def _animate(self, beat: Beat) -> Animation:
        """Play the beat; the first once every row is in closes E and the stack up on the left.

        The beat that lands the last row ends with E rising into the block's
        place, as the block gives way.
        """
        done = len(self.motion.filled) == len(self.stack.positions)
        if beat.action in ("lookup", "lookup_many") and not done:
            filled = set(self.motion.filled)
            played = focus(self.stack, filled, super().animate(beat), beat)
            # The empty slices the copies would cross fold while they pass (batch_fold).
            played = step_aside(self.stack, self.motion, filled, played, beat)
            played = give_way(self, filled, played, beat)
            if len(self.motion.filled) < len(self.stack.positions):
                return played
            return all_in(self, played)
        if beat.action in ("lookup", "lookup_many") or not self.notes_h or not done:
            return super().animate(beat)
        closing = self.motion.close_left()
        # The notes go right of the stack where the glide leaves it.
        left = self.motion.matrix_slide_closed
        self.stack.notes_at = self.stack.notes_right(self.notes_h) - xyz(left, 0)
        self.notes_h = 0.0
        first, *rest = beat_steps(super().animate(beat))  # Closing, with the first phrase.
        if closing is not None:
            # The rings and the rows' letters were set round the rows where they stood;
            # they come once the stack has closed up (the 3 x 6 batch's rings stood a
            # slide right of their rows).
            self.stack.rings.shift(xyz(-left, 0))
            self.stack.row_badges.shift(xyz(-left, 0))
        return Steps(first if closing is None else Succession(closing, first), *rest)

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, E with its heading and legend, and the batch of chips."""
        return make_reveal_animation(self.intro_mobjects())

    def beat_axes(self, beat: Beat) -> Animation:
        """Name the batch's axes; a block that stood further left for the intro goes home first.

        The glide plays with the beat's first phrase (the input is now a
        batch), the edges with its second (its shape is B × T).
        """
        named = self.chips.beat_axes(beat)
        settle = self.block_rest.settle(self.opening.places)
        return named if settle is None else Steps(settle, named)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Reveal the slices; E and the block, drawn large in the opening, settle home first."""
        return reveal(self, beat)

    def beat_lookup_many(self, beat: Beat) -> Animation:
        """Look up the rest of a sequence together; a new sequence's header appears first."""
        assert beat.output is not None
        fresh = [p for p in beat.output.filled if p not in self.motion.filled]
        slices = sorted({p[0] for p in fresh} - self.shown)
        self.shown |= set(slices)
        headers = self.motion.parted([self.stack.headers[b] for b in slices])
        rest = self.motion.beat_lookup_many(beat)
        return Steps(make_reveal_animation(headers), rest) if slices else rest

    def beat_repeats(self, beat: Beat) -> Animation:
        """Point at every repeated ID's tags; then write the marks of the rows they made equal."""
        return repeats(self, beat)

    def beat_shape(self, beat: Beat) -> Animation:
        """Write the output's shape: beside the marks where the input stays, else the stack's."""
        return shape_below(self, beat) if self.keeps_input else self.stack.beat_shape(beat)
