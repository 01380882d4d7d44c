"""BatchLookup's shape line, ``output 2 × 4 × 3``: the stack's label, at the labels' size.

Issue 18 (a teacher's 720p review, ~81.0 s toy, ~89.6 s GPT-2): set from
the data's size down (an older review, session 23, asked for it larger) and
written right of the marks, it floated bottom right, away from the slices
it names, larger than every other label. It is set at the labels' size
(:func:`shape_font`, the one sizing for every place it is written) and
stands under the stack, its right edge at the stack's (the B edge's), where
that is clear (:func:`under_stack_right`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, LEFT, RIGHT, VGroup, config

from embedviz.render.batch_plan import MARK_LINE
from embedviz.render.boxes import content_band
from embedviz.render.design import MARGIN, SPACE, Theme
from embedviz.render.glyphs import SansText
from embedviz.render.metrics import digit_height, xyz
from embedviz.render.mobjects import ShapeLabel
from embedviz.render.space import Box
from embedviz.render.type_scale import TypeScale
from embedviz.story.model import NumberCell

__all__ = ["STEPS", "ShapeLine", "clear_of", "shape_font", "shape_line", "under_stack_right"]

# How many steps the marks' size takes from the data's down to the label's (batch_finale).
STEPS = 4


def shape_font(scale: TypeScale) -> float:
    """Return the shape line's font: the labels' size, as the stack's other labels."""
    return scale.label


def _overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes ``(left, bottom, right, top)`` overlap (touching is not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class ShapeLine(VGroup):
    """The word and the shape, in a row; :attr:`shape` is the :class:`ShapeLabel`."""

    def __init__(self, word: SansText, shape: ShapeLabel) -> None:
        super().__init__(word, shape)
        self.shape = shape
        self.arrange(RIGHT, buff=SPACE * 2)


def shape_line(
    sizes: Sequence[NumberCell], word: str, top: np.ndarray, font: float, theme: Theme
) -> ShapeLine:
    """Return the word and the shape (:class:`ShapeLine`) at ``font``, its top left at ``top``.

    ``sizes``: the output's size cells, in axis order; ``word``: the line's
    word (``output``).
    """
    shape = ShapeLabel(sizes, font, theme.output)
    written = ShapeLine(SansText(word, font, theme.output), shape)
    written.move_to(top - xyz(0, digit_height(font) * MARK_LINE / 2)).align_to(top, LEFT)
    return written


def under_stack_right(written: ShapeLine, right: float, bottom: float) -> ShapeLine:
    """Stand ``written`` under the stack: its right edge at ``right``, SPACE under ``bottom``."""
    width, height = float(written.width), float(written.height)
    return written.move_to(xyz(right - width / 2, bottom - SPACE - height / 2))


def clear_of(written: ShapeLine, top: float, drawn: Sequence[Box]) -> bool:
    """Whether a line, SPACE around (up to ``top``), overlaps nothing drawn, in the frame's margin.

    And over the caption.
    """
    band = content_band()
    right = float(config.frame_width) / 2 - MARGIN
    left, bottom = (float(v) for v in written.get_corner(DOWN + LEFT)[:2])
    end = float(written.get_right()[0])
    box = (left - SPACE, bottom - SPACE, end + SPACE, top)
    return end <= right and bottom >= band[1] and not any(_overlaps(box, b) for b in drawn)
