"""Parsing and validating token IDs.

numpy would happily index with ``-1`` (wrapping to the last row), with
``True`` (as 1) or with a float array after a cast, and each of those draws a
silently wrong picture. Everything that enters a lookup passes through
:func:`validate_ids`, which rejects such input with a one-line message that
names the bad value and where it sits.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.core.limits import parse_whole_number

__all__ = ["format_position", "parse_ids", "validate_ids"]

IdList = list[int] | list[list[int]]

_INT64_MIN = int(np.iinfo(np.int64).min)
_INT64_MAX = int(np.iinfo(np.int64).max)
# Plain ASCII decimal, as documented: int() alone also takes "1_000" and non-ASCII digits.
_ID_TOKEN = re.compile(r"[+-]?[0-9]+")


def format_position(index: tuple[int, ...]) -> str:
    """Describe where an ID sits, e.g. ``position 2`` or ``position [1, 0]``.

    Parameters
    ----------
    index
        The ID's index in the input; a 1-tuple for a sequence.

    Returns
    -------
    str
        A short human-readable location.
    """
    if len(index) == 1:
        return f"position {index[0]}"
    return "position [" + ", ".join(str(i) for i in index) + "]"


def parse_ids(text: str) -> IdList:
    """Parse ``"2,3,5,1"`` into a sequence and ``"2,3;5,1"`` into a batch.

    A ``;`` at the end makes a batch too, so ``"2,3;"`` is a batch of one row,
    as PyTorch's ``[[2, 3]]`` is.

    Parameters
    ----------
    text
        Comma-separated integers; ``;`` separates (or ends) the rows of a batch.

    Returns
    -------
    list of int or list of list of int
        A flat list for a sequence, a list of rows for a batch. Range checks
        happen later, in :func:`validate_ids`, once the vocabulary is known.

    Raises
    ------
    EmbedvizError
        If the text is empty, has an empty item or row, an item that is not
        a whole number, or one of more than
        :data:`~embedviz.core.limits.MAX_DIGITS` digits.
    """
    stripped = text.strip()
    if not stripped:
        raise EmbedvizError("no token IDs given: expected e.g. '2,3,5,1' or '2,3;5,1'")
    batch = ";" in stripped
    # One ';' may end the last row: '2,3;' is the batch [[2, 3]].
    body = stripped[:-1] if stripped.endswith(";") else stripped
    row_texts = body.split(";")
    rows: list[list[int]] = []
    for row_number, row_text in enumerate(row_texts):
        if not row_text.strip():
            raise EmbedvizError(f"batch row {row_number} of the IDs {text!r} is empty")
        rows.append(_parse_row(text, row_text, row_number if batch else None))
    return rows if batch else rows[0]


def _parse_row(text: str, row_text: str, row_number: int | None) -> list[int]:
    """Parse one row of ``text``'s comma-separated IDs (``row_number`` None for a sequence)."""
    row: list[int] = []
    for item_number, item in enumerate(row_text.split(",")):
        where = (
            f"item {item_number}"
            if row_number is None
            else f"item {item_number} of batch row {row_number}"
        )
        token = item.strip()
        if not token:
            raise EmbedvizError(f"empty {where} in the IDs {text!r}")
        if not _ID_TOKEN.fullmatch(token):
            raise EmbedvizError(f"{token[:40]!r} ({where}) is not a whole-number token ID")
        row.append(parse_whole_number(token, f"token ID ({where})"))
    return row


def _is_integer_scalar(value: object) -> bool:
    # bool is an int subclass in Python and numpy; a token ID is never a bool.
    if isinstance(value, bool | np.bool_):
        return False
    return isinstance(value, numbers.Integral)


def _describe(value: object) -> str:
    if isinstance(value, bool | np.bool_):
        return f"the boolean {value!r}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, numbers.Real):
        return f"the non-integer {value!r}"
    return f"{value!r} (a {type(value).__name__})"


def _at(index: tuple[int, ...]) -> str:
    """`` at position ...`` for an element of a sequence, nothing for a bare scalar."""
    return f" at {format_position(index)}" if index else ""


def _collect(value: object, index: tuple[int, ...], out: list[int], shape: list[int]) -> None:
    """Flatten a nested sequence, checking element types and raggedness."""
    depth = len(index)
    is_sequence = isinstance(value, Sequence | np.ndarray) and not isinstance(value, str | bytes)
    if depth < len(shape):
        if not is_sequence:
            raise EmbedvizError(
                f"ragged IDs: {format_position(index)} holds a single value where a row "
                f"of {shape[depth]} was expected"
            )
        items = list(value)  # type: ignore[call-overload]
        if len(items) != shape[depth]:
            raise EmbedvizError(
                f"ragged IDs: the row at {format_position(index)} has {len(items)} "
                f"entries but the first row has {shape[depth]}"
            )
        for i, item in enumerate(items):
            _collect(item, (*index, i), out, shape)
        return
    if is_sequence:
        raise EmbedvizError(
            f"ragged IDs: {format_position(index)} holds a row where a single ID was expected"
        )
    if not _is_integer_scalar(value):
        raise EmbedvizError(
            f"token ID{_at(index)} is {_describe(value)}; token IDs must be whole numbers"
        )
    number = int(value)  # type: ignore[call-overload]
    if not _INT64_MIN <= number <= _INT64_MAX:
        raise EmbedvizError(f"token ID {number}{_at(index)} is far outside any vocabulary")
    out.append(number)


def _infer_shape(value: object) -> list[int]:
    shape: list[int] = []
    current = value
    while isinstance(current, Sequence | np.ndarray) and not isinstance(current, str | bytes):
        items = list(current)
        shape.append(len(items))
        if not items:
            break
        current = items[0]
    return shape


def validate_ids(ids: object, vocab_size: int) -> npt.NDArray[np.int64]:
    """Check token IDs against a vocabulary and return them as an int64 array.

    Parameters
    ----------
    ids
        An int, a sequence of ints, a nested (rectangular) batch, or an
        integer numpy array.
    vocab_size
        ``V``, the number of rows in the table; valid IDs are ``0 .. V-1``.

    Returns
    -------
    numpy.ndarray
        The IDs with their shape (``()`` for a single int), dtype int64.

    Raises
    ------
    EmbedvizError
        For an empty input, a ragged batch, a non-integer element (float,
        bool, string, None, ...), a negative ID or an ID ``>= vocab_size``.
        The message names the first offending value and its position.
    """
    if isinstance(ids, np.ndarray) and ids.dtype != object:
        array = _validate_array_dtype(ids)
    else:
        shape = _infer_shape(ids)
        flat: list[int] = []
        _collect(ids, (), flat, shape)
        array = np.asarray(flat, dtype=np.int64).reshape(shape)
    if array.ndim > 0 and array.size == 0:
        raise EmbedvizError(
            f"no token IDs given (the input has shape {tuple(array.shape)}); "
            "a lookup needs at least one ID"
        )
    _check_range(array, vocab_size)
    return array


def _validate_array_dtype(ids: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    if ids.dtype.kind not in "iu":
        kind = {"b": "booleans", "f": "floats", "c": "complex numbers"}.get(
            ids.dtype.kind, f"values of dtype {ids.dtype}"
        )
        raise EmbedvizError(
            f"token IDs must be whole numbers, but the array holds {kind} (dtype {ids.dtype})"
        )
    if ids.dtype.kind == "u" and ids.size and int(ids.max()) > np.iinfo(np.int64).max:
        raise EmbedvizError(f"token ID {int(ids.max())} does not fit in a 64-bit index")
    return ids.astype(np.int64, copy=False)


def _check_range(array: npt.NDArray[np.int64], vocab_size: int) -> None:
    bad = (array < 0) | (array >= vocab_size)
    if not bad.any():
        return
    index = tuple(int(i) for i in np.argwhere(bad)[0]) if array.ndim else ()
    value = int(array[index])
    where = f" at {format_position(index)}" if index else ""
    if value < 0:
        raise EmbedvizError(
            f"token ID {value}{where} is negative; IDs are row numbers 0 to {vocab_size - 1}"
        )
    raise EmbedvizError(
        f"token ID {value}{where} is out of range for a vocabulary of {vocab_size} "
        f"(valid IDs are 0 to {vocab_size - 1})"
    )
