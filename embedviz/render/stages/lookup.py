"""The lookup layout (SingleTokenLookup, SequenceLookup): matrix, output block, chips, print.

A thin composition of parts (:mod:`embedviz.render.parts.lookup`), placed by
the solver (:func:`embedviz.render.solver.solve_lookup`): every size and
place comes from the plan, every colour from the design system. Only beats
that need several parts at once are handled here.
"""

from __future__ import annotations

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Circumscribe,
    Create,
    Mobject,
    Succession,
    VGroup,
    config,
)

from embedviz.render.animations import Steps, beat_steps, make_reveal_animation
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import MARGIN, MAX_DATA_PX, SPACE, px_for_font
from embedviz.render.glyphs import SansText
from embedviz.render.metrics import xyz
from embedviz.render.parts.captions import Caption
from embedviz.render.parts.lookup import ChipColumn, MatrixPart, OutputPart
from embedviz.render.parts.motion import LookupMotion
from embedviz.render.parts.printed import PrintPart
from embedviz.render.routes import clear_order
from embedviz.render.solver import LookupPlan, LookupSpec, solve_lookup
from embedviz.render.space import Box, best_drop, largest_empty_rectangle
from embedviz.render.stage import Stage, register_stage
from embedviz.render.zoom import Zoom, close_up, moved_by
from embedviz.story.model import Beat

__all__ = ["LookupStage"]

# The output block rests this many rows lower at most, tried in these steps.
_REST_STEPS = 4
# The shares of the corridor the matrix closes by resting right, tried between 0 and 1.
_REST_STEPS_ACROSS = 20


def _across(box: Box, dx: float) -> Box:
    """Return ``box`` moved ``dx`` across."""
    return (box[0] + dx, box[1], box[2] + dx, box[3])


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
    zoom: Zoom | None

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
            left = plan.print_left
            if left is None:
                left = min(self.matrix.heading.get_left()[0], plan.matrix_left)
            self.printed = self.add_part(
                PrintPart(
                    self.scene,
                    self.board,
                    self.theme,
                    plan.print_font,
                    left,
                    plan.print_top,
                    wrap=plan.print_wrap,
                )
            )
        self._rest_across()
        self.motion.rest(self._rest_drop())
        self.zoom = self._close_up()

    def _close_up(self) -> Zoom | None:
        """Return a close-up of the blocks until the print comes, when it waits under them.

        The solver keeps a band under the blocks for the print, empty until
        the ``print`` beat: until then the blocks are drawn larger, filling
        the frame, and that beat pulls back to make room.
        """
        if self.printed is None or self.plan.print_left is not None:
            return None
        shown = [*self.matrix.intro(), *self.chips.intro(), *self.printed.intro()]
        boxes = np.array(mobject_boxes([*shown, *self.motion.output_side()]))
        content = (*boxes[:, :2].min(axis=0), *boxes[:, 2:].max(axis=0))
        band = content_band(self.title)
        half = float(config.frame_width) / 2 - MARGIN
        room = (-half, band[1] + SPACE, half, band[3] - SPACE)
        found = close_up(content, room, MAX_DATA_PX / px_for_font(self.plan.scale.data))
        if found is None:
            return None

        def kept() -> list[Mobject]:
            captions = [m for top in self.scene.mobjects for m in top.get_family()]
            return [self.title, *(m for m in captions if isinstance(m, Caption))]

        return Zoom(*found, lambda: list(self.scene.mobjects), kept)

    def animate(self, beat: Beat) -> Animation:
        """Play the beat; under the close-up until the print, which pulls back first."""
        zoom = self.zoom
        if zoom is None or zoom.factor == 1.0:
            return super().animate(beat)
        built: list[Animation] = []
        if beat.action == "print":
            # What the print shows comes after the pull-back, in the solved layout.
            with zoom.solved():
                first, *rest = beat_steps(super().animate(beat))
            return Steps(Succession(zoom.pull_back(), first), *rest)
        with zoom.solved(lambda: [m for a in built for m in moved_by(a)]):
            built.append(super().animate(beat))
        return zoom.wrap(built[0])

    def _rest_across(self) -> None:
        """Close the corridor, empty between lookups: the matrix and the block rest together.

        Of the :attr:`~embedviz.render.solver.LookupPlan.rest_slide` they close
        by, the matrix takes the share that leaves the smallest empty area
        (the rest of the frame is shared out left and right).
        """
        slide = self.plan.rest_slide
        if slide <= 0:
            return
        legend = [self.matrix.legend] if self.matrix.legend is not None else []
        matrix = mobject_boxes(self.motion.matrix_side())
        block = mobject_boxes(self.motion.output_side())
        band = content_band(self.title)

        def empty(share: float) -> float:
            right, left = share * slide, (1 - share) * slide
            boxes = [_across(b, right) for b in matrix] + [_across(b, -left) for b in block]
            return largest_empty_rectangle([*mobject_boxes(legend), *boxes], band).area

        share = min((k / _REST_STEPS_ACROSS for k in range(_REST_STEPS_ACROSS + 1)), key=empty)
        self.motion.rest_matrix(share * slide)
        self.motion.rest(0.0, (1 - share) * slide)

    def _rest_drop(self) -> float:
        """How far below the solver's place the output block rests: where it fills the frame best.

        Measured from the parts' boxes, between the title and the caption; of
        the drops that leave no empty area over an eighth of the frame, one
        that makes no beat glide the block up (to clear a strip's path) wins,
        then one that lines the block up with the matrix (top, middle or
        bottom), then the fullest frame.
        """
        # The print counts from the start: the block must rest clear of it when it comes.
        printed = [self.printed.code, self.printed.printed] if self.printed else []
        fixed = mobject_boxes([*self.matrix.intro(), *printed])
        moving = mobject_boxes(self.motion.output_side())
        band = content_band(self.title)
        step = self.plan.sizes.row_height / _REST_STEPS
        drops = [k * step for k in range(int((band[3] - band[1]) / step) + 1)]
        matrix, output = self.matrix.grid, self.output.grid
        # The drops that put the block's top, middle or bottom level with the matrix's.
        top = output.body_top() - matrix.body_top()
        taller = matrix.height_of_body - output.height_of_body
        aligned = [d for d in (top, top + taller / 2, top + taller) if d >= 0]

        def cost(drop: float) -> int:
            lined_up = any(abs(drop - d) < 1e-9 for d in aligned)
            return 2 * self._glides(drop) + (0 if lined_up else 1)

        area = float(config.frame_width * config.frame_height)
        drop, _ = best_drop(fixed, moving, band, [*aligned, *drops], area, cost)
        return drop

    def _glides(self, drop: float) -> int:
        """How many lookup beats would have to glide the block up, were it ``drop`` lower."""
        if self.plan.mode == "corridor":
            return 0  # the strips go down the corridor, clear of the block wherever it is
        grid = self.matrix.grid
        top = grid.body_top()
        centres = {row: top - grid.row_y(row) for row in grid.get_rows()}
        positions = self.output.positions
        sources = [int(self.cells[("token_id", p)].value) for p in positions]
        here = self.output.grid.body_top() - drop - top
        filled: list[int] = []
        glides = 0
        for beat in self.board.beats:
            if beat.action not in ("lookup", "lookup_many") or beat.output is None:
                continue
            rows = [positions.index(p) for p in beat.output.filled]
            landing = [r for r in rows if r not in filled]
            row_h = self.plan.sizes.row_height
            if clear_order(sources, centres, row_h, here, filled, landing) is None:
                glides += 1
            filled += landing
        return glides

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
                self.printed.point_at_numbers(),
                Create(outline),
            ),
        )
