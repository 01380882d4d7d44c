"""A stand-in translation for tests: every word a person reads, in upper case between guillemets.

A real translation changes the words, the title, the summary and the
narration; this one does the same mechanically, keeping each template's
placeholders, so that a test can tell any English left over: every word the
storyboard gives is upper case, so a lower-case word on the screen or the
page did not come from it.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Mapping
from dataclasses import replace

from embedviz.story.contract import rebuild
from embedviz.story.model import Storyboard
from embedviz.story.phrases import ceil_ticks, make_phrases

# A word of two or more letters, not part of a longer name such as grad_fn or float32,
# nor an index in maths such as E[id] or P[pos].
_WORD = re.compile(r"(?<![\w\u00ab\[])[^\W\d_]{2,}(?![\w\u00bb])")


def marked(text: str) -> str:
    """Translate a word: its text in upper case between guillemets, placeholders kept."""
    pieces = []
    for literal, name, _, _ in string.Formatter().parse(text):
        pieces.append(literal.upper().replace("{", "{{").replace("}", "}}"))
        if name is not None:
            pieces.append(f"{{{name}}}")
    return "\u00ab" + "".join(pieces) + "\u00bb"


def marked_words(words: Mapping[str, str]) -> dict[str, str]:
    """Translate every word of a storyboard."""
    return {role: marked(text) for role, text in words.items()}


def _author_fields(board: Storyboard) -> Storyboard:
    """Translate what an author writes: the title, the summary and the narration."""
    beats = []
    for beat in board.beats:
        phrases = make_phrases(beat.narration.upper(), lambda text: text)
        needed = ceil_ticks(sum(phrase.duration for phrase in phrases))
        beats.append(
            replace(
                beat,
                narration=beat.narration.upper(),
                phrases=phrases,
                duration=max(beat.duration, needed),
            )
        )
    parts = tuple(_author_fields(part) for part in board.parts)
    return replace(
        board,
        title=marked(board.title) if board.title else "",
        summary=marked(board.summary) if board.summary else "",
        # A language without spoken-maths rules, so that no alternative is written in
        # a real language's words (German would say "mal" for ×).
        language="eo",
        beats=tuple(beats),
        parts=parts,
    )


def translated(board: Storyboard) -> Storyboard:
    """Rebuild a storyboard with every word translated, and translate what an author writes."""
    parts = tuple(replace(part, words=marked_words(part.words)) for part in board.parts)
    base = replace(board, parts=parts) if parts else board
    return _described(_author_fields(rebuild(base, words=marked_words(board.words))))


def _described(board: Storyboard) -> Storyboard:
    """Translate the sentences of the audio descriptions too (their numbers stay)."""
    parts = tuple(_described(part) for part in board.parts)
    return replace(board, parts=parts, description_words=marked_words(board.description_words))


def english_left(text: str) -> list[str]:
    """Return the words of ``text`` that have a lower-case letter: English a translation missed."""
    # A subscript letter (the t of wₜ) is maths, not a lower-case word.
    return [
        word
        for word in _WORD.findall(text)
        if any(char.islower() and "SUBSCRIPT" not in unicodedata.name(char, "") for char in word)
    ]
