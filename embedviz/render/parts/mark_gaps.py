"""Where one equality mark's line crosses another's lane, the lane breaks round it (BatchLookup).

Two marks whose row pairs nest or interleave (``out[1,3] = out[0,0]`` and
``out[1,2] = out[0,1]``: rows 0 and 7 of the output round rows 1 and 6) cannot
both be tied to their two rows from the left without one line crossing the
other's lane: the lane, with the slices' left edge between its two rows,
closes off every row between them from the marks' place. A 720p review read
the crossing (a horizontal run through an upright, no dot) as a joint. The
upright that is crossed now stops :data:`CROSS_GAP` short of the run on each
side and goes on past it, as a wire passing under another is drawn: the two
lines never touch, and only a dot marks a joint
(:func:`~embedviz.render.parts.mark_links.first_links`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import Mobject, VGroup

from embedviz.render.design import SPACE

__all__ = ["CROSS_GAP", "break_crossings"]

# How far the crossed upright stops short of the run on each side (5.4 px at 720p): more
# than the dots' radius, so the break reads as a gap, not as a thin spot in the line.
CROSS_GAP = SPACE / 2


def _runs(line: Mobject) -> list[tuple[np.ndarray, np.ndarray]]:
    """Return a polyline's straight runs as (start, end) pairs."""
    curves = line.points.reshape(-1, 4, 3)
    return [(curve[0].copy(), curve[3].copy()) for curve in curves]


def _flats(lines: Sequence[Mobject]) -> list[tuple[float, float, float]]:
    """Return the horizontal runs (y, left, right) of some lines."""
    found = []
    for line in lines:
        for start, end in _runs(line):
            if abs(float(start[1] - end[1])) < 1e-9 and abs(float(start[0] - end[0])) > 1e-9:
                low, high = sorted((float(start[0]), float(end[0])))
                found.append((float(start[1]), low, high))
    return found


def _broken(
    line: Mobject,
    flats: Sequence[tuple[float, float, float]],
    own: Sequence[tuple[float, float, float]],
) -> None:
    """Break each upright run of ``line`` round every run in ``flats`` that crosses it.

    Not where a run of its own mark leaves the upright at that height (``own``):
    marks with one first copy share their run into it, a joint with its dot.
    """
    pieces: list[tuple[np.ndarray, np.ndarray]] = []
    for start, end in _runs(line):
        x = float(start[0])
        low, high = sorted((float(start[1]), float(end[1])))
        upright = abs(float(start[0] - end[0])) < 1e-9 and high - low > 1e-9
        cuts = sorted(
            y
            for y, left, right in flats
            if upright
            and left + 1e-9 < x < right - 1e-9
            and low + 1e-9 < y < high - 1e-9
            and not any(abs(y - z) < 1e-9 and x - 1e-9 <= a <= x + 1e-9 for z, a, _ in own)
            and not any(abs(y - z) < 1e-9 and x - 1e-9 <= b <= x + 1e-9 for z, _, b in own)
        )
        if not cuts:
            pieces.append((start, end))
            continue
        down = float(end[1]) < float(start[1])
        ys = [float(start[1])]
        for y in reversed(cuts) if down else cuts:
            step = CROSS_GAP if down else -CROSS_GAP
            ys += [y + step, y - step]
        ys.append(float(end[1]))
        for a, b in zip(ys[::2], ys[1::2], strict=True):
            if (b - a) * (float(end[1]) - float(start[1])) > 0:
                pieces.append((np.array([x, a, 0.0]), np.array([x, b, 0.0])))
    points = [
        [a, a + (b - a) / 3, a + 2 * (b - a) / 3, b]  # A straight cubic per piece.
        for a, b in pieces
    ]
    line.set_points(np.array(points).reshape(-1, 3))


def break_crossings(links: VGroup, firsts: VGroup) -> None:
    """Break every mark's uprights round the other marks' horizontal runs that cross them.

    Parameters
    ----------
    links
        Each mark's line to its repeat
        (:func:`~embedviz.render.parts.mark_links.mark_links`), in the marks' order.
    firsts
        Each mark's branch and dots
        (:func:`~embedviz.render.parts.mark_links.first_links`): the branch first.
    """
    lines: list[list[Mobject]] = [
        [link, branch[0]] for link, branch in zip(links, firsts, strict=True)
    ]
    # Every crossing is found on the lines as built, before any is broken.
    others = [
        _flats([line for j, pair in enumerate(lines) if j != i for line in pair])
        for i in range(len(lines))
    ]
    for pair, flats in zip(lines, others, strict=True):
        own = _flats(pair)
        for line in pair:
            _broken(line, flats, own)
