"""The output block holds still through the lookups, and no strip comes out beside another's row.

A teacher's review of mid-motion frames of SequenceLookup (toy and GPT-2
sizes) found two things, both read back here from a dry run sampled finely
across every lookup beat:

- the output block rose for one beat's strips and came back at that beat's
  end (the default's last lookup, GPT-2's second), two glides within a few
  seconds that read as a jitter. Now no lookup beat glides the block twice,
  and between the moment the first strip sets off and the moment the last
  one lands it glides at most once;
- in the default, a strip slid out of its row level (its source row's
  height) over the output block, beside another output row and that row's
  tag (``lookup-1`` near alpha 0.75). Now a strip over the output block's
  columns, still at its source row's height, is level with no output row
  but its own.

The glides are read from the output grid's body as drawn; the strips from
the travelling rows on screen; the rows' heights from the output grid's
row centre lines at that moment.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments
from embedviz.render.routes import clear_order

ALPHAS = tuple(k / 20 for k in range(21))
GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256"}
CASES: dict[str, dict[str, Any]] = {"default": {}, "light": {"theme": "light"}, "gpt2": GPT2}


@dataclass
class _Moment:
    beat: str
    time: float
    block_top: float
    block_left: float
    block_right: float
    # Each output row's centre line now.
    rows: list[float]
    row_h: float
    # Each strip on screen: (id, its box's centre y, left, right, its source row's centre
    # line, its target row's centre line).
    strips: list[tuple[int, float, float, float, float, float]]


def _read(scene: MomentScene, moment: Any, found: list[_Moment]) -> None:
    if moment.beat.action not in ("lookup", "lookup_many"):
        return
    motion: Any = scene.stage.motion
    grid = motion.output.grid
    body = grid.body
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    strips = []
    for carry in motion.carries:
        strip = carry.strip
        if carry.landed or id(strip) not in on_screen or len(strip) < 2 or not carry.targets:
            continue
        box = strip[0]
        source = float(motion.matrix.grid.row_y(carry.row))
        target = float(np.mean([t.get_center()[1] for t in carry.targets]))
        strips.append(
            (
                id(strip),
                float(box.get_center()[1]),
                float(box.get_left()[0]),
                float(box.get_right()[0]),
                source,
                target,
            )
        )
    found.append(
        _Moment(
            moment.beat.name,
            moment.time,
            float(body.get_top()[1]),
            float(body.get_left()[0]),
            float(body.get_right()[0]),
            [float(grid.row_y(r)) for r in grid.get_rows()],
            float(motion.plan.sizes.row_height),
            strips,
        )
    )


@functools.cache
def _moments(case: str) -> tuple[_Moment, ...]:
    board = prepared_storyboard("SequenceLookup", CASES[case], environ={})
    found: list[_Moment] = []
    # Only the lookups are read (_read): the others play unsampled (tests/test_moment_beats.py).
    lookups = {b.name for b in board.beats if b.action in ("lookup", "lookup_many")}
    play_moments(board, lambda s, m: _read(s, m, found), alphas=ALPHAS, beats=lookups)
    return tuple(sorted(found, key=lambda m: m.time))


def _glides(moments: tuple[_Moment, ...]) -> list[tuple[int, int]]:
    """Return each glide of the block as (first moment moved to, last moment moved to)."""
    glides: list[tuple[int, int]] = []
    for k in range(1, len(moments)):
        if abs(moments[k].block_top - moments[k - 1].block_top) <= 1e-6:
            continue
        if glides and glides[-1][1] == k - 1:
            glides[-1] = (glides[-1][0], k)
        else:
            glides.append((k, k))
    return glides


@pytest.mark.parametrize("case", ["default", "gpt2"])
def test_the_block_never_rises_and_returns_within_a_beat(case: str) -> None:
    moments = _moments(case)
    glides = _glides(moments)
    assert glides, "the block never moved: a layout that needs no glide tests nothing here"
    beats = [moments[first].beat for first, _ in glides]
    twice = sorted({b for b in beats if beats.count(b) > 1})
    assert not twice, f"the block glides more than once in {twice}"


@pytest.mark.parametrize("case", ["default", "gpt2"])
def test_the_block_glides_at_most_once_while_strips_travel(case: str) -> None:
    moments = _moments(case)
    with_strips = [k for k, m in enumerate(moments) if m.strips]
    assert with_strips, "no strip was seen: nothing was checked"
    first, last = with_strips[0], with_strips[-1]
    during = [g for g in _glides(moments) if first <= g[0] <= last]
    assert len(during) <= 1, [(moments[a].beat, moments[a].time) for a, _ in during]


# The toy (6 x 3 E, IDs 2, 3, 5, 1) rests its block level with E's rows 0 to 3 (12.2 %
# empty); from there ID 2's strip would slide out level with output row 2, so the block
# stands 1.75 rows up through every lookup (raised, 20.7 % empty, the room under it the
# strips' road). It rose at 26.5 to 27.4 s, as lookup-0's caption named ID 2 ("a row
# number, not a quantity"), and came home at 44.0 s: two glides across the lookups that a
# teacher read as jitter. It rises in the reveal now (parts/early_rise.py): across the
# lookups it glides once, home, once the last strip has landed.
@pytest.mark.parametrize("case", ["default", "light"])
def test_the_toys_block_glides_once_across_its_lookups(case: str) -> None:
    moments = _moments(case)
    glides = _glides(moments)
    assert glides, "the block never moved: it no longer comes home after the lookups"
    found = [(moments[a].beat, round(moments[a].time, 2)) for a, _ in glides]
    assert len(glides) == 1, f"the block glides {len(glides)} times across the lookups: {found}"
    with_strips = [k for k, m in enumerate(moments) if m.strips]
    assert glides[0][0] > with_strips[-1], f"the block glides before the last strip lands: {found}"


@pytest.mark.parametrize("case", ["default", "light"])
def test_a_strip_level_over_the_block_is_level_with_its_own_row(case: str) -> None:
    moments = _moments(case)
    checked = 0
    bad = []
    for moment in moments:
        for _, centre, _left, right, source, target in moment.strips:
            # Over the block's columns, still at its source row's height (not yet turned).
            if right <= moment.block_left + 1e-6 or abs(centre - source) > 1e-6:
                continue
            checked += 1
            for row in moment.rows:
                if abs(row - target) > 1e-3 and abs(centre - row) < moment.row_h * 2 / 3:
                    bad.append((moment.beat, round(moment.time, 2), round(row - centre, 3)))
    assert checked, "no strip was seen level over the block: nothing was checked"
    assert not bad, bad[:6]


# GPT-2's first lookup played with the block at rest: its strip slid out level with output
# row 2 (the corridor is narrower than a strip) and rose to row 0. The block then stood
# where its row 0 is level with E's row 4821 for that beat (resting._level_place) and glided
# up with lookup-1: a place per beat (issue 18). It rises in the reveal now and holds there
# (parts/early_rise; the rule's card under it fills the room): the strip comes in under it.
def test_gpt2s_first_strip_is_level_with_its_own_row_only() -> None:
    test_a_strip_level_over_the_block_is_level_with_its_own_row("gpt2")


def test_a_strip_level_with_another_output_row_has_no_clear_path_over_the_block() -> None:
    # Rows of one unit, three output rows; raised 0, output row t spans t to t + 1 down
    # from the matrix's top. Matrix row 7's centre is 2.5: level with output row 2. Bound
    # for row 0, its strip runs along row 2 as it slides over the block's columns.
    centres = {7: 2.5, 8: 0.5, 9: 1.5}
    sources = [7, 8, 9]
    assert clear_order(sources, centres, 1.0, 0.0, [], [0]) == (0,)  # its path alone is clear
    assert clear_order(sources, centres, 1.0, 0.0, [], [0], over=True) is None
    # Raised half a row, half of it is still beside row 2.
    assert clear_order(sources, centres, 1.0, 0.5, [], [0], over=True) is None
    # Raised a row, the block's bottom is level with the strip's top: it passes under.
    assert clear_order(sources, centres, 1.0, 1.0, [], [0], over=True) == (0,)
    # Level with its own row, it slides straight in.
    assert clear_order([8, 7, 9], centres, 1.0, 0.0, [], [0], over=True) == (0,)
