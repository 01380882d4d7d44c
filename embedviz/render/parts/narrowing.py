"""Make room beside the tables: they narrow about a line, every text at its own place.

PositionBlindness's beat ``same`` joins the repeat's two output rows with a
bracket, ``=`` and ``identical``; the lookup layout leaves no room for the
word beside the bracket. The tables narrow instead, in one smooth move: every
point moves towards the line ``x = anchor`` by ``scale`` (a cell's frame
grows narrower, never shorter), and every text (a number, a heading, a chip)
moves with its centre and shrinks by ``scale`` about it, so that the rows keep
their height and their pitch and the numbers shrink only as far as their
floor allows. The output side may also glide (into the corridor beside E,
which is empty once every lookup is done, and down where the frame is
fullest). Where even that leaves too little room, the table numbers keep
their floor while their cells narrow further (``kept``): each number keeps
its right edge's place in its cell, so a column's numbers stay aligned.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

import numpy as np
from manim import Mobject

from embedviz.render.design import MIN_NOTE_PX, units_for_px
from embedviz.render.gap_text import GapLabel
from embedviz.render.glyphs import GlyphString
from embedviz.render.zoom import PIECES

__all__ = ["Narrowing", "Targets", "glided", "narrowed", "narrowing", "placed"]

# Each moving member with the points it ends at.
Targets = list[tuple[Mobject, np.ndarray]]

# Each moving member narrowed but for a glide up or down: its points, every x in
# place (None after them); or a text's member, its points about the text's centre
# (scaled), and where that centre goes but for the glide.
Narrowing = list[tuple[Mobject, np.ndarray, np.ndarray | None]]


def narrowed(
    moving: Sequence[Mobject],
    scale: float,
    anchor: float,
    shift: tuple[float, float] = (0, 0),
    floor: float = 0.0,
    kept: Mapping[int, float] | None = None,
) -> Targets:
    """Return where every member of ``moving`` ends once narrowed (and shifted).

    Parameters
    ----------
    moving
        What narrows (with its families).
    scale
        How far every x comes towards ``anchor`` (1: not at all); texts shrink by it.
    anchor
        The x of the line that stays.
    shift
        Moved by this much as well, ``(dx, dy)``.
    floor
        The least height of a string's digit slot: a string (a row number,
        say) shrinks only as far as that (0: by ``scale``), its left edge
        where a point there would go; a note in sans (a hidden range's
        label) only as far as :data:`~embedviz.render.design.MIN_NOTE_PX`,
        if that is more.
    kept
        The least digit-slot height of some strings, by ``id`` (the table
        numbers, at their floor): each shrinks only as far as that, about its
        right edge's place (right-aligned numbers stay aligned).
    """
    return glided(narrowing(moving, scale, anchor, shift[0], floor, kept), shift[1])


def narrowing(
    moving: Sequence[Mobject],
    scale: float,
    anchor: float,
    dx: float = 0,
    floor: float = 0.0,
    kept: Mapping[int, float] | None = None,
) -> Narrowing:
    """Return :func:`narrowed`'s targets but for a glide up or down (see :func:`glided`).

    A search that tries many glides walks the families once.
    """
    seen: set[int] = set()
    found: Narrowing = []

    def across(x: np.ndarray | float) -> np.ndarray | float:
        return anchor + scale * (x - anchor) + dx

    def walk(mobject: Mobject) -> None:
        if id(mobject) in seen:
            return
        seen.add(id(mobject))
        if isinstance(mobject, PIECES):
            centre = mobject.get_center()
            moved = np.array([across(centre[0]), centre[1], centre[2]])
            factor = scale
            own = (kept or {}).get(id(mobject))
            if own is not None and isinstance(mobject, GlyphString):
                low, high = mobject.slot_corners()
                factor = max(scale, min(1.0, own / float(high[1] - low[1])))
                right = float(mobject.get_right()[0])
                moved[0] = across(right) - factor * (right - centre[0])
            elif floor and isinstance(mobject, GlyphString | GapLabel):
                low, high = mobject.slot_corners()
                least = _least(mobject, floor)
                factor = max(scale, min(1.0, least / float(high[1] - low[1])))
                # Kept larger, it grows away from the anchor from its near edge's place.
                left = float(mobject.get_left()[0])
                moved[0] = across(left) + factor * (centre[0] - left)
            for member in mobject.get_family():
                seen.add(id(member))
                if len(member.points):
                    found.append((member, (member.points - centre) * factor, moved))
            return
        if len(mobject.points):
            points = mobject.points.copy()
            points[:, 0] = across(points[:, 0])
            found.append((mobject, points, None))
        for sub in mobject.submobjects:
            walk(sub)

    for mobject in moving:
        walk(mobject)
    return found


def glided(found: Narrowing, dy: float) -> Targets:
    """Return the targets of a :func:`narrowing`, glided ``dy`` up.

    The very points :func:`narrowed` gives with the shift ``(dx, dy)``: a
    text's centre glides and its points stand about it as narrowed; any
    other member's points glide.
    """
    targets: Targets = []
    for member, points, centre in found:
        if centre is None:
            points = points.copy()
            points[:, 1] += dy
            targets.append((member, points))
        else:
            targets.append((member, np.array([centre[0], centre[1] + dy, centre[2]]) + points))
    return targets


def _least(mobject: Mobject, floor: float) -> float:
    """Return the least slot height ``mobject`` keeps when narrowed (``floor``, a note's own)."""
    if isinstance(mobject, GapLabel):
        return max(floor, units_for_px(MIN_NOTE_PX) * 1.001)
    return floor


@contextmanager
def placed(targets: Targets) -> Iterator[None]:
    """Put every member at its target for the ``with`` block, then back where it was."""
    saved = [(member, member.points.copy()) for member, _ in targets]
    for member, points in targets:
        member.points = points.copy()
    try:
        yield
    finally:
        for member, points in saved:
            member.points = points
