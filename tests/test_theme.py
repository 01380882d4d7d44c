"""One meaning per colour: value colours mean sign and size, and nothing else."""

from __future__ import annotations

import pytest

from embedviz.render.theme import THEMES, Theme


def _luminance(colour: str) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def _contrast(a: str, b: str) -> float:
    dark, light = sorted((_luminance(a), _luminance(b)))
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("name", sorted(THEMES))
def test_highlight_and_wrong_never_reuse_a_value_colour(name: str) -> None:
    theme: Theme = THEMES[name]
    values = {theme.positive.upper(), theme.negative.upper()}
    for role in ("highlight", "wrong", "chip", "accent", "gradient"):
        assert getattr(theme, role).upper() not in values, f"{name}: {role} is a value colour"


@pytest.mark.parametrize("name", sorted(THEMES))
def test_coloured_text_is_readable_on_the_background(name: str) -> None:
    theme: Theme = THEMES[name]
    # Labels such as "identical" are written in the highlight colour.
    for role in ("text", "highlight", "output", "wrong"):
        assert _contrast(getattr(theme, role), theme.background) >= 4.5, (name, role)
