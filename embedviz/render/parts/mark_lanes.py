"""Where the lanes of the equality marks' lines stand left of the slices (BatchLookup).

Each mark's line (:mod:`embedviz.render.parts.mark_links`) runs along a *lane*,
an upright run left of the slices. The lanes stand :data:`LANE_STEP` apart
where there is room (:func:`lane_offsets`); where the room right of the marks'
place is short, only the lanes that reach past the place stand in it, closing
up to :data:`LANE_LEAST`, the others over the place (:func:`split_offsets`),
and where even that does not fit, the marks with one first copy share a lane
(:func:`lane_room`). :func:`order_lanes` takes the order whose lines cross the
fewest times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations, product

from embedviz.render.design import SPACE

__all__ = [
    "LANE_LEAST",
    "LANE_STEP",
    "LEVEL",
    "LINE_END",
    "LINK_STEP",
    "Bundle",
    "Lanes",
    "Route",
    "lane_offsets",
    "lane_room",
    "lane_xs",
    "links_room",
    "order_lanes",
    "split_offsets",
]

# The least step between two lanes, and from the nearest to the slices: a whole SPACE
# (11 px at 720p), so that no line reads as part of a block's border.
LINK_STEP = SPACE
# The step lanes take where the room allows: at one SPACE (the old step), two marks' lanes
# read as one bundle of three or four verticals within 20 px, each line lost in it.
LANE_STEP = 2 * SPACE
# The least height between a horizontal run of one mark's line and another mark's: closer,
# they read as one line (a reviewer followed a mark into the other mark's row).
LEVEL = SPACE
# Most marks whose lanes' every order is tried (6! orders); more take the nested order.
TRIED = 6
# The least step between two lanes where they close up for want of room (8.6 px at 720p):
# a lane's junction dot (7.2 px across) then keeps a quarter SPACE off the next lane.
LANE_LEAST = 0.8 * SPACE
# Where the lines end, left of the slices (the lanes' offsets count from there).
LINE_END = SPACE / 6


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
    first ``sum(deep)`` offsets are the deep lanes'. The offsets count from
    the lines' ends, :data:`LINE_END` left of the slices.
    """
    count, below = len(deep), sum(deep)
    if gap >= links_room(count):
        return lane_offsets(count, gap)
    offsets: list[float] = []
    if below:
        # The furthest deep lane's most: its ink SPACE / 2 clear of E (its half width, 0.1).
        reach = gap - LINE_END - 0.6 * SPACE
        step = LINK_STEP
        if below > 1:
            step = min(LINK_STEP, (reach - LINK_STEP) / (below - 1))
        if step < LANE_LEAST - 1e-9 or reach < LINK_STEP - 1e-9:
            return None
        offsets = [LINK_STEP + number * step for number in range(below)]
    rest = count - below
    if rest:
        last = offsets[-1] if offsets else 0.0
        step = min(LANE_STEP, (free - LINE_END - SPACE - last) / rest)
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
