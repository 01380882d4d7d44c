"""Oracles for TrainingNudge: the toy loss, its gradient and one SGD step.

Everything is recomputed here from the scene's inputs with plain numpy and
exact rational arithmetic, never with ``embedviz.core.training``: the loss
weights from their documented recipe, the gradient by an explicit loop over
positions (one float32 addition per occurrence, in input order, as PyTorch's
CPU kernel adds), the learning rate by its documented rule (the largest of
0.5, 0.2, 0.1, 0.05, ... 0.0001 whose exact linear change of the loss is at
most half of it), the update as ``E[row] - lr * grad`` computed exactly and
rounded to float32, and the loss as an exact rational sum rounded once.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from embedviz.story.model import NumberCell
from oracles import Context, four_places

# The scene's documented constants: the learning rates its step may use
# (1, 2, 5 in each decade, largest first), and the stream the loss weights
# are drawn from (numpy.random.default_rng([seed, 70])).
LEARNING_RATES = ("0.5", "0.2", "0.1", "0.05", "0.02", "0.01", "0.005", "0.002", "0.001")
LEARNING_RATES += ("0.0005", "0.0002", "0.0001")
WEIGHT_STREAM = 70


def _ids(context: Context) -> np.ndarray:
    """The scene's IDs, from its options (a composite video is checked part by part)."""
    assert context.scene == "TrainingNudge", "TrainingNudge's oracles need its own context"
    return context.ids


def _weights(context: Context) -> np.ndarray:
    if "w" not in context.cache:
        count, dim = _ids(context).size, context.weight.shape[1]
        rng = np.random.default_rng([context.options.seed, WEIGHT_STREAM])
        tenths = rng.integers(1, 10, size=(count, dim))
        signs = np.where(rng.random((count, dim)) < 0.5, -1, 1)
        context.cache["w"] = ((signs * tenths) / 10.0).astype(np.float32)
    weights: np.ndarray = context.cache["w"]
    return weights


def _grad_row(context: Context, row: int) -> np.ndarray:
    key = f"grad{row}"
    if key not in context.cache:
        weights = _weights(context)
        total = np.zeros(context.weight.shape[1], dtype=np.float32)
        for position, token_id in enumerate(_ids(context).reshape(-1)):
            if int(token_id) == row:
                total = (total + weights[position]).astype(np.float32)
        context.cache[key] = total
    grad: np.ndarray = context.cache[key]
    return grad


def _learning_rate(context: Context) -> str:
    """The rate as written: the first whose exact change Σ‖∂L/∂E[i]‖²·lr is <= |L|/2."""
    if "lr" not in context.cache:
        squares = Fraction(0)
        for row in sorted({int(i) for i in _ids(context).reshape(-1)}):
            squares += sum(Fraction(g) ** 2 for g in _grad_row(context, row).tolist())
        half = abs(Fraction(_loss(context, lambda row: context.weight[row]))) / 2
        fits = [lr for lr in LEARNING_RATES if Fraction(lr) * squares <= half]
        context.cache["lr"] = fits[0] if fits else LEARNING_RATES[-1]
    lr: str = context.cache["lr"]
    return lr


def _new_row(context: Context, row: int) -> np.ndarray:
    # As torch.optim.SGD: the float32 rate times the gradient, taken from the row, rounded.
    rate = Fraction(float(np.float32(float(_learning_rate(context)))))
    old, grad = context.weight[row].astype(np.float32).tolist(), _grad_row(context, row).tolist()
    exact = [Fraction(e) - rate * Fraction(g) for e, g in zip(old, grad, strict=True)]
    return np.array([float(x) for x in exact]).astype(np.float32)


def _loss(context: Context, rows_of: Callable[[int], np.ndarray]) -> float:
    weights = _weights(context)
    total = Fraction(0)
    for position, token_id in enumerate(_ids(context).reshape(-1)):
        row = rows_of(int(token_id))
        for e, w in zip(row.tolist(), weights[position].tolist(), strict=True):
            total += Fraction(e) * Fraction(w)
    return float(total)


def _value(value: float) -> tuple[float, str]:
    return float(value), four_places(value)


def _upstream(cell: NumberCell, context: Context) -> tuple[float, str]:
    position, col = cell.index
    return _value(float(_weights(context)[position, col]))


def _grad(cell: NumberCell, context: Context) -> tuple[float, str]:
    row, col = cell.index
    return _value(float(_grad_row(context, row)[col]))


def _updated(cell: NumberCell, context: Context) -> tuple[float, str]:
    row, col = cell.index
    return _value(float(_new_row(context, row)[col]))


def _loss_cell(cell: NumberCell, context: Context) -> tuple[float, str]:
    if cell.index == (0,):
        value = _loss(context, lambda row: context.weight[row])
    else:
        value = _loss(context, lambda row: _new_row(context, row))
    return _value(value)


KINDS: dict[str, Callable[[NumberCell, Context], tuple[float, str]]] = {
    "upstream": _upstream,
    "term": _upstream,
    "grad": _grad,
    "sum": _grad,
    "updated": _updated,
    "loss": _loss_cell,
    "lr": lambda cell, context: (float(_learning_rate(context)), _learning_rate(context)),
}
