"""PositionBlindness's sums' note keeps its room as the narration points at it (issue 18).

The note (``added unrounded, shown to 4 decimals``) says why a sum's last digit
can differ from the sum of the two rounded numbers drawn above it. It is a
legend-sized muted label. As "Each sum adds the unrounded values ..." points at
it, it swelled about its centre, and a teacher's 720p review read "sumadded
unrounded" (a sinusoidal P: the note on the sums' heading line) and "3added
unrounded" (a learned P: the note beside the block, after row 3's position).

Sampled through ``add``'s last step (where the narration points at it), the note
never comes closer to the sums' heading,
their position numbers or their values than nine tenths of its distance at rest,
and stays inside the safe area; at rest it is at least the legend's size
(:data:`~embedviz.render.design.MIN_NOTE_PX` at least) and its colour keeps
4.5:1 against the background.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from boards import shared_board

CASES = {
    "sinusoid": {},
    "learned": {"positions": "learned"},
    "learned-light": {"positions": "learned", "theme": "light"},
}
ALPHAS = (*np.round(np.arange(0.0, 1.0, 0.05), 3)[1:], 1.0)
Box = tuple[float, float, float, float]
# Per moment of the last step: its time, the note's box, and each neighbour's box by name.
Moment = tuple[float, Box, dict[str, Box]]


def _box(mobject: Any) -> Box:
    low, high = mobject.get_corner([-1, -1, 0]), mobject.get_corner([1, 1, 0])
    return (float(low[0]), float(low[1]), float(high[0]), float(high[1]))


def _apart(a: Box, b: Box) -> float:
    """Return how far apart two boxes are (the larger of the gaps across and up; < 0: they meet)."""
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])


@functools.cache
def _moments(name: str) -> tuple[tuple[Moment, ...], dict[str, Any]]:
    from manim import config

    from embedviz.render.design import contrast_ratio
    from embedviz.render.metrics import digit_height
    from embedviz.render.moments import play_moments

    found: list[Moment] = []
    facts: dict[str, Any] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.step < len(moment.beat.phrases) - 1:
            return  # the values arriving (they slide down into their rows) are not the note's
        blocks = scene.stage.blocks
        note = blocks.sum_note
        assert note is not None
        others = {"sum heading": blocks.sum_heading}
        others |= {f"position {k}": m for k, m in enumerate(blocks.sum_labels)}
        others |= {f"sum {m.cell.index}": m for m in blocks.sums.all() if hasattr(m, "cell")}
        boxes = {key: _box(m) for key, m in others.items()}
        found.append((moment.time, _box(note), boxes))
        theme = scene.stage.theme
        facts["px"] = digit_height(blocks.plan.scale.note) * 720 / float(config.frame_height)
        facts["contrast"] = contrast_ratio(note.get_color().to_hex(), theme.background)
        facts["right"] = float(config.frame_width) / 2

    play_moments(
        shared_board("PositionBlindness", CASES[name]),
        read,
        alphas=ALPHAS,
        pixel_width=256,
        pixel_height=144,
        beats={"add"},
    )
    return tuple(found), facts


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_note_never_swells_into_its_neighbours(name: str) -> None:
    """At every sampled moment the note keeps 0.9 of its resting distance from each neighbour."""
    from embedviz.render.design import MARGIN

    moments, facts = _moments(name)
    _, rest, others = moments[-1]
    near = {key: _apart(rest, box) for key, box in others.items()}
    assert min(near.values()) < 1.0, "some neighbour is near the note (else this checks little)"
    closest = min(near, key=lambda key: near[key])
    crowded = []
    for time, note, boxes in moments:
        assert note[2] <= facts["right"] - MARGIN + 1e-6, (time, note[2])
        for key, box in boxes.items():
            if _apart(note, box) < 0.9 * near[key] - 1e-6:
                crowded.append((round(time, 2), key, round(_apart(note, box), 3)))
    assert not crowded, (closest, round(near[closest], 3), crowded[:4])


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_note_is_a_readable_legend(name: str) -> None:
    """At rest the note is at least MIN_NOTE_PX tall at 720p and 4.5:1 against the background."""
    from embedviz.render.design import MIN_NOTE_PX

    _, facts = _moments(name)
    assert facts["px"] >= MIN_NOTE_PX, facts
    assert facts["contrast"] >= 4.5, facts
