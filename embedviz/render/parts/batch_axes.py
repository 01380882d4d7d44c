"""BatchLookup's sized symbols, in the one maths voice: ``batch B = 2``, ``d = 3``.

The braces round the chips and the slices name their axes with typeset
symbols (``B``, ``T``, ``d``): where a label gives an axis its size, the
symbol, ``=`` and the size are typeset as one formula too
(:class:`~embedviz.render.parts.symbols.IndexedSymbol`, so the size stays a
checked cell), in the muted colour of the braces and symbols, the size in
the text colour. The words before it (``batch``, ``sequence length``) stay sans.

A label ``words X =`` (the storyboard's ``batch_axis``) is split at its last
one-letter word; a translation written another way is drawn whole, in sans,
as before (as :func:`~embedviz.render.parts.lookup.heading_words` does).
"""

from __future__ import annotations

import re

from manim import RIGHT, VGroup, VMobject

from embedviz.render.design import SPACE, Theme
from embedviz.render.formula import formula_width
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import text_width, xyz
from embedviz.render.parts.symbols import IndexedSymbol
from embedviz.story.model import NumberCell

__all__ = ["axis_label", "axis_label_width", "sized_symbol"]

# ``batch B =``: the words, then a one-letter symbol and its ``=``.
_AXIS = re.compile(r"^(?P<words>.*\S)\s+(?P<symbol>[^\W\d_])\s*=$")


def _split(label: str) -> tuple[str, str] | None:
    """Return a label's words and its symbol's maths (``B =``), or None if it has none."""
    found = _AXIS.match(label)
    return None if found is None else (found["words"], f"{found['symbol']} =")


def sized_symbol(before: str, cell: NumberCell, font: float, theme: Theme) -> IndexedSymbol:
    """Typeset ``before`` and a size (``d = 3``): the symbol muted, the size in the text colour."""
    symbol = IndexedSymbol(before, cell, "", theme.muted, font)
    symbol.number.set_fill(theme.text)
    return symbol


def axis_label(label: str, cell: NumberCell, font: float, theme: Theme) -> VGroup:
    """Return an axis's label and size: sans words, then the symbol and size as one formula.

    Parameters
    ----------
    label
        The storyboard's label (``batch B =``).
    cell
        The axis's size (a ``batch_dim`` cell).
    font
        The labels' font size.
    theme
        Colours.

    Returns
    -------
    VGroup
        The words and the typeset ``B = 2``, a word space apart, their digits level.
    """
    parts = _split(label)
    sized: VMobject
    if parts is None:
        words = SansText(label, font, theme.muted)
        sized = NumberText(cell, font, theme.text)
    else:
        words = SansText(parts[0], font, theme.muted)
        sized = sized_symbol(parts[1], cell, font, theme)
    line = VGroup(words, sized).arrange(RIGHT, buff=SPACE)
    # Level by the digits' centre line, not by the boxes (a "b" or a "g" stretches a box).
    digits = sized.number if isinstance(sized, IndexedSymbol) else sized
    words.shift(xyz(0, float(digits.get_center()[1]) - words.digit_line()))
    return line


def axis_label_width(label: str, size: str, font: float) -> float:
    """Return the width :func:`axis_label` takes for ``label`` and a size's text ``size``."""
    parts = _split(label)
    if parts is None:
        return text_width(label, font, mono=False) + SPACE + text_width(size, font)
    words, symbol = parts
    return text_width(words, font, mono=False) + SPACE + formula_width(symbol + size, font)
