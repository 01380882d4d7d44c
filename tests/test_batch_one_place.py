"""BatchLookup: one ID, one object, one place (issue 18).

A teacher's review of the batch counted each used ID in two places: the
chip that became its output row's tag, and its place in the input block,
where the ID stayed written, dimmed. The place now keeps only its outline
(the block's B × T shape, with its B and T edges); the digits travel with
the chip.

Read back from the stage's own mobjects, sampled mid-motion and at the end
of every beat from the first lookup on: each position's ID (its ``token_id``
or ``output_id`` text) is drawn, at least half seen, at most once, and every
place whose chip has left still shows its outline at 3:1 or more against
the ground. The storyboard says the same: once a position's row has landed,
its ``token_id`` cell is off screen and its ``output_id`` cell on it.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import pytest
from boards import shared_board
from manim.utils.color import ManimColor

from embedviz.render.contrast import DIM_CONTRAST, contrast_ratio
from embedviz.render.moments import play_moments

GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "gpt2": GPT2,
    "light": {"theme": "light"},
}
ALPHAS = (0.2, 0.5, 0.8, 1.0)
# Seen: at least half its opacity (conftest.SHOWN).
SHOWN = 0.5
ID_KINDS = ("token_id", "output_id")


def _seen(mobject: Any) -> float:
    """Return a mobject's most opaque fill or stroke among its drawn members."""
    found = [0.0]
    for member in mobject.get_family():
        if len(member.points):
            found += [float(member.get_fill_opacity()), float(member.get_stroke_opacity())]
    return max(found)


def _read(scene: Any, moment: Any, twice: list[Any], places: list[Any]) -> None:
    """Note each ID drawn more than once, and each left place's outline at this moment."""
    stage = scene.stage
    drawn: Counter[tuple[int, ...]] = Counter()
    counted: set[int] = set()
    for top in scene.mobjects:
        for m in top.get_family():
            cell = getattr(m, "cell", None)
            if getattr(cell, "kind", None) not in ID_KINDS or id(m) in counted:
                continue
            counted.add(id(m))
            if _seen(m) >= SHOWN:
                drawn[tuple(cell.index)] += 1
    where = f"{moment.beat.name} a{moment.alpha:.2f} s{moment.step}"
    twice += [(where, position, n) for position, n in drawn.items() if n > 1]
    shown = {id(m) for top in scene.mobjects for m in top.get_family()}
    ground = stage.theme.background
    for index in sorted(stage.motion.gone):
        slot = stage.chips.slots[index]
        if id(slot) in shown and moment.alpha >= 1:
            colour = ManimColor(slot.get_stroke_color()).to_hex()
            places.append((where, index, _seen(slot), contrast_ratio(colour, ground), colour))


@functools.cache
def _played(case: str) -> tuple[list[Any], list[Any], int]:
    """Return (IDs drawn twice, left places' outlines, moments read) from the first lookup on."""
    board = shared_board("BatchLookup", CASES[case])
    names = [b.name for b in board.beats]
    first = next(i for i, b in enumerate(board.beats) if b.action in ("lookup", "lookup_many"))
    twice: list[Any] = []
    places: list[Any] = []
    read = [0]

    def grab(scene: Any, moment: Any) -> None:
        read[0] += 1
        _read(scene, moment, twice, places)

    play_moments(board, grab, alphas=ALPHAS, beats=set(names[first:]))
    return twice, places, read[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_id_is_drawn_in_one_place_at_every_moment(case: str) -> None:
    """No position's ID stands written in its place and on its tag at once."""
    twice, _, read = _played(case)
    assert read > 20, "too few moments were read"
    assert not twice, f"IDs drawn twice (moment, position, times): {twice[:6]}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_left_place_keeps_its_outline_at_three_to_one(case: str) -> None:
    """The block keeps the B × T shape: each left place's outline is drawn, 3:1 or more."""
    _, places, _ = _played(case)
    assert places, "no place was seen after its chip had left"
    faint = [p for p in places if p[2] < 0.99 or p[3] < DIM_CONTRAST]
    assert not faint, f"left places faint (moment, place, opacity, contrast): {faint[:6]}"


def _saturation(colour: str) -> float:
    """Return a colour's HSV saturation (0: a grey)."""
    rgb = [int(colour.lstrip("#")[k : k + 2], 16) for k in (0, 2, 4)]
    return 0.0 if max(rgb) == 0 else (max(rgb) - min(rgb)) / max(rgb)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_left_place_is_outlined_in_a_neutral_colour(case: str) -> None:
    """Amber means "this token ID" only: an empty place is outlined in a neutral grey.

    Issue 18's lecture-hall review: after the lookups the ids block kept eight hollow
    amber outlines (dimmed amber), read as IDs still there. The theme's neutrals are
    all under 0.25 saturated; amber, dimmed or not, is over 0.9.
    """
    _, places, _ = _played(case)
    assert places, "no place was seen after its chip had left"
    amber = [p for p in places if _saturation(p[4]) > 0.25]
    assert not amber, f"left places outlined in a hue (moment, place, ...): {amber[:6]}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_storyboard_moves_each_id_from_its_place_to_its_tag(case: str) -> None:
    """From its row's landing on, a position's ID is its tag's (``output_id``) only."""
    board = shared_board("BatchLookup", CASES[case])
    positions = {tuple(c.index) for b in board.beats for c in b.numbers if c.kind == "token_id"}
    landed = 0
    for beat in board.beats:
        kinds = {(c.kind, tuple(c.index)) for c in beat.numbers if c.kind in ID_KINDS}
        tags = {index for kind, index in kinds if kind == "output_id"}
        both = sorted(index for kind, index in kinds if kind == "token_id" and index in tags)
        assert not both, f"{beat.name}: IDs both in their places and on their tags: {both}"
        landed = max(landed, len(tags))
    # Every position's row landed, its tag holding its ID.
    assert positions
    assert landed == len(positions)
