"""Independent expected values for every kind of number a scene draws.

``expected(cell, context)`` returns the ``(value, text)`` a storyboard cell
must hold, computed here from the inputs with plain numpy (or PyTorch), never
by calling the code that built the storyboard. Scene modules in this package
add their own kinds to ``KINDS``; any kind without an oracle fails the test.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from embedviz.core.table import EmbeddingTable, FileTable, TorchSeededTable
from embedviz.inputs import prepare_options
from embedviz.story.model import NumberCell, Storyboard
from embedviz.story.options import SceneOptions, resolve_options
from embedviz.story.scenes import SCENES, make_table


@dataclass
class Context:
    """What a scene was built from, recomputed independently."""

    scene: str
    overrides: dict[str, Any]
    options: SceneOptions
    board: Storyboard
    weight: np.ndarray
    ids: np.ndarray
    output: np.ndarray
    cache: dict[str, Any] = field(default_factory=dict)


def make_context(scene: str, overrides: dict[str, Any], board: Storyboard) -> Context:
    defaults = SCENES[scene].defaults if scene in SCENES else {}
    options = prepare_options(
        resolve_options(overrides, scene=scene, environ={}, defaults=defaults)
    )
    table = make_table(options)
    # Scenes compute or read only the rows they show; the oracle builds the
    # whole table through the independent full-table paths.
    if isinstance(table, TorchSeededTable):
        full = table.materialise()
    elif isinstance(table, FileTable):
        assert options.weights is not None
        full = EmbeddingTable.from_file(options.weights, options.tensor)
    else:
        full = table
    assert isinstance(full, EmbeddingTable)
    weight = np.asarray(full.weight)
    text = overrides.get("ids")
    if text is None:
        ids = np.asarray(board.ids)
    else:
        rows = [[int(part) for part in row.split(",")] for row in str(text).split(";")]
        ids = np.asarray(rows[0] if len(rows) == 1 else rows)
    # A single ID is looked up as a one-element sequence (output shape (1, d)).
    ids = np.atleast_1d(ids)
    return Context(scene, overrides, options, board, weight, ids, weight[ids])


def four_places(value: float) -> str:
    """Round half to even at 4 places, written out independently of embedviz."""
    return f"{float(value):.4f}"


def whole(value: float) -> tuple[float, str]:
    return float(value), str(int(value))


def _legend(cell: NumberCell, context: Context) -> tuple[float, str]:
    shown = [
        context.weight[c.index]
        for beat in context.board.beats
        for c in beat.numbers
        if c.kind == "weight"
    ]
    largest = float(np.max(np.abs(shown)))
    step = 10.0 ** math.floor(math.log10(largest))
    scale = math.ceil(round(largest / step, 9)) * step
    value = (-scale, 0.0, scale)[cell.index[0]]
    text = (
        "0"
        if value == 0
        else ("+" if value > 0 else "-") + (f"{abs(value):.10f}".rstrip("0").rstrip("."))
    )
    return value, text


def _equal_to(cell: NumberCell, context: Context) -> tuple[float, str]:
    """The first output position that holds the same ID as this one."""
    ids = [int(i) for i in context.ids.reshape(-1)]
    first = ids.index(ids[cell.index[0]])
    assert first < cell.index[0], "only a repeated ID is marked equal"
    return float(first), f"= out[{first}]"


def _value(array_of: Callable[[Context], np.ndarray]) -> Callable[..., tuple[float, str]]:
    def oracle(cell: NumberCell, context: Context) -> tuple[float, str]:
        value = float(array_of(context)[cell.index])
        return value, four_places(value)

    return oracle


KINDS: dict[str, Callable[[NumberCell, Context], tuple[float, str]]] = {
    "weight": _value(lambda c: c.weight),
    "output": _value(lambda c: c.output),
    # A one-token print has shape (1, d).
    "printed": _value(lambda c: c.output.reshape(-1, c.weight.shape[1])),
    "row_label": lambda cell, c: whole(cell.index[0]),
    "col_label": lambda cell, c: whole(cell.index[0]),
    "token_id": lambda cell, c: whole(
        c.ids.reshape(-1)[cell.index[0]] if c.ids.ndim <= 1 else c.ids[cell.index]
    ),
    "position": lambda cell, c: whole(cell.index[-1]),
    # The ID an output row came from: looked up here by position in the input.
    "output_id": lambda cell, c: whole(
        c.ids.reshape(-1)[cell.index[0]] if c.ids.ndim <= 1 else c.ids[cell.index]
    ),
    "equal_to": _equal_to,
    "table_size": lambda cell, c: whole(c.weight.shape[cell.index[0]]),
    "output_size": lambda cell, c: whole(c.output.shape[cell.index[0]]),
    "legend": _legend,
}

for _info in pkgutil.iter_modules(__path__):
    _module = importlib.import_module(f"{__name__}.{_info.name}")
    KINDS.update(getattr(_module, "KINDS", {}))


def expected(cell: NumberCell, context: Context) -> tuple[float, str]:
    """Return the value and text a cell must hold."""
    if cell.kind not in KINDS:
        raise AssertionError(
            f"no oracle for cells of kind {cell.kind!r}; add one in tests/oracles/"
        )
    return KINDS[cell.kind](cell, context)
