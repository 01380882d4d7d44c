"""Cheap, checkable text: numbers and labels built from reused glyphs.

Building a manim ``Text`` costs a Pango layout and an SVG parse, and a grid
holds many numbers. A :class:`GlyphCache` lays out each font size's
character set once, in one ``Text``, and then builds every string from
copies of those glyphs at monospace offsets, which is several times faster
and keeps all numbers pixel-aligned.

Every number drawn is a :class:`NumberText` that remembers the exact string,
the storyboard cell it shows, and the value behind it, so tests can read the
screen back.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from manim import VGroup, VMobject

from embedviz.render.theme import MONO_FONT
from embedviz.story.model import NumberCell

__all__ = ["GlyphCache", "LabelText", "NumberText", "glyph_cache"]

_CHARSET = (
    "0123456789.-+e"
    "abcdfghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "()[]{}<>=,:;_'\"?!/*%#&|@^~`\\$"
)
# Symbols that the monospace font may lack: Pango then falls back to another
# font with other widths, so each is measured on its own, beside a zero.
_SYMBOLS = "\u00d7\u2013\u2026\u22ee\u2192"


class GlyphCache:
    """Glyph templates for one monospace font at one size.

    Parameters
    ----------
    font_size
        Manim font size.
    font
        A monospace font family.
    """

    def __init__(self, font_size: float, font: str = MONO_FONT) -> None:
        from manim import Text

        # The charset is framed by zeros so that the slot width (advance)
        # and the slot origin can be measured from two identical glyphs.
        reference = Text("0" + _CHARSET + "0", font=font, font_size=font_size)
        glyphs = list(reference.submobjects)
        first, last = glyphs[0].get_center(), glyphs[-1].get_center()
        self.advance = float(last[0] - first[0]) / (len(_CHARSET) + 1)
        self.font_size = font_size
        self.height = float(glyphs[0].height)
        self._templates: dict[str, tuple[VMobject, np.ndarray]] = {}
        for slot, char in enumerate(_CHARSET, start=1):
            glyph = glyphs[slot]
            slot_centre = first + np.array([slot * self.advance, 0.0, 0.0])
            self._templates[char] = (glyph, glyph.get_center() - slot_centre)
        for char in _SYMBOLS:
            zero, symbol = Text("0" + char, font=font, font_size=font_size).submobjects
            # Centre the symbol in its slot; keep its height relative to a zero.
            offset = symbol.get_center() - zero.get_center()
            offset[0] = 0.0
            self._templates[char] = (symbol, offset)

    def build(self, text: str, color: str) -> list[VMobject]:
        """Return positioned glyph copies for ``text`` (spaces take a slot).

        Parameters
        ----------
        text
            The string; every non-space character must be in the charset.
        color
            Fill colour.

        Returns
        -------
        list of VMobject
            One glyph per visible character, the first slot centred on x=0.
        """
        pieces: list[VMobject] = []
        for slot, char in enumerate(text):
            if char == " ":
                continue
            if char not in self._templates:
                raise ValueError(f"no glyph for {char!r} in the embedviz charset")
            template, offset = self._templates[char]
            glyph = template.copy()
            glyph.move_to(np.array([slot * self.advance, 0.0, 0.0]) + offset)
            glyph.set_fill(color, opacity=1.0).set_stroke(width=0)
            pieces.append(glyph)
        return pieces

    def width_of(self, text: str) -> float:
        """Return the advance width of ``text`` in scene units."""
        return len(text) * self.advance


@cache
def glyph_cache(font_size: float) -> GlyphCache:
    """Return the shared glyph cache for a font size (built on first use).

    Parameters
    ----------
    font_size
        Manim font size.

    Returns
    -------
    GlyphCache
        The cache.
    """
    return GlyphCache(font_size)


class _GlyphText(VGroup):  # type: ignore[misc]
    """A monospace string made of glyph copies, with its text remembered."""

    def __init__(self, text: str, font_size: float, color: str, **kwargs: Any) -> None:
        glyphs = glyph_cache(font_size)
        super().__init__(*glyphs.build(text, color), **kwargs)
        self.text = text
        self.font_size = font_size
        # The box every string of this length occupies, so that strings can
        # be aligned by their slots rather than by their ink.
        self.slot_width = glyphs.width_of(text)
        self._anchor = VMobject().set_points_as_corners(
            [
                [-glyphs.advance / 2, -glyphs.height / 2, 0],
                [self.slot_width - glyphs.advance / 2, glyphs.height / 2, 0],
            ]
        )
        # Zero width and zero area: invisible even after set_opacity(...).
        self._anchor.set_stroke(width=0, opacity=0).set_fill(opacity=0)
        self.add(self._anchor)


class NumberText(_GlyphText):
    """A number on screen, tied to the storyboard cell it shows.

    Parameters
    ----------
    cell
        The storyboard cell: its ``text`` is drawn verbatim.
    font_size
        Manim font size.
    color
        Fill colour.
    """

    def __init__(self, cell: NumberCell, font_size: float, color: str) -> None:
        super().__init__(cell.text, font_size, color)
        self.cell = cell


class LabelText(_GlyphText):
    """A monospace label (code, punctuation, gap labels) recorded in the storyboard.

    Parameters
    ----------
    text
        The exact label.
    font_size
        Manim font size.
    color
        Fill colour.
    """

    def __init__(self, text: str, font_size: float, color: str) -> None:
        super().__init__(text, font_size, color)
