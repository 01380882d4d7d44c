"""LargeVocabLookup's count of parameters never stands on the line of an output row.

A 720p review: beside the raised output block, the "V × d = 38,597,376
parameters" label stood level with output row 1, its baseline on the row's
bottom edge; the copy that lands there came in from the left right beside
it, its frame running on along the label's baseline, and the two read as one
line (``V × d = 38,597,376 parameters -0.1044 … 0.2963``).

At every sampled moment the label is drawn, its ink stands clear, up and
down, of every travelling copy's box and of the output block's rows (with
the reach of a row's outline past them) by at least half a
:data:`~embedviz.render.design.SPACE`: any closer, an edge runs on along
its baseline or top.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import box_of

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import OUTLINE_REACH, SPACE
from embedviz.render.moments import MomentScene, play_moments

CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "light": {"theme": "light"},
    # Three IDs: the block stands low, under the label's line (it must stay where it is).
    "three": {"ids": "4821,0,50256"},
}
ALPHAS = tuple(k / 20 for k in range(1, 20))
CLEAR = SPACE / 2


def _band(mobject: Any) -> tuple[float, float]:
    """Return a mobject's (bottom, top)."""
    (_, bottom), (_, top) = box_of(mobject)
    return float(bottom), float(top)


def _gap(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Return how far apart two vertical bands are (negative: they overlap)."""
    return max(a[0] - b[1], b[0] - a[1])


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_the_count_of_parameters_stands_off_every_output_rows_line(case: str) -> None:
    board = prepared_storyboard("LargeVocabLookup", CASES[case], environ={})
    seen = [0]
    close: list[str] = []

    def read(scene: MomentScene, moment: Any) -> None:
        stage: Any = scene.stage
        count = stage.matrix.count
        shown = {id(m) for top in scene.mobjects for m in top.get_family()}
        if count is None or not any(id(m) in shown for m in count.get_family()):
            return
        if max(float(m.get_fill_opacity()) for m in count.get_family()[1:]) < 0.5:
            return
        seen[0] += 1
        label = _band(count)
        bottom, top = _band(stage.output.grid.body)
        things = [("the output rows", (bottom - OUTLINE_REACH, top + OUTLINE_REACH))]
        for mobject in scene.mobjects:
            strip = getattr(mobject, "row_strip", False) and len(mobject.submobjects)
            if strip and mobject[0].get_num_points() and mobject[0].get_stroke_opacity() > 0:
                things.append((f"row {mobject.source_row}'s copy", _band(mobject[0])))
        for what, band in things:
            if _gap(label, band) < CLEAR - 1e-6:
                close.append(
                    f"{moment.beat.name} s{moment.step} a{moment.alpha:.2f}: {what} "
                    f"{band[0]:.3f}..{band[1]:.3f}, the label {label[0]:.3f}..{label[1]:.3f}"
                )

    play_moments(board, read, alphas=ALPHAS, pixel_width=1280, pixel_height=720)
    assert seen[0] > 0, "the label was never sampled: the check would pass vacuously"
    assert not close, "the label stands on an output row's line:\n" + "\n".join(close[:20])
