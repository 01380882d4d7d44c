"""A row's ring that runs on its block's frame (PositionBlindness, TrainingNudge).

:meth:`~embedviz.render.parts.grid.CellGrid.row_outline` draws the sides of a
row that face out of the block 0.04 outside the body: the outline's ink and
the frame's then run side by side less than a pixel apart, and at 720p they
read as one smudged double line (a review of the learned variant: the purple
outlines of P's rows over P's green frame at x≈1256 px). Standing them
:data:`~embedviz.render.parts.grid.CLEAR_PX` off the frame's ink was not
enough either: a 720p review still read 1–4 px between two parallel lines as
a drawing error (TrainingNudge's purple rings round w's rows, PositionBlindness's
amber and purple ones). Here those sides run on the frame itself, as the rule
:data:`~embedviz.render.design.RING_APART` says: the ring's wider stroke covers
the frame along the row, so the row's border is drawn once, in the ring's
colour. Sides between drawn rows keep running on the rows' shared border.
"""

from __future__ import annotations

from collections.abc import Collection

from manim import DOWN, LEFT, RIGHT, UP, Rectangle

from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import CellGrid, clear_units

__all__ = ["FRAME_WIDTH", "OUTLINE_WIDTH", "clear_reach", "clear_row_outline"]

# The stroke of a row's outline, and of the frame of a block in the position layout.
OUTLINE_WIDTH = 4.0
FRAME_WIDTH = 2.0


def clear_reach(frame_width: float = FRAME_WIDTH, width: float = OUTLINE_WIDTH) -> float:
    """Return the room a layout keeps past a block's body for its rows' rings (scene units).

    A layout that outlines rows at the frame's safe margin, or beside a tag,
    keeps this much room past the body (the grid's own outlines need only
    :data:`~embedviz.render.design.OUTLINE_REACH`). A ring on the frame reaches
    only half its stroke past the body; the rest of this room is air that keeps
    tags and signs where the moment tests measured them clear.
    """
    return frame_width / 200 + clear_units() + width / 100


def clear_row_outline(
    grid: CellGrid,
    row: int,
    colour: str,
    width: float = OUTLINE_WIDTH,
    beside: Collection[int] = (),
) -> Rectangle:
    """Return an outline around a row whose outer sides run on the frame (not yet added).

    Parameters
    ----------
    grid
        The block.
    row
        The row (its key).
    colour
        The outline's colour.
    width
        Its stroke width.
    beside
        Rows outlined at the same time (as :meth:`CellGrid.row_outline`'s).
    """
    box = grid.row_outline(row, colour, width, beside)
    left, bottom, right, top = grid.row_box(row, buff=0.0)
    low, high = box.get_corner(DOWN + LEFT), box.get_corner(UP + RIGHT)
    # A side past the row's cells faces out of the block (row_outline keeps the others
    # on or inside the row's border): it moves in onto the row's border, the frame.
    high_y = min(top, float(high[1]))
    low_y = max(bottom, float(low[1]))
    clear = Rectangle(width=right - left, height=high_y - low_y)
    clear.move_to(xyz((left + right) / 2, (low_y + high_y) / 2))
    return clear.set_stroke(colour, width=width).set_fill(opacity=0.0)
