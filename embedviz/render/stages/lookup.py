"""The lookup layout (SingleTokenLookup, SequenceLookup): matrix, output block, chips, print.

A thin composition of parts (:mod:`embedviz.render.parts.lookup`), placed by
the solver (:func:`embedviz.render.solver.solve_lookup`): every size and
place comes from the plan, every colour from the design system. Only beats
that need several parts at once are handled here.
"""

from __future__ import annotations

from dataclasses import replace

from manim import (
    Animation,
    AnimationGroup,
    Mobject,
    Succession,
    VGroup,
    config,
)

from embedviz.render.animations import Steps, beat_steps, make_reveal_animation
from embedviz.render.design import MARGIN, MIN_DATA_PX, SPACE, font_for_px
from embedviz.render.fades import FadeIn, OutlineIn, RingFlash
from embedviz.render.glyphs import SansText
from embedviz.render.metrics import xyz
from embedviz.render.pace import at_least
from embedviz.render.parts.early_rise import rise, rise_beat
from embedviz.render.parts.lane import LaneMotion
from embedviz.render.parts.lane_close import close_beat, close_step, lane_fading
from embedviz.render.parts.lookup import ChipColumn, MatrixPart, OutputPart
from embedviz.render.parts.motion import LookupMotion
from embedviz.render.parts.printed import PrintPart
from embedviz.render.parts.resting import hold_lookups, parted_through, rest_blocks
from embedviz.render.parts.rule_card import RuleCard, rule_places
from embedviz.render.parts.sentence import SETTLE_SECONDS, SentenceLine
from embedviz.render.solver import MAX_PITCH, LookupPlan, LookupSpec, solve_lookup
from embedviz.render.solver_still import caption_top
from embedviz.render.spec import late_marks
from embedviz.render.stage import Stage, register_stage
from embedviz.render.zoom import Zoom, moved_by, stage_close_up
from embedviz.story.layouts.lookup import rule_in_corridor
from embedviz.story.model import Beat, Storyboard

__all__ = ["LookupStage", "lane_unless_under_floor", "lookup_spec"]


def lookup_spec(board: Storyboard) -> LookupSpec:
    """Return what the lookup layout's frame holds, for the solver.

    The blocks rest together between lookups: marks that come last need room
    only there (:func:`~embedviz.render.spec.late_marks`). The marks name both
    rows (``out[9] = out[6]``): they are as large as the row numbers beside
    them, unless the legend's size gives the table larger numbers (a wide
    mark column binds the width): they are then notes at the legend's size.
    """
    spec = lane_unless_under_floor(
        replace(LookupSpec.from_board(board), late_marks=late_marks(board))
    )
    if not spec.mark_chars:
        return spec
    notes = replace(spec, mark_role="legend")
    larger = solve_lookup(notes).scale.data > solve_lookup(spec).scale.data * (1 + 1e-6)
    return notes if larger else spec


def lane_unless_under_floor(spec: LookupSpec) -> LookupSpec:
    """Return ``spec`` with the chips waiting over E, unless that costs a floor or a still block.

    A sentence's chips wait in a row over E (:mod:`~embedviz.render.solver_lane`),
    so that none walks to E through its still-empty output row; the row and its
    travel band cost two chips' height. The chips wait beside the output rows
    they fill instead where the lane takes the numbers under the real-size
    floor (:data:`~embedviz.render.design.MIN_DATA_PX`) they reach without it
    (MiniLM's "The quick brown fox jumps over the lazy dog near", its E window
    tall with hidden ranges: 18.4 px would fall to 17.0 px, 17.4 px with no air
    round the band), or where it loses a still block (a sentence too wide for
    the room over E has its lane over the raised block too: MiniLM's IDs with
    random weights would glide in the corridor).
    """
    if len(spec.sources) < 2:
        return spec
    laned = replace(spec, lane=True)
    with_lane, without = solve_lookup(laned), solve_lookup(spec)
    floor = font_for_px(MIN_DATA_PX)
    under = without.scale.data >= floor > with_lane.scale.data
    unstill = without.legend_upright > 0 and with_lane.legend_upright <= 0
    return spec if under or unstill else laned


@register_stage
class LookupStage(Stage):
    """E | walking column | output | chips, and the PyTorch print under them when there is one.

    Parts: :class:`MatrixPart` (``count_rows``, ``dim``), :class:`OutputPart`
    (``predict``, ``reveal``), :class:`ChipColumn`, :class:`LookupMotion`
    (``lookup``, ``lookup_many``) and :class:`PrintPart`. The stage handles
    ``intro``, ``predict`` (chips and question), ``dim`` (rows, then the
    output settles), ``shape`` and ``grad_fn`` (the print and the matrix row it
    shows); :class:`PrintPart` plays ``print``.
    """

    layout = "lookup"

    plan: LookupPlan
    matrix: MatrixPart
    output: OutputPart
    chips: ChipColumn
    motion: LookupMotion
    printed: PrintPart | None
    zoom: Zoom | None
    # The outline of the row of E a cue names ("The 3 numbers inside are row 3."), once drawn.
    named_row: Mobject | None = None
    # The reveal in which the block glides up for the run of lookups (``early_rise``).
    rises_in: str | None = None
    # The last lookup's beat, at whose end the emptied sentence lane closes (``lane_close``).
    closes_in: str | None = None
    # The lookup's rule beside the block while the storyboard shows it (``rule``).
    rule: RuleCard | None = None

    def build(self) -> None:
        """Solve the layout and build every part in its place."""
        spec = lookup_spec(self.board)
        plan = solve_lookup(spec)
        self.plan = plan
        self.title = SansText(self.board.title, plan.title_font, self.theme.text)
        self.title.move_to(xyz(plan.title_x, plan.title_y))
        args = (self.scene, self.board, self.cells, plan, self.theme)
        self.matrix = self.add_part(MatrixPart(*args))
        self.output = self.add_part(OutputPart(*args))
        if spec.mark_role == "legend":
            self.output.mark_font = plan.scale.legend
        self.chips = self.add_part(ChipColumn(*args))
        motion = LookupMotion if plan.lane is None else LaneMotion
        self.motion = self.add_part(
            motion(self.scene, self.theme, plan, self.matrix, self.output, self.chips, self.cells)
        )
        self.printed = None
        if self.board.printed is not None:
            left = plan.print_left
            if left is None:
                left = min(self.matrix.heading.get_left()[0], plan.matrix_left)
            self.printed = self.add_part(
                PrintPart(
                    self.scene,
                    self.board,
                    self.theme,
                    plan.print_font,
                    left,
                    plan.print_top,
                    wrap=plan.print_wrap,
                )
            )
        # The print counts from the start: the block must rest clear of it when it comes.
        printed = [self.printed.code, self.printed.printed] if self.printed else []
        rest_blocks(self.motion, self.board, self.title, printed)
        self.motion.stays_open = parted_through(self.motion, self.board)
        hold_lookups(self.motion, self.board)
        self.rises_in = rise_beat(self.motion, self.board)
        self.rule = self._rule_card()
        self.zoom = self._close_up()
        self.closes_in = close_beat(self.board, plan.lane is not None and self.zoom is None)
        if self.closes_in is not None:
            # The lane's close takes the block from where the lookups left it: one glide.
            self.motion.stays_open.add(self.closes_in)

    def _rule_card(self) -> RuleCard | None:
        """Return the rule's card, placed for each beat that shows it, or None when none does.

        Call it once the lookups are held and the reveal's rise is known: the
        block stands raised (``motion.lift`` over its rest) at the end of the
        rise and of every held beat, or at a lookup's level place.
        """
        shown = [b for b in self.board.beats if "rule" in b.labels]
        if not shown:
            return None
        motion, plan = self.motion, self.plan
        raised = motion.held | ({self.rises_in} if self.rises_in else set())
        lifts = {
            b.name: motion.places.get(b.name, motion.lift if b.name in raised else 0.0)
            for b in shown
        }
        # A block as tall as E leaves no room beside it: the card, as narrow as its
        # formula, stands in the corridor between them (the storyboard's record, which
        # the audio description reads too).
        corridor = rule_in_corridor(shown[0])
        width = 0.0 if corridor else motion.output.grid.width_of_body
        card = RuleCard(shown[0].label("rule"), self.theme, plan.scale.label, width, {})
        size = (card.width, card.make((0.0, 0.0)).height)
        card.places = rule_places(motion, self.board, self.title, lifts, size, corridor)
        return card

    def _close_up(self) -> Zoom | None:
        """Return a close-up of the blocks until the print comes, when it waits under them.

        The solver keeps a band under the blocks for the print, empty until
        the ``print`` beat: until then the blocks are drawn larger, filling
        the frame (their rows further apart when the width binds the scale),
        and that beat pulls back to make room.
        """
        if self.printed is None or self.plan.print_left is not None:
            return None
        shown: list[Mobject] = [*self.matrix.intro(), *self.chips.intro(), *self.printed.intro()]
        shown += self.motion.output_side()
        # A layout wider than the frame's shape leaves bands above and below it: its rows
        # (and all else) stand further apart there, at most as far as the solver's loosest.
        spread = MAX_PITCH / self.plan.sizes.pitch
        return stage_close_up(self.scene, self.title, shown, self.plan.scale.data, (), spread)

    def animate(self, beat: Beat) -> Animation:
        """Play the beat, the rule's card coming or going with it (:class:`RuleCard`)."""
        played = self._animate(beat)
        return played if self.rule is None else self.rule.wrap(beat, played)

    def _animate(self, beat: Beat) -> Animation:
        """Play the beat; under the close-up until the print, which pulls back first.

        The last lookup's beat fades the lane's heading as its last chip
        leaves and closes the emptied sentence lane as it ends
        (:mod:`~embedviz.render.parts.lane_close`): every later beat plays
        under that close-up.
        """
        if beat.name == self.closes_in:
            steps = lane_fading(self, beat_steps(Stage.animate(self, beat)))
            return Steps(*steps, close_step(self))
        zoom = self.zoom
        if zoom is None or zoom.factor == 1.0:
            return super().animate(beat)
        built: list[Animation] = []
        if beat.action == "print":
            # What the print shows comes after the pull-back, in the solved layout.
            with zoom.solved():
                first, *rest = beat_steps(super().animate(beat))
            return Steps(Succession(zoom.pull_back(), first), *rest)
        with zoom.solved(lambda: [m for a in built for m in moved_by(a)]):
            built.append(super().animate(beat))
        return zoom.wrap(built[0])

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the matrix with its legend, and the chips.

        A sentence's intro (chips in a lane, three phrases or more) shows them
        with its phrases: the word pieces as the sentence splits, the ID chips
        as the pieces are named, then E and the empty block as the matrix is.
        It held still about 19 s for MiniLM's sentence (issue 18).
        """
        if self.plan.lane is None or len(beat.phrases) < 3:
            return make_reveal_animation(self.intro_mobjects())
        pieces = list(self.chips.pieces)
        named = [self.chips.heading, *self.chips.chips]
        early = {id(m) for m in [self.title, *pieces, *named]}
        later = [m for m in self.intro_mobjects() if id(m) not in early]
        shown = make_reveal_animation(later)
        if not pieces:
            return Steps(make_reveal_animation([self.title]), make_reveal_animation(named), shown)
        # The pieces are read as the sentence while they are named and their IDs come,
        # then go beside their rows before E and the block come in where they passed.
        line = SentenceLine(pieces, self._middle())
        split = AnimationGroup(FadeIn(self.title), line.show())
        settled = at_least(Succession(line.settle(), shown), SETTLE_SECONDS)
        return Steps(split, make_reveal_animation(named), settled)

    def _middle(self) -> tuple[float, float, float, float]:
        """Return (left, right, bottom, top) between the title and the caption's two lines."""
        half_w = config.frame_width / 2 - MARGIN
        top = float(self.title.get_bottom()[1]) - SPACE
        bottom = caption_top(self.plan.caption_y) + SPACE
        return -half_w, half_w, bottom, top

    def beat_predict(self, beat: Beat) -> Animation:
        """Circle the chips ("4 token IDs go in"), then ask for the output's shape."""
        asked = self.output.beat_predict(beat)
        if len(beat.phrases) < 3:
            return asked
        chips = VGroup(*self.chips.chips)
        return Steps(RingFlash(chips, color=self.theme.highlight, buff=SPACE / 2), asked)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Draw the block's rows (:meth:`OutputPart.beat_reveal`), the block first gliding up.

        Only where the lookups hold the block raised from their first beat on
        (:func:`~embedviz.render.parts.early_rise.rise_beat`): it glides once,
        as the block is what the frame is about, not as the first ID is named.
        """
        if beat.name != self.rises_in:
            return self.output.beat_reveal(beat)
        glide, shown = rise(self.motion, lambda: self.output.beat_reveal(beat))
        first, *rest = beat_steps(shown)
        return Steps(Succession(glide, first), *rest)

    def beat_shape(self, beat: Beat) -> Animation:
        """Frame the output; its row count and tags come from the IDs, its width from d."""
        return self.output.frame_and_shape(VGroup(*self.chips.chips), len(beat.phrases))

    def beat_print(self, beat: Beat) -> Animation:
        """Show the print; when its row is ringed ("... are row 3."), mark that row of E."""
        assert self.printed is not None
        printed = self.printed.beat_print(beat)
        if beat.highlight is not None:
            # The print is the row the lookup just fetched: its outline in E and the
            # output's ring stand on (they dropped out for 3.6 s, issue 18).
            self.named_row = self.motion.kept.carry_on(beat.highlight.row)
        steps = beat_steps(printed)
        if len(steps) < 3 or beat.highlight is None or self.named_row is not None:
            return printed
        # The cue names the row: it stands marked from here through the grad_fn beat.
        self.named_row = self.matrix.outline(beat.highlight.row)
        return Steps(*steps[:-1], AnimationGroup(steps[-1], OutlineIn(self.named_row)))

    def beat_grad_fn(self, beat: Beat) -> Animation:
        """Underline the grad_fn label; then the row is ringed in the print, and marked in E."""
        assert self.printed is not None
        boxed = self.printed.grad_fn_box()
        if len(beat.phrases) < 2 or beat.highlight is None:
            return boxed
        named: list[Animation] = []
        if self.named_row is None:
            self.named_row = self.matrix.outline(beat.highlight.row)
            named.append(OutlineIn(self.named_row))
        return Steps(boxed, AnimationGroup(self.printed.point_at_numbers(), *named))
