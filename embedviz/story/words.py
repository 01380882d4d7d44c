"""The UI words drawn on screen: what a word is, and how long it may be.

Everything a stage writes that is a word rather than a number, a symbol or
a per-beat label (a heading such as ``embedding matrix E``, a column header
such as ``bytes each``, the legend's ``value colour``) is a *word* with a
role. Each layout declares the roles it draws, with their English text, in
its module under :mod:`embedviz.story.layouts`
(:data:`~embedviz.story.layouts.ENGLISH_WORDS` gathers them); a storyboard
carries them in :attr:`~embedviz.story.model.Storyboard.words`, derived in
English when it is built, and an author may translate them there
(``language: de`` with German words). Math symbols and punctuation (``=``,
``×``, ``…``) are not words and stay in the renderer.
"""

from __future__ import annotations

__all__ = ["MAX_WORD_CHARS"]

# The longest a word may be, in characters: it is drawn on one line, in a
# heading or a column header, and is shrunk to fit where it is longer.
MAX_WORD_CHARS = 48
