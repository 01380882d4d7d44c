"""The token IDs' lane over E (SequenceLookup): where the chips wait before their walks.

A chip waiting beside the output row it fills walked to E through that
still-empty row, and an ID standing in an output row before anything is
fetched reads as if it were already the output (a teacher's 720p review,
issue 18). The chips wait instead in a row over E, in the sentence's order,
with a travel band under them: a chip steps down into the band, along it to
the walking column and down that to its row of E, crossing neither the
output block, nor another chip, nor a number. Where the sentence is wider
than the room over E (MiniLM's twelve tokens), the lane reaches on over the
output side, over both blocks' headings; the legend then keeps out of the
room over the output.

Its height costs the toy's rows 5 px at 720p, GPT-2 size's 2 px and
MiniLM's 5 px; their numbers stay 26.4, 24.2 and 18.1 px tall. Where it
would cost more (a floor, or a still block), the stage does without it
(:func:`~embedviz.render.stages.lookup.lane_unless_under_floor`).
"""

from __future__ import annotations

from dataclasses import dataclass

from embedviz.render.design import SPACE, TypeScale
from embedviz.render.metrics import digit_height, text_width
from embedviz.render.parts.chips import LANE_BUFF_DIGITS, chip_height, chip_size
from embedviz.render.parts.grid import GridSizes
from embedviz.render.solver_across import Across, frame
from embedviz.render.spec import LookupSpec

__all__ = ["LANE_AIR", "Lane", "lane_bounds"]

# Between the travel band and the chips over it, and the headings under it. Half a
# SPACE (5.4 px at 720p): a whole SPACE took MiniLM's rows 1 px tighter, and its
# hidden ranges' labels came 7.5 px from the row numbers (8 px is their clearance).
LANE_AIR = SPACE / 2


@dataclass(frozen=True)
class Lane:
    """Where the waiting chips stand (scene units, or depths under the matrix body's top).

    Attributes
    ----------
    chip_y
        The waiting chips' centre line.
    travel_y
        The travel band's centre line (under the chips, over the headings).
    right
        Where the row of chips ends (right-aligned there).
    """

    chip_y: float
    travel_y: float
    right: float

    def at(self, matrix_top: float) -> Lane:
        """Return the lane with its depths under ``matrix_top`` made heights."""
        return Lane(matrix_top - self.chip_y, matrix_top - self.travel_y, self.right)


def lane_width(spec: LookupSpec, label: float) -> float:
    """Return the width of the row of chips at the labels' size ``label`` (buffs between)."""
    widths = [chip_size(len(text), 0, label)[0] for text, _ in spec.chips]
    return sum(widths) + digit_height(label) * LANE_BUFF_DIGITS * (len(widths) - 1)


def lane_bounds(
    spec: LookupSpec,
    laid: tuple[TypeScale, GridSizes, Across],
    tops: tuple[float, float],
    problems: list[str],
) -> tuple[tuple[float, float, float], Lane | None]:
    """Return the matrix's and the output's headings' tops with the lane over them, and the lane.

    Parameters
    ----------
    spec
        What the frame holds (``lane``: the chips wait over E; else nothing changes).
    laid
        The type scale, the grid's sizes and the places across.
    tops
        The depths of the matrix's and the output's headings' tops (negative: above).
    problems
        Where a lane too wide for the frame is noted.

    Returns
    -------
    tuple
        The two depths (the matrix side's top now the lane's; the output side's
        too, where the lane reaches over it) and the content's top (the higher),
        and the lane, its centre lines as depths (:meth:`Lane.at` makes them
        heights), or None without one.
    """
    matrix_top, output_top = tops
    if not spec.lane:
        return (matrix_top, output_top, min(tops)), None
    scale, sizes, across = laid
    chip_h = chip_height(scale.label, sizes.row_height)
    label_w = text_width(spec.chips_label, scale.label, mono=False) + 2 * SPACE
    left, right = frame()[:2]
    column_left = across.matrix_left + across.body_w + spec.bar_width
    end = max(column_left, left + label_w + lane_width(spec, scale.label))
    if end > right + 1e-9:
        problems.append("lane too wide")
    wide = end > column_left + 1e-9
    base = min(matrix_top, output_top) if wide else matrix_top
    # A band one chip tall, LANE_AIR clear of the chips over it and of the headings under it.
    travel = base - LANE_AIR - chip_h / 2
    chips = travel - chip_h - LANE_AIR
    lane_top = chips - chip_h / 2
    # Over the output side too, the legend finds no room there (it would stand in the lane).
    output_top = lane_top if wide else output_top
    return (lane_top, output_top, min(lane_top, output_top)), Lane(chips, travel, end)
