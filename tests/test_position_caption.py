"""PositionBlindness: the caption stands clear under the sums (issue 18).

A 720p review of ``--positions learned`` found the caption's ink 12 px under
the sums' block at the second arrangement's beats: close enough to read as one
more row of the block. Each case is dry-run; at every beat's end the lowest
ink of everything drawn but the caption (points of visible mobjects) and the
caption's highest ink are compared in 720p pixels.
"""

from __future__ import annotations

from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

# Twice the 12 px the review measured (the old layout left 16.9-19.6 px between inks).
LEAST_PX = 24.0


def _visible(mobject: Any) -> bool:
    return len(mobject.points) > 0 and (
        float(mobject.get_fill_opacity()) > 0.3
        or (float(mobject.get_stroke_opacity()) > 0.3 and mobject.get_stroke_width() > 0)
    )


def _gaps(overrides: dict[str, Any]) -> dict[str, float]:
    """Each beat's end: the caption's ink top to the lowest other ink, in 720p pixels."""
    from manim import config

    board = prepared_storyboard("PositionBlindness", overrides, environ={})
    gaps: dict[str, float] = {}

    def look(scene: Any, moment: Any) -> None:
        caption = scene.caption
        if moment.alpha < 1 or caption is None:
            return
        px = 720 / float(config.frame_height)
        top = max(float(m.points[:, 1].max()) for m in caption.get_family() if _visible(m))
        lowest = min(
            float(m.points[:, 1].min())
            for root in scene.mobjects
            if root is not caption
            for m in root.get_family()
            if _visible(m)
        )
        gaps[moment.beat.name] = (lowest - top) * px

    play_moments(board, look, alphas=(), pixel_width=192, pixel_height=108)
    return gaps


@pytest.mark.parametrize("overrides", [{}, {"positions": "learned"}], ids=["sinusoid", "learned"])
def test_the_caption_stands_clear_under_the_sums(overrides: dict[str, Any]) -> None:
    """In the second arrangement (``positions``, ``add``, ``differ``) the gap is 24 px or more."""
    gaps = _gaps(overrides)
    second = {"positions", "add", "differ"}
    assert second <= set(gaps), gaps
    for beat in second:
        assert gaps[beat] >= LEAST_PX, (beat, round(gaps[beat], 1))
