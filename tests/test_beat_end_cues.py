"""The cue that closes a beat names what it speaks of, and no cue is a piece of a list.

A beat-end frame review (720p) paused on SequenceLookup's dim beat and read
"They play no part in this lookup." with nothing on screen to say who "they"
were; TrainingNudge ended a beat on "So does every hidden row.". And with the
rows listed as "1, 2, 4820, 4822 and 50255", the caption split before "and",
leaving the cue "and 50255 were not selected." Now the dim beat's cues name
every row no ID selected (tests/test_unselected_rows.py), the last cue opens
with its subject, and a cue never opens with an "and" that only closes a list
of numbers.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.story.phrases import split_phrases

GPT2 = {"vocab": 50257, "dim": 768}
CASES = [
    ("SequenceLookup", {}),
    ("SequenceLookup", {**GPT2, "ids": "4821,0,50256"}),
    ("BatchLookup", {}),
    ("BatchLookup", {**GPT2, "ids": "4821,0,50256,17;33000,2,4821,0"}),
]
# Pronouns that need a subject the cue before named (gone once that cue is).
BARE_PRONOUN = re.compile(r"^(It|They|So does)\b")


def _flat(ids: Any) -> set[int]:
    return {int(i) for i in re.findall(r"\d+", str(ids))}


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_the_dim_beat_ends_on_a_named_subject(scene: str, overrides: dict) -> None:
    board = prepared_storyboard(scene, overrides)
    drawn = {cell.index[0] for cell in board.beats[0].numbers if cell.kind == "weight"}
    unused = drawn - _flat(board.ids)
    dims = [b for b in board.beats if b.name == "dim"]
    if not unused:
        assert not dims, "a dim beat with every drawn row selected"
        return
    (beat,) = dims
    said = " ".join(phrase.text for phrase in beat.phrases)
    assert not BARE_PRONOUN.match(beat.phrases[-1].text), beat.phrases[-1].text
    assert not any(p.text.startswith("and ") for p in beat.phrases), said


@pytest.mark.parametrize("overrides", [{}, GPT2])
def test_training_beats_end_on_a_named_subject(overrides: dict) -> None:
    board = prepared_storyboard("TrainingNudge", overrides)
    for beat in board.beats:
        assert not re.match(r"^So does\b", beat.phrases[-1].text), beat.phrases[-1].text


def test_an_and_that_closes_a_list_of_numbers_opens_no_cue() -> None:
    sentence = "Of the rows drawn, rows 1, 2, 4820, 4822 and 50255 were not selected."
    assert split_phrases(sentence) == (sentence,)
    # An "and" before a clause still may open one.
    long = (
        "The backward pass adds each weight into its ID's row of the gradient and "
        "every other row of the gradient gets exactly zero in this step."
    )
    cues = split_phrases(long)
    assert len(cues) == 2
    assert cues[1].startswith("and every")
