"""Spoken maths: turn narration written for reading into words a voice can say.

Captions keep the written form (``E[2]``, ``4 × 3``, ``∂L/∂E``); a voice
reads the spoken form (``row 2 of E``, ``4 by 3``, ``the gradient of L with
respect to E``). Both are stored per phrase in the storyboard, so an author
can correct a pronunciation.

The rules exist for English, German and French (:data:`SPOKEN_LANGUAGES`),
chosen by the storyboard's language tag: ``E[2]`` is ``Zeile 2 von E`` in
German and ``la ligne 2 de E`` in French, and a decimal point becomes the
decimal comma a German or French voice reads (``0,201``). Narration in any
other language is spoken as written. Pure and stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["SPOKEN_LANGUAGES", "id_words", "number_words", "speaker_for", "spoken_form"]

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def number_words(n: int) -> str:
    """Return the English words for a whole number from 0 to 99.

    Parameters
    ----------
    n
        The number.

    Returns
    -------
    str
        E.g. ``forty-eight``.

    Raises
    ------
    ValueError
        Outside 0..99.
    """
    if not 0 <= n < 100:
        raise ValueError(f"{n} is not between 0 and 99")
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] if ones == 0 else f"{_TENS[tens]}-{_ONES[ones]}"


def id_words(n: int) -> str:
    """Say a token ID or row number the way people read four-digit labels: in pairs.

    Parameters
    ----------
    n
        A whole number.

    Returns
    -------
    str
        ``4821`` → ``forty-eight twenty-one``, ``4805`` → ``forty-eight oh
        five``, ``4800`` → ``forty-eight hundred``, ``2000`` → ``two
        thousand``; other numbers as digits, which every voice reads well.
    """
    if not 1000 <= n <= 9999:
        return str(n)
    high, low = divmod(n, 100)
    if low == 0:
        if high % 10 == 0:
            return f"{number_words(high // 10)} thousand"
        return f"{number_words(high)} hundred"
    if low < 10:
        return f"{number_words(high)} oh {number_words(low)}"
    return f"{number_words(high)} {number_words(low)}"


# Code and model names, said alike in every language.
_CODE_WORDS: tuple[tuple[str, str], ...] = (
    (r"\bGPT-(\d+)", r"G P T \1"),
    (r"\bbfloat(\d+)", r"B float \1"),
    (r"\bfloat(\d+)", r"float \1"),
    (r"\bint(\d+)\b", r"int \1"),
    (r"\b(\d)-D\b", r"\1 D"),
    (r"\bgrad_fn\b", "grad F N"),
    (r"\bone_hot\b(?!\()", "one-hot"),
)


@dataclass(frozen=True)
class _Rules:
    """How one language says maths, code and symbols."""

    # Whole words and spellings a voice would otherwise stumble over.
    words: tuple[tuple[str, str], ...]
    equals: str  # before a <Name> (grad_fn=<EmbeddingBackward0>)
    gradient: str  # ∂L/∂E, with \1 and \2
    times: str  # a product with an indexed term, 0 × E[k, 0]
    row_of: str  # E[2]: {index}, {name}
    row_column: str  # E[3, 0]: {name}, {row}, {column}
    at: str  # x[b, t]: {name}, {indices}
    read_ids_in_pairs: bool  # 4821 after ID, row or token: forty-eight twenty-one
    ids: tuple[tuple[str, str], ...]  # ID and IDs as letters
    minus: str
    decimal_point: str
    range_to: str  # rows 6–4818
    sub: str  # w_t
    over: str  # a / b
    # Symbols, after numbers and indexing have been spoken.
    symbols: tuple[tuple[str, str], ...]


_ENGLISH = _Rules(
    words=(
        *_CODE_WORDS,
        (r"\bMiB\b", "mebibytes"),
        (r"\bGiB\b", "gibibytes"),
        (r"\bone_hot\(", "one-hot of ("),
        (r"\bsin\(", "sine of ("),
        (r"\bcos\(", "cosine of ("),
    ),
    equals=" equals",
    gradient=r"the gradient of \1 with respect to \2",
    times=" times ",
    row_of="row {index} of {name}",
    row_column="{name} at row {row}, column {column}",
    at="{name} at {indices}",
    read_ids_in_pairs=True,
    # espeak-ng (Piper's phonemiser too) drops the s of "IDs".
    ids=((r"\bIDs\b", "I D's"),),
    minus="minus",
    decimal_point=".",
    range_to=" to ",
    sub=r"\1 sub \2",
    over=" over ",
    symbols=(
        ("≤", " less than or equal to "),
        ("≥", " greater than or equal to "),
        ("≠", " is not equal to "),
        ("≈", " about "),
        ("→", " to "),
        ("←", " becomes "),
        ("Σ", " the sum of "),
        ("·", " times "),
        ("@", " times "),
        ("×", " by "),
        ("=", " equals "),
        ("+", " plus "),
        ("^", " to the power "),
        ("−", " minus "),
    ),
)

_GERMAN = _Rules(
    words=(
        *_CODE_WORDS,
        (r"\bMiB\b", "Mebibyte"),
        (r"\bGiB\b", "Gibibyte"),
        (r"\bone_hot\(", "one-hot von ("),
        (r"\bsin\(", "Sinus von ("),
        (r"\bcos\(", "Kosinus von ("),
    ),
    equals=" gleich",
    gradient=r"der Gradient von \1 nach \2",
    times=" mal ",
    row_of="Zeile {index} von {name}",
    row_column="{name} in Zeile {row}, Spalte {column}",
    at="{name} an Stelle {indices}",
    read_ids_in_pairs=False,
    # A German voice reads "ID" as a word ("it"); spelled, it says I-D and I-Dees.
    ids=((r"\bIDs\b", "I Dees"), (r"\bID\b", "I D")),
    minus="minus",
    decimal_point=",",
    range_to=" bis ",
    sub=r"\1 Index \2",
    over=" durch ",
    symbols=(
        ("≤", " kleiner oder gleich "),
        ("≥", " größer oder gleich "),
        ("≠", " ungleich "),
        ("≈", " etwa "),
        ("→", " zu "),
        ("←", " wird zu "),
        ("Σ", " die Summe von "),
        ("·", " mal "),
        ("@", " mal "),
        ("×", " mal "),
        ("=", " gleich "),
        ("+", " plus "),
        ("^", " hoch "),
        ("−", " minus "),
    ),
)

_FRENCH = _Rules(
    words=(
        *_CODE_WORDS,
        (r"\bMiB\b", "mébioctets"),
        (r"\bGiB\b", "gibioctets"),
        (r"\bone_hot\(", "one-hot de ("),
        (r"\bsin\(", "sinus de ("),
        (r"\bcos\(", "cosinus de ("),
    ),
    equals=" égale",
    gradient=r"le gradient de \1 par rapport à \2",
    times=" fois ",
    row_of="la ligne {index} de {name}",
    row_column="{name} à la ligne {row}, colonne {column}",
    at="{name} à la position {indices}",
    read_ids_in_pairs=False,
    # A French voice reads "ID" as a word; spelled, it says I-D (the plural s is silent).
    ids=((r"\bIDs?\b", "I D"),),
    minus="moins",
    decimal_point=",",
    range_to=" à ",
    sub=r"\1 indice \2",
    over=" sur ",
    symbols=(
        ("≤", " inférieur ou égal à "),
        ("≥", " supérieur ou égal à "),
        ("≠", " différent de "),
        ("≈", " environ "),
        ("→", " vers "),
        ("←", " devient "),
        ("Σ", " la somme de "),
        ("·", " fois "),
        ("@", " fois "),
        ("×", " par "),
        ("=", " égale "),
        ("+", " plus "),
        ("^", " puissance "),
        ("−", " moins "),
    ),
)

_RULES = {"en": _ENGLISH, "de": _GERMAN, "fr": _FRENCH}
# The primary language subtags whose narration is verbalised; others are spoken as written.
SPOKEN_LANGUAGES = tuple(_RULES)


def _camel(match: re.Match[str]) -> str:
    """``<EmbeddingBackward0>`` → ``Embedding Backward 0``."""
    return " " + " ".join(re.findall(r"[A-Z][a-z]*|[a-z]+|\d+", match.group(1))) + " "


def _indexing(rules: _Rules) -> Callable[[re.Match[str]], str]:
    """``E[2]`` → ``row 2 of E``; ``E[3, 0]`` → ``E at row 3, column 0``; ``x[b]`` → ``x at b``."""

    def say(match: re.Match[str]) -> str:
        name, inside = match.group(1), match.group(2).strip()
        indices = [part.strip() for part in inside.split(",")]
        if re.fullmatch(r"[A-Z]", name) and len(indices) == 1:
            return rules.row_of.format(index=indices[0], name=name)
        if re.fullmatch(r"[A-Z]", name) and len(indices) == 2:
            return rules.row_column.format(name=name, row=indices[0], column=indices[1])
        # A private separator, so that an enclosing index does not split on it.
        return rules.at.format(name=name, indices=_COMMA.join(indices))

    return say


_COMMA = "\x00"


def _decimal(point: str) -> Callable[[re.Match[str]], str]:
    """Drop trailing zeros: ``0.2010`` → ``0.201``, ``1.50`` → ``1.5``, ``2.0`` → ``2``."""

    def say(match: re.Match[str]) -> str:
        whole, fraction = match.group(1), match.group(2).rstrip("0")
        return f"{whole}{point}{fraction}" if fraction else whole

    return say


def _ids(match: re.Match[str]) -> str:
    """Read the four-digit numbers after ``ID``, ``row`` or ``token`` in pairs."""
    numbers = re.sub(r"\d+", lambda m: id_words(int(m.group())), match.group(2))
    return f"{match.group(1)}{numbers}"


# Four-digit numbers after these words are labels, read in pairs.
_ID_LIST = r"\b(IDs?\s+|rows?\s+|tokens?\s+)(\d+(?:(?:,\s*|\s+and\s+)\d+)*)\b"


def _sub(pattern: str, replacement: str | Callable[[re.Match[str]], str], text: str) -> str:
    return re.sub(pattern, replacement, text)


def _rules(language: str) -> _Rules | None:
    return _RULES.get(language.replace("_", "-").split("-")[0].lower())


def speaker_for(language: str) -> Callable[[str], str]:
    """Return the verbaliser for a storyboard's language.

    Parameters
    ----------
    language
        A BCP 47 tag; its primary subtag chooses the rules (``de-AT`` speaks
        as ``de``).

    Returns
    -------
    callable
        ``text -> spoken text``: :func:`spoken_form` in that language, or the
        text unchanged for a language without rules.
    """
    if _rules(language) is None:
        return str
    return lambda text: spoken_form(text, language)


# Subscript digits and letters (as a caption writes wₜ or w₀), and what they stand for.
_SUBSCRIPTS = (
    "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089"
    "\u2090\u2091\u2095\u1d62\u2c7c\u2096\u2097\u2098\u2099\u2092\u209a\u209b\u209c"
)
_PLAIN = str.maketrans(_SUBSCRIPTS, "0123456789aehijklmnopst")


def spoken_form(text: str, language: str = "en") -> str:
    """Return how a voice should say a phrase of narration.

    Parameters
    ----------
    text
        The phrase as written for the caption.
    language
        The narration's BCP 47 tag: English, German and French have rules
        (:data:`SPOKEN_LANGUAGES`); any other language is returned as written.

    Returns
    -------
    str
        The same words with maths, code and symbols spelled out. In English:
        ``4 × 3`` → ``4 by 3``; ``-0.2010`` → ``minus 0.201``; ``E[2]`` →
        ``row 2 of E``; ``∂L/∂E`` → ``the gradient of L with respect to E``;
        ``≤`` → ``less than or equal to``; ``→`` → ``to``; ``ID 4821`` →
        ``ID forty-eight twenty-one``; the word piece ``##ing`` → ``ing``.
        In German ``4 × 3`` → ``4 mal 3`` and ``-0.2010`` → ``minus 0,201``;
        in French ``4 par 3`` and ``moins 0,201``.
    """
    rules = _rules(language)
    if rules is None:
        return text
    out = text
    out = _sub(r"##(\w+)", r"\1", out)  # a word piece is said as the piece itself
    out = _sub(r"=<([A-Za-z]\w*)>", lambda m: rules.equals + _camel(m), out)
    out = _sub(r"<([A-Za-z]\w*)>", _camel, out)
    for pattern, replacement in rules.words:
        out = _sub(pattern, replacement, out)
    out = _sub(r"∂\s*(\w+)\s*/\s*∂\s*(\w+)", rules.gradient, out)
    # A product with an indexed term is a multiplication, not a shape.
    out = _sub(r"×(?=\s*\w+\[)", rules.times, out)
    while re.search(r"\w\[[^\[\]]*\]", out):
        out = _sub(r"(\w+)\[([^\[\]]*)\]", _indexing(rules), out)
    out = out.replace(_COMMA, ", ")
    if rules.read_ids_in_pairs:
        out = _sub(_ID_LIST, _ids, out)
    for pattern, letters in rules.ids:
        out = _sub(pattern, letters, out)
    out = _sub(r"(?<![\w.])[-−](?=\d)", f"{rules.minus} ", out)  # a sign
    out = _sub(r"(?<=\s)-(?=\s)", rules.minus, out)  # a binary minus written with a hyphen
    out = _sub(r"\b(\d+)\.(\d+)\b", _decimal(rules.decimal_point), out)
    out = _sub(r"(?<=\d)\s*[–—]\s*(?=\d)", rules.range_to, out)  # a range, e.g. rows 6–4818
    # A Unicode subscript (wₜ, w₀, as captions write them) is said as w_t is.
    out = _sub(f"([A-Za-z])([{_SUBSCRIPTS}]+)", lambda m: m[1] + "_" + m[2].translate(_PLAIN), out)
    out = _sub(r"\b([A-Za-z]|id)_(\w+)\b", rules.sub, out)  # w_t → w sub t
    out = _sub(r"(?<=\w)\s*/\s*(?=\w)", rules.over, out)
    for symbol, words in rules.symbols:
        out = out.replace(symbol, words)
    out = out.replace("(", " ").replace(")", " ").replace("_", " ")
    out = " ".join(out.split())
    # No space before punctuation that the replacements may have left.
    return re.sub(r"\s+([,.;:!?])", r"\1", out)
