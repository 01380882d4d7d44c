"""Every BatchLookup caption cue is a whole phrase: none ends on a colon (teacher's review, s20).

At GPT-2's size the longer IDs pushed two sentences past one cue, and the
breaker split them at their colons: "The rest of sequence 0 follows in
order:" and "Sequence 1 uses the same matrix E:" stood alone as cues, a
lead-in with nothing after it. The check reads the cues as printed: a cue
that ends on ``:`` promises what only the next cue gives.
"""

from __future__ import annotations

from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard

_CASES: list[dict[str, Any]] = [
    {},
    {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"},
    {"vocab": 50257, "dim": 768, "ids": "33000,50256,4821,17,2,0;4821,17,2,0,33000,50256"},
    {"ids": "0,1,2,3,4,5;5,4,3,2,1,0", "vocab": 6, "dim": 3},
    {"ids": "1;2;3;4"},
]


@pytest.mark.parametrize("overrides", _CASES, ids=lambda o: o.get("ids", "default"))
def test_no_cue_ends_on_a_colon(overrides: dict[str, Any]) -> None:
    board = prepared_storyboard("BatchLookup", overrides, environ={})
    cues = [(beat.name, phrase.text) for beat in board.beats for phrase in beat.phrases]
    assert cues, "no cues"
    lead_ins = [(name, text) for name, text in cues if text.rstrip().endswith(":")]
    assert not lead_ins, lead_ins
