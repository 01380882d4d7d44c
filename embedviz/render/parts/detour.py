"""A chip's way to its row of E around the still-empty output block, never through it.

A chip waiting beside a one-row output block (SingleTokenLookup) walked left
straight through that empty row to reach E: a 720p review (issue 18, "one
thread of motion") saw the toy's chip ``3`` standing inside output cell 0 at
23.3 s, where a class read it as a value. It now goes round the block
(:func:`way_there`): under it, or over it, along rounded legs, clear of
everything else drawn there (the block's and the chips' headings, the legend,
the PyTorch call, the caption band, the frame's margin), down or up the walking
column to its row. Of the ways that are clear, the shortest is taken (the toy:
right of the call's end, under it and up the column; GPT-2's size: under the
block). Where none is clear, or the block has several rows (their chips wait
in its tags' column, each between its neighbours), the chip walks as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from manim import DL, UR, config

from embedviz.render.boxes import mobject_boxes
from embedviz.render.design import CAPTION_FONT, MARGIN, SPACE
from embedviz.render.metrics import digit_height, xyz
from embedviz.render.parts.chips import Chip, curve_points
from embedviz.render.space import Box

if TYPE_CHECKING:
    from embedviz.render.parts.motion import LookupMotion

__all__ = ["around", "way_there"]

# Legs run this far from what they pass; a way is clear when its chip keeps half of it.
AIR = SPACE


def _near(one: Box, other: Box, gap: float) -> bool:
    """Whether two boxes come within ``gap`` of each other."""
    return not (
        one[2] + gap <= other[0]
        or other[2] + gap <= one[0]
        or one[3] + gap <= other[1]
        or other[3] + gap <= one[1]
    )


def _swept(points: np.ndarray, size: tuple[float, float]) -> list[Box]:
    """Return the box a chip of ``size`` sweeps along each step between two points."""
    half_w, half_h = size[0] / 2, size[1] / 2
    low = np.minimum(points[:-1], points[1:])
    high = np.maximum(points[:-1], points[1:])
    return [
        (lo[0] - half_w, lo[1] - half_h, hi[0] + half_w, hi[1] + half_h)
        for lo, hi in zip(low, high, strict=True)
    ]


def _clear(points: np.ndarray, size: tuple[float, float], others: list[Box], room: Box) -> bool:
    """Whether a chip along ``points`` stays inside ``room`` and half an AIR from ``others``."""
    for box in _swept(points, size):
        if box[0] < room[0] or box[1] < room[1] or box[2] > room[2] or box[3] > room[3]:
            return False
        if any(_near(box, other, AIR / 2) for other in others):
            return False
    return True


def around(
    home: np.ndarray,
    park: np.ndarray,
    size: tuple[float, float],
    block: Box,
    others: Sequence[Box],
    room: Box,
    radius: float,
) -> np.ndarray | None:
    """Return the shortest clear way (rounded) from ``home`` round ``block`` to ``park``.

    Under the block or over it: out across first where something stands in
    the way down (or up), along a band level clear of what is under (or over)
    the block, and along the walking column to ``park``. ``others``: what else
    the chip must keep clear of (what it touches at either end does not
    count); ``room``: where it may go at all. None: no such way is clear.
    """
    w, h = size
    ends = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for x, y in (home[:2], park[:2])]
    kept = [b for b in others if not any(_near(b, end, AIR / 2) for end in ends)]
    everything = [block, *kept]
    # Out across, or along a band, an AIR clear of what it passes, or two (a corner cuts in).
    airs = (AIR, 2 * AIR)
    outs = sorted(
        {float(home[0])} | {b[2] + a + w / 2 for b in kept if b[2] > home[0] for a in airs}
    )
    best: tuple[float, np.ndarray] | None = None
    for sign in (-1.0, 1.0):  # under, then over
        edge = block[1] if sign < 0 else block[3]
        sides = [b[1] if sign < 0 else b[3] for b in kept]
        levels = [edge, *(s for s in sides if (s - edge) * sign > 0)]
        bands = sorted(
            {s + sign * (a + h / 2) for s in levels for a in airs}, key=lambda y: y * sign
        )
        for y in bands:
            found = _first(home, park, y, outs, everything, size, room, radius)
            if found is not None:
                length = float(np.linalg.norm(np.diff(found, axis=0), axis=1).sum())
                if best is None or length < best[0]:
                    best = (length, found)
                break
    return None if best is None else best[1]


def _first(
    home: np.ndarray,
    park: np.ndarray,
    y: float,
    outs: Iterable[float],
    boxes: list[Box],
    size: tuple[float, float],
    room: Box,
    radius: float,
) -> np.ndarray | None:
    """Return the way along band ``y`` that turns nearest home across, if one is clear."""
    for x in outs:
        aside = [xyz(x, float(home[1]))] if x > home[0] + 1e-9 else []
        legs = [home, *aside, xyz(x, y), xyz(float(park[0]), y), park]
        points = curve_points(legs, radius)
        if _clear(points, size, boxes, room):
            return points
    return None


def _boxes(mobjects: Sequence[object], shift: np.ndarray, leave_out: list[object]) -> list[Box]:
    """Return the drawn boxes of ``mobjects``, moved by ``shift``."""
    dx, dy = float(shift[0]), float(shift[1])
    boxes = mobject_boxes(mobjects, leave_out)
    return [(b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy) for b in boxes]


def way_there(
    motion: LookupMotion,
    row_index: int,
    chip: Chip,
    home: np.ndarray,
    park: np.ndarray,
    lift: float,
) -> np.ndarray:
    """Return a chip's way from its place beside the output block to its row of E (``park``).

    Round a one-row block where a way is clear (:func:`around`); else left
    through its (empty) output row into the walking column and along it.
    """
    lane_y = motion.output_row_y(row_index) + lift
    through = curve_points([home, xyz(float(park[0]), lane_y), park], motion.radius)
    if len(motion.output.positions) != 1:
        return through
    # Everything drawn now, where it will stand as the chip walks: the output side as
    # the chip's home moves (glided out and up), the matrix side at its place.
    moved = xyz(motion.slide, lift)
    output = [m for m in motion.output_side(shown=True) if m is not chip]
    matrix = motion.matrix_side(shown=True)
    taken = {id(m) for top in [*output, *matrix, chip] for m in top.get_family()}
    rest = [m for m in motion.host.mobjects if id(m) not in taken]
    others = _boxes(output, moved, [chip, motion.output.grid])
    others += _boxes(matrix, xyz(-motion.matrix_slide, 0), [])
    others += _boxes(rest, xyz(0, 0), [chip])
    left = motion.plan.column_left
    others = [b for b in others if b[2] > left]  # E and its labels: left of the column
    body = motion.output.grid.body
    x0, y0, x1, y1 = (*body.get_corner(DL)[:2], *body.get_corner(UR)[:2])
    block = (x0 + moved[0], y0 + moved[1], x1 + moved[0], y1 + moved[1])
    half_w = float(config.frame_width) / 2 - MARGIN
    caption_top = motion.plan.caption_y + digit_height(CAPTION_FONT) * 2.1 + SPACE
    room = (-half_w, caption_top, half_w, float(config.frame_height) / 2 - MARGIN)
    size = (float(chip.width), float(chip.height))
    found = around(home, park, size, block, others, room, motion.radius)
    return through if found is None else found
