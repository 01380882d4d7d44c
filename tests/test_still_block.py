"""One thread of motion (issue 18, lecture-hall frames): the output block stands still.

With GPT-2-sized data the output block used to rest low between lookups (to
fill the frame) and glide up for each beat whose strips needed it raised,
then back down: a teacher saw the result block bob while the chip and its
row's strip moved. A dry run of every lookup beat is sampled at its start,
middle and end (every step), and the output block's box is read back: it is
the same at every sample. The moment tests (test_moments.py) hold the same
case to every other rule (the empty-area rule at beat ends, the type floors,
strips that cover no number).

A MiniLM-sized sentence of twelve IDs took the corridor arrangement, whose
matrix and output block rested close together between lookups and slid
apart, and back, at every lookup beat (the whole picture breathed in and
out): there the matrix's box is read back as well, and neither moves.
MiniLM's own sentence, with its word pieces, stood still too until its
equality marks named both rows: a still block then falls under the type floor.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from boards import minilm_options
from conftest import box_of

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

# GPT-2-like IDs ("The cat sat on the mat"): rows come out of order, so the block
# stands raised for their strips' clear paths.
GPT2 = {"ids": "464,3797,3332,319,262,2603", "vocab": 50257, "dim": 768}
# MiniLM-like IDs ("[CLS] The cat sat on the mat because the mat was warm"): twelve
# rows out of order, which took the corridor.
MINILM_LIKE = {
    "ids": "101,1996,4937,2938,2006,1996,13523,2138,1996,13523,2001,4010",
    "vocab": 30522,
    "dim": 384,
}
MINILM_SENTENCE = "The cat sat on the mat because the mat was warm today"


def _lookup_boxes(
    overrides: dict[str, Any], part: str = "output", intro: bool = False
) -> list[tuple[str, float, np.ndarray]]:
    """Return (beat, alpha, box of ``part``'s body) at every sample of every lookup beat.

    ``part`` "chips" reads the chips' label (``token IDs``), left of the chips
    waiting over E.
    ``intro``: the intro's end comes first (where the block rests).
    """
    board = prepared_storyboard("SequenceLookup", overrides, environ={})
    seen: list[tuple[str, float, np.ndarray]] = []

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.beat.action in ("lookup", "lookup_many") or (
            intro and moment.beat.action == "intro" and moment.alpha >= 1
        ):
            stage = scene.stage
            body = stage.chips.heading if part == "chips" else getattr(stage, part).grid.body
            seen.append((moment.beat.name, moment.alpha, box_of(body)))

    play_moments(board, read, alphas=(0.0, 0.5, 1.0))
    return seen


def _moves(seen: list[tuple[str, float, np.ndarray]]) -> list[str]:
    """Return a line for every sample whose box differs from the first sample's."""
    beats = {name for name, _, _ in seen}
    assert len(beats) >= 3, f"too few lookup beats sampled: {sorted(beats)}"
    first = seen[0][2]
    return [
        f"{name} at {alpha:.1f}: {box.round(3).tolist()} (first {first.round(3).tolist()})"
        for name, alpha, box in seen
        if not np.allclose(box, first, atol=1e-6)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_output_block_stays_still_through_every_lookup(theme: str) -> None:
    moved = _moves(_lookup_boxes({**GPT2, "theme": theme}))
    assert not moved, "the output block moved during the lookups:\n" + "\n".join(moved)


@pytest.mark.slow
@pytest.mark.parametrize("part", ["matrix", "output"])
def test_a_long_sentence_keeps_the_matrix_and_the_block_still(part: str) -> None:
    moved = _moves(_lookup_boxes(MINILM_LIKE, part))
    assert not moved, f"the {part} block moved during the lookups:\n" + "\n".join(moved)


def test_minilms_own_sentence_takes_the_corridor_since_its_marks_name_both_rows() -> None:
    # MiniLM's own sentence (its word pieces beside the chips) stood still at 18.3 px
    # while its marks read "= out[1]". They name both rows now ("out[5] = out[1]",
    # issue 18): a still block then needs about 17 px, under the 18 px floor of a
    # real-sized table, so the solver keeps the corridor (its blocks glide left once
    # before the marks come: test_lookup_layout.py).
    from dataclasses import replace

    from embedviz.render.design import MIN_DATA_PX, px_for_font
    from embedviz.render.solver import _solve_print, solve_lookup
    from embedviz.render.stages.lookup import lookup_spec

    spec = lookup_spec(prepared_storyboard("SequenceLookup", minilm_options(), environ={}))
    assert spec.mark_chars == len("out[5] = out[1]")
    plan = solve_lookup(spec)
    assert plan.mode == "corridor"
    assert px_for_font(plan.scale.data) >= MIN_DATA_PX
    for title_left in (False, True):
        still = _solve_print(replace(spec, still=True, title_left=title_left))
        assert px_for_font(still.scale.data) < MIN_DATA_PX


# The default scene and GPT-2's three IDs: no still place keeps every strip's path clear,
# the frame filled to an eighth and the numbers at their floor (docs/render.md, "Where the
# output block rests"). Decided (issue 18): the strip's clear path and the type floor are
# the hard rules, so the block glides. It glided only in the one lookup beat whose
# strips needed it raised, up and home again within that beat: a teacher read the pair as
# jitter. Now it glides up once, before the run of lookups it holds still through, and
# home once after the run's last strip has landed (test_block_hold.py). The default's
# block glides up in the reveal, before any lookup (parts/early_rise.py): it stands raised
# from the first lookup's start and leaves it only to come home.
SHORT_CASES = {"default": {}, "gpt2": {"ids": "4821,0,50256", "vocab": 50257, "dim": 768}}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(SHORT_CASES))
def test_the_chips_waiting_over_e_stand_still_while_the_block_glides(case: str) -> None:
    # The chips wait over E (issue 18): the block glides up for the lookups and home,
    # and what waits there stays where the intro showed it (their label with them).
    output, label = (
        _lookup_boxes(SHORT_CASES[case], part, intro=True) for part in ("output", "chips")
    )
    assert _moves(output), "the block never moved: the case no longer tests a glide"
    moved = _moves(label)
    assert not moved, "the chips' label moved with the block:\n" + "\n".join(moved)


@pytest.mark.slow
@pytest.mark.parametrize("case", list(SHORT_CASES))
@pytest.mark.parametrize("part", ["output"])
def test_a_short_sequence_glides_up_once_and_comes_home_once(case: str, part: str) -> None:
    rest, *seen = _lookup_boxes(SHORT_CASES[case], part, intro=True)
    assert rest[0] == "intro", "the intro's end was not read"
    moved = _moves(seen)
    assert moved, f"the {part} never moved: the case no longer tests a glide"
    home = rest[2]
    # Where it stands at each sample: home, or away (raised, or on its way).
    away = [not np.allclose(box, home, atol=1e-6) for _, _, box in seen]
    # It leaves home once: in the lookups, or before them (then it stands away from the
    # first lookup's start).
    departures = int(away[0]) + sum(1 for a, b in itertools.pairwise(away) if b and not a)
    assert departures == 1, f"the {part} left home {departures} times:\n" + "\n".join(moved)
    # After the last lookup it comes down once: home, or where the emptied sentence lane
    # closes at that beat's end (test_lane_close.py), straight to its closed-up place.
    raised = max(box[1][1] for (_, _, box), a in zip(seen, away, strict=True) if a)
    last = seen[-1][2]
    down = not away[-1] or last[1][1] < raised - 1e-3
    assert down, f"the {part} has not come down after the last lookup: {last}"
    beats = [name for (name, _, _), a in zip(seen, away, strict=True) if a]
    # Away through whole beats: from the one it leaves in to the one it comes home in.
    names = list(dict.fromkeys(name for name, _, _ in seen))
    span = names[names.index(beats[0]) : names.index(beats[-1]) + 1]
    assert len(span) >= 2, f"the {part} went up and came home within {span}"
