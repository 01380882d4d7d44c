"""The outline of BatchLookup's empty slices keeps 3:1 in the rendered pixels (review, s20).

Before the reveal the output's panel holds an outline of the slices to come:
their frames, their tag places and their T and B braces. In the light theme
a teacher read it as barely there (1.3:1). Dimmed content must keep 3:1
(WCAG 2.2, 1.4.11) against what it is drawn on. Here the intro, batch and
predict beats' ends are drawn at 720p in both themes, and each outline's
strongest pixel across its edge is compared with the panel's own pixels.
Luminance and ratio are computed here (WCAG's formulas), not with the
design system's helpers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import DARK, LIGHT
from embedviz.render.moments import frame_pixels, play_moments

FLOOR = 3.0
# How far either side of an edge's line the strongest pixel is looked for, in pixels.
REACH = 3


def _luminance(rgb: np.ndarray) -> float:
    c = rgb / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(linear @ np.array([0.2126, 0.7152, 0.0722]))


def _ratio(a: np.ndarray, b: np.ndarray) -> float:
    low, high = sorted((_luminance(a), _luminance(b)))
    return (high + 0.05) / (low + 0.05)


def _pixel(scene: Any, x: float, y: float, shape: tuple[int, ...]) -> tuple[int, int]:
    from manim import config

    col = (x / float(config.frame_width) + 0.5) * shape[1]
    row = (0.5 - y / float(config.frame_height)) * shape[0]
    return round(row), round(col)


def _strongest(pixels: np.ndarray, ground: np.ndarray, rows: slice, cols: slice) -> float:
    patch = pixels[rows, cols].reshape(-1, 3).astype(float)
    return max(_ratio(p, ground) for p in patch)


def _measure(scene: Any) -> list[tuple[str, float]]:
    """Each outline's contrast: its strongest pixel across its edge, against the panel."""
    stack = scene.stage.stack
    pixels = frame_pixels(scene)
    panel = stack.placeholder
    # The panel's own colour: the commonest pixel inside it.
    top, left = _pixel(scene, *panel.get_corner([-1, 1, 0])[:2], pixels.shape)
    bottom, right = _pixel(scene, *panel.get_corner([1, -1, 0])[:2], pixels.shape)
    inside = pixels[top + 4 : bottom - 4, left + 4 : right - 4].reshape(-1, 3)
    values, counts = np.unique(inside, axis=0, return_counts=True)
    ground = values[int(np.argmax(counts))].astype(float)
    found: list[tuple[str, float]] = []
    ghost = stack.ghost[0]
    for number, member in enumerate(ghost):
        box = member.get_corner([-1, 1, 0]), member.get_corner([1, -1, 0])
        (r0, c0), (r1, c1) = (_pixel(scene, *p[:2], pixels.shape) for p in box)
        mid_r = (r0 + r1) // 2
        # Across its left edge at mid-height, and across its top edge at a quarter width
        # (the question's patch may cover the middle).
        quarter = c0 + max(1, (c1 - c0) // 4)
        edges = [
            ("left", slice(mid_r, mid_r + 1), slice(c0 - REACH, c0 + REACH + 1)),
            ("top", slice(r0 - REACH, r0 + REACH + 1), slice(quarter, quarter + 1)),
        ]
        if type(member).__name__ == "Brace":
            # A brace's ink is a curve: its strongest pixel anywhere in its box.
            edges = [("ink", slice(r0, r1 + 1), slice(c0, c1 + 1))]
        for side, rows, cols in edges:
            ratio = _strongest(pixels, ground, rows, cols)
            found.append((f"{type(member).__name__} {number} {side}", ratio))
    return found


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
@pytest.mark.parametrize(
    "overrides",
    [{}, {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}],
    ids=["default", "gpt2"],
)
def test_empty_slices_outline_keeps_three_to_one(theme: Any, overrides: dict[str, Any]) -> None:
    board = prepared_storyboard("BatchLookup", overrides, environ={})
    faint: list[tuple[str, str, float]] = []
    seen: list[str] = []

    def grab(scene: Any, moment: Any) -> None:
        if moment.alpha < 1 or moment.beat.name not in ("intro", "batch", "predict"):
            return
        seen.append(moment.beat.name)
        for name, ratio in _measure(scene):
            if ratio < FLOOR:
                faint.append((moment.beat.name, name, round(ratio, 2)))

    play_moments(board, grab, alphas=(), theme=theme)
    assert seen == ["intro", "batch", "predict"]
    assert not faint, faint
