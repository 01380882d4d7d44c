"""At teaching pace, an ID's chip moves no faster than the eye follows from the back of a room.

A beat's steps share its animation time, so a lookup inside a short beat
played its chip's walk in whatever share it got: SequenceLookup's second ID
crossed the frame (6 scene units) in a quarter of a second, and then the
frame held still for four. A chip at teaching pace (a ``lookup`` beat, one
ID) now gets the time its path needs, taken from the hold after it, and the
phrase that fetches the first rows lasts long enough to give it.

Each ``lookup`` beat is dry-run and sampled finely; between two samples of
one step a chip may move at most :data:`LIMIT` frame widths a second (on
average over the interval, which is never more than the peak). The limit is
written here, not read from the code under test: three quarters of the frame
a second, about 20 degrees a second from the back of a lecture hall.
"""

from __future__ import annotations

import numpy as np
import pytest
from manim import config

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import Moment, MomentScene, play_moments

# Frame widths a second (three quarters of the frame), with a fifth more for a beat
# that squeezes its steps a little and a pace that starts steeper than ``smooth``.
LIMIT = 0.75 * 1.2
ALPHAS = tuple(k / 40 for k in range(1, 40))
CASES = {
    "sequence": ("SequenceLookup", {}),
    "batch": ("BatchLookup", {}),
    "single": ("SingleTokenLookup", {}),
    "large": ("LargeVocabLookup", {}),
    "gpt2": ("SequenceLookup", {"vocab": 50257, "dim": 768, "ids": "4821,0,50256"}),
}


def _fastest(scene: str, overrides: dict[str, object]) -> dict[str, tuple[float, str]]:
    """Return, by lookup beat, the fastest a chip moved between two samples, and where."""
    board = prepared_storyboard(scene, overrides, environ={})
    last: dict[int, tuple[str, int, float, np.ndarray]] = {}
    fastest: dict[str, tuple[float, str]] = {}
    sampled = [0]

    def read(played: MomentScene, moment: Moment) -> None:
        if moment.beat.action != "lookup" or moment.alpha >= 1.0:
            return
        sampled[0] += 1
        for index, chip in enumerate(played.stage.chips.chips):
            here = np.array(chip.get_center()[:2], dtype=float)
            before = last.get(index)
            last[index] = (moment.beat.name, moment.step, moment.time, here)
            if before is None or before[:2] != (moment.beat.name, moment.step):
                continue
            seconds = moment.time - before[2]
            if seconds <= 1e-6:
                continue
            speed = float(np.linalg.norm(here - before[3])) / seconds / config.frame_width
            if speed > fastest.get(moment.beat.name, (0.0, ""))[0]:
                where = f"{moment.beat.name} step {moment.step} at {moment.time:.2f} s"
                fastest[moment.beat.name] = (speed, where)

    # Only the lookup beats are read: the other beats play unsampled.
    lookups = {beat.name for beat in board.beats if beat.action == "lookup"}
    play_moments(board, read, alphas=ALPHAS, beats=lookups)
    assert sampled[0] > 0, "no lookup beat was sampled: the check would pass vacuously"
    return fastest


BEATS = [
    ("sequence", "lookup-0"),
    ("sequence", "lookup-1"),
    ("gpt2", "lookup-0"),
    ("gpt2", "lookup-1"),
    ("batch", "lookup-0-0"),
    ("batch", "lookup-0-1"),
    ("single", "lookup"),
    ("large", "lookup"),
]
_SEEN: dict[str, dict[str, tuple[float, str]]] = {}


@pytest.mark.slow
@pytest.mark.parametrize(("case", "beat"), BEATS)
def test_a_chip_at_teaching_pace_moves_slowly_enough_to_follow(case: str, beat: str) -> None:
    if case not in _SEEN:
        _SEEN[case] = _fastest(*CASES[case])
    assert beat in _SEEN[case], f"{beat} was not sampled (beats: {sorted(_SEEN[case])})"
    speed, where = _SEEN[case][beat]
    assert speed > 0.05, "no chip moved in the beat: the sampling saw nothing"
    assert speed <= LIMIT, f"a chip moved {speed:.2f} frame widths a second ({where})"
