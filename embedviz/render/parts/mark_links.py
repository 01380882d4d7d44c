"""Thin lines that tie each equality mark to the output row it names (BatchLookup)."""

from __future__ import annotations

from collections.abc import Sequence

from manim import VGroup, VMobject

from embedviz.render.design import SPACE
from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import CellGrid

__all__ = ["LINK_STEP", "links_room", "mark_links"]

# The lines' verticals stand this far apart, the nearest this far left of the slices: a
# whole SPACE (11 px at 720p), so that no line reads as part of a block's border (at
# three quarters of it, 8 px, the nearest one hugged slice 0's border).
LINK_STEP = SPACE


def links_room(count: int) -> float:
    """Return the width the lines of ``count`` marks need between the marks and the slices.

    The ``count`` verticals, :data:`LINK_STEP` apart, the nearest
    :data:`LINK_STEP` from the slices; each line leaves its mark ``SPACE / 2``
    past its right end and runs at least ``SPACE / 2`` before it turns.

    Parameters
    ----------
    count
        The number of marks (one line each).

    Returns
    -------
    float
        The least distance, in scene units, from the marks' right end to the slices.
    """
    return count * LINK_STEP + SPACE


def mark_links(
    marks: Sequence[VMobject], rows: Sequence[tuple[CellGrid, int]], colour: str
) -> VGroup:
    """Return a thin line from each mark's right end to the left end of the row it names.

    Each goes right, then up or down just left of the rows' table, then into
    its row. The verticals are nested (the line of the row nearest its mark
    runs nearest the table), so that no two lines cross.

    Parameters
    ----------
    marks
        The marks, top to bottom, left of the tables.
    rows
        Each mark's row: its table and the row's key in it.
    colour
        The lines' colour (the marks').

    Returns
    -------
    VGroup
        One line per mark, in the marks' order.
    """
    links = VGroup()
    for number, (mark, (grid, key)) in enumerate(zip(marks, rows, strict=True)):
        row_y, body = grid.row_y(key), grid.body_left()
        start = mark.get_right() + xyz(SPACE / 2, 0)
        down = float(start[1]) > row_y
        depth = number + 1 if down else len(marks) - number
        x = body - depth * LINK_STEP
        link = VMobject(stroke_color=colour, stroke_width=1.5)
        corners = [start, xyz(x, start[1]), xyz(x, row_y), xyz(body - SPACE / 6, row_y)]
        links.add(link.set_points_as_corners(corners))
    return links
