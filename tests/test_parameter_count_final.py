"""ParameterCount's final frame: its numbers read as large as its captions.

A teacher's 720p review of ParameterCount (default options, issue 18, lecture-hall
frames) found the final frame dense small type: the copy's size ("768 values
copied, 3,072 bytes") stood at 17 px beside 21 px captions. Now every number set
as data in the final frame (E's, the count's, the tables', the copy's) is at least
as large as the captions' digits where the layout reaches that size (GPT-2's,
both themes); the numbers set as labels by the type scale (row numbers, the
chip's ID, E's sizes, ``E[3]``'s index) keep the label size, and no number is
under the type scale's minimum.

A later 720p review found the final frame dense, E a thumbnail (19 px numbers) beside
the memory and widths tables. Now the tables leave as the lookup starts, the count's
line and a one-line memory summary staying (tests/test_parameter_count_hold.py), and E
and its copied row come forward: their numbers too are as large as the captions'.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard

CASES: dict[str, dict[str, Any]] = {"default": {}, "light": {"theme": "light"}}
# Numbers set as labels by the type scale, not as data.
LABEL_KINDS = ("row_label", "token_id", "lookup_row", "block_size")
# The tables' numbers, which leave as the lookup starts.
TABLE_KINDS = ("dtype_bytes", "dtype_total", "compare_dim", "compare_count", "compare_memory")


@functools.cache
def _final_numbers(case: str) -> dict[str, list[float]]:
    """Return the numbers drawn at the scene's end, by cell kind: their digit slots in 720p px."""
    from manim import config

    from embedviz.render.moments import play_moments

    board = prepared_storyboard("ParameterCount", CASES[case], environ={})
    last = board.beats[-1].name
    found: dict[str, list[float]] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name != last or moment.alpha != 1.0:
            return
        px = 720 / float(config.frame_height)
        for top in scene.mobjects:
            for m in top.get_family():
                cell = getattr(m, "cell", None)
                if cell is None or not hasattr(m, "slot_corners") or m.get_fill_opacity() < 0.5:
                    continue
                low, high = m.slot_corners()
                found.setdefault(cell.kind, []).append(float(high[1] - low[1]) * px)

    play_moments(board, read, alphas=())
    return found


@pytest.mark.parametrize("case", ["default", "light"])
def test_the_final_frames_numbers_are_as_large_as_the_captions(case: str) -> None:
    from embedviz.render.design import CAPTION_FONT, MIN_TEXT_PX, px_for_font

    numbers = _final_numbers(case)
    assert not set(TABLE_KINDS) & set(numbers), sorted(numbers)
    data = {k: v for k, v in numbers.items() if k not in LABEL_KINDS}
    # What the final frame shows as data: E, its copy, the count, the memory, the copy's size.
    for kind in ("corner", "lookup_value", "param_count", "dtype_memory", "row_values"):
        assert kind in data, (kind, sorted(numbers))
    caption = px_for_font(CAPTION_FONT)
    small = {k: min(v) for k, v in data.items() if min(v) < caption - 0.05}
    assert not small, (small, caption)
    assert min(min(v) for v in numbers.values()) >= MIN_TEXT_PX
