"""LargeVocabLookup's thread of motion: lookups from a window that scrolls, and from hidden rows.

:class:`VocabMotion` is the lookup family's
:class:`~embedviz.render.parts.motion.LookupMotion` on a
:class:`~embedviz.render.parts.scroll.ScrollingMatrix`: a chip walks to its
row in the window shown, or, when the window hides that row, to the band that
stands for its hidden range; that row's strip (:class:`BandCarry`) then lifts
off the band, with the row's true values, and the chip rides home at its right
end (:mod:`~embedviz.render.parts.ride`: it docks past the scroll bar, and
steps in while the strip is still hidden).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Mobject,
    Rectangle,
    Succession,
    VGroup,
    VMobject,
    Wait,
)
from manim.utils.rate_functions import smooth

from embedviz.render.animations import Steps
from embedviz.render.design import Theme
from embedviz.render.glyphs import LabelText, NumberText
from embedviz.render.metrics import xyz
from embedviz.render.pace import at_least, needed_seconds
from embedviz.render.parts.chips import Chip
from embedviz.render.parts.grid import CellGrid
from embedviz.render.parts.late import late_glide
from embedviz.render.parts.lookup import ChipColumn, OutputPart
from embedviz.render.parts.matrix_grid import ROW_LABEL_BUFF
from embedviz.render.parts.motion import LookupMotion
from embedviz.render.parts.schedule import REST_WALK, Lookup, late_marks
from embedviz.render.parts.scroll import ScrollingMatrix
from embedviz.render.parts.strip import STRIP_Z, Carry, RowStrip
from embedviz.render.solver import LookupPlan
from embedviz.render.stage import StageHost
from embedviz.story.model import Beat, NumberCell

__all__ = ["DWELL", "BandCarry", "VocabMotion", "band_strip", "pace_rest"]

# Seconds a chip waits beside the row it looks up (or its hidden range's band) at teaching
# pace, before it brings the row home. Without it the chip turned back the instant it
# arrived: a 720p review of mid-motion frames saw it only on its way, level with the
# column numbers, and read that as where it stopped (issue 18). Its own part of the fetch
# (:meth:`VocabMotion.fetch`), played as built: built with the walk, the walk's pace floor
# (chip_floor) stretched it (to 1.1 s), and the fetch needed 5.6 s of lookup-1's 5.4 s.
DWELL = 0.45
# The first lookup's (no scroll, no glide before its fetch): its beat stretches the wait.
FIRST_DWELL = 0.3
# The rest's lookups play at most this much faster than they are built (REST_WALK and
# REST_CARRY: their own pace). Down one corridor they go one after another, about 9 s of
# motion; shared out with the beat's other step they got 2.5 s, 3.7 times their pace, and a
# 720p review saw the last chip (row 50256's) still on its way as its row had to fill
# (issue 18). Floored (by the stage: :func:`pace_rest`), the step grows into the beat's
# hold, the next step starting late.
REST_SPEEDUP = 2.5
# Seconds (at the rest's own pace) a chip of the rest waits beside its row: played one after
# another, a chip turned back the instant it arrived, and the last one (row 50256's) was
# never seen docked (a sample each fortieth of the step; issue 18). A fortieth of the
# step's own time (about 12 s with the waits) or more, so a sample reads each chip docked.
REST_DWELL = 0.35
# Seconds left for the frames' rounding where the rest's step fills the room its beat has.
ROUNDING = 0.2

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]


def band_strip(
    grid: CellGrid, y: float, targets: Sequence[NumberText], dx: float, row: int, theme: Theme
) -> RowStrip:
    """Build the strip of a hidden row, on its band: the row's values in the matrix's columns.

    Parameters
    ----------
    grid
        The matrix on screen.
    y
        The band's centre line.
    targets
        The output row's numbers (placed in the output block); the strip
        shows copies of them, moved into the matrix's columns.
    dx
        How far the matrix's body is right of the output block's (they have
        the same columns, so each number keeps its place in its cell).
    row
        The hidden row.
    theme
        Colours.

    Returns
    -------
    RowStrip
        Box, numbers and elision marks, as :func:`~embedviz.render.parts.strip.make_strip`.
    """
    height = next(s.size for s in grid.row_slots if not s.gap)
    left, right = grid.body_left(), grid.body_right()
    numbers = VGroup(*[t.copy().shift(xyz(dx, y - t.get_center()[1])) for t in targets])
    marks = VGroup()
    font = targets[0].font_size if targets else 12.0
    for slot in grid.col_slots:
        if slot.gap:
            mark = LabelText("\u2026", font, theme.muted)
            marks.add(mark.move_to(xyz(grid.col_x(slot.key, gap=True), y)))
    box = Rectangle(width=right - left, height=height)
    box.move_to(xyz((left + right) / 2, y))
    box.set_fill(theme.cell_fill, opacity=1.0).set_stroke(theme.id_line, width=3.5)
    box.set_z_index(STRIP_Z)
    numbers.set_z_index(STRIP_Z + 1)
    marks.set_z_index(STRIP_Z + 1)
    return RowStrip(box, numbers, marks, source_row=row)


def pace_rest(step: Animation, seconds: float, after: Animation | None = None) -> Animation:
    """Floor the rest's step: at most :data:`REST_SPEEDUP` times its pace, as room allows.

    The beat lasts ``seconds``; ``after`` (its next step, if any) keeps the
    floor it needs (the blocks' closing glide), and a little more for the
    frames' rounding. Return ``step``.
    """
    room = seconds - (needed_seconds(after) if after is not None else 0.0) - ROUNDING
    return at_least(step, max(0.0, min(float(step.get_run_time()) / REST_SPEEDUP, room)))


class BandCarry(Carry):
    """The carry of a row the window hides: its strip lifts off the band of its hidden range.

    Parameters
    ----------
    grid, row, chip, tag, targets, waypoints, theme
        As :class:`~embedviz.render.parts.strip.Carry`.
    band_y
        The band's centre line.
    dx
        How far the matrix's body is right of the output block's.
    **kwargs
        Passed to :class:`~embedviz.render.parts.strip.Carry`.
    """

    def __init__(self, *args: Any, band_y: float, dx: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.band_y, self.dx = band_y, dx

    def begin(self) -> None:
        """Build the strip on the band, from the row's true values."""
        built = band_strip(self.grid, self.band_y, self.targets, self.dx, self.row, self.theme)
        self.strip.add(*built.submobjects)
        # The band it leaves: the strip's box there (the body's width, a row's height).
        # It slides out from under the matrix as a row's strip does.
        self.start_from_box()
        # Carry.begin's work is done; the Animation's own begin is what is left.
        super(Carry, self).begin()


class VocabMotion(LookupMotion):
    """Lookups on a scrolling window: a shown row lifts off its row, a hidden one off its band.

    Parameters
    ----------
    host, theme, plan, output, chips, cells
        As :class:`~embedviz.render.parts.motion.LookupMotion`.
    matrix
        The scrolling matrix.
    """

    matrix: ScrollingMatrix

    def __init__(
        self,
        host: StageHost,
        theme: Theme,
        plan: LookupPlan,
        matrix: ScrollingMatrix,
        output: OutputPart,
        chips: ChipColumn,
        cells: Cells,
    ) -> None:
        super().__init__(host, theme, plan, matrix, output, chips, cells)
        # Each landed output row's numbers, by position (to point at equal rows).
        self.landed: dict[tuple[int, ...], list[NumberText]] = {}
        # How long a chip built now waits beside its row (teaching pace only: see ``teach``).
        self.dwell = 0.0
        # Where the block and E rest once the last lookup's marks stand in the corridor
        # (how far left of its place, and E right of its): None, where they rest before.
        self.end_rest: tuple[float, float] | None = None
        # Outlines round landed output rows that the stage keeps: they glide with the block.
        self.riders: list[VMobject] = []
        # The closing and late marks kept back while ``lookups_then`` builds (else None).
        self.ending: list[Animation] | None = None
        # While ``lookups_then`` builds: the rest's chips wait beside their rows (REST_DWELL).
        self.resting = False

    def matrix_side(self, shown: bool = False) -> list[Mobject]:
        """Return the matrix's side (see LookupMotion's), with its scroll bar and its count."""
        bar: list[Mobject] = [m for m in (self.matrix.bar, self.matrix.count) if m is not None]
        return [*super().matrix_side(shown), *(self._on_screen(bar) if shown else bar)]

    def output_side(self, shown: bool = False) -> list[Mobject]:
        """Return the output's side (see LookupMotion's), with the outlines kept round its rows."""
        riders: list[Mobject] = list(self.riders)
        riders = self._on_screen(riders) if shown else riders
        return [*super().output_side(shown), *riders]

    def opening(self) -> Animation | None:
        """Return the blocks' parting for a lookup beat's strips (None: they stand parted)."""
        return self._opening(0.0)

    def closing(self, stay: bool, lookups: Sequence[Lookup]) -> list[Animation]:
        """Return the blocks' glide back to rest after ``lookups`` (none if they ``stay``).

        After the lookups whose marks stand in the corridor, back to :attr:`end_rest`.
        """
        return [*self._closing(stay, lookups), *late_glide(self, lookups)]

    def _closing(self, stay: bool, lookups: Sequence[Lookup]) -> list[Animation]:
        """LookupMotion's, to :attr:`end_rest` after the lookups with marks in the corridor.

        While :meth:`lookups_then` builds, the closing and the late marks are kept for it.
        """
        if self.end_rest is not None and self.opened is not None and late_marks(lookups):
            self.opened = (self.opened[0], *self.end_rest)
            if not self.rebased:  # parted by this beat: they glide back by end_rest's slides
                self.slide, self.matrix_slide = self.end_rest
        closing = super()._closing(stay, lookups)
        if self.ending is None:
            return closing
        self.ending += [*closing, *late_marks(lookups)]
        for one in lookups:
            one.late = []
        return []

    def lookups_then(self, beat: Beat) -> tuple[Animation, list[Animation]]:
        """Return a ``lookup_many`` beat's lookups, and apart the blocks' closing and late marks.

        A stage plays the closing later in the beat (LargeVocabLookup: after the
        rings its next phrase names, so that they come with it), the rings riding.
        Their chips wait beside their rows (:data:`REST_DWELL`).
        """
        self.ending, self.resting = [], True
        try:
            played = self.beat_lookup_many(beat)
            return played, self.ending
        finally:
            self.ending, self.resting = None, False

    def _one(self, position: tuple[int, ...], lift: float = 0.0, paced: bool = True) -> Lookup:
        """Build one ID's motions; at teaching pace the chip waits beside its row first."""
        marks = len(self.marks)
        one = super()._one(position, lift, paced)
        if self.plan.marks_inside:
            # Its mark shows in the corridor once the blocks have closed up (they do, after
            # the last lookup): where the block rests, not at the solver's place.
            rest = self.opened[1] if self.rebased and self.opened else self.slide
            rest = self.end_rest[0] if self.end_rest is not None else rest
            for mark in self.marks[marks:]:
                mark.shift(xyz(-rest, 0))
        wait = self.dwell
        if self.resting:  # the wait's share of the walk: REST_DWELL of REST_WALK + REST_DWELL
            one.dwell = REST_DWELL
            wait = float(one.go.get_run_time()) * REST_DWELL / REST_WALK
        if wait > 0:
            one.go = Succession(one.go, Wait(run_time=wait))
            one.walk = AnimationGroup(one.go, one.mark)
        return one

    def teach(self, position: tuple[int, ...]) -> Lookup:
        """Build one ID's motions at teaching pace; its fetch, in parts: :meth:`fetch`."""
        return self._one(position)

    @staticmethod
    def fetch(one: Lookup) -> list[Animation]:
        """Return a taught lookup's fetch: the walk, the wait beside its row (``DWELL``), home.

        In parts, for its beat to fit to its phrase (:func:`~embedviz.render.pace.fit_steps`):
        the walk and the way back each take their floors' time, the wait its own. Built
        as one walk with its wait, the walk's floor stretched the wait (to 1.1 s) and the
        way back played at the walk's pace: lookup-1's fetch needed 5.6 s, after its scroll
        and the blocks' parting, of the 5.4 s its phrase has (issue 18).
        """
        return [one.go, at_least(Wait(run_time=DWELL), DWELL), one.moved]

    def teaching_steps(self, one: Lookup, position: tuple[int, ...]) -> tuple[Animation, Animation]:
        """Return the row's outline (its scroll names it), then the fetch (walk, wait, way back).

        The walk (with its wait) and the way back each take the share of the fetch
        their floors ask. Built at their own times (1.2 s there, 1 s back), the fetch
        played both at the walk's pace: the way back got 2.5 s for its 1.2 s floor, and
        the fetch 5.5 s of the 5.1 s its phrase has (issue 18).
        """
        for part in (one.go, one.moved):
            part.set_run_time(max(float(part.get_run_time()), needed_seconds(part)))
        return one.mark, Succession(one.go, one.moved)

    def lookup_one(
        self,
        position: tuple[int, ...],
        stay: bool = False,
        up: bool = False,
        paced: bool = True,
        place: float | None = None,
    ) -> Steps:
        """Play one ID's lookup at teaching pace, its chip stopping beside its row.

        The fetch (walk, wait, way back) keeps its own run time where the beat's
        hold has it to spare: the wait is not taken from the walk's pace.
        """
        self.dwell = FIRST_DWELL
        try:
            steps = super().lookup_one(position, stay, up, paced, place)
        finally:
            self.dwell = 0.0
        fetch = steps.steps[-2]
        at_least(fetch, fetch.get_run_time())
        return steps

    def source(self, row: int) -> tuple[float, float, float]:
        """Return where a row's strip leaves from: its row, or the band that hides it."""
        return self.matrix.source(row)

    def row_outline(self, row: int) -> VMobject | None:
        """Return the amber outline of a row the window shows; a hidden row's number by its band.

        An ID's outline says "this row": round a hidden range's band it stood
        on a label (``rows 2–462 hidden``), not on the ID's row (a frame
        review of the rest beat: six of eight IDs boxed gap labels, one box
        touching the last row's). A hidden row is marked by its number in
        amber, in the row numbers' column level with the band its strip
        lifts off: the chip beside the band's right end, the number at its
        left, the strip between (a 720p review of the rest saw chips walk to
        places with no row, and copies land with no source row; issue 18).
        """
        if row in self.matrix.window.rows:
            return self.matrix.outline(row)
        grid = self.matrix.grid
        number = LabelText(str(row), self.plan.scale.label, self.theme.id_ink)
        # Where the window's row numbers stand (matrix_grid's buff), level with the band.
        number.place(xyz(grid.body_left() - ROW_LABEL_BUFF, self.matrix.source(row)[2]), "right")
        return number

    def clear_here(self, targets: Sequence[int]) -> tuple[int, ...] | None:
        """Return None: the block waits where the solver put it, whose order keeps paths clear.

        (Hidden rows have no place in the window, so only the solver, which
        knows each row's window, can order them.)
        """
        return None

    def make_carry(
        self,
        row: int,
        chip: Chip,
        position: tuple[int, ...],
        path: Sequence[np.ndarray],
        targets: list[NumberText],
        pace: Callable[[float], float] = smooth,
    ) -> Carry:
        """Carry the row's strip at ``pace`` off its row, or off its band if the window hides it."""
        self.landed[position] = targets
        tag = self.cells[("output_id", position)]
        grid = self.matrix.grid
        if row in self.matrix.window.rows:
            return Carry(grid, row, chip, tag, targets, path, self.theme, pace=pace, run_time=1.0)
        band_y = self.matrix.source(row)[2]
        # Where both blocks stand when it plays: parted by the beat (``targets`` are there).
        matrix_left = grid.body_left() - self.matrix_slide
        dx = matrix_left - (self.output.grid.body_left() + self.slide)
        # At its chip's pace: the chip rides at its right end (see parts/ride.py).
        return BandCarry(
            grid,
            row,
            chip,
            tag,
            targets,
            path,
            self.theme,
            pace=pace,
            run_time=1.0,
            band_y=band_y,
            dx=dx,
        )

    def shown(self) -> list[VMobject]:
        """Return the output rows' numbers landed so far."""
        return [number for numbers in self.landed.values() for number in numbers]
