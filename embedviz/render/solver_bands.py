"""The lookup solver's title band and the colour legend's place.

:func:`~embedviz.render.solver.solve_lookup` lays out the title band (the
title, and the legend beside it when it goes there) with :func:`title_band`,
and asks :func:`legend_place` and :func:`legend_x` where the legend goes.
"""

from __future__ import annotations

from typing import Literal

from embedviz.render.design import MIN_TEXT_PX, SPACE, TypeScale, font_for_px
from embedviz.render.metrics import digit_height, text_width
from embedviz.render.spec import LookupSpec
from embedviz.render.type_search import legend_height, swatch_size

__all__ = ["LegendPlace", "legend_place", "legend_x", "title_band"]

# Where the legend goes: above the matrix, over or under the output block, in the title
# band, or upright under the output's tags (placed by :mod:`embedviz.render.solver_still`).
LegendPlace = Literal["above", "over_output", "under_output", "band", "under_tags"]


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
    }[legend_at]


def legend_place(
    spec: LookupSpec,
    legend_h: float,
    bounds: tuple[float, float, float],
    output_bottom_d: float,
    matrix_h: float,
) -> tuple[LegendPlace, float]:
    """Say where the legend goes, and its centre line's depth under the matrix body's top.

    Under the output block, and lower than the matrix's lowest row, where
    the spec asks for it (a raised block leaves room under it that would
    otherwise stand empty; no strip goes lower than its source row, so none
    crosses it); else above the matrix when the raised output leaves room
    there, above the output when a lowered one does, else into the title
    band (depth 0). A block that must stay still (``spec.still``) keeps it
    under its tags (``under_tags``: placed once the block is, by
    :func:`~embedviz.render.solver_still.still_legend`).

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

    Returns
    -------
    tuple
        Where (``above``, ``over_output``, ``under_output``, ``band`` or
        ``under_tags``), and the depth.
    """
    matrix_heading_top, output_heading_top, content_top = bounds
    free = legend_h + SPACE
    if not spec.legend:
        return "band", 0.0
    if spec.still:
        return "under_tags", 0.0
    if spec.legend_under_output:
        return "under_output", max(matrix_h, output_bottom_d) + SPACE + legend_h / 2
    if matrix_heading_top - content_top >= free:
        return "above", matrix_heading_top - SPACE - legend_h / 2
    if output_heading_top - content_top >= free:
        return "over_output", output_heading_top - SPACE - legend_h / 2
    return "band", 0.0


def title_band(
    spec: LookupSpec,
    scale: TypeScale,
    font: float,
    safe: tuple[float, float],
    problems: list[str],
    legend: bool,
) -> tuple[float, float, float]:
    """Return the title's font and centre x, and the band's height (title and legend).

    The title is centred when the legend beside it leaves room, else set left
    of it, else made smaller.

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
    tuple
        The title's font and centre x, and the band's height.
    """
    legend_title = spec.legend_title if legend else None
    return place_title(spec.title, legend_title, scale, font, safe, problems)


def place_title(
    title: str,
    legend_title: str | None,
    scale: TypeScale,
    font: float,
    safe: tuple[float, float],
    problems: list[str],
) -> tuple[float, float, float]:
    """Place a title beside the legend (if any): its font and centre x, and the band's height.

    The one rule for every frame's title band (:func:`title_band` for the
    solved layouts, :func:`embedviz.render.frame_fit.frame_bands` for the
    others): centred when the legend leaves room, else set left of it, else
    made smaller (down to the floor; below it, ``problems`` says so).
    """
    left, right = safe
    legend_w = 0.0
    if legend_title is not None:
        legend_w = text_width(legend_title, scale.legend, mono=False) + 2 * SPACE
        legend_w += 11 * swatch_size(scale.legend)
    width = text_width(title, font, mono=False)
    x = 0.0
    if width / 2 + legend_w + 2 * SPACE > (right - left) / 2:
        room = right - left - legend_w - 3 * SPACE
        if width > room:
            font *= room / width
            width = room
            if font < font_for_px(MIN_TEXT_PX):
                problems.append("title too wide")
        x = left + width / 2
    band = digit_height(font) * 1.7
    if legend_title is not None:
        band = max(band, legend_height(scale.legend))
    return font, x, band
