"""A row's outline whose outer sides stand clear of its block's frame (PositionBlindness).

:meth:`~embedviz.render.parts.grid.CellGrid.row_outline` draws the sides of a
row that face out of the block 0.04 outside the body: the outline's ink and
the frame's then run side by side less than a pixel apart, and at 720p they
read as one smudged double line (a review of the learned variant: the purple
outlines of P's rows over P's green frame at x≈1256 px). Here those sides
stand :data:`~embedviz.render.parts.grid.CLEAR_PX` off the frame's ink, as
two outlines side by side do. Sides between drawn rows keep running on the
rows' shared border (the outline ends past the frame there, across it, where
that border meets it).
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, Rectangle

from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import CellGrid, clear_units

__all__ = ["FRAME_WIDTH", "OUTLINE_WIDTH", "clear_reach", "clear_row_outline"]

# The stroke of a row's outline, and of the frame of a block in the position layout.
OUTLINE_WIDTH = 4.0
FRAME_WIDTH = 2.0


def _offset(frame_width: float, width: float) -> float:
    """Return how far an outer side's centre line stands off the body's edge."""
    return frame_width / 200 + clear_units() + width / 200


def clear_reach(frame_width: float = FRAME_WIDTH, width: float = OUTLINE_WIDTH) -> float:
    """Return how far an outline's ink reaches past its block's body (scene units).

    A layout that outlines rows at the frame's safe margin, or beside a tag,
    keeps this much room past the body (the grid's own outlines need only
    :data:`~embedviz.render.design.OUTLINE_REACH`).
    """
    return _offset(frame_width, width) + width / 200


def clear_row_outline(
    grid: CellGrid, row: int, colour: str, width: float = OUTLINE_WIDTH
) -> Rectangle:
    """Return an outline around a row whose outer sides stand clear of the frame (not yet added).

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
    """
    box = grid.row_outline(row, colour, width)
    left, bottom, right, top = grid.row_box(row, buff=0.0)
    off = _offset(float(grid.body[0].get_stroke_width()), width)
    low, high = box.get_corner(DOWN + LEFT), box.get_corner(UP + RIGHT)
    # A side past the row's cells faces out of the block (row_outline keeps the others
    # on or inside the row's border): it moves out to stand clear of the frame.
    high_y = top + off if high[1] > top + 1e-9 else float(high[1])
    low_y = bottom - off if low[1] < bottom - 1e-9 else float(low[1])
    left, right = left - off, right + off
    clear = Rectangle(width=right - left, height=high_y - low_y)
    clear.move_to(xyz((left + right) / 2, (low_y + high_y) / 2))
    return clear.set_stroke(colour, width=width).set_fill(opacity=0.0)
