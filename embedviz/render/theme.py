"""Colours, fonts and sizes shared by every scene."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DARK", "MONO_FONT", "SANS_FONT", "Theme"]

MONO_FONT = "DejaVu Sans Mono"
SANS_FONT = "DejaVu Sans"


@dataclass(frozen=True)
class Theme:
    """A palette; accents are from the Okabe-Ito colour-blind-safe set.

    Attributes
    ----------
    background, text, muted, cell_fill, cell_stroke
        Base colours.
    chip
        Token-ID chips and the row they select.
    output
        The output block.
    highlight
        The row being looked up.
    """

    background: str = "#101318"
    text: str = "#E8EAED"
    muted: str = "#8A93A3"
    cell_fill: str = "#1B2130"
    cell_stroke: str = "#3A4458"
    chip: str = "#E69F00"
    output: str = "#56B4E9"
    highlight: str = "#E69F00"
    accent: str = "#009E73"


DARK = Theme()
