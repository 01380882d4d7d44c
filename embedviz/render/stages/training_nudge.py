"""The training layout: E beside its gradient, the loss weights under them, one SGD step.

Used by TrainingNudge. A thin composition of parts placed by
:func:`~embedviz.render.solver_training.solve_training`: the lookup family's
:class:`~embedviz.render.parts.lookup.MatrixPart`, and the training parts of
:mod:`embedviz.render.parts.training` and :mod:`embedviz.render.parts.scatter`.
Only the beats that need several parts at once are handled here.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Indicate,
    LaggedStart,
    Mobject,
    Rectangle,
    Succession,
    VGroup,
    VMobject,
    Wait,
)

from embedviz.render.animations import Steps, beat_steps, make_reveal_animation, point_at
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn
from embedviz.render.glyphs import SansText
from embedviz.render.metrics import xyz
from embedviz.render.parts.chips import Chip
from embedviz.render.parts.gathered import GatheredRows
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.motion import Glide
from embedviz.render.parts.scatter import ScatterMotion
from embedviz.render.parts.training import GradientPart, SumPanel, UpdateRule, WeightsPart
from embedviz.render.solver_training import (
    MARK_ROOM,
    TrainingPlan,
    TrainingSpec,
    solve_training,
)
from embedviz.render.stage import Stage, register_stage
from embedviz.render.zoom import Zoom, moved_by, stage_stretch
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
        self.gathered: GatheredRows | None = None
        if any(key[0] == "output" for key in self.cells):
            self.gathered = self.add_part(GatheredRows(*args))
        self.panel: SumPanel | None = None
        if any(key[0] == "sum" for key in self.cells):
            self.panel = self.add_part(SumPanel(*args, self.weights, self.gradient))
        parts = (self.weights, self.gradient, self.panel)
        self.scatter = self.add_part(ScatterMotion(*args, *parts))
        self.step = self.add_part(UpdateRule(*args, self.matrix, self.gradient))
        self.step.receding = self._served()
        homes = [chip.get_center().copy() for chip in self.weights.chips]
        self.rest = self._rest_weights()
        # With the gathered rows, each chip stands beside its row until the scatter.
        self.trips: list[tuple[Chip, np.ndarray, np.ndarray]] = []
        if self.gathered is not None:
            chips = self.weights.chips
            for chip, home, place in zip(chips, homes, self.gathered.place(chips), strict=True):
                chip.move_to(place)
                self.trips.append((chip, home, place))
        self.closer = self._rest_gradient()
        self.zoom = self._close_up()

    def _served(self) -> list[VMobject]:
        """Return what recedes once the gradient is found: the weights and the column sum.

        The chips stay (each ID's tie to its row), and the loss line (its value
        drops after the step). A 720p review found the frame dense from the loss
        on, every block built standing in full to the end.
        """
        weights = self.weights
        served: list[VMobject] = [weights.grid, *weights.rows.all(), weights.positions]
        served += [weights.title, weights.title_full]
        if self.panel is not None:
            panel = self.panel
            served += [panel.grid, *panel.terms.all(), *panel.sums.all(), *panel.names]
            served += [panel.rule, panel.title]
        return served

    def _close_up(self) -> Zoom | None:
        """Return the introduction's layout: E and its gradient, their rows spread to fill.

        The weights come with the IDs (``loss``), when the frame pulls back to
        the solved layout; until then E and the gradient that will nudge its
        rows fill the band's height, their texts at their own sizes. (E alone,
        in a close-up at the type scale's ceiling, left a fifth of the frame
        empty beside it.)
        """
        shown = [m for m in self.matrix.intro() if m is not self.matrix.legend]
        shown += self.gradient.intro()
        legend = [self.matrix.legend] if self.matrix.legend is not None else []
        return stage_stretch(self.scene, self.title, shown, legend)

    def animate(self, beat: Beat) -> Animation:
        """Play the beat; the introduction under the close-up, which ``loss`` pulls back first."""
        zoom = self.zoom
        if zoom is None or zoom.factor == 1.0:
            return super().animate(beat)
        if beat.action != "intro":
            with zoom.solved():
                first, *rest = beat_steps(super().animate(beat))
            return Steps(Succession(zoom.pull_back(), first), *rest)
        built: list[Animation] = []
        with zoom.solved(lambda: [m for a in built for m in moved_by(a)]):
            built.append(super().animate(beat))
        return zoom.wrap(built[0])

    def _rest_weights(self) -> float:
        """Rest the weights centred under E and its gradient until the scatter; return how far.

        Their place is under E, beside the column sums to come: until the
        scatter brings those, the weights stand in the middle, which leaves
        no quarter of the frame empty (the block under the gradient stood
        empty for two beats, 17.9 % of the frame).
        """
        members = self.weights.members()
        group = VGroup(*members)
        shift = -float(group.get_center()[0])
        for mobject in members:
            mobject.shift(xyz(shift, 0))
        return shift

    def _rest_gradient(self) -> float:
        """Rest the gradient closer to E until the IDs come; return how far (to the left).

        The gap between the blocks keeps room for the row marks clear of E's
        outlines and of the gradient (``solver_training.MARK_ROOM``); in the
        introduction, with neither marks nor outlines, that room stood empty
        (13.0 % of the frame, the whole band's height).
        """
        for mobject in self._gradient_members():
            mobject.shift(xyz(-MARK_ROOM, 0))
        return MARK_ROOM

    def _gradient_members(self) -> list[Mobject]:
        """Return the gradient's body, heading and numbers (not its row marks, which stay by E)."""
        return [self.gradient.grid, self.gradient.heading, *self.gradient.rows.all()]

    def beat_scatter(self, beat: Beat) -> Animation:
        """Glide the weights home as the first ID is pointed at; scatter them into the gradient.

        The gathered rows make way for the gradient as that first ID is pointed at.
        """
        if self.gathered is not None and self.closer:
            # Out of sight since the IDs came, the gradient takes its place as it comes back.
            for mobject in self._gradient_members():
                mobject.shift(xyz(self.closer, 0))
            self.closer = 0.0
        for chip, home, _ in self.trips:
            chip.move_to(home)
        first, *rest = beat_steps(self._scatter(beat))
        if self.gathered is None:
            return Steps(first, *rest)
        shown = [FadeIn(m) for m in [self.gradient.grid, self.gradient.heading]]
        # Each chip goes home beside its weight row (its row of E gathered no more).
        trips = []
        for chip, home, place in self.trips:
            chip.move_to(place)
            offset = home - place
            trips.append(Glide(_just(chip), float(offset[1]), float(offset[0])))
        self.trips = []
        return Steps(AnimationGroup(self.gathered.leave(), *shown, *trips, first), *rest)

    def _scatter(self, beat: Beat) -> Animation:
        """Return the scatter, the weights gliding home from their rest under its first pointing."""
        if abs(self.rest) < 1e-9:
            return self.scatter.beat_scatter(beat)
        # The chips travel on their own from their gathered rows (self.trips), if they did.
        travel = {id(chip) for chip, _, _ in self.trips}
        members = [m for m in self.weights.members() if id(m) not in travel]
        back = Glide(lambda: list[Mobject](members), 0.0, -self.rest)
        # The scatter's paths start where the weights will be once they have glided.
        for mobject in members:
            mobject.shift(xyz(-self.rest, 0))
        first, *rest = beat_steps(self.scatter.beat_scatter(beat))
        for mobject in members:
            mobject.shift(xyz(self.rest, 0))
        self.rest = 0.0
        # The glide runs under the first ID's pointing (its chip is circled where it stops).
        return Steps(AnimationGroup(back, first), *rest)

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title and the matrix with its legend; then the gradient that nudges its rows."""
        return Steps(
            make_reveal_animation([self.title, *self.matrix.intro()]),
            make_reveal_animation(self.gradient.intro()),
        )

    def beat_loss(self, beat: Beat) -> Animation:
        """Bring the IDs in, outline the row each ID looks up, then define the loss and its weights.

        Three steps, one per phrase: the step's IDs, the rows they look up
        (amber: each ID's row), the loss and its weights as it is defined.
        """
        rows = sorted({int(chip.number.cell.value) for chip in self.weights.chips})
        # The amber outlines stay to the end: they tie each ID to the row of E it moves.
        outlines = [self.matrix.outline(row, beside=rows) for row in rows]
        looked_up: Animation = LaggedStart(*[OutlineIn(box) for box in outlines], lag_ratio=0.1)
        left = 0.2 * xyz(-1, 0)
        positions = FadeIn(self.weights.positions, shift=left)
        defined = make_reveal_animation(self.weights.appear())
        gathered = self.gathered
        if gathered is None:
            arriving = [*self.weights.chips, self.weights.positions]
            first: Animation = LaggedStart(
                *[FadeIn(m, shift=left) for m in arriving], lag_ratio=0.1
            )
        else:
            # Each ID comes with its looked-up row, in the place of the gradient (not yet
            # found); the rows are named and outlined in amber as E's rows are; each weight
            # row comes with its position as the loss is defined.
            hidden = [self.gradient.grid, self.gradient.heading]
            arrive = gathered.arrive(self.weights.chips, left)
            first = AnimationGroup(*[FadeOut(m) for m in hidden], arrive)
            looked_up = Succession(looked_up, gathered.gather())
            defined = AnimationGroup(positions, defined)
        if self.closer and gathered is None:
            # The gradient glides to its place, making room for the marks, as the IDs come.
            home = Glide(self._gradient_members, 0.0, self.closer)
            first, self.closer = AnimationGroup(home, first), 0.0
        return Steps(first, looked_up, defined)

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
        """Point at the columns in turn: none of them was given a meaning.

        Each column's passing ring runs on its cells' border (design.RING_APART):
        round the column number alone, it ran along the table's top border a few
        pixels above it and its flashing pieces stood beside the digits (a 720p
        review, ~66 s).
        """
        grid = self.matrix.grid
        height = float(grid.body[0].height)
        boxes = [
            Rectangle(width=slot.size, height=height).move_to(
                xyz(grid.col_x(slot.key), grid.body_top() - height / 2)
            )
            for slot in grid.col_slots
            if not slot.gap and slot.key in grid.col_labels
        ]
        if not boxes:
            return Wait()
        colour = self.theme.highlight
        return LaggedStart(*[point_at(m, colour, buff=0.0) for m in boxes], lag_ratio=0.3)


def _just(mobject: Mobject) -> Callable[[], list[Mobject]]:
    """Return what a glide of this one mobject gathers."""
    return lambda: [mobject]
