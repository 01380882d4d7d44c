"""BatchLookup's title is never drawn smaller than its caption (teacher's review, s20).

At GPT-2's size the batch's title took a label's size from numbers at the
floor (18.2) while the caption stayed at 22: the frame's heading read as its
least text. Here the intro's end is drawn at 720p and the title's ink and
each caption line's ink are measured in the pixels, as the rows of the
frame's middle band that differ from the background: the title's line and
the caption's first line both reach from an ascender to a descender
("A batch of sequences ..." has b and q; "It has one row per vocabulary
entry" has h and y), so their heights compare their sizes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import frame_pixels, play_moments

# A row holds ink where some pixel differs this much from the background (of 255).
INK = 60


def _runs(pixels: np.ndarray) -> list[tuple[int, int]]:
    """The runs of rows with ink in the frame's middle columns: (first row, height)."""
    width = pixels.shape[1]
    middle = pixels[:, int(width * 0.3) : int(width * 0.7)].astype(int)
    ground = pixels[2, 2].astype(int)
    inked = (np.abs(middle - ground).max(axis=2) > INK).any(axis=1)
    runs: list[tuple[int, int]] = []
    start = None
    for row, ink in enumerate([*inked, False]):
        if ink and start is None:
            start = row
        elif not ink and start is not None:
            runs.append((start, row - start))
            start = None
    return runs


@pytest.mark.parametrize(
    "overrides",
    [{}, {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}],
    ids=["default", "gpt2"],
)
def test_the_title_is_not_smaller_than_the_caption(overrides: dict[str, Any]) -> None:
    board = prepared_storyboard("BatchLookup", overrides, environ={})
    found: dict[str, list[tuple[int, int]]] = {}

    def grab(scene: Any, moment: Any) -> None:
        if moment.alpha >= 1 and moment.beat.name == "intro":
            found["runs"] = _runs(frame_pixels(scene))

    play_moments(board, grab, alphas=())
    runs = found["runs"]
    title = runs[0]
    assert title[0] < 720 * 0.1, runs
    # The caption's lines: the runs in the bottom tenth and a half.
    caption = [run for run in runs if run[0] > 720 * 0.85]
    assert len(caption) == 2, runs
    assert title[1] >= caption[0][1], (title, caption)
