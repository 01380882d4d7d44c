"""The batch's opening draws E large while the output is only a question (issue 18).

A teacher's 720p review of the default BatchLookup (the 6 x 3 table): E stood
as small as the 50257 x 768 excerpt's, its digits 24.6 px, and the "output
shape?" panel took the right half of the frame (27 % of it) for the first
25 s. Until the reveal, E and the block of chips now rest large (their digits
at the type scale's ceiling for data), the panel takes only the room its
question needs, and at the reveal they settle home.
"""

from __future__ import annotations

from typing import Any

from manim import config

from embedviz.inputs import prepared_storyboard
from embedviz.render.batch_opening import OPENING_PX
from embedviz.render.design import MAX_DATA_PX, MIN_DEFAULT_DATA_PX
from embedviz.render.rest_fill import EMPTY_SHARE

# The beats before the reveal: the opening.
OPENING = ("intro", "batch", "predict")


def test_e_stands_large_until_the_reveal(moment_cache: Any) -> None:
    """E's digits stand at the ceiling for data in the opening (or past it, up to the
    opening's own, where the frame has room), and at the floor after."""
    ends = {s.beat.name: s for s in moment_cache("BatchLookup", {}) if s.alpha >= 1}
    for name, sample in ends.items():
        digits = [t.digit_px for t in sample.texts if t.cell and t.cell[0] == "weight"]
        assert digits, name
        if name in OPENING:
            # Old: 24.6 px, the lookups' size, all the way through.
            assert MAX_DATA_PX - 0.3 <= min(digits) <= OPENING_PX + 0.3, (name, min(digits))
        else:
            assert min(digits) >= MIN_DEFAULT_DATA_PX - 0.05, (name, min(digits))


def test_the_question_takes_only_the_room_it_needs() -> None:
    """The opening's panel is no larger than the empty area issue 18 allows (an eighth).

    It was the output's whole place: 7.2 x 4.2 units, 27 % of the frame.
    """
    from conftest import RecordingHost

    from embedviz.render.stages.batch import BatchStage
    from embedviz.render.theme import DARK

    stage = BatchStage(RecordingHost(), prepared_storyboard("BatchLookup", {}, environ={}), DARK)
    panel, question = stage.stack.placeholder, stage.stack.question
    assert question is not None
    share = panel.width * panel.height / (config.frame_width * config.frame_height)
    assert share <= EMPTY_SHARE, share
    assert panel.width >= question.width
    assert panel.height >= question.height
    # E and its block keep clear of the panel: they stand left of it.
    assert stage.matrix.grid.get_right()[0] < panel.get_left()[0]
    assert stage.chips.slots.get_right()[0] < panel.get_left()[0]
