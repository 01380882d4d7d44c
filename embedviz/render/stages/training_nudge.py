"""The training layout: E beside its gradient, the loss weights under them, one SGD step.

Used by TrainingNudge. A thin composition of parts placed by
:func:`~embedviz.render.solver_training.solve_training`: the lookup family's
:class:`~embedviz.render.parts.lookup.MatrixPart`, and the training parts of
:mod:`embedviz.render.parts.training` and :mod:`embedviz.render.parts.scatter`.
Only the beats that need several parts at once are handled here.
"""

from __future__ import annotations

from manim import Animation, Create, FadeIn, Indicate, LaggedStart, VGroup, Wait

from embedviz.render.animations import Steps, make_reveal_animation, point_at
from embedviz.render.glyphs import SansText
from embedviz.render.metrics import xyz
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.scatter import ScatterMotion
from embedviz.render.parts.training import GradientPart, SumPanel, UpdateRule, WeightsPart
from embedviz.render.solver_training import TrainingPlan, TrainingSpec, solve_training
from embedviz.render.stage import Stage, register_stage
from embedviz.story.model import Beat

__all__ = ["TrainingStage"]


@register_stage
class TrainingStage(Stage):
    """The matrix and its gradient, the loss weights, and one SGD update.

    Parts: :class:`MatrixPart`, :class:`GradientPart` (``unchanged``),
    :class:`WeightsPart` (``upstream``), :class:`ScatterMotion` (``scatter``),
    :class:`SumPanel` (``accumulate``) and :class:`UpdateRule` (``update``).
    The stage plays ``intro``, ``loss``, ``loss_drop`` and ``meaning``.
    """

    layout = "training_nudge"

    plan: TrainingPlan

    def build(self) -> None:
        """Solve the layout and build every part in its place."""
        plan = self.plan = solve_training(TrainingSpec.from_board(self.board))
        self.title = SansText(self.board.title, plan.title_font, self.theme.text)
        self.title.move_to(xyz(plan.title_x, plan.title_y))
        args = (self.scene, self.board, self.cells, plan, self.theme)
        self.matrix = self.add_part(MatrixPart(*args))
        self.gradient = self.add_part(GradientPart(*args))
        self.weights = self.add_part(WeightsPart(*args))
        self.panel: SumPanel | None = None
        if any(key[0] == "sum" for key in self.cells):
            self.panel = self.add_part(SumPanel(*args, self.weights, self.gradient))
        parts = (self.weights, self.gradient, self.panel)
        self.scatter = self.add_part(ScatterMotion(*args, *parts))
        self.step = self.add_part(UpdateRule(*args, self.matrix, self.gradient))

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the matrix with its legend, and the gradient's empty body."""
        return make_reveal_animation(self.intro_mobjects())

    def beat_loss(self, beat: Beat) -> Animation:
        """Bring the IDs in, outline the row each ID looks up, then define the loss and its weights.

        Three steps, one per phrase: the step's IDs, the rows they look up
        (amber: each ID's row), the loss and its weights as it is defined.
        """
        rows = sorted({int(chip.number.cell.value) for chip in self.weights.chips})
        # The amber outlines stay to the end: they tie each ID to the row of E it moves.
        outlines = [self.matrix.outline(row) for row in rows]
        left = 0.2 * xyz(-1, 0)
        return Steps(
            LaggedStart(
                *[FadeIn(m, shift=left) for m in [*self.weights.chips, self.weights.positions]],
                lag_ratio=0.1,
            ),
            LaggedStart(*[Create(box) for box in outlines], lag_ratio=0.1),
            make_reveal_animation(self.weights.appear()),
        )

    def beat_accumulate(self, beat: Beat) -> Animation:
        """Add up a repeated ID's contributions; with no repeat, point at the gradient."""
        if self.panel is None or beat.highlight is None:
            return Indicate(self.gradient.heading, scale_factor=1.0, color=self.theme.highlight)
        shown = self.panel.beat_accumulate(beat)
        self.step.leaving += self.panel.outlines
        return shown

    def beat_loss_drop(self, beat: Beat) -> Animation:
        """Show the loss after the step; then, when it went down, point at the rows that moved."""
        loss = self.weights.loss_drop()
        after, before = self.weights.loss_after, self.weights.loss_before
        moved = self.step.moved()
        if not moved or after is None or after.cell.value >= before.cell.value:
            return loss
        colour = self.theme.highlight
        return Steps(loss, point_at(VGroup(*moved), colour, run_time=2.0))

    def beat_meaning(self, beat: Beat) -> Animation:
        """Point at the columns in turn: none of them was given a meaning."""
        labels = list(self.matrix.grid.get_col_labels())
        if not labels:
            return Wait()
        colour = self.theme.highlight
        return LaggedStart(*[point_at(m, colour) for m in labels], lag_ratio=0.3)
