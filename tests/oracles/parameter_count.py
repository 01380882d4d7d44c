"""Oracles for ParameterCount: sizes, counts, bytes and the corner of real values.

Counts and byte sizes are recomputed with plain integer arithmetic and
formatted here; the corner values are the context's table, which
``oracles.tables`` derived independently. ``param_count`` also serves
LargeVocabLookup, which draws the same count.
"""

from __future__ import annotations

from typing import Any

from embedviz.story.model import NumberCell
from oracles import four_places

# Bytes per element, as torch.tensor([], dtype=...).element_size() reports them.
BYTES = {"float32": 4, "bfloat16": 2}
DTYPE_ORDER = ("float32", "bfloat16")


def _shape(context: Any) -> tuple[int, int]:
    rows, cols = context.weight.shape
    return int(rows), int(cols)


def _grouped(n: int) -> str:
    """Thousands separators, written out by hand rather than with format()."""
    digits = str(n)
    groups = []
    while digits:
        groups.insert(0, digits[-3:])
        digits = digits[:-3]
    return ",".join(groups)


def _count(n: int) -> tuple[float, str]:
    return float(n), _grouped(n)


def _binary(nbytes: int) -> tuple[float, str]:
    """Bytes below 1 KiB, else one decimal in the largest unit below 1024."""
    if nbytes < 1024:
        return float(nbytes), f"{nbytes} B"
    value = float(nbytes)
    units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    for number, unit in enumerate(units):
        value = value / 1024
        if value < 1024 or number == len(units) - 1:
            return float(nbytes), f"{value:.1f} {unit}"
    raise AssertionError("unreachable")


def _widths(dim: int) -> list[int]:
    return sorted({w for w in (dim // 2, dim, dim * 2) if w > 0})


def _corner(cell: NumberCell, context: Any) -> tuple[float, str]:
    row, col = cell.index
    looked_up = int(context.ids.reshape(-1)[0])
    assert row < 6 or row == looked_up, "the first six rows and the looked-up row are drawn"
    return _table_value(row, col, context)


def _looked_up(cell: NumberCell, context: Any) -> tuple[float, str]:
    row, col = cell.index
    assert row == int(context.ids.reshape(-1)[0]), "the looked-up row is the ID's row"
    return _table_value(row, col, context)


def _table_value(row: int, col: int, context: Any) -> tuple[float, str]:
    assert col < 3, "only three corner columns are drawn"
    value = float(context.weight[row, col])
    return value, four_places(value)


def _dtype(cell: NumberCell) -> str:
    return DTYPE_ORDER[cell.index[0]]


KINDS = {
    "block_size": lambda cell, c: _count(_shape(c)[cell.index[0]]),
    "factor": lambda cell, c: _count(_shape(c)[cell.index[0]]),
    "param_count": lambda cell, c: _count(_shape(c)[0] * _shape(c)[1]),
    "dtype_bytes": lambda cell, c: _count(BYTES[_dtype(cell)]),
    "dtype_total": lambda cell, c: _count(_shape(c)[0] * _shape(c)[1] * BYTES[_dtype(cell)]),
    "dtype_memory": lambda cell, c: _binary(_shape(c)[0] * _shape(c)[1] * BYTES[_dtype(cell)]),
    "compare_dim": lambda cell, c: _count(_widths(_shape(c)[1])[cell.index[0]]),
    "compare_count": lambda cell, c: _count(_shape(c)[0] * _widths(_shape(c)[1])[cell.index[0]]),
    "compare_memory": lambda cell, c: _binary(
        _shape(c)[0] * _widths(_shape(c)[1])[cell.index[0]] * BYTES["float32"]
    ),
    "row_values": lambda cell, c: _count(_shape(c)[1]),
    "row_bytes": lambda cell, c: _count(_shape(c)[1] * BYTES["float32"]),
    "corner": _corner,
    "lookup_value": _looked_up,
    # The looked-up row is the ID itself.
    "lookup_row": lambda cell, c: (float(c.ids.reshape(-1)[0]), str(int(c.ids.reshape(-1)[0]))),
}
