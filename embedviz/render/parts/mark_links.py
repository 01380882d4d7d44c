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
  place, right of the marks (:func:`lane_room`, :func:`split_offsets`). Marks
  with one first copy share their run into it, a dot where each nearer lane
  leaves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations, product

from manim import Dot, Mobject, VGroup, VMobject

from embedviz.render.design import SPACE
from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import CellGrid

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

# The least step between two lanes, and from the nearest to the slices: a whole SPACE
# (11 px at 720p), so that no line reads as part of a block's border.
LINK_STEP = SPACE
# The step lanes take where the room allows: at one SPACE (the old step), two marks' lanes
# read as one bundle of three or four verticals within 20 px, each line lost in it.
LANE_STEP = 2 * SPACE
# The dots where a mark's lines meet its two rows (3.6 px in radius at 720p).
DOT_RADIUS = SPACE / 3
# The least height between a horizontal run of one mark's line and another mark's: closer,
# they read as one line (a reviewer followed a mark into the other mark's row).
LEVEL = SPACE
# Most marks whose lanes' every order is tried (6! orders); more take the nested order.
TRIED = 6
# The least step between two lanes where they close up for want of room (8.6 px at 720p):
# a lane's junction dot (7.2 px across) then keeps a quarter SPACE off the next lane.
LANE_LEAST = 0.8 * SPACE


@dataclass(frozen=True)
class Route:
    """One mark's line, as heights and the x its run from the mark starts at.

    ``start`` is where the line leaves the mark (its right end, a little
    past); ``note``, ``first`` and ``repeat`` are the heights of the mark's
    run, of its first copy's row and of the repeat's row.
    """

    start: float
    note: float
    first: float
    repeat: float

    def span(self) -> tuple[float, float]:
        """Return the lane's lowest and highest y."""
        ys = (self.note, self.first, self.repeat)
        return min(ys), max(ys)

    def runs(self, lane: float, end: float) -> list[tuple[float, float, float]]:
        """Return the horizontal runs (y, left, right) of the line with its lane at ``lane``."""
        return [(self.note, self.start, lane), (self.first, lane, end), (self.repeat, lane, end)]


def links_room(count: int) -> float:
    """Return the width the lines of ``count`` marks need between the marks' place and the slices.

    The ``count`` lanes, at least :data:`LINK_STEP` apart, the nearest
    :data:`LINK_STEP` from the slices and the furthest a SPACE clear of the
    place's right end (:func:`lane_offsets` spreads them out where there is
    more).

    Parameters
    ----------
    count
        The number of marks (one line each).

    Returns
    -------
    float
        The least distance, in scene units, from the place's right end to the slices.
    """
    return count * LINK_STEP + SPACE


def lane_offsets(count: int, room: float) -> list[float]:
    """Return how far each lane stands left of the slices, nearest first.

    The lanes stand :data:`LANE_STEP` apart, the nearest as far from the
    slices (its junction's dot then stands clear of the dots on the rows'
    ends), or closer (not under :data:`LINK_STEP`) where ``room`` (from the
    marks' place to the slices, :func:`links_room`) is short.
    """
    step = max(LINK_STEP, min(LANE_STEP, (room - SPACE) / max(count, 1)))
    return [(number + 1) * step for number in range(count)]


def split_offsets(deep: Sequence[bool], gap: float, free: float) -> list[float] | None:
    """Return each lane's offset left of the slices where the lanes fit, else ``None``.

    ``gap`` is the room right of the marks' place (what stands under it, E,
    stands no further right), ``free`` the room right of the marks' right
    end. Where every lane fits in ``gap`` (:func:`links_room`), they stand as
    :func:`lane_offsets` sets them. Else only the *deep* lanes (those that
    reach below the place, past E) stand in the gap: the nearest
    :data:`LINK_STEP` from the slices, closing up to :data:`LANE_LEAST` and the
    furthest SPACE / 2 clear of E; the others stand further out, over the
    place, up to :data:`LANE_STEP` apart and a SPACE right of the marks. The
    first ``sum(deep)`` offsets are the deep lanes'.
    """
    count, below = len(deep), sum(deep)
    if gap >= links_room(count):
        return lane_offsets(count, gap)
    offsets: list[float] = []
    if below:
        step = LINK_STEP
        if below > 1:
            step = min(LINK_STEP, (gap - SPACE / 2 - LINK_STEP) / (below - 1))
        if step < LANE_LEAST - 1e-9 or gap < LINK_STEP + SPACE / 2:
            return None
        offsets = [LINK_STEP + number * step for number in range(below)]
    rest = count - below
    if rest:
        last = offsets[-1] if offsets else 0.0
        step = min(LANE_STEP, (free - SPACE - last) / rest)
        if step < LANE_LEAST - 1e-9:
            return None
        offsets += [last + (number + 1) * step for number in range(rest)]
    return offsets


@dataclass(frozen=True)
class Bundle:
    """The routes of the marks that share one lane (one mark's, where each has its own)."""

    routes: tuple[Route, ...]

    def span(self) -> tuple[float, float]:
        """Return the shared lane's lowest and highest y."""
        spans = [route.span() for route in self.routes]
        return min(low for low, _ in spans), max(high for _, high in spans)

    def runs(self, lane: float, end: float) -> list[tuple[float, float, float]]:
        """Return every horizontal run of the routes, with their lane at ``lane``."""
        return sorted({run for route in self.routes for run in route.runs(lane, end)})


@dataclass(frozen=True)
class Lanes:
    """Where the marks' lanes stand: ``offsets`` left of the slices, one per group.

    ``groups`` lists the marks (by number) that share each lane, ``deep``
    whether it reaches past the marks' place (:func:`split_offsets`).
    """

    offsets: list[float]
    deep: list[bool]
    groups: list[list[int]]


def _plan(deep: list[bool], groups: list[list[int]], gap: float, free: float) -> Lanes | None:
    """Return the lanes of ``groups`` (one each) where they fit (:func:`split_offsets`)."""
    offsets = split_offsets(deep, gap, free)
    if offsets is None:
        return None
    if gap >= links_room(len(groups)):
        deep = [True] * len(groups)  # Every lane stands right of the place.
    return Lanes(offsets, deep, groups)


def lane_room(
    rows: Sequence[Sequence[float]], place: tuple[float, float, float], body: float, right: float
) -> Lanes | None:
    """Return where the marks' lanes stand, if they fit; else ``None``.

    ``rows`` holds each mark's rows' heights (its repeat's, then its first
    copy's); ``place`` the marks' place's right end, bottom and top (up to
    where a mark may stand); ``body`` the slices' left, ``right`` the marks'
    right end. A lane that reaches more than SPACE / 2 below the place (past
    E) or over it is *deep*: it stands right of the place
    (:func:`split_offsets`). Each mark has a lane of its own where they fit;
    else the marks with one first copy share one lane (one upright from the
    first copy, a branch to each repeat and each mark).
    """
    end, bottom, top = place
    deep = [min(ys) < bottom - SPACE / 2 or max(ys) > top + SPACE / 2 for ys in rows]
    lanes = _plan(deep, [[number] for number in range(len(rows))], body - end, body - right)
    shared: dict[float, list[int]] = {}
    for number, ys in enumerate(rows):
        shared.setdefault(round(float(ys[1]), 6), []).append(number)
    if lanes is not None or len(shared) == len(rows):
        return lanes
    groups = list(shared.values())
    reach = [any(deep[number] for number in group) for group in groups]
    return _plan(reach, groups, body - end, body - right)


def lane_xs(routes: Sequence[Route], lanes: Lanes, end: float) -> list[float]:
    """Return each mark's lane x: its group's, in the order that crosses the fewest times."""
    bundles = [Bundle(tuple(routes[number] for number in group)) for group in lanes.groups]
    xs = order_lanes(bundles, lanes.offsets, end, lanes.deep)
    found = [0.0] * len(routes)
    for group, x in zip(lanes.groups, xs, strict=True):
        for number in group:
            found[number] = x
    return found


def _crossings(routes: Sequence[Route | Bundle], lanes: Sequence[float], end: float) -> int:
    """Return how many times a horizontal run of one line meets another line's lane."""
    count = 0
    for i, route in enumerate(routes):
        for j, other in enumerate(routes):
            if i == j:
                continue
            low, high = other.span()
            for y, left, right in route.runs(lanes[i], end):
                if left < lanes[j] < right and low - LEVEL / 2 <= y <= high + LEVEL / 2:
                    count += 1
    return count


def order_lanes(
    routes: Sequence[Route | Bundle],
    offsets: Sequence[float],
    end: float,
    deep: Sequence[bool] | None = None,
) -> list[float]:
    """Return each route's lane x: the order of lanes whose lines cross the fewest times.

    ``offsets`` from :func:`lane_offsets` (or :func:`split_offsets`, whose
    first offsets only the ``deep`` routes take), ``end`` the x the lines end
    at (the slices' left). Up to :data:`TRIED` marks, every order is tried
    (the first found of the fewest); more take the nested order, the longest
    lane furthest out.
    """
    xs = [end - offset for offset in offsets]
    classes = [list(range(len(routes)))]
    if deep is not None and any(deep) and not all(deep):
        classes = [[i for i in range(len(routes)) if deep[i]]]
        classes.append([i for i in range(len(routes)) if not deep[i]])
    places, start = [], 0
    for members in classes:
        places.append(xs[start : start + len(members)])
        start += len(members)
    if len(routes) > TRIED:
        lengths = [route.span()[1] - route.span()[0] for route in routes]
        lanes = [0.0] * len(routes)
        for members, spots in zip(classes, places, strict=True):
            for depth, i in enumerate(sorted(members, key=lambda i: lengths[i])):
                lanes[i] = spots[depth]
        return lanes
    best: list[float] = []
    fewest = -1
    for orders in product(*(permutations(spots) for spots in places)):
        lanes = [0.0] * len(routes)
        for members, order in zip(classes, orders, strict=True):
            for i, x in zip(members, order, strict=True):
                lanes[i] = x
        count = _crossings(routes, lanes, end)
        if fewest < 0 or count < fewest:
            best, fewest = lanes, count
    return best


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
