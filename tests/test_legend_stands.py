"""A value-colour legend stands whenever numbers are drawn in value colours.

A 720p review (lecture-hall frames) found PositionBlindness drop its colour
legend with the matrix at beat ``arrange``, while the token vectors, P and
the sums on screen stayed coloured by value: from then on the colours had no
key. ParameterCount, which shows no legend, coloured its corner of E by value
too (its storyboard says it colours no values by size): it now draws them in
the text colour. Read from the mobjects at every beat end: wherever a visible number's
colour is its value's colour (:func:`embedviz.render.design.value_colour`,
as a value of its sign and size is drawn, not the text colour a zero gets),
a legend stands visible inside the frame.
"""

from __future__ import annotations

from typing import Any

import pytest
from manim import config
from manim.utils.color import ManimColor

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import value_colour
from embedviz.render.moments import play_moments
from embedviz.story.scenes import SCENES

CASES = [
    # Every scene at its defaults (ParameterCount coloured its corner of E with no legend).
    *[(scene, {}) for scene in SCENES if scene != "FullExplainer"],
    ("PositionBlindness", {"positions": "learned"}),
    ("PositionBlindness", {"theme": "light"}),
    ("PositionBlindness", {"ids": "4821,0,4821", "vocab": 50257, "dim": 768}),
]


def _hex(colour: Any) -> str:
    return ManimColor(colour).to_hex().upper()


def _visible(mobject: Any) -> bool:
    return float(mobject.get_fill_opacity()) >= 0.5


def _inside(mobject: Any) -> bool:
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    low, high = mobject.get_corner([-1, -1, 0]), mobject.get_corner([1, 1, 0])
    return bool(low[0] >= -half_w and high[0] <= half_w and low[1] >= -half_h and high[1] <= half_h)


def _beat_ends(scene: str, overrides: dict[str, Any]) -> list[tuple[str, int, bool]]:
    """At every beat end: (beat, how many numbers stand in value colours, whether a legend does)."""
    from embedviz.render.glyphs import NumberText
    from embedviz.render.parts.legend import Legend

    board = prepared_storyboard(scene, overrides, environ={})
    seen: list[tuple[str, int, bool]] = []

    def look(scene_object: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        theme = scene_object.stage.theme
        family = [m for top in scene_object.mobjects for m in top.get_family()]
        coloured = [
            m
            for m in family
            if isinstance(m, NumberText)
            and m.cell.kind != "legend"
            and _visible(m)
            and _hex(m.get_fill_color()) != _hex(theme.text)
            and _hex(m.get_fill_color())
            == _hex(value_colour(float(m.cell.value), board.value_scale, theme))
        ]
        legend = any(
            isinstance(m, Legend) and _visible(m.swatches[0]) and _inside(m) for m in family
        )
        seen.append((moment.beat.name, len(coloured), legend))

    play_moments(board, look, alphas=(0.5,), pixel_width=192, pixel_height=108)
    return seen


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_a_legend_stands_wherever_values_are_coloured(
    scene: str, overrides: dict[str, Any]
) -> None:
    seen = _beat_ends(scene, overrides)
    # Where a legend stands, the oracle sees the numbers it keys (else it could not fail).
    if any(legend for _, _, legend in seen):
        assert any(count for _, count, _ in seen), seen
    keyless = [(beat, count) for beat, count, legend in seen if count and not legend]
    assert not keyless, keyless
