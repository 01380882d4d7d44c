"""Searches shared by the layout solvers: the largest font that fits, and the legend's size.

Kept apart from :mod:`embedviz.render.solver` so that every layout's solver
can use them without the lookup layout's plan.
"""

from __future__ import annotations

from collections.abc import Callable

from embedviz.render.design import SPACE, font_for_px
from embedviz.render.layout import fit_font
from embedviz.render.metrics import digit_height

__all__ = ["largest_fitting", "legend_height", "swatch_size"]


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
