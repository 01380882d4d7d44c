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
"""

from __future__ import annotations

from manim import RIGHT, Animation

from embedviz.render.animations import make_reveal_animation
from embedviz.render.glyphs import SansText
from embedviz.render.metrics import xyz
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.one_hot import CostTable, OneHotColumn
from embedviz.render.parts.product import ComparePart, ProductPart
from embedviz.render.solve_one_hot import OneHotPlan, OneHotSpec, solve_one_hot
from embedviz.render.stage import Stage, register_stage
from embedviz.story.model import Beat

__all__ = ["OneHotStage"]


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
        self.costs = self.add_part(CostTable(*args))

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, E with its heading and legend, and the chip."""
        return make_reveal_animation(self.intro_mobjects())
