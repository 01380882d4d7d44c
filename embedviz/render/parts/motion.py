"""One thread of motion for the lookup family: a chip fetches its row and rides home with it.

:class:`LookupMotion` plays the ``lookup`` beat (one ID at teaching pace: walk,
carry, settle, one step per phrase) and the ``lookup_many`` beat (the rest,
each starting as soon as its paths are clear of every motion still running).

The output block (with its chips, tags and row numbers) rests where it fills
the frame best (:meth:`LookupMotion.rest`). Before strips that would cross a
filled row from there, it glides up once to where the solver keeps every
path clear, holds still through the run of lookups (:attr:`LookupMotion.held`,
:attr:`LookupMotion.stays_open`) and glides back once they have all landed.
In the corridor layout the matrix and the block rest together and glide apart to
open it, and back. Every glide is slow enough to follow (:func:`glide_floor`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
from manim import Animation, AnimationGroup, LaggedStart, Mobject, Succession, VMobject, Wait
from manim.utils.rate_functions import smooth

from embedviz.render.animations import Steps, make_deferred_animation, point_at
from embedviz.render.design import SPACE, Theme
from embedviz.render.fades import FadeIn, FadesAsItLeaves, OutlineIn, RingFlash
from embedviz.render.glyphs import NumberText
from embedviz.render.metrics import xyz
from embedviz.render.pace import at_least
from embedviz.render.parts.chips import Chip, Follow, curve_points
from embedviz.render.parts.detour import way_there
from embedviz.render.parts.drawer import drawer_pace
from embedviz.render.parts.glide import Glide, chip_floor, glide_floor
from embedviz.render.parts.kept import KeptOutlines
from embedviz.render.parts.late import late_glide
from embedviz.render.parts.lift import LiftCarry
from embedviz.render.parts.lookup import ChipColumn, MatrixPart, OutputPart
from embedviz.render.parts.ride import lag, ride_home, strip_way
from embedviz.render.parts.schedule import WALK, Lookup, clear_starts, late_marks, swept
from embedviz.render.parts.strip import Carry
from embedviz.render.routes import clear_order
from embedviz.render.solver import LookupPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell

__all__ = ["Glide", "LookupMotion"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]
Path = Sequence[np.ndarray]


class LookupMotion(Component):
    """One thread of motion: a chip walks to its row, and rides home with it as a strip.

    The chip leaves its place beside output row *t* through that (still empty)
    row, walks down the column between the blocks to the right end of its matrix
    row, outlined in amber; the row's strip lifts off and the chip rides at its
    right end into output row *t* (:mod:`~embedviz.render.parts.ride`; where it
    cannot, it leads the strip home), where the chip stays as the row's tag.

    Parameters
    ----------
    host
        The scene.
    theme
        Colours.
    plan, matrix, output, chips
        The plan and the parts it moves between.
    cells
        Every cell, by (kind, index).
    """

    def __init__(
        self,
        host: StageHost,
        theme: Theme,
        plan: LookupPlan,
        matrix: MatrixPart,
        output: OutputPart,
        chips: ChipColumn,
        cells: Cells,
    ) -> None:
        super().__init__(host, theme)
        self.plan, self.matrix, self.output = plan, matrix, output
        self.chips, self.cells = chips, cells
        self.filled: set[tuple[int, ...]] = set()
        # What has landed beside the output block (its numbers, marks), for the settle.
        self.carries: list[Carry] = []
        self.marks: list[VMobject] = []
        # Named rows' outlines (``matrix.marked``) taken by their lookups: they glide with
        # the matrix until their settle fades them.
        self.taken: list[VMobject] = []
        self.radius = plan.sizes.row_height * 0.45
        # How far the block sits below, and left of, where the solver keeps every path clear;
        # and how far right of its place the matrix rests.
        self.lift = 0.0
        self.slide = 0.0
        self.matrix_slide = 0.0
        # How far both blocks glide left, together, before late marks show: the part of
        # the marks' overflow the block's rest leaves (see ``rest_across``).
        self.late_shift = 0.0
        # The lookup beats after which the blocks stay parted (the next one parts them too):
        # see ``parted_through``. While they stay, ``opened`` holds (lift, slide, matrix
        # slide) they parted by, and the motion counts from where they stand.
        self.stays_open: set[str] = set()
        self.opened: tuple[float, float, float] | None = None
        self.rebased = False
        self.held: set[str] = set()  # beats played at the solver's place (``hold_lookups``)
        # Beats played with the block this far above rest (``hold_lookups``); a glide on, parted.
        self.places: dict[str, float] = {}
        self.further = 0.0
        # What a teaching-pace lookup keeps outlined to its beat's end (and the beat before's).
        self.kept = KeptOutlines()

    def rest(self, drop: float, slide: float = 0.0) -> None:
        """Rest the output block (its chips, row numbers and headings) ``drop`` below its place.

        ``slide`` rests it that much left of its place as well: every lookup
        beat then glides it out to its place first, and back at the end.
        """
        for mobject in self.output_side():
            mobject.shift(xyz(-slide, -drop))
        self.chips.homes = [home + xyz(-slide, -drop) for home in self.chips.homes]
        self.lift += drop
        self.slide += slide

    def rest_matrix(self, slide: float) -> None:
        """Rest the matrix (its grid, labels and heading) ``slide`` right of its place.

        Every lookup beat then glides it to its place first, and back at the end.
        """
        for mobject in self.matrix_side():
            mobject.shift(xyz(slide, 0))
        self.matrix_slide += slide

    def matrix_side(self, shown: bool = False) -> list[Mobject]:
        """Return the matrix's grid (with its row and column labels), heading and note.

        The legend stays: the corridor closes only when it stands in the title band.
        """
        parts = (self.matrix.grid, self.matrix.heading, self.matrix.note)
        side: list[Mobject] = [m for m in parts if m is not None]
        side += [*self.matrix.marked.values(), *self.taken, *self.kept.matrix_side()]
        side = list({id(m): m for m in side}.values())  # an outline kept and taken moves once
        return self._on_screen(side) if shown else side

    def output_side(self, shown: bool = False) -> list[Mobject]:
        """Everything that moves with the output block (only what is on screen, if ``shown``)."""
        side: list[Mobject] = [self.output.grid, self.output.heading, self.output.numbers]
        side += [m for m in (self.output.shape, self.output.question) if m is not None]
        side += [*self.output.underlines, *self.marks, *self.kept.output_side()]
        side += [self.chips.heading, *self.chips.chips, self.chips.pieces]
        for carry in self.carries:
            if carry.landed or not shown:
                side += [*carry.targets, *carry.strip[2].submobjects]
        return self._on_screen(side) if shown else side

    def _on_screen(self, mobjects: list[Mobject]) -> list[Mobject]:
        """Those of ``mobjects`` on screen now."""
        # A group may be on screen only through its members (a scene that adds a
        # member alone dissolves the group there): any member on screen will do.
        on_screen = {id(m) for top in self.host.mobjects for m in top.get_family()}
        return [m for m in mobjects if any(id(member) in on_screen for member in m.get_family())]

    def glide(self, dy: float, dx: float = 0.0) -> Glide:
        """Glide the output block (and what moves with it) by ``dy`` (and ``dx``)."""
        return Glide(lambda: self.output_side(shown=True), dy, dx)

    def part(self, lift: float, sign: float = 1.0, left: float = 0.0) -> Animation:
        """Glide the block ``lift`` up and the blocks apart (``sign`` -1: back to rest).

        ``left`` glides both that much further left as well (the late marks'
        room, :func:`~embedviz.render.parts.late.late_glide`), in the same
        glide. Slowly enough to follow: the beat gives it at least :func:`glide_floor`.
        """
        across = sign * self.slide - left
        block = self.glide(sign * lift, across)
        moved = [(across, lift)]
        parted: Animation = block
        if abs(self.matrix_slide) > 0 or left > 0:
            across = -sign * self.matrix_slide - left
            matrix = Glide(lambda: self.matrix_side(shown=True), 0.0, across)
            parted = AnimationGroup(block, matrix)
            moved.append((across, 0.0))
        return at_least(parted, max(glide_floor(dx, dy) for dx, dy in moved))

    # -- hooks a layout with other places for its chips or rows overrides ---------------
    def parted_homes(self, lift: float, slide: float, matrix_slide: float) -> np.ndarray:
        """Return how far the chips' homes move as the blocks part: with the block, up and right."""
        return xyz(slide, lift)

    def source(self, row: int) -> tuple[float, float, float]:
        """Return the left and right ends and the centre line of the matrix row a strip leaves."""
        left, _, right, _ = self.matrix.grid.row_box(row, buff=0.0)
        return left, right, self.matrix.grid.row_y(row)

    def row_outline(self, row: int) -> VMobject | None:
        """Return the amber outline of the matrix row an ID selects (None: none is drawn)."""
        return self.matrix.outline(row)

    def output_row_y(self, row_index: int) -> float:
        """Return the centre line of an output row where it is now."""
        return self.output.grid.row_y(row_index)

    def chip_paths(
        self, row_index: int, chip: Chip, park: np.ndarray, lift: float = 0.0
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return a chip's way to its row (``park``) and its way back to its output row's tag.

        By default it waits beside the output row it fills and walks round a one-row block, else
        through that empty row (:mod:`~embedviz.render.parts.detour`); back, it rides at its strip's
        right end (:mod:`~embedviz.render.parts.ride`), or goes back as it came (``lift``: _one's).
        """
        lane_y = self.output_row_y(row_index) + lift
        home = self.chips.homes[row_index] + xyz(self.slide, lift)
        there = way_there(self, row_index, chip, home, park, lift)
        if self.strip_lag(row_index, float(park[1]), lift) <= 0:
            way = strip_way(self, row_index, float(park[1]), lift)
            return there, ride_home(self.plan, park, lane_y, home, way)
        return there, curve_points([park, xyz(park[0], lane_y), home], self.radius)

    def strip_lag(self, row_index: int, source_y: float, lift: float) -> float:
        """Return how far (a share of the chip's way back) the strip sets off behind its chip.

        0 where the chip rides at its right end (:func:`~embedviz.render.parts.ride.lag`).
        """
        rows = [self.output_row_y(t) + lift for t in range(len(self.output.positions))]
        filled = [rows[self.output.row_of(p)] for p in self.filled]
        height = self.chips.chips[row_index].height
        return lag(self.plan, (source_y, rows[row_index]), rows, filled, height)

    def leaving(self, row_index: int) -> list[Animation]:
        """Return what goes as a chip leaves its place (nothing: its place was its own)."""
        return []

    def make_carry(
        self,
        row: int,
        chip: Chip,
        position: tuple[int, ...],
        path: Path,
        targets: list[NumberText],
        pace: Callable[[float], float] = smooth,
    ) -> Carry:
        """Return the carry of a matrix row's strip along ``path`` onto ``targets``, at ``pace``."""
        tag = self.cells[("output_id", position)]
        grid = self.matrix.grid
        return LiftCarry(grid, row, chip, tag, targets, path, self.theme, pace=pace, run_time=1.0)

    def clear_here(self, targets: Sequence[int]) -> tuple[int, ...] | None:
        """Return an order whose paths are all clear from where the block is now, if any."""
        if self.plan.mode == "corridor":
            # Strips go down the corridor and into their rows from the left: never
            # across the output block's column, wherever the block rests.
            return tuple(t for t in self.plan.order if t in targets)
        filled = [self.output.row_of(p) for p in self.filled]
        sources = [int(self.cells[("token_id", p)].value) for p in self.output.positions]
        grid = self.matrix.grid
        top = grid.body_top()
        centres = {row: top - grid.row_y(row) for row in grid.get_rows()}
        row_h = self.plan.sizes.row_height
        here = self.output.grid.body_top() - top
        return clear_order(sources, centres, row_h, here, filled, targets)

    def _order(self, targets: Sequence[int], held: bool = False) -> tuple[tuple[int, ...], float]:
        """Return the order to fill ``targets`` in, and how far the block must rise first."""
        found = None if held else self.clear_here(targets)
        if found is not None:
            return found, 0.0
        # Where the solver put the block, its order keeps every path clear.
        return tuple(t for t in self.plan.order if t in targets), self.lift

    def _one(self, position: tuple[int, ...], lift: float = 0.0, paced: bool = True) -> Lookup:
        """Build one ID's motions (walk there; come back with the strip; settle) and their paths.

        ``lift`` is how far the output block will have glided up when they play.
        ``paced``: at teaching pace, the chip's walks get their floors (:func:`chip_floor`)
        and the row stays outlined until the settle (the narration names it); among the
        rest (one after another, in one phrase) they may go faster, and the outline stands
        until the row's copy lands (:class:`~embedviz.render.fades.FadesAsItLeaves`).
        """
        row_index = self.output.row_of(position)
        chip = self.chips.chips[row_index]
        row = int(self.cells[("token_id", position)].value)
        left, right, source_y = self.source(row)
        # Where the row will be once the matrix has glided to its place.
        left, right = left - self.matrix_slide, right - self.matrix_slide
        park = xyz(self.plan.park_x(chip.width), source_y)
        there, back = self.chip_paths(row_index, chip, park, lift)
        # A row the narration has named already stands outlined (the count ended on it): it
        # glides with the matrix (matrix_side) and goes with the settle, as a new one would.
        # Taken once: a later lookup of the same ID (a repeat) draws its own, where the row is.
        outline = self.matrix.marked.pop(row, None)
        if outline is None and paced:  # the beat before left it outlined: this one takes it
            outline = self.kept.take(row)
        if outline is not None:
            self.taken.append(outline)
        mark_row: Animation = Wait(run_time=0.4)
        if outline is None and (outline := self.row_outline(row)) is not None:
            outline.shift(xyz(-self.matrix_slide, 0))
            mark_row = OutlineIn(outline, run_time=0.4)
        # A chip is one ID the eye follows: a beat's share never hurries it past a pace.
        walking = Follow(chip, there, run_time=WALK)
        go = AnimationGroup(
            at_least(walking, chip_floor(there) if paced else 0.0), *self.leaving(row_index)
        )
        walk = AnimationGroup(go, mark_row)
        path = strip_way(self, row_index, source_y, lift)
        targets = self.output.targets(position)
        for target in targets:
            target.shift(xyz(self.slide, lift))
        start = xyz((left + right) / 2, source_y)
        # Out from under the matrix quickly (then it all shows); its chip rides or leads.
        pace = drawer_pace([start, *path], (left, -np.inf, right, np.inf))
        carry = self.make_carry(row, chip, position, path, targets, pace)
        home = at_least(
            Follow(chip, back, run_time=1.0, rate_func=pace),
            chip_floor(back, pace) if paced else 0.0,
        )
        carry.rides = (lag := self.strip_lag(row_index, source_y, lift)) <= 0
        moved: Animation = LaggedStart(home, carry, lag_ratio=lag)
        if outline is not None and not paced:  # among the rest, it goes as its copy lands
            gone, half = outline, self.plan.sizes.row_height / 2
            fade = make_deferred_animation(
                lambda: FadesAsItLeaves(gone, lambda: -carry.to_land(), -half, 0.0),
                float(moved.get_run_time()),
                lambda: [gone],
            )
            moved = AnimationGroup(moved, fade)
        self.carries.append(carry)
        mark = self.output.mark(position)
        # Late marks: past the frame's edge until the block closes up, or in a busy corridor.
        late = self.plan.marks_overflow > 0 or self.plan.marks_inside
        if mark is not None:
            # Placed at the solver's place across (where the block glides out to), at its row
            # now; a late one where the block rests (in the corridor: the solver's place).
            dy, dx = self.opened[:2] if self.rebased and self.opened else (0.0, 0.0)
            across = -self.slide - dx - self.late_shift
            mark.shift(xyz(across, -dy) if late and not self.plan.marks_inside else xyz(0, lift))
            self.marks.append(mark)
        shown: list[Animation] = [FadeIn(mark, run_time=0.3)] if mark is not None else []
        # At teaching pace the row stays outlined to the beat's end (``lookup_one`` keeps it).
        settled: list[Animation] = [] if late else list(shown)
        settle = AnimationGroup(*settled) if settled else Wait(run_time=0.3)
        self.filled.add(position)
        chip_box = (chip.width, chip.height)
        strip_box = (right - left, self.plan.sizes.row_height)
        area = swept(there, *chip_box) + swept([*back], *chip_box)
        area += swept([start, *path], *strip_box)
        walked = swept(there, *chip_box)
        later, now = (shown, []) if late else ([], shown)
        return Lookup(walk, moved, settle, mark_row, go, walked, area, later, outline, now)

    def beat_lookup(self, beat: Beat) -> Animation:
        """One ID at teaching pace: mark its row; fetch it (walk there and back); settle.

        When its strip's path from the block at rest would cross a filled row,
        the block glides up first and back at the end (or with a later lookup
        beat, see :attr:`stays_open`).
        """
        assert beat.highlight is not None
        name, held, stay = beat.name, beat.name in self.held, beat.name in self.stays_open
        return self.lookup_one(beat.highlight.position, stay, held, place=self.places.get(name))

    def lookup_one(
        self,
        position: tuple[int, ...],
        stay: bool = False,
        up: bool = False,
        paced: bool = True,
        place: float | None = None,
    ) -> Steps:
        """Return one ID's lookup at teaching pace: mark the row, fetch it, settle.

        The first phrase names the ID (its chip is ringed); with the phrase that
        says its row is copied the chip walks to the row, outlined as it
        arrives, and brings it home in one step (:meth:`teaching_steps`): one
        thread of motion, cause before effect, and no wait beside the row.
        With ``stay``, blocks that part stay parted for the next lookup beat; ``up``: held;
        ``place``: the block glides that far up first (see :attr:`places`).
        ``paced``: the chip's walks get their floors (see :meth:`_one`).
        """
        self._show_output()
        lift = self._order([self.output.row_of(position)], up)[1] if place is None else place
        opening = self._opening(lift)
        one = self._one(position, lift, paced)
        first, fetch = self.teaching_steps(one, position)
        if paced:
            self._keep(position, one, lift)
        ending = [*self._closing(stay, [one]), *late_glide(self, [one])]
        start = Succession(opening, first) if opening is not None else first
        return Steps(start, fetch, Succession(one.settle, *ending) if ending else one.settle)

    def teaching_steps(self, one: Lookup, position: tuple[int, ...]) -> tuple[Animation, Animation]:
        """Return a lookup's first two steps: ring the ID's chip; fetch its row, lit on arrival.

        The ring is built as it starts, where the chip stands then (a glide may move it first).
        """
        chip = self.chips.chips[self.output.row_of(position)]
        pointed = make_deferred_animation(
            lambda: RingFlash(chip, color=self.theme.highlight, buff=SPACE / 2, run_time=1.0), 1.0
        )
        return pointed, Succession(one.arriving(float(one.go.get_run_time())), one.moved)

    def _keep(self, position: tuple[int, ...], one: Lookup, lift: float) -> None:
        """Keep the row of E outlined, and ring the output row as its strip lands (see ``kept``)."""
        slices = getattr(self.output, "slices", None)  # a batch's stack: row t of slice b
        grid = slices[position[0]] if slices else self.output.grid
        at = position[1] if slices else self.output.row_of(position)
        ring = grid.row_outline(at, self.theme.id_line).shift(xyz(self.slide, lift))
        row = int(self.cells[("token_id", position)].value)
        one.settle = AnimationGroup(one.settle, self.kept.keep(row, one.outline, ring))

    def before_beat(self, beat: Beat) -> None:
        """Hand what the beat before kept outlined to this beat's first motion."""
        self.kept.before_beat()

    def release(self) -> list[Animation]:
        """Fade what the beat before kept outlined and this beat has not taken."""
        return self.kept.release(self._on_screen)  # type: ignore[arg-type]

    def beat_lookup_many(self, beat: Beat) -> Animation:
        """Play the remaining IDs together: each starts as soon as its paths are clear.

        Like a :class:`manim.LaggedStart`, each lookup starts a little after the
        one before; it waits longer only while its chip's or its strip's path
        would cross one still moving. A glide before or after them is a step of
        its own, so that the beat gives it its time (:func:`glide_floor`).
        """
        self._show_output()
        assert beat.output is not None
        landing = [p for p in beat.output.filled if p not in self.filled]
        if not landing:
            return point_at(self.output.grid.body, self.theme.highlight)
        rows, lift = self._order([self.output.row_of(p) for p in landing], beat.name in self.held)
        opening = self._opening(lift)
        lookups = [self._one(self.output.positions[t], lift, paced=False) for t in rows]
        starts = clear_starts(lookups)
        items: list[Animation] = []
        for one, start in zip(lookups, starts, strict=True):
            item = one.together()
            items.append(Succession(Wait(run_time=start), item) if start > 0 else item)
        ending = [*self._closing(beat.name in self.stays_open, lookups), *late_glide(self, lookups)]
        steps = [] if opening is None else [opening]
        steps += [AnimationGroup(*items), *([Succession(*ending)] if ending else [])]
        return Steps(*steps) if len(steps) > 1 else steps[0]

    def _opening(self, lift: float) -> Animation | None:
        """Return the blocks' parting (up ``lift``, apart), unless they stand parted or need not."""
        if self.opened is not None:
            if abs(lift) <= 1e-9 or not self.rebased:
                return None
            self.further = lift  # parted at another place (``places``): on to this beat's
            return self.part(lift)
        if abs(lift) <= 1e-9 and self.slide <= 0 and self.matrix_slide <= 0:
            return None
        self.opened = (lift, self.slide, self.matrix_slide)
        return self.part(lift)

    def _closing(self, stay: bool, lookups: Sequence[Lookup]) -> list[Animation]:
        """Return the blocks' glide back to rest, if they stand parted, unless they ``stay``.

        Staying, the motion counts from where they stand (the next beat's paths
        start there): their chips' homes move there and nothing is left to glide.
        Closing before ``lookups``' late marks, the blocks glide straight to where
        those marks want them (:func:`~embedviz.render.parts.late.late_glide`): one glide.
        """
        if self.opened is None:
            return []
        if self.further:  # the glide on from where the blocks stood parted (``_opening``)
            further, self.further = self.further, 0.0
            self.opened = (self.opened[0] + further, *self.opened[1:])
            self.chips.homes = [h + self.parted_homes(further, 0, 0) for h in self.chips.homes]
            self.lift -= further
        lift, slide, matrix_slide = self.opened
        offset = self.parted_homes(lift, slide, matrix_slide)
        if stay:
            if not self.rebased:
                self.chips.homes = [home + offset for home in self.chips.homes]
                self.slide, self.matrix_slide, self.lift = 0.0, 0.0, self.lift - lift
                self.rebased = True
            return []
        if self.rebased:
            self.chips.homes = [home - offset for home in self.chips.homes]
            self.slide, self.matrix_slide, self.lift = slide, matrix_slide, self.lift + lift
            self.rebased = False
        self.opened = None
        shift = self.late_shift if late_marks(lookups) else 0.0
        closing = self.part(lift, -1.0, shift)
        self.slide, self.matrix_slide, self.late_shift = slide + shift, matrix_slide - shift, 0.0
        return [closing]

    def _show_output(self) -> None:
        """Make sure the block, its heading and row numbers are on screen (numbers may wait)."""
        shown = {id(m) for top in self.host.mobjects for m in top.get_family()}
        parts = (self.output.grid, self.output.heading, self.output.numbers)
        missing = [m for m in parts if not any(id(f) in shown for f in m.get_family())]
        if missing:
            self.host.add(*missing)
