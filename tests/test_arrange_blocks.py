"""PositionBlindness ``arrange``: the empty blocks come in without an edge through a text.

A 720p review of mid-motion frames (learned positions, 24.6 s): P's empty
block faded in at its final place while the rows were still travelling to
theirs, and its left edge ran through the row numbers 0-3 beside the token
chips. The blocks now ride with the rows as they fade in.

At many moments of the beat, no text on screen (numbers, chips, labels) lies
partly inside and partly outside P's block or the sums' block once that block
shows at all: it is wholly in it or wholly clear of it.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import box_of

from embedviz.inputs import prepared_storyboard
from embedviz.render.base import screen_texts
from embedviz.render.moments import MomentScene, play_moments


def _shown(mobject: Any) -> bool:
    return any(
        m.get_stroke_width() > 0 and float(m.get_stroke_opacity()) >= 0.05
        for m in mobject.get_family()
        if len(m.points)
    )


def _straddling(scene: MomentScene) -> list[str]:
    """Return a line for every text that a shown empty block's edge runs through."""
    blocks = scene.stage.blocks
    numbers, labels, texts = screen_texts(scene)
    found = []
    for name, grid in (("P", blocks.pe_grid), ("sum", blocks.sum_grid)):
        if grid not in scene.mobjects and not any(
            grid in top.get_family() for top in scene.mobjects
        ):
            continue
        if not _shown(grid):
            continue
        (left, bottom), (right, top) = box_of(grid)
        for text in [*numbers, *labels, *texts]:
            if float(text.get_fill_opacity()) < 0.1:
                continue  # gone, or all but gone
            (t_left, t_bottom), (t_right, t_top) = box_of(text)
            meets = t_left < right and t_right > left and t_bottom < top and t_top > bottom
            inside = t_left >= left and t_right <= right and t_bottom >= bottom and t_top <= top
            if meets and not inside:
                found.append(f"{name}'s edge through {getattr(text, 'text', text)!r}")
    return found


@pytest.mark.parametrize("positions", ["sinusoidal", "learned"])
def test_the_empty_blocks_cross_no_text_as_they_come(positions: str) -> None:
    board = prepared_storyboard("PositionBlindness", {"positions": positions}, environ={})
    problems: list[str] = []
    sampled = [0]

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.beat.name != "arrange":
            return
        sampled[0] += 1
        where = f"step {moment.step} a{moment.alpha:.2f}"
        problems.extend(f"{where}: {line}" for line in _straddling(scene))

    alphas = tuple(round(0.05 * k, 2) for k in range(1, 21))
    # Only the arrange beat is read: the other beats play unsampled (tests/test_moment_beats.py).
    play_moments(board, read, alphas=alphas, pixel_width=192, pixel_height=108, beats={"arrange"})
    assert sampled[0] >= 20
    assert problems == [], "\n".join(problems)
