"""A highlight never runs through a text, at any moment (LargeVocabLookup, issue 18 review).

``point_at`` swells a label while a ring passes round it; a frame review
(the size beat, 15.0 s, 720p) saw the violet lines strike through the gap
labels, which swelled out through a ring drawn round them as they stood.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard

SCENE = "LargeVocabLookup"
# Fine steps: a swell and its ring's flash last a second.
_FINE_ALPHAS = tuple(round(0.025 * k, 3) for k in range(1, 40))


def _box(mobject: Any) -> np.ndarray:
    return np.array([mobject.get_corner([-1, -1, 0])[:2], mobject.get_corner([1, 1, 0])[:2]])


def _through(line: np.ndarray, box: np.ndarray) -> bool:
    """Whether a straight line (its box, flat across it) runs through a text's box."""
    return bool(((line[1] > box[0]) & (line[0] < box[1])).all())


def _rings_through_text(overrides: dict[str, Any] | None = None) -> list[str]:
    """Play the scene dry; return each moment a highlight's line runs through a text.

    A highlight (``point_at``'s passing ring, a repeat's rings) is a stroked,
    unfilled line in the highlight colour; a text is any glyph string drawn at
    all, at its size at that moment (a pointed-at label swells).
    """
    from embedviz.render.gap_text import GapLabel
    from embedviz.render.glyphs import GlyphString
    from embedviz.render.moments import play_moments

    board = prepared_storyboard(SCENE, overrides, environ={})
    found: list[str] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha >= 1:
            return
        family = [m for top in scene.mobjects for m in top.get_family()]
        colour = scene.stage.theme.highlight.lower()
        texts = [
            (m.text, _box(m))
            for m in family
            if isinstance(m, GlyphString | GapLabel)
            and len(m.points)
            and max(float(g.get_fill_opacity()) for g in m.get_family()) > 0.0
        ]
        rings = [
            m
            for m in family
            if not isinstance(m, GlyphString)
            and len(m.points)
            and m.get_fill_opacity() == 0
            and m.get_stroke_opacity() > 0
            and m.get_stroke_width() > 0
            and m.get_stroke_color().to_hex().lower() == colour
        ]
        for ring in rings:
            for curve in ring.points.reshape(-1, 4, 3):
                line = np.array([curve[[0, 3], :2].min(axis=0), curve[[0, 3], :2].max(axis=0)])
                for text, box in texts:
                    if _through(line, box):
                        found.append(f"{moment.beat.name} at {moment.alpha}: a ring on {text!r}")

    play_moments(board, read, alphas=_FINE_ALPHAS, pixel_width=192, pixel_height=108)
    return found


@pytest.mark.slow
def test_no_highlight_runs_through_a_text() -> None:
    """A frame review (the size beat, 15.0 s): the violet lines pointing at the gap labels
    struck through ``columns 1–766 hidden`` and ``rows 6–50255 hidden``: each label
    swelled by a tenth inside a ring drawn round it as it stood. At every moment, no line
    of a highlight runs through a text drawn at all."""
    assert _rings_through_text() == []
