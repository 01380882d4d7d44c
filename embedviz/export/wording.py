"""The words of a course page, from a storyboard, marked for language and read aloud well.

Every heading, table caption and header, link text and chapter name of a
page comes from the storyboard's words (:mod:`embedviz.story.words`), so a
translated storyboard gives a translated page. Two things keep the page
accessible (WCAG 2.2: 3.1.2 language of parts, 1.1.1 text alternatives):

- a word the author left in English on a page in another language (as a
  storyboard of version 2 leaves its page's words) is marked ``lang="en"``
  (and what is filled into it, such as the title, with the page's
  language), so that a screen reader switches voice;
- maths written with symbols (``T × d``, ``∂L/∂E``) keeps its symbols on
  screen and gets a spoken alternative for screen readers (``T by d``, from
  the spoken-maths rules of its language,
  :func:`embedviz.story.spoken.speaker_for`), where the language has rules.
  Stdlib only.
"""

from __future__ import annotations

import html
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, field

from embedviz.story.layouts import LAYOUTS
from embedviz.story.model import Storyboard
from embedviz.story.spoken import speaker_for
from embedviz.story.vocabulary import PAGE_WORDS
from embedviz.story.words import Words

__all__ = ["PageWords", "readable_html"]

# Maths a screen reader would read badly: operands joined by × or ·, and
# anything with a partial derivative, a sum sign or an arrow.
_MATHS = re.compile(
    r"[^\s,;:]+(?:\s*[\u00d7\u00b7]\s*[^\s,;:]+)+|[^\s,;:]*[\u2202\u03a3\u2190\u2192][^\s,;:]*"
)
# Shown to screen readers only; inline, so that a pasted snippet needs no stylesheet.
_SCREEN_READER_ONLY = (
    "position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;"
    "overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap"
)


def _group(role: str) -> str:
    """Return the group a word belongs to: the page's, the chapters' or the picture's."""
    return next((prefix for prefix in ("page_", "chapter_") if role.startswith(prefix)), "")


def _is_english(language: str) -> bool:
    return language.split("-")[0].lower() == "en"


def readable_html(text: str, language: str = "en") -> str:
    """Escape text for HTML, giving each stretch of symbol maths a spoken alternative.

    Parameters
    ----------
    text
        Plain text, e.g. ``A B × T batch``.
    language
        The text's language: its spoken-maths rules give the alternative
        (English, German, French); text in a language without rules keeps
        its symbols for every reader.

    Returns
    -------
    str
        HTML in which ``B × T`` reads ``B × T`` on screen (``aria-hidden``)
        and ``B by T`` to a screen reader (``B mal T`` in German).
    """
    speak = speaker_for(language)
    parts: list[str] = []
    cursor = 0
    for match in _MATHS.finditer(text):
        written = match.group()
        spoken = speak(written)
        parts.append(html.escape(text[cursor : match.start()]))
        if spoken == written:
            parts.append(html.escape(written))
        else:
            parts.append(
                f'<span aria-hidden="true">{html.escape(written)}</span>'
                f'<span style="{_SCREEN_READER_ONLY}">{html.escape(spoken)}</span>'
            )
        cursor = match.end()
    parts.append(html.escape(text[cursor:]))
    return "".join(parts)


@dataclass(frozen=True)
class PageWords:
    """The words of one storyboard's page, as plain text or as marked-up HTML.

    Attributes
    ----------
    words
        The storyboard's words (role -> text, perhaps translated).
    english
        The English text of each role, to tell an untranslated word.
    language
        The storyboard's language, the page's.
    """

    words: Mapping[str, str] = field(default_factory=dict)
    english: Mapping[str, str] = field(default_factory=lambda: dict(PAGE_WORDS))
    language: str = "en"

    @classmethod
    def of(cls, board: Storyboard) -> PageWords:
        """Return the page words of a storyboard (a part's, for its own tables)."""
        english = LAYOUTS[board.layout].words if board.layout in LAYOUTS else PAGE_WORDS
        return cls(dict(board.words), dict(english), board.language)

    def _template(self, role: str) -> str:
        # A clip record written without words (or a role a layout lacks) reads in English.
        return self.words.get(role) or self.english[role]

    def in_english(self, role: str) -> bool:
        """Return whether the word is English on a page in another language.

        A word is taken as left in English when it reads as the English one
        and so does every word of its group (the page's words, the chapters'
        or the picture's): an author who translated the group wrote the
        words that read the same in both languages (``Position``) on purpose.
        """
        if _is_english(self.language) or self._template(role) != self.english.get(role):
            return False
        group = _group(role)
        return all(
            self._template(other) == text
            for other, text in self.english.items()
            if _group(other) == group
        )

    def text(self, role: str, **values: object) -> str:
        """Return the word with its placeholders filled, as plain text."""
        return Words({role: self._template(role)})(role, **values)

    def html(self, role: str, **values: object) -> str:
        """Return the word with its placeholders filled, as HTML.

        An untranslated word on a page in another language is marked
        ``lang="en"``, and each value filled into it ``lang`` of the page;
        symbol maths gets a spoken alternative (:func:`readable_html`).
        """
        english = self.in_english(role)
        language = "en" if english else self.language
        inner = f' lang="{html.escape(self.language)}"' if english else ""
        pieces = []
        for literal, name, _, _ in string.Formatter().parse(self._template(role)):
            pieces.append(readable_html(literal, language))
            if name is not None:
                value = readable_html(str(values[name]), self.language)
                pieces.append(f"<span{inner}>{value}</span>" if inner else value)
        filled = "".join(pieces)
        return f'<span lang="en">{filled}</span>' if english else filled
