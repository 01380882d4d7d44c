"""A chip riding home is never seen without its copy: one thread of motion (issue 18).

From its row to its tag a chip and its row's copy travel as one: the chip
rides at the copy's right end (:mod:`~embedviz.render.parts.ride`). A 720p
mid-motion review of SequenceLookup at GPT-2's size saw the chip travel
without it (the copy hidden as it slides out of E, its numbers shown only
once a column clear of E, tests/test_strip_heading.py):

- chip ``0`` alone inside the empty output block before its copy showed
  (about 39.6 s), where it read as a value;
- chips ``4821`` and ``50256`` crossing the gap between E and the block alone
  (34.1-34.6 s, 43.6-43.8 s), worse in the light theme, where the copy fades
  in faint.

Read every fortieth of each lookup beat in the scene's shared play
(tests/carry_plays.py, tests/chip_watch.py's ThreadWatch): while its carry
is under way, a riding chip that has left its dock (more than a pixel from
where it docked beside its row) stands where some of its copy is drawn at
half opacity or more. The rule is the design's, not the code's: a chip
moving on its own, with no copy beside it, is what the review rejected.

No change of the ride alone passed it while two other rules held: a strip
never covers its own source row (it slid out from under E, hidden there), and
none of its numbers shows on its row's line within a column of E (the row
read as one more value). So the first number of a copy showed only once its
cell was a column clear of E, its right end two columns out (GPT-2: 309 px at
720p; the toy: 336 px), and the chip riding there had crossed the gap (116 px;
58 px) and entered the block alone (this test failed in every case). Now a
riding row lifts out of E whole, its numbers shown from its first move and its
place in E left empty, E's own numbers there hidden until the copy is a column
clear (parts/lift.py): each value still shows once (test_strip_heading,
test_strip_drawer read it so), and the chip never leaves its copy.
"""

from __future__ import annotations

from typing import Any

import pytest
from boards import minilm_options
from carry_plays import GPT2, GPT2_BATCH

CASES: dict[str, tuple[str, Any]] = {
    "sequence": ("SequenceLookup", {}),
    "gpt2": ("SequenceLookup", GPT2),
    "minilm": ("SequenceLookup", minilm_options),
    # The review's worst case: the light theme's copy faded in faint behind its chip.
    "gpt2_light": ("SequenceLookup", {**GPT2, "theme": "light"}),
    # A batch's copies slide into their slices from beside E: chip 4821 crossed the gap
    # alone for about 1 s (GPT-2's batch, lookup-0-0, 38.3 s).
    "batch": ("BatchLookup", {}),
    "gpt2_batch": ("BatchLookup", GPT2_BATCH),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_riding_chip_is_never_seen_without_its_copy(case: str, carry_play_cache: Any) -> None:
    scene, overrides = CASES[case]
    played = carry_play_cache(scene, overrides() if callable(overrides) else overrides)
    riding, alone = played.thread
    assert riding > 0, "no riding chip was sampled: the check would pass vacuously"
    assert not alone, f"{len(alone)} samples of a chip without its copy:\n" + "\n".join(alone[:20])
