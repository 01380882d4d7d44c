"""What the panel layouts' solvers share: the frame's bands and the search for the largest font.

The lookup layout's solver (:mod:`embedviz.render.solver`) fits one
arrangement of blocks; the layouts that set a matrix beside a panel of their
own (ZeroBasedIndexing's slip and trace, OneHotEquivalence's product,
ParameterCount's sums) fit theirs with the same pieces:

- :func:`frame_bands`: the safe area, the title band at the top (the title,
  and the colour legend at its right when the scene has one) and the caption
  band at the bottom; what is left between them is the content's.
- :func:`largest_fitting`: the largest table font (up to
  :data:`~embedviz.render.design.MAX_DATA_PX`) at which a layout fits,
  scanned from the top and then bisected.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from embedviz.render.design import (
    CAPTION_FONT,
    MARGIN,
    MAX_DATA_PX,
    MIN_DATA_PX,
    MIN_DEFAULT_DATA_PX,
    MIN_TEXT_PX,
    SPACE,
    TypeScale,
    font_for_px,
)
from embedviz.render.layout import fit_font
from embedviz.render.metrics import digit_height
from embedviz.render.solver import (
    MAX_PITCH,
    PITCHES,
    TIE,
)
from embedviz.render.solver_bands import place_title
from embedviz.render.type_search import largest_fitting as largest_between

__all__ = [
    "CAPTION_CENTRE",
    "TITLE_RATIO",
    "Bands",
    "frame_bands",
    "largest_fitting",
    "solve_fit",
    "solve_largest",
]

PlanT = TypeVar("PlanT")
Measure = Callable[[float, float], tuple[PlanT, list[str]]]

# The caption's centre line above the frame's bottom edge (as the lookup layout's).
CAPTION_CENTRE = 0.62
# A title is this much larger than a label, but never larger than the table's numbers.
TITLE_RATIO = 1.15


@dataclass(frozen=True)
class Bands:
    """The frame cut into its bands (scene units; y grows upwards).

    Attributes
    ----------
    left, right
        The safe area's edges.
    top, bottom
        The content's band: under the title band, over the caption band.
    title_font, title_x, title_y
        The title's size and centre.
    legend_right, legend_y
        Where the colour legend's right edge and centre line go (in the title band).
    caption_y
        The caption's centre line.
    legend_stacked
        The legend in the title band stands with its title over its swatches.
    """

    left: float
    right: float
    top: float
    bottom: float
    title_font: float
    title_x: float
    title_y: float
    legend_right: float
    legend_y: float
    caption_y: float
    legend_stacked: bool = False

    @property
    def width(self) -> float:
        """The safe area's width."""
        return self.right - self.left

    @property
    def height(self) -> float:
        """The content band's height."""
        return self.top - self.bottom


def frame_bands(
    title: str, scale: TypeScale, legend_title: str | None, problems: list[str]
) -> Bands:
    """Cut the frame into its bands for one type scale.

    The title is centred whenever it clears the legend (beside its title, or
    stacked), else centred left of it, else made smaller (down to the floor;
    below it, ``problems`` says so): :func:`~embedviz.render.solver_bands.place_title`.

    Parameters
    ----------
    title
        The scene's title.
    scale
        The frame's type scale.
    legend_title
        The legend's title when the scene draws the colour legend, else None.
    problems
        Where a title that cannot fit is noted.

    Returns
    -------
    Bands
        The bands.
    """
    from manim import config

    half_w, half_h = float(config.frame_width) / 2, float(config.frame_height) / 2
    left, right, top = -half_w + MARGIN, half_w - MARGIN, half_h - MARGIN
    font = min(scale.data, scale.label * TITLE_RATIO)
    font, x, band, stacked = place_title(title, legend_title, scale, font, (left, right), problems)
    caption_y = -half_h + CAPTION_CENTRE
    caption_top = caption_y + digit_height(CAPTION_FONT) * 2.1
    return Bands(
        left=left,
        right=right,
        top=top - band - SPACE,
        bottom=caption_top + SPACE,
        title_font=font,
        title_x=x,
        title_y=top - band / 2,
        legend_right=right,
        legend_y=top - band / 2,
        caption_y=caption_y,
        legend_stacked=stacked,
    )


def largest_fitting(
    fits: Callable[[float], bool],
    largest_px: float = MAX_DATA_PX,
    smallest_px: float = MIN_TEXT_PX,
) -> float | None:
    """Return the largest table font at which a layout fits, or None if none does.

    Sizes are scanned from the top (what fits is not monotone at the bottom,
    where labels stop shrinking at the floor), then bisected between the last
    size that did not fit and the first that did.

    Parameters
    ----------
    fits
        Whether the layout fits at a font size.
    largest_px, smallest_px
        The range searched, as digit heights at 720p.

    Returns
    -------
    float or None
        The manim font size.
    """
    return largest_between(fits, font_for_px(largest_px), font_for_px(smallest_px))


def solve_fit(measure: Measure[PlanT]) -> PlanT:
    """Return the plan with the largest table numbers, then the loosest rows, that fits.

    The same search as the lookup layout's: the largest font at every pitch of
    :data:`~embedviz.render.solver.PITCHES`; a near tie goes to looser rows
    (unless that would drop under a floor the best reaches); then spare
    height grows the rows up to :data:`~embedviz.render.solver.MAX_PITCH`.

    Parameters
    ----------
    measure
        Lays the frame out at a table font and a row pitch (in digit heights);
        returns the plan and what does not fit (empty when it all fits).

    Returns
    -------
    plan
        The plan; when nothing fits even at the floor, the smallest one (the
        moment tests then report what is too small).
    """
    found: list[tuple[float, float]] = []
    for pitch in PITCHES:

        def fits(font: float, pitch: float = pitch) -> bool:
            return not measure(font, pitch)[1]

        font = largest_fitting(fits)
        if font is not None:
            found.append((font, pitch))
    if not found:
        return measure(font_for_px(MIN_TEXT_PX), PITCHES[-1])[0]
    best = max(font for font, _ in found)
    floors = [font_for_px(px) for px in (MIN_DATA_PX, MIN_DEFAULT_DATA_PX)]
    enough = max([best * TIE, *(f for f in floors if f <= best)])
    font, pitch = next(item for item in found if item[0] >= enough)
    grown = fit_font(
        lambda p: not measure(font, p)[1], largest=MAX_PITCH, smallest=pitch, precision=0.01
    )
    return measure(font, grown)[0]


def solve_largest(measure: Measure[PlanT]) -> PlanT:
    """Return the plan with the largest table numbers that fits, then the loosest rows.

    Like :func:`solve_fit`, but without its near-tie rule: the largest font
    wins outright (ties to looser rows), then spare height grows the rows up
    to :data:`~embedviz.render.solver.MAX_PITCH`. The position and training
    layouts use it.

    Parameters
    ----------
    measure
        Lays the frame out at a table font and a row pitch; returns the plan
        and what does not fit (empty when it all fits).

    Returns
    -------
    plan
        The plan; the smallest one when nothing fits (the moment tests then
        report what is too small).
    """
    largest, smallest = font_for_px(MAX_DATA_PX), font_for_px(MIN_TEXT_PX)
    found: list[tuple[float, float]] = []
    for pitch in PITCHES:

        def fits(font: float, pitch: float = pitch) -> bool:
            return not measure(font, pitch)[1]

        font = largest_between(fits, largest, smallest)
        if font is not None:
            found.append((font, pitch))
    if not found:
        return measure(smallest, PITCHES[-1])[0]
    font, pitch = max(found, key=lambda item: (round(item[0], 2), item[1]))
    grown = fit_font(
        lambda p: not measure(font, p)[1], largest=MAX_PITCH, smallest=pitch, precision=0.01
    )
    return measure(font, grown)[0]
