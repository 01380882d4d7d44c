"""Colours, fonts and sizes shared by every scene."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DARK", "LIGHT", "MONO_FONT", "SANS_FONT", "THEMES", "Theme", "value_colour"]

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
    chip_text
        The ID on a chip.
    positive, negative
        The ends of the value colour scale (blue and vermillion, which
        stay distinct under every common colour-vision deficiency). They
        mean a value's sign and size, and nothing else.
    wrong
        A neutral accent for what is wrong (a slip, a wrong row); "wrong" is
        shown by a shape, a cross or a strike, never by a value colour.
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
    positive: str = "#56B4E9"
    negative: str = "#FF7A3D"
    chip_text: str = "#101318"
    wrong: str = "#C8CDD6"


DARK = Theme()

LIGHT = Theme(
    background="#FAFAF7",
    text="#1F2328",
    muted="#5B6573",
    cell_fill="#FFFFFF",
    cell_stroke="#C3CBD6",
    chip="#E69F00",
    output="#0072B2",
    # Amber like the chips, dark enough for text; vermillion is only for negative values.
    highlight="#9A6700",
    accent="#009E73",
    positive="#0072B2",
    negative="#D55E00",
    chip_text="#1F2328",
    wrong="#3D4450",
)

THEMES: dict[str, Theme] = {"dark": DARK, "light": LIGHT}


def value_colour(value: float, scale: float, theme: Theme) -> str:
    """Colour a table value by its sign and size.

    Parameters
    ----------
    value
        The value.
    scale
        The magnitude that gets the full colour (larger values saturate).
    theme
        The palette.

    Returns
    -------
    str
        A hex colour between the text colour and the positive or negative
        end; even small values keep a visible tint of their sign.
    """
    from manim import ManimColor, interpolate_color

    if value == 0 or scale <= 0:
        return theme.text
    strength = 0.35 + 0.65 * min(1.0, abs(value) / scale)
    end = theme.positive if value > 0 else theme.negative
    mixed = interpolate_color(ManimColor(theme.text), ManimColor(end), strength)
    return str(mixed.to_hex())
