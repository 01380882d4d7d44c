"""The moment sampler's batched reads (tests/conftest.py) are manim's numbers, one by one.

``sample_moments`` measures every text's box, width and height at once with
numpy (``_boxes_and_spans``), instead of asking each mobject; what it reads
must be what ``box_of`` (manim's corners) and manim's ``width``/``height``
give for each mobject alone, for every piece drawn, mid-motion and at beat ends.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from conftest import _boxes_and_spans, box_of

from embedviz.inputs import prepared_storyboard


def test_boxes_read_together_are_manims_own_corners_and_sizes() -> None:
    from embedviz.render.moments import play_moments

    # Typeset formulas (groups of glyphs) as well as texts, rules and outlines.
    board = prepared_storyboard("PositionBlindness", {}, environ={})
    alone: list[int] = []

    def read(scene_object: Any, moment: Any) -> None:
        shown = [
            m for top in scene_object.mobjects for m in top.get_family() if len(m.get_all_points())
        ]
        boxes, spans = _boxes_and_spans(shown)
        for mobject, box, (width, height) in zip(shown, boxes, spans, strict=True):
            assert np.array_equal(box, box_of(mobject)), type(mobject).__name__
            assert (width, height) == (mobject.width, mobject.height), type(mobject).__name__
            alone.append(int(not mobject.submobjects))

    play_moments(board, read, alphas=(0.5,), pixel_width=192, pixel_height=108)
    # Single paths measured together, and groups measured one by one.
    assert sum(alone) > 100
    assert len(alone) - sum(alone) > 20
