"""Type sizes in pixels at 720p, whatever the render quality (split from :mod:`design`).

Sizes are pixel heights of a digit on a frame 720 pixels high: :func:`font_for_px`
turns them into manim font sizes from manim's ``config`` (frame height).
"""

from __future__ import annotations

from embedviz.render.glyphs import REFERENCE_FONT_SIZE, glyph_font

__all__ = ["REFERENCE_PX", "font_for_px", "px_for_font", "units_for_px"]

REFERENCE_PX = 720


def _digit_per_font() -> float:
    """Return the height of a digit per point of font size, in scene units."""
    return glyph_font().digit_height / REFERENCE_FONT_SIZE


def _px_per_unit() -> float:
    from manim import config

    return REFERENCE_PX / float(config.frame_height)


def font_for_px(pixels: float) -> float:
    """Return the font size whose digits are ``pixels`` tall on a 720-pixel-high frame.

    Parameters
    ----------
    pixels
        A digit's height at 720p.

    Returns
    -------
    float
        The manim font size (for ``NumberText``, ``LabelText``, ``SansText``;
        DejaVu Sans and Sans Mono share their digit height).
    """
    return pixels / (_digit_per_font() * _px_per_unit())


def px_for_font(font_size: float) -> float:
    """Return a digit's height at 720p for a font size (the inverse of :func:`font_for_px`)."""
    return font_size * _digit_per_font() * _px_per_unit()


def units_for_px(pixels: float) -> float:
    """Return a height of ``pixels`` at 720p in scene units (a digit's slot, say)."""
    return pixels / _px_per_unit()
