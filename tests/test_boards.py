"""A remembered storyboard (tests/boards.py) is the board a fresh build gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from boards import board_key, minilm_options, shared_board

from embedviz.inputs import prepared_storyboard

MINILM_SENTENCE = "The cat sat on the mat because the mat was warm today"


@pytest.mark.parametrize(
    ("scene", "overrides"),
    [
        ("SequenceLookup", None),
        ("SequenceLookup", "minilm"),
        ("BatchLookup", {"vocab": 50257, "dim": 768, "ids": "4821,0,50256;33000,2,4821"}),
        ("LargeVocabLookup", {"theme": "light"}),
    ],
)
def test_a_remembered_board_equals_a_fresh_one(scene: str, overrides: Any) -> None:
    options = minilm_options() if overrides == "minilm" else overrides
    remembered = shared_board(scene, options)
    fresh = prepared_storyboard(scene, options, environ={})
    assert remembered is not fresh
    assert remembered == fresh
    assert remembered.to_json() == fresh.to_json()
    assert shared_board(scene, options) is remembered, "the second ask built it again"


def test_other_options_or_a_rewritten_file_give_another_board(tmp_path: Path) -> None:
    first = shared_board("SequenceLookup", {"ids": "3,1,4"})
    assert shared_board("SequenceLookup", {"ids": "3,1,5"}) != first
    weights = tmp_path / "w.npy"
    np.save(weights, np.arange(40, dtype=np.float32).reshape(10, 4))
    before = board_key("SequenceLookup", {"weights": str(weights)})
    built = shared_board("SequenceLookup", {"weights": str(weights), "ids": "1,2"})
    np.save(weights, np.arange(60, dtype=np.float32).reshape(15, 4))
    assert board_key("SequenceLookup", {"weights": str(weights)}) != before
    rebuilt = shared_board("SequenceLookup", {"weights": str(weights), "ids": "1,2"})
    assert rebuilt.vocab_size == 15 != built.vocab_size
