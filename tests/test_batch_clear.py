"""BatchLookup: slice 1 stands, dimmed, while sequence 0 is looked up; whole for its own.

A reviewer (session 23): during sequence 0's lookups the copied strip left
E's row to the right at the row's height, inside slice 1's empty card, then
rose through that card to slice 0: it read as the copy entering slice 1
first, and slice 1's card, its row numbers and the B brace were taken off
the screen from sequence 0's first lookup until sequence 1's. A lecture-hall
review at 720p (issue 18, session 33, GPT-2's batch) then saw slice 1 hidden
from 33.8 to 60 s: the output block read as one slice while it was being
filled. Slice 1 then stood through every lookup, dimmed while sequence 0's
chips and strips travelled over it; a later review (issue 18) still read a
copy lying over its rows as landing in slice 1. Now, while sequence 0's
copies travel, slice 1 waits folded behind slice 0 as a second card (drawn,
dimmed: its frame's top edge peeks over slice 0's, the B brace spans the
two cards; its row numbers are off screen, as they would stand over slice
0's), and it slides back down to its
place once the beat's rows are in; as sequence 1's lookup begins it stands
whole, with its ``slice 1`` header, before its rows arrive
(parts/batch_fold.py).

A dry run is sampled mid-motion; opacities are read off the stage's
mobjects as drawn then.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.metrics import xyz
from embedviz.render.moments import MomentScene, play_moments

GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
CASES: dict[str, dict[str, Any]] = {"default": {}, "gpt2": GPT2}
# From a fifth of each step on (a slice that gives way is out within a sixth of the first).
ALPHAS = (0.2, 0.4, 0.6, 0.8)
# A pixel at 720p: a chip further than this from its place in the block has left it.
PIXEL = 8 / 720


def _opacity(mobject: Any, shown: set[int]) -> float:
    """The strongest fill or stroke opacity of what ``mobject`` draws on screen (0 if off)."""
    opacities = [
        max(float(m.get_fill_opacity()), float(m.get_stroke_opacity()))
        for m in mobject.get_family()
        if len(m.points) and id(m) in shown
    ]
    return max(opacities or [0.0])


def _span(grid: Any) -> tuple[float, float]:
    return float(grid.body.get_bottom()[1]), float(grid.body.get_top()[1])


@dataclass
class _Sample:
    beat: str
    alpha: float
    step: int
    # Slice 1's card (frame and grid), its row numbers, its header, and the B brace.
    card: float
    # Slice 1's body and slice 0's (bottom, top).
    bodies: tuple[tuple[float, float], tuple[float, float]]
    numbers: float
    header: float
    brace: float
    # The sequences whose chips or strips are in motion (left the block, not landed).
    moving: set[int]


def _read(scene: MomentScene, moment: Any, samples: list[_Sample]) -> None:
    if not moment.beat.name.startswith("lookup"):
        return
    stage: Any = scene.stage
    shown = {id(m) for top in scene.mobjects for m in top.get_family()}
    stack = stage.stack
    moving = set()
    chips = stage.chips.chips
    for carry in stage.motion.carries:
        if carry.tag is None or carry.landed or carry.chip is None:
            continue
        index = next(i for i, c in enumerate(chips) if c is carry.chip)
        home = stage.chips.homes[index] - xyz(stage.motion.matrix_slide, 0)
        strip = carry.strip
        flying = id(strip) in shown and len(strip.submobjects)
        if flying or np.linalg.norm(carry.chip.get_center() - home) > PIXEL:
            moving.add(carry.tag.index[0])
    samples.append(
        _Sample(
            moment.beat.name,
            moment.alpha,
            moment.step,
            _opacity(stack.slices[1], shown),
            (_span(stack.slices[1]), _span(stack.slices[0])),
            _opacity(stack.row_numbers[1], shown),
            _opacity(stack.headers[1], shown),
            _opacity(stack.edge_b, shown),
            moving,
        )
    )


@functools.cache
def _samples(case: str) -> tuple[_Sample, ...]:
    board = prepared_storyboard("BatchLookup", CASES[case], environ={})
    samples: list[_Sample] = []
    # Only the lookups are read (_read): the others play unsampled (tests/test_moment_beats.py).
    lookups = {b.name for b in board.beats if b.name.startswith("lookup")}
    play_moments(board, lambda s, m: _read(s, m, samples), alphas=ALPHAS, beats=lookups)
    return tuple(samples)


@pytest.mark.parametrize("case", list(CASES))
def test_slice_1_stands_while_sequence_0_is_looked_up(case: str) -> None:
    """Slice 1's card (frame, grid) and the B brace are drawn in lookup-0-*, folded.

    Session 23's code took them off the screen for all of sequence 0's
    lookups. While sequence 0's copies travel, the card stands behind slice
    0 with its top edge showing over slice 0's (a second card).
    """
    samples = [s for s in _samples(case) if s.beat.startswith("lookup-0")]
    assert {s.beat for s in samples} >= {"lookup-0-0", "lookup-0-1", "lookup-0-rest"}
    assert any(s.moving == {0} for s in samples), "no moment with sequence 0 in motion"
    missing = [
        (s.beat, s.step, s.alpha, round(s.card, 2), round(s.brace, 2))
        for s in samples
        if min(s.card, s.brace) < 0.99
    ]
    assert not missing, missing[:6]
    travelling = [s for s in samples if s.moving == {0}]
    unfolded = [
        (s.beat, s.step, s.alpha, s.bodies)
        for s in travelling
        if not (s.bodies[1][1] < s.bodies[0][1] and s.bodies[0][0] >= s.bodies[1][0] - 1e-6)
    ]
    assert not unfolded, unfolded[:6]


@pytest.mark.parametrize("case", list(CASES))
def test_slice_1_is_back_whole_before_its_rows_travel(case: str) -> None:
    """From sequence 1's first motion on, slice 1, its header and the B brace stand whole."""
    samples = list(_samples(case))
    first = next(k for k, s in enumerate(samples) if 1 in s.moving)
    after = samples[first:]
    assert after[0].beat == "lookup-1"
    weak = [
        (s.beat, s.step, s.alpha, s.card, s.numbers, s.header, s.brace)
        for s in after
        if min(s.card, s.numbers, s.header, s.brace) < 0.99
    ]
    assert not weak, weak[:6]
