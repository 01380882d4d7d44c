"""A table value's sign stays legible on a projector at every size, in both themes.

A 720p review of the light theme (SequenceLookup): small and mid values were
near-black (``-0.2010`` dark maroon, ``0.9666`` dark teal) and on a projector the
sign could not be read; in the dark theme the two hues stood clearly apart.

The colour maths here is written out independently of :mod:`embedviz.render`:
sRGB to CIELAB (D65), CIEDE2000 (Sharma, Wu and Dalal 2005, checked against
their published pairs) and the WCAG 2.2 contrast ratio.

A projector in a lit room shows its black at about a tenth of its white (about
11:1 on the screen): modelled as flare, 10 % of white added to every colour in
linear light. Flare lifts dark colours most and greys their hue out, which is
what the review saw. With it, the dark theme's weakest pair (``±0.05`` on a key
of 3) keeps ΔE00 ≈ 30; the light theme's near-black pair kept 20.5, and the
review could not tell it apart. Each pair must keep at least 25.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from embedviz.render.design import THEMES, value_colour

PROJECTOR_FLARE = 0.10
SIGN_APART = 25.0
TEXT_CONTRAST = 4.5
# Magnitudes across the key's range (a key of 3 in the default table), and beyond it.
MAGNITUDES = (0.01, 0.05, 0.1, 0.2, 0.2010, 0.4015, 0.5, 0.9666, 1.0, 1.5, 2.0, 2.84, 3.0, 4.0)
SCALES = (1.0, 3.0)


def _linear(colour: str) -> np.ndarray:
    srgb = np.array([int(colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]) / 255.0
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def _lab_of_linear(rgb: np.ndarray) -> tuple[float, float, float]:
    to_xyz = np.array(
        [
            [0.4124564, 0.3575761, 0.1804375],
            [0.2126729, 0.7151522, 0.0721750],
            [0.0193339, 0.1191920, 0.9503041],
        ]
    )
    xyz = to_xyz @ rgb / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return float(116 * f[1] - 16), float(500 * (f[0] - f[1])), float(200 * (f[1] - f[2]))


def _projected(colour: str) -> tuple[float, float, float]:
    """CIELAB of a colour on a projector whose black is flare (white stays white)."""
    return _lab_of_linear((_linear(colour) + PROJECTOR_FLARE) / (1 + PROJECTOR_FLARE))


def _ciede2000(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    (l1, a1, b1), (l2, a2, b2) = first, second
    mean_c = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_c**7 / (mean_c**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0
    if c1 * c2:
        dh = h2 - h1 - 360 * (h2 - h1 > 180) + 360 * (h2 - h1 < -180)
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    mean_l, mean_cp = (l1 + l2) / 2, (c1 + c2) / 2
    mean_h = h1 + h2
    if c1 * c2:
        mean_h = (h1 + h2) / 2 + 180 * (abs(h1 - h2) > 180) * (1 if h1 + h2 < 360 else -1)
    t = (
        1
        - 0.17 * math.cos(math.radians(mean_h - 30))
        + 0.24 * math.cos(math.radians(2 * mean_h))
        + 0.32 * math.cos(math.radians(3 * mean_h + 6))
        - 0.20 * math.cos(math.radians(4 * mean_h - 63))
    )
    rotation = 30 * math.exp(-(((mean_h - 275) / 25) ** 2))
    rc = 2 * math.sqrt(mean_cp**7 / (mean_cp**7 + 25**7))
    sl = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    sc, sh = 1 + 0.045 * mean_cp, 1 + 0.015 * mean_cp * t
    rt = -math.sin(math.radians(2 * rotation)) * rc
    dl, dc, dh_ = (l2 - l1) / sl, (c2 - c1) / sc, big_dh / sh
    return math.sqrt(dl**2 + dc**2 + dh_**2 + rt * dc * dh_)


def _contrast(first: str, second: str) -> float:
    weights = np.array([0.2126, 0.7152, 0.0722])
    dark, light = sorted(float(_linear(c) @ weights) for c in (first, second))
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
        ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
        ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_ciede2000_matches_sharmas_published_pairs(
    first: tuple[float, float, float], second: tuple[float, float, float], expected: float
) -> None:
    assert _ciede2000(first, second) == pytest.approx(expected, abs=1e-4)
    assert _ciede2000(second, first) == pytest.approx(expected, abs=1e-4)


def test_the_flare_model_greys_out_dark_colours_most() -> None:
    # White stays white; a dark colour loses more of its difference than a mid one.
    assert _projected("#FFFFFF")[0] == pytest.approx(100.0, abs=1e-3)
    dark = _ciede2000(_lab_of_linear(_linear("#14405A")), _lab_of_linear(_linear("#5B281A")))
    mid = _ciede2000(_lab_of_linear(_linear("#3C7191")), _lab_of_linear(_linear("#96533F")))
    assert dark - _ciede2000(_projected("#14405A"), _projected("#5B281A")) > 10
    assert mid - _ciede2000(_projected("#3C7191"), _projected("#96533F")) < 10


@pytest.mark.parametrize("name", sorted(THEMES))
@pytest.mark.parametrize("scale", SCALES)
def test_a_values_sign_stays_apart_on_a_projector_at_every_size(name: str, scale: float) -> None:
    theme = THEMES[name]
    for magnitude in MAGNITUDES:
        plus, minus = value_colour(magnitude, scale, theme), value_colour(-magnitude, scale, theme)
        apart = _ciede2000(_projected(plus), _projected(minus))
        assert apart >= SIGN_APART, (name, scale, magnitude, plus, minus, round(apart, 1))


@pytest.mark.parametrize("name", sorted(THEMES))
@pytest.mark.parametrize("scale", SCALES)
def test_every_value_keeps_4_5_to_1_on_its_cell_and_the_page(name: str, scale: float) -> None:
    # Cells are cell_fill; a travelling strip's numbers may pass over the page.
    theme = THEMES[name]
    for magnitude in (0.0, *MAGNITUDES):
        for value in (magnitude, -magnitude):
            colour = value_colour(value, scale, theme)
            for ground in (theme.cell_fill, theme.background):
                ratio = _contrast(colour, ground)
                assert ratio >= TEXT_CONTRAST, (name, scale, value, colour, ground, round(ratio, 2))
