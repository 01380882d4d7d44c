"""The words people read: on screen, in chapters and on the course page, all translatable.

Everything a viewer reads that is a word rather than a number, a symbol or
code is a *word* with a role: a heading such as ``embedding matrix E``, the
label of a hidden range (``rows {first}–{last} hidden``), the question
before a reveal, a chapter's name, a transcript's headings and the captions
and headers of its tables. Each layout declares the roles it uses, with
their English text, in its module under :mod:`embedviz.story.layouts`
(``LAYOUTS[layout].words``); a storyboard
carries them in :attr:`~embedviz.story.model.Storyboard.words`, and an
author may translate them there (``language: de`` with German words).

A word may be a *template* with placeholders in braces, e.g.
``rows {first}–{last} hidden``: the builder fills them with the core's
numbers, so a translation keeps every number true. A translation must use
exactly the placeholders of the English text (:func:`template_problem`).
Math symbols and punctuation (``=``, ``×``, ``…``) are not words and stay in
the renderer. Stdlib only.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, field

from embedviz.core.errors import EmbedvizError

__all__ = [
    "MAX_PAGE_WORD_CHARS",
    "MAX_WORD_CHARS",
    "PAGE_PREFIX",
    "Words",
    "max_chars",
    "placeholders",
    "template_problem",
]

# The longest a word drawn on screen may be, in characters: it is drawn on
# one line, in a heading, a label or a column header, and is shrunk to fit
# where it is longer.
MAX_WORD_CHARS = 48
# Words of the course page (role ``page_...``): table captions and headings,
# which wrap, so they may be longer.
PAGE_PREFIX = "page_"
MAX_PAGE_WORD_CHARS = 120
_NAME = re.compile(r"[a-z][a-z0-9_]*")


def max_chars(role: str) -> int:
    """Return how many characters the word with this role may have.

    Parameters
    ----------
    role
        A word role, e.g. ``token_ids`` or ``page_narration``.

    Returns
    -------
    int
        :data:`MAX_PAGE_WORD_CHARS` for a word of the page, else :data:`MAX_WORD_CHARS`.
    """
    return MAX_PAGE_WORD_CHARS if role.startswith(PAGE_PREFIX) else MAX_WORD_CHARS


def placeholders(text: str) -> frozenset[str]:
    """Return the placeholders of a template, e.g. ``{'first', 'last'}``.

    Parameters
    ----------
    text
        A word; ``{{`` and ``}}`` stand for literal braces.

    Returns
    -------
    frozenset of str
        The names between braces.

    Raises
    ------
    ValueError
        For a brace that opens or closes nothing, or a placeholder that is
        not a plain lower-case name (no ``{0}``, ``{x.y}``, ``{x!r}`` or ``{x:>4}``).
    """
    names = set()
    for _, name, spec, conversion in string.Formatter().parse(text):
        if name is None:
            continue
        if not _NAME.fullmatch(name) or spec or conversion:
            raise ValueError(f"{{{name}{'!' + conversion if conversion else ''}}} is not a name")
        names.add(name)
    return frozenset(names)


def template_problem(text: str, english: str) -> str | None:
    """Say what is wrong with a translated template, or return ``None`` if nothing is.

    Parameters
    ----------
    text
        The translation.
    english
        The English text of the same role, whose placeholders it must use.

    Returns
    -------
    str or None
        One clause such as ``uses the unknown placeholder {frist}`` or
        ``leaves out the placeholder {last}``; ``None`` when it uses exactly
        the English placeholders.
    """
    try:
        used = placeholders(text)
    except ValueError as error:
        return f"has a bad placeholder: {error} (write {{{{ and }}}} for braces)"
    expected = placeholders(english)
    unknown, missing = sorted(used - expected), sorted(expected - used)
    allowed = ", ".join(f"{{{name}}}" for name in sorted(expected)) or "none"
    if unknown:
        return f"uses the unknown placeholder {{{unknown[0]}}} (it may use {allowed})"
    if missing:
        return f"leaves out the placeholder {{{missing[0]}}} (it must use {allowed})"
    return None


@dataclass(frozen=True)
class Words:
    """The words of one storyboard, by role, and the filling of their placeholders.

    Attributes
    ----------
    texts
        Role -> text (English, or an author's translation).
    """

    texts: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, role: str, **values: object) -> str:
        """Return the word for a role with its placeholders filled in.

        Parameters
        ----------
        role
            A word role of the layout, e.g. ``gap_rows``.
        **values
            One value per placeholder, e.g. ``first=6, last=4818``.

        Returns
        -------
        str
            The text to show.

        Raises
        ------
        EmbedvizError
            If the role is unknown or a placeholder has no value.
        """
        try:
            template = self.texts[role]
        except KeyError:
            raise EmbedvizError(f"no word with role {role!r}") from None
        try:
            return template.format_map({name: str(value) for name, value in values.items()})
        except KeyError as missing:
            raise EmbedvizError(f"word {role!r} needs a value for {{{missing.args[0]}}}") from None
