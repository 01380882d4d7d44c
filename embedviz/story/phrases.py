"""Narration as phrases: caption cues of at most two short lines, held long enough to read.

A beat's narration is split into phrases. Each phrase is one caption cue of
at most :data:`CAPTION_LINES` lines of :data:`CAPTION_WIDTH` characters, and
it is held for as long as reading it needs at :data:`READING_RATE`
characters per second, plus :data:`PHRASE_PAUSE`. The phrases of a beat run
back to back from the beat's start, so the storyboard knows when every cue
(and, with ``--voice``, every spoken phrase) starts; a beat lasts at least as
long as its phrases together. Stdlib only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from embedviz.story.model import Beat, Description, Phrase, Storyboard
from embedviz.story.spoken import spoken_form

__all__ = [
    "CAPTION_LINES",
    "CAPTION_WIDTH",
    "MIN_CUE_SECONDS",
    "PHRASE_PAUSE",
    "READING_RATE",
    "TICK",
    "caption_lines",
    "ceil_ticks",
    "fits_caption",
    "make_phrases",
    "reading_seconds",
    "rephrased",
    "split_phrases",
    "with_pronunciations",
]

CAPTION_WIDTH = 42  # characters per caption line
CAPTION_LINES = 2  # lines per caption cue
READING_RATE = 15.0  # characters per second a viewer reads comfortably
PHRASE_PAUSE = 0.4  # seconds of rest after each phrase
MIN_CUE_SECONDS = 1.0  # no cue flashes by faster than this, however short
# Beat durations are whole multiples of this, so beats start on a frame at
# 15, 30 and 60 frames per second alike.
TICK = 0.2

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
# A clause ends at , ; or : but not inside a list of numbers ("0, 1, 0"),
# which a caption must not break.
_CLAUSE_END = re.compile(r"(?<=[,;:])\s+(?=\S)(?!(?<=\d,\s)[-\u2212]?\d)")
# Where a clause too long for one cue can still break naturally: before a conjunction.
_CONJUNCTION = re.compile(r"\s+(?=(?:and|so|but|which|because|while|then)\s)")
_SPACE = re.compile(r"\s+")


def caption_lines(text: str, width: int = CAPTION_WIDTH) -> tuple[str, ...]:
    """Wrap a caption into lines of at most ``width`` characters, greedily by word.

    Parameters
    ----------
    text
        The caption's text.
    width
        The most characters per line; a single longer word gets a line of
        its own.

    Returns
    -------
    tuple of str
        The lines, in order (none for blank text).
    """
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return tuple(lines)


def fits_caption(text: str) -> bool:
    """Return whether ``text`` fits one cue: at most two lines of 42 characters.

    Parameters
    ----------
    text
        A caption.

    Returns
    -------
    bool
        True when its wrapped lines are few and short enough.
    """
    lines = caption_lines(text)
    return len(lines) <= CAPTION_LINES and all(len(line) <= CAPTION_WIDTH for line in lines)


def _depth(text: str) -> int:
    """How many brackets are open at the end of ``text``."""
    return sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")


def _split_outside(text: str, pattern: re.Pattern[str]) -> list[str]:
    """Split at the pattern's matches, but never inside brackets (``E[3, 0]`` stays whole)."""
    pieces: list[str] = []
    start = 0
    # The depth is carried from match to match, so long text is split in linear time.
    depth, counted = 0, 0
    for match in pattern.finditer(text):
        depth += _depth(text[counted : match.start()])
        counted = match.start()
        if depth == 0:
            pieces.append(text[start : match.start()])
            start = match.end()
    pieces.append(text[start:])
    return [piece for piece in pieces if piece]


def _pack(pieces: Sequence[str], joiner: str = " ") -> list[str]:
    """Join consecutive pieces greedily while the result still fits one cue."""
    packed: list[str] = []
    for piece in pieces:
        if packed and fits_caption(packed[-1] + joiner + piece):
            packed[-1] = packed[-1] + joiner + piece
        else:
            packed.append(piece)
    return packed


def _split_long(sentence: str) -> list[str]:
    """Split a sentence too long for one cue at clause ends, then between words."""
    phrases: list[str] = []
    for clause in _pack(_split_outside(sentence, _CLAUSE_END)):
        if fits_caption(clause):
            phrases.append(clause)
            continue
        for part in _pack(_split_outside(clause, _CONJUNCTION)):
            phrases.extend([part] if fits_caption(part) else _pack(_split_outside(part, _SPACE)))
    return phrases


def split_phrases(narration: str) -> tuple[str, ...]:
    """Split narration into phrases, each one caption cue of at most two 42-character lines.

    Every sentence starts a new phrase; a sentence too long for one cue is
    split at its clause ends (``,`` ``;`` ``:``, never inside a list of
    numbers such as ``0, 1, 0``), a clause still too long before a
    conjunction, and only then between words.

    Parameters
    ----------
    narration
        A beat's narration.

    Returns
    -------
    tuple of str
        The phrases in order; joined with single spaces they give back the
        narration (with its whitespace collapsed).
    """
    text = " ".join(narration.split())
    if not text:
        return ()
    phrases: list[str] = []
    for sentence in _split_outside(text, _SENTENCE_END):
        phrases.extend([sentence] if fits_caption(sentence) else _split_long(sentence))
    return tuple(phrases)


def reading_seconds(text: str) -> float:
    """Return how long a phrase is held for reading: its characters at 15 per second, plus a pause.

    Parameters
    ----------
    text
        The phrase as written.

    Returns
    -------
    float
        Seconds, rounded to the millisecond; never under
        :data:`MIN_CUE_SECONDS` plus the pause.
    """
    return round(max(len(text) / READING_RATE, MIN_CUE_SECONDS) + PHRASE_PAUSE, 3)


def ceil_ticks(seconds: float) -> float:
    """Round a time up to whole ticks (:data:`TICK`), so beats start on a frame.

    Parameters
    ----------
    seconds
        A duration.

    Returns
    -------
    float
        The smallest whole number of ticks not shorter than it (to within a
        microsecond).
    """
    return round(math.ceil(round(seconds / TICK, 6)) * TICK, 6)


def make_phrases(
    narration: str,
    speak: Callable[[str], str],
    holds: Sequence[float] | None = None,
) -> tuple[Phrase, ...]:
    """Split narration into timed phrases, back to back from the beat's start.

    Parameters
    ----------
    narration
        A beat's narration.
    speak
        Gives a phrase's spoken form (see :func:`embedviz.story.spoken.spoken_form`).
    holds
        Each phrase's hold in seconds; by default its reading time.

    Returns
    -------
    tuple of Phrase
        The phrases with their start times and holds.
    """
    texts = split_phrases(narration)
    times = [reading_seconds(text) for text in texts] if holds is None else list(holds)
    if len(times) != len(texts):
        raise ValueError(f"{len(times)} holds for {len(texts)} phrases")
    phrases: list[Phrase] = []
    start = 0.0
    for text, hold in zip(texts, times, strict=True):
        phrases.append(Phrase(text, speak(text), round(start, 3), round(hold, 3)))
        start += round(hold, 3)
    return tuple(phrases)


def _restarted(phrases: Sequence[Phrase], holds: Sequence[float]) -> tuple[Phrase, ...]:
    restarted: list[Phrase] = []
    start = 0.0
    for phrase, hold in zip(phrases, holds, strict=True):
        restarted.append(replace(phrase, start=round(start, 3), duration=round(hold, 3)))
        start += round(hold, 3)
    return tuple(restarted)


def rephrased(board: Storyboard, holds: Sequence[Sequence[float]]) -> Storyboard:
    """Return the storyboard with new phrase holds (e.g. measured speech), beats stretched to fit.

    Parameters
    ----------
    board
        A storyboard whose beats have phrases.
    holds
        For every beat of :meth:`Storyboard.all_beats`, one hold per phrase,
        in seconds.

    Returns
    -------
    Storyboard
        Phrases restarted back to back with the new holds; each beat lasts
        its old duration, or longer (in whole ticks) where its phrases now
        need more.

    Raises
    ------
    ValueError
        If the counts of beats or phrases disagree.
    """
    beats = board.all_beats()
    if len(holds) != len(beats):
        raise ValueError(f"{len(holds)} beats of holds for {len(beats)} beats")
    queue = iter(holds)

    def beat_with(beat: Beat, times: Sequence[float]) -> Beat:
        if len(times) != len(beat.phrases):
            count = len(beat.phrases)
            raise ValueError(f"{len(times)} holds for the {count} phrases of {beat.name}")
        phrases = _restarted(beat.phrases, times)
        needed = ceil_ticks(sum(phrase.duration for phrase in phrases))
        return replace(beat, phrases=phrases, duration=max(beat.duration, needed))

    def again(part: Storyboard) -> Storyboard:
        if part.parts:
            return replace(part, parts=tuple(again(p) for p in part.parts))
        return replace(part, beats=tuple(beat_with(beat, next(queue)) for beat in part.beats))

    return again(board)


def with_pronunciations(
    board: Storyboard,
    corrections: Mapping[str, str],
    speak: Callable[[str], str] = spoken_form,
) -> Storyboard:
    """Return the storyboard with an author's pronunciations in the spoken forms.

    Captions and descriptions keep the written form; only what the voice says
    changes, in the phrases and in the audio descriptions alike.

    Parameters
    ----------
    board
        A storyboard whose beats have phrases.
    corrections
        Written text and how to say it, e.g. ``{"GPT-2": "G P T two"}``;
        each is replaced in the written phrase (whole words only) before it
        is verbalised.
    speak
        The verbaliser.

    Returns
    -------
    Storyboard
        The same storyboard and timing, with new ``spoken`` forms.
    """
    if not corrections:
        return board
    pattern = re.compile(
        "|".join(rf"(?<!\w){re.escape(word)}(?!\w)" for word in sorted(corrections, key=len)[::-1])
    )

    def say(phrase: Phrase) -> Phrase:
        respelled = pattern.sub(lambda match: corrections[match.group()], phrase.text)
        return phrase if respelled == phrase.text else replace(phrase, spoken=speak(respelled))

    def describe(description: Description) -> Description:
        respelled = pattern.sub(lambda match: corrections[match.group()], description.text)
        if respelled == description.text:
            return description
        return replace(description, spoken=speak(respelled))

    def again(part: Storyboard) -> Storyboard:
        if part.parts:
            return replace(part, parts=tuple(again(p) for p in part.parts))
        beats = tuple(
            replace(
                b,
                phrases=tuple(say(p) for p in b.phrases),
                descriptions=tuple(describe(d) for d in b.descriptions),
            )
            for b in part.beats
        )
        return replace(part, beats=beats)

    return again(board)
