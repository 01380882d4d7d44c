"""The burned-in caption: one phrase of the narration, in balanced lines."""

from __future__ import annotations

import itertools
import unicodedata

import numpy as np
from manim import VGroup, config

from embedviz.render.design import CAPTION_FONT, DARK, MIN_TEXT_PX, REFERENCE_PX, Theme
from embedviz.render.glyphs import REFERENCE_FONT_SIZE, SANS_FONT, SansText, glyph_font
from embedviz.story.phrases import caption_lines

__all__ = ["SUBSCRIPT_SCALE", "Caption", "CaptionText"]

# A subscript run is drawn as its base characters at this share of the caption's
# size (TeX's script style), lowered by SUBSCRIPT_DROP digit heights: the font's
# own subscript glyphs ("wₜ") are 11 px tall at 720p, under the 12 px floor.
SUBSCRIPT_SCALE = 0.7
SUBSCRIPT_DROP = 0.35
LINE_SPACING = 2.1  # as SansText's: baselines this many digit heights apart


def _subscript_base(char: str) -> str | None:
    """Return the character a Unicode subscript stands for (``ₜ`` → ``t``), or None."""
    tag, _, code = unicodedata.decomposition(char).partition(" ")
    return chr(int(code, 16)) if tag == "<sub>" and code else None


class CaptionText(SansText):
    """Caption lines in DejaVu Sans, with Unicode subscripts drawn large enough to read.

    Each run of subscript characters (``ₜ``, ``₀``) is drawn as its base
    characters (``t``, ``0``) at :data:`SUBSCRIPT_SCALE` of the size, or larger
    where that would leave a glyph under :data:`MIN_TEXT_PX` at 720p, and
    lowered below the baseline; everything else is laid out as
    :class:`SansText` lays it out.

    Parameters
    ----------
    text
        The text; newlines separate lines.
    font_size
        Manim font size.
    color
        Fill colour.
    """

    def __init__(self, text: str, font_size: float, color: str) -> None:
        super().__init__(text, font_size, color, LINE_SPACING)
        if not any(_subscript_base(char) for char in text):
            return
        glyphs = glyph_font(SANS_FONT)
        scale = font_size / REFERENCE_FONT_SIZE
        blocks = []
        for number, line in enumerate(text.split("\n")):
            points, width = self._line(line, scale)
            if len(points):
                shift = np.array([-width / 2, -number * glyphs.digit_height * LINE_SPACING, 0])
                blocks.append(points + shift)
        self.set_points(np.concatenate(blocks) * scale if blocks else np.zeros((0, 3)))
        # As SansText records them, for the moves and the size checks that read them back.
        self.natural_width = float(self.width) if len(self.points) else 0.0
        self.line_below_top = float(self.get_top()[1]) if len(self.points) else 0.0
        self.natural_height = float(self.height) if len(self.points) else 0.0

    @staticmethod
    def _line(line: str, scale: float) -> tuple[np.ndarray, float]:
        """Return one line's outline at the reference size, and its advance width."""
        glyphs = glyph_font(SANS_FONT)
        # Reference units per pixel at 720p, at this font size.
        unit_px = scale * REFERENCE_PX / float(config.frame_height)
        parts: list[np.ndarray] = []
        x = 0.0
        for lowered, run in itertools.groupby(line, key=lambda c: _subscript_base(c) is not None):
            chars = "".join(_subscript_base(c) or c for c in run)
            points, width, _ = glyphs.points_for(chars)
            if lowered and len(points):
                # At least the floor: an x-height letter ("ₐ") needs more than a "t".
                shortest = min(_ink_height(c) for c in chars if not c.isspace())
                size = max(SUBSCRIPT_SCALE, MIN_TEXT_PX * 1.05 / (shortest * unit_px))
                drop = SUBSCRIPT_DROP * glyphs.digit_height
                points = points * size - np.array([0.0, drop, 0.0])
                width *= size
            if len(points):
                parts.append(points + np.array([x, 0.0, 0.0]))
            x += width
        return (np.concatenate(parts) if parts else np.zeros((0, 3))), x


def _ink_height(char: str) -> float:
    """Return a character's ink height at the reference size."""
    points, _, _ = glyph_font(SANS_FONT).points_for(char)
    return float(np.ptp(points[:, 1])) if len(points) else 0.0


class Caption(VGroup):
    """The narration at the bottom of the frame: a phrase, in at most two balanced lines.

    Lines are broken as the WebVTT cues are (:func:`embedviz.story.phrases.caption_lines`:
    balanced, never one word alone on a line). A narration longer than two
    lines (one without phrases) shrinks to keep to the caption band.
    Subscripts (``wₜ``) are drawn at a readable size (:class:`CaptionText`).

    Parameters
    ----------
    text
        The phrase.
    width
        The widest it may be.
    font_size
        Font size.
    theme
        Colours.
    language
        The narration's BCP 47 tag: it chooses the words a line may not end on.
    """

    def __init__(
        self,
        text: str,
        width: float,
        font_size: float = CAPTION_FONT,
        theme: Theme = DARK,
        language: str = "en",
    ) -> None:
        lines = list(caption_lines(text, language=language))
        body = CaptionText("\n".join(lines), font_size, theme.text)
        if body.width > width:
            body.scale_to_fit_width(width)
        if len(lines) > 2:
            body.scale(2 / len(lines))
        super().__init__(body)
        self.text = text
        self.lines = tuple(lines)
