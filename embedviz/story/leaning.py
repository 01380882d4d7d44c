"""Words a caption line may not end on, per language: they lean on the words after them.

A caption line that ends in an article, a preposition, a conjunction or an
auxiliary ("the", "de", "der", "und") reads as cut off, so the line breaker
(:func:`embedviz.story.phrases.caption_lines`) avoids such an end whenever
another break into as many lines fits. The lists are declared here, one per
language (:data:`LEANING_WORDS`), together with the elided forms a language
writes against the next word (French ``l'``, ``d'``, ``qu'``:
:data:`ELISIONS`), and the conjunctions a caption cue may start with
(:data:`CLAUSE_OPENERS`, for :func:`embedviz.story.phrases.split_phrases`),
the two-word nouns a line may not split (:data:`COMPOUNDS`: "batch size") and
the nouns a number before them counts (:data:`COUNTED`: "3 numbers").
A storyboard's BCP 47 language tag chooses the lists by lookup (RFC 4647:
``fr-CA`` falls back to ``fr``, ``de-AT`` to ``de``); a language without
lists gets only the balanced breaks. Stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

__all__ = [
    "CLAUSE_OPENERS",
    "COMPOUNDS",
    "COUNTED",
    "ELISIONS",
    "LEANING_WORDS",
    "Leaning",
    "leaning_for",
]


def _words(text: str) -> frozenset[str]:
    # One string per language keeps the lists readable (a list literal would
    # take a line a word); apostrophes are stored straight.
    return frozenset(text.replace("\u2019", "'").split())


def _pairs(text: str) -> frozenset[str]:
    # Two-word nouns, comma-separated, lower case.
    return frozenset(pair.strip() for pair in text.split(","))


# Articles, determiners, prepositions, conjunctions, clitic pronouns and
# auxiliaries. A word with punctuation after it ("the same:", "de,") ends a
# phrase and is not one of them.
LEANING_WORDS: Mapping[str, frozenset[str]] = {
    "en": _words(
        "a an the of to in on at by for from into onto with as and or but nor so than "
        "that this these those its their our your his her my is are was were be been "
        "do does did has have had not no if then when where which who whose what it one "
        # Quantifiers, ordinals and the adjectives the narration sets before a noun:
        # "each / parameter", "its first / copy", "the whole / row" split a noun phrase.
        "each every both all another other either neither several many few some any such "
        "same whole first last next second third fourth single very "
        "two three four five six seven eight nine ten"
    ),
    "fr": _words(
        "le la les l un une des du de d au aux ce cet cette ces mon ma mes ton ta tes son sa "
        "ses notre nos votre vos leur leurs chaque aucun aucune nul nulle quel quelle quels "
        "quelles tout toute tous toutes plusieurs quelques "
        "à a en dans par pour sur sous avec sans chez entre vers contre depuis pendant selon "
        "parmi dès jusque jusqu "
        "et ou mais donc ni car que qu si s comme quand lorsque lorsqu puisque puisqu "
        "je j tu il elle on ils elles c se ne n me m te t y qui dont où "
        "est sont était étaient ont sera seront être avoir"
    ),
    "de": _words(
        "der die das den dem des ein eine einen einem einer eines "
        "kein keine keinen keinem keiner keines jede jeder jedes jeden jedem "
        "dieser diese dieses diesem diesen sein seine seinen seinem seiner "
        "ihr ihre ihren ihrem ihrer unser unsere alle allen aller "
        "an am ans auf aus bei beim bis durch für gegen hinter in im ins mit nach neben "
        "ohne seit über um unter vom von vor zu zum zur zwischen wegen während "
        "und oder aber denn sondern dass ob wenn als wie weil damit sowie "
        "ist sind war waren wird werden wurde wurden "
        # Personal pronouns before their verb ("dass er | kommt" reads as cut off);
        # the reflexive "sich" often ends a clause and is left out.
        "ich du er sie es wir man mich dich ihn ihm uns euch"
    ),
}

# Elided words written against the next word, with an apostrophe ("l'ID",
# "qu'un"): such a word leans on what follows it, and so does the word it
# makes ("d'une" leans as "une" does). Only languages listed here elide:
# an English "students'" is a whole word.
ELISIONS: Mapping[str, frozenset[str]] = {
    "fr": _words("c' d' j' l' m' n' s' t' qu' jusqu' lorsqu' puisqu' quoiqu'"),
}


# Conjunctions that open a clause of their own: a caption cue may start with
# one and still read as a whole phrase, so a sentence too long for one cue is
# split before one rather than between any two words. As written (lower case).
CLAUSE_OPENERS: Mapping[str, frozenset[str]] = {
    "en": _words(
        "and or but so because which while then where when until since though although as"
    ),
    "fr": _words(
        "et ou mais donc car puisque puisqu quand lorsque lorsqu alors comme tandis parce "
        "qui dont où"
    ),
    "de": _words(
        "und oder aber denn sondern weil während wenn dass ob also sodass obwohl bis damit "
        "wobei nachdem bevor"
    ),
}


# Two-word nouns a line may not split ("batch / size", "row / index"): English
# writes its compounds apart, German and French as one word or with a preposition.
# Lower case, the pair as "first second".
COMPOUNDS: Mapping[str, frozenset[str]] = {
    "en": _pairs(
        "batch size, sequence length, row index, row number, input order, output row, "
        "output rows, embedding dimension, embedding matrix, embedding table, "
        "embedding layer, embedding vector, learning rate, position vector, "
        "position vectors, position rows, token row, token vector, token id, token ids, "
        "input id, input ids, vocabulary entry, dot product, matrix product, "
        "gradient row, gradient descent, backward pass, float32 value"
    ),
}

# Nouns a number counts ("those 3 / numbers", "takes 2 / bytes"): a number before one
# is a quantity and holds on to it; before any other word ("row 2 / lands") it is a
# label that belongs to the word before it. Lower case, singular and plural.
COUNTED: Mapping[str, frozenset[str]] = {
    "en": _words(
        "number numbers value values byte bytes row rows column columns id ids "
        "sequence sequences vector vectors token tokens entry entries dimension dimensions "
        "copy copies position positions decimal decimals contribution contributions "
        "parameter parameters bit bits step steps thing things time times layer layers "
        "slice slices item items word words"
    ),
}


@dataclass(frozen=True)
class Leaning:
    """How one language's caption lines may not end.

    Parameters
    ----------
    words
        Words a line may not end on (lower case, straight apostrophes).
    elisions
        Elided words (with their apostrophe) written against the next word.
    openers
        Conjunctions that open a clause of their own (a cue may start with one).
    compounds
        Two-word nouns a line may not split, lower case, as ``"batch size"``.
    counted
        Nouns a number before them counts (lower case): ``3 numbers`` holds together.
    """

    words: frozenset[str]
    elisions: frozenset[str]
    openers: frozenset[str] = frozenset()
    compounds: frozenset[str] = frozenset()
    counted: frozenset[str] = frozenset()

    def elision(self, word: str) -> re.Match[str] | None:
        """Match the elided words at the start of ``word`` (``qu'`` in ``qu'un``), if any.

        Parameters
        ----------
        word
            One word of a caption.

        Returns
        -------
        re.Match or None
            The elided prefix, or None.
        """
        pattern = _elided(self.elisions)
        return None if pattern is None else pattern.match(word)

    def leans(self, word: str) -> bool:
        """Say whether a caption line may not end with ``word`` (it leans on what follows).

        Parameters
        ----------
        word
            One word of a caption, as written.

        Returns
        -------
        bool
            True for a listed word in any case (``Der``), an elided word
            alone (``l'``) or one that elides into a listed word (``d'une``).
        """
        bare = word.lower().replace("\u2019", "'")
        elided = self.elision(bare)
        if elided is not None:
            bare = bare[elided.end() :]
            if not bare:
                return True
        return bare in self.words


@cache
def _elided(elisions: frozenset[str]) -> re.Pattern[str] | None:
    """Compile the pattern of elided words at a word's start (longest first, either apostrophe)."""
    if not elisions:
        return None
    prefixes = "|".join(re.escape(e[:-1]) for e in sorted(elisions, key=len)[::-1])
    return re.compile(rf"(?:(?:{prefixes})['\u2019])+", re.IGNORECASE)


_NONE = Leaning(frozenset(), frozenset())


def leaning_for(language: str) -> Leaning:
    """Return the leaning words of a BCP 47 language tag, found by RFC 4647 lookup.

    Parameters
    ----------
    language
        A tag such as ``en``, ``fr-CA`` or ``de-AT-1996`` (case and ``_``
        for ``-`` are forgiven).

    Returns
    -------
    Leaning
        The list of the longest listed prefix of the tag (``fr-CA`` uses
        ``fr``); none for a language without a list, whose lines are then
        only balanced.

    Examples
    --------
    >>> leaning_for("de-AT").leans("der")
    True
    >>> leaning_for("it").leans("the")
    False
    """
    tag = language.replace("_", "-").lower()
    while tag:
        if tag in LEANING_WORDS:
            elisions = ELISIONS.get(tag, frozenset())
            return Leaning(
                LEANING_WORDS[tag],
                elisions,
                CLAUSE_OPENERS.get(tag, frozenset()),
                COMPOUNDS.get(tag, frozenset()),
                COUNTED.get(tag, frozenset()),
            )
        tag = tag.rpartition("-")[0]
        # RFC 4647 lookup drops a single-letter subtag (an extension's or a
        # private use's singleton) together with the subtag after it.
        if len(tag.rpartition("-")[2]) == 1 and "-" in tag:
            tag = tag.rpartition("-")[0]
    return _NONE
