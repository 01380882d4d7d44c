"""Bounds on whole numbers read from text: the command line, the environment and files.

Python refuses to convert a decimal string of more than 4,300 digits with a
``ValueError`` that names ``sys.set_int_max_str_digits``, and converting long
strings costs time that grows faster than their length. No number embedviz
takes (a seed, an ID, a table size) needs more than :data:`MAX_DIGITS`
digits, so anything longer is refused first, in one line, whichever way it
arrived.
"""

from __future__ import annotations

import re

from embedviz.core.errors import EmbedvizError

__all__ = ["MAX_DIGITS", "check_whole_number", "parse_whole_number"]

# Seeds reach 2**64 - 1 (20 digits) and IDs 2**63 - 1 (19); the rest is headroom.
MAX_DIGITS = 30
# Plain ASCII decimal with an optional sign: int() alone also takes "1_000" and other digits.
_WHOLE = re.compile(r"[+-]?[0-9]+")


def _too_long(digits: int, where: str) -> EmbedvizError:
    return EmbedvizError(
        f"{where}: a whole number of {digits:,} digits; embedviz takes at most {MAX_DIGITS}"
    )


def parse_whole_number(text: str, where: str) -> int:
    """Convert ASCII decimal text to an int, refusing more than :data:`MAX_DIGITS` digits.

    Parameters
    ----------
    text
        The digits, with an optional ``+`` or ``-`` (no spaces, no ``_``).
    where
        What the text is, for the message (e.g. ``--seed``).

    Returns
    -------
    int
        The number.

    Raises
    ------
    EmbedvizError
        When the text is not a whole number, or has too many digits.
    """
    if not _WHOLE.fullmatch(text):
        raise EmbedvizError(f"{where}: {text[:40]!r} is not a whole number in ASCII digits 0-9")
    digits = len(text.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise _too_long(digits, where)
    return int(text, 10)


def check_whole_number(value: int, where: str) -> int:
    """Refuse an int (e.g. parsed by ``tomllib``) of more than :data:`MAX_DIGITS` digits.

    Parameters
    ----------
    value
        The number.
    where
        What it is, for the message.

    Returns
    -------
    int
        The same number.

    Raises
    ------
    EmbedvizError
        When it has too many digits.
    """
    if abs(value) >= 10**MAX_DIGITS:
        # bit_length gives the digit count without converting to text.
        raise _too_long(int(abs(value).bit_length() * 0.30103) + 1, where)
    return value
