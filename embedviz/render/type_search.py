"""Searches shared by the layout solvers: the largest font that fits, and the legend's size.

Kept apart from :mod:`embedviz.render.solver` so that every layout's solver
can use them without the lookup layout's plan.
"""

from __future__ import annotations

from collections.abc import Callable

from embedviz.render.design import (
    MIN_DEFAULT_DATA_PX,
    SPACE,
    TypeScale,
    font_for_px,
    px_for_font,
)
from embedviz.render.layout import fit_font
from embedviz.render.metrics import digit_height

__all__ = ["LECTURE_TEXT_PX", "largest_fitting", "legend_height", "raised_text", "swatch_size"]

# What a lecture hall reads from the back: where a layout's labels come out smaller (a real
# model's numbers near their 18 px floor), the solver raises them toward this as room allows.
LECTURE_TEXT_PX = 16.0


def swatch_size(legend_font: float) -> float:
    """Return the side of one swatch of the colour legend."""
    return digit_height(legend_font) * 1.3


def legend_height(legend_font: float) -> float:
    """Return the colour legend's height: swatches over their tick values."""
    return swatch_size(legend_font) + SPACE * 0.6 + digit_height(legend_font) * 1.2


# Sizes scanned from the top before a bisection (pixels at 720p): what fits is
# not monotone at the bottom, where labels stop shrinking at the floor.
_SCAN_PX = (30.0, 27.0, 24.0, 21.0, 19.0, 17.0, 15.0, 13.5, 12.0)


def largest_fitting(fits: Callable[[float], bool], largest: float, smallest: float) -> float | None:
    """Return the largest font size that fits (scanned from the top, then bisected), or None."""
    sizes = [min(max(font_for_px(px), smallest), largest) for px in _SCAN_PX]
    previous = None
    for size in sizes:
        if fits(size):
            if previous is None:
                return size
            # Between the last size that fit and the first that did not.
            return fit_font(fits, largest=previous, smallest=size, precision=0.02)
        previous = size
    return None


def raised_text(fits: Callable[[float], bool], data: float) -> float:
    """Return the labels' floor (px at 720p) raised toward LECTURE_TEXT_PX as far as it fits.

    A frame whose table numbers come out under 24 px (a real model's table)
    sets its hidden ranges' labels, its legend and its word pieces at 12-15
    px; where the layout has room they rise, the data size fixed, so data stay
    the largest text (MiniLM's 12 tokens in LargeVocabLookup: 13.2-13.6 px to
    16). In SequenceLookup the same sentence's corridor takes the frame's
    whole width at 18.5 px: no rise fits there. ``fits`` says whether the
    layout fits with the labels' floor at a size in pixels.

    Returns
    -------
    float
        The floor in pixels, or 0.0 when the labels are that large already or
        no rise fits.
    """
    scale = TypeScale.from_data(data)
    # A default frame's numbers (24 px and up) set its legend at 15.8 px and up: left as it is.
    if data >= font_for_px(MIN_DEFAULT_DATA_PX) or px_for_font(scale.legend) >= LECTURE_TEXT_PX:
        return 0.0
    if fits(LECTURE_TEXT_PX):
        return LECTURE_TEXT_PX
    least = px_for_font(scale.legend)
    if not fits(least + 0.25):
        return 0.0
    return fit_font(fits, largest=LECTURE_TEXT_PX, smallest=least + 0.25, precision=0.1)
