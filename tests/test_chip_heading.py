"""A chip's heading (``token IDs``, ``token ID``) labels the chip, or is not shown (issue 18).

A 720p frame review (zero, tiles 3-7 and 9-16; onehot, tiles 13-14) found the
heading left behind alone: under the chip, a row's pitch away, or far from it
while the chip stood at E's row 3. Each scene is dry-run, sampled mid-motion and
at beat ends: whenever the heading is drawn (more than half opaque), the chip
stands right under it, at most :data:`NEAR_PX` (720p) below the heading's ink,
and overlapping it sideways. Where the chip has become a row's tag with a row
over it (OneHot's lookup row, from ``compare`` on), the heading may stand right
under the chip instead, as close.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import box_of

from embedviz.inputs import prepared_storyboard

# A heading over its item: at most this much air between them (720p pixels); the
# one-hot chip waits 23 px under its heading, a row's pitch is 45 px or more.
NEAR_PX = 30.0
_ALPHAS = (0.1, 0.3, 0.5, 0.7, 0.9)


def _shown(scene: Any, mobject: Any) -> bool:
    """Whether ``mobject`` is on the scene and drawn more than half opaque."""
    on_scene = {id(m) for top in scene.mobjects for m in top.get_family()}
    if id(mobject) not in on_scene:
        return False
    inked = [m for m in mobject.family_members_with_points()]
    return bool(inked) and max(float(m.get_fill_opacity()) for m in inked) > 0.5


def _parts(scene: Any) -> tuple[Any, Any]:
    stage = scene.stage
    if hasattr(stage, "chips_heading"):
        return stage.chips_heading, stage.motion.chip
    return stage.compare.heading, stage.compare.chip


@pytest.mark.parametrize(
    ("scene_name", "overrides"),
    [("zero", {}), ("zero", {"theme": "light"}), ("onehot", {})],
    ids=["zero", "zero-light", "onehot"],
)
def test_the_chips_heading_stands_over_its_chip_whenever_it_shows(
    scene_name: str, overrides: dict[str, Any]
) -> None:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard(scene_name, overrides, environ={})
    alone: list[str] = []
    checked: list[str] = []

    def read(scene: Any, moment: Any) -> None:
        heading, chip = _parts(scene)
        if not _shown(scene, heading):
            return
        when = f"{moment.beat.name} step {moment.step} at {moment.alpha}"
        checked.append(when)
        (h_left, h_bottom), (h_right, h_top) = box_of(heading)
        (c_left, c_bottom), (c_right, c_top) = box_of(chip)
        # 720p pixels: the frame is 8 units high.
        gap_px = (h_bottom - c_top) * 720 / 8.0
        under_px = (c_bottom - h_top) * 720 / 8.0
        beside = c_left < h_right and c_right > h_left
        near = -1.0 <= gap_px <= NEAR_PX or -1.0 <= under_px <= NEAR_PX
        if not (beside and near):
            alone.append(
                f"{when}: chip {gap_px:.0f} px under (heading {under_px:.0f} px under the chip),"
                f" overlapping sideways: {beside}"
            )

    play_moments(board, read, alphas=_ALPHAS, pixel_width=192, pixel_height=108)
    assert checked, "the heading never showed: nothing was checked"
    assert not alone, "\n".join(np.unique(alone))
