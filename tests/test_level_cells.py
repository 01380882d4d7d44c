"""A strip sliding level out of E into its output row carries its numbers out cell by cell.

A 720p review (PositionBlindness ``lookup``, 9.3 to 9.6 s): the output block
had glided down so the first strip slid level from E's row 2 straight into
output row 0, the corridor between E and the block narrower than a strip. The
moving strip was an empty amber box: its numbers faded in only once it was
wholly out of the matrix, by then inside output row 0, so the copy looked made
at the destination rather than carried. GPT-2's SequenceLookup ``lookup-0``
(the level place) did the same. Level with its own rows, each number may show
as soon as its own cell is clear of the matrix's edge.

Each case's first lookup carry is swept finely (its own interpolation at many
points of its run, read back as drawn) and checked:

- at some point, level with its source row, partly still behind the matrix
  and not yet wholly over the output block's columns, the numbers well clear
  of E's body (by half a cell) show (opacity over 0.5);
- no number ever shows (opacity over 0.1) over E's body, nor over the output
  block's columns level with any output row but its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

SHOWN = 0.5
HIDDEN = 0.1
SWEEP = 400
GPT2 = {"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768}
# Scene, overrides, the beat whose first carry slides level into its output row.
CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    "positions": ("PositionBlindness", {}, "lookup"),
    "gpt2-lookup-0": ("SequenceLookup", GPT2, "lookup-0"),
}


def _boxes(mobjects: list[Any]) -> list[tuple[float, float, float, float]]:
    """Return each mobject's box (left, bottom, right, top)."""
    return [
        (
            float(m.get_left()[0]),
            float(m.get_bottom()[1]),
            float(m.get_right()[0]),
            float(m.get_top()[1]),
        )
        for m in mobjects
    ]


def _sweep(carry: Any, original: Any) -> tuple[list[str], list[str]]:
    """Sweep ``carry``; return (the points where it slides out carrying its numbers, faults)."""
    grid = carry.grid
    e_left, e_right = grid.body_left(), grid.body_right()
    e_bottom, e_top = float(grid.body.get_bottom()[1]), float(grid.body.get_top()[1])
    output = carry.scene_ref.stage.motion.output.grid
    block = (output.body_left(), output.body_right())
    row_h = carry.source_box[3] - carry.source_box[1]
    source = (carry.source_box[1] + carry.source_box[3]) / 2
    target = float(np.mean([t.get_center()[1] for t in carry.targets]))
    others = [float(output.row_y(r)) for r in output.get_rows()]
    others = [y for y in others if abs(y - target) > 1e-3]
    carried, faults = [], []
    for alpha in np.linspace(0.0, 1.0, SWEEP + 1):
        original(carry, float(alpha))
        texts = list(carry.strip[1].submobjects)
        opacity = [float(t.get_fill_opacity()) for t in texts]
        boxes = _boxes(texts)
        left = carry.source_box[0] + float(carry.moved[0])
        right = carry.source_box[2] + float(carry.moved[0])
        centre = float(np.mean([(b[1] + b[3]) / 2 for b in boxes]))
        for shown, (x0, y0, x1, y1) in zip(opacity, boxes, strict=True):
            if shown <= HIDDEN:
                continue
            if x0 < e_right and x1 > e_left and y0 < e_top and y1 > e_bottom:
                faults.append(f"a{alpha:.3f}: a number over E's body")
            over = x1 > block[0] and x0 < block[1]
            if over and any(min(y1, y + row_h / 2) - max(y0, y - row_h / 2) > 0 for y in others):
                faults.append(f"a{alpha:.3f}: a number over another output row")
        level = abs(centre - source) < row_h / 3
        partly = left < e_right < right and left < block[0]
        # Those well clear of E: past its edge by half a cell (its padding and the air).
        cell = (right - left) / (len(texts) + len(carry.strip[2].submobjects))
        clear = [o for o, b in zip(opacity, boxes, strict=True) if b[0] > e_right + cell / 2]
        if level and partly and clear and min(clear) > SHOWN:
            carried.append(f"a{alpha:.3f}: {len(clear)} of {len(texts)} shown")
    return carried, faults


def _first_carry(case: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    from embedviz.render.parts.strip import Carry

    scene, overrides, beat = CASES[case]
    original = Carry.interpolate_mobject
    found: list[tuple[list[str], list[str]]] = []
    now = [""]

    def record(carry: Carry, alpha: float) -> None:
        built = len(carry.strip.submobjects) > 1 and carry.scene_ref is not None
        if now[0] == beat and built and not found:
            found.append(_sweep(carry, original))
        original(carry, alpha)

    def on(_: Any, moment: Any) -> None:
        now[0] = moment.beat.name

    monkeypatch.setattr(Carry, "interpolate_mobject", record)
    board = prepared_storyboard(scene, overrides, environ={})
    names = [b.name for b in board.beats]
    assert beat in names, names
    # The beat before it too, so that the beat's name is known as its first carry moves.
    before = names[names.index(beat) - 1]
    play_moments(
        board, on, alphas=(0.02, 0.5), pixel_width=192, pixel_height=108, beats={before, beat}
    )
    assert found, f"no carry seen in {beat}"
    return found[0]


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_level_strip_carries_its_numbers_out_of_e(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    carried, faults = _first_carry(case, monkeypatch)
    assert not faults, faults[:6]
    assert carried, "the strip slid out of E level with its row as an empty box"
