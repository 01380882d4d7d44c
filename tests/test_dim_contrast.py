"""Dimmed text stays readable at every beat's end, in both themes (issue 18).

``test_contrast`` measures the last frame from pixels. Text faded part-way
(by opacity, as a spent count or a used chip is) may sit on screen at an
earlier beat's end, while the narration still points at it. Here every
scene is dry-run to each beat's end; each visible text's colour is blended
by its opacity over what is drawn behind its centre (the frontmost filled
shape there, itself blended over the background, or the background), and
the result must keep 3:1 (WCAG 2.2's floor for dimmed content) against
that backdrop. The blend and the ratio are computed here, not with the
design system's ``mix`` and ``contrast_ratio``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.story.scenes import SCENES

DIMMED = 3.0
# Below this opacity a text is gone, not dimmed.
GONE = 0.05


def _rgb(colour: Any) -> np.ndarray:
    text = colour.to_hex() if hasattr(colour, "to_hex") else str(colour)
    text = text.lstrip("#")[:6]
    return np.array([int(text[i : i + 2], 16) for i in (0, 2, 4)], dtype=float) / 255


def _ratio(first: np.ndarray, second: np.ndarray) -> float:
    def luminance(rgb: np.ndarray) -> float:
        linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        return float(linear @ np.array([0.2126, 0.7152, 0.0722]))

    a, b = sorted((luminance(first), luminance(second)))
    return (b + 0.05) / (a + 0.05)


def _over(under: np.ndarray, colour: np.ndarray, opacity: float) -> np.ndarray:
    """``colour`` painted at ``opacity`` over ``under``."""
    return under + (colour - under) * opacity


def dim_texts(scene_object: Any) -> list[tuple[str, float, float]]:
    """Every visible text under 3:1 against its backdrop: (text, opacity, ratio)."""
    from embedviz.render.formula import FormulaText
    from embedviz.render.glyphs import GlyphString, SansText

    kinds = (GlyphString, SansText, FormulaText)
    background = _rgb(scene_object.camera.background_color)
    shown = scene_object.renderer.camera.get_mobjects_to_display(scene_object.mobjects)
    order = {id(m): i for i, m in enumerate(shown)}
    texts = [m for top in scene_object.mobjects for m in top.get_family() if isinstance(m, kinds)]
    in_text = {id(member) for text in texts for member in text.get_family()}
    fills = [
        m
        for m in shown
        if id(m) not in in_text and len(m.points) and float(m.get_fill_opacity()) >= 0.5
    ]
    poor = []
    for text in texts:
        drawn = [m for m in text.get_family() if len(m.points)]
        if isinstance(text, GlyphString):
            if not text.text.strip():
                continue  # spaces: no ink to read
            drawn = [text]  # its own points are its glyphs
        if not drawn:
            continue
        opacity = max(float(m.get_fill_opacity()) for m in drawn)
        if opacity < GONE:
            continue
        centre = text.get_center()
        first = min(order.get(id(m), len(order)) for m in drawn)
        backdrop = background
        for shape in fills:
            if order[id(shape)] >= first:
                continue
            low, high = shape.get_corner([-1, -1, 0]), shape.get_corner([1, 1, 0])
            if low[0] <= centre[0] <= high[0] and low[1] <= centre[1] <= high[1]:
                fill = _rgb(shape.get_fill_color())
                backdrop = _over(background, fill, float(shape.get_fill_opacity()))
        seen = _over(backdrop, _rgb(drawn[-1].get_fill_color()), opacity)
        ratio = _ratio(seen, backdrop)
        if ratio < DIMMED - 0.02:
            poor.append((str(getattr(text, "text", "")), opacity, ratio))
    return poor


SCENES_TO_CHECK = [name for name in SCENES if name != "FullExplainer"]


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("scene", SCENES_TO_CHECK)
def test_dimmed_text_keeps_3_to_1_at_every_beat_end(scene: str, theme: str) -> None:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard(scene, {"theme": theme}, environ={})
    poor: list[str] = []
    ends = 0

    def look(scene_object: Any, moment: Any) -> None:
        nonlocal ends
        ends += 1
        for text, opacity, ratio in dim_texts(scene_object):
            poor.append(f"{moment.beat.name}: {text!r} at {opacity:.2f} opacity, {ratio:.2f}:1")

    play_moments(board, look, alphas=(), pixel_width=192, pixel_height=108)
    assert ends == len(board.all_beats())
    assert not poor, "; ".join(poor[:12])


def test_the_dim_check_can_fail() -> None:
    from manim import Rectangle, Scene

    from embedviz.render.glyphs import LabelText

    scene: Any = Scene()
    scene.camera.background_color = "#101318"
    label = LabelText("12", 24, "#E8EAED")
    scene.add(label)
    assert not dim_texts(scene)
    label.set_fill(opacity=0.3)  # the zero terms' old fade in OneHot: about 2.4:1
    assert [text for text, _, _ in dim_texts(scene)] == ["12"]
    # On a light card drawn behind it, full-strength light text is unreadable.
    label.set_fill(opacity=1.0)
    card = Rectangle(width=2, height=1).set_fill("#F0F0F0", opacity=1.0)
    scene.add(card)
    scene.bring_to_front(label)
    assert dim_texts(scene)


def test_dim_opacity_is_the_least_that_keeps_3_to_1() -> None:
    from embedviz.render.design import dim_opacity

    for colour, background in [("#C8CDD6", "#101318"), ("#3D4450", "#FAFAF7")]:
        opacity = dim_opacity(colour, background)
        fg, bg = _rgb(colour), _rgb(background)
        assert 3.2 - 0.01 <= _ratio(_over(bg, fg, opacity), bg) < 3.3
        assert _ratio(_over(bg, fg, opacity - 0.02), bg) < 3.2
