"""The one-based slip's chip stands with what it fetched (issue 18, a 720p teacher review).

ZeroBasedIndexing's ``one-based`` beat: the chip counts rows from one, lands a
row early (row index 2 for ID 3), and that wrong row goes out into the slip,
crossed out. A 720p review (about 11.5-14.8 s) saw chip ``3`` walk home to the
tags' column level with row 3, beside nothing, while the wrong copy ``E[2]``
and its cross stood a row higher: a class could not follow the ID to what it
fetched.

From the moment the wrong copy has landed in the slip to the beat's end (mid
step via ``play_moments`` and at the beat's end), the chip stands level with
the copy (centres within half a row) and beside it: the gap between their
boxes is at most a chip's width (the chip may stand between E's row and its
copy, or dock at the copy's end). The bound is the design's (one ID leads to
one object at a glance), not the code's.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import box_of

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments


def _family_ids(scene: Any) -> set[int]:
    return {id(m) for top in scene.mobjects for m in top.get_family()}


def _apart(scene: Any) -> tuple[float, float, float, float]:
    """Return (horizontal gap, vertical offset, chip width, row height) of chip and wrong copy."""
    stage = scene.stage
    (cl, cb), (cr, ct) = box_of(stage.motion.chip)
    (vl, vb), (vr, vt) = box_of(stage.slip.vector.body)
    gap = max(vl - cr, cl - vr, 0.0)
    level = abs((cb + ct) / 2 - (vb + vt) / 2)
    return gap, level, cr - cl, stage.plan.sizes.row_height


@pytest.mark.parametrize("theme", [{}, {"theme": "light"}], ids=["zero", "zero-light"])
def test_the_zero_slips_chip_stands_beside_the_wrong_copy(theme: dict[str, str]) -> None:
    board = prepared_storyboard("zero", theme, environ={})
    read: list[str] = []
    far: list[str] = []

    def check(scene: Any, moment: Any) -> None:
        if moment.beat.name != "one-based" or scene.stage.slip.vector is None:
            return
        if id(scene.stage.slip.vector.body) not in _family_ids(scene):
            return  # the copy has not landed yet
        gap, level, width, row = _apart(scene)
        when = f"step {moment.step} at {moment.alpha}"
        read.append(when)
        if gap > width or level > row / 2:
            far.append(f"{when}: {gap:.3f} apart (chip {width:.3f}), {level:.3f} off level")

    play_moments(
        board,
        check,
        alphas=(0.6, 0.8, 0.95),
        pixel_width=192,
        pixel_height=108,
        beats={"one-based"},
    )
    assert any(w.endswith("at 1.0") for w in read), f"the beat's end was not read: {read}"
    assert len(read) > 1, f"no mid-beat moment with the copy landed: {read}"
    assert not far, "the chip stands away from what it fetched:\n" + "\n".join(far)
