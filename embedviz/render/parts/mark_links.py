"""Thin lines that tie each equality mark to the two output rows it names (BatchLookup).

:func:`mark_links` leads a line from each mark to the row it marks (the repeat);
:func:`first_links` branches each line into the row that row equals (its first
copy), so that both ends of ``out[1,2] = out[0,1]`` are marked.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import Dot, VGroup, VMobject

from embedviz.render.design import SPACE
from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import CellGrid

__all__ = ["DOT_RADIUS", "LINK_STEP", "first_links", "links_room", "mark_links"]

# The lines' verticals stand this far apart, the nearest this far left of the slices: a
# whole SPACE (11 px at 720p), so that no line reads as part of a block's border (at
# three quarters of it, 8 px, the nearest one hugged slice 0's border).
LINK_STEP = SPACE
# The dots where a mark's lines meet its two rows (3.6 px in radius at 720p).
DOT_RADIUS = SPACE / 3


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


def first_links(
    links: Sequence[VMobject], firsts: Sequence[tuple[CellGrid, int]], colour: str
) -> VGroup:
    """Return, for each mark's line, a branch into the first copy of the row it marks.

    Each branch leaves its line's vertical at the first copy's row (reaching
    it further up or down if the vertical stops short) and runs into that
    row's left end, as the line runs into the repeat's. A dot stands where
    each end meets its row, so that both rows a mark names are marked; and
    one where a branch leaves a vertical that goes on, telling it from a
    line that only crosses it.

    Parameters
    ----------
    links
        The marks' lines (:func:`mark_links`), in the marks' order.
    firsts
        Each mark's first copy: its table and the row's key in it.
    colour
        The branches' colour (the marks').

    Returns
    -------
    VGroup
        One group per mark: its branch and its dots.
    """
    branches = VGroup()
    for link, (grid, key) in zip(links, firsts, strict=True):
        corners = link.get_anchors()
        # The corners: the mark's end, the turn down (or up), the turn in, the row's end.
        x, turn_y, row_y = float(corners[1][0]), float(corners[1][1]), float(corners[-1][1])
        low, high = min(turn_y, row_y), max(turn_y, row_y)
        first_y = grid.row_y(key)
        end = xyz(grid.body_left() - SPACE / 6, first_y)
        points = [xyz(x, first_y), end]
        dots = [end, corners[-1]]
        if low <= first_y <= high:
            dots.append(xyz(x, first_y))
        else:
            points.insert(0, xyz(x, low if first_y < low else high))
        branch = VMobject(stroke_color=colour, stroke_width=1.5).set_points_as_corners(points)
        marks = [Dot(at, radius=DOT_RADIUS, color=colour) for at in dots]
        branches.add(VGroup(branch, *marks))
    return branches
