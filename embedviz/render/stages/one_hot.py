"""The one-hot layout (OneHotEquivalence): one_hot(i)ᵀ beside E, the product and the lookup.

A thin composition of parts, placed by the solver
(:func:`embedviz.render.solve_one_hot.solve_one_hot`):

- :class:`~embedviz.render.parts.lookup.MatrixPart`: E, its heading and legend;
- :class:`~embedviz.render.parts.one_hot.OneHotColumn`: the vector (``one_hot``);
- :class:`~embedviz.render.parts.product.ProductPart`: the product's row, one
  column's terms and their sum (``terms``, ``sum``, ``columns``);
- :class:`~embedviz.render.parts.product.ComparePart`: the chip fetches row i
  into the lookup's row under the product (``compare``);
- :class:`~embedviz.render.parts.one_hot.CostTable`: what each costs (``cost``, ``copy``).

Until the product needs the panel (``terms``), E and the vector stand in a
close-up (:mod:`embedviz.render.zoom`) with the chip, its heading and the
legend (as an upright colour bar) in a column right of E, the chip at the
right end of row i; the ``terms`` beat pulls back, and the chip stays there
(beside the row its ID selects) until it fetches the row; its heading, in the
terms' way, fades and comes back under the chip's home in the ``compare``.
"""

from __future__ import annotations

from contextlib import nullcontext

from manim import (
    LEFT,
    RIGHT,
    Animation,
    AnimationGroup,
    Succession,
)

from embedviz.render.animations import Steps, beat_steps, make_reveal_animation
from embedviz.render.design import SPACE
from embedviz.render.fades import FadeIn, FadeOut
from embedviz.render.glyphs import SansText
from embedviz.render.metrics import xyz
from embedviz.render.pace import at_least
from embedviz.render.parts.legend import Legend
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.one_hot import CostTable, OneHotColumn
from embedviz.render.parts.product import ComparePart, ProductPart
from embedviz.render.solve_one_hot import OneHotPlan, OneHotSpec, solve_one_hot
from embedviz.render.solver import MAX_PITCH, PITCHES
from embedviz.render.stage import Stage, register_stage
from embedviz.render.zoom import Zoom, moved_by, stage_close_up
from embedviz.story.model import Beat

__all__ = ["OneHotStage"]

# The beats played in the close-up, before the product needs the panel.
CLOSE_UP_ACTIONS = frozenset({"intro", "one_hot"})
# The least seconds the colour bar beside E takes to fade out as the camera pulls back (a
# share of the pull-back, it took 0.047 s: a pop, a lecture-hall review found; issue 18).
LEGEND_FADE_SECONDS = 0.2


@register_stage
class OneHotStage(Stage):
    """The one-hot vector, E, the product with one column's terms, the lookup and the costs."""

    layout = "one_hot"

    plan: OneHotPlan
    matrix: MatrixPart
    vector: OneHotColumn
    product: ProductPart
    compare: ComparePart
    costs: CostTable

    def build(self) -> None:
        """Solve the layout and build every part in its place."""
        plan = solve_one_hot(OneHotSpec.from_board(self.board))
        self.plan = plan
        bands = plan.bands
        self.title = SansText(self.board.title, bands.title_font, self.theme.text)
        self.title.move_to(xyz(bands.title_x, bands.title_y))
        args = (self.scene, self.board, self.cells, plan, self.theme)
        self.matrix = self.add_part(MatrixPart(*args))
        self.vector = self.add_part(OneHotColumn(*args, self.matrix))
        # E's heading sits right-aligned over E: the vector's title is left of it.
        self.matrix.heading.align_to(xyz(self.matrix.grid.body_right(), 0), RIGHT)
        self.product = self.add_part(ProductPart(*args, self.matrix, self.vector))
        self.compare = self.add_part(ComparePart(*args, self.matrix, self.product))
        self.costs = self.add_part(CostTable(*args, self.compare.formula))
        self._rest_beside_e()
        # Until the terms pull the camera back (and the heading goes).
        self.rested = True
        self.bar = self._colour_bar()
        self.zoom = self._close_up()

    def _rest_beside_e(self) -> None:
        """Stand the chip's heading over the chip, which waits at the right end of row i.

        Its place is under the chip's home, by the lookup's row, which stands
        empty until the compare; in the close-up it heads the chip.
        """
        plan, chip, heading = self.plan, self.compare.chip, self.compare.heading
        y = self.matrix.grid.row_y(self.board.single_id())
        above = y + plan.sizes.row_height / 2 + SPACE + heading.height / 2
        heading.move_to(xyz(chip.get_left()[0] + heading.width / 2, above))

    def _colour_bar(self) -> Legend | None:
        """Return the legend as an upright bar right of the chip, as tall as E's rows.

        Its title stands above E's first row, in the band the product's row
        takes later.
        """
        legend = self.matrix.legend
        if legend is None:
            return None
        rows = self.matrix.grid.body
        bar = Legend(
            [tick.cell for tick in legend.ticks],
            self.plan.scale.legend,
            self.theme,
            self.word("value_colour"),
            upright=True,
            length=rows.height,
        )
        left = max(self.compare.heading.get_right()[0], self.compare.chip.get_right()[0])
        bar.move_to(rows.get_center()).align_to(xyz(left + 3 * SPACE, 0), LEFT)
        return bar

    def _close_up(self) -> Zoom | None:
        """Return a close-up of the vector, E and the column beside E, until the terms.

        What the intro shows is centred; the vector comes left of it.
        """
        grid = [m for m in self.matrix.intro() if m is not self.matrix.legend]
        vector = [self.vector.grid, self.vector.title, self.vector.gap_labels]
        bar = [self.bar] if self.bar is not None else []
        first = [*grid, *bar, *self.compare.intro()]
        # Bound by the height, the rows may stand as close as the loosest pitch the
        # solver tries (it grew them to the largest), to draw the numbers larger.
        return stage_close_up(
            self.scene,
            self.title,
            [*first, *vector],
            self.plan.scale.data,
            least_spread=PITCHES[0] / MAX_PITCH,
            focus=first,
        )

    def animate(self, beat: Beat) -> Animation:
        """Play the beat; the first ones in the close-up, which the terms pull back first.

        The ``terms`` beat then fades the chip's heading (the chip stays beside
        row i) and turns the colour bar into the legend while its first step
        plays (built in the solved layout, and played under the close-up as it
        pulls back, so that what it brings on follows E).
        """
        zoom = self.zoom
        if beat.action in CLOSE_UP_ACTIONS and zoom is not None:
            built: list[Animation] = []
            with zoom.solved(lambda: [m for a in built for m in moved_by(a)]):
                built.append(super().animate(beat))
            return zoom.wrap(built[0])
        if beat.action in CLOSE_UP_ACTIONS or not self.rested:
            return super().animate(beat)
        self.rested = False
        # What the first step brings on joins the close-up, to shrink with E.
        steps: list[Animation] = []
        with zoom.solved(lambda: moved_by(steps[0]) if steps else []) if zoom else nullcontext():
            first, *rest = beat_steps(super().animate(beat))
            steps.append(first)
        # The chip stays at the right end of row i; its heading, over it, stands where the
        # terms come (level with the rows above): it goes, to come back at the chip's home.
        gone: list[Animation] = [FadeOut(self.compare.heading)]
        legend: list[Animation] = []
        if self.bar is not None and self.matrix.legend is not None:
            # The bar fades out beside E (as the camera pulls back: standing, the product's
            # row came down through its title) and the legend fades in at the band's right
            # end: morphed, its title crossed the panel to the title band.
            gone, legend = [*gone, FadeOut(self.bar)], [FadeIn(self.matrix.legend)]
        if zoom is None:
            return Steps(AnimationGroup(*gone, *legend, first), *rest)
        # The product's row, its title and the column's box come on with the first phrase
        # as the camera pulls back, played under the close-up: they follow E as it shrinks.
        back = zoom.pull_back()
        for fade in gone:  # gone in the pull-back's first fifth, before the row comes down
            # and over LEGEND_FADE_SECONDS at least (squeezed into its beat it took 0.047 s).
            at_least(fade.set_run_time(back.get_run_time() / 5), LEGEND_FADE_SECONDS)
        shrink: Animation = AnimationGroup(back, *gone)
        if legend:
            shrink = Succession(shrink, AnimationGroup(*legend))
        return Steps(AnimationGroup(shrink, zoom.wrap(first)), *rest)

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, E with its heading and legend (as a bar beside E), and the chip."""
        if self.bar is None:
            return make_reveal_animation(self.intro_mobjects())
        shown = [m for m in self.intro_mobjects() if m is not self.matrix.legend]
        return make_reveal_animation([*shown, self.bar])
