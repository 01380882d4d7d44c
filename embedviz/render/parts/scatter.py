"""The lookup's backward pass as one thread of motion: each ``w_t`` travels into row ``id_t``.

:class:`ScatterMotion` plays the ``scatter`` beat of TrainingNudge. A weight
row lifts off as a strip (amber: the strip of its token ID), travels out to
the right along its own line into the free column under the gradient, and
rises into its gradient row. A repeated ID's rows first land one under the
other there (the column sum, :class:`~embedviz.render.parts.training.SumPanel`),
are added up under a rule, and a copy of their sum rises as one strip.
Gradient rows fill from the top, so a rising strip only crosses rows that
are still empty; the rows no ID selected then get their zeros.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Create,
    Succession,
    VMobject,
    Wait,
)

from embedviz.render.animations import Steps, make_deferred_animation
from embedviz.render.design import Theme
from embedviz.render.fades import FadeIn, FadeOut, RingFlash, StepAside
from embedviz.render.metrics import xyz
from embedviz.render.pace import fit_floors, seconds_of
from embedviz.render.parts.grid import CellGrid
from embedviz.render.parts.landing import landing_carry
from embedviz.render.parts.rows import Rows
from embedviz.render.parts.strip import Carry, numbers_fade
from embedviz.render.parts.strip_frame import shade_from
from embedviz.render.parts.training import (
    GradientPart,
    SumPanel,
    WeightsPart,
    empty_grid,
    line_slots,
    sum_rule,
)
from embedviz.render.solver_training import TrainingPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["ScatterMotion"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]

# Seconds (relative, inside the beat's first step) of a strip's travel and of a sum's pause.
_CARRY, _PAUSE = 1.0, 0.4
# Seconds the scatter-adds leave before the zeros' phrase: a frame and a half at 15 fps.
_PHRASE_MARGIN = 0.1
# Seconds (relative, as _CARRY) a sum row's name takes to fade in once its row has landed.
_NAME_FADE = 0.3
# The share of its height a rising sum's copy has clear of the sum before its digits show:
# centred in it, they stand over nothing of the sum from about 0.72.
_DIGITS_CLEAR = 0.75


class ScatterMotion(Component):
    """Scatter-add: every weight row into its ID's gradient row, repeats summed on the way.

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
    weights, gradient
        The parts the rows travel between.
    panel
        Where a repeated ID's rows are added up (None without a repeat).
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: TrainingPlan,
        theme: Theme,
        weights: WeightsPart,
        gradient: GradientPart,
        panel: SumPanel | None,
    ) -> None:
        super().__init__(host, theme)
        self.board, self.cells, self.plan = board, cells, plan
        self.weights, self.gradient, self.panel = weights, gradient, panel
        window = board.beats[0].window
        self.by_row: dict[int, list[tuple[int, ...]]] = {}
        for chip in weights.chips:
            self.by_row.setdefault(int(chip.number.cell.value), []).append(chip.number.cell.index)
        # Gradient rows fill from the top: a strip rises only through empty rows.
        self.order = sorted(self.by_row, key=window.rows.index)
        grid = gradient.grid
        self.column_x = (grid.body_left() + grid.body_right()) / 2

    def beat_scatter(self, beat: Beat) -> Animation:
        """Each ``w_t`` into row ``id_t`` of ``∂L/∂E``; then every other row gets exactly zero.

        Two steps: the scatter-adds with the first phrase, the zeros with
        "Every other row gets exactly zero." The column sum stays once worked
        out, but a later row's strip travels along its weight row's line,
        through the sum's rows: the sum makes way only while such strips
        travel (it fades after their chip is pointed at, and is back as soon as
        the last has landed). Back only with the zeros, it stood away, unchanged,
        for seconds after its place was clear: a frame review read it as a glitch.
        """
        self.worked: Callable[[], list[VMobject]] | None = None
        self.aside: dict[int, Any] = {}
        steps: list[Animation] = []
        away = False
        for row in self.order:
            later = self.worked is not None
            if len(self.by_row[row]) == 1:
                first, *rest = self._single(row)
            else:
                first, *rest = self._sum(row)
            steps.append(first)
            if later and not away:
                steps.append(self._make_way(out=True))
                away = True
            steps += rest
        if away:
            steps.append(self._make_way(out=False))
        # Each strip's carry lasts LANDING_SECONDS (its numbers fade in, not pop): the pointing,
        # sums and pauses give it the time, so the scatter still ends before "Every other
        # row gets exactly zero." (stretched as a whole it ran 8 frames into that phrase).
        fit_floors(steps, _scatter_seconds(beat))
        zeros = [FadeIn(m) for m in self.gradient.zeros()]
        # Where the IDs select every row there is no zero row to show: the phrase holds still.
        shown = AnimationGroup(*zeros, run_time=2.0) if zeros else Wait(2.0)
        return Steps(Succession(*steps), shown)

    def _make_way(self, out: bool) -> Animation:
        """Fade the column sum out of later strips' way, or back once their way is clear.

        Both in the beat's first play: the sum stays on screen, its colours
        kept for the way back (:class:`~embedviz.render.fades.StepAside`).
        """
        worked = self.worked
        assert worked is not None
        saved = self.aside
        return make_deferred_animation(lambda: StepAside(worked(), saved, out), run_time=0.3)

    def _path(self, position: tuple[int, ...], target_y: float) -> list[np.ndarray]:
        """Out along the weight row's own line, then up (or down) the column under the gradient."""
        y = self.weights.rows.y(position)
        points = [xyz(self.column_x, y)]
        if abs(target_y - y) > 1e-9:
            points.append(xyz(self.column_x, target_y))
        return points

    def _pointed(self, positions: list[tuple[int, ...]]) -> Animation:
        chips = [self.weights.chips[self.weights.rows.positions.index(p)] for p in positions]
        return AnimationGroup(*[RingFlash(c, color=self.theme.highlight) for c in chips])

    def _single(self, row: int) -> list[Animation]:
        """One ID's weight row into its gradient row: its chip pointed at; its strip's travel."""
        (position,) = self.by_row[row]
        targets = self.gradient.rows.numbers[(row,)]
        path = self._path(position, self.gradient.rows.y((row,)))
        grid, index = self.weights.grid, self.weights.rows.index(position)
        carry = landing_carry(grid, index, None, None, targets, path, self.theme, run_time=_CARRY)
        return [self._pointed([position]), _shown_on_the_way(carry)]

    def _work(self, row: int) -> tuple[CellGrid, Rows, Rows, VMobject, bool]:
        """Return where a repeated ID's rows are added up: the column sum, or a scratch one.

        The column sum (:class:`~embedviz.render.parts.training.SumPanel`) shows
        the repeat the storyboard names; any other repeat is added up in its
        place with copies (its weights, and its gradient row as their sum),
        which leave once the sum has risen.
        """
        panel, plan, theme, cells = self.panel, self.plan, self.theme, self.cells
        if panel is not None and panel.row == row:
            return panel.grid, panel.terms, panel.sums, panel.rule, True
        positions, data, scale = self.by_row[row], plan.scale.data, self.board.value_scale
        window = self.board.beats[0].window
        corner = (self.gradient.grid.body_left(), plan.weights_top)
        grid = empty_grid(
            line_slots(len(positions) + 1, plan), window, plan, theme, corner, theme.output
        )
        terms = Rows(grid, positions, cells, "upstream", data, theme, scale)
        sums = Rows(grid, [(row,)], cells, "grad", data, theme, scale, first=len(positions))
        return grid, terms, sums, sum_rule(grid, len(positions), theme), False

    def _sum(self, row: int) -> list[Animation]:
        """Land a repeated ID's weight rows one under the other, add them, raise a copy of the sum.

        Returns the steps, the chips' pointing first. The column sum stays
        (:meth:`beat_scatter` moves it out of later strips' way while they
        travel); a scratch sum's copies leave once its sum has risen.
        """
        grid, terms, sums, rule, shown = self._work(row)
        positions, theme = self.by_row[row], self.theme
        arrivals = [
            landing_carry(
                self.weights.grid, self.weights.rows.index(p), None, None, terms.numbers[p],
                self._path(p, terms.y(p)), theme, run_time=_CARRY,
            )
            for p in positions
        ]  # fmt: skip
        for carry in arrivals:
            _shown_on_the_way(carry)
        rise = landing_carry(
            grid, sums.index((row,)), None, None, self.gradient.rows.numbers[(row,)],
            [xyz(self.column_x, self.gradient.rows.y((row,)))], theme, kind=SumRise,
            run_time=_CARRY,
        )  # fmt: skip
        body = [grid] if shown else []
        # The column sum is labelled as it fills: each row's name (w_0, + w_2) comes as it
        # lands and "=" with the rule, so it is never on screen unexplained. Fading in with
        # the carry, w_0 showed under the first number of its copy sliding past (a 720p
        # review, 27.84 s): the name stands in the copy's way, so it follows it.
        names = self.panel.names if shown and self.panel is not None else []
        landing: list[Animation] = [
            AnimationGroup(carry, FadeIn(name, run_time=_NAME_FADE), lag_ratio=1.0)
            for carry, name in zip(arrivals, names, strict=False)
        ] or list(arrivals)

        def worked() -> list[VMobject]:
            landed = [m for carry in arrivals for m in carry.strip[2].submobjects]
            numbers = [n for p in positions for n in terms.numbers[p]]
            return [*body, *names, *numbers, *landed, rule, *sums.all()]

        steps: list[Animation] = [
            AnimationGroup(self._pointed(positions), *[FadeIn(m) for m in body]),
            *landing,
            AnimationGroup(Create(rule), *[FadeIn(m) for m in [*sums.all(), *names[-1:]]]),
            Wait(run_time=_PAUSE),
            rise,
        ]
        if shown:
            # Later rows' strips cross it: beat_scatter fades it out of their way and back.
            self.worked = worked
        else:
            steps.append(make_deferred_animation(lambda: _fade(worked(), out=True), run_time=0.3))
        return steps


def _shown_on_the_way(carry: Carry) -> Carry:
    """Keep a scatter strip's numbers shown once it is out of its block, all the way home.

    A lookup's strip hides its numbers off its rows' lines, where they would read
    as another row's; but a scatter strip only ever passes rows still empty (the
    gradient fills from the top, the column sum from its first term down, and it
    steps aside while later strips pass), so hidden there it travelled as an
    empty amber box (a 720p review of TrainingNudge at GPT-2 size, 28.2 to 30.7 s).
    Its numbers fade in as it clears its block, as a riding strip's do.
    """
    carry.rides = True
    return carry


class SumRise(Carry):
    """The column sum's copy, rising out of the sum's top edge to its row of the gradient.

    It leaves through the top, not the right, so the lookup's rules (numbers shown once
    clear of the right edge) kept them hidden all the way while its box rose whole: an
    empty amber box (a 720p review of TrainingNudge at GPT-2 size, 29.7 s). Its numbers
    fade in once three quarters of its height are clear of the sum (its digits then stand
    over nothing of it), as a riding strip's do once out, and its box with them, a step
    behind (:data:`~embedviz.render.parts.strip_frame.LAG`).
    """

    # From which share of its run its digits are clear of the sum, and over how much of
    # it they fade in (set on first use: the carry's own start asks before it returns).
    fade_in: tuple[float, float] | None = None

    def start_from_box(self) -> None:
        """Set the path and cover as any carry; then shade its box by its numbers."""
        super().start_from_box()
        shares = np.linspace(0.0, 1.0, 401)
        whole = next((float(a) for a in shares if self._today(float(a)) >= 1.0), 1.0)
        self.shade = shade_from(self, whole)

    def _clear(self, alpha: float) -> float:
        """Return the share of its height clear of the sum's top at ``alpha``."""
        _, bottom, _, top = self._moved(alpha)
        return (top - self.cover[3]) / max(top - bottom, 1e-9)

    def _today(self, alpha: float) -> float:
        """Return its numbers' opacity: fading in from when its digits are clear of the sum."""
        if self.fade_in is None:
            shares = np.linspace(0.0, 1.0, 401)
            clear = (float(a) for a in shares if self._clear(float(a)) >= _DIGITS_CLEAR)
            start = next(clear, 1.0)
            self.fade_in = (start, numbers_fade(seconds_of(self), start))
        start, fade = self.fade_in
        return min(1.0, max(0.0, (alpha - start) / fade))


def _scatter_seconds(beat: Beat) -> float:
    """Return the seconds the scatter-adds may take: up to the zeros' phrase, a frame or so less.

    (The phrases start on their nearest frames; a step's frames are rounded up.)
    """
    end = beat.phrases[1].start if len(beat.phrases) > 1 else beat.duration
    return end - _PHRASE_MARGIN


def _fade(mobjects: list[VMobject], out: bool) -> Animation:
    """Fade mobjects out (or back in) together."""
    return AnimationGroup(*[(FadeOut if out else FadeIn)(m) for m in mobjects])
