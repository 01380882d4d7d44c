"""The column right of a one-row lookup: the legend, and the call with its print, around the row.

A single output row sits level with the matrix row it copies, so its strip
slides straight across; the rest of the column above and below it would be
empty. :func:`stack_column` puts the colour legend and the PyTorch call (with
the print it shows later) into that room, each in the free range where the
frame is best filled, the call nearest the row (it is what makes the row).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from embedviz.render.design import (
    CAPTION_FONT,
    MIN_TEXT_PX,
    SPACE,
    at_least,
    font_for_px,
)
from embedviz.render.metrics import char_advance, digit_height

if TYPE_CHECKING:
    from embedviz.render.design import TypeScale
    from embedviz.render.solver import LookupPlan
    from embedviz.render.spec import LookupSpec

__all__ = ["Column", "call_depth", "column_plan", "print_band", "stack_column"]

# The ink of a line of code, in digit heights: its brackets and parentheses
# reach above the digits and under the baseline (DejaVu Sans Mono's "([" are
# 1.32 digits tall), and a little over for the box drawn round the numbers.
LINE_INK = 1.4


@dataclass(frozen=True)
class Column:
    """Where the column's items start (their tops), and the largest empty height left.

    Attributes
    ----------
    legend_top, call_top
        The tops of the legend and of the call (the print follows the call).
    gap
        The tallest empty stretch of the column, before or after the print.
    """

    legend_top: float
    call_top: float
    gap: float


def _spread(low: float, high: float, heights: list[float]) -> tuple[list[float], float]:
    """Tops of items stacked top-down in ``[low, high]`` with equal gaps, and the gap."""
    gap = (high - low - sum(heights)) / (len(heights) + 1)
    tops, y = [], high
    for height in heights:
        tops.append(y - gap)
        y -= gap + height
    return tops, gap


def stack_column(
    above: tuple[float, float],
    below: tuple[float, float],
    legend: float,
    call: float,
    printed: float,
) -> Column | None:
    """Place the legend and the call (with its print) above or below the row.

    Parameters
    ----------
    above, below
        The free ranges ``(low, high)`` above the row's heading and below the row.
    legend
        The legend's height (0: none).
    call, printed
        The call's height, and the print's under it (the print appears later).

    Returns
    -------
    Column or None
        The placement whose tallest empty stretch (with the print and before
        it) is least; None when no placement fits.
    """
    best: Column | None = None
    for legend_above, call_above in itertools.product((True, False), repeat=2):
        tops: dict[str, float] = {}
        worst = 0.0
        for side, (low, high) in ((True, above), (False, below)):
            # Above the row the call comes last (nearest the row), below it first.
            names = [n for n, up in (("legend", legend_above), ("call", call_above)) if up == side]
            names = [n for n in names if n != "legend" or legend > 0]
            if not side:
                names.reverse()
            sizes = [legend if n == "legend" else call + printed for n in names]
            placed, gap = _spread(low, high, sizes)
            if gap < 0:
                break
            tops.update(zip(names, placed, strict=True))
            # Before the print shows, its room is empty too.
            worst = max(worst, gap + (printed if "call" in names else 0.0))
        else:
            found = Column(tops.get("legend", 0.0), tops["call"], worst)
            if best is None or found.gap < best.gap - 1e-9:
                best = found
    return best


def column_plan(
    plan: LookupPlan,
    spec: LookupSpec,
    frame: tuple[float, float, float, float],
    legend_h: float,
    problems: list[str],
) -> LookupPlan:
    """Return ``plan`` (laid out without legend or print) with both placed in the column.

    Parameters
    ----------
    plan
        The ``beside`` plan of the blocks alone.
    spec
        What the frame holds (its print's widths).
    frame
        The safe area's left, right and top, and the frame's bottom.
    legend_h
        The legend's height (0: none).
    problems
        What does not fit is added here.

    Returns
    -------
    LookupPlan
        The ``stack`` plan.
    """
    scale, (_, right, top, _) = plan.scale, frame
    width = right - plan.output_left
    chars, lines = spec.print_chars, spec.print_lines
    if char_advance(scale.label) * (chars + 1) > width and spec.wrapped_chars:
        chars, lines = spec.wrapped_chars, lines + 1
    font = min(scale.label, width / (char_advance(1.0) * (chars + 1)))
    if font < font_for_px(MIN_TEXT_PX):
        problems.append("print too wide for the column")
    # As the print part sets them: the call, two spaces, then lines 2.1 digits apart.
    digit = digit_height(font)
    printed = 2 * SPACE + digit + (lines - 2) * digit * 2.1
    # The free ranges: from the title band down to the row's heading, and from
    # under the row down to the caption band.
    band_top = 2 * plan.title_y - top - SPACE
    caption_top = plan.caption_y + digit_height(CAPTION_FONT) * 2.1 + SPACE
    heading_top = plan.output_heading_y + digit_height(scale.label) * 0.8
    row_bottom = plan.output_top - plan.sizes.row_height
    column = stack_column(
        (heading_top + SPACE, band_top),
        (caption_top, row_bottom - SPACE),
        legend_h,
        digit,
        printed,
    )
    if column is None:
        problems.append("column too tall")
        return plan
    return replace(
        plan,
        mode="stack",
        legend_x=plan.output_left,
        legend_y=column.legend_top - legend_h / 2,
        legend_left=True,
        print_top=column.call_top,
        print_font=font,
        print_left=plan.output_left,
        print_wrap=lines > spec.print_lines,
    )


def call_depth(font: float) -> float:
    """Return how far under the blocks the PyTorch call reaches: two spaces, then its ink.

    A font of 0 (no print) reaches nowhere.
    """
    return 2 * SPACE + LINE_INK * digit_height(font) if font > 0 else 0.0


def print_band(
    spec: LookupSpec, scale: TypeScale, width: float, problems: list[str]
) -> tuple[float, float]:
    """Return the font of the PyTorch call and print under the blocks, and the height they take.

    The print's numbers are the beat's data ("The 768 numbers inside are row
    3."): their digits are at least ``spec.print_px`` tall (the solver asks
    for a real-sized table's floor), even where the labels beside the table
    are smaller, as long as the widest line fits the width. The height is
    what :class:`~embedviz.render.parts.printed.PrintPart` draws: two spaces
    under the blocks, the call, two spaces, then the print's lines 2.1 digits
    apart, the first and last as tall as their brackets' ink.
    """
    if not spec.print_lines:
        return 0.0, 0.0
    fitting = width / (char_advance(1.0) * (spec.print_chars + 2))
    font = min(at_least(scale.label, spec.print_px) if spec.print_px else scale.label, fitting)
    if font < font_for_px(MIN_TEXT_PX):
        problems.append("print too wide")
    ink = LINE_INK * digit_height(font)
    return font, call_depth(font) + 2 * SPACE + ink + (spec.print_lines - 2) * digit_height(
        font
    ) * 2.1
