"""Symbols with a checked number inside, in the one maths voice: ``E[3]``, ``one_hot(3)``.

:func:`~embedviz.render.design.maths` sets a symbol with MathTypst; a symbol
whose index is a storyboard number (the ID in ``E[3]``) must still show that
number as a checked cell, so that the tests read it back and match it to the
core. :class:`IndexedSymbol` typesets the whole symbol with MathTypst, then
hands the index's glyphs to a :class:`~embedviz.render.glyphs.NumberText` of
the cell: one typeface, one checked number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

import numpy as np
from manim import VGroup, VMobject

from embedviz.render.design import maths
from embedviz.render.formula import FormulaText
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import char_advance, text_width, xyz
from embedviz.story.model import NumberCell

__all__ = ["IndexedSymbol", "TypesetNumber", "equality_mark", "word_line"]

# A row's name in an equality mark, typeset upright as a word (Typst reads bare ``out``
# as three variables' product).
_OUT = re.compile(r"\bout\b")


class TypesetNumber(NumberText):
    """A checked number drawn with typeset glyphs (taken from a MathTypst formula).

    Parameters
    ----------
    cell
        The storyboard cell it shows.
    glyphs
        The typeset glyphs of ``cell.text``, in order.
    colour
        Fill colour.
    font_size
        The size of the formula it came from.
    level
        The glyphs whose height is the slot's (its digits), where brackets
        reach further; by default all of them.
    """

    def __init__(
        self,
        cell: NumberCell,
        glyphs: list[VMobject],
        colour: str,
        font_size: float,
        level: Sequence[VMobject] | None = None,
    ) -> None:
        super().__init__(cell, font_size, colour)
        points = [g.points for g in glyphs if len(g.points)]
        ink = np.concatenate(points) if points else np.zeros((0, 3))
        low = np.min(ink, axis=0) if len(ink) else np.zeros(3)
        high = np.max(ink, axis=0) if len(ink) else np.zeros(3)
        tall = [g.points for g in level or () if len(g.points)]
        if tall:
            # Placed on a row's centre line as a table's digits are: by its digits.
            low[1], high[1] = min(p[:, 1].min() for p in tall), max(p[:, 1].max() for p in tall)
        # The zero-area slot box (four identical points per corner), as GlyphString has.
        anchor = np.repeat(np.array([low, high], dtype=float), 4, axis=0)
        self.set_points(np.concatenate([ink, anchor]))
        self.set_fill(colour, opacity=1.0).set_stroke(width=0)
        self.glyph_count = len(glyphs)
        self.slot_width = float(high[0] - low[0])


@cache
def _glyphs_in(source: str) -> int:
    """Return how many glyphs Typst draws for a piece of maths (0 for none)."""
    return len(FormulaText(source, 20, "#FFFFFF").submobjects) if source.strip() else 0


class IndexedSymbol(VGroup):
    """A symbol with a checked number inside, e.g. ``E[3]``, typeset as one formula.

    Parameters
    ----------
    before, after
        The Typst maths around the number, e.g. ``E[`` and ``]``.
    cell
        The number's storyboard cell (``lookup_row``, ``token_id``, ...).
    colour
        The colour of the object the symbol names.
    font_size
        The size of the text around it (as :func:`~embedviz.render.design.maths`).

    Attributes
    ----------
    pieces
        The typeset maths before and after the number (each a
        :class:`~embedviz.render.formula.FormulaText` whose ``text`` is its source).
    number
        The number, a :class:`TypesetNumber`.
    """

    def __init__(
        self, before: str, cell: NumberCell, after: str, colour: str, font_size: float
    ) -> None:
        whole = maths(before + cell.text + after, colour, font_size)
        start = _glyphs_in(before)
        glyphs = list(whole.submobjects)
        end = start + len(cell.text)
        self.number = TypesetNumber(cell, glyphs[start:end], colour, font_size)
        self.pieces = [
            _piece(whole, glyphs[a:b], text)
            for a, b, text in ((0, start, before), (end, len(glyphs), after))
            if b > a
        ]
        super().__init__(*self.pieces[:1], self.number, *self.pieces[1:])


def equality_mark(cell: NumberCell, font_size: float, colour: str) -> TypesetNumber:
    """Set an equality mark (``out[8] = out[0]``) in the one maths voice, as one checked number.

    The mark is maths, as the rule card ``out[t] = E[ids[t]]`` beside it is:
    typeset whole with MathTypst (``out`` upright), its glyphs handed to the
    mark's cell, so that the tests still read it back as the storyboard's
    ``equal_to`` text. Its slot is its digits' height (a bracket reaches
    further), so that it stands on a row's centre line as the table's digits do.

    Parameters
    ----------
    cell
        The ``equal_to`` cell; its text names both rows.
    font_size
        The size of the labels around it (as :func:`~embedviz.render.design.maths`).
    colour
        Its colour.

    Returns
    -------
    TypesetNumber
        The mark, not placed.
    """
    whole = maths(_OUT.sub('"out"', cell.text), colour, font_size)
    glyphs = list(whole.submobjects)
    chars = cell.text.replace(" ", "")
    digits = [g for g, char in zip(glyphs, chars, strict=True) if char.isdigit()]
    return TypesetNumber(cell, glyphs, colour, font_size, level=digits)


def _piece(whole: FormulaText, glyphs: list[VMobject], text: str) -> FormulaText:
    """Return a part of a typeset formula: some of its glyphs, with their own box and source."""
    piece = whole.copy()
    piece.submobjects = [glyph.copy() for glyph in glyphs]
    ink = np.concatenate([g.points for g in piece.submobjects if len(g.points)])
    box = np.array([ink.min(axis=0), ink.max(axis=0)], dtype=float)
    piece.set_points(np.repeat(box, 4, axis=0))
    piece.text = text
    piece.natural_height = float(piece.height)
    return piece


def word_line(
    pieces: Sequence[str | NumberCell], font_size: float, colours: Sequence[str]
) -> VGroup:
    """Set words (sans) and checked numbers side by side, as one line of a sentence.

    Parameters
    ----------
    pieces
        Words (from the storyboard) and cells, in reading order; a word that
        is only punctuation or an arrow is set the same way.
    font_size
        Font size of every piece.
    colours
        One colour per piece.

    Returns
    -------
    VGroup
        The pieces on one line, a word space apart, their digits level.
    """
    line = VGroup()
    space = char_advance(font_size) * 0.55
    x = 0.0
    for piece, colour in zip(pieces, colours, strict=True):
        if isinstance(piece, str):
            if not piece.strip():
                x += space
                continue
            # Built around its digits' centre line, as a number is: only shifted
            # sideways, its letters keep their places on the line.
            word = SansText(piece.strip(), font_size, colour)
            advance = text_width(piece.strip(), font_size, mono=False)
            word.shift(xyz(x + advance / 2, 0.0))
            x += advance + space
            line.add(word)
        else:
            number = NumberText(piece, font_size, colour)
            number.place(xyz(x, 0.0), align="left")
            x += number.slot_width + space
            line.add(number)
    return line
