"""Colour arithmetic: WCAG 2.2 contrast, mixing, and fading that keeps contrast.

:mod:`embedviz.render.design` re-exports all of it (its colours' rules use it);
it lives here so that the design system's file keeps room for the rules.
"""

from __future__ import annotations

__all__ = ["DIM_CONTRAST", "TEXT_CONTRAST", "contrast_ratio", "dim_opacity", "dimmed", "mix"]

# WCAG 2.2 AA: text against its background, and dimmed content.
TEXT_CONTRAST = 4.5
DIM_CONTRAST = 3.0


def _channels(colour: str) -> tuple[float, float, float]:
    text = colour.lstrip("#")
    red, green, blue = (int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return red, green, blue


def _luminance(colour: str) -> float:
    def linear(value: float) -> float:
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in _channels(colour))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: str, second: str) -> float:
    """Return the WCAG 2.2 contrast ratio of two ``#RRGGBB`` colours.

    Parameters
    ----------
    first, second
        The colours.

    Returns
    -------
    float
        From 1 (the same) to 21 (black on white).

    Examples
    --------
    >>> round(contrast_ratio("#000000", "#FFFFFF"), 1)
    21.0
    """
    dark, light = sorted((_luminance(first), _luminance(second)))
    return (light + 0.05) / (dark + 0.05)


def mix(first: str, second: str, amount: float) -> str:
    """Return ``first`` moved ``amount`` (0 to 1) of the way to ``second``, as ``#RRGGBB``."""
    a, b = _channels(first), _channels(second)
    mixed = (round(255 * (x + (y - x) * amount)) for x, y in zip(a, b, strict=True))
    return "#" + "".join(f"{value:02X}" for value in mixed)


def dimmed(colour: str, background: str, target: float = DIM_CONTRAST + 0.2) -> str:
    """Return ``colour`` faded toward the background, keeping ``target`` contrast with it.

    Dimmed content (rows no ID selected) recedes but stays readable: it is
    mixed toward the background only as far as a contrast of ``target``
    allows (a colour already under it is left as it is).

    Parameters
    ----------
    colour
        The colour in full.
    background
        What it is drawn on.
    target
        The contrast it keeps.

    Returns
    -------
    str
        The dimmed colour.
    """
    if contrast_ratio(colour, background) <= target:
        return colour
    return mix(colour, background, _fade_share(colour, background, target))


def _fade_share(colour: str, background: str, target: float) -> float:
    """Return how far ``colour`` may be mixed toward the background and keep ``target``."""
    low, high = 0.0, 1.0
    for _ in range(24):
        middle = (low + high) / 2
        if contrast_ratio(mix(colour, background, middle), background) >= target:
            low = middle
        else:
            high = middle
    return low


def dim_opacity(colour: str, background: str, target: float = DIM_CONTRAST + 0.2) -> float:
    """Return the least opacity at which ``colour`` keeps ``target`` contrast on ``background``.

    Content faded by opacity (a spent count, terms that add nothing) recedes
    as far as this and no further, so that it stays readable dimmed content.

    Parameters
    ----------
    colour
        The colour in full.
    background
        What it is drawn on.
    target
        The contrast it keeps.

    Returns
    -------
    float
        From 0 to 1 (1 when even the full colour is under ``target``).
    """
    if contrast_ratio(colour, background) <= target:
        return 1.0
    # Drawn at opacity a, the colour shows as itself mixed 1 - a toward the background.
    return 1.0 - _fade_share(colour, background, target)
