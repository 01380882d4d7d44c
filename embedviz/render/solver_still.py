"""A still output block: the legend upright under its tags, and the room it leaves measured.

The ``beside`` arrangement raises the output block just enough that every
strip's path is clear (:mod:`embedviz.render.routes`). Under a raised block
the room right of the matrix stands empty down to the caption. A stage used
to rest the block lower between lookups, to fill that room, and glide it up
for each beat whose strips needed the raise and back down after: the result
block bobbed while the chips and strips moved, two threads of motion where
issue 18 asks for one (with GPT-2-sized data, at every lookup beat).

A still plan (:attr:`~embedviz.render.spec.LookupSpec.still`) keeps the
block where the solver puts it. :func:`still_legend` stands the legend
upright under the block's tags, where nothing travels (a chip walks left
through its own row; a strip comes in under the block's own column), so it
splits the room under the block; what is left, from the matrix to the
legend and from the block down to the caption, must be under
:data:`~embedviz.render.space.EMPTY_SHARE` of the frame, as at every beat's
end. :func:`lane_too_empty` says whether a plan leaves that room too empty
with the legend elsewhere: the solver then tries a still plan.

A long sentence (twelve MiniLM IDs) took the ``corridor`` instead: its
matrix and block rested together and slid apart, and back, at every lookup
beat, the whole picture breathing in and out. An open corridor stands empty
(about 18 % of the frame), and closing it needs that slide:
:func:`must_move` counts such a plan as one whose blocks cannot stay, so a
still ``beside`` plan is tried for it too. Raised some seven rows, the block
leaves the frame's top left empty above the matrix (14 %): the title then
stands at the left of its band, over the matrix, and the output side rises
into the band beside it, its heading on the title's line
(:attr:`~embedviz.render.spec.LookupSpec.title_left`); the corner left
above the matrix must stay under an eighth of the frame as well.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from embedviz.render.design import (
    CAPTION_FONT,
    MIN_DATA_PX,
    MIN_DEFAULT_DATA_PX,
    SPACE,
    font_for_px,
)
from embedviz.render.metrics import char_advance, digit_height, text_width
from embedviz.render.solver_bands import upright_legend
from embedviz.render.space import EMPTY_SHARE
from embedviz.render.spec import LookupSpec
from embedviz.render.type_search import swatch_size

if TYPE_CHECKING:
    from embedviz.render.solver import LookupPlan

__all__ = ["caption_top", "lane_too_empty", "must_move", "prefer_still", "still_legend"]

# The solver measures the room from its plan, not from drawn boxes (glyphs' ink, the
# caption band's exact top): it keeps this share of the limit in hand.
LANE_MARGIN = 0.97
# An upright bar is at least this many row swatches tall (shorter, its colours crowd).
MIN_BAR = 5.0
# The widest tick value of the legend, in characters (a sign, digits and a point: +2.5).
TICK_CHARS = 4
# A still block is worth numbers this much smaller than the largest that fit: in a
# lecture hall a block that bobs at every lookup breaks the one thread of motion (the
# chip, then its row's strip), while the numbers keep their floor (MIN_DATA_PX).
STILL_TIE = 0.85


def caption_top(caption_y: float) -> float:
    """Return the top of the caption band (two lines) whose centre line is ``caption_y``."""
    return caption_y + digit_height(CAPTION_FONT) * 2.1


def _frame_size() -> tuple[float, float]:
    """Return the frame's width and height (scene units)."""
    from manim import config

    return float(config.frame_width), float(config.frame_height)


def _lane(plan: LookupPlan, count: int, right: float) -> float:
    """Return the area under a block of ``count`` rows, right of the matrix up to ``right``.

    Down to the caption band: nothing else stands there while the block is
    raised above the matrix's lowest rows (the strips come in under it).
    """
    bottom = plan.output_top - count * plan.sizes.row_height
    return max(0.0, right - plan.column_left) * max(0.0, bottom - caption_top(plan.caption_y))


def _above_matrix(plan: LookupPlan) -> float:
    """Return the area above the matrix's heading, from the frame's left edge to the block's.

    From the title's lowest ink down to the heading's highest: the higher the
    block is raised, the taller this corner.
    """
    frame_w, _ = _frame_size()
    title_bottom = plan.title_y - 0.6 * digit_height(plan.title_font)
    heading_top = plan.heading_y + 0.6 * digit_height(plan.scale.label)
    return max(0.0, plan.output_left + frame_w / 2) * max(0.0, title_bottom - heading_top)


def lane_too_empty(plan: LookupPlan, count: int) -> bool:
    """Whether a raised ``beside`` block leaves over an eighth of the frame empty under it.

    Such a block (with the legend elsewhere) cannot stay where the solver put
    it: a stage would rest it lower and glide it up to every beat that needs
    the raise.
    """
    if plan.mode != "beside" or plan.output_top <= plan.matrix_top + 1e-9:
        return False
    width, height = _frame_size()
    return _lane(plan, count, width / 2) > EMPTY_SHARE * width * height


def must_move(plan: LookupPlan, count: int) -> bool:
    """Whether a stage would move the plan's blocks between lookups and back for every beat.

    A raised ``beside`` block that leaves too much empty under it
    (:func:`lane_too_empty`) rests lower and glides up for strips; a
    ``corridor`` plan whose blocks rest together
    (:attr:`~embedviz.render.solver.LookupPlan.rest_slide`) slides them apart
    to open the corridor and back, at every lookup beat: the whole picture
    breathes while the chips and strips move.
    """
    return plan.rest_slide > 0 or lane_too_empty(plan, count)


def still_legend(
    plan: LookupPlan, spec: LookupSpec, right: float, problems: list[str]
) -> LookupPlan:
    """Stand the legend upright under the output block's tags; note what does not fit.

    Parameters
    ----------
    plan
        A ``beside`` plan measured with the legend under the tags.
    spec
        What the frame holds (the legend's title, the number of output rows).
    right
        The safe area's right edge.
    problems
        Where an upright legend too wide or too short for the room, or too
        large an empty area under the block, is noted.

    Returns
    -------
    LookupPlan
        The plan with the legend's left edge, centre line and bar length.
    """
    count = len(spec.sources)
    font = plan.scale.legend
    side = swatch_size(font)
    # The title above the bar; the tick values right of it.
    width = max(
        text_width(spec.legend_title, font, mono=False),
        side + 0.6 * SPACE + TICK_CHARS * char_advance(font),
    )
    if plan.tag_left + width > right:
        problems.append("upright legend too wide for the tags' column")
    top = plan.output_top - count * plan.sizes.row_height - SPACE
    bottom = caption_top(plan.caption_y) + SPACE
    placed = upright_legend(plan, plan.tag_left, top, bottom)
    if placed.legend_upright < MIN_BAR * side:
        problems.append("no room for the legend under the tags")
    frame_w, frame_h = _frame_size()
    if _lane(plan, count, plan.tag_left) > LANE_MARGIN * EMPTY_SHARE * frame_w * frame_h:
        problems.append("too empty under the block")
    # Without LANE_MARGIN (it would cost MiniLM's sentence the 18 px floor): the title's
    # and the heading's ink are estimated within a hundredth of a unit, on the safe side.
    if _above_matrix(plan) > EMPTY_SHARE * frame_w * frame_h:
        problems.append("too empty above the matrix")
    return placed


def prefer_still(
    spec: LookupSpec, plan: LookupPlan, solve: Callable[[LookupSpec], LookupPlan]
) -> LookupPlan:
    """Return a still plan instead of ``plan`` when its block could not stay and one is near.

    Parameters
    ----------
    spec
        What the frame holds.
    plan
        The plan with the largest numbers.
    solve
        The solver (given a still spec, it returns a still plan when one fits).

    Returns
    -------
    LookupPlan
        ``plan``, unless a stage would move its blocks at every lookup beat
        (a raised block glides up and down, the corridor's blocks slide apart
        and back: :func:`must_move`) and a still plan's numbers are at least
        :data:`STILL_TIE` times as large, and no smaller than their floor
        where ``plan`` reaches it (24 px for a table drawn whole, the small
        teaching one; 18 px for a real-sized one). A still plan with the
        title centred is tried first, then one with the title at the left
        and the output side risen beside it. A layout with a print, a
        scrolling window or its legend under the output keeps its own.
    """
    plain = spec.still or not spec.legend or spec.print_lines or spec.source_windows
    if plain or spec.legend_under_output or not must_move(plan, len(spec.sources)):
        return plan
    whole = not (spec.window.row_gaps or spec.window.col_gaps)
    floor = font_for_px(MIN_DEFAULT_DATA_PX if whole else MIN_DATA_PX)
    least = max(plan.scale.data * STILL_TIE, min(floor, plan.scale.data))
    # With the title over the matrix, the output side may rise beside it (a far raised
    # block leaves the top left empty otherwise): tried when a plain still plan fails.
    for title_left in (False, True):
        still = solve(replace(spec, still=True, title_left=title_left))
        if still.legend_upright > 0 and still.scale.data >= least - 1e-9:
            return still
    return plan
