"""A sentence's word pieces, first read as a line of the sentence, then each beside its row.

Issue 18 (a 720p review of MiniLM's twelve-token sentence): as the narration
said "'The cat sat on the mat …' splits into token pieces", the pieces
appeared at once in their final column, at the frame's right edge, in the
pieces' small type, and nothing else stood in the frame for six seconds. The
moment the class should see the sentence fall apart showed almost nothing.

Now the pieces first stand where the eye is, in reading order across the
middle of the frame, larger, with a word space and a half between them so
that the cuts show; they stay there as the next phrase names them and their IDs come
in over them; as E is named, each piece first goes (and shrinks) to its
place beside its output row, and E and the block come in after it. They are the
same objects throughout: one piece, one thing on screen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    RIGHT,
    Animation,
    AnimationGroup,
    Mobject,
    Succession,
    Transform,
    VMobject,
    smooth,
)

from embedviz.render.animations import make_reveal_animation
from embedviz.render.design import SPACE

__all__ = ["SETTLE_SECONDS", "SentenceLine", "flow_places"]

# The glide home and E's fade-in after it take at least this long (the intro's own
# motion is 1.6 s for three phrases: a glide across the frame in 0.3 s is a jump).
SETTLE_SECONDS = 2.4
# How much larger than beside the rows the pieces are read as a sentence, at most.
GROWTH = 2.2
# Gaps between pieces and between lines, in the pieces' (grown) height.
WORD_GAP = 1.5
LINE_GAP = 1.2


def flow_places(
    sizes: Sequence[tuple[float, float]], width: float, height: float, growth: float = GROWTH
) -> tuple[float, list[tuple[float, float]]]:
    """Set boxes in reading order in lines, centred in a ``width`` × ``height`` area.

    Parameters
    ----------
    sizes
        Each box's (width, height) at scale 1.
    width, height
        The area, centred on (0, 0).
    growth
        The largest scale tried; smaller scales are tried until the lines fit.

    Returns
    -------
    tuple
        The scale used, and each box's centre relative to the area's centre.
    """
    tall = max((h for _, h in sizes), default=0.0)
    scale = growth
    while True:
        lines = _balanced([w * scale for w, _ in sizes], tall * scale, width)
        line_h = tall * scale
        total_h = len(lines) * line_h + (len(lines) - 1) * LINE_GAP * line_h
        if total_h <= height or scale <= 1.0:
            break
        scale = max(1.0, scale - 0.1)
    places: list[tuple[float, float]] = []
    gap = WORD_GAP * tall * scale
    for row, line in enumerate(lines):
        y = total_h / 2 - line_h / 2 - row * line_h * (1 + LINE_GAP)
        span = sum(sizes[i][0] * scale for i in line) + gap * (len(line) - 1)
        x = -span / 2
        for i in line:
            w = sizes[i][0] * scale
            places.append((x + w / 2, y))
            x += w + gap
    return scale, places


def _balanced(widths: Sequence[float], tall: float, width: float) -> list[list[int]]:
    """Break into as few lines as ``width`` allows, as even in length as that count allows.

    (Greedy breaking left "mat was warm" alone under nine pieces: the narrowest
    width that still gives as few lines is searched instead.)
    """
    count = len(_lines(widths, tall, width))
    low, high = max(widths, default=0.0), width
    for _ in range(30):
        middle = (low + high) / 2
        if len(_lines(widths, tall, middle)) <= count:
            high = middle
        else:
            low = middle
    return _lines(widths, tall, high)


def _lines(widths: Sequence[float], tall: float, width: float) -> list[list[int]]:
    """Break boxes into lines no wider than ``width`` (a box wider alone keeps a line)."""
    gap = WORD_GAP * tall
    lines: list[list[int]] = [[]]
    used = 0.0
    for i, w in enumerate(widths):
        need = w if not lines[-1] else used + gap + w
        if lines[-1] and need > width:
            lines.append([i])
            used = w
        else:
            lines[-1].append(i)
            used = need
    return lines


class SentenceLine:
    """The word pieces, read first as the sentence they came from.

    Parameters
    ----------
    pieces
        The pieces, in reading order, at their places beside the rows.
    area
        (left, right, bottom, top) of the frame's free middle, in scene units.
    """

    def __init__(self, pieces: Sequence[VMobject], area: tuple[float, float, float, float]):
        self.pieces = list(pieces)
        self.homes: list[Mobject] = [piece.copy() for piece in self.pieces]
        left, right, bottom, top = area
        width, height = right - left - 2 * SPACE, top - bottom - 2 * SPACE
        sizes = [(float(p.width), float(p.height)) for p in self.pieces]
        self.scale, places = flow_places(sizes, width, height)
        centre = np.array([(left + right) / 2, (bottom + top) / 2, 0.0])
        for piece, (x, y) in zip(self.pieces, places, strict=True):
            piece.scale(self.scale)
            piece.move_to(centre + np.array([x, y, 0.0]))

    def show(self) -> Animation:
        """Return the pieces fading in as a line of the sentence."""
        return make_reveal_animation(self.pieces)

    def settle(self) -> Animation:
        """Return each piece going to its place beside its row: down (shrinking), then across.

        Straight lines crossed: "because", from the second line, ran into "the"
        from the first on their way to the column. Going down first, each piece
        stays under the pieces before it in reading order (the lines are further
        apart than the pieces are tall, and so are the rows), and then each slides
        along its own row.
        """
        pairs = zip(self.pieces, self.homes, strict=True)
        return AnimationGroup(*(self._home(piece, home) for piece, home in pairs))

    @staticmethod
    def _home(piece: VMobject, home: Mobject) -> Animation:
        down = home.copy().shift(RIGHT * (piece.get_center()[0] - home.get_center()[0]))
        return Succession(
            Transform(piece, down, rate_func=smooth), Transform(piece, home, rate_func=smooth)
        )
