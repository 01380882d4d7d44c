"""Searches shared by the layout solvers: the largest font that fits, and the legend's size.

Kept apart from :mod:`embedviz.render.solver` so that every layout's solver
can use them without the lookup layout's plan.
"""

from __future__ import annotations

from collections.abc import Callable

from manim import config

from embedviz.render.design import SPACE, font_for_px
from embedviz.render.layout import fit_font
from embedviz.render.metrics import digit_height
from embedviz.render.parts.grid import GridSizes

__all__ = ["gap_labels_crowd", "largest_fitting", "legend_height", "swatch_size"]

# Clear space (pixels at 720p) a hidden range's label keeps from the row numbers above
# and below its band; closer, the two read as one text.
GAP_LABEL_CLEARANCE_PX = 4.0
# A label's ink, in digit heights (an ascender reaches a little over a digit).
TEXT_INK_DIGITS = 1.15


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


def gap_labels_crowd(sizes: GridSizes) -> bool:
    """Whether a band's label, right-aligned with the row numbers, would crowd them.

    The label is centred on its thin band and the numbers on the rows either
    side: with tight rows their inks come within :data:`GAP_LABEL_CLEARANCE_PX`
    of each other, so the label goes into a column of its own.
    """
    scale = sizes.scale
    room = (sizes.row_height + sizes.band_height) / 2
    inks = TEXT_INK_DIGITS * (digit_height(scale.label) + digit_height(scale.legend)) / 2
    return room - inks < GAP_LABEL_CLEARANCE_PX * float(config.frame_height) / 720
