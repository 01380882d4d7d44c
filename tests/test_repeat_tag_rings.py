"""BatchLookup's repeats beat rings each repeated ID's tag (a 720p review, session 29).

The beat pointed at a repeated ID's chips with two upright lines passing as a
flash beside each chip, as tall as it: a teacher's review at 720p saw only 2-3 px
violet slivers either side of the chips, which on a projector look like glitches.
A deliberate mark rings the chip: at its height (mid-way through the pointing
step) each repeated chip stands inside a highlight outline at least as heavy as
a row outline, with clear ground between its ink and the chip on every side, and
drawn in front of the chips (never hidden behind one).
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from conftest import box_of
from manim import VMobject

from embedviz.inputs import prepared_storyboard
from embedviz.render.parts.grid import CellGrid

PX = 720 / 8
GPT2 = {"ids": [[4821, 0, 50256, 17], [33000, 2, 4821, 0]], "vocab": 50257, "dim": 768}
# Clear ground between a ring's ink and its chip, on every side (pixels at 720p).
CLEAR_PX = 2.0


def _peak(overrides: dict[str, Any]) -> dict[str, Any]:
    """Play the scene dry and read what is drawn mid-way through the repeats beat's first step.

    The highlight's inks and the chips are read as they stand then (a ring fades on after).
    """
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("BatchLookup", overrides, environ={})
    seen: dict[str, Any] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.step == 0 and moment.alpha == 0.5 and not seen:
            drawn = [m for top in scene.mobjects for m in top.get_family()]
            colour = str(scene.stage.theme.highlight).upper()
            inks = [
                (i, box_of(m), float(m.get_stroke_width()))
                for i, m in enumerate(drawn)
                if isinstance(m, VMobject)
                and len(m.points)
                and m.get_stroke_opacity() > 0.9
                and str(m.get_stroke_color()).upper() == colour
            ]
            stage = scene.stage
            chips = {
                p: (box_of(c), max(order[id(m)] for m in c.get_family()))
                for order in [{id(m): i for i, m in enumerate(drawn)}]
                for p, c in zip(stage.stack.positions, stage.chips.chips, strict=True)
            }
            seen.update(stage=stage, chips=chips, inks=inks)

    play_moments(board, read, alphas=(0.5,), beats={"repeats"})
    return seen


@pytest.mark.parametrize("overrides", [{}, {"theme": "light"}, GPT2], ids=["toy", "light", "gpt2"])
def test_repeated_tags_are_ringed_clear_and_in_front(overrides: dict[str, Any]) -> None:
    seen = _peak(overrides)
    stage, chips = seen["stage"], seen["chips"]
    ids = {i: c.value for (k, i), c in stage.cells.items() if k == "token_id"}
    counts: dict[Any, int] = {}
    for value in ids.values():
        counts[value] = counts.get(value, 0) + 1
    repeated = [p for p in chips if counts[ids[p]] > 1]
    assert repeated, "the case has a repeated ID"
    heavy = inspect.signature(CellGrid.row_outline).parameters["width"].default
    for position in repeated:
        ((left, bottom), (right, top)), chip_index = chips[position]
        rings = []
        for index, ((l2, b2), (r2, t2)), width in seen["inks"]:
            clear = min(left - l2, bottom - b2, r2 - right, t2 - top) - width / 200
            rings.append((clear, index, width))
        assert rings, f"nothing in the highlight points at the tag of {position}"
        clear, index, width = max(rings)
        assert clear * PX >= CLEAR_PX, (
            f"tag {position}: the highlight's ink keeps {clear * PX:.1f} px from the chip "
            f"on its nearest side (want a ring {CLEAR_PX} px clear all round)"
        )
        assert width >= heavy, f"tag {position}: ring thinner than a row outline"
        assert index > chip_index, f"tag {position}: ring drawn behind its chip"
