"""A passing ring never mixes its colour into an ID's amber outline (ZeroBasedIndexing).

A 720p review of ``diagnose`` (42.4 s) saw row 3's outline turn salmon half
way through the violet ring's fade: laid on the amber line, the two blended
into the vermillion that means a negative value. The ring now passes beside
the outline, so the outline's own pixels stay amber at every moment.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from manim import ManimColor, config

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import frame_pixels, play_moments

ALPHAS = tuple(k / 20 for k in range(1, 20))
# How far (RGB, 0-255, Euclidean) an outline's pixel may stray from amber: antialiasing
# of an opaque line rests within a few levels; the ring's blend was about 90 away.
NEAR = 24.0


def _outline_colours(overrides: dict[str, Any]) -> tuple[np.ndarray, list[tuple[str, Any]]]:
    """Play ``diagnose``; return amber and, per moment, the ID row's top line's middle pixel."""
    board = prepared_storyboard("ZeroBasedIndexing", overrides, environ={})
    seen: list[tuple[str, Any]] = []
    amber = np.zeros(3)

    def read(scene: Any, moment: Any) -> None:
        nonlocal amber
        stage = scene.stage
        amber = np.array(ManimColor(stage.theme.id_line).to_rgb()) * 255
        left, _, right, top = stage.matrix.grid.row_box(board.single_id(), buff=0.0)
        pixels = frame_pixels(scene)
        height, width = pixels.shape[:2]
        column = round(((left + right) / 2 / config.frame_width + 0.5) * width)
        row = round((0.5 - top / config.frame_height) * height)
        # The line's ink nearest amber within a pixel of its centre (it is 3.6 px wide).
        patch = pixels[row - 1 : row + 2, column].astype(float)
        nearest = patch[np.argmin(np.linalg.norm(patch - amber, axis=1))]
        seen.append((f"{moment.beat.name} step {moment.step} at {moment.alpha}", nearest))

    play_moments(board, read, alphas=ALPHAS, beats=["diagnose"])
    return amber, seen


@pytest.mark.parametrize("overrides", [{}, {"theme": "light"}], ids=["dark", "light"])
def test_the_ids_outline_stays_amber_while_a_ring_passes(overrides: dict[str, Any]) -> None:
    amber, seen = _outline_colours(overrides)
    assert len(seen) >= 2 * len(ALPHAS), "diagnose was not sampled through both steps"
    off = [
        (when, colour.round().tolist())
        for when, colour in seen
        if np.linalg.norm(colour - amber) > NEAR
    ]
    assert not off, off[:5]
