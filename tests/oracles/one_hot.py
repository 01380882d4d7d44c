"""Oracles for OneHotEquivalence: the one-hot vector, the terms, the product, the costs.

Everything is recomputed from the context's inputs with plain numpy, never
with ``embedviz.core.one_hot``: the vector is built by setting one entry of a
zero array, and each product entry is a float64 dot product (exact here, as
every term is 0 or 1 times a float32 value).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from embedviz.story.model import NumberCell

# GPT-2's token embedding is 50257 x 768; 50257 * 768 = 38,597,376.
GPT2_SHAPE = (50257, 768)
GPT2_MULTIPLY_ADDS = 38_597_376


def _token(context: Any) -> int:
    return int(np.asarray(context.ids).reshape(-1)[0])


def _vector(context: Any) -> np.ndarray:
    if "one_hot" not in context.cache:
        fresh = np.zeros(context.weight.shape[0], dtype=np.float64)
        fresh[_token(context)] = 1.0
        context.cache["one_hot"] = fresh
    vector: np.ndarray = context.cache["one_hot"]
    return vector


def _product(context: Any, col: int) -> float:
    key = f"product_{col}"
    if key not in context.cache:
        column = np.asarray(context.weight[:, col], dtype=np.float64)
        context.cache[key] = float(np.dot(_vector(context), column))
    value: float = context.cache[key]
    return value


def _whole(value: int) -> tuple[float, str]:
    return float(value), str(value)


def _grouped(value: int) -> tuple[float, str]:
    return float(value), f"{value:,}"


def _four(value: float) -> tuple[float, str]:
    return float(value), f"{float(value):.4f}"


def _cost_size(cell: NumberCell, context: Any) -> tuple[float, str]:
    row, axis = cell.index
    shape = context.weight.shape if row == 0 else GPT2_SHAPE
    # Grouped as the count they multiply to ("50,257 × 768 = 38,597,376").
    return _grouped(int(shape[axis]))


def _multiply_adds(cell: NumberCell, context: Any) -> tuple[float, str]:
    vocab, dim = context.weight.shape
    # Row 0: this table's product; row 1: GPT-2's; row 2: the lookup, which has none.
    return _grouped((int(vocab) * int(dim), GPT2_MULTIPLY_ADDS, 0)[cell.index[0]])


KINDS: dict[str, Callable[[NumberCell, Any], tuple[float, str]]] = {
    "one_hot": lambda cell, c: _whole(int(_vector(c)[cell.index[0]])),
    # Drawn on its side: one_hot(i) transposed, V × 1.
    "one_hot_size": lambda cell, c: _whole((int(c.weight.shape[0]), 1)[cell.index[0]]),
    "term_one_hot": lambda cell, c: _whole(int(_vector(c)[cell.index[1]])),
    "term_weight": lambda cell, c: _four(c.weight[cell.index[1], cell.index[0]]),
    "term_sum": lambda cell, c: _four(_product(c, cell.index[0])),
    "product": lambda cell, c: _four(_product(c, cell.index[0])),
    "product_size": lambda cell, c: _whole((1, int(c.weight.shape[1]))[cell.index[0]]),
    "cost_size": _cost_size,
    "multiply_adds": _multiply_adds,
    "copy_count": lambda cell, c: _whole(int(c.weight.shape[1])),
}
