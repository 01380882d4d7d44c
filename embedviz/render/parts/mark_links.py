"""Thin lines that tie each equality mark to the output row it names (BatchLookup)."""

from __future__ import annotations

from collections.abc import Sequence

from manim import VGroup, VMobject

from embedviz.render.design import SPACE
from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import CellGrid

__all__ = ["mark_links"]


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
    step = SPACE * 0.75
    links = VGroup()
    for number, (mark, (grid, key)) in enumerate(zip(marks, rows, strict=True)):
        row_y, body = grid.row_y(key), grid.body_left()
        start = mark.get_right() + xyz(SPACE / 2, 0)
        down = float(start[1]) > row_y
        depth = number + 1 if down else len(marks) - number
        x = body - depth * step
        link = VMobject(stroke_color=colour, stroke_width=1.5)
        corners = [start, xyz(x, start[1]), xyz(x, row_y), xyz(body - SPACE / 6, row_y)]
        links.add(link.set_points_as_corners(corners))
    return links
