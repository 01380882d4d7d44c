"""The large-vocabulary layout (LargeVocabLookup): a window on E that scrolls, chips, output.

A thin composition of parts placed by the lookup solver
(:func:`~embedviz.render.solver.solve_lookup`), as the lookup layout is: a
:class:`~embedviz.render.parts.scroll.ScrollingMatrix` (E's window, its
scroll bar, its count of parameters), the output block, the chips beside
the output rows they will fill, and :class:`~embedviz.render.parts.vocab_motion.VocabMotion`
(a chip walks to its row, or to the band of its hidden range, and rides
home beside the row's strip; the chip stays as the row's tag). Only beats that need
several parts at once are handled here.
"""

from __future__ import annotations

from dataclasses import replace

from manim import (
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Create,
    LaggedStart,
    Succession,
    VGroup,
    VMobject,
    Wait,
)

from embedviz.render.animations import (
    Steps,
    beat_steps,
    make_deferred_animation,
    make_reveal_animation,
    point_at,
)
from embedviz.render.design import SCROLL_BAR, SPACE, px_for_font
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn, RingFlash
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import xyz
from embedviz.render.mobjects import ShapeLabel
from embedviz.render.pace import at_least, fit_steps, needed_seconds
from embedviz.render.parts.lookup import ChipColumn, OutputPart
from embedviz.render.parts.mark_repeat import legend_way, repeat_rings, repeat_tie
from embedviz.render.parts.resting import rest_across
from embedviz.render.parts.scroll import ScrollingMatrix
from embedviz.render.parts.vocab_motion import ROUNDING, VocabMotion, pace_rest
from embedviz.render.solver import LookupPlan, LookupSpec, solve_lookup
from embedviz.render.solver_across import MARK_EDGE_AIR, MARK_GAP
from embedviz.render.spec import late_marks
from embedviz.render.stage import Stage, register_stage
from embedviz.story.model import Beat, Storyboard, Window

__all__ = ["LargeVocabStage", "large_vocab_spec", "solve_large_vocab"]

# The beats that look rows up (the repeat's note comes with the last of them).
LOOKUPS = ("lookup", "scroll_lookup", "fill_rest")
# The most the marks' air at the frame's edge may cost the table's numbers (px at 720p).
AIR_COST_PX = 0.5


def large_vocab_spec(board: Storyboard) -> LookupSpec:
    """Read what a LargeVocabLookup frame must hold: a lookup spec whose window scrolls.

    Each output row's source is looked up in the window of the beat that
    fills it; the margin must hold every window's hidden-range labels; a
    scroll bar stands right of the matrix, and the count of parameters under it.
    """
    spec = LookupSpec.from_board(board)
    windows: dict[tuple[int, ...], Window] = {}
    for beat in board.beats:
        for position in beat.output.filled if beat.output is not None else ():
            windows.setdefault(position, beat.window)
    labels = sorted({gap.label for beat in board.beats for gap in beat.window.row_gaps})
    count = next((c.text for b in board.beats for c in b.numbers if c.kind == "param_count"), "")
    return replace(
        spec,
        source_windows=tuple(windows[p] for p in sorted(windows)),
        gap_labels=dict(enumerate(labels)),
        bar_width=SCROLL_BAR,
        note=f"V \u00d7 d = {count} {board.word('parameters')}" if count else "",
        note_role="label",
        # Over E's heading: the raised output block left that band empty (about a fifth
        # of the frame's height, a frame review found); the numbers stay as large.
        note_above=True,
        marks_last=True,
        # Air at the safe area's edge after the marks (``solve_large_vocab`` drops it
        # where it would cost the type scale).
        mark_air=MARK_EDGE_AIR,
        # The margin holds only row numbers: the width goes to the table's columns.
        gaps_inside=True,
        # Half a SPACE left "columns 1-766 hidden" 8 px over "767" at 720p, reading as one
        # stack (issue 18); 1.5 leaves about 18 px. This table's own: BatchLookup's is one
        # SPACE (batch_plan.COL_NOTE_AIR).
        col_note_air=1.5,
        # A copy goes down a corridor as wide as it and its chip, and slides level into
        # its row: beside, wider than the walking column, it rose across the block's
        # empty rows, its chip inside the block level with row 9's tag (issue 18).
        clear_block=True,
        # The repeat's note comes with the rest beat, once the corridor is empty: it
        # stands there, left of its row, and the legend in the title band, so no column
        # right of the tags stands empty for most of the video (the numbers: 21 px at
        # 720p, not 17.7 with that column beside the wide corridor).
        late_marks=late_marks(board, LOOKUPS),
        legend_in_band=True,
    )


def _end_rest(motion: VocabMotion, board: Storyboard) -> tuple[float, float] | None:
    """Return where the block and E rest after the last lookup, whose notes stand between them.

    Equality notes that come with the last lookup stand in the corridor
    (``plan.marks_inside``), right-aligned a MARK_GAP short of the block: it
    stays wide enough for the widest and a SPACE clear of E's scroll bar. The
    block rests that much less far left (and E, where that is not enough,
    less far right). None: no such notes.
    """
    plan = motion.plan
    notes = [c.index for b in board.beats for c in b.numbers if c.kind == "equal_to"]
    marks = [m for m in (motion.output.mark(p) for p in notes) if m is not None]
    if not plan.marks_inside or not marks:
        return None
    keep = max(m.width for m in marks) + MARK_GAP + SPACE
    short = max(0.0, keep - (plan.output_left - plan.column_left - plan.rest_slide))
    block = max(0.0, motion.slide - short)
    return block, max(0.0, motion.matrix_slide - (short - (motion.slide - block)))


def solve_large_vocab(spec: LookupSpec) -> LookupPlan:
    """Solve the layout with the legend in the marks' column, or under the output block.

    A mark on an early row leaves the legend too short a bar beside the
    rows above it: the legend then goes under the block, if the numbers come
    out larger so (ties go to the marks' column, which is empty otherwise).

    The marks keep their air at the safe area's edge (``spec.mark_air``) unless
    it costs the numbers more than :data:`AIR_COST_PX` or keeps the small labels
    from rising to a lecture hall's size (MiniLM's sentence: 16 px, 13.6 with it).
    The air is tried first with a digit's column between each chip and its row
    number (``spec.wide_number_gap``), then with a SPACE there (the default
    sentence: the wider tag column cost the numbers more than the air may);
    without the air, the row numbers keep the digit's column.
    """
    if not spec.mark_air:
        return _solve_legend(spec)
    tight = _solve_legend(replace(spec, mark_air=0.0))
    # dict.fromkeys: a spec already narrow is solved once, not twice.
    for wide in dict.fromkeys((spec.wide_number_gap, False)):
        plan = _solve_legend(replace(spec, wide_number_gap=wide))
        cost = px_for_font(tight.scale.data) - px_for_font(plan.scale.data)
        if cost <= AIR_COST_PX and plan.scale.text_px >= tight.scale.text_px - 1e-9:
            return plan
    return tight


def _solve_legend(spec: LookupSpec) -> LookupPlan:
    """Solve with the legend in the marks' column or under the block, whichever is larger."""
    plans = [solve_lookup(spec)]
    if spec.marks_from:
        plans.append(solve_lookup(replace(spec, marks_from=0)))
    return max(plans, key=lambda plan: plan.scale.data)


@register_stage
class LargeVocabStage(Stage):
    """E's window | scroll bar | walking column | output | chips.

    Parts: :class:`ScrollingMatrix`, :class:`OutputPart`, :class:`ChipColumn`
    and :class:`VocabMotion` (``lookup_many`` for the rest of the sentence).
    The stage plays the beats that use several of them.
    """

    layout = "large_vocab"

    plan: LookupPlan
    matrix: ScrollingMatrix
    output: OutputPart
    chips: ChipColumn
    motion: VocabMotion
    # The rings round a repeat's two equal rows, in the verdict's colour (built by the rest beat).
    repeat_rings: list[VMobject]
    # Outlines kept while the caption names their rows; they go as the next beat starts.
    held: list[VMobject]

    def build(self) -> None:
        """Solve the layout and build every part in its place."""
        spec = large_vocab_spec(self.board)
        plan = solve_large_vocab(spec)
        self.plan = plan
        self.title = SansText(self.board.title, plan.title_font, self.theme.text)
        self.title.move_to(xyz(plan.title_x, plan.title_y))
        args = (self.scene, self.board, self.cells, plan, self.theme)
        self.matrix = self.add_part(ScrollingMatrix(*args))
        self.output = self.add_part(OutputPart(*args))
        if spec.mark_role == "legend":
            # The equality note names both rows: a note, at the legend's size.
            self.output.mark_font = plan.scale.legend
        self.chips = self.add_part(ChipColumn(*args))
        self.motion = self.add_part(
            VocabMotion(
                self.scene, self.theme, plan, self.matrix, self.output, self.chips, self.cells
            )
        )
        self.repeat_rings = []
        self.held = []
        # Between lookups E and the block rest a chip's column apart (the corridor would
        # stand empty from the title to the caption); after the last, wide enough for the
        # notes that stand in it.
        rest_across(self.motion, self.title)
        self.motion.end_rest = _end_rest(self.motion, self.board)
        # The blocks close after every lookup beat, lookup-1 included: parted into the rest
        # beat, the corridor (a strip and its chip wide) stood empty from the title to the
        # caption at lookup-1's end, a quarter of the frame (issue 18). The rest parts them
        # again as it starts (``beat_fill_rest``).
        self.motion.stays_open = set()

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, E's window with its scroll bar and legend, the output, the chips."""
        shown = self.intro_mobjects()
        # The output block's intro may leave out its row numbers; this scene shows them.
        return make_reveal_animation([*shown, *(m for m in self._output_parts() if m not in shown)])

    def beat_size(self, beat: Beat) -> Animation:
        """Show the count of parameters; then, with the gaps' phrase, point at the gap labels."""
        assert self.matrix.count is not None
        # On the output block's heading line it comes down, clear of the block's top edge.
        count = FadeIn(self.matrix.count, shift=0.2 * (-UP if self.matrix.count_home else UP))
        grid = self.matrix.grid
        rows, columns = list(grid.gap_labels.values()), list(grid.col_gap_labels.values())
        if not rows and not columns:
            return count
        accent = self.theme.highlight
        pulses = [point_at(g, accent, scale=1.1) for g in rows]
        # The columns' label stands one line over the column numbers: a full ring margin
        # ran through "0" and "767" as it swelled, so its ring keeps closer (half a space).
        pulses += [point_at(g, accent, scale=1.1, buff=SPACE / 2) for g in columns]
        return Steps(count, AnimationGroup(*pulses))

    def _scroll(self, beat: Beat) -> list[Animation]:
        """Scroll to the beat's window (if it changes); the scroll bar follows."""
        assert beat.highlight is not None
        scroll = self.matrix.scroll_to(beat.window)
        follow = self.matrix.bar.follow(beat.window, beat.highlight.row)
        return [*([scroll] if scroll is not None else []), *follow]

    def beat_scroll(self, beat: Beat) -> Animation:
        """Point at the featured ID's chip; then bring its row on screen and outline it.

        The caption names the row ("scrolls to row 4821. It is the 4822nd
        row"): it is outlined in the ID's amber once the rows stop (drawn
        while they slid, its lines would run through the digits passing
        under it), and stays in the matrix's ``marked`` for the lookup, which
        fetches that row next and fades it with its settle.
        """
        assert beat.highlight is not None
        row = beat.highlight.row
        chip = self.chips.chips[self.output.row_of(beat.highlight.position)]
        pointed = RingFlash(chip, color=self.theme.highlight, buff=SPACE / 2)
        moves = self._scroll(beat)
        if beat.window == self.matrix.window and len(moves) == 1:
            label = self.matrix.grid.row_labels[row]
            moves.append(point_at(label, self.theme.highlight, scale=1.2))
        # Built after the scroll is planned: the grid's bookkeeping is the new window's.
        outline = self.matrix.outline(row)
        self.matrix.marked[row] = outline
        return Steps(pointed, Succession(AnimationGroup(*moves), OutlineIn(outline, run_time=0.4)))

    def _output_parts(self) -> list[VMobject]:
        return [self.output.grid, self.output.heading, self.output.numbers]

    def beat_lookup(self, beat: Beat) -> Animation:
        """Mark the first ID's row; its chip walks there and rides home with the row."""
        assert beat.highlight is not None
        return self.motion.lookup_one(beat.highlight.position)

    def beat_sentence(self, beat: Beat) -> Animation:
        """Point at the sentence's chips; then at the output rows waiting for them, in order."""
        accent = self.theme.highlight
        return Steps(
            RingFlash(VGroup(*self.chips.chips), color=accent, buff=SPACE / 2),
            LaggedStart(
                *[point_at(n, accent, scale=1.1) for n in self.output.numbers], lag_ratio=0.15
            ),
        )

    def beat_scroll_lookup(self, beat: Beat) -> Animation:
        """Scroll to the row and mark it; the chip fetches it (there and back at once); settle.

        The caption names the row and the output row it fills ("the view
        scrolls to row 464, and its copy fills output row 1"): both stay
        outlined in the ID's amber to the beat's end (a 720p review found the
        row's outline gone as the caption still named it).
        """
        assert beat.highlight is not None
        moves = self._scroll(beat)
        # Scrolled where E rests, the blocks part for the strip (see ``build``).
        opening = self.motion.opening()
        one = self.motion.teach(beat.highlight.position)
        # The row's outline comes once the rows have stopped: drawn at the row's place
        # while they slid, its lines ran through the digits passing under it.
        parting = [opening] if opening is not None else []
        if one.outline is not None:
            self.held.append(one.outline)
            if all(one.outline is not m for m in self.motion.taken):
                self.motion.taken.append(one.outline)  # it glides with E as the blocks close
        position = beat.highlight.position
        settle = self._outline_output(position, one.shown)
        if ("equal_to", position) in self.cells and one.shown:
            # A repeat ("output row 1 equals output row 0"): both rows, tied to the note.
            settle = Succession(AnimationGroup(*one.shown), self._tie([position], position))
        closing = self.motion.closing(beat.name in self.motion.stays_open, [one])
        # Each part with a floor gets its time (the walk, the wait beside the row, the way
        # back, the blocks' glides), and those without play faster where the phrase is short
        # for all (issue 18: lookup-1's walk played at twice its pace to fit its 5.4 s).
        marked, fetch, settled = fit_steps(
            [
                [AnimationGroup(*moves), *parting, one.mark],
                self.motion.fetch(one),
                [settle, *closing],
            ],
            beat.duration - ROUNDING,
        )
        return Steps(marked, fetch, settled)

    def _outline_output(self, position: tuple[int, ...], shown: list[Animation]) -> Animation:
        """Outline an output row (just filled) in amber, and keep it; play ``shown`` with it."""
        row = self.output.row_of(position)

        def drawn() -> Animation:
            ring = self.output.grid.row_outline(row, self.theme.id_line)
            self.held.append(ring)
            self.motion.riders.append(ring)  # it glides with the block as the blocks close
            return AnimationGroup(OutlineIn(ring, run_time=0.3), *shown)

        return make_deferred_animation(drawn, run_time=0.3)

    def _release(self, then: Animation) -> Animation:
        """Fade the outlines kept from the beat before, then play ``then``."""
        fades = self._fades()
        return Succession(*fades, then) if fades else then

    def _fades(self) -> list[Animation]:
        """Return the fade of the outlines kept from the beat before (none: empty)."""
        held, self.held = self.held, []
        return [AnimationGroup(*[FadeOut(m, run_time=0.3) for m in held])] if held else []

    def beat_fill_rest(self, beat: Beat) -> Animation:
        """Look up the rest of the sentence together; then mark a repeat's two equal rows.

        A repeat's rows are pointed at as the caption names them, and stay
        ringed, tied to their note (``out[8] = out[0]``), from then on; a
        single last ID's output row (which the caption names) stays outlined.
        """
        before = set(self.motion.filled)
        played, ending = self.motion.lookups_then(beat)
        # The blocks part first (lookup-1 closed them), then the lookups go.
        *parting, lookups = beat_steps(played)
        rest = self._release(lookups)
        landed = [p for p in self.motion.filled if p not in before]
        pair = _repeat(self.board, beat)
        closing = [Succession(*ending)] if ending else []
        if pair is None or len(beat.phrases) < 2:
            if pair is not None or len(landed) != 1:
                step = Succession(rest, *closing) if closing else rest
                return _parted_first(parting, step, beat.duration)
            # Named as "its whole row is copied into output row 2".
            whole = Succession(rest, *closing, self._outline_output(landed[0], []))
            return _parted_first(parting, whole, beat.duration)
        # The narration points at both rows ("output rows 0 and 8 are identical"): they are
        # ringed in the verdict's colour as it names them, tied to their note, and stay so
        # while it names them. (A passing ring in the highlight once came first in their
        # place: a 720p review saw one ring turn from violet to grey, changing its meaning.)
        rows = [self.output.row_of(p) for p in pair]
        tags = [m for r in rows for m in (self.chips.chips[r], self.output.numbers[r])]
        rings = repeat_rings(self.output.grid, rows, tags, self.theme.wrong)
        # Drawn where the lookups leave the block (the solver's place); then the blocks close
        # up (``build``), the rings riding with it, and the note shows in the corridor.
        rings.shift(xyz(self.plan.output_left - self.output.grid.body_left(), 0))
        self.motion.riders.append(rings)
        self.repeat_rings = list(rings)
        self.held.append(rings)
        # The rings take the second of the flashes they replace: the step keeps its share.
        named = Succession(OutlineIn(rings, run_time=1.0), *closing, self._tie(landed))
        # The lookups take the time they need (the rings come late), leaving the rings theirs.
        return Steps(_parted_first(parting, rest, beat.duration, named), named)

    def _tie(
        self, positions: list[tuple[int, ...]], named: tuple[int, ...] | None = None
    ) -> Animation:
        """Tie the rows each note of ``positions`` names to it, in its colour, and keep the ties.

        The two rows of the repeat the caption names (``named``) are ringed as
        well, until the caption moves on (the held outlines' rule); the other
        pairs are tied only, so that three pairs' rings do not crowd the block.
        (:meth:`beat_fill_rest` rings its named pair itself, as the phrase starts.)
        """

        def drawn() -> Animation:
            notes = [m for m in self.motion.marks if isinstance(m, NumberText)]
            notes = [m for m in notes if m.cell.index in positions]
            ties = []
            for k, note in enumerate(notes):
                # The note's value is the first copy's position (``out[8] = out[0]``: 0).
                pair = ((int(note.cell.value),), note.cell.index)
                rows = [self.output.row_of(p) for p in pair]
                tags = [m for r in rows for m in (self.chips.chips[r], self.output.numbers[r])]
                lane = (k + 1) / (len(notes) + 1)
                ties.append(repeat_tie(self.output.grid, rows, tags, note, self.theme.wrong, lane))
                if note.cell.index == named:
                    rings = repeat_rings(self.output.grid, rows, tags, self.theme.wrong)
                    self.held.append(rings)
                    ties.append(rings)
            self.motion.marks.extend(t for t in ties if all(t is not h for h in self.held))
            # The legend (upright in the marks' column) gives way as the ties come, to
            # them and to the rings held with them (which reach to where the ties start).
            way = legend_way(self.matrix.legend, [*ties, *self.held])
            moves = [Create(t, run_time=0.5) for t in ties] + ([way] if way is not None else [])
            return AnimationGroup(*moves) if moves else Wait(run_time=0.5)

        # What it moves that is already on screen: the legend (its ties are new).
        legend = [m for m in (self.matrix.legend,) if m is not None]
        return make_deferred_animation(drawn, run_time=0.5, touches=lambda: legend)

    def beat_shape(self, beat: Beat) -> Animation:
        """Write the output's shape by its heading; then frame it, its rows, its width.

        Nothing glides (issue 18, one thread of motion): the block stays where
        the last rows landed and E where it stood through every lookup. It
        once settled level with E here, E and the block gliding together as
        the caption named the block's shape (a 720p review, 59.1 s): a move
        that taught nothing and drew the eye off the shape being named. The
        solver's place already leaves no empty area over an eighth of the frame
        (tests/test_moments.py checks this beat's end).
        """
        sizes = sorted((c for c in beat.numbers if c.kind == "output_size"), key=lambda c: c.index)

        def written() -> Animation:
            shape = ShapeLabel(sizes, self.plan.scale.label, self.theme.output)
            self.output.shape = shape
            shape.next_to(self.output.heading, RIGHT, buff=SPACE * 2)
            return FadeIn(shape)

        def framed() -> Animation:
            return self.output.frame_and_shape(VGroup(*self.chips.chips), 1)

        shaped = Succession(*self._fades(), make_deferred_animation(written))
        return Steps(shaped, make_deferred_animation(framed))


def _parted_first(
    parting: list[Animation], step: Animation, seconds: float, after: Animation | None = None
) -> Animation:
    """Return the blocks' parting at its glide's pace, then ``step`` (the rest's lookups) paced.

    ``step`` plays at most :data:`~embedviz.render.parts.vocab_motion.REST_SPEEDUP`
    times its pace (:func:`pace_rest`) in what the beat leaves after the
    parting. Each part is given the time it needs: in one step, a part plays
    at its share of the step, and the glide's floor at its share asked the
    whole step to play the lookups at their own pace (10 s for the default
    sentence, its rings coming with the beat's last frames).
    """
    if not parting:
        return pace_rest(step, seconds, after)
    for part in parting:
        part.set_run_time(max(float(part.get_run_time()), needed_seconds(part)))
    lead = sum(float(part.get_run_time()) for part in parting)
    paced = pace_rest(step, seconds - lead, after)
    if needed_seconds(paced) > 0:
        paced.set_run_time(needed_seconds(paced))
    whole = Succession(*parting, paced)
    return at_least(whole, float(whole.get_run_time()))


def _repeat(board: Storyboard, beat: Beat) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Return the first position this beat fills whose ID came earlier, and that earlier one."""
    ids = {c.index: int(c.value) for b in board.beats for c in b.numbers if c.kind == "token_id"}
    before = board.beats[board.beats.index(beat) - 1].output
    done = set(before.filled) if before is not None else set()
    assert beat.output is not None
    for position in [p for p in beat.output.filled if p not in done]:
        earlier = [p for p in sorted(ids) if p < position and ids[p] == ids[position]]
        if earlier:
            return earlier[0], position
    return None
