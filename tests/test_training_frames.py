"""TrainingNudge as a 720p frame review saw it at GPT-2 size: what stands where.

Each test reads geometry from the mobjects of a built stage (as
``test_training.py``'s last tests do); ``test_training.py`` holds the arithmetic
and the storyboard.
"""

from __future__ import annotations

from typing import Any

import pytest
from manim import Animation, Circumscribe

GPT2 = {"vocab": 50257, "dim": 768}
CASES = [{}, GPT2, {**GPT2, "ids": "4821,12000,4821,33000,17"}]
IDS = ["default", "gpt2", "gpt2-five"]


def _stage(overrides: dict[str, Any]) -> Any:
    from conftest import RecordingHost

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.stages.training_nudge import TrainingStage
    from embedviz.render.theme import DARK

    board = prepared_storyboard("TrainingNudge", overrides, environ={})
    return TrainingStage(RecordingHost(), board, DARK)


def _circumscribes(animation: Animation) -> list[Any]:
    """Every passing outline in an animation tree."""
    if isinstance(animation, Circumscribe):
        return [animation]
    found = []
    for child in getattr(animation, "animations", []):
        found += _circumscribes(child)
    return found


def _box(mobject: Any) -> tuple[float, float, float, float]:
    return (
        float(mobject.get_left()[0]),
        float(mobject.get_bottom()[1]),
        float(mobject.get_right()[0]),
        float(mobject.get_top()[1]),
    )


@pytest.mark.parametrize("overrides", CASES, ids=IDS)
def test_the_zero_rows_outlines_cross_no_number(overrides: dict[str, Any]) -> None:
    """A 720p review (``unchanged`` mid, GPT-2 size): the passing outline round the zero
    rows (0 and 50256) was one rectangle round both, and its side crossed the nudged rows'
    1.3000, 0.8000 and 0.0000 between them. Every outline goes round whole numbers only:
    each of the gradient's numbers is inside an outline (with its ink) or clear of it."""
    stage = _stage(overrides)
    gradient = stage.gradient
    beat = next(b for b in stage.board.beats if b.name == "unchanged")
    rings = [c.animations[0].mobject for c in _circumscribes(gradient.beat_unchanged(beat))]
    assert rings, "the zero rows are pointed at"
    numbers = [n for row in gradient.rows.numbers.values() for n in row]
    zero = {id(n) for row in gradient.zero_rows for n in gradient.rows.numbers[(row,)]}
    inside_some = set()
    for ring in rings:
        half = ring.get_stroke_width() / 200
        left, bottom, right, top = _box(ring)
        for number in numbers:
            n_left, n_bottom, n_right, n_top = _box(number)
            inside = (
                n_left > left + half
                and n_right < right - half
                and n_bottom > bottom + half
                and n_top < top - half
            )
            outside = (
                n_right < left - half
                or n_left > right + half
                or n_top < bottom - half
                or n_bottom > top + half
            )
            assert inside or outside, (number.cell.index, number.text)
            if inside:
                inside_some.add(id(number))
                assert id(number) in zero, ("a nudged row is ringed", number.cell.index)
    assert inside_some == zero
