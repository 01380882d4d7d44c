"""The looked-up rows ``e_t = E[id_t]``, gathered beside their chips while the loss is defined.

TrainingNudge's toy loss is ``L = Σ w_t·e_t``: :class:`GatheredRows` shows its
other factor, one row per position, each in its amber outline (its ID's row)
beside its chip. It stands where the gradient will be, in the gradient's
columns: ``∂L/∂E`` is not yet found while the loss is defined, and the
gathered rows make way for it as the backward pass fills it (a 720p review,
issue 18: the chips floated under the table with a third of the frame empty,
no looked-up row was shown, and the gradient stood blank for 25 s).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from manim import LEFT, Animation, AnimationGroup, LaggedStart, VMobject

from embedviz.render.design import SPACE, Theme, maths
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn
from embedviz.render.metrics import xyz
from embedviz.render.parts.chips import Chip
from embedviz.render.parts.grid import row_slots
from embedviz.render.parts.rows import Rows
from embedviz.render.parts.training import empty_grid, labels_of, line_slots
from embedviz.render.solver_training import TrainingPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import NumberCell, Storyboard

__all__ = ["GatheredRows"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]


class GatheredRows(Component):
    """Each position's looked-up row of E, in the gradient's place, with room for its chip.

    The chips are the weight rows' own (one object per ID): they stand here,
    beside their rows, until the scatter brings them home to their weights.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell, by (kind, index): the rows are the ``output`` cells.
    plan
        Where things go.
    theme
        Colours.
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: TrainingPlan, theme: Theme
    ) -> None:
        super().__init__(host, theme)
        window = board.beats[0].window
        label = plan.scale.label
        ids = sorted((c for c in cells.values() if c.kind == "token_id"), key=lambda c: c.index)
        positions = [c.index for c in ids]
        # Level with the foot of E's rows: the space beside them is shared above and below.
        slots = line_slots(len(ids), plan)
        spare = sum(s.size for s in row_slots(window, plan.sizes)) - sum(s.size for s in slots)
        drop = max(0.0, spare)
        corner = (plan.grad_left, plan.matrix_top - drop)
        self.grid = empty_grid(slots, window, plan, theme, corner)
        self.rows = Rows(
            self.grid, positions, cells, "output", plan.scale.data, theme, board.value_scale
        )
        # Each row in its ID's amber outline, as E's row is: the same row, gathered.
        self.outlines = [self.rows.outline(p, theme.id_line, beside=positions) for p in positions]
        self.positions = positions
        # The chips' right edge: beside the rows, as a weight row's chip is (clear of its outline).
        self.chips_right = plan.grad_left - 1.5 * SPACE
        self.title = maths(labels_of(board)["output_title"], theme.text, label)
        self.title.move_to(xyz(0, plan.heading_y - drop))
        self.title.align_to(xyz(plan.grad_heading_left, 0), LEFT)

    def members(self) -> list[VMobject]:
        """Return everything it draws."""
        return [self.grid, self.title, *self.rows.all(), *self.outlines]

    def place(self, chips: Sequence[Chip]) -> list[np.ndarray]:
        """Return where each position's chip stands beside its gathered row (its centre)."""
        return [
            xyz(self.chips_right - chip.width / 2, self.rows.y(position))
            for chip, position in zip(chips, self.positions, strict=True)
        ]

    def arrive(self, chips: Sequence[Chip], shift: np.ndarray) -> Animation:
        """Bring each chip with its row beside it (one after another), the rows' body and name.

        A chip never stands alone: standing by themselves until the next
        phrase, the chips left a sixth of the frame empty for 1.8 s while the
        narration spoke (a 720p review, issue 18).
        """
        pairs = [
            AnimationGroup(FadeIn(chip, shift=shift), *[FadeIn(m) for m in self.rows.row(p)])
            for chip, p in zip(chips, self.positions, strict=True)
        ]
        body = [FadeIn(m) for m in (self.grid, self.title)]
        return AnimationGroup(*body, LaggedStart(*pairs, lag_ratio=0.1))

    def gather(self) -> Animation:
        """Outline each row in amber, as its row of E is: ``e_t = E[id_t]``."""
        return LaggedStart(*[OutlineIn(box) for box in self.outlines], lag_ratio=0.1)

    def leave(self) -> Animation:
        """Fade everything out: the gradient takes its place."""
        return AnimationGroup(*[FadeOut(m) for m in self.members()])
