"""One training step for an embedding table: a toy loss, its gradient, an SGD update.

The embedding layer's backward pass is a scatter-add: the gradient that
arrives for output position ``t`` (``∂L/∂e_t``) is added into row ``id_t``
of ``∂L/∂E``. Rows no ID selected receive nothing, and an ID that occurs
several times receives one contribution per occurrence, summed. These
functions compute exactly that with ``np.add.at``, in the order PyTorch's
CPU kernel adds (input order), so the numbers match ``loss.backward()``
followed by ``torch.optim.SGD(lr).step()``.

The loss used by the ``TrainingNudge`` scene is linear in the looked-up rows,
``L = Σ_t w_t · e_t`` with fixed weights ``w_t``, because its gradient is the
easiest one to state: ``∂L/∂e_t = w_t``. Everything here works on the few
rows involved, so a step on a 50257-row table never builds the whole table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import validate_ids
from embedviz.core.memory import check_table_fits
from embedviz.core.table import Table
from embedviz.core.torch_init import torch_seed

__all__ = [
    "LEARNING_RATES",
    "LOSS_WEIGHT_STREAM",
    "TrainingStep",
    "embedding_gradient",
    "embedding_gradient_rows",
    "linear_loss",
    "nudge_learning_rate",
    "occurrences",
    "sgd_step",
    "toy_loss_weights",
    "training_step",
]

# Mixed into the seed so that the loss weights are a different random stream
# from the table's own values (``init="normal"`` uses ``default_rng(seed)``).
LOSS_WEIGHT_STREAM = 70
# The learning rates a toy step may use, largest first: round decimals that a
# class can read and say (1, 2, 5 in each decade), as a training config writes them.
LEARNING_RATES = (0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001)


def toy_loss_weights(count: int, dim: int, seed: int) -> npt.NDArray[np.float32]:
    """Draw the fixed weights ``w_t`` of the toy loss ``L = Σ_t w_t · e_t``.

    Parameters
    ----------
    count
        ``T``, the number of token positions.
    dim
        ``d``, the embedding dimension.
    seed
        The scene's seed, from ``-2**63`` to ``2**64 - 1`` like torch's;
        the weights come from
        ``numpy.random.default_rng([seed % 2**64, LOSS_WEIGHT_STREAM])``.

    Returns
    -------
    numpy.ndarray
        Float32 ``(T, d)``: whole tenths from ``-0.9`` to ``0.9``, never
        zero, so that sums of contributions are easy to follow on screen.

    Raises
    ------
    EmbedvizError
        For a non-positive size or a seed outside ``-2**63 .. 2**64-1``.
    """
    for name, value in (("count", count), ("dim", dim)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise EmbedvizError(f"the loss weights need a positive whole {name}, not {value!r}")
    rng = np.random.default_rng([torch_seed(seed), LOSS_WEIGHT_STREAM])
    tenths = rng.integers(1, 10, size=(count, dim))
    signs = np.where(rng.random((count, dim)) < 0.5, -1, 1)
    weights: npt.NDArray[np.float32] = ((signs * tenths) / 10.0).astype(np.float32)
    return weights


def _check_upstream(
    index: npt.NDArray[np.int64], upstream: npt.ArrayLike
) -> npt.NDArray[np.float32]:
    """Return ``upstream`` as float32 ``(n, d)``, one row per ID, or raise."""
    array = np.asarray(upstream)
    if array.dtype.kind not in "iuf":
        raise EmbedvizError(f"the upstream gradient must be real numbers, not dtype {array.dtype}")
    if array.ndim != index.ndim + 1 or array.shape[:-1] != index.shape or array.shape[-1] < 1:
        raise EmbedvizError(
            f"the upstream gradient has shape {array.shape}, but IDs of shape {index.shape} "
            f"need shape {(*index.shape, 'd')}"
        )
    flat = array.astype(np.float32).reshape(-1, array.shape[-1])
    if not np.isfinite(flat).all():
        raise EmbedvizError("the upstream gradient holds NaN or infinite values")
    return flat


def embedding_gradient_rows(
    ids: object, upstream: npt.ArrayLike, vocab_size: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """Scatter-add the upstream gradient into the rows it belongs to (sparse form).

    Parameters
    ----------
    ids
        Token IDs, any shape (validated against ``vocab_size``).
    upstream
        ``∂L/∂e``, shape ``ids.shape + (d,)``: one gradient per looked-up row.
    vocab_size
        ``V``.

    Returns
    -------
    rows : numpy.ndarray
        The distinct IDs, ascending: the only rows of ``∂L/∂E`` that can be
        non-zero.
    grad : numpy.ndarray
        Float32 ``(len(rows), d)``: ``grad[k] = Σ_{t: id_t = rows[k]} upstream[t]``,
        added in input order, starting from zero.

    Raises
    ------
    EmbedvizError
        For invalid IDs, or an upstream gradient of the wrong shape or with
        non-finite values.
    """
    index = validate_ids(ids, vocab_size)
    flat = _check_upstream(index, upstream)
    rows, inverse = np.unique(index.reshape(-1), return_inverse=True)
    grad = np.zeros((rows.size, flat.shape[1]), dtype=np.float32)
    # np.add.at is unbuffered: a repeated index adds every time, where
    # ``grad[inverse] += flat`` would keep only the last occurrence.
    np.add.at(grad, inverse.reshape(-1), flat)
    return rows.astype(np.int64), grad


def embedding_gradient(
    ids: object, upstream: npt.ArrayLike, vocab_size: int
) -> npt.NDArray[np.float32]:
    """Return the dense ``∂L/∂E``, shape ``(V, d)``, by scatter-add.

    Parameters
    ----------
    ids
        Token IDs, any shape.
    upstream
        ``∂L/∂e``, shape ``ids.shape + (d,)``.
    vocab_size
        ``V``.

    Returns
    -------
    numpy.ndarray
        Float32 ``(V, d)``: zero in every row no ID selected; row ``i`` holds
        the sum of the upstream rows of every occurrence of ``i``. This is
        what PyTorch stores in ``embedding.weight.grad``.

    Raises
    ------
    EmbedvizError
        For invalid input, or a ``V × d`` array that would not fit in memory
        (use :func:`embedding_gradient_rows` for large tables).
    """
    index = validate_ids(ids, vocab_size)
    flat = _check_upstream(index, upstream)
    check_table_fits(vocab_size, flat.shape[1])
    dense = np.zeros((vocab_size, flat.shape[1]), dtype=np.float32)
    np.add.at(dense, index.reshape(-1), flat)
    return dense


def sgd_step(
    weight_rows: npt.ArrayLike, grad_rows: npt.ArrayLike, lr: float
) -> npt.NDArray[np.float32]:
    """Apply plain SGD: ``new = old - lr * grad``, in float32.

    Parameters
    ----------
    weight_rows
        The current values (any shape; typically the looked-up rows).
    grad_rows
        Their gradient, same shape.
    lr
        The learning rate, a finite positive number.

    Returns
    -------
    numpy.ndarray
        Float32, same shape. Rows with a zero gradient come back bit for bit
        unchanged.

    Raises
    ------
    EmbedvizError
        For a bad learning rate or mismatched shapes.

    Notes
    -----
    ``torch.optim.SGD`` computes ``param.add_(grad, alpha=-lr)`` with one
    rounding (a fused multiply-add on vectorised CPUs). The product of two
    float32 values is exact in float64, so computing in float64 and rounding
    once to float32 reproduces that. For a power-of-two ``lr`` such as the
    scene's 0.5 the product is exact anyway and every method agrees bit for bit.
    """
    if (
        isinstance(lr, bool)
        or not isinstance(lr, int | float | np.floating | np.integer)
        or not math.isfinite(float(lr))
        or float(lr) <= 0
    ):
        raise EmbedvizError(f"the learning rate must be a finite positive number, not {lr!r}")
    old = np.asarray(weight_rows, dtype=np.float32)
    grad = np.asarray(grad_rows, dtype=np.float32)
    if old.shape != grad.shape:
        raise EmbedvizError(
            f"the gradient has shape {grad.shape}, but the weights have shape {old.shape}"
        )
    step = np.float64(np.float32(lr))
    new: npt.NDArray[np.float32] = (old.astype(np.float64) - step * grad.astype(np.float64)).astype(
        np.float32
    )
    return new


def linear_loss(vectors: npt.ArrayLike, weights: npt.ArrayLike) -> float:
    """Return ``L = Σ_t w_t · e_t``, exactly rounded.

    Parameters
    ----------
    vectors
        The looked-up rows ``e_t``, shape ``(T, d)``.
    weights
        The loss weights ``w_t``, same shape.

    Returns
    -------
    float
        The sum of all products ``e_tj * w_tj``. Each product of two float32
        values is exact in float64 and ``math.fsum`` rounds the total once,
        so the value does not depend on summation order.

    Raises
    ------
    EmbedvizError
        If the shapes differ.
    """
    e = np.asarray(vectors, dtype=np.float32)
    w = np.asarray(weights, dtype=np.float32)
    if e.shape != w.shape:
        raise EmbedvizError(f"the loss weights have shape {w.shape}, but the rows {e.shape}")
    products = e.astype(np.float64) * w.astype(np.float64)
    return math.fsum(products.ravel().tolist())


def nudge_learning_rate(loss: float, grad_rows: npt.ArrayLike) -> float:
    """Pick the toy step's learning rate: the largest that moves the loss by at most half.

    Parameters
    ----------
    loss
        ``L`` before the step.
    grad_rows
        The gradient rows ``∂L/∂E[i]`` of the rows the step moves.

    Returns
    -------
    float
        The first of :data:`LEARNING_RATES` whose predicted change
        ``lr · Σ_i ‖∂L/∂E[i]‖²`` is at most ``|L| / 2``, or the smallest of them
        when none is (a loss that happens to sit near zero).

    Notes
    -----
    The toy loss is linear, so one SGD step changes it by exactly
    ``-lr · Σ_t w_t · ∂L/∂E[id_t] = -lr · Σ_i ‖∂L/∂E[i]‖²`` (before float32
    rounding). That sum grows with ``d``: a fixed rate that suits three columns
    sends the loss of a 768-column row hundreds below zero in one step. Scaling
    the rate to the loss keeps the step a nudge at every size.
    """
    grad = np.asarray(grad_rows, dtype=np.float32).astype(np.float64)
    squares = math.fsum((grad * grad).ravel().tolist())
    for lr in LEARNING_RATES:
        if lr * squares <= abs(loss) / 2:
            return lr
    return LEARNING_RATES[-1]


def occurrences(ids: npt.ArrayLike, token_id: int) -> list[int]:
    """Return the positions at which ``token_id`` occurs in a sequence.

    Parameters
    ----------
    ids
        A 1-D sequence of IDs.
    token_id
        The ID to find.

    Returns
    -------
    list of int
        Zero-based positions, ascending.
    """
    return [int(t) for t in np.flatnonzero(np.asarray(ids).reshape(-1) == token_id)]


@dataclass(frozen=True)
class TrainingStep:
    """Everything one SGD step on the toy loss changes, for the rows involved.

    Attributes
    ----------
    ids
        The token IDs, int64 ``(T,)``.
    weights
        The loss weights ``w_t`` = ``∂L/∂e_t``, float32 ``(T, d)``.
    lr
        The learning rate.
    rows
        The distinct IDs, ascending (the only rows that change).
    before
        Those rows before the step, float32 ``(U, d)``.
    grad
        Their gradient rows, float32 ``(U, d)``.
    after
        Those rows after the step, float32 ``(U, d)``.
    loss_before, loss_after
        The loss before and after the step.
    """

    ids: npt.NDArray[np.int64]
    weights: npt.NDArray[np.float32]
    lr: float
    rows: npt.NDArray[np.int64]
    before: npt.NDArray[np.float32]
    grad: npt.NDArray[np.float32]
    after: npt.NDArray[np.float32]
    loss_before: float
    loss_after: float

    def grad_row(self, row: int) -> npt.NDArray[np.float32]:
        """Return ``∂L/∂E[row]``: zeros for a row no ID selected."""
        found = np.flatnonzero(self.rows == row)
        if found.size == 0:
            return np.zeros(self.grad.shape[1], dtype=np.float32)
        grad: npt.NDArray[np.float32] = self.grad[int(found[0])]
        return grad

    def after_row(self, row: int) -> npt.NDArray[np.float32]:
        """Return a changed row's new values (only rows in ``rows`` change)."""
        found = np.flatnonzero(self.rows == row)
        if found.size == 0:
            raise KeyError(f"row {row} was not looked up, so this step did not compute it")
        after: npt.NDArray[np.float32] = self.after[int(found[0])]
        return after


def training_step(table: Table, ids: object, weights: npt.ArrayLike, lr: float) -> TrainingStep:
    """Run one SGD step of ``L = Σ_t w_t · E[id_t]`` on the rows involved.

    Parameters
    ----------
    table
        The embedding table; only the looked-up rows are read.
    ids
        A 1-D sequence of token IDs.
    weights
        ``w_t``, shape ``(T, d)``.
    lr
        The learning rate.

    Returns
    -------
    TrainingStep
        The gradient rows, the updated rows and the loss before and after.

    Raises
    ------
    EmbedvizError
        For invalid IDs, weights or learning rate.
    """
    index = validate_ids(ids, table.vocab_size).reshape(-1)
    rows, grad = embedding_gradient_rows(index, weights, table.vocab_size)
    w = np.asarray(weights, dtype=np.float32)
    if w.shape[1] != table.dim:
        raise EmbedvizError(
            f"the loss weights have {w.shape[1]} columns, but the table has d = {table.dim}"
        )
    before = table.rows(rows)
    after = sgd_step(before, grad, lr)
    position_to_row = np.searchsorted(rows, index)
    return TrainingStep(
        ids=index,
        weights=w,
        lr=float(lr),
        rows=rows,
        before=before,
        grad=grad,
        after=after,
        loss_before=linear_loss(before[position_to_row], w),
        loss_after=linear_loss(after[position_to_row], w),
    )
