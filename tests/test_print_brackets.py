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


# GPT-2's 768 numbers print on several lines, the last one shorter, ending in
# ``]], grad_fn=<EmbeddingBackward0>)`` (a review found the numbers' box running
# through "Backward0" and taking half the grad_fn label in with "the numbers").
GPT2 = {"vocab": 50257, "dim": 768}


def _char_inks(scene: Any) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Every inked character of the print's text pieces (brackets, commas, grad_fn, ...)."""
    inks = []
    for piece in scene.stage.printed.printed.text_pieces:
        glyph_points = piece.points[:-8]
        low, high = piece.points[-8], piece.points[-1]
        advance = (high[0] - low[0]) / len(piece.text)
        for index, char in enumerate(piece.text):
            left = low[0] + index * advance
            inside = (glyph_points[:, 0] >= left + 1e-6) & (
                glyph_points[:, 0] <= left + advance - 1e-6
            )
            ink = glyph_points[inside]
            if char.strip() and len(ink):
                inks.append((char, ink.min(axis=0)[:2], ink.max(axis=0)[:2]))
    return inks


def _encloses(path: np.ndarray, point: np.ndarray) -> bool:
    """Whether a closed path (points along it, in order) goes round a point (ray casting)."""
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(path, np.roll(path, -1, axis=0), strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _box_faults(scene: Any) -> list[str]:
    """Print characters the numbers' box crosses, or holds inside with the numbers."""
    from embedviz.render.parts.printed import PrintPart

    part: PrintPart = scene.stage.printed
    box = part.numbers_box
    if box is None or box not in scene.mobjects or float(box.get_stroke_opacity()) < SHOWN:
        return []
    half = float(box.get_stroke_width()) / 200
    path = _stroke_points(box)
    faults = []
    for char, low, high in _char_inks(scene):
        if np.all((path >= low - half) & (path <= high + half), axis=1).any():
            faults.append(f"the box crosses {char!r} at {low}")
        # The commas between the numbers belong inside; brackets and grad_fn do not.
        elif char != "," and _encloses(path, (low + high) / 2):
            faults.append(f"the box holds {char!r} at {low}")
    return faults


@pytest.mark.parametrize("options", [{}, GPT2], ids=["toy", "gpt2"])
def test_the_numbers_box_holds_only_the_numbers(options: dict[str, Any]) -> None:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", options, environ={})
    seen: list[tuple[str, float, list[str]]] = []

    def look(scene: Any, moment: Any) -> None:
        if moment.beat.name in BEATS:
            seen.append((moment.beat.name, moment.time, _box_faults(scene)))

    play_moments(board, look, alphas=(0.25, 0.5, 0.75), pixel_width=192, pixel_height=108)
    assert {beat for beat, _, _ in seen} == set(BEATS)
    for beat, time, faults in seen:
        assert not faults, (beat, time, faults[:5])


def test_the_box_check_sees_a_label_inside_or_under_the_line() -> None:
    """The probes themselves: a point inside a square, and one outside."""
    from manim import Square

    path = _stroke_points(Square(side_length=2))
    assert _encloses(path, np.array([0.5, -0.5]))
    assert not _encloses(path, np.array([1.5, 0.0]))


# The print is the beat's data ("The 768 numbers inside are row 3."): at GPT-2's
# size its digits keep the floor of a real-sized table's numbers, 18 px at 720p
# (a lecture-hall review read them at about 13-15 px, under E, with the frame's
# bottom empty below them).
PRINT_FLOOR_PX = 18.0


def test_gpt2_print_digits_keep_the_data_floor() -> None:
    from manim import config

    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", GPT2, environ={})
    heights: dict[str, float] = {}

    def look(scene: Any, moment: Any) -> None:
        if moment.beat.name not in BEATS or moment.alpha < 1:
            return
        drawn = {id(m) for top in scene.mobjects for m in top.get_family()}
        numbers = [
            n
            for n in scene.stage.printed.numbers
            if id(n) in drawn and float(n.get_fill_opacity()) >= SHOWN
        ]
        assert numbers, moment.beat.name
        # A number's ink, read from its glyph outlines (the last 8 points are its
        # slot box): from the digits' tops to the baseline, one digit's height.
        inks = [np.ptp(n.points[:-8, 1]) for n in numbers]
        heights[moment.beat.name] = min(inks) * 720 / float(config.frame_height)

    play_moments(board, look, pixel_width=192, pixel_height=108)
    assert set(heights) == set(BEATS)
    for beat, px in heights.items():
        assert px >= PRINT_FLOOR_PX, (beat, round(px, 2))
