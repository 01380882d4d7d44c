"""A highlight never runs through a text, at any moment (LargeVocabLookup, issue 18 review).

``point_at`` swells a label while a ring passes round it; a frame review
(the size beat, 15.0 s, 720p) saw the violet lines strike through the gap
labels, which swelled out through a ring drawn round them as they stood.
"""

from __future__ import annotations

from typing import Any

import pytest


def _rings_through_text(carry_play_cache: Any) -> list[str]:
    """Return each moment a highlight's line runs through a text, in the default scene.

    Read at every fortieth of each step by tests/large_vocab_watch.py's RingWatch
    (what counts as a highlight and as a text is said there), in LargeVocabLookup's
    shared play (tests/carry_plays.py).
    """
    return carry_play_cache("LargeVocabLookup", {}).large_vocab.rings


@pytest.mark.slow
def test_no_highlight_runs_through_a_text(carry_play_cache: Any) -> None:
    """A frame review (the size beat, 15.0 s): the violet lines pointing at the gap labels
    struck through ``columns 1–766 hidden`` and ``rows 6–50255 hidden``: each label
    swelled by a tenth inside a ring drawn round it as it stood. At every moment, no line
    of a highlight runs through a text drawn at all."""
    assert _rings_through_text(carry_play_cache) == []
