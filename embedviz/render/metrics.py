"""Measures of the glyph fonts, in scene units: a digit's height, a monospace advance."""

from __future__ import annotations

from functools import cache

import numpy as np

from embedviz.render.glyphs import REFERENCE_FONT_SIZE, glyph_font

__all__ = ["char_advance", "digit_height", "text_width", "xyz"]


def char_advance(font_size: float) -> float:
    """Return the monospace advance width at a font size, in scene units."""
    return glyph_font().zero_advance * font_size / REFERENCE_FONT_SIZE


def digit_height(font_size: float) -> float:
    """Return the height of a digit at a font size, in scene units."""
    return glyph_font().digit_height * font_size / REFERENCE_FONT_SIZE


def xyz(x: float, y: float, z: float = 0.0) -> np.ndarray:
    """Return the scene point ``[x, y, z]`` as the float array manim's hints ask for."""
    return np.array([x, y, z], dtype=float)


def text_width(text: str, font_size: float, mono: bool = True) -> float:
    """Return the width a one-line string takes at a font size, in scene units.

    Parameters
    ----------
    text
        The string.
    font_size
        Its font size.
    mono
        Monospace (``LabelText``, ``NumberText``) or proportional (``SansText``).

    Returns
    -------
    float
        Its advance width, as :class:`~embedviz.render.glyphs.GlyphString` lays it out.
    """
    return _width_at_reference(text, mono) * font_size / REFERENCE_FONT_SIZE


@cache
def _width_at_reference(text: str, mono: bool) -> float:
    # The solver measures the same few strings hundreds of times: once each is enough.
    from embedviz.render.glyphs import MONO_FONT, SANS_FONT

    font = glyph_font(MONO_FONT if mono else SANS_FONT)
    _, width, _ = font.points_for(text)
    return float(width)
