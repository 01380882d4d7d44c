"""The parameter-count layout (ParameterCount): E's block, and the sums beside it.

A thin composition of parts (:mod:`embedviz.render.parts.sums`), placed by
the solver (:func:`embedviz.render.solve_parameter_count.solve_parameter_count`):
the block (beat ``table``), the count (``count``), the memory table
(``dtype``), the table of widths (``compare``) and the lookup (``lookup``),
whose row leaves the block from where it is drawn and marked.
"""

from __future__ import annotations

from manim import Animation, FadeIn

from embedviz.render.animations import steps_together
from embedviz.render.glyphs import SansText
from embedviz.render.metrics import xyz
from embedviz.render.parts.sums import BlockPart, CountLine, LookupLine, MemoryTable, WidthsTable
from embedviz.render.solve_parameter_count import (
    ParamPlan,
    ParamSpec,
    solve_parameter_count,
)
from embedviz.render.stage import Stage, register_stage
from embedviz.story.model import Beat

__all__ = ["ParameterCountStage"]


@register_stage
class ParameterCountStage(Stage):
    """E's block, the parameter count, its memory, other widths d, and a lookup."""

    layout = "parameter_count"

    plan: ParamPlan
    block: BlockPart
    count: CountLine
    memory: MemoryTable
    widths: WidthsTable
    lookup: LookupLine

    def build(self) -> None:
        """Solve the layout and build every part in its place."""
        plan = solve_parameter_count(ParamSpec.from_board(self.board))
        self.plan = plan
        bands = plan.bands
        self.title = SansText(self.board.title, bands.title_font, self.theme.text)
        self.title.move_to(xyz(bands.title_x, bands.title_y))
        args = (self.scene, self.board, self.cells, plan, self.theme)
        self.block = self.add_part(BlockPart(*args))
        self.count = self.add_part(CountLine(*args, self.block))
        self.memory = self.add_part(MemoryTable(*args))
        self.widths = self.add_part(WidthsTable(*args))
        self.lookup = self.add_part(LookupLine(*args, self.block))

    def beat_table(self, beat: Beat) -> Animation:
        """Show the title with the block's first step (the scene has no intro of its own)."""
        return steps_together(FadeIn(self.title), self.block.beat_table(beat))
