"""The lookup solver's title band and the colour legend's place.

:func:`~embedviz.render.solver.solve_lookup` lays out the title band (the
title, and the legend beside it when it goes there) with :func:`title_band`,
and asks :func:`legend_place` and :func:`legend_x` where the legend goes;
:func:`legend_by_marks` stands it upright in the equality marks' column.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Literal, NamedTuple

from embedviz.render.design import APART, MIN_TEXT_PX, SPACE, TypeScale, font_for_px
from embedviz.render.metrics import char_advance, digit_height, text_width
from embedviz.render.solver_across import Across, frame, mark_gap
from embedviz.render.spec import LookupSpec
from embedviz.render.type_search import legend_height, swatch_size

if TYPE_CHECKING:
    from embedviz.render.solver import LookupPlan

__all__ = [
    "LegendPlace",
    "TitlePlace",
    "band_legend_height",
    "band_legend_width",
    "column_legend",
    "legend_by_marks",
    "legend_place",
    "legend_x",
    "place_title",
    "stand_content",
    "title_band",
]

# Where the legend goes: above the matrix, over or under the output block, in the title
# band, or upright under the output's tags (placed by :mod:`embedviz.render.solver_still`).
LegendPlace = Literal["above", "over_output", "under_output", "band", "under_tags", "by_marks"]
# An upright bar is at least this many swatches tall (shorter, its colours crowd).
MIN_SWATCHES = 5.0
# A centred title clears the legend by a SPACE; the widths are estimates (the tick
# values' reach, the title's kerning), within half a SPACE.
TITLE_CLEAR = 1.5 * SPACE
# A title centred beside a stacked legend may be set this much smaller to clear it.
TITLE_GIVE = 0.95
# A legend's swatches (as :data:`embedviz.render.parts.legend.SWATCHES`).
SWATCHES = 11
# A line of sans text (its ascenders and descenders) in digit heights.
LINE = 1.35
# The legend right over the output's heading keeps its place unless a place that splits
# the column's room leaves an empty stretch shorter by more than this many spaces.
SNUG_TIE = 1.0


def legend_x(
    legend_at: LegendPlace,
    safe: tuple[float, float],
    output_left: float,
) -> float:
    """Return the legend's left edge (or, in the title band, its right edge).

    Parameters
    ----------
    legend_at
        Where it goes (from :func:`legend_place`).
    safe
        The safe area's left and right edges.
    output_left
        The output block's left edge.

    Returns
    -------
    float
        The x its left edge (right edge, in the title band) is aligned to.
    """
    return {
        "band": safe[1],
        "above": safe[0],
        "over_output": output_left,
        "under_output": output_left,
        "under_tags": output_left,
        "by_marks": output_left,
    }[legend_at]


def legend_place(
    spec: LookupSpec,
    legend_h: float,
    bounds: tuple[float, float, float],
    output_bottom_d: float,
    matrix_h: float,
    call_d: float = 0.0,
) -> tuple[LegendPlace, float]:
    """Say where the legend goes, and its centre line's depth under the matrix body's top.

    Under the output block, and lower than the matrix's lowest row, where
    the spec asks for it (a raised block leaves room under it that would
    otherwise stand empty; no strip goes lower than its source row, so none
    crosses it); else above the matrix when the raised output leaves room
    there, above the output when a lowered one does, else into the title
    band (depth 0). A block that must stay still (``spec.still``) keeps it
    under its tags (``under_tags``: placed once the block is, by
    :func:`~embedviz.render.solver_still.still_legend`); one whose spec sets
    ``marks_from`` stands in the marks' column (``by_marks``: placed by
    :func:`legend_by_marks`).

    Parameters
    ----------
    spec
        What the frame holds (``legend``, ``legend_under_output``).
    legend_h
        The legend's height.
    bounds
        The depths of the matrix's and the output's headings' tops, and of the content's top.
    output_bottom_d, matrix_h
        The depths of the output block's bottom and of the matrix body's bottom.
    call_d
        How far under the matrix body the PyTorch call reaches (0: no print).

    Returns
    -------
    tuple
        Where (``above``, ``over_output``, ``under_output``, ``band``,
        ``under_tags`` or ``by_marks``), and the depth.
    """
    matrix_heading_top, output_heading_top, content_top = bounds
    free = legend_h + SPACE
    if not spec.legend or spec.legend_in_band:
        return "band", 0.0
    if spec.still:
        return "under_tags", 0.0
    if spec.marks_from:
        return "by_marks", 0.0
    if spec.legend_in_column:
        found = column_legend(legend_h, bounds, output_bottom_d, matrix_h, call_d)
        if found is not None:
            return found
    if spec.legend_under_output:
        return "under_output", max(matrix_h, output_bottom_d) + SPACE + legend_h / 2
    if matrix_heading_top - content_top >= free:
        return "above", matrix_heading_top - SPACE - legend_h / 2
    if output_heading_top - content_top >= free:
        return "over_output", output_heading_top - SPACE - legend_h / 2
    return "band", 0.0


def column_legend(
    legend_h: float,
    bounds: tuple[float, float, float],
    output_bottom_d: float,
    matrix_h: float,
    call_d: float = 0.0,
) -> tuple[LegendPlace, float] | None:
    """Place the legend in a single output row's column, where it best splits the empty room.

    The column right of the matrix runs from the content's top down to the
    matrix body's bottom; the output row, under its heading, stands level
    with the row it copies. Mid-table the legend stands right over the
    heading and the room under the row is the column's longest empty
    stretch. A row near the window's top leaves the column empty from the
    row down; near its bottom, from the heading up. The legend then stands
    in the middle of that room (over the heading or under the row; never
    in a strip's way, which slides straight across at the row's height),
    so that no empty stretch of the column is longer than it must be.

    Parameters
    ----------
    legend_h
        The legend's height.
    bounds
        The depths of the matrix's and the output's headings' tops, and of
        the content's top (down from the matrix body's top).
    output_bottom_d, matrix_h
        The depths of the output block's bottom and of the matrix body's bottom.
    call_d
        How far under the matrix body the PyTorch call reaches: the column's
        room runs down to it (the call stands under the matrix, and the
        frame's content ends with it until the print), the legend only to
        the matrix's bottom.

    Returns
    -------
    tuple or None
        ``over_output`` or ``under_output`` and the legend's centre depth;
        None when it fits neither over the heading nor under the row.
    """
    _, heading_top, content_top = bounds
    above, below = heading_top - content_top, matrix_h - output_bottom_d
    # Under the legend the room runs on past the matrix, down to the call.
    under = below + call_d
    # (longest empty stretch, place, centre depth), the snug place first.
    found: list[tuple[float, LegendPlace, float]] = []
    if above >= legend_h + SPACE:
        snug = heading_top - SPACE - legend_h / 2
        found.append((max(above - legend_h - SPACE, under), "over_output", snug))
    if above >= legend_h + 2 * SPACE:
        # The room runs on past the content's top, a space up to the title's band.
        centre = heading_top - (above + SPACE) / 2
        found.append((max((above - legend_h) / 2, under), "over_output", centre))
    # Midway down the room under the row, but never past the matrix's bottom.
    centre = min(output_bottom_d + under / 2, matrix_h - legend_h / 2)
    over = centre - legend_h / 2 - output_bottom_d
    if over >= SPACE:
        left_under = output_bottom_d + under - centre - legend_h / 2
        found.append((max(above, over, left_under), "under_output", centre))
    if not found:
        return None
    best = min(stretch for stretch, _, _ in found)
    # The snug place (the arrangement mid-table) wins a near tie.
    _, place, depth = next(f for f in found if f[0] <= best + SNUG_TIE * SPACE)
    return place, depth


def title_band(
    spec: LookupSpec,
    scale: TypeScale,
    font: float,
    safe: tuple[float, float],
    problems: list[str],
    legend: bool,
) -> TitlePlace:
    """Return the title's font and centre x, the band's height and the legend's shape.

    The title is centred when it clears the legend beside it (or stacked), else
    centred in the room left of it, else made smaller to fill that room
    (:func:`place_title`).

    Parameters
    ----------
    spec
        What the frame holds (the title, the legend's title).
    scale
        The type scale.
    font
        The title's size when it fits.
    safe
        The safe area's left and right edges.
    problems
        Where a title too wide even at the floor is noted.
    legend
        Whether the legend stands in the band, right of the title.

    Returns
    -------
    TitlePlace
        The title's font and centre x, the band's height, and whether the legend is stacked.
    """
    legend_title = spec.legend_title if legend else None
    level = spec.legend_chars if spec.legend_level else 0
    return place_title(
        spec.title, legend_title, scale, font, safe, problems, spec.legend_stacks, level
    )


class TitlePlace(NamedTuple):
    """Where a title band's title goes: its font, centre x and the band's height.

    ``stacked``: the legend in the band stands with its title over its swatches
    (narrower, taller), which lets the title stand centred in the frame.
    """

    font: float
    x: float
    band: float
    stacked: bool = False


def band_legend_width(legend_title: str, scale: TypeScale, stacked: bool, level: int = 0) -> float:
    """Return a title band legend's width: its title beside its swatches, or over them.

    The last tick value (``+3``), centred under the last swatch, reaches past it.
    ``level``: the values stand on the swatches' line, at its ends (the widest
    is this many characters; 0: under the swatches).
    """
    side = swatch_size(scale.legend)
    reach = max(0.0, char_advance(scale.legend) - side / 2)
    if level:
        reach = 2 * (level * char_advance(scale.legend) + 0.6 * SPACE)
    swatches = SWATCHES * side + reach
    title = text_width(legend_title, scale.legend, mono=False)
    return max(title, swatches) if stacked else title + 2 * SPACE + swatches


def band_legend_height(scale: TypeScale, stacked: bool, level: bool = False) -> float:
    """Return a title band legend's height (a stacked one has its title over the swatches).

    ``level``: its values on the swatches' line, one line high (:class:`~.parts.legend.Legend`).
    """
    if level:
        return max(swatch_size(scale.legend), digit_height(scale.legend) * LINE)
    height = legend_height(scale.legend)
    return height + SPACE + digit_height(scale.legend) * 1.3 if stacked else height


def place_title(
    title: str,
    legend_title: str | None,
    scale: TypeScale,
    font: float,
    safe: tuple[float, float],
    problems: list[str],
    stack: bool = True,
    level: int = 0,
) -> TitlePlace:
    """Place a title beside the legend (if any): its font and centre x, and the band's height.

    The one rule for every frame's title band (:func:`title_band` for the
    solved layouts, :func:`embedviz.render.frame_fit.frame_bands` and the
    training and batch solvers for the others): a title stands centred in the
    frame whenever it then clears the legend by at least a ``SPACE``, the
    legend's title beside its swatches or, where that is too wide, over them
    (``stacked``: the band grows by a line; the title may be set down to
    :data:`TITLE_GIVE` of its size to clear it). Only where neither clears it is
    the title centred in the room left of the legend (between the safe area's
    left edge and the legend; at least ``1.5 SPACE`` from either), else made
    smaller to fill that room (down to the floor; below it, ``problems`` says so).
    ``stack``: whether the legend may stack. A review (lecture-hall frames)
    read a title centred left of the legend as off-centre where, centred, it
    would have cleared a narrower legend. ``level``: beside its swatches, the
    legend's values stand on their line (the widest this many characters; 0:
    under them), so that the band is no taller than the title's line.
    """
    left, right = safe
    width = text_width(title, font, mono=False)
    band = digit_height(font) * 1.7
    half = (right - left) / 2
    if legend_title is None:
        if width / 2 + 2 * SPACE <= half:
            return TitlePlace(font, (left + right) / 2, band)
        return _left_of(width, 0.0, font, safe, problems, band)
    for stacked in (False, True) if stack else (False,):
        flat = 0 if stacked else level
        room = 2 * (half - TITLE_CLEAR - band_legend_width(legend_title, scale, stacked, flat))
        # Stacked, a title a little too wide is set a little smaller, centred.
        if width <= room or (stacked and width * TITLE_GIVE <= room):
            font *= min(1.0, room / width)
            band = max(digit_height(font) * 1.7, band_legend_height(scale, stacked, flat > 0))
            return TitlePlace(font, (left + right) / 2, band, stacked)
    legend_w = band_legend_width(legend_title, scale, False, level)
    placed = _left_of(width, legend_w, font, safe, problems, band)
    return placed._replace(band=max(placed.band, band_legend_height(scale, False, level > 0)))


def _left_of(
    width: float,
    legend_w: float,
    font: float,
    safe: tuple[float, float],
    problems: list[str],
    band: float,
) -> TitlePlace:
    """Centre a title in the room left of a legend ``legend_w`` wide, smaller where it must be."""
    left, right = safe
    room = right - left - legend_w - 3 * SPACE
    if width > room:
        font *= room / width
        if font < font_for_px(MIN_TEXT_PX):
            problems.append("title too wide")
        band = digit_height(font) * 1.7
    return TitlePlace(font, (left + right - legend_w) / 2, band)


def legend_by_marks(
    plan: LookupPlan, spec: LookupSpec, right: float, problems: list[str]
) -> LookupPlan:
    """Stand the legend upright in the marks' column, beside the rows above the first mark.

    The marks come only in the last beats; until then their column, as tall
    as the block, stands empty. Beside the rows above the first marked one
    the legend never meets a mark: it rides with the block when it settles.
    It stands :data:`~embedviz.render.design.APART` from the output's row
    numbers, and its lowest tick value as far above the first mark: a frame
    review found its values at a space from the row numbers read as part of
    that column (``0 value colour``, ``1 +2``), and the first mark squeezed
    under its lowest value.

    Parameters
    ----------
    plan
        A plan measured with the legend out of the content's height.
    spec
        What the frame holds (``marks_from``, the legend's title).
    right
        The safe area's right edge.
    problems
        Where a legend too wide for the column, or too short a bar, is noted.

    Returns
    -------
    LookupPlan
        The plan with the legend's left edge, centre line and bar length.
    """
    font = plan.scale.legend
    side = swatch_size(font)
    # The title above the bar; the tick values (a sign, digits and a point) right of it.
    width = max(
        text_width(spec.legend_title, font, mono=False), side + 0.6 * SPACE + 4 * digit_height(font)
    )
    # The marks' column starts their gap right of the row numbers: the legend, APART.
    left = plan.mark_left - mark_gap(spec, plan.scale) + APART
    if left + width > right:
        problems.append("legend too wide for the marks' column")
    # The first mark's top: a label-sized line centred on its row.
    row_y = plan.output_top - (spec.marks_from + 0.5) * plan.sizes.row_height
    mark_top = row_y + digit_height(plan.scale.label) / 2
    placed = upright_legend(plan, left, plan.output_top, mark_top + APART)
    if placed.legend_upright < MIN_SWATCHES * side:
        problems.append("no room for the legend beside the marks")
    return placed


def upright_legend(plan: LookupPlan, left: float, top: float, bottom: float) -> LookupPlan:
    """Stand the legend upright between two heights, its left edge at ``left``.

    Parameters
    ----------
    plan
        The plan to place the legend in (its legend font is used).
    left
        The legend's left edge.
    top, bottom
        The room's top and bottom; the legend's title and a space take their part.

    Returns
    -------
    LookupPlan
        The plan with the legend's left edge, centre line and bar length (0 if none fits).
    """
    length = top - bottom - digit_height(plan.scale.legend) * 1.6 - SPACE
    return replace(
        plan,
        legend_x=left,
        legend_y=(top + bottom) / 2,
        legend_left=True,
        legend_upright=max(length, 0.0),
    )


def stand_content(
    spec: LookupSpec,
    title: tuple[float, float],
    across: Across,
    heights: tuple[float, float, float, float, float],
    depth: tuple[float, float],
    problems: list[str],
) -> tuple[float, float]:
    """Return the title's centre x and the matrix body's top: the content stood in the frame.

    The content stands between the title band and the caption band, with
    spare height half above it. With
    :attr:`~embedviz.render.spec.LookupSpec.title_left` the title is set at
    the left, over the matrix, and the output side rises into its band, the
    output's heading on the title's line: the content's top is measured as
    if the band held the matrix side only, and all spare height goes under
    the content (above, it would add to the empty corner over the matrix).

    Parameters
    ----------
    spec
        What the frame holds.
    title
        The title's font and centre x, as the band places it.
    across
        The places across (a title set left must leave the walking column free).
    heights
        The band's height and a heading's, then the depths of the matrix's and
        the output's headings' tops and of the content's top.
    depth
        The caption band's top, and the content's bottom (depth).
    problems
        Where content too tall, or a title in the chips' way, is noted.
    """
    band_h, heading_h, matrix_top, output_top, highest = heights
    top = frame()[2]
    title_x = title[1]
    if spec.title_left:
        width = text_width(spec.title, title[0], mono=False)
        title_x = frame()[0] + width / 2
        # Chips walk up the walking column to the output rows risen beside the title.
        if title_x + width / 2 + 2 * SPACE > across.matrix_left + across.body_w + spec.bar_width:
            problems.append("title in the chips' way")
        highest = min(matrix_top, output_top + (band_h + heading_h) / 2 + SPACE)
    spare = top - band_h - SPACE - (depth[0] + SPACE) - (depth[1] - highest)
    if spare < 0:
        problems.append("too tall")
    above = 0.0 if spec.title_left else max(spare, 0.0) / 2
    return title_x, top - band_h - SPACE - above + highest
