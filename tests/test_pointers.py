"""A pointer never runs through the label it points into (issue 18, frame review).

When the narration names one axis of the output's shape ("Each input ID gives
one row."), the highlight's passing outline used to go round the "4" of
"4 × 3" alone: its sides ran between the 4 and the ×, through the label. Now
the outline goes round the whole label and the named size swells.

The ``reveal`` and ``shape`` beats are sampled mid-motion; no point of a
stroke in the highlight colour may lie inside the shape label's ink box.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from manim import ManimColor

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

ALPHAS = tuple(i / 20 for i in range(1, 20))


def _crossings(scene: str, overrides: dict[str, Any]) -> tuple[int, list[str]]:
    """Return how many highlight strokes were seen, and those inside the shape label."""
    from embedviz.render.glyphs import GlyphString

    board = prepared_storyboard(scene, overrides, environ={})
    seen = [0]
    crossings: list[str] = []

    def read(scene_object: Any, moment: Any) -> None:
        if moment.beat.name not in {"reveal", "shape"} or moment.alpha >= 1:
            return
        label = scene_object.stage.output.shape
        if label is None:
            return
        corners = [part.ink_corners() for part in label if isinstance(part, GlyphString)]
        low = np.min([c[0][:2] for c in corners], axis=0)
        high = np.max([c[1][:2] for c in corners], axis=0)
        highlight = ManimColor(scene_object.theme.highlight).to_hex().lower()
        for top in scene_object.mobjects:
            for mobject in top.get_family():
                if mobject.submobjects or not len(mobject.points):
                    continue
                if isinstance(mobject, GlyphString) or mobject.get_stroke_width() <= 0:
                    continue
                if float(mobject.get_stroke_opacity()) < 0.3:
                    continue
                if mobject.get_stroke_color().to_hex().lower() != highlight:
                    continue
                seen[0] += 1
                # A stroke's ink reaches half its width past its path.
                reach = float(mobject.get_stroke_width()) / 200
                points = mobject.points[:, :2]
                inside = np.all((points > low - reach) & (points < high + reach), axis=1)
                if inside.any():
                    crossings.append(f"{moment.beat.name} step {moment.step} at {moment.alpha}")

    # Only these beats are read: the others play unsampled (tests/test_moment_beats.py).
    play_moments(board, read, alphas=ALPHAS, beats={"reveal", "shape"})
    return seen[0], crossings


@pytest.mark.parametrize(
    "overrides", [{}, {"theme": "light"}, {"ids": "4821,0,50256", "vocab": 50257, "dim": 768}]
)
def test_no_pointer_runs_through_the_shape_label(overrides: dict[str, Any]) -> None:
    """The highlight's outlines in the reveal and shape beats stay outside ``4 × 3``."""
    seen, crossings = _crossings("SequenceLookup", overrides)
    assert seen, "no highlight was seen: nothing was checked"
    assert not crossings, crossings
