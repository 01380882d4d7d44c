"""ParameterCount's E receded: its row numbers and hidden ranges' labels keep a readable size.

From float32 to the widths' comparison E recedes to its numbers' floor (its whole
column scales by :attr:`~embedviz.render.solve_parameter_count.ParamPlan.receded`),
and its labels went with it: a 720p review (issue 18, after 17 s) found its row
numbers and ``rows 6–50256 hidden`` 10-12 px, under the lecture hall's type scale.
They recede less than the grid: the hidden ranges' labels to :data:`NOTE_RECEDED_PX`
as far as their bands' width and height allow (13.4 px in GPT-2's thin bands), the
row numbers to :data:`ROW_RECEDED_PX` (:data:`LABEL_OVER_NOTE` times that target),
never past E's numbers then, nor larger than at home.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from embedviz.render.design import LABEL_OVER_NOTE, SPACE, px_for_font

if TYPE_CHECKING:
    from embedviz.render.solve_parameter_count import ParamPlan

__all__ = ["BAND_CLEAR", "BAND_SHARE", "NOTE_RECEDED_PX", "ROW_RECEDED_PX", "receded_labels"]

# E's hidden ranges' labels while it recedes (digit px at 720p): over MIN_NOTE_PX (12.5)
# with room, as a note's size in a real-sized frame.
NOTE_RECEDED_PX = 14.5
# E's row numbers then: the notes' LABEL_OVER_NOTE, so they still stand over the notes.
ROW_RECEDED_PX = LABEL_OVER_NOTE * NOTE_RECEDED_PX
# A hidden range's label takes at most this share of the receded block's width ...
BAND_SHARE = 0.9
# ... and leaves this much of its band's height (in SPACEs) clear, half above, half under
# it: half a SPACE off each edge, and room for its edges' strokes and its ink's offset
# from the band's middle (tests/test_parameter_count.py).
BAND_CLEAR = 1.15


def receded_labels(plan: ParamPlan, widest_note: float, tallest_note: float) -> tuple[float, float]:
    """Return the scales of E's notes and of its row numbers while it recedes.

    Parameters
    ----------
    plan
        The layout (its scales at home, and :attr:`receded`).
    widest_note, tallest_note
        The widest and the tallest hidden range's label as solved (home), in scene units.

    Returns
    -------
    tuple[float, float]
        The notes' scale and the row numbers' scale, each at least E's own
        (:attr:`receded`) and the notes' at least :attr:`notes`, neither over 1.
    """
    scale = plan.receded
    data_px = px_for_font(plan.scale.data) * scale
    room = BAND_SHARE * plan.body_width * scale / widest_note if widest_note > 0 else 1.0
    # And half a SPACE (and a hair) clear of its band's edges, as at home.
    band = min((slot.size for slot in plan.rows if slot.gap), default=0.0) * scale
    if tallest_note > 0 and band > 0:
        room = min(room, (band - BAND_CLEAR * SPACE) / tallest_note)
    notes = min(1.0, room, NOTE_RECEDED_PX / px_for_font(plan.scale.note))
    notes = max(scale, plan.notes, notes)
    note_px = px_for_font(plan.scale.note) * notes
    row_px = min(data_px, max(ROW_RECEDED_PX, LABEL_OVER_NOTE * note_px))
    rows = max(scale, min(1.0, row_px / px_for_font(plan.scale.index)))
    return notes, rows
