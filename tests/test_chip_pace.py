"""At teaching pace, an ID's chip moves no faster than the eye follows from the back of a room.

A beat's steps share its animation time, so a lookup inside a short beat
played its chip's walk in whatever share it got: SequenceLookup's second ID
crossed the frame (6 scene units) in a quarter of a second, and then the
frame held still for four. A chip at teaching pace (a ``lookup`` beat, one
ID) now gets the time its path needs, taken from the hold after it, and the
phrase that fetches the first rows lasts long enough to give it.

Each ``lookup`` beat is dry-run and sampled finely (every fortieth of it, in the
scene's play that tests/carry_plays.py shares); between two samples of
one step a chip may move at most :data:`LIMIT` frame widths a second (on
average over the interval, which is never more than the peak). The limit is
written here, not read from the code under test: three quarters of the frame
a second, about 20 degrees a second from the back of a lecture hall.
"""

from __future__ import annotations

from typing import Any

import pytest
from carry_plays import GPT2

# Frame widths a second (three quarters of the frame), with a fifth more for a beat
# that squeezes its steps a little and a pace that starts steeper than ``smooth``.
LIMIT = 0.75 * 1.2
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "sequence": ("SequenceLookup", {}),
    "batch": ("BatchLookup", {}),
    "single": ("SingleTokenLookup", {}),
    "large": ("LargeVocabLookup", {}),
    "gpt2": ("SequenceLookup", GPT2),
}


def _fastest(case: str, carry_play_cache: Any) -> dict[str, tuple[float, str]]:
    """Return, by lookup beat, the fastest a chip moved between two samples, and where.

    Read in the scene's shared play (tests/carry_plays.py, every fortieth of every
    beat) by tests/chip_watch.py's PaceWatch, which reads the ``lookup`` beats only.
    """
    played = carry_play_cache(*CASES[case])
    assert played.pace_sampled > 0, "no lookup beat was sampled: the check would pass vacuously"
    return dict(played.pace)


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


@pytest.mark.slow
@pytest.mark.parametrize(("case", "beat"), BEATS)
def test_a_chip_at_teaching_pace_moves_slowly_enough_to_follow(
    case: str, beat: str, carry_play_cache: Any
) -> None:
    fastest = _fastest(case, carry_play_cache)
    assert beat in fastest, f"{beat} was not sampled (beats: {sorted(fastest)})"
    speed, where = fastest[beat]
    assert speed > 0.05, "no chip moved in the beat: the sampling saw nothing"
    assert speed <= LIMIT, f"a chip moved {speed:.2f} frame widths a second ({where})"
