"""A hidden range's label (``rows 6–50255 hidden``) in the sans voice.

Issue 18's rule: monospace is only for code and PyTorch prints. A hidden
range's label is words, so it is set in sans, at the legend's size and in
the muted colour as before; the table's digits and index numbers stay
monospace (tabular data). :class:`GapLabel` keeps the slot boxes and the
``place`` of the monospace label it replaces, so that the grids, the scroll
and the one-hot stage place it as they did.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from embedviz.render.sans_lines import SansLines

__all__ = ["GapLabel"]


class GapLabel(SansLines):
    """A hidden range's label, in sans, on one line or several.

    Parameters
    ----------
    text
        The whole label, as the storyboard gives it.
    font_size
        Manim font size.
    color
        Fill colour.
    lines
        The lines drawn, top to bottom; by default the whole label on one line.
    gap
        Space between one line's slot and the next, in scene units.
    """

    def __init__(
        self,
        text: str,
        font_size: float,
        color: str,
        lines: list[str] | None = None,
        gap: float = 0.0,
    ) -> None:
        super().__init__(text, lines or [text], font_size, color, gap)
        self.font_size = font_size

    def slot_corners(self) -> tuple[np.ndarray, np.ndarray]:
        """Return the bottom-left and top-right corners of the last line's slot, now."""
        return self.line_corners(len(self.lines) - 1)

    def ink_corners(self) -> tuple[np.ndarray, np.ndarray]:
        """Return the bottom-left and top-right corners of the drawn glyphs, now.

        As :meth:`embedviz.render.glyphs.GlyphString.ink_corners`: the slot
        boxes (eight points a line, after the glyphs) are left out.
        """
        ink = self.points[: len(self.points) - 8 * len(self.lines)]
        if not len(ink):
            return self.slot_corners()
        return ink.min(axis=0), ink.max(axis=0)

    def place(self, point: Any, align: str = "center") -> GapLabel:
        """Move the last line's slot so that its left, centre or right sits at ``point``.

        As :meth:`embedviz.render.glyphs.GlyphString.place`: ``point``'s y is
        the slot's vertical centre (the digits' centre line).
        """
        low, high = self.slot_corners()
        anchor_x = {"left": low[0], "center": (low[0] + high[0]) / 2, "right": high[0]}[align]
        target = np.asarray(point, dtype=float)
        self.shift(np.array([target[0] - anchor_x, target[1] - (low[1] + high[1]) / 2, 0.0]))
        return self
