"""The batch layout's notes: where the list of marks and the legend stand (:mod:`solve_batch`).

:func:`notes_size` measures the notes the last beats write (the shape, the
marks); :func:`marks_place` places the list of marks (right of the slices'
edges, under them, under E or in the corridor) and :func:`marks_over_e` says
whether it fits the block of chips' place over E instead, where the stage
stands it once every chip has gone; :func:`legend_under` stands the legend
under the slices where they leave the frame's corner empty.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from embedviz.render.batch_plan import MARK_LINE, BatchPlan, BatchSpec, Marks, Mode
from embedviz.render.design import (
    MIN_DATA_PX,
    MIN_DEFAULT_DATA_PX,
    SPACE,
    TypeScale,
    px_for_font,
)
from embedviz.render.metrics import char_advance, digit_height, text_width
from embedviz.render.parts.grid import GridSizes
from embedviz.render.routes import source_centres
from embedviz.render.solver import TAG_GAP, _title_band
from embedviz.render.solver_across import frame as _frame
from embedviz.render.solver_bands import band_legend_width
from embedviz.render.type_search import legend_height, swatch_size

if TYPE_CHECKING:
    from embedviz.render.solve_batch import _Across

__all__ = [
    "clear_or_free",
    "legend_floor",
    "legend_place",
    "legend_under",
    "legend_under_x",
    "marks_over_e",
    "marks_place",
    "notes_size",
]


def notes_size(spec: BatchSpec, scale: TypeScale) -> tuple[float, float]:
    """Return the width and height of the notes the last beats write: the shape, the marks."""
    width = max(
        text_width(spec.shape_text, scale.label, mono=False),
        char_advance(scale.label) * spec.mark_chars,
    )
    height = digit_height(scale.label) * MARK_LINE
    # The marks are set at a label's size, as the row numbers they name.
    return width, height + spec.marks * digit_height(scale.label) * MARK_LINE


def marks_over_e(
    spec: BatchSpec, scale: TypeScale, across: _Across, body_w: float, block_h: float
) -> bool:
    """Whether the list of marks fits the block of chips' place over E (empty when they come).

    The stage stands them there once every chip has gone and E has risen up to
    their band (``BatchStage._marks_in_block``), where they fit across the
    block's place, from the frame's margin to its right end, and in its height.
    """
    if not spec.marks:
        return False
    left = _frame()[0]
    width = char_advance(scale.label) * spec.mark_chars + 2 * SPACE
    height = spec.marks * digit_height(scale.label) * MARK_LINE + 2 * SPACE
    return width <= across.matrix_left + body_w - left and height <= block_h


def marks_place(
    spec: BatchSpec,
    scale: TypeScale,
    place: tuple[_Across, Marks, bool],
    depths: tuple[float, float, float],
    problems: list[str],
    mode: Mode,
) -> tuple[tuple[float, float], float]:
    """Return where the notes under the slices start (x, depth below E's top) and their height.

    ``place`` is the layout across, where the list of marks goes, and whether
    it goes over E instead (:func:`marks_over_e`: the notes then hold the
    shape's line alone). ``depths`` are the slices' top (under the d band) and
    bottom, and the bottom of what stands under E. The list goes right of the
    edges, under the slices, under E, or in the corridor (empty once every
    strip has landed: level with the last slice; only the ``corridor``
    arrangement has one); nothing moves any more when it comes.
    """
    across, marks, away = place
    mark_w, marks_h = notes_size(replace(spec, marks=0) if away else spec, scale)
    stack_top, stack_bottom, under_e = depths
    corridor_left = across.stack_left - across.column_w + TAG_GAP
    marks_at = {
        "right": (across.mark_left, stack_top),
        "below": (across.stack_left, stack_bottom + SPACE),
        "under": (across.matrix_left, under_e + SPACE),
        "corridor": (corridor_left, stack_bottom - marks_h),
    }[marks]
    room = across.stack_left - TAG_GAP if marks == "corridor" else _frame()[1]
    if marks_h and marks_at[0] + mark_w > room + 1e-9:
        problems.append("marks too wide")
    if marks == "corridor" and (mode != "corridor" or marks_h > stack_bottom - stack_top):
        problems.append("no room in the corridor")
    return marks_at, marks_h


def legend_floor(spec: BatchSpec, sizes: GridSizes, mode: Mode, marks: Marks) -> float:
    """Return the depth a legend under the slices keeps its top under (0: none).

    ``beside``, strips go out at their rows' heights and up the slices'
    column: a SPACE under the lowest source row of E, which none passes.
    Not where the marks stand right of the slices (they leave their column to
    the legend, upright: the ``batch_legend.legend_beside``), nor without
    ``spec.legend_clear``.
    """
    if not spec.legend_clear or mode != "beside" or marks == "right":
        return 0.0
    _, centres, _ = source_centres(spec, sizes)
    return max(centres.values()) + sizes.row_height / 2 + SPACE


def clear_or_free(solve: Callable[[BatchSpec], BatchPlan], spec: BatchSpec) -> BatchPlan:
    """Return ``solve``'s plan, the legend clear of the strips unless that costs a floor.

    Kept under E's source rows (:func:`legend_floor`), a legend under the
    slices may make the content taller and the numbers smaller: where that
    sets them under a floor (24 px, or 18 px) they keep without it (short
    default batches: 21.7 px), the legend stands where it fills the frame
    best, and gives way (:mod:`~embedviz.render.batch_legend`).
    """
    plan = solve(spec)
    if not spec.legend_clear or px_for_font(plan.scale.data) >= MIN_DEFAULT_DATA_PX - 1e-6:
        return plan
    free = solve(replace(spec, legend_clear=False))
    got, kept = px_for_font(plan.scale.data), px_for_font(free.scale.data)
    lost = any(got < f - 1e-6 <= kept for f in (MIN_DEFAULT_DATA_PX, MIN_DATA_PX))
    return free if lost else plan


# How far under its own place (in its heights) the legend may stand to keep under E's
# source rows (:func:`legend_under`'s ``floor``).
FLOOR_REACH = 2.0


def legend_under(
    spec: BatchSpec,
    scale: TypeScale,
    across: _Across,
    marks: Marks,
    ends: tuple[float, float, float],
    crowded: bool = False,
    floor: float = 0.0,
) -> float | None:
    """Return the depth of the legend's centre line under the slices, or None (title band).

    ``crowded``: in the title band the legend would crowd the title
    (:func:`title_crowded`); it then stands under the slices wherever it is
    as wide as the room there.

    ``ends`` are the depths of the slices' bottom, of the notes' bottom and of
    the content's. Slices raised high above E's bottom (their strips' clear
    paths set that) would leave the frame's corner under them empty for most
    of the video; the legend, which reads the slices' colours, stands there,
    centred in the room under the notes (the list of marks, when it goes
    under the slices, comes last), instead of in the title band.

    ``floor``: the depth its top keeps under (``beside``: a SPACE under the
    lowest source row of E). A strip goes out at its row's height and up the
    slices' column, never lower than its row: a legend under every source
    row stands where no strip or chip ever passes, so it stands still for
    the whole clip (a 720p review of the default batch: level with E's rows
    it faded out of the strips' way and back, beat after beat). Only where
    that is at most :data:`FLOOR_REACH` of its height lower: further down
    (GPT-2's size, its rows 4821, 33000 and 50256 at E's bottom) the room
    over it under short slices stood empty (21.1 % of the frame until the
    reveal); there the stage stands it upright under the slices' edges and
    the rule's card here (:mod:`~embedviz.render.parts.batch_rule`).
    """
    if not spec.legend:
        return None
    _, right, _, _ = _frame()
    width = legend_width(spec, scale)
    top = (ends[1] if marks == "below" else ends[0]) + 2 * SPACE
    height = legend_height(scale.legend)
    if top < floor <= top + FLOOR_REACH * height:
        top = floor
    else:
        floor = 0.0
    fits = top + height + 2 * SPACE <= ends[2]
    if across.stack_left + width > right:
        return None
    if not fits:
        # A legend that would crowd the title in its band stands under the notes even
        # where it reaches past E's bottom (the content then ends under it); so does one
        # kept under E's rows (in the band the corner under the slices stood empty:
        # 17.0 % of the frame at GPT-2's size).
        return top + height / 2 if crowded or floor else None
    # Centred between the slices and the caption (a SPACE under the content), the bands
    # left empty above and under it are as tall (and as wide, from E to the frame's edge);
    # centred in the room under the notes, the one above also kept the shape's line, which
    # comes last: GPT-2's 2 x 4 batch left 11.8 % of the frame empty there until then.
    return max((ends[0] + ends[2] + SPACE) / 2, top + height / 2)


def legend_width(spec: BatchSpec, scale: TypeScale) -> float:
    """Return the width of the legend in a row: its title, then its swatches."""
    width = text_width(spec.legend_title, scale.legend, mono=False) + 2 * SPACE
    return width + 11 * swatch_size(scale.legend)


def legend_under_x(spec: BatchSpec, scale: TypeScale, across: _Across) -> float:
    """Return the left edge of the legend under the slices: centred under the stack.

    Standing from the slices' left, it left the frame's corner right of it empty
    from the slices down to the caption (10.8 % of the frame at GPT-2's size).
    """
    centred = (across.stack_left + across.right_end - legend_width(spec, scale)) / 2
    return max(across.stack_left, centred)


# The least clear ground between a centred title and the legend beside it in the band
# (43 px at 720p): at TITLE_CLEAR a 720p review read the batch's title as running into
# the legend (16 px, title x 278-1003, legend x 1019) and off-centre because of it.
LEGEND_CLEAR = 4 * SPACE


def title_crowded(
    spec: BatchSpec, scale: TypeScale, place: tuple[float, float, float, bool]
) -> bool:
    """Whether a legend in the title band would stand within :data:`LEGEND_CLEAR` of the title.

    ``place``: the title band's font, title centre x, height and whether the
    legend stacks (:func:`~embedviz.render.solver_bands.title_band` with the legend).
    """
    if not spec.legend:
        return False
    font, x, _, stacked = place
    _, right, _, _ = _frame()
    title_right = x + text_width(spec.title, font, mono=False) / 2
    legend_left = right - band_legend_width(spec.legend_title, scale, stacked)
    return legend_left - title_right < LEGEND_CLEAR - 1e-9


def legend_place(
    spec: BatchSpec, scale: TypeScale, across: _Across, marks: Marks, ends: tuple[float, ...]
) -> tuple[float | None, float]:
    """Return the legend's depth under the slices (None: the title band) and the content's bottom.

    A legend that would crowd the title in its band stands under the slices,
    the content ending under it (:func:`~embedviz.render.batch_notes.title_crowded`);
    marks right of the slices leave their column to it, upright (the stage's
    ``batch_legend.legend_beside``), so it is not moved for them.
    """
    crowded = marks != "right" and title_crowded(spec, scale, _title_band(spec, scale, [], True))
    stack_bottom, notes_bottom, content_bottom, floor = ends
    legend_d = legend_under(
        spec, scale, across, marks, (stack_bottom, notes_bottom, content_bottom), crowded, floor
    )
    if legend_d is not None:
        content_bottom = max(content_bottom, legend_d + legend_height(scale.legend) / 2)
    return legend_d, content_bottom
