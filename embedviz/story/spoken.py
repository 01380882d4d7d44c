"""Spoken maths: turn narration written for reading into words a voice can say.

Captions keep the written form (``E[2]``, ``4 × 3``, ``∂L/∂E``); a voice
reads the spoken form (``row 2 of E``, ``4 by 3``, ``the gradient of L with
respect to E``). Both are stored per phrase in the storyboard, so an author
can correct a pronunciation. Pure and stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["id_words", "number_words", "spoken_form"]

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


# Whole words and spellings a voice would otherwise stumble over.
_WORDS: tuple[tuple[str, str], ...] = (
    (r"\bGPT-(\d+)", r"G P T \1"),
    (r"\bbfloat(\d+)", r"B float \1"),
    (r"\bfloat(\d+)", r"float \1"),
    (r"\bint(\d+)\b", r"int \1"),
    (r"\bMiB\b", "mebibytes"),
    (r"\bGiB\b", "gibibytes"),
    (r"\b(\d)-D\b", r"\1 D"),
    (r"\bgrad_fn\b", "grad F N"),
    (r"\bone_hot\(", "one-hot of ("),
    (r"\bone_hot\b", "one-hot"),
    (r"\bsin\(", "sine of ("),
    (r"\bcos\(", "cosine of ("),
)

# Symbols, after numbers and indexing have been spoken.
_SYMBOLS: tuple[tuple[str, str], ...] = (
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
)


def _camel(match: re.Match[str]) -> str:
    """``<EmbeddingBackward0>`` → ``Embedding Backward 0``."""
    return " " + " ".join(re.findall(r"[A-Z][a-z]*|[a-z]+|\d+", match.group(1))) + " "


def _indexing(match: re.Match[str]) -> str:
    """``E[2]`` → ``row 2 of E``; ``E[3, 0]`` → ``E at row 3, column 0``; ``x[b]`` → ``x at b``."""
    name, inside = match.group(1), match.group(2).strip()
    indices = [part.strip() for part in inside.split(",")]
    if re.fullmatch(r"[A-Z]", name) and len(indices) == 1:
        return f"row {indices[0]} of {name}"
    if re.fullmatch(r"[A-Z]", name) and len(indices) == 2:
        return f"{name} at row {indices[0]}, column {indices[1]}"
    # A private separator, so that an enclosing index does not split on it.
    return f"{name} at {_COMMA.join(indices)}"


_COMMA = "\x00"


def _decimal(match: re.Match[str]) -> str:
    """Drop trailing zeros: ``0.2010`` → ``0.201``, ``1.50`` → ``1.5``, ``2.0`` → ``2``."""
    whole, fraction = match.group(1), match.group(2).rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


def _ids(match: re.Match[str]) -> str:
    """Read the four-digit numbers after ``ID``, ``row`` or ``token`` in pairs."""
    numbers = re.sub(r"\d+", lambda m: id_words(int(m.group())), match.group(2))
    return f"{match.group(1)}{numbers}"


# Four-digit numbers after these words are labels, read in pairs.
_ID_LIST = r"\b(IDs?\s+|rows?\s+|tokens?\s+)(\d+(?:(?:,\s*|\s+and\s+)\d+)*)\b"


def _sub(pattern: str, replacement: str | Callable[[re.Match[str]], str], text: str) -> str:
    return re.sub(pattern, replacement, text)


def spoken_form(text: str) -> str:
    """Return how a voice should say a phrase of narration.

    Parameters
    ----------
    text
        The phrase as written for the caption.

    Returns
    -------
    str
        The same words with maths, code and symbols spelled out:
        ``4 × 3`` → ``4 by 3``; ``-0.2010`` → ``minus 0.201``; ``E[2]`` →
        ``row 2 of E``; ``∂L/∂E`` → ``the gradient of L with respect to E``;
        ``≤`` → ``less than or equal to``; ``→`` → ``to``; ``ID 4821`` →
        ``ID forty-eight twenty-one``; the word piece ``##ing`` → ``ing``.
    """
    out = text
    out = _sub(r"##(\w+)", r"\1", out)  # a word piece is said as the piece itself
    out = _sub(r"=<([A-Za-z]\w*)>", lambda m: " equals" + _camel(m), out)
    out = _sub(r"<([A-Za-z]\w*)>", _camel, out)
    for pattern, replacement in _WORDS:
        out = _sub(pattern, replacement, out)
    out = _sub(r"∂\s*(\w+)\s*/\s*∂\s*(\w+)", r"the gradient of \1 with respect to \2", out)
    # A product with an indexed term is a multiplication, not a shape.
    out = _sub(r"×(?=\s*\w+\[)", " times ", out)
    while re.search(r"\w\[[^\[\]]*\]", out):
        out = _sub(r"(\w+)\[([^\[\]]*)\]", _indexing, out)
    out = out.replace(_COMMA, ", ")
    out = _sub(_ID_LIST, _ids, out)
    out = _sub(r"\bIDs\b", "I D's", out)  # espeak-ng (Piper's phonemiser too) drops its s
    out = _sub(r"(?<![\w.])[-−](?=\d)", "minus ", out)  # a sign
    out = _sub(r"(?<=\s)-(?=\s)", "minus", out)  # a binary minus written with a hyphen
    out = _sub(r"\b(\d+)\.(\d+)\b", _decimal, out)
    out = _sub(r"(?<=\d)\s*[–—]\s*(?=\d)", " to ", out)  # a range, e.g. rows 6–4818
    out = _sub(r"\b([A-Za-z]|id)_(\w+)\b", r"\1 sub \2", out)  # w_t → w sub t
    out = _sub(r"(?<=\w)\s*/\s*(?=\w)", " over ", out)
    for symbol, words in _SYMBOLS:
        out = out.replace(symbol, words)
    out = out.replace("(", " ").replace(")", " ").replace("_", " ")
    out = " ".join(out.split())
    # No space before punctuation that the replacements may have left.
    return re.sub(r"\s+([,.;:!?])", r"\1", out)
