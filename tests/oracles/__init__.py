"""Independent expected values for every kind of number a scene draws.

``expected(cell, context)`` returns the ``(value, text)`` a storyboard cell
must hold, computed here from the inputs with plain numpy (or PyTorch), never
by calling the code that built the storyboard. ``make_context`` rebuilds the
table from its definition (``oracles.tables``: PyTorch where installed, plain
numpy otherwise, or the weights file read independently) and takes the token
IDs from the options, or from each scene's documented default, never from the
storyboard. Scene modules in this package add their own kinds to ``KINDS``;
a kind defined twice is an error, and any kind without an oracle fails the test.
"""

from __future__ import annotations

import decimal
import importlib
import math
import pkgutil
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from embedviz.config import resolve_options
from embedviz.inputs import prepare_options
from embedviz.story.model import NumberCell, Storyboard
from embedviz.story.options import SceneOptions
from oracles.tables import file_table, seeded_table

# A seeded table's size when no option sets it (README: "--vocab ... 6", "--dim ... 3").
DEFAULT_VOCAB, DEFAULT_DIM = 6, 3
GPT2 = {"vocab": 50257, "dim": 768}

# Each scene's documented defaults (README scene table and the scene docstrings),
# written out here rather than read from the scene specs. ``ids`` may depend on V.
SCENE_DEFAULTS: dict[str, dict[str, Any]] = {
    "SingleTokenLookup": {"ids": [3]},
    "ZeroBasedIndexing": {"ids": [3]},
    "SequenceLookup": {"ids": [2, 3, 5, 1]},
    "BatchLookup": {"ids": [[2, 3, 5, 1], [4, 0, 3, 2]]},
    "LargeVocabLookup": {
        # The scene's ten-token GPT-2 sentence, ending in <|endoftext|> (50256).
        "ids": [4821, 464, 3290, 318, 257, 31373, 11, 13, 4821, 50256],
        **GPT2,
    },
    "OneHotEquivalence": {"ids": [3]},
    # ID 3, or the last row of a table with fewer rows.
    "ParameterCount": {"ids": lambda vocab: [min(3, vocab - 1)], **GPT2},
    "TrainingNudge": {"ids": [2, 3, 2]},
    "PositionBlindness": {"ids": [2, 3, 2, 1]},
}


@dataclass
class Context:
    """What a scene was built from, recomputed independently.

    ``exact`` is false when the table is the plain-numpy replay of PyTorch's
    sampler (no torch installed), which may differ from PyTorch in the last
    float32 place.
    """

    scene: str
    overrides: dict[str, Any]
    options: SceneOptions
    board: Storyboard
    weight: np.ndarray
    ids: np.ndarray
    output: np.ndarray
    exact: bool = True
    cache: dict[str, Any] = field(default_factory=dict)


def make_context(scene: str, overrides: dict[str, Any], board: Storyboard) -> Context:
    """Rebuild what ``scene`` was built from; ``board`` is kept only for layout facts."""
    assert scene in SCENE_DEFAULTS, f"no documented defaults for {scene}; add them here"
    defaults = SCENE_DEFAULTS[scene]
    # Options are parsed as the user gave them; --model and --text become a
    # weights file, a tensor name and IDs (tokenisation is tested on its own).
    options = prepare_options(resolve_options(overrides, scene=scene, environ={}))
    exact = True
    if options.weights is not None:
        weight = file_table(options.weights, options.tensor)
    else:
        vocab = options.vocab if options.vocab is not None else defaults.get("vocab", DEFAULT_VOCAB)
        dim = options.dim if options.dim is not None else defaults.get("dim", DEFAULT_DIM)
        weight, exact = seeded_table(options.init, options.seed, vocab, dim)
    if options.ids is not None:
        chosen: Any = options.ids
    else:
        chosen = defaults["ids"]
        if callable(chosen):
            chosen = chosen(weight.shape[0])
    # A single ID is looked up as a one-element sequence (output shape (1, d)).
    ids = np.atleast_1d(np.asarray(chosen, dtype=np.int64))
    return Context(scene, overrides, options, board, weight, ids, weight[ids], exact)


def four_places(value: float) -> str:
    """Round half to even at 4 places, written out independently of embedviz."""
    return f"{float(value):.4f}"


def whole(value: float) -> tuple[float, str]:
    return float(value), str(int(value))


def _legend(cell: NumberCell, context: Context) -> tuple[float, str]:
    """The key's ends: the table's, never the rows a scene shows (docs/storyboard.md).

    A seeded table holds standard normal draws: the 99th percentile of ``|x|``
    (the 99.5th of ``x``, from the standard library). A table from a file: the
    99th percentile of ``|value|`` over 256 rows spread evenly (all of a smaller
    table), first and last included. Either rounded up to one significant digit.
    """
    if context.options.weights is None:
        largest = statistics.NormalDist().inv_cdf(0.995)
    else:
        count = context.weight.shape[0]
        rows = np.unique(np.rint(np.linspace(0, count - 1, min(count, 256))).astype(np.int64))
        values = np.abs(context.weight[rows].astype(np.float64)).reshape(-1)
        largest = float(np.quantile(values[np.isfinite(values)], 0.99))
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
    """The first output position that holds the same ID as this one.

    Positions are filled in row-major order (a batch sequence by sequence), so
    "first" is first in that order; the value is the last axis of that position.
    """
    shape = context.ids.shape
    ids = [int(i) for i in context.ids.reshape(-1)]
    here = int(np.ravel_multi_index(cell.index, shape))
    first = ids.index(ids[here])
    assert first < here, "only a repeated ID is marked equal"
    where = tuple(int(i) for i in np.unravel_index(first, shape))
    # Every mark names both rows (issue 18: never "5 = out[1]" beside the index 5).
    here_text = ",".join(str(i) for i in cell.index)
    mark = f"out[{here_text}] = out[" + ",".join(str(i) for i in where) + "]"
    return float(where[-1]), mark


def _printed(cell: NumberCell, output: np.ndarray) -> tuple[float, str]:
    """A printed number: PyTorch's text (``-0.4015`` or ``-9.5602e-01``), the value rounded.

    The text is the cell's own when it is the value rounded to its last printed
    place (read from the text alone: digits after the point, less the exponent);
    otherwise the oracle's four places, which then fail the comparison.
    """
    value = float(output[cell.index])
    shown = decimal.Decimal(cell.text)
    place = decimal.Decimal(1).scaleb(shown.as_tuple().exponent)
    if abs(decimal.Decimal(value) - shown) <= place / 2 + decimal.Decimal("1e-12"):
        return value, cell.text
    return value, four_places(value)


def _value(array_of: Callable[[Context], np.ndarray]) -> Callable[..., tuple[float, str]]:
    def oracle(cell: NumberCell, context: Context) -> tuple[float, str]:
        value = float(array_of(context)[cell.index])
        return value, four_places(value)

    return oracle


KINDS: dict[str, Callable[[NumberCell, Context], tuple[float, str]]] = {
    "weight": _value(lambda c: c.weight),
    "output": _value(lambda c: c.output),
    # A one-token print has shape (1, d); its numbers are as PyTorch prints them.
    "printed": lambda cell, c: _printed(cell, c.output.reshape(-1, c.weight.shape[1])),
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


Oracle = Callable[[NumberCell, Context], tuple[float, str]]


def merge_kinds(base: dict[str, Oracle], modules: Iterable[ModuleType]) -> dict[str, Oracle]:
    """Return ``base`` plus every module's ``KINDS``; a kind defined twice is an error.

    Raises
    ------
    RuntimeError
        Naming both places that define the kind.
    """
    merged = dict(base)
    owner = dict.fromkeys(base, __name__)
    for module in modules:
        for kind, oracle in getattr(module, "KINDS", {}).items():
            if kind in owner:
                raise RuntimeError(
                    f"oracle kind {kind!r} is defined in both {owner[kind]} and "
                    f"{module.__name__}; keep one"
                )
            owner[kind] = module.__name__
            merged[kind] = oracle
    return merged


KINDS = merge_kinds(
    KINDS,
    (
        importlib.import_module(f"{__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name)
    ),
)


def expected(cell: NumberCell, context: Context) -> tuple[float, str]:
    """Return the value and text a cell must hold."""
    if cell.kind not in KINDS:
        raise AssertionError(
            f"no oracle for cells of kind {cell.kind!r}; add one in tests/oracles/"
        )
    return KINDS[cell.kind](cell, context)


def assert_matches(cell: NumberCell, context: Context, where: str = "") -> None:
    """Assert that a cell holds its oracle's value and text.

    Exact when the context's table is exact. Without torch, the plain-numpy
    replay of PyTorch's sampler may be a few float32 steps off, so the value
    must then be within a relative 1e-6 and a printed 4-place string within
    half a unit of the last place of the oracle's value.
    """
    value, text = expected(cell, context)
    where = where or f"{cell.kind}{cell.index} {cell.text!r}"
    if context.exact:
        assert cell.value == value, f"{where}: value {cell.value!r}, oracle {value!r}"
        assert cell.text == text, f"{where}: text {cell.text!r}, oracle {text!r}"
        return
    assert math.isclose(cell.value, value, rel_tol=1e-6, abs_tol=1e-6), where
    try:
        shown = float(cell.text.replace(",", ""))
    except ValueError:
        assert cell.text == text, where
    else:
        assert abs(shown - value) <= 0.5e-4 + 1e-6 + 1e-6 * abs(value), where
