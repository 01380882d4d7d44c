"""A chip keeps its shape on a light page: a darker edge about 2 px wide (issue 18).

A 720p review measured the light theme's amber chip fill at 2.15:1 against the
page; its shape rested on a 1 px edge (185, 125, 13) at 3.35:1, which a washed
out projector may lose. A chip is drawn at 720p on each theme's page and read
across its left edge: at least 2 pixels reach 3:1 against the page (WCAG 1.4.11
for a shape), and the edge's colour reaches 4.5:1.
"""

from __future__ import annotations

import numpy as np
import pytest

from embedviz.render.design import THEMES, contrast_ratio, font_for_px

# Pixels across the chip's edge that must reach the non-text contrast.
EDGE_PX = 2


def _hex(pixel: np.ndarray) -> str:
    red, green, blue = (int(v) for v in pixel[:3])
    return f"#{red:02X}{green:02X}{blue:02X}"


def _edge_run(theme_name: str) -> tuple[int, list[float]]:
    """Draw a chip at 720p; return the most pixels in a row across its left edge at 3:1."""
    from manim import Camera, config, tempconfig

    from embedviz.render.parts.chips import Chip
    from embedviz.story.model import NumberCell

    theme = THEMES[theme_name]
    with tempconfig({"pixel_height": 720, "pixel_width": 1280}):
        cell = NumberCell(kind="token_id", index=(0,), value=3.0, text="3")
        chip = Chip(cell, font_for_px(20.0), theme).move_to([0.3, 0.2, 0])
        camera = Camera(background_color=theme.background)
        camera.capture_mobject(chip)
        image = np.asarray(camera.get_image())
        # 90 pixels per unit on a frame 8 units high; the chip's centre line is y = 0.2.
        row = image[image.shape[0] // 2 - int(np.rint(0.2 * 90)), :, :3]
        left = int(np.rint((chip.get_left()[0] + config.frame_width / 2) * 90))
    window = row[left - 4 : left + 6]
    ratios = [contrast_ratio(_hex(p), theme.background) for p in window]
    # The longest run of pixels at 3:1 or more: the edge (in the dark theme, the fill too).
    run, best = 0, 0
    for ratio in ratios:
        run = run + 1 if ratio >= 3.0 else 0
        best = max(best, run)
    return best, ratios


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_a_chips_edge_gives_it_its_shape_on_the_page(theme_name: str) -> None:
    theme = THEMES[theme_name]
    assert contrast_ratio(theme.chip_edge, theme.background) >= 4.5
    run, ratios = _edge_run(theme_name)
    assert run >= EDGE_PX, (theme_name, [round(r, 2) for r in ratios])
