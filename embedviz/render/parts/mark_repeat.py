"""Marks that stay while the caption names their rows (LargeVocabLookup, a 720p review).

The scene's rule is that a row is marked while the caption names it. A
lookup's amber outline used to fade as its strip settled, while the caption
still named the row ("the view scrolls to row 464, and its copy fills output
row 1"); a repeat's two equal output rows were only flashed round mid-beat,
and the ``out[8] = out[0]`` note stood alone beside the chips' row numbers.

An output row's amber outline is the grid's own (``CellGrid.row_outline``).
- :func:`legend_way` moves an upright legend in the marks' column right, APART
  from the ties beside it: 20 px off the legend's bar, a tie's upright run read as
  the legend's axis (a 720p review, session 29).
- :func:`repeat_tie` ties a repeat's two output rows to the note with a
  bracket in the verdict's colour, the note's: a short run out of each row
  (past its tag and row number), an upright run between them, and the run at
  the repeat's level on into the note. :func:`repeat_rings` rings the two rows
  (numbers, tag and row number) in that colour while the caption names them;
  they go with the caption, so that at the shape beat the block's outline is
  the only box round it (a 720p review: three pairs' rings merged with it).
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import RIGHT, Animation, MoveToTarget, Rectangle, VGroup, VMobject, config
from manim.mobject.geometry.line import Line

from embedviz.render.design import APART, MARGIN, SPACE
from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import CellGrid

__all__ = ["TIE_WIDTH", "legend_way", "repeat_rings", "repeat_tie"]

# The stroke widths (manim units) of the bracket and the rings: the bracket is the thinner.
TIE_WIDTH = 2.5
# Where the bracket's runs start past the rows' tags and numbers: a SPACE (its ink 12 px
# off the row numbers at 720p) nearly touched them (a 720p review). It stands in the
# solver's gap between the numbers and the note (solver_across.MARK_GAP), which stays:
# any width more there cost MiniLM's small labels their lecture size and GPT-2's numbers.
TIE_CLEAR = 1.5 * SPACE
_RING_WIDTH = 3.0


def _ring(grid: CellGrid, row_index: int, right: float, colour: str) -> Rectangle:
    """Ring an output row from the block's left edge to ``right`` (past its tag and number)."""
    box = grid.row_outline(row_index, colour, width=_RING_WIDTH)
    left, bottom = box.get_left()[0], box.get_bottom()[1]
    top = box.get_top()[1]
    ring = Rectangle(width=right - left, height=top - bottom)
    ring.move_to(xyz((left + right) / 2, (top + bottom) / 2))
    return ring.set_stroke(colour, width=_RING_WIDTH).set_fill(opacity=0.0)


def _reach(tags: Sequence[VMobject]) -> float:
    """Return where the bracket's runs start: TIE_CLEAR past the rows' tags and numbers."""
    return max(float(t.get_right()[0]) for t in tags) + TIE_CLEAR


def repeat_rings(
    grid: CellGrid, rows: Sequence[int], tags: Sequence[VMobject], colour: str
) -> VGroup:
    """Ring the repeat's two rows and their tags, up to where the bracket starts (not added)."""
    return VGroup(*[_ring(grid, row, _reach(tags), colour) for row in rows])


def repeat_tie(
    grid: CellGrid,
    rows: Sequence[int],
    tags: Sequence[VMobject],
    note: VMobject,
    colour: str,
    lane_at: float = 0.5,
) -> VGroup:
    """Tie the repeat's rows to its note with a bracket (not yet added).

    Parameters
    ----------
    grid
        The output block.
    rows
        The two rows' indices in the block: the first copy's, then the repeat's.
    tags
        What stands right of each row and is part of it: its chip, its row number.
    note
        The equality note (``out[8] = out[0]``), level with the repeat.
    colour
        The note's colour (the verdict's).
    lane_at
        Where the upright run stands between the rings and the note (0 to 1):
        several notes' runs stand apart.

    Returns
    -------
    VGroup
        The bracket's runs. A note left of the block (in the emptied corridor:
        LargeVocabLookup, ``LookupPlan.marks_inside``) is tied on the block's
        left, the bracket opening to the right (:func:`_left_tie`).
    """
    if float(note.get_right()[0]) < grid.body_left():
        return _left_tie(grid, rows, note, colour, lane_at)
    reach = _reach(tags)
    lane = reach + lane_at * (note.get_left()[0] - reach)
    ys = [grid.row_y(row) for row in rows]
    runs = [Line(xyz(reach, y), xyz(lane, y)) for y in ys[:-1]]
    runs.append(Line(xyz(lane, min(ys)), xyz(lane, max(ys))))
    runs.append(Line(xyz(reach, ys[-1]), xyz(note.get_left()[0] - SPACE / 4, ys[-1])))
    for run in runs:
        run.set_stroke(colour, width=TIE_WIDTH)
    return VGroup(*runs)


def _left_tie(
    grid: CellGrid, rows: Sequence[int], note: VMobject, colour: str, lane_at: float
) -> VGroup:
    """Tie the rows to a note left of the block: runs from the rows' left ends, upright between.

    The upright run stands between the note's right end and the rings' left
    sides (``lane_at`` of the way); the repeat's run goes on left into the note.
    """
    reach = min(float(grid.row_outline(row, colour).get_left()[0]) for row in rows) - SPACE / 4
    start = float(note.get_right()[0]) + SPACE / 4
    lane = start + lane_at * (reach - start)
    ys = [grid.row_y(row) for row in rows]
    runs = [Line(xyz(lane, y), xyz(reach, y)) for y in ys[:-1]]
    runs.append(Line(xyz(lane, min(ys)), xyz(lane, max(ys))))
    runs.append(Line(xyz(start, ys[-1]), xyz(reach, ys[-1])))
    for run in runs:
        run.set_stroke(colour, width=TIE_WIDTH)
    return VGroup(*runs)


def legend_way(legend: VMobject | None, marks: Sequence[VMobject]) -> Animation | None:
    """Move ``legend`` right, APART from the marks beside it, as far as the frame allows.

    A mark is beside the legend where their heights overlap (closer than a SPACE
    above or under it) and it stands left of the legend. None where the legend
    is already clear (or absent, or has no room to move).
    """
    if legend is None:
        return None
    left, right = float(legend.get_left()[0]), float(legend.get_right()[0])
    bottom, top = float(legend.get_bottom()[1]), float(legend.get_top()[1])
    beside = [
        float(m.get_right()[0])
        for m in marks
        if float(m.get_bottom()[1]) < top + SPACE
        and float(m.get_top()[1]) > bottom - SPACE
        and float(m.get_left()[0]) < left
    ]
    if not beside:
        return None
    room = config.frame_width / 2 - MARGIN - right
    shift = min(max(beside) + APART - left, room)
    if shift <= 1e-6:
        return None
    legend.generate_target()
    legend.target.shift(shift * RIGHT)
    return MoveToTarget(legend, run_time=0.5)
