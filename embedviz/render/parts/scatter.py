"""The lookup's backward pass as one thread of motion: each ``w_t`` travels into row ``id_t``.

:class:`ScatterMotion` plays the ``scatter`` beat of TrainingNudge. A weight
row lifts off as a strip (amber: the strip of its token ID), travels out to
the right along its own line into the free column under the gradient, and
rises into its gradient row. A repeated ID's rows first land one under the
other there, are added up under a rule, and their sum rises as one strip.
Gradient rows fill from the top, so a rising strip only crosses rows that
are still empty; the rows no ID selected then get their zeros.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    Succession,
    VMobject,
    Wait,
)

from embedviz.render.animations import Steps, make_deferred_animation
from embedviz.render.design import Theme
from embedviz.render.metrics import xyz
from embedviz.render.parts.positions import Rows
from embedviz.render.parts.strip import Carry
from embedviz.render.parts.training import (
    GradientPart,
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
    ) -> None:
        super().__init__(host, theme)
        self.board, self.cells, self.plan = board, cells, plan
        self.weights, self.gradient = weights, gradient
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
        "Every other row gets exactly zero."
        """
        filled = [
            self._single(row) if len(self.by_row[row]) == 1 else self._sum(row)
            for row in self.order
        ]
        zeros = AnimationGroup(*[FadeIn(m) for m in self.gradient.zeros()], run_time=2.0)
        return Steps(Succession(*filled), zeros)

    def _path(self, position: tuple[int, ...], target_y: float) -> list[np.ndarray]:
        """Out along the weight row's own line, then up (or down) the column under the gradient."""
        y = self.weights.rows.y(position)
        points = [xyz(self.column_x, y)]
        if abs(target_y - y) > 1e-9:
            points.append(xyz(self.column_x, target_y))
        return points

    def _pointed(self, positions: list[tuple[int, ...]]) -> Animation:
        chips = [self.weights.chips[self.weights.rows.positions.index(p)] for p in positions]
        return AnimationGroup(*[Circumscribe(c, color=self.theme.highlight) for c in chips])

    def _single(self, row: int) -> Animation:
        """One ID's weight row into its gradient row."""
        (position,) = self.by_row[row]
        targets = self.gradient.rows.numbers[(row,)]
        path = self._path(position, self.gradient.rows.y((row,)))
        grid, index = self.weights.grid, self.weights.rows.index(position)
        carry = Carry(grid, index, None, None, targets, path, self.theme, run_time=_CARRY)
        return Succession(self._pointed([position]), carry)

    def _sum(self, row: int) -> Animation:
        """Land a repeated ID's weight rows one under the other, add them up, raise the sum."""
        positions = self.by_row[row]
        plan, theme, cells = self.plan, self.theme, self.cells
        window = self.board.beats[0].window
        corner = (self.gradient.grid.body_left(), plan.weights_top)
        work = empty_grid(
            line_slots(len(positions) + 1, plan), window, plan, theme, theme.output, corner
        )
        scale = self.board.value_scale
        staged = Rows(work, positions, cells, "upstream", plan.scale.data, theme, scale)
        total = Rows(
            work, [(row,)], cells, "grad", plan.scale.data, theme, scale, first=len(positions)
        )
        arrivals = [
            Carry(
                self.weights.grid, self.weights.rows.index(p), None, None, staged.numbers[p],
                self._path(p, staged.y(p)), theme, run_time=_CARRY,
            )
            for p in positions
        ]  # fmt: skip
        rule = sum_rule(work, len(positions), theme)

        def clear() -> Animation:
            landed = [m for c in arrivals for m in c.strip[2].submobjects]
            numbers = [n for p in positions for n in staged.numbers[p]]
            return AnimationGroup(*[FadeOut(m) for m in [*numbers, *landed, rule]])

        rise = Carry(
            work, len(positions), None, None, self.gradient.rows.numbers[(row,)],
            [xyz(self.column_x, self.gradient.rows.y((row,)))], theme, lift=True, run_time=_CARRY,
        )  # fmt: skip
        shown: list[VMobject] = [*total.all()]
        return Succession(
            self._pointed(positions),
            *arrivals,
            AnimationGroup(Create(rule), *[FadeIn(m) for m in shown]),
            Wait(run_time=_PAUSE),
            make_deferred_animation(clear, run_time=0.3),
            rise,
        )
