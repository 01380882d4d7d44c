"""BatchLookup's shape line, ``output 2 × 4 × 3``: as large as the room it stands in allows.

A review (session 23) found it small at the end of the ``shape`` beat: set at
a label's size, as the row numbers, the answer to the question the panel
asked from the start ("what shape will the whole output have?") read as a
footnote under the slices. It is set at the table digits' size where it
stands clear of everything drawn there, else as large as it does, never
under a label's.
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
from embedviz.story.model import NumberCell

__all__ = ["ShapeLine", "clear_of", "shape_line"]

# How many steps the size takes from the data's down to the label's.
STEPS = 4


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
    sizes: Sequence[NumberCell],
    word: str,
    top: np.ndarray,
    drawn: Sequence[Box],
    fonts: tuple[float, float],
    theme: Theme,
) -> ShapeLine:
    """Return the word and the shape (:class:`ShapeLine`) at ``top``.

    Parameters
    ----------
    sizes
        The output's size cells, in axis order.
    word
        The line's word (``output``).
    top
        The line's top left corner.
    drawn
        The boxes of what the frame shows when it comes.
    fonts
        The data's size and the label's: each size from the first down to the
        second, in :data:`STEPS`, is tried, and the first whose box,
        :data:`~embedviz.render.design.SPACE` around (its top as set: the notes'
        place is measured from there), overlaps nothing drawn, in the frame's
        margin and over the caption, is kept; else the label's.
    theme
        Colours.
    """
    data, label = fonts
    written = None
    for step in range(STEPS + 1):
        font = data + (label - data) * step / STEPS
        shape = ShapeLabel(sizes, font, theme.output)
        title = SansText(word, font, theme.output)
        written = ShapeLine(title, shape)
        written.move_to(top - xyz(0, digit_height(font) * MARK_LINE / 2)).align_to(top, LEFT)
        if clear_of(written, float(top[1]), drawn):
            break
    assert written is not None
    return written


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
