"""Oracles for PositionBlindness: position vectors and their sums, recomputed here.

Sinusoids use the exp/log form of the Transformer's frequencies in float64
(``embedviz.core.positions`` uses a power), rounded once to float32. The
learned table comes from PyTorch itself: ``torch.manual_seed(seed + 1)`` and
``nn.Embedding(16, d)``, as the scene documents. Sums are the float32 sum of
the table row the test indexed itself and that position vector.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from embedviz.story.model import NumberCell

# The scene documents both: a 16-position learned table, seeded with seed + 1.
CONTEXT_LENGTH = 16
SEED_OFFSET = 1


def _text(value: float) -> str:
    return f"{value:.4f}"


def sinusoid(position: int, column: int, dim: int) -> np.float32:
    """P[pos, col] of the sinusoidal table, from its definition."""
    pair = column // 2
    frequency = math.exp(-(2 * pair) * math.log(10000.0) / dim)
    angle = position * frequency
    return np.float32(math.sin(angle) if column % 2 == 0 else math.cos(angle))


def learned_table(seed: int, dim: int) -> np.ndarray:
    """The learned position table as PyTorch initialises it (needs torch)."""
    import torch

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed((seed + SEED_OFFSET) % 2**64)
        weight = torch.nn.Embedding(CONTEXT_LENGTH, dim).weight.detach().numpy().copy()
    return np.asarray(weight, dtype=np.float32)


def _learned(context: Any) -> np.ndarray:
    if "learned" not in context.cache:
        context.cache["learned"] = learned_table(context.options.seed, context.weight.shape[1])
    return np.asarray(context.cache["learned"])


def _sinusoid(cell: NumberCell, context: Any) -> tuple[float, str]:
    position, column = cell.index
    value = float(sinusoid(position, column, context.weight.shape[1]))
    return value, _text(value)


def _learned_position(cell: NumberCell, context: Any) -> tuple[float, str]:
    value = float(_learned(context)[cell.index])
    return value, _text(value)


def _sum(position_vector: Any) -> Any:
    def oracle(cell: NumberCell, context: Any) -> tuple[float, str]:
        position, column = cell.index
        token = np.float32(context.weight[context.ids[position], column])
        value = float(np.float32(token + np.float32(position_vector(cell, context)[0])))
        return value, _text(value)

    return oracle


def _pe_size(cell: NumberCell, context: Any) -> tuple[float, str]:
    size = (CONTEXT_LENGTH, context.weight.shape[1])[cell.index[0]]
    return float(size), str(size)


KINDS = {
    "sinusoid": _sinusoid,
    "learned_position": _learned_position,
    "sum_sinusoid": _sum(_sinusoid),
    "sum_learned": _sum(_learned_position),
    "pe_col": lambda cell, context: (float(cell.index[0]), str(cell.index[0])),
    "pe_size": _pe_size,
}
