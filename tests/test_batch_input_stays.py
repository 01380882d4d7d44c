"""BatchLookup: the input's B × T shape stays in its block through the lookups.

A lecture-hall review of GPT-2's batch (issue 18, 720p, both themes) saw
the chips leave their block one by one, their places going with them and
the B and T edges with the last: from the first lookup on, less and less
input stood on screen to check the output against. A chip still travels as
the one object of its ID (it becomes its output row's tag, digits and all);
its place keeps its outline, dimmed to 3:1 against the ground, without the
ID (a later review counted each used ID twice while its digits stayed
written there too: tests/test_batch_one_place.py), and the block keeps its
edges, until every row is in and E rises into the block's place (or the
marks take it).

Read back from the stage's own mobjects, sampled through every beat from
the first lookup to the last lookup's last step (the glide that ends the
run): every position's place (its outline) stands, at least half seen,
inside the block's box as it stood before any chip left; each outline is
drawn at 3:1 against the ground at the least; and the block's B and T edges
stay. Where nothing takes the block's place, all of it stays to the end.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from manim.utils.color import ManimColor

from embedviz.inputs import prepared_storyboard
from embedviz.render.contrast import contrast_ratio
from embedviz.render.moments import play_moments

GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "gpt2": GPT2,
    "light": {"theme": "light"},
    "gpt2-light": {**GPT2, "theme": "light"},
    # Three sequences of one ID: the slices spread down the frame, E rises far.
    "singles": {"ids": "1;2;3"},
}
ALPHAS = (0.1, 0.3, 0.5, 0.7, 0.9, 1.0)
# Per case, after the block gave way: (beat, alpha, how many of its members stay drawn).
_STAYED: dict[str, list[tuple[str, float, int]]] = {}
# Seen: at least half its opacity (conftest.SHOWN); readable dimmed: 3:1 against the ground.
SHOWN, DIMMED = 0.5, 3.0


def _inside(point: Any, box: tuple[float, float, float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


@functools.cache
def _samples(case: str) -> tuple[tuple[Any, ...], ...]:
    """Return (beat, alpha, places, places seen in the block, worst contrast, edges' opacity)."""
    board = prepared_storyboard("BatchLookup", CASES[case], environ={})
    found: list[tuple[Any, ...]] = []
    block: list[tuple[float, float, float, float]] = []
    last_steps: list[int] = []
    stayed = _STAYED.setdefault(case, [])
    lookups = [i for i, b in enumerate(board.beats) if b.action in ("lookup", "lookup_many")]

    def grab(scene: Any, moment: Any) -> None:
        stage = scene.stage
        chips = stage.chips
        index = board.beats.index(moment.beat)
        if index < lookups[0]:
            return
        if not block:
            # The block's box at home, as the first lookup begins.
            low, high = chips.slots.get_corner([-1, -1, 0]), chips.slots.get_corner([1, 1, 0])
            block.append((float(low[0]), float(low[1]), float(high[0]), float(high[1])))
        # The run's last step (E's rise) may take the block's place, if E rises or marks
        # stand there; from then on the block is not looked for.
        gives_way = bool(stage.rise) or stage.stack.marks_box is not None
        if gives_way and index > lookups[-1]:
            # Given way: nothing of the block stays drawn where E has risen.
            parts = [chips.slots, chips.batch_label, chips.length_label]
            shown = {id(m) for top in scene.mobjects for m in top.get_family()}
            left = [
                m
                for part in parts
                for m in part.family_members_with_points()
                if id(m) in shown and max(m.get_fill_opacity(), m.get_stroke_opacity()) > 0
            ]
            stayed.append((moment.beat.name, moment.alpha, len(left)))
            return
        if gives_way and index == lookups[-1]:
            last_steps.append(moment.step)
        ground = stage.theme.background
        read, worst = set(), float("inf")
        shown = {id(m) for top in scene.mobjects for m in top.get_family()}
        for slot in chips.slots:
            if id(slot) not in shown or slot.get_stroke_opacity() < SHOWN:
                continue
            if not _inside(slot.get_center(), block[0]):
                continue
            read.add(slot.id_place)
            colour = ManimColor(slot.get_stroke_color()).to_hex()
            worst = min(worst, contrast_ratio(colour, ground))
        # Each edge as drawn (its most opaque member: its brace, its text), the fainter one.
        edges = min(
            max(
                max(float(p.get_fill_opacity()), float(p.get_stroke_opacity()))
                for p in label.family_members_with_points()
            )
            for label in (chips.batch_label, chips.length_label)
        )
        if any(id(label) not in shown for label in (chips.batch_label, chips.length_label)):
            edges = 0.0
        total = len(chips.chips)
        found.append(
            (moment.beat.name, moment.alpha, moment.step, total, tuple(sorted(read)), worst, edges)
        )

    play_moments(board, grab, alphas=ALPHAS)
    # The last lookup's last step (its glide) and its end: where the block may give way.
    final = board.beats[lookups[-1]].name
    gone = {max(last_steps), 0} if last_steps else set()
    return tuple(
        (beat, alpha, total, read, worst, edges)
        for beat, alpha, step, total, read, worst, edges in found
        if not (beat == final and step in gone)
    )


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_input_place_stays_outlined_in_the_block(case: str) -> None:
    """From the first lookup to the end, all B × T places stand in the block, half seen or more."""
    samples = _samples(case)
    assert samples
    missing = [
        (beat, alpha, total - len(read))
        for beat, alpha, total, read, _, _ in samples
        if len(read) < total
    ]
    assert not missing, f"places missing from the block (beat, alpha, how many): {missing[:8]}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_left_place_stays_outlined_no_lower_than_three_to_one(case: str) -> None:
    """A place's outline, left once its chip has gone, stands at 3:1 against the ground."""
    samples = _samples(case)
    worst = [(beat, alpha, round(c, 2)) for beat, alpha, _, _, c, _ in samples if c < DIMMED]
    assert not worst, f"a place's outline below 3:1: {worst[:6]}"
    assert any(c < float("inf") for *_, c, _ in samples)


@pytest.mark.parametrize("case", ["default", "gpt2"])
def test_the_block_keeps_its_edges(case: str) -> None:
    """The B and T edges name the input block to the end (they once went with its last chip)."""
    samples = _samples(case)
    faint = [(beat, alpha, round(e, 2)) for beat, alpha, *_, e in samples if e < SHOWN]
    assert not faint, f"the block's edges fade: {faint[:6]}"


# The default batch's and GPT-2's block no longer gives way: E stays under it to the end
# (batch_finale.keep_input); the three single IDs' E still rises into its place.
@pytest.mark.parametrize("case", ["singles"])
def test_the_block_is_gone_once_it_gave_way(case: str) -> None:
    """Where E rises into the block's place, nothing of the block stays drawn after the run.

    (Faded as one group, the places and edges, each on screen by itself,
    came back whole as the fade ended, under risen E: three single IDs.)
    """
    _samples(case)
    stayed = _STAYED[case]
    assert stayed
    left = [s for s in stayed if s[2]]
    assert not left, f"the block stays drawn after it gave way: {left[:6]}"
