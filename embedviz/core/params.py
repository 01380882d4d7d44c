"""Counting an embedding table's parameters and the memory they take.

A ``V × d`` table holds ``V * d`` trainable numbers, and storing them costs
that many times the size of one element. Everything here is exact integer
arithmetic on Python ints (no overflow, no float rounding) until the final
human-readable formatting, so every figure a scene draws can be recomputed
by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from embedviz.core.errors import EmbedvizError
from embedviz.core.memory import format_bytes

__all__ = [
    "DTYPE_BYTES",
    "bytes_per_parameter",
    "check_table_shape",
    "comparison_dims",
    "format_bytes_binary",
    "format_count",
    "parameter_count",
    "table_bytes",
]

# Bytes per element of the floating-point formats an embedding table is
# commonly stored in (the sizes PyTorch's ``Tensor.element_size()`` reports).
DTYPE_BYTES: Mapping[str, int] = MappingProxyType(
    {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2}
)


def check_table_shape(vocab_size: object, dim: object) -> tuple[int, int]:
    """Check that ``V`` and ``d`` are positive whole numbers.

    Parameters
    ----------
    vocab_size
        ``V``, the number of rows.
    dim
        ``d``, the number of columns.

    Returns
    -------
    tuple of int
        ``(V, d)``.

    Raises
    ------
    EmbedvizError
        If either is not an int (a bool does not count) or is below 1.
    """
    for name, value in (("vocabulary size V", vocab_size), ("embedding dimension d", dim)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise EmbedvizError(f"the {name} must be a whole number, not {value!r}")
        if value < 1:
            raise EmbedvizError(f"the {name} must be at least 1, not {value}")
    assert isinstance(vocab_size, int)
    assert isinstance(dim, int)
    return vocab_size, dim


def parameter_count(vocab_size: int, dim: int) -> int:
    """Return the number of trainable values in a ``V × d`` embedding table.

    Parameters
    ----------
    vocab_size
        ``V``.
    dim
        ``d``.

    Returns
    -------
    int
        ``V * d``, e.g. 38,597,376 for GPT-2's 50257 × 768 table.

    Raises
    ------
    EmbedvizError
        For a size that is not a positive whole number.
    """
    rows, cols = check_table_shape(vocab_size, dim)
    return rows * cols


def bytes_per_parameter(dtype: str) -> int:
    """Return the size of one stored value.

    Parameters
    ----------
    dtype
        ``float64``, ``float32``, ``float16`` or ``bfloat16``.

    Returns
    -------
    int
        Bytes per element: 8, 4, 2 or 2.

    Raises
    ------
    EmbedvizError
        For any other name.
    """
    if dtype not in DTYPE_BYTES:
        known = ", ".join(DTYPE_BYTES)
        raise EmbedvizError(f"unknown dtype {dtype!r}; choose one of {known}")
    return DTYPE_BYTES[dtype]


def table_bytes(vocab_size: int, dim: int, dtype: str = "float32") -> int:
    """Return the bytes a ``V × d`` table needs in one dtype.

    Parameters
    ----------
    vocab_size
        ``V``.
    dim
        ``d``.
    dtype
        The storage format (see :data:`DTYPE_BYTES`).

    Returns
    -------
    int
        ``V * d * bytes_per_parameter(dtype)``; the values alone, without
        any container overhead.

    Raises
    ------
    EmbedvizError
        For a bad size or an unknown dtype.
    """
    return parameter_count(vocab_size, dim) * bytes_per_parameter(dtype)


def comparison_dims(dim: int) -> tuple[int, ...]:
    """Return the widths to compare a table against: half, the same, double.

    Parameters
    ----------
    dim
        ``d``.

    Returns
    -------
    tuple of int
        ``(d // 2, d, 2 * d)`` ascending, without duplicates and without 0
        (so ``d = 1`` gives ``(1, 2)``).

    Raises
    ------
    EmbedvizError
        For a ``d`` that is not a positive whole number.
    """
    _, width = check_table_shape(1, dim)
    return tuple(sorted({w for w in (width // 2, width, 2 * width) if w >= 1}))


def format_count(count: int) -> str:
    """Write a whole number with thousands separators, e.g. ``38,597,376``.

    Parameters
    ----------
    count
        A non-negative whole number.

    Returns
    -------
    str
        Comma-grouped digits; numbers below 1000 are unchanged.

    Raises
    ------
    EmbedvizError
        For a negative number or a non-integer.
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise EmbedvizError(f"a count must be a non-negative whole number, not {count!r}")
    return f"{count:,}"


def format_bytes_binary(count: int) -> str:
    """Write a byte count in binary units, e.g. ``147.2 MiB``.

    Parameters
    ----------
    count
        A non-negative number of bytes.

    Returns
    -------
    str
        Whole bytes below 1 KiB (``72 B``), else one decimal in KiB, MiB,
        GiB, ... (1 MiB = 1024 KiB = 1,048,576 bytes); the same text that
        memory errors use.

    Raises
    ------
    EmbedvizError
        For a negative number or a non-integer.
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise EmbedvizError(f"a byte count must be a non-negative whole number, not {count!r}")
    return format_bytes(count)
