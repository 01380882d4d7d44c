"""An author's own scene built from embedviz's plugin mobjects.

Two tokens are looked up in ``nn.Embedding(6, 3)`` seeded with 123, beside the
author's own words. Render it with plain Manim, from the repository root::

    manim render -ql examples/own_scene.py TwoTokenLookup

Every number on screen comes from the core table: the scene passes the table
and the IDs, never a value.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, Scene, Text, VGroup, Write

from embedviz.core.table import EmbeddingTable
from embedviz.plugin import EmbeddingGrid, OutputBlock, TokenChip, lookup

# The table and the IDs: the only inputs. The numbers are the table's own.
TABLE = EmbeddingTable.from_seed(6, 3, seed=123)
IDS = (4, 1)


class TwoTokenLookup(Scene):
    """Two IDs become two rows, beside a paragraph of the author's text."""

    def construct(self) -> None:
        """Show the author's text, the table and two lookups."""
        self.camera.background_color = "#101318"  # embedviz's dark theme
        grid = EmbeddingGrid(TABLE, width=4.6, height=3.6)
        grid.move_to([-3.6, -0.2, 0])
        block = OutputBlock((len(IDS), TABLE.dim), grid)
        block.move_to([1.6, -0.9, 0])
        chips = VGroup(*[TokenChip(token, position=t) for t, token in enumerate(IDS)])
        chips.arrange(RIGHT, buff=0.25).next_to(block, UP, buff=0.9)
        notes = VGroup(
            Text("My lecture, slide 3", font="DejaVu Sans", font_size=30),
            Text("An ID is a row number.", font="DejaVu Sans", font_size=22),
            Text("Looking it up copies the row.", font="DejaVu Sans", font_size=22),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        notes.to_corner(UP + LEFT, buff=0.4)
        self.play(Write(notes[0]), FadeIn(grid), FadeIn(block), FadeIn(chips))
        self.play(FadeIn(notes[1:], shift=0.2 * DOWN))
        for slot, chip in enumerate(chips):
            self.play(lookup(chip, grid, block, slot))
        self.wait(0.5)
