"""The design system: one meaning per colour, contrast by construction, sizes from the frame."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from embedviz.render.design import (
    COLOUR_MEANINGS,
    DARK,
    LIGHT,
    THEMES,
    Theme,
    TypeScale,
    contrast_ratio,
    dimmed,
    font_for_px,
    palette_table,
    px_for_font,
    value_colour,
)

# The colour table is shown in the README (issue 18) and with the scenes' reference.
ROOT = Path(__file__).resolve().parent.parent
SCENES_DOC = ROOT / "docs" / "scenes.md"
START = "<!-- colour-table: generated from embedviz.render.design; do not edit by hand -->"
END = "<!-- /colour-table -->"


def _rgb(colour: str) -> tuple[int, int, int]:
    red, green, blue = (int(colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4))
    return red, green, blue


@pytest.mark.parametrize("page", [ROOT / "README.md", SCENES_DOC], ids=lambda p: p.name)
def test_the_readme_and_the_scenes_page_show_the_colour_table(page: Path) -> None:
    text = page.read_text("utf-8")
    table = text.split(START, 1)[1].split(END, 1)[0].strip()
    assert table == palette_table()
    # Every colour of both themes, with its meaning.
    for name, meaning in COLOUR_MEANINGS.items():
        assert f"`{DARK.__dict__[name]}`" in table
        assert meaning in table


@pytest.mark.parametrize("name", sorted(THEMES))
def test_text_colours_reach_4_5_to_1_on_their_ground(name: str) -> None:
    theme: Theme = THEMES[name]
    on_frame = (
        *("text", "muted", "index", "id_ink", "highlight"),
        *("output", "wrong", "accent", "gradient"),
    )
    for role in on_frame:
        ratio = contrast_ratio(getattr(theme, role), theme.background)
        assert ratio >= 4.5, (name, role, ratio)
    assert contrast_ratio(theme.chip_text, theme.chip) >= 4.5
    # Table values sit on cells: their strongest colours too.
    for value in (-1.0, -0.01, 0.01, 1.0):
        colour = value_colour(value, 1.0, theme)
        assert contrast_ratio(colour, theme.cell_fill) >= 4.5, (name, value)


@pytest.mark.parametrize("name", sorted(THEMES))
def test_an_ids_lines_reach_3_to_1_on_what_they_cross(name: str) -> None:
    """WCAG 1.4.11: a row's amber outline is how the frame says "this row": 3:1 at least."""
    theme: Theme = THEMES[name]
    for ground in (theme.background, theme.cell_fill):
        assert contrast_ratio(theme.id_line, ground) >= 3.0, (name, ground)
    # Still amber: the chip's own hue, not a colour of its own.
    assert abs(_hue(theme.id_line) - _hue(theme.chip)) < 8


def _hue(colour: str) -> float:
    import colorsys

    red, green, blue = (c / 255 for c in _rgb(colour))
    return colorsys.rgb_to_hsv(red, green, blue)[0] * 360


def test_light_amber_text_is_fixed() -> None:
    # The issue measured light-theme amber text at 2.15:1; amber as text is id_ink now.
    assert contrast_ratio(LIGHT.chip, LIGHT.background) < 2.2
    assert contrast_ratio(LIGHT.id_ink, LIGHT.background) >= 4.5


@pytest.mark.parametrize("name", sorted(THEMES))
def test_each_accent_has_its_own_hue(name: str) -> None:
    """Amber (IDs), the highlight, the value ends, the positions and the gradient are far apart."""
    theme: Theme = THEMES[name]
    accents = {
        role: _rgb(getattr(theme, role))
        for role in ("chip", "highlight", "positive", "negative", "accent", "gradient")
    }
    for (a, first), (b, second) in combinations(accents.items(), 2):
        distance = sum((x - y) ** 2 for x, y in zip(first, second, strict=True)) ** 0.5
        assert distance > 90, (name, a, b, distance)
    # Neutral roles (frames, verdicts) carry no hue.
    for role in ("output", "wrong"):
        red, green, blue = _rgb(getattr(theme, role))
        assert max(red, green, blue) - min(red, green, blue) < 40, role


def _oklch_hue(colour: str) -> float:
    """The hue angle of a colour in OKLCH (Ottosson 2020), in degrees."""
    srgb = np.array(_rgb(colour), dtype=float) / 255
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    to_lms = np.array(
        [
            [0.4122214708, 0.5363325363, 0.0514459929],
            [0.2119034982, 0.6806995451, 0.1073969566],
            [0.0883024619, 0.2817188376, 0.6299787005],
        ]
    )
    lms = np.cbrt(to_lms @ linear)
    a = 1.9779984951 * lms[0] - 2.4285922050 * lms[1] + 0.4505937099 * lms[2]
    b = 0.0259040371 * lms[0] + 0.7827717662 * lms[1] - 0.8086757660 * lms[2]
    return float(np.degrees(np.arctan2(b, a)) % 360)


def _hue_apart(first: str, second: str) -> float:
    apart = abs(_oklch_hue(first) - _oklch_hue(second)) % 360
    return min(apart, 360 - apart)


# Issue 18: amber means "this token ID" only. Every accent that marks things (frames,
# outlines, symbols) stands this far in hue from it: the dark theme's lemon-yellow
# gradient, 37 degrees from amber, sat beside the amber rows as a second warm yellow.
MARK_HUE_APART = 60.0
# Vermillion (a negative value's digits, never a frame) is Okabe-Ito's partner of its
# orange, told apart by every vision; it keeps at least this from amber and from the
# ID's outline. The light theme's browner vermillion (#B84500: 34 degrees from amber,
# 29 from its darker outline) read as the outline's hue round a row of negatives in a
# frame review; its redder one stands 42 and 37 degrees off (the dark theme's 45 and
# 45). Redder still, it would near the light gradient's reddish purple.
VALUE_HUE_APART = 35.0


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_meaning_colour_stands_apart_from_amber_in_hue(name: str) -> None:
    theme: Theme = THEMES[name]
    for role in ("highlight", "accent", "gradient", "positive"):
        apart = _hue_apart(getattr(theme, role), theme.chip)
        assert apart >= MARK_HUE_APART, (name, role, round(apart))
    for amber in ("chip", "id_line"):
        apart = _hue_apart(theme.negative, getattr(theme, amber))
        assert apart >= VALUE_HUE_APART, (name, "negative", amber, round(apart))
    # Amber's own shades (lines, text, a chip's edge) keep amber's hue.
    for role in ("id_line", "id_ink", "chip_edge"):
        assert _hue_apart(getattr(theme, role), theme.chip) < 8, (name, role)


def test_oklch_hue_reads_the_primaries_where_they_are() -> None:
    # Ottosson's published hues: sRGB red 29.2, green 142.5, blue 264.1 degrees.
    for colour, hue in (("#FF0000", 29.2), ("#00FF00", 142.5), ("#0000FF", 264.1)):
        assert _oklch_hue(colour) == pytest.approx(hue, abs=0.2)


@pytest.mark.parametrize("name", sorted(THEMES))
def test_dimmed_content_recedes_but_keeps_3_to_1(name: str) -> None:
    theme: Theme = THEMES[name]
    for colour in (theme.text, theme.muted, theme.positive, theme.negative):
        faded = dimmed(colour, theme.cell_fill)
        assert (
            3.0 <= contrast_ratio(faded, theme.cell_fill) < contrast_ratio(colour, theme.cell_fill)
        )


def test_sizes_come_from_the_frame_so_they_hold_at_every_quality() -> None:
    from manim import tempconfig

    at_720 = font_for_px(24.0)
    assert px_for_font(at_720) == pytest.approx(24.0)
    # A frame twice as tall in scene units needs fonts twice as large for the same pixels.
    with tempconfig({"frame_height": 16.0, "frame_width": 16.0 * 16 / 9}):
        assert font_for_px(24.0) == pytest.approx(2 * at_720)
    # The pixel resolution does not matter: sizes are pixels at 720p.
    with tempconfig({"pixel_height": 1080, "pixel_width": 1920}):
        assert font_for_px(24.0) == pytest.approx(at_720)


def test_the_colour_table_lists_each_field_once() -> None:
    rows = [line for line in palette_table().splitlines() if line.startswith("| `")]
    names = [re.match(r"\| `(\w+)`", row).group(1) for row in rows]  # type: ignore[union-attr]
    assert names == list(COLOUR_MEANINGS)
    assert len(set(names)) == len(names)


def test_type_scale_labels_never_outgrow_the_data() -> None:
    for px in (12.0, 14.0, 20.0):
        scale = TypeScale.from_data(font_for_px(px))
        assert scale.label <= scale.data
        assert scale.legend <= scale.label


def test_the_batch_openings_ceiling_lives_in_the_type_scale() -> None:
    """E's digits in the batch's opening may pass MAX_DATA_PX: a type-scale role, not a stage's.

    The type scale is its own module, and the design system re-exports every name of
    it, so imports from :mod:`embedviz.render.design` keep working.
    """
    from embedviz.render import batch_opening, design, type_scale

    for name in type_scale.__all__:
        assert name in design.__all__, name
        assert getattr(design, name) is getattr(type_scale, name), name
    assert batch_opening.OPENING_PX == design.MAX_OPENING_DATA_PX
    # Past the data's ceiling, but by no more than a tenth: data stay the largest text.
    assert design.MAX_DATA_PX < design.MAX_OPENING_DATA_PX <= 1.1 * design.MAX_DATA_PX
    # The stage defines no size of its own.
    source = Path(batch_opening.__file__).read_text("utf-8")
    assert not re.search(r"^\w*PX\s*=", source, re.M)


# Machado, Oliveira and Fernandes (2009): full-severity protanopia, deuteranopia and
# tritanopia as 3x3 matrices on linear RGB (with normal vision as the identity).
_VISION = {
    "normal": np.eye(3),
    "protan": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deutan": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritan": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}


def _lab(colour: str, vision: str) -> np.ndarray:
    """CIELAB (D65) of a colour as seen with ``vision``."""
    srgb = np.array(_rgb(colour), dtype=float) / 255
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    linear = np.clip(_VISION[vision] @ linear, 0.0, 1.0)
    xyz = (
        np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
        @ linear
        / np.array([0.95047, 1.0, 1.08883])
    )
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _tint(base: str, end: str, amount: float) -> str:
    a, b = np.array(_rgb(base), dtype=float), np.array(_rgb(end), dtype=float)
    red, green, blue = np.round(a + (b - a) * amount).astype(int)
    return f"#{red:02X}{green:02X}{blue:02X}"


def _value_colours(theme: Theme) -> dict[str, str]:
    """The value ends, and their tints nearest zero (``value_near_zero`` of the way from the
    text colour: 35 % in the dark theme; the light theme starts at the full colour)."""
    return {
        "positive": theme.positive,
        "negative": theme.negative,
        "pale positive": _tint(theme.text, theme.positive, theme.value_near_zero),
        "pale negative": _tint(theme.text, theme.negative, theme.value_near_zero),
    }


@pytest.mark.parametrize("name", sorted(THEMES))
def test_the_highlight_is_far_from_the_value_palette_for_every_vision(name: str) -> None:
    """Issue 18: the highlight sits far from blue, vermillion (and their pale tints), amber
    and the accent, for normal vision and the three dichromacies (CIELAB distance)."""
    theme: Theme = THEMES[name]
    others = {
        **_value_colours(theme),
        "chip": theme.chip,
        "id_line": theme.id_line,
        "accent": theme.accent,
        "gradient": theme.gradient,
    }
    for vision in _VISION:
        seen = _lab(theme.highlight, vision)
        for role, colour in others.items():
            distance = float(np.linalg.norm(seen - _lab(colour, vision)))
            assert distance >= 30, (name, vision, role, round(distance, 1))
    # A non-text mark: at least 3:1 against the frame (it is 4.5:1, as a text colour).
    assert contrast_ratio(theme.highlight, theme.background) >= 3.0


@pytest.mark.parametrize("name", sorted(THEMES))
def test_the_gradient_is_clearly_apart_from_the_value_colours(name: str) -> None:
    """A 720p review (TrainingNudge at GPT-2 size): the gradient's rose pink (``∂L/∂E``,
    ``w_0``, ``+w_2``, its boxes) read as the vermillion of negative numbers (``+w_2``
    beside ``-0.3000``). The gradient stands clearly apart from every value colour, full,
    pale (35 % from the text colour) and dimmed, for normal vision (CIELAB distance at
    least 45), and from vermillion, full and pale, for the three dichromacies (24)."""
    theme: Theme = THEMES[name]
    values = {
        **_value_colours(theme),
        "dimmed positive": dimmed(theme.positive, theme.cell_fill),
        "dimmed negative": dimmed(theme.negative, theme.cell_fill),
    }
    seen = _lab(theme.gradient, "normal")
    for role, colour in values.items():
        distance = float(np.linalg.norm(seen - _lab(colour, "normal")))
        assert distance >= 45, (name, role, round(distance, 1))
    for vision in _VISION:
        for role in ("negative", "pale negative"):
            apart = _lab(theme.gradient, vision) - _lab(values[role], vision)
            assert float(np.linalg.norm(apart)) >= 24, (name, vision, role)
