"""A box round a row or a block is on screen whole or not at all, at every moment.

A 720p review of mid-motion frames found rings drawn with Manim's ``Create``:
from one corner along the sides, so for a moment only the top side stood, and
read as an underline of the number above it. In ZeroBasedIndexing's ``check``
beat row 3's ring, begun along its top, underlined row 2's last number (the
very slip the scene warns against); in PositionBlindness part-drawn rings of
rows 0 and 2 marked row 1. Boxes now fade in whole.

Each scene is dry-run and sampled early and midway through every animation;
every rectangle on screen with a visible stroke must be a closed path: its
last point back on its first (a part-drawn one stops short along its sides).
A row's strip coming out from behind the matrix is the one open box: it is
open only on the side at the matrix's edge, where it goes on behind the
matrix (``test_strip_emerges.py`` checks its outline).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from manim import Rectangle

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

SCENES = (
    "SingleTokenLookup",
    "ZeroBasedIndexing",
    "SequenceLookup",
    "BatchLookup",
    "LargeVocabLookup",
    "OneHotEquivalence",
    "ParameterCount",
    "TrainingNudge",
    "PositionBlindness",
)


def _open_boxes(scene: MomentScene) -> list[str]:
    """Return a line for every stroked rectangle on screen whose outline is not closed."""
    found = []
    for top in scene.mobjects:
        if getattr(top, "row_strip", False):
            continue
        for mobject in top.get_family():
            if not isinstance(mobject, Rectangle) or mobject.get_num_points() < 8:
                continue
            if mobject.get_stroke_width() <= 0 or mobject.get_stroke_opacity() < 0.05:
                continue
            # A rectangle may hold several closed outlines (a band of cells): each its own path.
            for path in mobject.get_subpaths():
                gap = float(np.linalg.norm(path[-1] - path[0]))
                if gap > 1e-3:
                    name = type(mobject).__name__
                    found.append(f"{name} open by {gap:.3f} at {path[0][:2]}")
    return found


@pytest.mark.parametrize("scene_name", SCENES)
def test_every_box_is_drawn_whole(scene_name: str) -> None:
    board = prepared_storyboard(scene_name, {}, environ={})
    problems: list[str] = []
    sampled = [0]

    def check(scene: MomentScene, moment: Any) -> None:
        sampled[0] += 1
        problems.extend(
            f"{moment.beat.name} a{moment.alpha:.2f}: {line}" for line in _open_boxes(scene)
        )

    play_moments(board, check, alphas=(0.2, 0.5))
    assert sampled[0] > 10
    assert problems == []
