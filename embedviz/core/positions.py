"""Position vectors: what a model adds to token embeddings so that order counts.

An embedding lookup returns the same row for the same token ID wherever the
token sits, so on its own it carries identity but not position. Models fix
this by adding a position vector ``P[pos]`` to the token vector at position
``pos``. Two common choices are implemented here, with numpy only:

* :func:`sinusoidal_positions`, the fixed waves of the original Transformer:
  ``P[pos, 2i] = sin(pos / 10000^(2i/d))`` and
  ``P[pos, 2i+1] = cos(pos / 10000^(2i/d))``.
* :func:`learned_positions`, a trained table with one row per position,
  initialised like ``torch.nn.Embedding(length, d)``.
"""

from __future__ import annotations

import numbers

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.core.memory import check_table_fits
from embedviz.core.torch_init import torch_normal

__all__ = [
    "SINUSOID_BASE",
    "add_positions",
    "learned_positions",
    "sinusoidal_positions",
]

# The wavelength base of the original Transformer: column pair i repeats every
# 2*pi * 10000^(2i/d) positions, from 2*pi up to almost 10000 * 2*pi.
SINUSOID_BASE = 10000.0


def _check_size(name: str, value: object, minimum: int) -> int:
    """Return ``value`` as an int, or raise a one-line error naming ``name``."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise EmbedvizError(f"{name} must be a whole number, not {value!r}")
    number = int(value)
    if number < minimum:
        raise EmbedvizError(f"{name} must be at least {minimum}, not {number}")
    return number


def sinusoidal_positions(length: int, dim: int) -> npt.NDArray[np.float32]:
    """Return the Transformer's sinusoidal position vectors.

    Parameters
    ----------
    length
        How many positions (rows), ``0 .. length-1``.
    dim
        ``d``, the embedding dimension (columns); odd ``d`` is allowed: the
        last column is then a sine whose cosine partner would lie past ``d``.

    Returns
    -------
    numpy.ndarray
        Float32 ``(length, dim)`` with ``P[pos, 2i] = sin(pos / 10000^(2i/d))``
        and ``P[pos, 2i+1] = cos(pos / 10000^(2i/d))``. Every value lies in
        ``[-1, 1]``, and row 0 is ``[0, 1, 0, 1, ...]``. Computed in float64
        and rounded once, so each value is the nearest float32.

    Raises
    ------
    EmbedvizError
        If ``length`` is negative, ``dim`` is below 1, either is not a whole
        number, or the table would not fit in memory.
    """
    length = _check_size("the number of positions", length, 0)
    dim = _check_size("the embedding dimension d", dim, 1)
    # float64 angles plus their sines and cosines are held at once.
    check_table_fits(max(length, 1), dim, bytes_per_value=8, copies=3)
    columns = np.arange(dim)
    # Columns 2i and 2i+1 share one frequency; 2i is the even column at or below.
    even = (columns - columns % 2).astype(np.float64)
    frequency = np.power(SINUSOID_BASE, -even / dim)
    angle = np.arange(length, dtype=np.float64)[:, None] * frequency[None, :]
    values = np.where(columns % 2 == 0, np.sin(angle), np.cos(angle))
    return np.ascontiguousarray(values, dtype=np.float32)


def learned_positions(length: int, dim: int, seed: int) -> npt.NDArray[np.float32]:
    """Return a learned position table as it is before training.

    A learned absolute position embedding is an ``nn.Embedding(length, d)``
    indexed by position instead of by token ID, so it starts as standard
    normal noise, which training then shapes.

    Parameters
    ----------
    length
        The context length: the number of positions the table covers.
    dim
        ``d``.
    seed
        The seed given to ``torch.manual_seed`` right before the table is made.
        A scene that also shows a token table should pass a seed derived from
        its own (the scenes use ``seed + 1``): the same seed would give the
        position table the same leading values as the token table.

    Returns
    -------
    numpy.ndarray
        Float32 ``(length, dim)``, equal (to within one float32 rounding
        step) to ``torch.manual_seed(seed); torch.nn.Embedding(length, dim).weight``.

    Raises
    ------
    EmbedvizError
        For a bad size or seed, or a table that would not fit in memory.
    """
    length = _check_size("the context length", length, 1)
    dim = _check_size("the embedding dimension d", dim, 1)
    check_table_fits(length, dim)
    return torch_normal(seed, (length, dim))


def add_positions(embeddings: npt.ArrayLike, positions: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """Add position vectors to token embeddings, position by position.

    Parameters
    ----------
    embeddings
        Token vectors of shape ``(T, d)`` or a batch ``(B, T, d)``.
    positions
        A position table ``(L, d)`` with ``L >= T``; rows ``0 .. T-1`` are used,
        the same rows for every sequence of a batch.

    Returns
    -------
    numpy.ndarray
        Float32, the shape of ``embeddings``: ``embeddings[..., t, :] +
        positions[t]``, added in float32 as a model does.

    Raises
    ------
    EmbedvizError
        If either array is not 2-D or 3-D and 2-D respectively, if ``d``
        differs, if the table has fewer rows than the sequence, or if a
        value is not finite.
    """
    tokens = np.asarray(embeddings)
    table = np.asarray(positions)
    for name, array in (("embeddings", tokens), ("positions", table)):
        if array.dtype.kind not in "fiu" or array.dtype == np.bool_:
            raise EmbedvizError(f"{name} must hold real numbers, not dtype {array.dtype}")
    if tokens.ndim not in (2, 3):
        raise EmbedvizError(
            f"embeddings must have shape (T, d) or (B, T, d), not {tuple(tokens.shape)}"
        )
    if table.ndim != 2:
        raise EmbedvizError(f"positions must have shape (L, d), not {tuple(table.shape)}")
    count, dim = tokens.shape[-2:]
    if table.shape[1] != dim:
        raise EmbedvizError(
            f"positions have d = {table.shape[1]} but the embeddings have d = {dim}"
        )
    if table.shape[0] < count:
        raise EmbedvizError(
            f"the position table covers {table.shape[0]} positions, "
            f"but the sequence has {count} tokens"
        )
    tokens32 = tokens.astype(np.float32, copy=False)
    rows32 = table[:count].astype(np.float32, copy=False)
    if not (np.isfinite(tokens32).all() and np.isfinite(rows32).all()):
        raise EmbedvizError("embeddings and positions must be finite to be added")
    return np.add(tokens32, rows32, dtype=np.float32)
