"""Oracles for ZeroBasedIndexing: the slip's count and row, the ordinal, the trace.

Every expectation is recomputed from the traced ID and the table, with plain
numpy indexing; the one-based slip is simply "ID i means row i - 1".
"""

from __future__ import annotations

from typing import Any

from embedviz.story.model import NumberCell
from oracles import four_places, whole


def _token(context: Any) -> int:
    ids = context.ids.reshape(-1)
    assert ids.size == 1, "ZeroBasedIndexing traces exactly one ID"
    return int(ids[0])


def _one_based_count(cell: NumberCell, context: Any) -> tuple[float, str]:
    row = cell.index[0]
    # The slip counts rows from the top and stops on row id - 1.
    assert 0 <= row <= _token(context) - 1, f"row {row} is not counted by the slip"
    return whole(row + 1)


def _wrong_value(cell: NumberCell, context: Any) -> tuple[float, str]:
    row = _token(context) - 1
    assert row >= 0, "ID 0 has no one-based row, so no values may be shown"
    value = float(context.weight[row, cell.index[0]])
    return value, four_places(value)


def _ordinal(cell: NumberCell, context: Any) -> tuple[float, str]:
    row = cell.index[0]
    assert row == _token(context), "the ordinal labels the selected row"
    n = row + 1
    if n % 100 in (11, 12, 13):
        suffix = "th"
    else:
        suffix = ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"][n % 10]
    return float(n), f"{n}{suffix}"


KINDS = {
    "one_based_count": _one_based_count,
    "wrong_id": lambda cell, c: whole(_token(c)),
    "wrong_index": lambda cell, c: whole(_token(c) - 1),
    "wrong_value": _wrong_value,
    "ordinal": _ordinal,
    "trace_id": lambda cell, c: whole(_token(c)),
    "trace_index": lambda cell, c: whole(_token(c)),
    "check_row": lambda cell, c: whole(_token(c)),
}
