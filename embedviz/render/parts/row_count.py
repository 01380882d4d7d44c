"""Counting E's rows from zero up to the one an ID names (SingleTokenLookup's zero-based beat).

A 720p review (issue 18) found the count a small violet flash round small
grey row numbers, hard to see from the back of a hall, and nothing marking
row 3 when the caption said "the 4th row". Now each counted row is ringed
whole in the highlight (its row number, swelling to the data's size, and its
cells), one after the other; as the count reaches the row the ID names, that
row is outlined in the ID's amber, and the outline stays until the lookup
fetches the row (:class:`~embedviz.render.parts.motion.LookupMotion`).
"""

from __future__ import annotations

from manim import AnimationGroup, LaggedStart, Rectangle, Succession, VMobject, Wait

from embedviz.render.animations import Steps, point_at
from embedviz.render.design import LABEL_RATIO, SPACE, Theme
from embedviz.render.fades import FadeOut, OutlineIn
from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import CellGrid

__all__ = ["COUNT_STROKE", "count_reach", "count_ring", "count_rows"]

# The count's ring: as wide a line as a row's amber outline, so it reads from afar.
COUNT_STROKE = 4.0
# A row number swells to the data's size as it is counted (it is drawn smaller).
GROW = 1 / LABEL_RATIO


def count_reach(label_width: float) -> float:
    """Return how far the count's ring reaches left of a row number ``label_width`` wide.

    The ring's left side stands a half space left of the number swollen to the
    data's size, and its stroke's ink half its width further (manim draws a
    width of w as w / 100 frame units). The lookup solver keeps this much room
    left of the row numbers when a beat counts rows, so the ring stays inside
    the safe margin (a 720p review found it 15 px from the frame's edge).
    """
    return label_width * (GROW - 1) / 2 + SPACE / 2 + COUNT_STROKE / 200


def count_ring(grid: CellGrid, row: int, colour: str) -> Rectangle:
    """Return a ring round a whole row: its row number (at its largest) and its cells.

    Its top and bottom run along the row's own edges (the rules between the
    rows), so it crosses no number; its left side stands a space left of the
    row number swollen to the data's size.
    """
    left, bottom, right, top = grid.row_box(row, buff=0.0)
    label = grid.row_labels[row]
    ink = COUNT_STROKE / 200
    left = min(left, label.get_left()[0] - count_reach(label.width) + ink)
    ring = Rectangle(width=right - left, height=top - bottom)
    ring.move_to(xyz((left + right) / 2, (bottom + top) / 2))
    return ring.set_stroke(colour, width=COUNT_STROKE).set_fill(opacity=0.0)


def _count_one(grid: CellGrid, row: int, colour: str) -> AnimationGroup:
    """Ring one row and swell its number, there and back (one second)."""
    ring = count_ring(grid, row, colour)
    shown = Succession(
        OutlineIn(ring, run_time=0.25), Wait(run_time=0.5), FadeOut(ring, run_time=0.25)
    )
    return AnimationGroup(shown, point_at(grid.row_labels[row], colour, scale=GROW, ring=False))


def count_rows(grid: CellGrid, target: int, theme: Theme) -> tuple[Steps, VMobject]:
    """Return the count (row 0 first; then 0, 1, ... up to ``target``) and the amber outline.

    Two steps, for the beat's two phrases ("Rows are numbered from 0 ..." and
    "ID 3 is a row number ...: the 4th row, counting from zero."). The
    outline of ``target`` is drawn as the count reaches it, and left on
    screen: the caller keeps it (the lookup fetches that row next).
    """
    colour = theme.highlight
    counted = [r for r in grid.get_rows() if r <= target and r in grid.row_labels]
    outline = grid.row_outline(target, theme.id_line)
    count = LaggedStart(*[_count_one(grid, r, colour) for r in counted], lag_ratio=0.7)
    marked = Succession(count, OutlineIn(outline, run_time=0.4))
    return Steps(_count_one(grid, min(grid.row_labels), colour), marked), outline
