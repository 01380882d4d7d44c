"""A chip rides home with the row it fetched: at its strip's right end, from its row to its tag.

One ID, one object, one place: a chip walks to its row of E and docks at
its right end; the row lifts off as a strip, and the chip rides at the
strip's right end, as far from it as it docked, until the strip lands in its
output row and the chip stands there as its tag. So from its row to its tag
the chip stands against the row it fetched, and one glance reads the two
together (a 720p review of SequenceLookup's lookup-0 caught the chip leading
its copy home by up to 140 px, alone in its output row, where it read as
waiting beside nothing).

Beside (see :mod:`~embedviz.render.solver`) the strip rises beside the
output block's still-empty rows, its right end a walking column's width short
of the block's; it turns by at most
:data:`~embedviz.render.solver_across.RIDE_TURN`, so the chip riding there
passes the chips waiting in the tags' column at least a TAG_GAP clear.

In the corridor the strip runs along the output block's side, its right end a
TAG_GAP short of the block: a chip at its right end crosses the block's first
column, so it rides only where every row it passes is still empty
(:func:`rides_past`; MiniLM's twelve tokens: both teaching-pace lookups and
four of the ten in the rest's beat). Where it does not ride, the chip leads
its strip home by the way it walked, and the strip follows it
(:data:`~embedviz.render.parts.schedule.STRIP_LAG`).

Beside a scroll bar (LargeVocabLookup) the chip docks at its row's right end
past the bar, the bar's width further from the row than it rides from its
strip. It closes that gap while the strip is still hidden under E: the two
meet halfway, the chip stepping in by half the bar as the strip slides out by
the other half (:func:`step_in`), both at one pace along ways of one length,
so when the strip first shows (:func:`~embedviz.render.parts.strip.emerge_air`
past E's edge, more than half the bar) the chip already stands at its riding
dock, and stays there to its tag. (Riding a bar's width further out, it read
as 29 px from its copy, and a chip whose way was shorter than its strip's
drifted ahead of it.)

Where the corridor between the blocks is narrower than a strip
(:func:`~embedviz.render.parts.level.strips_over`: GPT-2's layout), a strip
rising beside the output block rises right against E, its numbers shown (its
chip rides at its right end), level in turn with each row of E it passes: a
720p review of SequenceLookup at GPT-2's size read 50256's copy, standing
beside row 2 on its way to output row 2, as a copy of row 2 (issue 18). Where
no filled output row stands between its source row's height and its own, nor
a chip waiting beside one (the chips wait in a lane over E; beside the block,
every other row counts), such a strip slides on at its source row's height
until it is under (over) the block's columns and rises straight into its row
there, through the block's empty rows (:func:`strip_way`): it is never level
with another row of E beside E, and passes no number and no chip. (Only filled
rows counting, GPT-2's 4821 and the toy's 2 rise so from under the raised
block; a 720p review of 464,3797,3332,319,262,2603 and of 7,0,7,63 with a
64-row E caught the chip riding such a strip through the upright legend under
the tags, so a way that comes near the legend is not taken.) Elsewhere it
keeps the beside route.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from embedviz.render.boxes import mobject_boxes
from embedviz.render.metrics import xyz
from embedviz.render.parts.level import strips_over
from embedviz.render.parts.schedule import STRIP_LAG, swept
from embedviz.render.routes import curved_route
from embedviz.render.solver import LookupPlan
from embedviz.render.solver_across import RIDE_TURN, TAG_GAP

__all__ = ["lag", "ride_home", "rides_past", "step_in", "strip_way"]


def lag(
    plan: LookupPlan,
    ends: tuple[float, float],
    rows: Sequence[float],
    filled: Sequence[float],
    chip_height: float,
) -> float:
    """Return how far (a share of its chip's way back) a strip sets off behind its chip.

    0 where the chip rides at its right end: beside, always (a scroll bar's
    too: see :func:`step_in`), and down a corridor that holds it beside its strip
    (:attr:`~embedviz.render.solver.LookupPlan.holds_rider`); in another corridor, past
    empty rows only (:func:`rides_past`; else the chip leads by
    :data:`~embedviz.render.parts.schedule.STRIP_LAG`). Arguments as :func:`rides_past`.
    """
    if plan.mode != "corridor" or plan.holds_rider:
        return 0.0
    return 0.0 if rides_past(ends, rows, filled, plan.sizes.row_height, chip_height) else STRIP_LAG


def rides_past(
    ends: tuple[float, float],
    rows: Sequence[float],
    filled: Sequence[float],
    row_height: float,
    chip_height: float,
) -> bool:
    """Return whether a chip riding its strip down the corridor passes only the block's empty rows.

    Down the corridor the strip's right end stands a TAG_GAP short of the
    output block, so the chip riding there crosses the block's first column:
    it may only where every row it passes is still empty, and within the
    block (its heading is above it).

    Parameters
    ----------
    ends
        The centre lines of the row the strip leaves and of its output row.
    rows, filled
        The centre lines of all the output rows, and of those filled.
    row_height, chip_height
        A row's height, and the chip's.
    """
    low, high = min(ends) - chip_height / 2, max(ends) + chip_height / 2
    if low < min(rows) - row_height / 2 or high > max(rows) + row_height / 2:
        return False
    return all(y + row_height / 2 <= low or y - row_height / 2 >= high for y in filled)


def step_in(plan: LookupPlan) -> float:
    """Return how far in from its dock a chip rides: a scroll bar's width (0: no bar).

    The chip docks at its row's right end past the bar (:meth:`LookupPlan.park_x`)
    and rides as far from its strip's right end as a chip docks from a row with
    no bar. Half of it the chip steps in, half the strip slides out, both
    while the strip is still hidden under E (:func:`ride_home`).
    """
    return plan.bar_width


def ride_home(
    plan: LookupPlan,
    park: np.ndarray,
    target_y: float,
    home: np.ndarray,
    way: Sequence[np.ndarray] | None = None,
) -> np.ndarray:
    """Return a chip's way home riding its strip: the strip's way, moved by where the chip rides.

    Parameters
    ----------
    plan
        The plan (its :meth:`~embedviz.render.solver.LookupPlan.strip_path`).
    park
        Where the chip docked, at its row's right end (the strip sets off from
        its row's centre there, at the same height); past a scroll bar, the
        bar's width further out than it rides (:func:`step_in`).
    target_y
        The output row's centre line, where the strip lands.
    home
        The chip's place as the row's tag (where the strip's landing puts it).
    way
        The strip centre's way (:func:`strip_way`);
        by default the plan's.

    Returns
    -------
    numpy.ndarray
        Points from ``park`` to ``home``, each the strip's centre at that
        point of its way plus one fixed offset: the chip moves as the strip
        does (both go along their ways at one pace), never nearer nor further.
        Past a scroll bar the way first steps in by half the bar, straight
        towards the row, while the strip slides out its first half bar: the two
        close the bar's width between them, and the chip's way is exactly as
        long as the strip's, so they stay level at every moment after.
    """
    source_y = float(park[1])
    inset = step_in(plan)
    ahead = park - xyz(plan.matrix_left + plan.body_width / 2 + inset, source_y)
    strip = plan.strip_path(source_y, target_y) if way is None else way
    ride = [point + ahead for point in strip]
    first = [park - xyz(inset / 2, 0)] if inset > 0 else []
    return np.array([park, *first, *ride, home])


class _Motion(Protocol):
    """What :func:`strip_way` reads of a lookup's motion."""

    plan: LookupPlan
    output: Any
    matrix: Any
    chips: Any
    filled: set[tuple[int, ...]]

    def output_row_y(self, row_index: int) -> float: ...


def strip_way(motion: _Motion, row_index: int, source_y: float, lift: float) -> list[np.ndarray]:
    """Return a strip centre's way from its matrix row to output row ``row_index``.

    ``source_y``: its source row's centre line; ``lift``: how far the block
    will have glided up by then. A batch's stack (its chips ride their own
    ways, see :mod:`~embedviz.render.parts.batch_motion`) keeps the plan's route.
    """
    plan = motion.plan
    rows = [motion.output_row_y(t) + lift for t in range(len(motion.output.positions))]
    target = rows[row_index]
    way = plan.strip_path(source_y, target)
    stacked = getattr(motion.output, "slices", None) is not None
    if stacked or plan.mode == "corridor" or not strips_over(plan):
        return way
    if abs(target - source_y) < plan.sizes.row_height / 2:
        return way  # level with it (or nearly): it slides straight in
    up = target > source_y
    # A row blocks the way if it is filled, or if its chip waits beside it (no lane).
    filled = {motion.output.row_of(p) for p in motion.filled}
    waiting = plan.lane is None
    others = [y for k, y in enumerate(rows) if k != row_index and (waiting or k in filled)]
    if any(y < target if up else y > target for y in others):
        return way  # it would pass another output row under (over) the block
    half = plan.body_width / 2
    clear, landing = plan.column_left + half, plan.output_left + half
    turn = min(plan.sizes.row_height / 2, RIDE_TURN)
    over = curved_route(clear, [(landing, source_y, turn)], (landing, target))
    return way if _meets_legend(motion, row_index, over) else over


def _meets_legend(motion: _Motion, row_index: int, way: list[np.ndarray]) -> bool:
    """Whether a strip along ``way`` (its centre's), or the chip riding it, comes near E's legend.

    An upright legend stands under the output block's tags: the chip riding a
    strip that comes in under the block's columns rises through the tags' column.
    """
    legend = motion.matrix.legend
    if legend is None:
        return False
    plan, chip = motion.plan, motion.chips.chips[row_index]
    ahead = xyz(plan.park_x(chip.width) - plan.matrix_left - plan.body_width / 2, 0)
    ahead -= xyz(step_in(plan), 0)
    areas = swept(way, plan.body_width, plan.sizes.row_height)
    areas += swept([point + ahead for point in way], chip.width + TAG_GAP, chip.height + TAG_GAP)
    boxes = mobject_boxes([legend])
    return any(
        a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3] for a in areas for b in boxes
    )
