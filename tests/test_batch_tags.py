"""BatchLookup: the chips that stay beside the output rows as their tags stand apart.

A 720p teacher's review of GPT-2's batch (issue 18) read the tags beside the
slices' rows (``4821``, ``0``, ``50256``, ``17``) as touching each other: at
their full height the chips stood 0.03 px apart, one amber bar. A chip is
now set short enough to keep ``TAG_AIR_PX`` (design) between its ink and
its neighbours' beside tight rows.

Read back from the stage's own mobjects at the end of every beat: any two
chips that stand in one column (their boxes overlap across) keep at least
:data:`TAG_AIR` of clear ground between their inks (the edge's stroke
counted), measured in 720p pixels.
"""

from __future__ import annotations

from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
# Clear ground between two tags' inks, in pixels at 720p: at 0.03 px (the old frames)
# neighbouring tags read as one bar.
TAG_AIR = 3.5


def _px_per_unit() -> float:
    from manim import config

    return float(config.pixel_height / config.frame_height)


def _closest_tags(overrides: dict[str, Any]) -> list[tuple[str, float]]:
    """Return, at each beat's end, the least ink gap (px) between two chips in one column."""
    board = prepared_storyboard("BatchLookup", overrides)
    found: list[tuple[str, float]] = []

    def grab(scene: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        per_px = _px_per_unit()
        shown = {id(m) for top in scene.mobjects for m in top.get_family()}
        boxes = []
        for chip in scene.stage.chips.chips:
            if id(chip) not in shown:
                continue
            ink = float(chip.box.get_stroke_width()) / 100 / 2
            low, high = chip.box.get_corner([-1, -1, 0]), chip.box.get_corner([1, 1, 0])
            boxes.append((low[0], high[0], low[1] - ink, high[1] + ink))
        gaps = [
            (max(a[2], b[2]) - min(a[3], b[3])) * per_px
            for n, a in enumerate(boxes)
            for b in boxes[n + 1 :]
            if min(a[1], b[1]) > max(a[0], b[0])
        ]
        found.append((moment.beat.name, min(gaps, default=float("inf"))))

    play_moments(board, grab, alphas=())
    return found


@pytest.mark.slow
@pytest.mark.parametrize("overrides", [GPT2, {}, {"theme": "light"}], ids=["gpt2", "toy", "light"])
def test_neighbouring_tags_keep_air_between_them(overrides: dict[str, Any]) -> None:
    found = _closest_tags(overrides)
    assert found, "no beat end was sampled"
    close = [f"{beat}: {gap:.1f} px" for beat, gap in found if gap < TAG_AIR]
    assert not close, f"tags closer than {TAG_AIR} px: " + ", ".join(close)
