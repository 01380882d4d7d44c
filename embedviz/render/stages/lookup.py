"""The lookup layout (SingleTokenLookup, SequenceLookup): matrix, output block, chips, print.

A thin composition of parts (:mod:`embedviz.render.parts.lookup`), placed by
the solver (:func:`embedviz.render.solver.solve_lookup`): every size and
place comes from the plan, every colour from the design system. Only beats
that need several parts at once are handled here.
"""

from __future__ import annotations

from manim import Animation, AnimationGroup, Circumscribe, Create, Indicate, Succession, VGroup

from embedviz.render.animations import Steps, make_reveal_animation
from embedviz.render.design import SPACE
from embedviz.render.glyphs import SansText
from embedviz.render.metrics import xyz
from embedviz.render.parts.lookup import ChipColumn, MatrixPart, OutputPart
from embedviz.render.parts.motion import LookupMotion
from embedviz.render.parts.printed import PrintPart
from embedviz.render.solver import LookupPlan, LookupSpec, solve_lookup
from embedviz.render.stage import Stage, register_stage
from embedviz.story.model import Beat

__all__ = ["LookupStage"]

# Half the caption band: two lines of the caption's digits, with their spacing.
CAPTION_HALF = 0.5


@register_stage
class LookupStage(Stage):
    """E | walking column | output | chips, and the PyTorch print under them when there is one.

    Parts: :class:`MatrixPart` (``count_rows``, ``dim``), :class:`OutputPart`
    (``predict``, ``reveal``), :class:`ChipColumn`, :class:`LookupMotion`
    (``lookup``, ``lookup_many``) and :class:`PrintPart`. The stage handles
    ``intro``, ``predict`` (chips and question), ``dim`` (rows, then the
    output settles), ``shape`` and ``grad_fn`` (the print and the matrix row it
    shows); :class:`PrintPart` plays ``print``.
    """

    layout = "lookup"

    plan: LookupPlan
    matrix: MatrixPart
    output: OutputPart
    chips: ChipColumn
    motion: LookupMotion
    printed: PrintPart | None

    def build(self) -> None:
        """Solve the layout and build every part in its place."""
        plan = solve_lookup(LookupSpec.from_board(self.board))
        self.plan = plan
        self.title = SansText(self.board.title, plan.title_font, self.theme.text)
        self.title.move_to(xyz(plan.title_x, plan.title_y))
        args = (self.scene, self.board, self.cells, plan, self.theme)
        self.matrix = self.add_part(MatrixPart(*args))
        self.output = self.add_part(OutputPart(*args))
        self.chips = self.add_part(ChipColumn(*args))
        self.motion = self.add_part(
            LookupMotion(
                self.scene, self.theme, plan, self.matrix, self.output, self.chips, self.cells
            )
        )
        self.printed = None
        if self.board.printed is not None:
            left = min(self.matrix.heading.get_left()[0], plan.matrix_left)
            self.printed = self.add_part(
                PrintPart(self.scene, self.board, self.theme, plan.print_font, left, plan.print_top)
            )

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the matrix with its legend, and the chips."""
        return make_reveal_animation(self.intro_mobjects())

    def beat_predict(self, beat: Beat) -> Animation:
        """Circle the chips ("4 token IDs go in"), then ask for the output's shape."""
        asked = self.output.beat_predict(beat)
        if len(beat.phrases) < 3:
            return asked
        chips = VGroup(*self.chips.chips)
        return Steps(Circumscribe(chips, color=self.theme.highlight, buff=SPACE / 2), asked)

    def beat_shape(self, beat: Beat) -> Animation:
        """Frame the output; its row count and tags come from the IDs, its width from d."""
        return self.output.frame_and_shape(VGroup(*self.chips.chips), len(beat.phrases))

    def beat_dim(self, beat: Beat) -> Animation:
        """Dim the rows no ID selected; the output, all rows in, settles beside the matrix."""
        still = [m for m in self.matrix.intro() if m is not None]
        top = self.title.get_bottom()[1] - SPACE
        bottom = self.plan.caption_y + CAPTION_HALF
        # One after the other: the glide must not undo the dimming's colours.
        return Succession(self.matrix.beat_dim(beat), self.motion.settle(still, top, bottom))

    def beat_grad_fn(self, beat: Beat) -> Animation:
        """Circle the grad_fn label; then the numbers, and the matrix row they are, are marked."""
        assert self.printed is not None
        boxed = self.printed.grad_fn_box()
        if len(beat.phrases) < 2 or beat.highlight is None:
            return boxed
        outline = self.matrix.outline(beat.highlight.row)
        self.named_row = outline
        return Steps(
            boxed,
            AnimationGroup(
                Indicate(self.printed.numbers, color=self.theme.highlight, scale_factor=1.0),
                Create(outline),
            ),
        )
