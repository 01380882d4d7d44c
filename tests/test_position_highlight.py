"""PositionBlindness: the highlight (violet) means one thing, a passing outline (issue 18).

A teacher's 720p review of ``--positions learned`` found violet marking several
things: the outline of P's row as a sum was worked, the ring round the sums,
and, recoloured violet for a moment, the words ``position vector``, P's size
note (``rows 4–15 hidden``, ``a learned table 16 × 3``) and the sums' note
(``added unrounded, shown to 4 decimals``). The theme's colour table
(``design.COLOUR_MEANINGS``) says the highlight is "what the narration points
at right now (a passing outline, never a recolour)".

Each case is dry-run and sampled mid-motion through ``positions`` and ``add``
(where the narration points at P, its note and the sums): no text is ever
filled near the highlight's colour (a quarter of the RGB cube's edge; pointed-at
words swell in their own colours instead), and a violet stroke is drawn at some
moment (the passing outlines of the rows being added and the sums' ring).
Colours are read from the scene's theme.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from manim import ManimColor

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

CASES = [{"positions": "learned"}, {}, {"positions": "learned", "theme": "light"}]
# How near (RGB, 0-1 per channel) a text's fill may come to the highlight: a quarter of
# the cube's edge. The nearest value colour (dark theme, positive) is 0.48 away.
NEAR = 0.25


def _rgb(colour: Any) -> np.ndarray:
    return np.asarray(ManimColor(colour).to_rgb(), dtype=float)


def _seen(overrides: dict[str, Any]) -> tuple[list[str], int]:
    """Return the texts filled near the highlight, and how many moments drew a violet ring."""
    from manim import VMobject

    from embedviz.render.glyphs import GlyphString, SansText

    board = prepared_storyboard("PositionBlindness", overrides, environ={})
    recoloured: list[str] = []
    rings = 0

    def look(scene: Any, moment: Any) -> None:
        nonlocal rings
        violet = _rgb(scene.stage.theme.highlight)
        family = [m for top in scene.mobjects for m in top.get_family()]
        for m in family:
            if not isinstance(m, VMobject) or not len(m.points):
                continue
            if isinstance(m, GlyphString | SansText) and float(m.get_fill_opacity()) > 0.05:
                if np.linalg.norm(_rgb(m.get_fill_color()) - violet) < NEAR:
                    text = getattr(m, "text", "")
                    recoloured.append(f"{moment.beat.name} {moment.time:.1f}s {text!r}")
            elif m.get_stroke_width() > 0 and float(m.get_stroke_opacity()) > 0.3:
                rings += np.linalg.norm(_rgb(m.get_stroke_color()) - violet) < 1e-3

    alphas = (0.2, 0.35, 0.5, 0.65, 0.8)
    play_moments(
        board, look, alphas=alphas, pixel_width=256, pixel_height=144, beats={"positions", "add"}
    )
    return recoloured, rings


@pytest.mark.parametrize("overrides", CASES, ids=["learned", "sinusoid", "learned-light"])
def test_the_highlight_is_only_ever_a_passing_outline(overrides: dict[str, Any]) -> None:
    """No text turns violet while the narration points at it; violet outlines still point."""
    recoloured, rings = _seen(overrides)
    assert not recoloured, recoloured
    assert rings, "the narration points at nothing"
