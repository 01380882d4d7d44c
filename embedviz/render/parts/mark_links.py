"""Thin lines that tie each equality mark to the two output rows it names (BatchLookup).

Each mark (``out[1,2] = out[0,1]``) gets one line of its own: from the mark's
right end to its *lane* (an upright run left of the slices), along the lane,
and out of it into the left ends of its two rows, the repeat and its first
copy. Where the mark stands level with its first copy
(:func:`level_with_firsts`), its line runs straight into that row and the
lane only goes on to the repeat.

- :func:`mark_links` returns each mark's line to the repeat, :func:`first_links`
  its branch into the first copy, with its dots (where the line meets its two
  rows, and where a branch leaves a line that goes on, telling it from a line
  that only crosses it).
- The lanes stand :data:`LANE_STEP` apart where there is room (:func:`lane_offsets`),
  in the order that crosses the fewest other marks' lines
  (:func:`order_lanes`); the marks stand where none of their runs is level with
  another mark's (:func:`level_clearance`).
- Where the room between the marks' place and the slices is short of that, only
  the *deep* lanes (those that reach past the place, beside E) stand in it,
  closing up to :data:`LANE_LEAST`; the others stand further out, over the
  place, right of the marks; where even that does not fit, marks with one first
  copy share a lane (:mod:`embedviz.render.parts.mark_lanes`, re-exported here).
  Marks with one first copy share their run into it, a dot where each nearer
  lane leaves it, and on a shared lane at each junction.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import Dot, Mobject, VGroup, VMobject

from embedviz.render.design import SPACE
from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import CellGrid
from embedviz.render.parts.mark_lanes import (
    LANE_LEAST,
    LANE_STEP,
    LEVEL,
    LINK_STEP,
    Bundle,
    Lanes,
    Route,
    lane_offsets,
    lane_room,
    lane_xs,
    links_room,
    order_lanes,
    split_offsets,
)

__all__ = [
    "DOT_RADIUS",
    "LANE_LEAST",
    "LANE_STEP",
    "LEVEL",
    "LINK_STEP",
    "Bundle",
    "Lanes",
    "Route",
    "clearest_shift",
    "first_links",
    "lane_offsets",
    "lane_room",
    "lane_xs",
    "level_clearance",
    "level_fits",
    "links_room",
    "mark_links",
    "order_lanes",
    "split_offsets",
]

# The dots where a mark's lines meet its two rows (3.6 px in radius at 720p).
DOT_RADIUS = SPACE / 3


def level_clearance(routes: Sequence[Route]) -> float:
    """Return the least height between a run of one line and another line's runs.

    A mark's run that stands off its own rows counts too, where it is not
    level with its first copy (a jog of a few pixels reads as a slip). Two
    marks with one first copy share their run into it.
    """
    clear = float("inf")
    for number, route in enumerate(routes):
        if abs(route.note - route.first) >= 1e-6:
            clear = min(clear, abs(route.note - route.first), abs(route.note - route.repeat))
        mine = (route.note, route.first, route.repeat)
        for other in routes[number + 1 :]:
            theirs = (other.note, other.first, other.repeat)
            gaps = [abs(a - b) for a in mine for b in theirs]
            if abs(route.first - other.first) < 1e-6:
                # One first copy: their branches into it are one run, not two.
                gaps.pop(4)
            clear = min(clear, *gaps)
    return clear


def mark_links(
    marks: Sequence[VMobject],
    rows: Sequence[tuple[CellGrid, int]],
    lanes: Sequence[float],
    colour: str,
) -> VGroup:
    """Return a thin line from each mark's right end to the left end of the row it names.

    Each goes right to its lane (``lanes``: :func:`order_lanes`), up or down
    it to its row, then into that row.

    Parameters
    ----------
    marks
        The marks, left of the tables.
    rows
        Each mark's row (the repeat): its table and the row's key in it.
    lanes
        Each mark's lane's x.
    colour
        The lines' colour (the marks').

    Returns
    -------
    VGroup
        One line per mark, in the marks' order.
    """
    links = VGroup()
    for mark, (grid, key), x in zip(marks, rows, lanes, strict=True):
        row_y, body = grid.row_y(key), grid.body_left()
        start = mark.get_right() + xyz(SPACE / 2, 0)
        link = VMobject(stroke_color=colour, stroke_width=1.5)
        corners = [start, xyz(x, start[1]), xyz(x, row_y), xyz(body - SPACE / 6, row_y)]
        links.add(link.set_points_as_corners(corners))
    return links


def _row_dot(end: VMobject | object, colour: str) -> Dot:
    """Return the dot at a line's end on its row: left of the border, clear of the digits."""
    at = xyz(float(end[0]) - DOT_RADIUS, float(end[1]))  # type: ignore[index]
    return Dot(at, radius=DOT_RADIUS, color=colour)


def _junctions(turn_y: float, first_y: float, row_y: float) -> list[float]:
    """Return the heights on a lane where three runs meet (a run goes on past a branch).

    The lane spans the mark's run (``turn_y``) and its two rows; a run leaves
    it at each of the three (the mark's run and its first copy's are one where
    they stand level).
    """
    low, high = min(turn_y, first_y, row_y), max(turn_y, first_y, row_y)
    found = []
    if abs(turn_y - first_y) < 1e-6:
        first_y = turn_y
    for y in sorted({turn_y, first_y, row_y}):
        runs = int(y > low + 1e-9) + int(y < high - 1e-9)
        runs += 2 if abs(y - turn_y) < 1e-6 and abs(y - first_y) < 1e-6 else 1
        if runs >= 3:
            found.append(y)
    return found


def first_links(
    links: Sequence[VMobject], firsts: Sequence[tuple[CellGrid, int]], colour: str
) -> VGroup:
    """Return, for each mark's line, a branch into the first copy of the row it marks.

    Each branch leaves its line's lane at the first copy's row (reaching it
    further up or down if the lane stops short) and runs into that row's left
    end, as the line runs into the repeat's: where the mark stands level with
    its first copy, the branch carries its run straight on into the row. A dot
    stands where each end meets its row (just left of the row's border, clear
    of its digits), so that both rows a mark names are marked; and one where a
    line or a branch leaves a run that goes on, telling it from a line that
    only crosses it.

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
        if not low - 1e-6 <= first_y <= high + 1e-6:
            points.insert(0, xyz(x, low if first_y < low else high))
        branch = VMobject(stroke_color=colour, stroke_width=1.5).set_points_as_corners(points)
        dots = [_row_dot(end, colour), _row_dot(corners[-1], colour)]
        dots += [
            Dot(xyz(x, y), radius=DOT_RADIUS, color=colour)
            for y in _junctions(turn_y, first_y, row_y)
        ]
        branches.add(VGroup(branch, *dots))
    _shared_dots(branches, firsts, colour)
    _lane_dots(links, branches, colour)
    return branches


def _lane_dots(links: Sequence[VMobject], branches: VGroup, colour: str) -> None:
    """Add a dot at each junction of a lane that several marks share (:class:`Lanes`).

    The lane spans every one of its marks' runs; a dot stands wherever three
    runs meet on it (a mark's run joining it, a branch leaving it for a row,
    the lane going on past).
    """
    by_x: dict[float, list[int]] = {}
    for number, link in enumerate(links):
        by_x.setdefault(round(float(link.get_anchors()[1][0]), 6), []).append(number)
    for x, group in by_x.items():
        if len(group) < 2:
            continue
        notes = [round(float(links[n].get_anchors()[1][1]), 6) for n in group]
        rows = {round(float(links[n].get_end()[1]), 6) for n in group}
        rows |= {round(float(branches[n][0].get_end()[1]), 6) for n in group}
        low, high = min(*notes, *rows), max(*notes, *rows)
        dots = [d.get_center() for n in group for d in branches[n][1:]]
        for y in sorted({*notes, *rows}):
            runs = int(y > low + 1e-6) + int(y < high - 1e-6) + notes.count(y) + int(y in rows)
            at = xyz(x, y)
            if runs >= 3 and not any(abs(d - at).max() < 1e-6 for d in dots):
                branches[group[0]].add(Dot(at, radius=DOT_RADIUS, color=colour))


def _shared_dots(branches: VGroup, firsts: Sequence[tuple[CellGrid, int]], colour: str) -> None:
    """Add a dot where a lane meets the run of another mark with the same first copy.

    Marks whose rows equal one first copy share its run (their branches lie
    on one line): where a nearer lane leaves it, the run from a further lane
    goes on past, a junction.
    """
    for number, (grid, key) in enumerate(firsts):
        x = float(branches[number][0].get_start()[0])
        further = [
            float(branches[other][0].get_start()[0])
            for other, (g, k) in enumerate(firsts)
            if g is grid and k == key and other != number
        ]
        at = xyz(x, grid.row_y(key))
        there = any(abs(dot.get_center() - at).max() < 1e-6 for dot in branches[number][1:])
        if further and min(further) < x - 1e-6 and not there:
            branches[number].add(Dot(at, radius=DOT_RADIUS, color=colour))


def level_fits(marks: Sequence[Mobject], ys: Sequence[float], band: tuple[float, float]) -> bool:
    """Whether every mark fits in ``band`` (bottom, top) centred level with its ``ys``.

    Two marks must also stand at least ``SPACE / 2`` apart.
    """
    bottom, top = band
    for number, (mark, y) in enumerate(zip(marks, ys, strict=True)):
        half = float(mark.height) / 2
        if y + half > top or y - half < bottom:
            return False
        for other, z in list(zip(marks, ys, strict=True))[:number]:
            if abs(y - z) < (half + float(other.height) / 2) + SPACE / 2:
                return False
    return True


def clearest_shift(
    marks: Mobject,
    first_ys: Sequence[float],
    repeat_ys: Sequence[float],
    box: tuple[float, float, float, float],
) -> float:
    """Return how far to move the stacked marks up or down the box so that their runs stand clear.

    The nearest shift, in quarters of a SPACE, whose lines keep :data:`LEVEL`
    from every other mark's runs and rows (:func:`level_clearance`); else the
    clearest of those tried.
    """
    top, bottom = float(marks.get_top()[1]), float(marks.get_bottom()[1])
    steps = sorted(range(-40, 41), key=abs)
    shifts = [k * SPACE / 4 for k in steps if bottom - box[2] >= -k * SPACE / 4]
    shifts = [d for d in shifts if top + d <= box[3]]
    best, clearest = 0.0, -1.0
    for shift in shifts:
        routes = [
            Route(0.0, float(mark.get_center()[1]) + shift, f, r)
            for mark, f, r in zip(marks.submobjects, first_ys, repeat_ys, strict=True)
        ]
        clear = level_clearance(routes)
        if clear > clearest:
            best, clearest = shift, clear
        if clear >= LEVEL:
            break
    return best
