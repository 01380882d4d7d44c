"""LargeVocabLookup: at teaching pace a chip stops level with the row it looks up (issue 18).

A 720p review of mid-motion frames (the ``lookup`` beats at a quarter and half
of their fetch) saw the chip twice beside E's column numbers, not beside its
row, and read that as where it stopped: it turned back the instant it
reached its row, so no frame showed it waiting there.

Each case is dry-run and the walked lookups' fetch (the beats that look up
one highlighted ID) is sampled every 1/60 of its step. The chip is the one
whose ID cell is the highlighted position's; its row's height is read from
E's numbers in that row (the ``weight`` numbers whose row is the ID), drawn
on screen. The chip must stand still, level with them (2 px at 720p) and
right of them, for at least :data:`LEAST` seconds in a row.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

# Seconds a chip must wait beside its row: long enough to be seen, a third of a
# second more than a single frame's touch.
LEAST = 0.4
# Frame units per pixel at 720p (the frame is 8 units high).
PX = 8 / 720


def _waits(overrides: dict[str, Any]) -> dict[str, float]:
    """For each walked lookup beat: the longest time its chip stood still level with its row."""
    from embedviz.render.glyphs import NumberText
    from embedviz.render.parts.chips import Chip

    board = prepared_storyboard("LargeVocabLookup", overrides, environ={})
    samples: dict[str, list[tuple[float, float, float, bool]]] = {}

    def look(scene: Any, moment: Any) -> None:
        beat = moment.beat
        if beat.highlight is None or not beat.name.startswith("lookup") or moment.alpha >= 1:
            return
        position = beat.highlight.position
        family = [m for top in scene.mobjects for m in top.get_family()]
        chips = [m for m in family if isinstance(m, Chip) and m.number.cell.index == position]
        row = int(chips[0].number.cell.value)
        numbers = [
            m
            for m in family
            if isinstance(m, NumberText)
            and m.cell.kind == "weight"
            and m.cell.index[0] == row
            and not getattr(m, "row_strip", False)
            and float(m.get_fill_opacity()) > 0.5
        ]
        if not numbers:
            return
        chip = chips[0].get_center()
        row_y = sum(float(m.get_center()[1]) for m in numbers) / len(numbers)
        right = max(float(m.get_right()[0]) for m in numbers)
        beside = abs(float(chip[1]) - row_y) <= 2 * PX and float(chip[0]) > right
        samples.setdefault(beat.name, []).append(
            (moment.time, float(chip[0]), float(chip[1]), beside)
        )

    # Only the walked lookups are read (look): the others play unsampled
    # (tests/test_moment_beats.py).
    walked = {b.name for b in board.beats if b.highlight is not None and b.name[:6] == "lookup"}
    play_moments(
        board,
        look,
        alphas=tuple(k / 60 for k in range(61)),
        pixel_width=192,
        pixel_height=108,
        beats=walked,
    )
    waits: dict[str, float] = {}
    for name, seen in samples.items():
        seen.sort()
        longest, start = 0.0, None
        for before, now in itertools.pairwise(seen):
            still = abs(now[1] - before[1]) + abs(now[2] - before[2]) < PX
            if still and before[3] and now[3]:
                start = before[0] if start is None else start
                longest = max(longest, now[0] - start)
            else:
                start = None
        waits[name] = longest
    return waits


@pytest.mark.parametrize(
    "overrides",
    [{}, {"ids": "40,7,59,40,2", "vocab": 60, "dim": 5}],
    ids=["default", "toy"],
)
def test_a_walked_chip_waits_beside_its_row(overrides: dict[str, Any]) -> None:
    """Every walked lookup's chip stands beside its row, still, for a while."""
    waits = _waits(overrides)
    assert {"lookup", "lookup-1"} <= set(waits), waits
    for name, wait in waits.items():
        assert wait >= LEAST, (name, round(wait, 3))
