"""One storyboard label in the sans voice, on one or several lines (a question, a note).

A prompt or a note is words, not code: :class:`SansLines` sets it as
:class:`~embedviz.render.glyphs.SansText` does, but on lines the caller
chose, centred or left-aligned, and keeps each line's slot box (its advance
width, one digit height tall) so that a word of a line can be found on screen
(:meth:`SansLines.word_span`: the lookup's question underlines its axes).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from embedviz.render.glyphs import REFERENCE_FONT_SIZE, SANS_FONT, SansText, glyph_font
from embedviz.render.metrics import text_width

__all__ = ["SansLines"]


class SansLines(SansText):
    """One label drawn in sans on several lines, as a single mobject.

    Its ``text`` and ``original_text`` are the whole label as the storyboard
    gives it, whatever lines it is drawn on: it is a label, which
    :func:`~embedviz.render.base.screen_texts` reads with the others (a
    plain :class:`~embedviz.render.glyphs.SansText` is a caption or a
    heading, and shows no digits). Its points are every line's glyphs, then each line's slot box
    (zero-area, four identical points per corner, as
    :class:`~embedviz.render.glyphs.GlyphString` has).

    Parameters
    ----------
    text
        The whole label.
    lines
        The lines drawn, top to bottom (pieces of ``text``).
    font_size
        Manim font size.
    color
        Fill colour.
    gap
        Space between one line's digit band and the next, in scene units.
    align
        ``center``: each line centred under the one above; ``left``: their
        left ends level.
    """

    def __init__(
        self,
        text: str,
        lines: list[str],
        font_size: float,
        color: str,
        gap: float,
        align: Literal["center", "left"] = "center",
    ) -> None:
        super().__init__("\n".join(lines), font_size, color)
        glyphs = glyph_font(SANS_FONT)
        scale = font_size / REFERENCE_FONT_SIZE
        digit = glyphs.digit_height * scale
        inks: list[np.ndarray] = []
        slots: list[np.ndarray] = []
        for number, line in enumerate(lines):
            points, width, _ = glyphs.points_for(line)
            left = -width * scale / 2 if align == "center" else 0.0
            y = -number * (digit + gap)
            if len(points):
                inks.append(points * scale + np.array([left, y, 0.0]))
            right = left + max(width, 1e-6) * scale
            corners = [[left, y - digit / 2, 0.0], [right, y + digit / 2, 0.0]]
            slots.append(np.repeat(np.array(corners, dtype=float), 4, axis=0))
        self.set_points(np.concatenate([*inks, *slots]))
        self.set_fill(color, opacity=1.0).set_stroke(width=0)
        self.lines = list(lines)
        self.original_text = text
        self.text = text
        self.natural_width = float(self.width)
        self.natural_height = float(self.height)
        # The first line's digits are centred on y = 0, as SansText's.
        self.line_below_top = float(self.get_top()[1])

    def line_corners(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """Return the bottom-left and top-right corners of line ``index``'s slot, now."""
        start = len(self.points) - 8 * (len(self.lines) - index)
        return self.points[start].copy(), self.points[start + 7].copy()

    def word_span(self, index: int, start: int, word: str) -> tuple[float, float]:
        """Return where ``word``, at character ``start`` of line ``index``, begins and ends (x).

        The line's slot is its advance width: a piece's place along it is the
        advance of the characters before it, scaled as the line is now.
        """
        low, high = self.line_corners(index)
        line = self.lines[index]
        per_unit = float(high[0] - low[0]) / text_width(line, 1.0, mono=False)
        x = float(low[0]) + text_width(line[:start], 1.0, mono=False) * per_unit
        return x, x + text_width(word, 1.0, mono=False) * per_unit
