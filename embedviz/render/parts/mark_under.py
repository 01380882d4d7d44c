"""Equality marks under E, rings round the rows they equal (BatchLookup).

A view-only review of the repeats beat (issue 18, lecture-hall frames, the
default batch and GPT-2's) found two faults this module answers:

- the only marks on the rows were thin passing lines beside the ID tags,
  gone by the beat's end while the caption said "Each marked row…":
  :func:`equal_rings` rings every row a mark names (the repeat and its first
  copy) in the verdict's neutral accent (equal is shown by a shape, the
  ring and the ``=``; amber stays the ID's, blue and vermillion the values'),
  :data:`RING_WIDTH` wide, from the marks' step to the beat's end;
- the marks stood over E, where its heading and column headings are: they
  stand under E (:func:`under_plan`), where E's rise leaves the band free.

Since session 34 no line leads from a mark to its rows (each pair's letter,
:mod:`~embedviz.render.parts.pair_marks`, names them), so the marks under E
reserve no lanes beside E either: that room goes to the tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from manim import VGroup

from embedviz.render.batch_plan import MARK_LINE
from embedviz.render.design import SPACE
from embedviz.render.parts.grid import CellGrid

__all__ = [
    "RING_BUFF",
    "RING_WIDTH",
    "UnderPlan",
    "equal_rings",
    "under_plan",
]

# The rings' stroke (3.6 px at 720p): the amber outline's, a mark seen from the back of
# a hall (the passing lines beside the tags were 2.7 px, and went).
RING_WIDTH = 4.0
# How far a row's ring stands out of its cells (CellGrid.row_box's buff).
RING_BUFF = 0.04


@dataclass(frozen=True)
class UnderPlan:
    """Where the marks stand under E, in the marks' order: their left, and each centre's y."""

    left: float
    ys: tuple[float, ...]


def under_plan(
    sizes: Sequence[tuple[float, float]],
    matrix: tuple[float, float, float, float],
    floor: float,
) -> UnderPlan | None:
    """Return where the marks stand under E, if they fit over ``floor``; else ``None``.

    Parameters
    ----------
    sizes
        Each mark's width and height, in the marks' order (one under the other).
    matrix
        E's ink once it has risen (left, bottom, right, top): the marks stand
        2 SPACE under it, left-aligned with it, a line apart (:data:`MARK_LINE`
        of their heights, so that the letters at their starts stay apart), and
        at least a SPACE between them.
    floor
        The lowest a mark may reach (the caption's band, a SPACE over it).
    """
    if not sizes:
        return None
    # Two SPACEs under E (a group of their own, tied to the slices, not to E): at APART the
    # marks of GPT-2's batch did not fit where E's rise leaves no more than an eighth empty.
    tallest = max(h for _, h in sizes)
    pitch = max(MARK_LINE * tallest, tallest + SPACE)
    first = matrix[1] - 2 * SPACE - sizes[0][1] / 2
    ys = tuple(first - k * pitch for k in range(len(sizes)))
    if ys[-1] - sizes[-1][1] / 2 < floor:
        return None
    return UnderPlan(left=matrix[0], ys=ys)


def equal_rings(rows: Sequence[tuple[CellGrid, int]], colour: str) -> VGroup:
    """Return a ring round each row (grid, key), once each, in the neutral accent (not added).

    Rings of neighbouring rows keep their ink inside their own rows
    (:meth:`CellGrid.row_outline`'s ``beside``), so that two read as two.
    """
    by_grid: dict[int, tuple[CellGrid, list[int]]] = {}
    for grid, key in rows:
        keys = by_grid.setdefault(id(grid), (grid, []))[1]
        if key not in keys:
            keys.append(key)
    rings = VGroup()
    for grid, keys in by_grid.values():
        for key in keys:
            rings.add(grid.row_outline(key, colour, width=RING_WIDTH, beside=keys))
    return rings
