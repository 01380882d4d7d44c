"""The parameter-count layout's lookup frame, and E receded beside the tables before it.

By the lookup, ParameterCount's memory and widths tables have left (issue 18: a
720p review found the closing frame dense, E a thumbnail beside two tables; the
memory table leaves as ``compare`` starts, the widths table as the lookup does). The
count's line stays at the panel's top, and the memory table collapses to one line
under it (``memory  float32 147.2 MiB  bfloat16 73.6 MiB``); E and its copied row
are the frame. These place that line, the copy's facts and its note in the room
the tables leave (:func:`embedviz.render.solve_parameter_count.solve_parameter_count`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from embedviz.render.design import (
    APART,
    MIN_DATA_PX,
    MIN_DEFAULT_DATA_PX,
    SPACE,
    TypeScale,
    px_for_font,
)
from embedviz.render.metrics import char_advance, text_width

if TYPE_CHECKING:
    from embedviz.render.solve_parameter_count import ParamPlan, ParamSpec

__all__ = [
    "COLUMN_GAP_CHARS",
    "ROWS_SHARE",
    "lookup_extras",
    "receded_scale",
    "summary_width",
    "tables_fit",
]

# Between the panel's columns, in label advances.
COLUMN_GAP_CHARS = 1.75


def summary_width(names: Sequence[str], header: str, data_chars: int, panel: TypeScale) -> float:
    """Return the memory summary's width (``memory  float32 147.2 MiB  bfloat16 73.6 MiB``).

    Parameters
    ----------
    names
        The dtypes' names (monospace, label size).
    header
        The memory column's header word (sans, label size), which opens the line.
    data_chars
        The widest memory size, in the numbers' advances.
    panel
        The panel's type scale.

    Returns
    -------
    float
        The width as :class:`embedviz.render.parts.sums.LookupLine` sets the line: each
        dtype's name a column gap on, its memory a word space after it.
    """
    advance = char_advance(panel.label)
    width = text_width(header, panel.label, mono=False)
    for name in names:
        width += advance * (COLUMN_GAP_CHARS + 1.0) + text_width(name, panel.label)
        width += char_advance(panel.data) * data_chars
    return width


def lookup_extras(
    rows: tuple[float, float, float], lines: tuple[float, float], bottom: float
) -> tuple[float, float, float]:
    """Return the centre lines of the memory summary, the copy's facts and the note.

    With the tables gone, the panel right of E held one empty band between the count's
    line and the copy (18.8 % of the frame at 720p, over issue 18's eighth), and one
    under the copy's facts. The summary halves the first; the note halves the larger
    band left: under the facts (a SPACE under them at least), or under the summary where
    the copy stands low, as a last row's does (the facts then halve the band under the
    copy). Where the copy stands too close under the count's line (or over it), the
    summary stands under that line.

    Parameters
    ----------
    rows
        The count's line's centre, the copy's centre and the copy's height.
    lines
        A data line's height (the summary's, the facts') and the note's.
    bottom
        The content band's bottom.

    Returns
    -------
    tuple
        The summary's, the facts' and the note's centre lines.
    """
    count_y, lookup_y, row_h = rows
    line, note = lines
    copy_bottom = lookup_y - row_h / 2
    facts_y = copy_bottom - SPACE - line / 2
    above = (count_y - line / 2, lookup_y + row_h / 2 + SPACE)
    below = (facts_y - line / 2, bottom)
    if above[0] - above[1] < line + 2 * SPACE or count_y < lookup_y:
        return count_y - line, facts_y, facts_y - (line + note) / 2
    room_above, room_below = above[0] - above[1] - line, below[0] - below[1]
    # The tallest empty band left, with the note over the copy and with it under the facts.
    gap = (room_above - note) / 3
    if max(gap, room_below) < max(room_above / 2, (room_below - note) / 2):
        summary_y = above[0] - gap - line / 2
        facts_y = min(facts_y, (copy_bottom + bottom) / 2)
        return summary_y, facts_y, summary_y - line / 2 - gap - note / 2
    # Halving the band under the facts, a SPACE under them at least.
    note_y = min((below[0] + below[1]) / 2, below[0] - SPACE - note / 2)
    return (above[0] + above[1]) / 2, facts_y, note_y


def tables_fit(spec: ParamSpec, plan: ParamPlan) -> bool:
    """Whether the tables fit, at the panel's size, right of E's column receded.

    E's column (its row numbers to its body's right edge) recedes about its left edge.
    """
    left = plan.matrix_left - char_advance(plan.scale.index) * spec.row_label_chars
    right = left + (plan.matrix_left + plan.body_width - left) * plan.receded + APART
    gap = char_advance(plan.panel.label) * COLUMN_GAP_CHARS
    widths = [column.width(plan.panel) for column in spec.columns]
    return sum(widths) + gap * (len(widths) - 1) <= plan.bands.right - right


# E's drawn rows keep at least this share of the height from the content's top down to the
# caption's centre line (tests/test_parameter_count_frames.py: its rows took 15 % of it
# beside a tall band).
ROWS_SHARE = 0.4


def receded_scale(plan: ParamPlan) -> float:
    """Return E's scale while the memory and widths tables stand beside it.

    From float32 to the widths' comparison, E is context: it recedes (once, as float32
    starts) to its numbers' floor (:data:`MIN_DEFAULT_DATA_PX` where they reach it, else
    :data:`MIN_DATA_PX`), or as large as its rows need to keep :data:`ROWS_SHARE` of
    the height, if larger (GPT-2's: 19 px at 720p), and the tables grow larger than it
    into the room it leaves. As the lookup starts it comes forward again, home, with the
    copied row (issue 18: a 720p review found E a thumbnail in the closing frame).
    """
    px = px_for_font(plan.scale.data)
    floor = MIN_DEFAULT_DATA_PX if px >= MIN_DEFAULT_DATA_PX - 1e-6 else MIN_DATA_PX
    rows = sum(slot.size for slot in plan.rows if not slot.gap)
    least = ROWS_SHARE * (plan.bands.top - plan.bands.caption_y) / rows
    # A hair over both, so that rounding leaves no number under its floor.
    return min(1.0, max(floor / px, least) * 1.005)
