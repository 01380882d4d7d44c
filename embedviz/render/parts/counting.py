"""ZeroBasedIndexing's one thread of motion: the chip counts rows, rows follow it out.

:class:`CountingMotion` plays the beats where the chip walks and rows move:

- ``wrong_count``: the chip walks to the column right of E (straight down
  from where the intro stood it, above the rows: :attr:`CountingMotion.start`)
  and counts rows from one (the tallies appear left of the row numbers, apart
  from them), landing a row early; it stays there, at the end of that row,
  and the wrong row goes straight out past it, level with itself, into the
  slip, which is crossed out: the chip stands between the row it picked and
  its copy, level with both (its next walk starts there).
- ``right_count``: the slip is cleared and struck out; the chip counts from zero and stops
  at the ID's row, outlined in amber, its ordinal (``4th``) beside it.
- ``trace``: the slip leaves (the diagnosis brings its struck lines back); the
  trace's steps are written; the chip walks home and the ID's row follows it into
  the returned vector, where the chip stays as its tag.

Every walk is a rounded path through the free column; every strip is a
:class:`~embedviz.render.parts.strip.Carry` (it never covers its own row).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Create,
    LaggedStart,
    Succession,
    VGroup,
    VMobject,
    Wait,
)

from embedviz.render.animations import Steps, point_at
from embedviz.render.design import LABEL_RATIO, Theme, dim_opacity
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn
from embedviz.render.glyphs import NumberText
from embedviz.render.metrics import xyz
from embedviz.render.parts.chips import Chip, Follow, curve_points
from embedviz.render.parts.kept import KeptOutlines, shown_on
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.strip import Carry
from embedviz.render.parts.trace import SlipCard, TraceCard
from embedviz.render.solve_zero_based import ZeroPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["CountingMotion"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]

# Drawn above the blocks, below a travelling strip.
CHIP_Z = 10
# Seconds of a walk, and of each counted row's step.
_WALK, _STEP = 0.8, 0.45


class CountingMotion(Component):
    """The chip, the counts beside the row numbers, and the motions between matrix and panel.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell, by (kind, index).
    plan
        Where things go.
    theme
        Colours.
    matrix, slip, trace
        The parts the chip and the rows move between.
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: ZeroPlan,
        theme: Theme,
        matrix: MatrixPart,
        slip: SlipCard,
        trace: TraceCard,
    ) -> None:
        super().__init__(host, theme)
        self.plan, self.matrix, self.slip, self.trace, self.cells = plan, matrix, slip, trace, cells
        self.token_id = token_id = board.single_id()
        label = plan.scale.label
        self.chip = Chip(cells[("token_id", (0,))], label, theme)
        self.home = xyz(plan.tag_x(), plan.row_y(token_id))
        # Above the vectors it walks past (a strip, above it, follows it).
        self.chip.move_to(self.home).set_z_index(CHIP_Z)
        # Where the chip waits before its first walk, if not at home (the stage's intro).
        self.start: np.ndarray | None = None
        self.tallies = VGroup()
        for (kind, index), cell in sorted(cells.items()):
            if kind == "one_based_count":
                tally = NumberText(cell, label, theme.wrong)
                self.tallies.add(tally.place(xyz(plan.count_right, plan.row_y(index[0])), "right"))
        ordinal = cells[("ordinal", (token_id,))]
        self.ordinal = NumberText(ordinal, label, theme.text)
        self.ordinal.place(xyz(plan.count_right, plan.row_y(token_id)), align="right")
        self.radius = plan.sizes.row_height * 0.45
        self.wrong_box: VMobject | None = None
        self.outline: VMobject | None = None
        self.kept = KeptOutlines()

    def intro(self) -> list[VMobject]:
        """Return the chip (waiting at home, or where the stage stood it: :attr:`start`)."""
        return [self.chip]

    # -- paths ----------------------------------------------------------------
    def _park(self, row: int) -> np.ndarray:
        return xyz(self.plan.park_x(), self.plan.row_y(row))

    def _walk(self, points: list[np.ndarray], run_time: float = _WALK) -> Follow:
        return Follow(self.chip, curve_points(points, self.radius), run_time=run_time)

    def _leave(self) -> list[np.ndarray]:
        """Return where the next walk starts: :attr:`start` the first time, else home.

        From home the chip first walks left along the ID's (empty) lane.
        """
        if self.start is not None:
            start, self.start = self.start, None
            return [start]
        return [self.home, self._park(self.token_id)]

    def _out_to_row0(self) -> Follow:
        """Walk from where the chip waits to the column, then along it to row 0."""
        first = min(self.plan.row_centres)
        return self._walk([*self._leave(), self._park(first)])

    def _count(self, rows: list[int], tallies: list[NumberText]) -> list[Animation]:
        """Step down the rows one by one, pulsing each row number (and showing its tally)."""
        labels = self.matrix.grid.row_labels
        colour, grow = self.theme.highlight, 1 / LABEL_RATIO
        steps: list[Animation] = []
        for number, row in enumerate(rows):
            moves: list[Animation] = [point_at(labels[row], colour, scale=grow)]
            if number:
                moves.append(self._walk([self._park(rows[number - 1]), self._park(row)], _STEP))
            if number < len(tallies):
                moves.append(FadeIn(tallies[number], shift=0.1 * xyz(-1, 0)))
            steps.append(AnimationGroup(*moves))
        return steps

    def _home_from(self, row: int) -> Follow:
        """Walk from the end of ``row`` down or up the column to the ID's lane, then home."""
        return self._walk([self._park(row), self._park(self.token_id), self.home])

    # -- beats ------------------------------------------------------------------
    def beat_wrong_count(self, beat: Beat) -> Animation:
        """Count from one and land a row early; then fetch the wrong row and cross it out.

        The chip stays beside the row it landed on while the row's copy goes out
        past it, so it stands level with what it fetched (and :attr:`start` is
        set there: the next count walks up from it).
        """
        wrong = self.token_id - 1
        slip, theme = self.slip, self.theme
        rows = [r for r in self.matrix.grid.get_rows() if r <= wrong]
        shown = [slip.header, slip.line, *([slip.nothing] if slip.nothing is not None else [])]
        if wrong >= 0:
            self.wrong_box = self.matrix.grid.row_outline(wrong, theme.wrong)
            tallies = [t for t in self.tallies if isinstance(t, NumberText)]
            arrive: Animation = Succession(self._out_to_row0(), *self._count(rows, tallies))
            marked: list[Animation] = [OutlineIn(self.wrong_box)]
        else:
            # Row -1 would sit above row 0, where there is no row at all.
            arrive = self._walk([*self._leave()[:1], self._park(0), self._park(-1)])
            marked = []
        found = Succession(arrive, AnimationGroup(*marked, *[FadeIn(m) for m in shown]))
        # The tallies recede while the wrong row is fetched (they leave with the next
        # beat), as far as dimmed content may: 3:1 against the background.
        spent = self.tallies.animate.set_fill(opacity=dim_opacity(theme.wrong, theme.background))
        if slip.vector is None:
            return Steps(found, Succession(self._home_from(-1), Create(slip.cross)))
        # No ID selected this row: its strip is framed in the neutral "wrong", not amber.
        carry = Carry(
            self.matrix.grid,
            wrong,
            None,
            None,
            slip.targets,
            [self._landing(wrong)],
            theme,
            frame=theme.wrong,
            place=slip.vector,
        )
        # The vector's frame comes as the strip lands in it (the carry's ``place``).
        # The chip stays where the count left it, at the end of the row it picked, and
        # the row's copy goes out past it: level with both, it leads the eye from row to
        # copy (walked home, it stood level with row 3 beside nothing while the copy and
        # its cross stood a row higher: issue 18, a 720p review). Its next walk starts here.
        self.start = self._park(wrong)
        fetched = AnimationGroup(
            spent,  # type: ignore[arg-type]
            Succession(Wait(run_time=0.3), carry),
        )
        # The vector is named as it is crossed out (what it is, and that it is wrong).
        label = [FadeIn(m) for m in (slip.label,) if m is not None]
        named = AnimationGroup(Create(slip.cross), *label)
        return Steps(found, Succession(fetched, named))

    def _landing(self, row: int) -> np.ndarray:
        """Where a strip's centre lands in the panel: level with the row it left."""
        return xyz(self.plan.panel_left + self.plan.body_width / 2, self.plan.row_y(row))

    def beat_right_count(self, beat: Beat) -> Animation:
        """Clear the tallies, dim and strike out the slip, point at row number 0; then count from 0.

        What the slip fetched stays, crossed out, beside the count that corrects
        it (until the trace needs its place): the panel stood empty under the
        slip's lines (22.7 % of the frame).
        """
        leaving = [*self.tallies, *[m for m in (self.wrong_box,) if m is not None]]
        labels = self.matrix.grid.row_labels
        cleared = AnimationGroup(*[FadeOut(m) for m in leaving], self.slip.refute())
        grow = 1 / LABEL_RATIO
        zero = point_at(labels[min(labels)], self.theme.highlight, scale=grow)
        rows = [r for r in self.matrix.grid.get_rows() if r <= self.token_id]
        self.outline = self.matrix.outline(self.token_id)
        walk = (
            self._out_to_row0()
            if self.token_id > min(labels)
            else self._walk([self.home, self._park(self.token_id)])
        )
        counted = Succession(walk, *self._count(rows, []))
        landed = AnimationGroup(
            OutlineIn(self.outline), FadeIn(self.ordinal, shift=0.1 * xyz(1, 0))
        )
        return Steps(Succession(cleared, zero), Succession(counted, landed))

    def beat_trace(self, beat: Beat) -> Animation:
        """Write the input ID; then the index and the vector, which the ID's row fills.

        The chip walks home along its row's lane and the row follows it as a
        strip into the returned vector, where the chip stays as its tag.
        """
        trace = self.trace
        # The slip's crossed-out result leaves: the trace's lines take its place. Its struck
        # lines go too (read in their own beat; the diagnosis brings them back to point at):
        # a 720p review saw them stand over the trace and the check as clutter.
        slip = [FadeOut(m) for m in (*self.slip.fetched(), self.slip.cross)] + [self.slip.leave()]
        first = LaggedStart(
            AnimationGroup(*slip), FadeIn(trace.heading), FadeIn(trace.steps[0]), lag_ratio=0.5
        )
        written = LaggedStart(FadeIn(trace.steps[1]), FadeIn(trace.vector_label), lag_ratio=0.5)
        row = self.token_id
        carry = Carry(
            self.matrix.grid,
            row,
            self.chip,
            self.cells[("output_id", (0,))],
            trace.targets,
            [self._landing(row)],
            self.theme,
            place=trace.vector,
        )
        back: Animation = self._walk([self._park(row), self.home], 1.0)
        # The vector's frame comes as the strip lands in it (the carry's ``place``).
        moved = LaggedStart(back, carry, lag_ratio=0.3)
        # The named row stays outlined to the beat's end; the next beat's first motion fades it.
        self.kept.hold(row, self.outline)
        return Steps(first, Succession(written, moved))

    def before_beat(self, beat: Beat) -> None:
        """Hand the row the beat before kept outlined to this beat's first motion."""
        self.kept.before_beat()

    def release(self) -> list[Animation]:
        """Fade the row the beat before kept outlined (see :mod:`~embedviz.render.parts.kept`)."""
        return self.kept.release(shown_on(self.host))
