"""BatchLookup: while one sequence is looked up, the other empty slices are dimmed.

A 720p review (GPT-2 size, and the toy default) saw sequence 0's strips
travel right through slice 1's still empty block on their way up into
slice 0: a still at ``lookup-0-1`` mid showed the strip inside slice 1 while
the caption said "The sequence picks the slice". The strips' paths stay;
the slice a sequence fills now stands at full strength and every other
slice that is still empty (frame, row numbers) is dimmed, as far as dimmed
content may go (3:1 against its ground, far under its full contrast).

A dry run is sampled mid-motion and the colours are read off the stage's
mobjects while strips are in flight.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.contrast import contrast_ratio
from embedviz.render.moments import MomentScene, play_moments

GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
CASES: dict[str, dict[str, Any]] = {"default": {}, "gpt2": GPT2}
ALPHAS = (0.3, 0.6, 0.9)
# Dimmed content keeps 3:1 (WCAG 2.2 for graphics; the design system aims at 3.2).
DIM_FLOOR = 3.0
# Dimmed means clearly fainter: at most this share of the full contrast.
FAINTER = 0.6
# Drawn at all: a faint line counts.
FAINT = 0.05


@dataclass
class _Sample:
    beat: str
    alpha: float
    # The sequences whose strips are in flight (on screen, not landed).
    flying: set[int]
    # Slices with landed rows.
    holding: set[int]
    # Each slice's frame colour and its first row number's colour, and whether each is drawn.
    frames: list[str]
    numbers: list[str]
    drawn: list[bool]
    # Whether each slice's row numbers are on screen (a folded slice's are not).
    numbered: list[bool]
    # What they are drawn on, and their full colours (the theme's).
    cell_fill: str
    background: str
    output: str
    muted: str


def _read(scene: MomentScene, moment: Any, samples: list[_Sample]) -> None:
    stage: Any = scene.stage
    shown = {id(m) for top in scene.mobjects for m in top.get_family()}
    flying, holding = set(), set()
    for carry in stage.motion.carries:
        if carry.tag is None:
            continue
        b = carry.tag.index[0]
        if carry.landed:
            holding.add(b)
        elif id(carry.strip) in shown and len(carry.strip.submobjects):
            flying.add(b)
    stack, theme = stage.stack, stage.theme
    samples.append(
        _Sample(
            moment.beat.name,
            moment.alpha,
            flying,
            holding,
            [grid.body[0].get_stroke_color().to_hex() for grid in stack.slices],
            [numbers[0].get_fill_color().to_hex() for numbers in stack.row_numbers],
            [
                id(grid.body[0]) in shown and grid.body[0].get_stroke_opacity() >= FAINT
                for grid in stack.slices
            ],
            [id(numbers[0]) in shown for numbers in stack.row_numbers],
            theme.cell_fill,
            theme.background,
            theme.output,
            theme.muted,
        )
    )


@functools.cache
def _samples(case: str) -> tuple[_Sample, ...]:
    board = prepared_storyboard("BatchLookup", CASES[case], environ={})
    samples: list[_Sample] = []
    play_moments(board, lambda s, m: _read(s, m, samples), alphas=ALPHAS)
    return tuple(samples)


def _same(a: str, b: str) -> bool:
    return a.lower() == b.lower()


@pytest.mark.parametrize("case", list(CASES))
def test_an_empty_slice_is_dimmed_while_another_sequence_travels(case: str) -> None:
    """Slice 1, still empty, is dimmed (3:1 kept) or out while sequence 0's strips are in flight.

    Slice 1 waits folded behind slice 0 while they travel (its frame's edge
    peeking, its row numbers off screen: test_batch_clear.py); its frame is
    dimmed, and slice 0 is at full strength.
    """
    samples = _samples(case)
    passing = [s for s in samples if s.flying == {0} and 1 not in s.holding]
    assert passing, "no moment with sequence 0's strips in flight"
    for s in passing:
        where = (s.beat, s.alpha, s.frames[1], s.numbers[1])
        assert s.drawn[0], where
        if not s.drawn[1]:
            assert _same(s.frames[0], s.output), where
            assert _same(s.numbers[0], s.muted), where
            continue
        frame = contrast_ratio(s.frames[1], s.cell_fill)
        full_frame = contrast_ratio(s.output, s.cell_fill)
        number = contrast_ratio(s.numbers[1], s.background)
        full_number = contrast_ratio(s.muted, s.background)
        assert DIM_FLOOR <= frame <= FAINTER * full_frame, where
        # Folded behind slice 0 (parts/batch_fold.py), its row numbers are off screen.
        assert not s.numbered[1] or DIM_FLOOR <= number <= FAINTER * full_number, where
        # The slice being filled stands at full strength.
        assert _same(s.frames[0], s.output), where
        assert _same(s.numbers[0], s.muted), where


@pytest.mark.parametrize("case", list(CASES))
def test_a_slice_is_at_full_strength_when_its_own_turn_comes(case: str) -> None:
    """Slice 1 is back at full strength while its own strips travel, and stays so."""
    samples = _samples(case)
    own = [s for s in samples if 1 in s.flying]
    assert own, "no moment with sequence 1's strips in flight"
    start = samples.index(own[0])
    for s in samples[start:]:
        where = (s.beat, s.alpha, s.frames, s.numbers)
        assert all(_same(f, s.output) for f in s.frames), where
        assert all(_same(n, s.muted) for n in s.numbers), where
