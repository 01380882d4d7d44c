"""Oracles for BatchLookup's own number kinds, from the IDs and table alone.

``batch_dim`` is the size of one axis of the B x T x d output, read off the
IDs array the test parsed itself and the table's width; ``slice`` is a slice
number, the index it is drawn at.
"""

from __future__ import annotations

from typing import Any

from embedviz.story.model import NumberCell


def _batch_dim(cell: NumberCell, context: Any) -> tuple[float, str]:
    assert context.ids.ndim == 2, "a batch is two-dimensional"
    batch, length = context.ids.shape
    size = (batch, length, context.weight.shape[1])[cell.index[0]]
    return float(size), str(size)


def _slice(cell: NumberCell, context: Any) -> tuple[float, str]:
    (number,) = cell.index
    assert 0 <= number < context.ids.shape[0], "a slice per sequence"
    return float(number), str(number)


KINDS = {"batch_dim": _batch_dim, "slice": _slice}
