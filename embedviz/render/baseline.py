"""One baseline for the pieces of one phrase: words, numbers and symbols set side by side.

A monospace :class:`~embedviz.render.glyphs.GlyphString` aligns by its slot
box, which is centred on its digits; a proportional
:class:`~embedviz.render.glyphs.SansText` has only its ink for a box, which a
descender or an ascender stretches. Arranging a phrase by the boxes' centres
(manim's ``arrange``) would set "copies", "3" and "numbers" at three heights;
these helpers line the pieces up on their digits' centre line instead.
"""

from __future__ import annotations

import numpy as np
from manim import RIGHT, VGroup, VMobject

from embedviz.render.glyphs import GlyphString, SansText

__all__ = ["digit_line", "on_one_line", "put_on_line"]


def digit_line(text: VMobject) -> float:
    """Return the centre line of a text's digits: its baseline plus half a digit height.

    Parameters
    ----------
    text
        A :class:`GlyphString` (its slot box is centred on the line), a
        :class:`SansText`, or a group: its first text's line.

    Returns
    -------
    float
        The line's y, now.
    """
    for member in text.get_family():
        if isinstance(member, GlyphString):
            low, high = member.slot_corners()
            return float(low[1] + high[1]) / 2
        if isinstance(member, SansText):
            return member.digit_line()
    return float(text.get_center()[1])


def put_on_line(text: VMobject, y: float) -> VMobject:
    """Move a text up or down so that its digits are centred on ``y`` (returns it)."""
    text.shift(np.array([0.0, y - digit_line(text), 0.0]))
    return text


def on_one_line(pieces: list[VMobject], buff: float) -> VMobject:
    """Arrange the pieces of one phrase left to right, on the first piece's baseline.

    Parameters
    ----------
    pieces
        Texts (words, numbers, groups of them), in reading order.
    buff
        The space between neighbours.

    Returns
    -------
    manim.VGroup
        The pieces, grouped.
    """
    group = VGroup(*pieces).arrange(RIGHT, buff=buff)
    line = digit_line(pieces[0])
    for piece in pieces[1:]:
        put_on_line(piece, line)
    return group
