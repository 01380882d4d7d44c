"""The late marks of the corridor arrangement: the blocks glide left for them, then they show.

Split from :mod:`~embedviz.render.parts.motion` (its module holds the lookup's
one thread of motion; this is the step after its last landing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from manim import Animation, AnimationGroup

from embedviz.render.pace import at_least
from embedviz.render.parts.glide import Glide, glide_floor
from embedviz.render.parts.schedule import Lookup, late_marks

if TYPE_CHECKING:
    from embedviz.render.parts.motion import LookupMotion

__all__ = ["late_glide"]


def late_glide(motion: LookupMotion, lookups: Sequence[Lookup]) -> list[Animation]:
    """Return the late marks' fade-in, after the blocks glide left to make room if they must.

    When resting far enough left for the marks would leave the frame's right
    side empty until they come, the blocks rest further right
    (:func:`~embedviz.render.parts.resting.rest_across`) and glide left
    together by ``motion.late_shift``, once, just before the marks fade in.
    """
    late = late_marks(lookups)
    if not late or motion.late_shift <= 0:
        return late
    shift = motion.late_shift
    block = Glide(lambda: motion.output_side(shown=True), 0.0, -shift)
    matrix = Glide(lambda: motion.matrix_side(shown=True), 0.0, -shift)
    motion.slide, motion.matrix_slide = motion.slide + shift, motion.matrix_slide - shift
    motion.late_shift = 0.0
    return [at_least(AnimationGroup(block, matrix), glide_floor(shift, 0.0)), *late]
