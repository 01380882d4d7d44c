"""One thread of motion (issue 18, lecture-hall frames): the output block stands still.

With GPT-2-sized data the output block used to rest low between lookups (to
fill the frame) and glide up for each beat whose strips needed it raised,
then back down: a teacher saw the result block bob while the chip and its
row's strip moved. A dry run of every lookup beat is sampled at its start,
middle and end (every step), and the output block's box is read back: it is
the same at every sample. The moment tests (test_moments.py) hold the same
case to every other rule (the empty-area rule at beat ends, the type floors,
strips that cover no number).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import box_of

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

# GPT-2-like IDs ("The cat sat on the mat"): rows come out of order, so the block
# stands raised for their strips' clear paths.
GPT2 = {"ids": "464,3797,3332,319,262,2603", "vocab": 50257, "dim": 768}


def _lookup_boxes(overrides: dict[str, Any]) -> list[tuple[str, float, np.ndarray]]:
    """Return (beat, alpha, output block's box) at every sample of every lookup beat."""
    board = prepared_storyboard("SequenceLookup", overrides, environ={})
    seen: list[tuple[str, float, np.ndarray]] = []

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.beat.action in ("lookup", "lookup_many"):
            body = scene.stage.output.grid.body
            seen.append((moment.beat.name, moment.alpha, box_of(body)))

    play_moments(board, read, alphas=(0.0, 0.5, 1.0))
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_output_block_stays_still_through_every_lookup(theme: str) -> None:
    seen = _lookup_boxes({**GPT2, "theme": theme})
    beats = {name for name, _, _ in seen}
    assert len(beats) >= 3, f"too few lookup beats sampled: {sorted(beats)}"
    first = seen[0][2]
    moved = [
        f"{name} at {alpha:.1f}: {box.round(3).tolist()} (first {first.round(3).tolist()})"
        for name, alpha, box in seen
        if not np.allclose(box, first, atol=1e-6)
    ]
    assert not moved, "the output block moved during the lookups:\n" + "\n".join(moved)
