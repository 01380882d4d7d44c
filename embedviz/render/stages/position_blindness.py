"""The position-blindness layout: a lookup, then token vectors + position vectors = sums.

Used by PositionBlindness. It opens as the lookup layout (the lookup family's
parts, placed by :func:`~embedviz.render.solver.solve_lookup`): the chips
fetch their rows, each chip becoming its row's tag, and a bracket with ``=``
says that the repeated ID's two rows are identical. Then the matrix leaves
and the output rows become the token vectors ``E[id]`` of a second
arrangement (:func:`~embedviz.render.solver_positions.solve_positions`):
``E[id] + P = sum``, in two bands, with a ``≠`` at the end.
"""

from __future__ import annotations

import math
from dataclasses import replace

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Animation,
    AnimationGroup,
    Mobject,
    Succession,
    VGroup,
    VMobject,
)

from embedviz.render.animations import Steps, make_reveal_animation
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import (
    APART,
    MIN_DATA_PX,
    MIN_DEFAULT_DATA_PX,
    MIN_TEXT_PX,
    SPACE,
    font_for_px,
    units_for_px,
)
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import xyz
from embedviz.render.pace import at_least
from embedviz.render.parts import legend_home
from embedviz.render.parts.compare_focus import dim_others
from embedviz.render.parts.edge_clear import keep_off_edge, right_edge
from embedviz.render.parts.end_band import Trial, areas, end_band, least_glide
from embedviz.render.parts.first_level import lookup_all, rest_level, stand_for_lookups
from embedviz.render.parts.glide import LANDING_SHARE, arriving, come_with, glide_floor
from embedviz.render.parts.key_swap import sums_key, swap_keys
from embedviz.render.parts.lookup import ChipColumn, MatrixPart, OutputPart
from embedviz.render.parts.narrowing import Narrowing, Targets, glided, narrowed, narrowing, placed
from embedviz.render.parts.positions import PositionBlocks, TokenBlock, verdict
from embedviz.render.parts.resting import legend_across, legend_room, rest_legend
from embedviz.render.parts.sum_note import band_shift, shifted_band
from embedviz.render.parts.wait_under import WaitingMotion, lane_steps, wait_under
from embedviz.render.rests import Settle
from embedviz.render.solver import LookupPlan, LookupSpec
from embedviz.render.solver_positions import (
    NARROW_PAD,
    VERDICT_CHARS,
    PositionPlan,
    PositionSpec,
    solve_positions,
)
from embedviz.render.space import Box, box_union, shifted_boxes
from embedviz.render.stage import Stage, register_stage
from embedviz.story.model import Beat

__all__ = ["NARROW_SECONDS", "PositionStage"]

_PE_KINDS = {"sinusoid": "sum_sinusoid", "learned_position": "sum_learned"}
# The table numbers that beat ``same`` narrows: E's and the output's.
_DATA_KINDS = frozenset({"weight", "output"})
# The rows leave for their new place when the matrix's fade is this far through.
_MOVE_LAG = 0.6
# Seconds the tables take to narrow for the verdict's word: a calm glide (in 0.6 s, a 720p
# review saw the frame shrink abruptly as "= identical" came, 14.3 s; issue 18).
NARROW_SECONDS = 1.2
# How far the output side and the legend glide up and the legend right, with the
# largest empty area each glide leaves.
_Glide = tuple[float, float, float]
_Trials = list[Trial]


@register_stage
class PositionStage(Stage):
    """The lookup layout, then ``E[id] + P = sum``.

    Parts: :class:`MatrixPart`, :class:`OutputPart`, :class:`ChipColumn` and
    :class:`LookupMotion` for the lookup; :class:`TokenBlock` and
    :class:`PositionBlocks` (``positions``, ``add``, ``differ``) for the sums.
    The stage plays the beats that span both arrangements: ``lookup_all``,
    ``same`` and ``arrange``.
    """

    layout = "position_blindness"

    plan: LookupPlan
    sums_plan: PositionPlan

    def build(self) -> None:
        """Solve both arrangements and build their parts."""
        # E's three columns bind the lookup by the width: its rows may grow looser to fill.
        spec = replace(
            LookupSpec.from_board(self.board), mark_chars=VERDICT_CHARS, fill_height=True
        )
        # The legend in the title band from the start where the sums' rows gain its strip.
        plan, numbered = legend_home.first_plan(spec, PositionSpec.from_board(self.board))
        self.plan = plan
        self.title = SansText(self.board.title, plan.title_font, self.theme.text)
        self.title.move_to(xyz(plan.title_x, plan.title_y))
        args = (self.scene, self.board, self.cells, plan, self.theme)
        self.matrix = self.add_part(MatrixPart(*args))
        self.output = self.add_part(OutputPart(*args))
        self.chips = self.add_part(ChipColumn(*args))
        keep_off_edge(self.chips.heading)  # "token IDs" as far in as the verdict (issue 18)
        parts = (self.matrix, self.output, self.chips, self.cells)
        self.motion = self.add_part(WaitingMotion(self.scene, self.theme, plan, *parts))
        legend_home.heading_in_room(self.motion, self.title)  # where a legend over E stood
        # At the solver's place the block leaves a fifth of the frame empty under it.
        rest_level(self.motion, self.board, self.title)
        # Raised over E by a raised output block, the legend rests where it fills the frame.
        rest_legend(self.motion, self.board, self.title, self.intro_mobjects())
        if stand_for_lookups(self.motion):  # raised from the start, where it glided thrice
            wait_under(self.motion, self.title, self.intro_mobjects())  # the chips under it
        sums = replace(PositionSpec.from_board(self.board), title_font=plan.title_font)
        second = self.sums_plan = solve_positions(sums)  # the title keeps the lookup's size
        # Where it can, E's legend stays where it first stood, the second arrangement under it.
        kept = legend_home.keep_legend(self.motion, self.title, self.intro_mobjects(), sums, second)
        self.key_stays = kept is not None
        kept = kept or legend_home.keep_band_legend(self.motion, self.title, sums, numbered)
        second = self.sums_plan = kept or second
        pe_kind = next(k for k in _PE_KINDS if any(key[0] == k for key in self.cells))
        args2 = (self.scene, self.board, self.cells, second, self.theme)
        self.tokens = self.add_part(TokenBlock(*args2))
        blocks = PositionBlocks(*args2, pe_kind, _PE_KINDS[pe_kind], self.tokens)
        if dx := band_shift(blocks):  # centred on the note as it stands (:mod:`.sum_note`)
            second = self.sums_plan = shifted_band(second, dx)
            blocks = PositionBlocks(
                *args2[:3], second, self.theme, pe_kind, _PE_KINDS[pe_kind], self.tokens
            )
        self.blocks = self.add_part(blocks)
        self.same: list[VMobject] = []
        # Whether the verdict's word stands under ``=`` (only where the line has no room).
        self.stacked = False
        # The token vectors, P and the sums stay coloured by value: their key (:mod:`.key_swap`).
        keyed = not self.key_stays
        self.sums_legend = (
            sums_key(self.cells, self.board, self.theme, plan, second) if keyed else None
        )

    @property
    def formula(self) -> VGroup:
        """P's definition (the position blocks')."""
        return self.blocks.formula

    @property
    def first_row_box(self) -> VMobject | None:
        """The outline of P's row 0, once drawn (the position blocks')."""
        return self.blocks.first_row_box

    def _pair(self, beat: Beat) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Return the first two positions that hold the highlighted (repeated) ID."""
        return self.blocks.pair(beat)

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the matrix with its legend, and the chips."""
        return make_reveal_animation(self.intro_mobjects())

    def beat_lookup_all(self, beat: Beat) -> Animation:
        """Fetch the first ID's row as before; then the others, one after another.

        One step per phrase: "As before, ID 2 selects its row of E;" plays the
        first lookup (the chip walks, the row follows it home and the chip
        becomes its tag), "the other three IDs do the same, ..." the rest.
        """
        # The first level into row 0 (issue 18); the rest one step, its glides with it.
        first, rest = lane_steps(self.motion, *lookup_all(self.motion, beat))
        return Succession(first, rest) if len(beat.phrases) < 2 else Steps(first, rest)

    def beat_same(self, beat: Beat) -> Animation:
        """Outline the two rows of the repeated ID and the one matrix row behind them: ``=``.

        The bracket, ``=`` and ``identical`` stand beside the two rows, on one
        line as the closing ``≠ different`` does (a 720p review: the word under
        the sign read as a wrapped label beside the inline ``≠ different``; it
        is stacked only where no room can be made for the line). Where there is
        no room for them, the tables first narrow in one smooth move (:mod:`narrowing`: the
        numbers shrink towards their floor, the rows keep their pitch) while
        the output side glides into the corridor, empty once every lookup is
        done, and down where the frame is fullest; then the outlines are drawn.
        """
        first, second = self._pair(beat)
        plan, grid, chip = self.plan, self.output.grid, self.theme.id_line
        rows = (self.output.row_of(first), self.output.row_of(second))
        outlines: list[VMobject] = [grid.row_outline(row, chip) for row in rows]
        assert beat.highlight is not None
        outline = self.matrix.outline(beat.highlight.row)
        # Where the rows are now: the block rests off the solver's place between lookups.
        tops = (grid.row_y(rows[0]), grid.row_y(rows[1]))
        left = plan.mark_left - self.motion.slide
        matrix, output = self.motion.matrix_side(shown=True), self.motion.output_side(shown=True)
        # On one line, as ``≠ different`` stands; stacked only where no room can be made.
        self.stacked = False
        room = self._room(self._verdict(tops, left), left, matrix, output)
        if room is None and not self._fits(self._verdict(tops, left)):
            self.stacked = True
            room = self._room(self._verdict(tops, left), left, matrix, output)
        moves: list[Animation] = []
        if room is not None:
            scale, anchor, slide = room
            band = end_band(self.scene, self.title, beat)
            dy, lift, across = self._drop(tops, left, room, (matrix, output), band)
            still, side = self._narrowing(matrix, output, room)
            moved = [*still, *glided(side, dy), *self._lifted(lift, across)]
            moves.append(at_least(Settle(moved, run_time=NARROW_SECONDS), NARROW_SECONDS))
            for mobject, points in [
                *narrowed(outlines, scale, anchor, (-slide, dy)),
                *narrowed([outline], scale, anchor),
            ]:
                mobject.points = points
            tops = (tops[0] + dy, tops[1] + dy)
            left = anchor + scale * (left - anchor) - slide
        same = self._verdict(tops, left)
        self._fit_verdict(same)
        self.same = [*outlines, outline, same]
        # The other output rows recede as the outlines are drawn (:mod:`.compare_focus`).
        rest = [
            m
            for c in self.motion.carries
            if c.targets[0].cell.index[:-1] not in (first, second)
            for m in (*c.targets, *c.strip[2])
        ]
        dim = dim_others(rest, self.theme.cell_fill)
        shown = AnimationGroup(*[OutlineIn(m) for m in self.same[:-1]], FadeIn(same), *dim)
        return Succession(*moves, shown) if moves else shown

    def _verdict(self, tops: tuple[float, float], left: float) -> VGroup:
        """Return the bracket, ``=`` and ``identical`` beside two rows.

        On one line; with :attr:`stacked` set, the word stands under the sign
        (the two centred on the bracket's point) when the line would reach
        into the frame's margin.
        """
        same = verdict(tops, left, "=", self.word("identical"), self.plan.scale.label, self.theme)
        _, sign, word = same
        if self.stacked and not self._fits(same):
            x = sign.get_left()[0]
            pair = VGroup(sign, word).arrange(DOWN, buff=SPACE, aligned_edge=LEFT)
            pair.move_to(xyz(0, (tops[0] + tops[1]) / 2)).align_to(xyz(x, 0), LEFT)
        return same

    @staticmethod
    def _fits(same: VGroup) -> bool:
        """Return whether the verdict stands inside the safe area's right edge."""
        return float(same.get_right()[0]) <= right_edge() + 1e-9

    def _room(
        self, same: VGroup, left: float, matrix: list[Mobject], output: list[Mobject]
    ) -> tuple[float, float, float] | None:
        """Return how the tables make room for ``same``: (scale, anchor, slide), if they must.

        The tables narrow about E's left edge by ``scale`` and the output side
        glides ``slide`` left, into the corridor but :data:`APART` from E.
        None when ``same`` fits as it is, or when the numbers would fall under
        their floor (24 px, or 18 px for a table already under it).
        """
        reach = float(same.get_right()[0]) - left
        edge = right_edge()
        if left + reach <= edge + 1e-9:
            return None
        boxes = mobject_boxes(matrix)
        anchor = min(b[0] for b in boxes)
        gap = min(b[0] for b in mobject_boxes(output)) - max(b[2] for b in boxes)
        # Left of the bracket once narrowed and glided: anchor + scale (left - anchor) - slide.
        scale = (edge - reach - APART - anchor) / (left - anchor - gap)
        slide = scale * gap - APART
        if slide < 0:
            scale, slide = (edge - reach - anchor) / (left - anchor), 0.0
        if scale <= 0:
            return None
        # Under the numbers' floor the numbers keep it and only their cells narrow on.
        least = self._least_cells(matrix, output)
        return (scale, anchor, slide) if scale >= least - 1e-9 else None

    def _data_floor(self) -> float:
        """Return the table numbers' floor in px at 720p: 24, or 18 for a table under 24."""
        data = self.plan.scale.data
        return MIN_DEFAULT_DATA_PX if data >= font_for_px(MIN_DEFAULT_DATA_PX) else MIN_DATA_PX

    def _numbers(self, side: list[Mobject]) -> list[NumberText]:
        """Return the table numbers (E's and the output's) among ``side``'s families."""
        return [
            m
            for part in side
            for m in part.get_family()
            if isinstance(m, NumberText) and m.cell.kind in _DATA_KINDS and not m.echo
        ]

    def _kept(self, matrix: list[Mobject], output: list[Mobject]) -> dict[int, float]:
        """Return the table numbers' least slot height, by id: their floor."""
        least = units_for_px(self._data_floor()) * 1.001  # over it, as design.at_least
        return {id(m): least for m in self._numbers([*matrix, *output])}

    def _least_cells(self, matrix: list[Mobject], output: list[Mobject]) -> float:
        """Return the least scale the cells may narrow by.

        Each number, at its floor or narrowed with its cell, keeps
        :data:`NARROW_PAD` of its cell free on its left (its right edge keeps
        its place in the cell, so that side only narrows).
        """
        least, floor = 0.0, units_for_px(self._data_floor()) * 1.001
        for grid, side in ((self.matrix.grid, matrix), (self.output.grid, output)):
            for number in self._numbers(side):
                key = number.cell.index[-1]
                slot = next(s for s in grid.col_slots if s.key == key and not s.gap)
                cell_left = grid.col_x(key) - slot.size / 2
                right = float(number.get_right()[0])
                low, high = number.slot_corners()
                factor = min(1.0, floor / float(high[1] - low[1]))
                width = factor * float(number.slot_width)
                least = max(least, (width + NARROW_PAD) / (right - cell_left))
        return least

    def _narrowing(
        self, matrix: list[Mobject], output: list[Mobject], room: tuple[float, float, float]
    ) -> tuple[Targets, Narrowing]:
        """Return where E's members end, and the output side's but for its glide up or down."""
        scale, anchor, slide = room
        least, kept = units_for_px(MIN_TEXT_PX), self._kept(matrix, output)
        return (
            narrowed(matrix, scale, anchor, floor=least, kept=kept),
            narrowing(output, scale, anchor, -slide, least, kept),
        )

    def _lifted(self, lift: float, across: float = 0.0) -> Targets:
        """Return where the legend ends once glided ``lift`` up and ``across`` right.

        Nothing without a legend, or when it stays.
        """
        legend = self.matrix.legend
        if legend is None or not (lift or across):
            return []
        return narrowed([legend], 1.0, 0.0, (across, lift))

    def _drop(
        self,
        tops: tuple[float, float],
        left: float,
        room: tuple[float, float, float],
        sides: tuple[list[Mobject], list[Mobject]],
        band: Box,
    ) -> _Glide:
        """Return how far the output side and the legend glide up, and the legend right.

        Where the largest empty area of the frame at the beat's end is least
        (to a two-line caption's top, then to ``band``'s, the caption it ends on:
        :func:`~embedviz.render.parts.end_band.least_glide`; narrower tables
        leave more of it empty), the nearest to no glide of
        those within 0.01 square units of it; the output side at most a row
        either way, the legend as far as it stays clear of what stands under
        and over it (:func:`~embedviz.render.parts.resting.legend_room`) and
        beside it (:func:`~embedviz.render.parts.resting.legend_across`): a
        short output block leaves the corridor's top empty over the legend
        once E narrows, a raised one the room over E. (Narrowed for ``=
        identical`` on one line, the default's tables left 12.50 % of the
        frame empty over the output block, right of the legend, with the
        legend only rising or falling.) Only the block glides where the legend
        stays where it first stood (:mod:`~embedviz.render.parts.legend_home`).
        """
        scale, anchor, slide = room
        x = anchor + scale * (left - anchor) - slide
        bands = (content_band(self.title), band)
        leave_out = [m for m in (self.title, getattr(self.scene, "caption", None)) if m is not None]
        legend = self.matrix.legend
        own = mobject_boxes([legend]) if legend is not None else []
        leave_out += [legend] if legend is not None else []
        union = box_union(own)
        still, side = self._narrowing(*sides, room)  # walked once for every glide

        def legend_at(boxes: list[Box], lift: float, shifts: list[float] | None) -> _Trials:
            moved = [(b[0], b[1] + lift, b[2], b[3] + lift) for b in own]
            lifted = box_union(moved)
            low, high = legend_across(lifted, boxes, bands[0]) if lifted else (0.0, 0.0)
            grid = [k * wide for k in range(-int(-low / wide), int(high / wide) + 1)]
            return [
                (0.0, lift, dx, *areas([*boxes, *shifted_boxes(moved, dx)], bands))
                for dx in (grid if shifts is None else shifts)
                if low - 1e-9 <= dx <= high + 1e-9
            ]

        def best(
            drops: list[float], lifts: list[float] | None, shifts: list[float] | None
        ) -> _Glide:
            tried: _Trials = []
            for dy in drops:
                with placed([*still, *glided(side, dy)]):
                    same = self._verdict((tops[0] + dy, tops[1] + dy), x)
                    boxes = mobject_boxes([*self.scene.mobjects, same], leave_out)
                low, high = legend_room(union, boxes, bands[0]) if union else (0.0, 0.0)
                grid = [k * coarse for k in range(-int(-low / coarse), int(high / coarse) + 1)]
                for lift in grid if lifts is None else lifts:
                    if low - 1e-9 <= lift <= high + 1e-9:
                        tried += [(dy, *t[1:]) for t in legend_at(boxes, lift, shifts)]
            return least_glide(tried)

        # A fifth of a row (the block at most a row either way), a row across, then an
        # eighth of that for the block and, the block settled, a quarter for the legend
        # (refining all three at once tried 2,601 layouts: a third of the render time).
        coarse = self.plan.sizes.row_height / 5
        wide = self.plan.sizes.row_height
        stays = [0.0] if self.key_stays or not self.plan.legend_left else None  # it stays
        dy, lift, dx = best([k * coarse for k in range(-5, 6)], stays, stays)
        fine = [dy + k * coarse / 8 for k in range(-8, 9)]
        dy, _, _ = best([d for d in fine if abs(d) <= 5 * coarse + 1e-9], [lift], [dx])
        if stays:
            return dy, 0.0, 0.0
        lifts = [lift + k * coarse / 4 for k in range(-4, 5)]
        shifts = [dx + k * wide / 8 for k in range(-8, 9)]
        return best([dy], lifts, shifts)

    def _fit_verdict(self, same: VGroup) -> None:
        """Put the verdict's word under the output block when it does not fit beside the bracket."""
        word = same[-1]
        if word.get_right()[0] <= right_edge() + 1e-9:
            return
        body = self.output.grid
        top = body.body_top() - body.height_of_body - SPACE
        word.move_to(xyz(0, top - word.height / 2)).align_to(xyz(body.body_right(), 0), RIGHT)

    def beat_arrange(self, beat: Beat) -> Animation:
        """Clear the matrix, bring the rows to their new place with P and the sums, empty.

        Two steps: "To tell the copies apart, the model adds a position vector
        to each row:" clears the matrix side, moves the rows (with their tags
        and positions) to the left and brings the empty blocks of P and the
        sums; "one vector per position, whatever token sits there." brings P's
        definition (or its size), which says so, and P's rows' positions. (With the
        blocks in the second step, a frame review saw E[id] alone at the top left,
        a fifth of the frame empty, until that phrase.)
        """
        # E's legend stays (the rows stay coloured by value) until it cross-fades with the
        # band's, once the title has glided clear of that (:mod:`.key_swap`).
        key = self.matrix.legend
        leaving = [*self.matrix.intro(), self.chips.heading, self.output.heading, *self.same]
        leaving = [m for m in leaving if m is not key]
        numbers = {t.cell.index: t for carry in self.motion.carries for t in carry.targets}
        marks = {
            carry.targets[0].cell.index[:-1]: list(carry.strip[2].submobjects)
            for carry in self.motion.carries
        }
        # The title takes the second arrangement's size and place as the rows set off.
        old = self.title
        self.title = SansText(self.board.title, self.sums_plan.title_font, self.theme.text)
        self.title.move_to(xyz(self.sums_plan.title_x, self.sums_plan.title_y))
        moved = self.tokens.arrive(
            self.output.grid, numbers, marks, self.chips.chips, list(self.output.numbers)
        )
        # As slowly as a teacher's eye follows: the block's and the title's longest way.
        way = max(
            math.hypot(*(new.get_center() - now.get_center())[:2])
            for now, new in ((self.output.grid, self.tokens.grid), (old, self.title))
        )
        # The rows set off while the matrix is still fading (a frame review found the
        # output alone at the right, the left third empty, between the two), or once E's
        # legend, if in their way, has given way to the band's (:mod:`.key_swap`); they reach
        # where the matrix stood only once it has gone. P's empty block rides with them, the
        # sums' comes once they have passed it, both fading in behind (a calm glide leaves
        # no place empty for long; standing still, P's edge ran through the row numbers);
        # the signs as they land (their IDs pass over ``+``; ``=`` is no larger than
        # their numbers then). P opens out from the safe area's edge, its heading with it.
        signs = VGroup(self.blocks.plus, self.blocks.equals)
        empty = [m for m in self.blocks.skeleton() if all(m is not s for s in signs)]
        block = VGroup(self.output.grid, *self.chips.chips, *self.output.numbers)
        offset = self.tokens.grid.get_center() - self.output.grid.get_center()
        blocks = self.blocks
        heads: list[Mobject] = [self.tokens.heading, self.tokens.pos_heading]
        pe: list[Mobject] = [blocks.pe_grid, blocks.pe_heading]
        riders, glide = [heads, pe], at_least(moved, glide_floor(way, 0.0))
        behind = [m for m in empty if all(m is not r for r in (*heads, *pe))]
        came = come_with(
            glide, block, offset, riders, behind, pe[:1], self.tokens.ways(self.output, pe)
        )
        rows = arriving(came, FadeIn(signs), LANDING_SHARE)
        movers = ([block, *heads, *pe], offset)
        arrived = AnimationGroup(
            AnimationGroup(*[FadeOut(m) for m in leaving], run_time=0.5),
            swap_keys((old, self.title), (key, self.sums_legend), rows, movers, 0.5 * _MOVE_LAG),
        )
        numbered = [FadeIn(m) for m in blocks.position_column()]  # "one vector per position"
        return Steps(arrived, AnimationGroup(FadeIn(blocks.formula), *numbered))
