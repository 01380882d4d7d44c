"""The ``dim`` beat names the rows no ID selected; over a table with hidden rows it says
that it names only the rows drawn (a frame review, issue 18: "Rows 1, 2, 4820, 4822,
50255 were not selected" over GPT-2's 50257 rows claimed every other row was)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard

CASES = [
    ("SequenceLookup", {}, [2, 3, 5, 1], 6),
    (
        "SequenceLookup",
        {"vocab": 50257, "dim": 768, "ids": "4821,0,50256"},
        [4821, 0, 50256],
        50257,
    ),
    (
        "BatchLookup",
        {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"},
        [4821, 0, 50256, 17, 33000, 2],
        50257,
    ),
]


@pytest.mark.parametrize(("scene", "options", "ids", "vocab"), CASES, ids=["toy", "gpt2", "batch"])
def test_the_dim_beat_names_drawn_rows_and_says_when_others_are_hidden(
    scene: str, options: dict[str, Any], ids: list[int], vocab: int
) -> None:
    board = prepared_storyboard(scene, options or None, environ={})
    (dim,) = [beat for beat in board.all_beats() if beat.name == "dim"]
    text = " ".join(phrase.text for phrase in dim.phrases)
    listed = {int(n) for n in re.findall(r"\b\d+\b", text.split(".")[0])}
    drawn = set(dim.window.rows)
    # Every row named is drawn and unselected, and every drawn unselected row is named.
    assert listed == drawn - set(ids)
    hidden = len(drawn) < vocab
    assert text.startswith("Drawn but not selected") == hidden, text
