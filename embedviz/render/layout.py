"""The layout kit: frame regions from manim's config, named spacing and type sizes.

Stages place things in these regions and at these sizes instead of repeating
their own frame edges and font sizes. Sizes are chosen so that, at 720p, table
numbers are at least 15 px tall, labels and chips at least 10 px and captions
at least 20 px (a digit of DejaVu is about 0.0105 scene units per point of
font size, and 720p draws 90 px per scene unit).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "CAPTION_FONT",
    "CHIP_FONT",
    "CORRIDOR_MARGIN",
    "LABEL_RATIO",
    "MAX_NUMBER_FONT",
    "MIN_CAPTION_PX",
    "MIN_FIT_FONT",
    "MIN_LABEL_PX",
    "MIN_NUMBER_PX",
    "ROW_PITCHES",
    "SPACE",
    "FrameRegions",
    "fit_font",
    "frame_regions",
]

# Type sizes (manim font sizes).
CHIP_FONT = 21.0
CAPTION_FONT = 22.0
MAX_NUMBER_FONT = 26.0
# Row and column numbers, output labels and tags, relative to the table numbers.
LABEL_RATIO = 0.8
# Minimum pixel heights of a digit at 720p.
MIN_NUMBER_PX = 15.0
MIN_LABEL_PX = 10.0
MIN_CAPTION_PX = 20.0

# The smallest font size a fitter may choose (below every minimum above).
MIN_FIT_FONT = 6.0

# Row heights a table may take, in digit heights, loosest first: a table too
# tall for its region packs its rows closer before its numbers go under the
# minimum (2.0 is a grid's usual pitch).
ROW_PITCHES = (2.0, 1.9, 1.8, 1.7, 1.6)

# Spacing, in scene units.
SPACE = 0.12
CORRIDOR_MARGIN = 0.14


@dataclass(frozen=True)
class FrameRegions:
    """Where things go on the frame, in scene units.

    Attributes
    ----------
    left, right, top, bottom
        The safe area (the frame less a margin).
    title_y
        The centre line of the scene's title.
    caption_y
        The centre line of the caption.
    caption_width
        The widest a caption may be.
    legend_top
        The top of the colour legend, which sits in the bottom-right corner,
        just above the caption, in every scene.
    """

    left: float
    right: float
    top: float
    bottom: float
    title_y: float
    caption_y: float
    caption_width: float
    legend_top: float


def frame_regions(margin: float = 0.2) -> FrameRegions:
    """Return the frame regions for manim's current frame size.

    Parameters
    ----------
    margin
        The safe margin on every side.

    Returns
    -------
    FrameRegions
        The regions.
    """
    from manim import config

    half_w = float(config.frame_width) / 2
    half_h = float(config.frame_height) / 2
    return FrameRegions(
        left=-half_w + margin,
        right=half_w - margin,
        top=half_h - margin,
        bottom=-half_h + margin,
        title_y=half_h - 0.45,
        caption_y=-half_h + 0.65,
        caption_width=2 * half_w - 1.0,
        legend_top=-half_h + 1.48,
    )


def fit_font(
    fits: Callable[[float], bool],
    largest: float = MAX_NUMBER_FONT,
    smallest: float = MIN_FIT_FONT,
    precision: float = 0.05,
) -> float:
    """Return the largest font size at which a layout fits: the one font fitter.

    Every stage asks this one function instead of looping over sizes itself.
    Layouts grow with the font size, so ``fits`` is assumed to hold for every
    size below one that fits; the size is found by bisection.

    Parameters
    ----------
    fits
        Whether the layout, built (or measured) at a font size, fits its region.
    largest, smallest
        The range searched. ``largest`` is returned when it fits, ``smallest``
        when nothing does (the layout then overflows as little as it can).
    precision
        How close to the true limit the answer is, in font-size points.

    Returns
    -------
    float
        The font size.

    Examples
    --------
    >>> fit_font(lambda size: size * 0.1 <= 2.0, largest=30.0) <= 20.0
    True
    """
    if largest <= smallest:
        return largest
    if fits(largest):
        return largest
    if not fits(smallest):
        return smallest
    low, high = smallest, largest
    while high - low > precision:
        middle = (low + high) / 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low
