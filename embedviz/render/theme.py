"""Colours shared by every scene: kept for older imports; the palette lives in :mod:`design`."""

from __future__ import annotations

from embedviz.render.design import (
    DARK,
    LIGHT,
    MONO_FONT,
    SANS_FONT,
    THEMES,
    Theme,
    value_colour,
)

__all__ = ["DARK", "LIGHT", "MONO_FONT", "SANS_FONT", "THEMES", "Theme", "value_colour"]
