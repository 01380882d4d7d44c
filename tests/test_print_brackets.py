"""SingleTokenLookup's print: its brackets stay visible while they are explained (issue 18).

The print beat's narration explains the double brackets, then circles the
numbers. No stroke (the brackets' underlines, the box round the numbers, the
``grad_fn`` box) may cross the ink of any ``[`` or ``]`` of the print, at any
moment of the print and ``grad_fn`` beats. The ink boxes are read here from
the glyph outlines' points (a monospace character owns one slot of the
string's advance width), not from the render code's own geometry.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard

BEATS = ("print", "grad-fn")
# Below this opacity a stroke is not counted as drawn.
SHOWN = 0.1


def _bracket_inks(scene: Any) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Every ``[`` and ``]`` of the print: (char, ink low corner, ink high corner)."""
    inks = []
    for piece in scene.stage.printed.printed.text_pieces:
        text = piece.text
        glyph_points = piece.points[:-8]  # the last 8 points are the slot box's anchor
        low, high = piece.points[-8], piece.points[-1]
        advance = (high[0] - low[0]) / len(text)
        for index, char in enumerate(text):
            if char not in "[]":
                continue
            left = low[0] + index * advance
            inside = (glyph_points[:, 0] >= left - 1e-9) & (
                glyph_points[:, 0] <= left + advance + 1e-9
            )
            ink = glyph_points[inside]
            assert len(ink), (text, index)
            inks.append((char, ink.min(axis=0)[:2], ink.max(axis=0)[:2]))
    return inks


def _stroke_points(mobject: Any) -> np.ndarray:
    """Points along a mobject's stroked path (20 per cubic Bézier)."""
    curves = mobject.points.reshape(-1, 4, 3)[:, :, :2]
    t = np.linspace(0.0, 1.0, 20)[:, None]
    weights = [(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3]
    return np.concatenate([sum(w * c[k] for k, w in enumerate(weights)) for c in curves])


def _crossings(scene: Any) -> list[str]:
    """Strokes on screen that reach into a bracket's ink box."""
    from embedviz.render.formula import FormulaText
    from embedviz.render.glyphs import GlyphString

    inks = _bracket_inks(scene)
    crossed = []
    for top in scene.mobjects:
        for mobject in top.get_family():
            if isinstance(mobject, (GlyphString, FormulaText)) or not len(mobject.points):
                continue
            width = float(mobject.get_stroke_width())
            if width <= 0 or float(mobject.get_stroke_opacity()) < SHOWN:
                continue
            # Manim draws a stroke width of w as w / 100 frame units.
            half = width / 200
            path = _stroke_points(mobject)
            for char, low, high in inks:
                near = np.all((path >= low - half) & (path <= high + half), axis=1)
                if near.any():
                    crossed.append(f"{type(mobject).__name__} crosses {char!r} at {low}")
    return crossed


@pytest.fixture(scope="module")
def print_moments() -> list[tuple[str, float, list[str]]]:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", {}, environ={})
    seen: list[tuple[str, float, list[str]]] = []

    def look(scene: Any, moment: Any) -> None:
        if moment.beat.name in BEATS:
            seen.append((moment.beat.name, moment.time, _crossings(scene)))

    play_moments(board, look, alphas=(0.25, 0.5, 0.75), pixel_width=192, pixel_height=108)
    return seen


def test_no_stroke_crosses_the_prints_brackets(
    print_moments: list[tuple[str, float, list[str]]],
) -> None:
    assert {beat for beat, _, _ in print_moments} == set(BEATS)
    for beat, time, crossed in print_moments:
        assert not crossed, (beat, time, crossed)


def test_the_check_sees_a_stroke_over_a_bracket() -> None:
    """The probe itself: a line drawn across a bracket's ink is found."""
    from manim import Line, Scene

    from embedviz.render.glyphs import LabelText

    class Printed:
        text_pieces: ClassVar[list[Any]] = [LabelText("([[", 24, "#ffffff")]

    scene: Any = Scene()
    scene.stage = type("Stage", (), {"printed": type("Part", (), {"printed": Printed})})
    scene.add(Printed.text_pieces[0])
    assert not _crossings(scene)
    _, low, high = _bracket_inks(scene)[1]
    middle = (low + high) / 2
    scene.add(Line([middle[0], low[1] - 1, 0], [middle[0], high[1] + 1, 0]))
    assert _crossings(scene)
