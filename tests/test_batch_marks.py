"""BatchLookup at 720p: the equality marks' lines, the slices' labels, the title band.

Issue 18's frame review of the batch (labels readable and not colliding,
marks unambiguous) measured, at the last beat's end:

- two marks' lines crossed with no dot (``out[1,2] = out[0,1]``'s run through
  ``out[1,3] = out[0,0]``'s lane), which read as joined; and that lane ran 11 px
  from E's border for 300 px, so it read as part of E.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard

PX = 720 / 8
GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
CASES = [{}, {"theme": "light"}, GPT2]


def _end(overrides: dict[str, Any]) -> dict[str, Any]:
    """Play the scene dry; return the stage and what is on screen at the last beat's end."""
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("BatchLookup", overrides, environ={})
    seen: dict[str, Any] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha == 1.0:
            family = {id(m) for top in scene.mobjects for m in top.get_family()}
            seen.update(stage=scene.stage, scene=scene, shown=family)

    play_moments(board, read, alphas=())
    return seen


def _runs(line: Any) -> list[np.ndarray]:
    """Return a line's straight runs as boxes ((left, bottom), (right, top))."""
    curves = line.points.reshape(-1, 4, 3)[:, :, :2]
    return [np.array([c[[0, 3]].min(axis=0), c[[0, 3]].max(axis=0)]) for c in curves]


def _apart(a: np.ndarray, b: np.ndarray) -> float:
    """Return the distance between two boxes; 0 where they meet."""
    gap = np.maximum(0.0, np.maximum(a[0] - b[1], b[0] - a[1]))
    return float(np.hypot(*gap))


@pytest.mark.parametrize("overrides", CASES)
def test_no_marks_line_touches_another_marks_line(overrides: dict[str, Any]) -> None:
    """The lines of two marks never meet: where one's run must cross the other's lane (their
    row pairs nest), the lane stops short of it on each side (at 720p, at least 4 px of
    clear ground between the two lines' ink)."""
    stage = _end(overrides)["stage"]
    stack = stage.stack
    links, firsts = list(stack.links), list(stack.firsts)
    assert len(links) >= 2
    lines = [_runs(link) + _runs(branch[0]) for link, branch in zip(links, firsts, strict=True)]
    firsts_at = [round(float(branch[0].get_end()[1]), 6) for branch in firsts]
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            if firsts_at[i] == firsts_at[j]:
                continue  # One first copy: their runs into it are one run, a joint.
            half = float(links[i].get_stroke_width()) / 100
            near = min(_apart(a, b) for a in lines[i] for b in lines[j]) - half
            assert near * PX >= 4, (i, j, near * PX)


@pytest.mark.parametrize("overrides", CASES)
def test_a_lane_beside_e_keeps_clear_of_it(overrides: dict[str, Any]) -> None:
    """Every upright of a mark's lines that stands beside E keeps at least 16 px (1.5 SPACE)
    of clear ground from E's border at 720p (it stood 11 px off it for 300 px)."""
    from conftest import box_of

    stage = _end(overrides)["stage"]
    table = box_of(stage.matrix.grid)
    lines = [*stage.stack.links, *(branch[0] for branch in stage.stack.firsts)]
    uprights = [r for line in lines for r in _runs(line) if r[1][1] - r[0][1] > 1e-6]
    beside = [r for r in uprights if r[0][1] < table[1][1] and r[1][1] > table[0][1]]
    assert beside
    half = float(lines[0].get_stroke_width()) / 200
    near = min(float(r[0][0]) - float(table[1][0]) for r in beside) - half
    assert near * PX >= 16 - 0.5, near * PX
