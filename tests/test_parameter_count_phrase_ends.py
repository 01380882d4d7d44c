"""ParameterCount's frames at its phrase ends, not only at its beats' ends (issue 18).

A teacher may stop the video at any moment; between two phrases of a beat the frame
holds still, sometimes for seconds. A dry run found the beats' ends filled (12 % at
most) while their phrase ends stood emptier: 29.2 % at the compare beat's first phrase
end (37.6 s: the widths d, nothing under "parameters" and "float32 memory"), 31.9 %
and 16.2 % at the lookup's first two (44.7 s and 45.6 s: the panel right of E empty
under the memory summary), 15.8 % at the count's first (11.3 s: the room left for the
count under E's column).

At every step's end of a beat told in more than one phrase (a step ends its phrase:
tests/test_phrase_steps.py), the largest empty rectangle between the title and the
caption, counting a framed box with nothing in it as empty
(``frame_emptiness(hollow=True)``), is at most :data:`frame_space.EIGHTH` of the frame.

A small table's count is told in one phrase; it played in two steps all the same (the
entries pointed at, then the count built), and the first step ended with the panel
under E's sizes empty, 19.6 % of the frame (toy, 10.3 s). Every step end of every
beat is checked for it, the beats told in one phrase too.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from frame_space import EIGHTH

from embedviz.inputs import prepared_storyboard

# The cases tests/test_parameter_count_frames.py reads: GPT-2 (both themes), a
# 4.2-billion-parameter table looking up its last row, and a table small enough to show whole.
CASES = {
    "gpt2": {},
    "gpt2-light": {"theme": "light"},
    "huge-last-row": {"dim": 16384, "ids": "255999", "vocab": 256000},
    "toy": {"dim": 3, "vocab": 6},
}


@cache
def _phrase_ends(case: str, every: bool = False) -> tuple[tuple[str, int, float, float], ...]:
    """Dry-run ParameterCount; return (beat, step, time, empty share) at each step's end."""
    from manim import config

    from embedviz.render.moments import frame_emptiness, play_moments

    board = prepared_storyboard("ParameterCount", CASES[case], environ={})
    told = {beat.name for beat in board.all_beats() if every or len(beat.phrases) > 1}
    frame = float(config.frame_width * config.frame_height)
    ends: list[tuple[str, int, float, float]] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha == 1.0 and scene.caption is not None:
            empty = frame_emptiness(scene, hollow=True).area / frame
            ends.append((moment.beat.name, moment.step, round(moment.time, 2), round(empty, 3)))

    play_moments(board, read, alphas=(1.0,), pixel_width=192, pixel_height=108, beats=told)
    return tuple(ends)


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_phrase_ends_with_an_eighth_of_the_frame_empty(case: str) -> None:
    ends = _phrase_ends(case)
    # Each beat told in several phrases: count, float32, bfloat16, compare and lookup.
    assert {"compare", "lookup"} <= {beat for beat, *_ in ends}, ends
    emptiest = max(ends, key=lambda end: end[3])
    assert emptiest[3] <= EIGHTH, (emptiest, ends)


def test_no_step_of_a_small_tables_beats_ends_with_an_eighth_of_the_frame_empty() -> None:
    ends = _phrase_ends("toy", every=True)
    assert {"table", "count", "lookup"} <= {beat for beat, *_ in ends}, ends
    emptiest = max(ends, key=lambda end: end[3])
    assert emptiest[3] <= EIGHTH, (emptiest, ends)
