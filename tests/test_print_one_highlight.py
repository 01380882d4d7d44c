"""SingleTokenLookup's print: one highlight at a time, on what its phrase names (issue 18).

A 720p frame review of the print and ``grad_fn`` beats found two faults:

- "The outer pair means a 2-D tensor with a single row" (31.9 s) was marked
  by a ring round the whole ``[[-0.4015, 0.9666, -1.1481]]``, which read as
  an underline of everything: the outer pair was not singled out. While that
  phrase plays, the highlight marks the outer ``[`` and ``]`` alone: every
  visible mark's box takes in an outer bracket's ink and no number's, no
  inner bracket's;
- at 44.2 s two violet lines stood at once: the numbers' mark, fading back,
  and the ``grad_fn`` label's underline, fading out. At every sampled moment
  of the scene at most one highlight (a violet mark drawn as one piece of the
  picture: a ring, the pair of rings round the outer brackets, an underline)
  is visible.

The ink boxes are read from the glyph outlines' points, not from the render
code's geometry.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard

# Below this stroke opacity a mark is not counted as visible.
SHOWN = 0.05
ALPHAS = tuple(k / 10 for k in range(1, 11))
GPT2 = {"vocab": 50257, "dim": 768}


def _visible_marks(scene: Any) -> list[list[Any]]:
    """Each top-level mobject holding visible highlight strokes: those strokes (texts aside)."""
    from manim import ManimColor

    from embedviz.render.glyphs import GlyphString

    colour = ManimColor(scene.stage.theme.highlight).to_hex().lower()
    found = []
    for top in scene.mobjects:
        strokes = [
            m
            for m in top.get_family()
            if not isinstance(m, GlyphString)
            and len(m.points)
            and float(m.get_stroke_width()) > 0
            and float(m.get_stroke_opacity()) >= SHOWN
            and m.get_stroke_color().to_hex().lower() == colour
        ]
        if strokes:
            found.append(strokes)
    return found


def _ink_boxes(scene: Any) -> dict[str, list[tuple[np.ndarray, np.ndarray]]]:
    """The outer and inner brackets' and the numbers' ink boxes, from the glyph outlines."""
    part = scene.stage.printed
    brackets = []
    for piece in part.printed.text_pieces:
        glyphs, low, high = piece.points[:-8], piece.points[-8], piece.points[-1]
        advance = (high[0] - low[0]) / len(piece.text)
        for index, char in enumerate(piece.text):
            left = low[0] + index * advance
            inside = (glyphs[:, 0] >= left + 1e-6) & (glyphs[:, 0] <= left + advance - 1e-6)
            if char in "[]" and inside.any():
                ink = glyphs[inside]
                brackets.append((char, ink.min(axis=0)[:2], ink.max(axis=0)[:2]))
    # Reading order: lines top first, then left to right.
    brackets.sort(key=lambda b: (-round(float(b[1][1] + b[2][1]), 3), float(b[1][0])))
    opening = [(lo, hi) for char, lo, hi in brackets if char == "["]
    closing = [(lo, hi) for char, lo, hi in brackets if char == "]"]
    numbers = [
        (n.points[:-8].min(axis=0)[:2], n.points[:-8].max(axis=0)[:2])
        for n in part.numbers
        if len(n.points[:-8])
    ]
    return {
        "outer": [opening[0], closing[-1]],
        "inner": [opening[1], closing[-2]],
        "numbers": numbers,
    }


def _overlaps(box: tuple[np.ndarray, np.ndarray], ink: tuple[np.ndarray, np.ndarray]) -> bool:
    return bool(np.all(box[0] <= ink[1]) and np.all(ink[0] <= box[1]))


def _box(stroke: Any) -> tuple[np.ndarray, np.ndarray]:
    points = stroke.points[:, :2]
    return points.min(axis=0), points.max(axis=0)


@pytest.mark.parametrize("options", [{}, GPT2], ids=["toy", "gpt2"])
def test_the_outer_pair_phrase_marks_the_outer_brackets_alone(options: dict[str, Any]) -> None:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", options, environ={})
    phrase = next(b for b in board.beats if b.name == "print").phrases[1].text
    assert phrase.startswith("The outer pair"), phrase
    seen: list[tuple[float, list[str]]] = []

    def look(scene: Any, moment: Any) -> None:
        # Step 1 plays with the outer pair's phrase; from halfway its mark stands whole.
        if moment.step != 1 or moment.alpha < 0.5:
            return
        inks = _ink_boxes(scene)
        boxes = [_box(s) for mark in _visible_marks(scene) for s in mark]
        faults = [f"outer bracket {n} unmarked" for n, ink in enumerate(inks["outer"])]
        faults = [
            fault
            for fault, ink in zip(faults, inks["outer"], strict=True)
            if not any(_overlaps(box, ink) for box in boxes)
        ]
        for name in ("inner", "numbers"):
            faults += [
                f"a mark takes in an {name} ink at {ink[0]}"
                for ink in inks[name]
                if any(_overlaps(box, ink) for box in boxes)
            ]
        seen.append((moment.time, faults))

    play_moments(board, look, alphas=ALPHAS, pixel_width=192, pixel_height=108, beats=("print",))
    assert seen
    for time, faults in seen:
        assert not faults, (time, faults)


def test_at_most_one_highlight_at_a_time() -> None:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", {}, environ={})
    seen: list[tuple[str, int, float, int]] = []

    def look(scene: Any, moment: Any) -> None:
        marks = _visible_marks(scene)
        seen.append((moment.beat.name, moment.step, moment.alpha, len(marks)))

    play_moments(board, look, alphas=ALPHAS, pixel_width=192, pixel_height=108)
    assert {"print", "grad-fn"} <= {beat for beat, *_ in seen}
    # The probe sees the marks: some moment shows one.
    assert any(count == 1 for *_, count in seen)
    crowded = [moment for moment in seen if moment[-1] > 1]
    assert not crowded, crowded
