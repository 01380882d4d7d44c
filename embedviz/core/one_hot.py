"""One-hot vectors and the matrix product that an embedding lookup replaces.

Multiplying the one-hot vector of ID ``i`` by the ``V × d`` embedding matrix
``E`` gives exactly row ``E[i]``: every product but one is a multiplication by
zero, and the one left is a multiplication by one. This module computes that
product for real (so scenes can show it) and counts what it costs, next to the
lookup that does the same job by copying ``d`` numbers.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import validate_ids
from embedviz.core.memory import available_memory_bytes, format_bytes

__all__ = ["multiply_adds", "one_hot", "one_hot_matmul"]

# The share of available memory a one-hot array may take, as for tables in
# embedviz.core.memory.check_table_fits: the rest is left for the caller's
# own arrays (the table and the product).
_HEADROOM = 0.8


def _check_count(name: str, value: object) -> int:
    """Return ``value`` if it is a whole number of at least 1, else raise."""
    # bool is an int subclass, but True is never a size.
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise EmbedvizError(f"the {name} must be a whole number, not {value!r}")
    if value < 1:
        raise EmbedvizError(f"the {name} must be at least 1, not {value}")
    return int(value)


def one_hot(ids: object, vocab_size: int) -> npt.NDArray[np.float32]:
    """Encode token IDs as one-hot float32 vectors of length ``vocab_size``.

    Parameters
    ----------
    ids
        An int, a sequence, a rectangular batch, or an integer array, checked
        with :func:`embedviz.core.ids.validate_ids`.
    vocab_size
        ``V``: every vector has ``V`` entries.

    Returns
    -------
    numpy.ndarray
        Float32 of shape ``ids.shape + (V,)``: entry ``i`` of the vector for
        ID ``i`` is 1, every other entry 0 (as
        ``torch.nn.functional.one_hot(ids, V).float()``).

    Raises
    ------
    EmbedvizError
        For a bad ``vocab_size``, any invalid ID (negative, ``>= V``,
        non-integer, ragged, empty), or vectors that would not fit in memory
        (refused before anything is allocated).
    """
    vocab = _check_count("vocabulary size V", vocab_size)
    index = validate_ids(ids, vocab)
    count = int(index.size)
    needed = count * vocab * np.dtype(np.float32).itemsize
    available = available_memory_bytes()
    if needed > available * _HEADROOM:
        raise EmbedvizError(
            f"{count:,} one-hot vectors of length {vocab:,} need {format_bytes(needed)} "
            f"but only {format_bytes(available)} of memory is available; "
            "use fewer IDs or a smaller --vocab"
        )
    out = np.zeros((count, vocab), dtype=np.float32)
    out[np.arange(count), index.reshape(-1)] = 1.0
    return out.reshape((*index.shape, vocab))


def one_hot_matmul(
    one_hot_vectors: npt.NDArray[np.float32], weight: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    """Multiply one-hot vectors by the embedding matrix, as a plain matmul.

    Parameters
    ----------
    one_hot_vectors
        Float32 of shape ``(..., V)``, e.g. from :func:`one_hot`.
    weight
        The float32 ``V × d`` matrix ``E`` (an array or a memory map).

    Returns
    -------
    numpy.ndarray
        Float32 of shape ``(..., d)``: ``one_hot_vectors @ weight``, every
        entry a full sum of ``V`` products.

    Raises
    ------
    EmbedvizError
        If ``weight`` is not 2-D or the vectors' length is not ``V``.

    Notes
    -----
    For finite ``E`` the result equals the lookup ``E[ids]`` exactly: each
    product is ``0 × E[k, j]`` (an exact, signed zero) or ``1 × E[i, j]``
    (exact), and adding zeros to one value in any order, fused or not,
    leaves it unchanged. The one difference is the sign of a zero: where
    ``E[i, j]`` is ``-0.0`` the sum can be ``+0.0``, which compares equal.
    A NaN or infinity anywhere in a column makes that column's sum NaN,
    because ``0 × inf`` is NaN; the lookup has no such problem.
    """
    matrix = np.asarray(weight)
    vectors = np.asarray(one_hot_vectors)
    if matrix.ndim != 2:
        raise EmbedvizError(f"the embedding matrix must be 2-D, not of shape {matrix.shape}")
    if vectors.ndim == 0 or vectors.shape[-1] != matrix.shape[0]:
        raise EmbedvizError(
            f"one-hot vectors of shape {vectors.shape} do not match a table of "
            f"{matrix.shape[0]} rows; each vector needs one entry per row"
        )
    # 0 × inf is NaN by IEEE rules, and that NaN is the honest answer (see
    # Notes); numpy's warning about it would only repeat what the result says.
    with np.errstate(invalid="ignore"):
        product: npt.NDArray[np.float32] = np.matmul(
            vectors.astype(np.float32, copy=False), matrix.astype(np.float32, copy=False)
        )
    return product


def multiply_adds(vocab_size: int, dim: int, tokens: int = 1) -> int:
    """Count the multiply-adds of ``one_hot @ E`` for some tokens.

    Parameters
    ----------
    vocab_size
        ``V``.
    dim
        ``d``.
    tokens
        How many tokens are encoded.

    Returns
    -------
    int
        ``V × d × tokens``: each of the ``d`` outputs of each token is a sum
        of ``V`` products. A lookup needs none; it copies ``d`` numbers per
        token.

    Raises
    ------
    EmbedvizError
        If a count is not a whole number of at least 1.
    """
    vocab = _check_count("vocabulary size V", vocab_size)
    columns = _check_count("embedding dimension d", dim)
    count = _check_count("number of tokens", tokens)
    # Python ints: no overflow, however large the product.
    return vocab * columns * count
