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

import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import cache

from embedviz.story.leaning import ELISIONS, Leaning, leaning_for
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
    "continues_whole",
    "fits_caption",
    "make_phrases",
    "one_space",
    "reading_seconds",
    "reads_badly",
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

# A sentence ends at a breaking space after its mark, unless closing punctuation
# follows ("Non ! »"): a non-breaking one holds the words together.
_SENTENCE_END = re.compile(r"(?<=[.!?])[^\S\u00a0\u2007\u202f]+(?=[^\s?!:;\u00bb\u203a])")


def caption_lines(text: str, width: int = CAPTION_WIDTH, language: str = "en") -> tuple[str, ...]:
    """Break a caption into as few lines of at most ``width`` characters as it needs, balanced.

    Of the ways to break it into that many lines, the cheapest wins: each break
    costs by what it falls between (:func:`_break_costs`), and the lines cost
    by how far the longest runs past their mean, so they come out of similar
    length. A break after punctuation is best, then one before a conjunction
    or a function word (``and``, ``of``, ``the``), then one between any two
    words. A break inside a noun phrase (a two-word noun, ``batch / size``;
    after a number that counts the noun, an ordinal, a possessive or a
    hyphenated modifier, ``3 / numbers``, ``4th / row``), inside a list of
    numbers (``5, / 4, 3``), and a line that opens on an operator
    (``= 38,597,376``, ``× 768``) is taken only where nothing better fits; a
    line that ends on a word leaning on the next (``the``, ``de``, ``der``,
    and in English a quantifier or an ordinal word: ``each / parameter``,
    ``its first / copy``: see :mod:`embedviz.story.leaning`) only where every
    other break is as bad, and a word left alone on a line only where nothing
    else fits; a break between a word and the number or letter that belongs
    to it (``ID 3``, ``entry k``) costs much more than any plain one. A line
    never ends on an operator, never starts with ``?``, ``!``, ``:``, ``;``
    or ``»`` set off by a space, never ends with ``«`` or an elided word
    (``l'``), and never breaks at a non-breaking space.

    Parameters
    ----------
    text
        The caption's text.
    width
        The most characters per line; a single longer word gets a line of
        its own.
    language
        The caption's BCP 47 language tag; it chooses the words a line may
        not end on (none for a language without a list).

    Returns
    -------
    tuple of str
        The lines, in order (none for blank text).

    Examples
    --------
    >>> caption_lines("Those 3 numbers are the embedding of token 3.")
    ('Those 3 numbers', 'are the embedding of token 3.')
    """
    words = _words(text)
    if not words:
        return ()
    best = _best(words, width, leaning_for(language))
    return tuple(words) if best is None else best[1]


def _best(
    words: Sequence[str], width: int, leaning: Leaning
) -> tuple[float, tuple[str, ...]] | None:
    """Return the cheapest break of ``words`` into as few lines as fit, and its cost."""
    if not words:
        return None
    # No break into fewer lines can fit: start from the least count that might,
    # so that a long text costs one or two solver runs rather than one per word.
    fewest = max(1, -(-len(" ".join(words)) // (width + 1)))
    for count in range(fewest, len(words) + 1):
        best = _balanced(words, count, width, leaning)
        if best is not None:
            return best
    return None


# A number, or an operator, belongs on the line of the word before it ("ID 3",
# "row 2", "768 × 3"), and an operator also to the word after it.
_NUMBER = re.compile(r"[\d.,:;!?)\]%\u2013]+|[\u00d7=+\u2212\u2190\u2192\u00b7-]")
_OPERATOR = re.compile(r"[\u00d7=+\u2212\u2190\u2192\u00b7-]")
_RELATION = re.compile(r"[=\u2190\u2192]")


# Spaces a line may not break at: a French "valeurs\u00a0:" or "«\u202fmot\u202f»"
# is held together by its author, so it is one word to the line breaker.
_BREAKING_SPACE = re.compile(r"[^\S\u00a0\u2007\u202f]+")
# A word that may not start a line: closing punctuation set off by a space, as
# French writes it ("la sortie ?", "valeurs :", "mot »"), with any marks after it.
_CLOSING = re.compile(r"[?!:;\u00bb\u203a][^\w\s]*")
# A word that may not end a line: an opening guillemet set off by a space.
_OPENING = re.compile(r"[^\w\s]*[\u00ab\u2039]")
# Elided words of every language that elides ("l'", "qu'"): one written apart
# from its word ("l' embedding") still belongs to it.
_ELIDED = Leaning(frozenset(), frozenset().union(*ELISIONS.values()))


def one_space(text: str) -> str:
    """Collapse runs of breaking white space to one space; keep non-breaking spaces.

    Parameters
    ----------
    text
        A line of text.

    Returns
    -------
    str
        The text with single spaces between its words and none at its ends;
        a non-breaking space (French ``sortie\u00a0?``) stays as written, and
        one with nothing else between spaces goes.
    """
    return " ".join(word for word in _BREAKING_SPACE.split(text) if word.strip())


def _words(text: str) -> list[str]:
    """Split text at its breaking spaces into the words a line break may fall between.

    Punctuation set off by a space that may not start a line ("?", ":", "»")
    joins the word before it, and an opening guillemet or an elided word
    joins the word after it, so that no break separates them.
    """
    # Tokens are grouped first and joined once, so a long run of them stays linear.
    groups: list[list[str]] = []
    for token in _BREAKING_SPACE.split(text):
        if not token.strip():
            continue
        if groups and (_CLOSING.fullmatch(token) or _holds_next(groups[-1][-1])):
            groups[-1].append(token)
        else:
            groups.append([token])
    return [" ".join(group) for group in groups]


def _holds_next(word: str) -> bool:
    """Say whether ``word`` (its last part) may not end a line at all: it opens what follows.

    An opening guillemet, an elided word, and an operator (``=``, ``×``,
    ``+``, ``→``: ``E holds V × d =`` would leave its reader hanging).
    """
    last = word[word.rfind(" ") + 1 :]
    elided = _ELIDED.elision(last)
    return (
        bool(_OPENING.fullmatch(last))
        or bool(_OPERATOR.fullmatch(last))
        or (elided is not None and elided.end() == len(last))
    )


def _glued_after(words: Sequence[str]) -> list[bool]:
    """Say for each word whether a line break after it splits a pair that belongs together.

    A number after punctuation ("6 numbers: 1 at position 3") starts a phrase
    of its own, so it does not hold on to the word before it.
    """
    # A word may hold several (``sortie ?``): the pair is its last and the next one's first.
    lasts = [word.rsplit(" ", 1)[-1] for word in words]
    firsts = [word.split(" ", 1)[0] for word in words[1:]]
    return [
        bool(_OPERATOR.fullmatch(word))
        or (bool(_NUMBER.fullmatch(after)) and not word.endswith((":", ";", ",", ".")))
        for word, after in zip(lasts, [*firsts, ""], strict=True)
    ]


def _before_operator(words: Sequence[str]) -> list[float]:
    """Return for each word what opening the next line on the next word's operator adds (or 0).

    A line that opens on ``= 38,597,376`` reads as cut off from what it
    equates (a 720p review of ParameterCount), as one that ends on ``=`` does:
    :data:`_BAD_BREAK`. Where a formula is too long for a line and must break
    at one, a relation (``=``, ``→``) binds looser than the operators inside
    its sides, so a break inside ``50,257 × 768`` costs :data:`_GLUED_BREAK` more.
    """
    firsts = [word.split(" ", 1)[0] for word in words[1:]]
    return [
        0.0
        if not _OPERATOR.fullmatch(after)
        else _BAD_BREAK + (0.0 if _RELATION.fullmatch(after) else _GLUED_BREAK)
        for after in [*firsts, ""]
    ]


def _number(word: str) -> bool:
    """Say whether ``word`` is a number, as a list holds it (``4820``, ``-1.5``, ``5,``)."""
    return word.rstrip(",").lstrip("-\u2212").replace(".", "", 1).isdigit()


def _list_item(word: str) -> bool:
    """Say whether ``word`` is a number followed by a comma: an item of a list that goes on."""
    return word.endswith(",") and word[:-1].lstrip("-\u2212").replace(".", "", 1).isdigit()


# What a line break costs, by what it falls between. A break after punctuation ends a
# phrase; one before a function word or a conjunction ("of", "the", "and") starts
# the next; any other break between two words is plain. A break that splits what
# belongs together (a number from its word, "ID / 3") costs far more, and one that
# opens a line on an operator ("= 38,597,376"), splits a two-word noun or a list
# of numbers more still: each is taken only where nothing else fits. A line that
# ends on a word leaning on the next ("the / token row") reads as cut off, worse
# than one that splits a noun ("token / row" still ends on a word of its own), so
# it is taken only where every other break is as bad; and a word alone on a line,
# worst of all, only where nothing else fits. Each of these three steps costs a
# million times the one below: more than a caption's breaks of that step and its
# balance can add up to, so no sum of lesser faults outweighs one worse fault.
_PUNCTUATION_BREAK = 0.0
_CLAUSE_BREAK = 1.0
_PHRASE_BREAK = 4.0
_PLAIN_BREAK = 6.0
_GLUED_BREAK = 300.0
_BAD_BREAK = 1000.0
_LEANING_BREAK = 1e6 * _BAD_BREAK
_LONE_WORD = 1e6 * _LEANING_BREAK
# A cue whose best break costs this much or more reads badly: split into cues where it can.
_BADLY = _GLUED_BREAK
# What unbalanced lines cost: this times the sum of each line's squared relative
# distance from the mean length (16 and 32 characters: 6.7, as much as a plain break).
_BALANCE = 30.0

_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")
_QUANTITY = re.compile(r"[\d,.]*\d")
# A variable named by one letter after its word ("entry k", "row k", "matrix E").
_VARIABLE = re.compile(r"(?![aAI]\b)[A-Za-z][.,:;]?")
# A hyphenated modifier: "zero-based", "one-hot", "2-D", "16-bit" (not "GPT-2").
_HYPHENATED = re.compile(r"[a-z]+(?:-[a-z]+)+|\d+-[A-Za-z]+")
_PHRASE_END = (",", ":", ";", ".", "!", "?", "\u2014", "\u2013", ")")


def _content(word: str, leaning: Leaning) -> bool:
    """Say whether ``word`` is a content word: no function word, conjunction, number or mark."""
    bare = word.rstrip(".,:;!?)").lower()
    return bool(bare[:1].isalpha()) and bare not in leaning.words and bare not in leaning.openers


def _modifies(word: str, after: str, leaning: Leaning) -> bool:
    """Say whether ``word`` modifies the content word ``after``, so a break between splits them.

    An ordinal ("4th / row"), a number before a noun it counts ("3 / numbers"), a
    possessive ("row's / dot product"), a lower-case hyphenated adjective
    ("zero-based / row"), or two words of a listed noun ("batch / size").
    """
    if word.endswith(_PHRASE_END) or not _content(after, leaning):
        return False
    bare = after.rstrip(".,:;!?)").lower()
    return (
        bool(_ORDINAL.fullmatch(word))
        or (bool(_QUANTITY.fullmatch(word)) and bare in leaning.counted)
        or word.endswith(("'s", "\u2019s"))
        or bool(_HYPHENATED.fullmatch(word))
        or f"{word.lower()} {bare}" in leaning.compounds
    )


def _break_costs(words: Sequence[str], leaning: Leaning) -> list[float]:
    """Return what a line break after each word costs (:data:`_PLAIN_BREAK` and the others)."""
    glued = _glued_after(words)
    operator = _before_operator(words)
    # A number that opens a phrase ("numbers: 1 at position 3") leans on what follows too.
    # A list's last number ("1, 2, 4820, 50255 were") ends the list, and a line may end
    # there; a line that ends inside the list ("Rows 1," / "2, 4820") reads as cut off.
    # A list has three numbers or more ("row 3, 768 values" is no list).
    opens = [False, *(before.endswith((":", ";", ",")) for before in words[:-1])]
    items = [_list_item(word) for word in words]
    listed = [k >= 2 and items[k - 2] and items[k - 1] for k in range(len(words))]
    afters = [*words[1:], ""]
    # Its last item may come after "and" ("4, 3, 2 and 1"), and a pair or a range of
    # numbers is joined by "and", "or" or "to" ("rows 0 and 8", "rows 2 to 4"): a break
    # before the joining word splits them too.
    splits_list = [
        (item and bool(_NUMBER.fullmatch(after)))
        or (
            after in ("and", "or", "to")
            and bool(_QUANTITY.fullmatch(then.rstrip(".,:;")))
            and bool(_QUANTITY.fullmatch(word))
        )
        for word, after, then, item in zip(
            words, afters, [*words[2:], "", ""][: len(words)], items, strict=True
        )
    ]
    ended = [
        k > 0
        and (items[k - 1] or (k > 1 and words[k - 1] in ("and", "or") and _number(words[k - 2])))
        for k in range(len(words))
    ]
    costs = []
    for k, word in enumerate(words):
        last, after = word.rsplit(" ", 1)[-1], afters[k].split(" ", 1)[0]
        if operator[k]:
            costs.append(operator[k])
        elif leaning.leans(last):
            costs.append(_LEANING_BREAK)
        elif (
            splits_list[k]
            or (opens[k] and not listed[k] and bool(_NUMBER.fullmatch(word)))
            # A list's last number ("1, 2 and 4 rows") is an item, not a quantity.
            or (_modifies(last, after, leaning) and not ended[k])
        ):
            costs.append(_BAD_BREAK)
        elif glued[k] or (
            _VARIABLE.fullmatch(after)
            and _content(last, leaning)
            and not last.endswith(_PHRASE_END)
        ):
            costs.append(_GLUED_BREAK)
        elif last.endswith(_PHRASE_END):
            costs.append(_PUNCTUATION_BREAK)
        elif after.lower() in leaning.openers:
            costs.append(_CLAUSE_BREAK)
        elif not _content(after, leaning):
            costs.append(_PHRASE_BREAK)
        else:
            costs.append(_PLAIN_BREAK)
    return costs


def _balanced(
    words: Sequence[str], count: int, width: int, leaning: Leaning
) -> tuple[float, tuple[str, ...]] | None:
    """Return the cheapest break of ``words`` into ``count`` lines of ``width``, and its cost.

    The cost is the sum of the breaks' costs (:func:`_break_costs`; a word alone
    on a line costs :data:`_LONE_WORD`) and of how far the longest line runs
    past the mean (:data:`_BALANCE`: for two lines, how unequal they are); None
    when no break into ``count`` lines fits.
    """
    if count > len(words):
        return None
    costs = _break_costs(words, leaning)
    # ends[i] is the length of " ".join(words[:i]) plus one: a line's length is a
    # difference of two, so no line is joined before it is known to fit.
    ends = [0]
    for word in words:
        ends.append(ends[-1] + len(word) + 1)
    mean = max(1.0, (ends[-1] - count) / count)
    lengths = sorted(
        {
            ends[end] - ends[start] - 1
            for start in range(len(words))
            for end in range(start + 1, len(words) + 1)
            if ends[end] - ends[start] - 1 <= width
        }
    )
    best: tuple[float, tuple[int, ...]] | None = None
    # The longest line is tried from short to long; each try finds the cheapest
    # breaks within it, and once its imbalance alone costs more than the best, no
    # longer one can win.
    for longest in [length for length in lengths if length >= mean] or [width]:
        balance = _BALANCE * count * ((longest - mean) / mean) ** 2
        if best is not None and balance >= best[0]:
            break
        found = _cheapest_within(ends, costs, count, longest)
        if found is not None and (best is None or found[0] + balance < best[0]):
            best = (found[0] + balance, found[1])
    if best is None:
        return None
    edges = [0, *best[1]]
    return best[0], tuple(" ".join(words[a:b]) for a, b in itertools.pairwise(edges))


def _cheapest_within(
    ends: Sequence[int], costs: Sequence[float], count: int, limit: int
) -> tuple[float, tuple[int, ...]] | None:
    """Return the cheapest breaks into ``count`` lines of at most ``limit``, and their ends.

    ``ends`` are the words' running lengths (see :func:`_balanced`), ``costs``
    what a break after each word costs; a word alone on a line, when there are
    more words than lines, costs :data:`_LONE_WORD`, and a single word longer
    than ``limit`` may stand on a line of its own.
    """
    total = len(ends) - 1
    lone = _LONE_WORD if total > count else 0.0

    @cache
    def lines_from(start: int, left: int) -> tuple[float, tuple[int, ...]] | None:
        # (cost, ends of the lines) for the words from `start` in `left` lines.
        if left == 1:
            if ends[total] - ends[start] - 1 > limit and total - start > 1:
                return None
            return (lone if total - start == 1 else 0.0), (total,)
        found: tuple[float, tuple[int, ...]] | None = None
        for end in range(start + 1, total - left + 2):
            if ends[end] - ends[start] - 1 > limit and end - start > 1:
                break
            rest = lines_from(end, left - 1)
            if rest is None:
                continue
            cost = (lone if end - start == 1 else 0.0) + costs[end - 1] + rest[0]
            if found is None or cost < found[0]:
                found = (cost, (end, *rest[1]))
        return found

    return lines_from(0, count)


def reads_badly(text: str, language: str = "en") -> bool:
    """Say whether a caption's best break into lines still splits what belongs together.

    Parameters
    ----------
    text
        A caption.
    language
        Its BCP 47 tag.

    Returns
    -------
    bool
        True when every break into as few lines as fit ends a line on a word
        that leans on the next, splits a noun or a list, separates a number
        from its word or leaves a word alone.
    """
    return _reads_badly(text, leaning_for(language))


def _reads_badly(text: str, leaning: Leaning) -> bool:
    best = _best(_words(text), CAPTION_WIDTH, leaning)
    return best is not None and best[0] >= _BADLY


def fits_caption(text: str) -> bool:
    """Return whether ``text`` fits one cue: at most two lines of 42 characters.

    Parameters
    ----------
    text
        A caption.

    Returns
    -------
    bool
        True when its balanced lines are few and short enough.
    """
    # Greedy filling needs the fewest lines of a given width, so it says
    # whether any break fits without running the balancing solver (which
    # only chooses among the breaks that fit).
    lines, used = 0, CAPTION_WIDTH + 1
    for word in _words(text):
        if len(word) > CAPTION_WIDTH:
            return False
        if used + 1 + len(word) <= CAPTION_WIDTH:
            used += 1 + len(word)
        else:
            lines, used = lines + 1, len(word)
            if lines > CAPTION_LINES:
                return False
    return True


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


# What a break between two cues of one sentence costs: after a colon or a
# semicolon (the next cue is a whole clause), before a conjunction, after a
# comma, and between any two words (only when nothing else fits).
_BREAK_COST = {"clause": 1.0, "conjunction": 2.0, "comma": 12.0, "word": 40.0}
# Each cue costs this too: one more cue is worth it to avoid a comma or a word break.
_CUE_COST = 6.0
# A cue whose lines can only break badly costs this too: worth two cues at a clause's end.
_BAD_CUE_COST = 100.0
# A sentence that fits one cue is split only into cues at least this long: a cue
# of a few characters ("w₀ + w₂.") flashes by, worse than a line that breaks badly.
_SHORTEST_SPLIT = 16
# The word a cue opens with, as a conjunction list has it ("and" of "and,").
_FIRST_WORD = re.compile(r"\w+")


def _opens_clause(text: str, at: int, openers: frozenset[str]) -> bool:
    """Say whether the word at ``text[at:]`` is a conjunction that opens a clause."""
    word = _FIRST_WORD.match(text, at)
    return word is not None and word.group() in openers


def continues_whole(previous: str, cue: str, language: str = "en") -> bool:
    """Whether ``cue``, the next cue of a sentence begun in ``previous``, is a whole phrase.

    It is when ``previous`` ends a clause (``:``, ``;`` or a dash) or when
    ``cue`` opens one with a conjunction of its language (``and``, ``so``,
    ``because``, ``und``, ``et``, ...: :data:`embedviz.story.leaning.CLAUSE_OPENERS`);
    a cue that merely continues after a comma, or mid-clause, is a fragment
    (``the columns from the embedding dimension.``).

    Parameters
    ----------
    previous, cue
        Two consecutive cues of one sentence.
    language
        Their BCP 47 language tag.

    Returns
    -------
    bool
        True for a whole phrase.
    """
    cue = cue.lstrip()
    return previous.rstrip().endswith((":", ";", "\u2014", "\u2013")) or _opens_clause(
        cue, 0, leaning_for(language).openers
    )


# The word after a breaking space (its non-breaking spaces included).
_NEXT_WORD = re.compile(r"(?:[^\s]|[\u00a0\u2007\u202f])+")


# A conjunction and the number after it: "and 50255".
_CONJUNCTION_THEN_NUMBER = re.compile(r"\w+\s+\d")


def _ends_number_list(sentence: str, space: int, word: int) -> bool:
    """Whether the conjunction at ``word`` only closes a list of numbers ("4822 and 50255").

    Such an "and" opens no clause: a cue that began with it would be a
    fragment of the list (``and 50255 were not selected.``).
    """
    return sentence[space - 1 : space].isdigit() and bool(
        _CONJUNCTION_THEN_NUMBER.match(sentence, word)
    )


def _breaks(sentence: str, openers: frozenset[str]) -> list[tuple[int, float]]:
    """Every place a sentence may break between cues, and what breaking there costs."""
    found: list[tuple[int, float]] = []
    # The bracket depth is carried from space to space: linear in the sentence.
    depth, counted = 0, 0
    for match in _BREAKING_SPACE.finditer(sentence):
        depth += _depth(sentence[counted : match.start()])
        before = sentence[counted : match.start()]
        counted = match.start()
        after = _NEXT_WORD.match(sentence, match.end())
        # Inside brackets, or between words that hold together ("sortie ?", "« mot").
        if depth != 0 or _holds_next(before) or (after and _CLOSING.fullmatch(after.group())):
            continue
        before_end = sentence[max(0, match.start() - 2) : match.start()]
        if before_end.endswith((":", ";")):
            kind = "clause"
        elif _opens_clause(sentence, match.end(), openers) and not _ends_number_list(
            sentence, match.start(), match.end()
        ):
            kind = "conjunction"
        elif before_end.endswith(",") and not re.fullmatch(r"\d,", before_end):
            kind = "comma"
        else:
            kind = "word"
        found.append((match.start(), _BREAK_COST[kind]))
    return found


def _split_long(sentence: str, leaning: Leaning, whole_only: bool = False) -> list[str]:
    """Split a sentence too long for one cue into whole phrases that each fit one cue.

    Every cue costs :data:`_CUE_COST` and every break its :data:`_BREAK_COST`
    (clause ends before conjunctions before commas before words), and a cue
    whose lines can only break badly (:func:`reads_badly`) costs
    :data:`_BAD_CUE_COST`; the cheapest split wins, then the one whose cues
    are most even in length. With ``whole_only`` it breaks only at a clause's
    end or before a conjunction, into cues of :data:`_SHORTEST_SPLIT`
    characters or more.
    """
    breaks = _breaks(sentence, leaning.openers)
    if whole_only:
        breaks = [(at, cost) for at, cost in breaks if cost <= _BREAK_COST["conjunction"]]
    ends = [(0, 0.0)] + [(at, cost) for at, cost in breaks] + [(len(sentence), 0.0)]
    # best[i]: (cost, spread, pieces) for the sentence up to break i.
    best: list[tuple[float, float, list[str]] | None] = [None] * len(ends)
    best[0] = (0.0, 0.0, [])
    longest = CAPTION_LINES * (CAPTION_WIDTH + 1)
    for i in range(1, len(ends)):
        # Latest start first: once a piece is too long for any cue, every
        # earlier start is too, so each end looks back only one cue's length.
        for j in range(i - 1, -1, -1):
            if ends[i][0] - ends[j][0] > longest + 1:
                break
            previous = best[j]
            if previous is None:
                continue
            piece = sentence[ends[j][0] : ends[i][0]].strip()
            if not piece or (whole_only and len(piece) < _SHORTEST_SPLIT):
                continue
            cost = previous[0] + _CUE_COST + (ends[j][1] if j else 0.0)
            spread = previous[1] + abs(len(piece) - 2 * CAPTION_WIDTH * 0.6)
            current = best[i]
            # Fitting and reading a cue's lines cost a walk over its words and a
            # line-breaking solve; a piece that loses even without the bad-cue
            # penalty is not measured (the same split either way).
            if current is not None and (cost, spread) >= current[:2]:
                continue
            if not fits_caption(piece):
                continue
            if _reads_badly(piece, leaning):
                cost += _BAD_CUE_COST
            if current is None or (cost, spread) < current[:2]:
                best[i] = (cost, spread, [*previous[2], piece])
    final = best[-1]
    if final is None:
        # A word too long for a caption line: it gets a cue of its own.
        return _words(sentence)
    return final[2]


def split_phrases(narration: str, language: str = "en") -> tuple[str, ...]:
    """Split narration into phrases, each one caption cue of at most two 42-character lines.

    Every sentence starts a new phrase; a sentence too long for one cue is
    split into as few cues as fit, preferring breaks after a colon or
    semicolon, then before a conjunction of the narration's language
    (:data:`embedviz.story.leaning.CLAUSE_OPENERS`), then after a comma
    (never inside a list of numbers such as ``0, 1, 0`` or inside
    brackets), and only then between words. A sentence that fits one cue but
    whose lines could only break inside a phrase (:func:`reads_badly`) is
    split into cues at a clause's end or before a conjunction, where it has
    one and each cue is :data:`_SHORTEST_SPLIT` characters or more.

    Parameters
    ----------
    narration
        A beat's narration.
    language
        Its BCP 47 language tag (``de-AT`` splits as ``de``).

    Returns
    -------
    tuple of str
        The phrases in order; joined with single spaces they give back the
        narration (with its breaking whitespace collapsed; a non-breaking
        space is kept, and never splits two cues).
    """
    text = " ".join(_words(narration))
    if not text:
        return ()
    leaning = leaning_for(language)
    phrases: list[str] = []
    for sentence in _split_outside(text, _SENTENCE_END):
        if not fits_caption(sentence):
            phrases.extend(_split_long(sentence, leaning))
        elif _reads_badly(sentence, leaning):
            # It fits one cue, but only with a line that splits what belongs together:
            # two whole clauses, if the sentence has them, read better as two cues.
            phrases.extend(_split_long(sentence, leaning, whole_only=True))
        else:
            phrases.append(sentence)
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
    language: str = "en",
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
    language
        The narration's BCP 47 tag: where a long sentence splits (see
        :func:`split_phrases`).

    Returns
    -------
    tuple of Phrase
        The phrases with their start times and holds.
    """
    texts = split_phrases(narration, language)
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
