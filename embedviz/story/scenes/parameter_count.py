"""ParameterCount: a V x d table holds V * d parameters, and they cost memory.

GPT-2's 50257 x 768 table by default. The scene counts the parameters, prices
them in float32 and bfloat16, compares a narrower and a wider d, and ends on
the point that a lookup itself does no arithmetic. It never builds the table:
only a 6 x 3 corner of real values and the looked-up row are computed, so any
V and d render at the same speed.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from embedviz.core.cells import colour_scale
from embedviz.core.colour_key import NORMAL_QUANTILE, table_key
from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import validate_ids
from embedviz.core.params import (
    bytes_per_parameter,
    check_table_shape,
    comparison_dims,
    format_bytes_binary,
    format_count,
    parameter_count,
    table_bytes,
)
from embedviz.core.table import TorchSeededTable
from embedviz.core.torch_init import torch_seed
from embedviz.story.model import Highlight, NumberCell, NumberKind, Storyboard
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.common import Recorder, SceneSpec, TableShape, make_table
from embedviz.story.screen import int_cell, value_cell
from embedviz.story.window import labelled_window

__all__ = [
    "COMPARE_CLEARS",
    "COMPARE_DTYPE",
    "CORNER_SHAPE",
    "DTYPES",
    "LOOKUP_CLEARS",
    "PARAMS_DEFAULT_DIM",
    "PARAMS_DEFAULT_VOCAB",
    "SPEC",
    "build_parameter_count",
    "count_cell",
    "leading_rows",
    "memory_cell",
]

# GPT-2's token embedding: 50257 BPE tokens, 768 dimensions.
PARAMS_DEFAULT_VOCAB = 50257
PARAMS_DEFAULT_DIM = 768
# The storage formats priced on screen, in order.
DTYPES = ("float32", "bfloat16")
# The format the comparison of widths is priced in.
COMPARE_DTYPE = "float32"
# The memory table's numbers, which leave as the comparison of widths starts: that table
# is what the beat is about, and takes the panel (issue 18: a 720p review found it small
# under the memory table, and 77,194,752 shown at once as bfloat16's bytes and as the
# parameters at d = 1,536, 73.6 MiB as bfloat16's memory and as float32's at d = 384).
COMPARE_CLEARS = ("dtype_bytes", "dtype_total", "dtype_memory")
# The widths table's numbers, which leave as the lookup starts: the count's stay, and each
# dtype's memory (dtype_memory, by its dtype's name) comes back as the summary.
LOOKUP_CLEARS = ("compare_dim", "compare_count", "compare_memory")
# The corner of real values drawn inside the block (with the looked-up row). Six rows:
# the block reads as a table (a 720p review found two rows, a lone "row 2 hidden" band
# and a tall empty band for the rest: the shown data filled 15 % of the frame), and the
# default ID 3 lies inside the corner, so no band hides a single row above it.
CORNER_SHAPE = (6, 3)


def count_cell(kind: NumberKind, index: tuple[int, ...], count: int) -> NumberCell:
    """Make the cell for a whole count, drawn with thousands separators.

    Parameters
    ----------
    kind
        What the count is.
    index
        Where it sits.
    count
        The count.

    Returns
    -------
    NumberCell
        Text such as ``38,597,376``; the value is the count.
    """
    return NumberCell(kind, index, format_count(count), float(count))


def memory_cell(kind: NumberKind, index: tuple[int, ...], nbytes: int) -> NumberCell:
    """Make the cell for a memory size, drawn in binary units.

    Parameters
    ----------
    kind
        What the size is.
    index
        Where it sits.
    nbytes
        The exact number of bytes.

    Returns
    -------
    NumberCell
        Text such as ``147.2 MiB``; the value is the exact byte count.
    """
    return NumberCell(kind, index, format_bytes_binary(nbytes), float(nbytes))


def leading_rows(
    options: SceneOptions, vocab_size: int, dim: int, count: int
) -> npt.NDArray[np.float32]:
    """Return the first rows of the table the options describe, and no more.

    Parameters
    ----------
    options
        The resolved options (``weights``, ``init`` and ``seed`` are used).
    vocab_size, dim
        The table's shape (checked, and taken from the file for ``weights``).
    count
        How many leading rows, at most ``vocab_size``.

    Returns
    -------
    numpy.ndarray
        Float32 ``(count, dim)``, equal to the first rows of the table that
        :func:`embedviz.story.scenes.common.make_table` would build, without
        building (or refusing for its size) the whole table.

    Raises
    ------
    EmbedvizError
        For a bad seed or a bad weights file.
    """
    rows = np.arange(count, dtype=np.int64)
    if options.weights is not None:
        return make_table(options).rows(rows)
    if options.init == "torch":
        # Computes only these rows, whatever V is.
        return TorchSeededTable(vocab_size, dim, options.seed).rows(rows)
    # numpy's Generator fills a (V, d) draw in row-major order, so its first
    # rows are exactly a (count, d) draw from the same seed.
    rng = np.random.default_rng(torch_seed(options.seed))
    return rng.standard_normal((count, dim), dtype=np.float32)


def one_row(options: SceneOptions, vocab_size: int, dim: int, row: int) -> npt.NDArray[np.float32]:
    """Return one row of the table the options describe, building no more than needed.

    Parameters
    ----------
    options
        The resolved options.
    vocab_size, dim
        The table's shape.
    row
        The row.

    Returns
    -------
    numpy.ndarray
        Float32 ``(dim,)``.
    """
    rows: npt.NDArray[np.float32]
    index = np.array([row], dtype=np.int64)
    if options.weights is not None:
        rows = make_table(options).rows(index)
    elif options.init == "torch":
        rows = TorchSeededTable(vocab_size, dim, options.seed).rows(index)
    else:
        rows = leading_rows(options, vocab_size, dim, row + 1)[row:]
    return np.asarray(rows[0], dtype=np.float32)


def _key(options: SceneOptions) -> float:
    """Return the table's colour scale (:func:`~embedviz.core.colour_key.table_key`).

    A seeded table, which may be too large to build, is neither built nor read.
    """
    if options.weights is not None:
        return table_key(make_table(options))
    return colour_scale([NORMAL_QUANTILE])


def _lookup_id(options: SceneOptions, vocab_size: int) -> int:
    """Return the one ID the lookup beat copies (default 3, or the last row of a tiny table)."""
    ids = SPEC.ids(options)
    if options.ids is None:
        # A tiny table looks up its last row instead.
        ids = [min(ids[0], vocab_size - 1)]
    checked = validate_ids(ids, vocab_size)
    if checked.size != 1:
        raise EmbedvizError(
            f"ParameterCount looks up one token ID, but {checked.size} were given; "
            "pass a single ID such as --ids 3"
        )
    return int(checked.ravel()[0])


def _table_shape(options: SceneOptions) -> TableShape:
    """Return V, d and where they come from, without building the table."""
    if options.weights is not None:
        # A weights file fixes the shape (and make_table checks --vocab/--dim against it).
        table = make_table(options)
        return TableShape(table.vocab_size, table.dim, table.source)
    vocab = options.vocab if options.vocab is not None else PARAMS_DEFAULT_VOCAB
    dim = options.dim if options.dim is not None else PARAMS_DEFAULT_DIM
    check_table_shape(vocab, dim)
    if options.init == "torch":
        return TableShape(vocab, dim, TorchSeededTable(vocab, dim, options.seed).source)
    return TableShape(vocab, dim, f"numpy normal, seed {options.seed}")


def build_parameter_count(
    options: SceneOptions, *, legend: bool = True, words: Mapping[str, str] | None = None
) -> Storyboard:
    """Storyboard: V x d parameters, their memory, the d trade-off, a free lookup.

    Parameters
    ----------
    options
        ``vocab`` and ``dim`` (default 50257 and 768, GPT-2's), or ``weights``;
        ``ids`` holds the one ID the last beat looks up (default 3).
    legend
        Accepted for a uniform builder signature; this scene colours no values
        by size, so it shows no legend.
    words
        The words to label it with (e.g. a translation); English by default.

    Returns
    -------
    Storyboard
        The scene data.

    Raises
    ------
    EmbedvizError
        For more than one ID or an ID outside the table, a size that is not a
        positive whole number, a bad seed or a bad weights file.
    """
    shape = _table_shape(options)
    vocab, dim = shape.vocab_size, shape.dim
    token_id = _lookup_id(options, vocab)
    corner_rows, corner_cols = min(vocab, CORNER_SHAPE[0]), min(dim, CORNER_SHAPE[1])
    leading = leading_rows(options, vocab, dim, corner_rows)
    # The row the lookup copies is drawn in the block from the start, so that it
    # leaves from a row that is there (and marked), never from nowhere.
    if token_id < corner_rows:
        looked_up = leading[token_id]
    else:
        looked_up = one_row(options, vocab, dim, token_id)
    rows = sorted({*range(corner_rows), token_id})
    corner = np.stack([leading[r] if r < corner_rows else looked_up for r in rows])
    corner = corner[:, :corner_cols]
    told = SPEC.words(words)
    window = labelled_window(rows, range(corner_cols), vocab, dim, told)
    rec = Recorder(window, (vocab, dim), told)
    _table_and_count(rec, vocab, dim, corner)
    _memory(rec, vocab, dim)
    _lookup(rec, shape, token_id, looked_up)
    # Coloured on the table's own scale, as every scene that draws it: a real
    # model's small weights get strong colours too.
    return rec.finish(SPEC, options, shape, token_id, _key(options))


def _table_and_count(rec: Recorder, vocab: int, dim: int, corner: npt.NDArray[np.float32]) -> None:
    """Show the V × d block with some real values (its first rows and the ID's), then count."""
    screen = rec.screen
    is_gpt2 = (vocab, dim) == (PARAMS_DEFAULT_VOCAB, PARAMS_DEFAULT_DIM)
    V, d = format_count(vocab), format_count(dim)  # noqa: N806 - the maths' names
    count = parameter_count(vocab, dim)
    screen.add(count_cell("block_size", (0,), vocab), count_cell("block_size", (1,), dim))
    # The block's hidden ranges are labelled exactly, as every grid's are.
    for number, gap in enumerate(rec.window.row_gaps):
        screen.labels[f"row_gap_{number}"] = gap.label
    for number, gap in enumerate(rec.window.col_gaps):
        screen.labels[f"col_gap_{number}"] = gap.label
    for n, r in enumerate(rec.window.rows):
        screen.add(int_cell("row_label", (r,), r))
        for c in rec.window.cols:
            screen.add(value_cell("corner", (r, c), corner[n, c]))
    # The shape is GPT-2's, the values a seed's (or a file's): "GPT-2-sized", never "GPT-2's".
    owner = "A GPT-2-sized embedding table" if is_gpt2 else "This embedding table"
    rec.beat(
        "table",
        "table",
        f"{owner} has one row per vocabulary entry. It has one column per dimension. "
        f"That makes {V} rows of {d} numbers each.",
        # Three motions, one per phrase: rows, columns, numbers.
        run_time=2.4,
    )
    screen.add(
        count_cell("factor", (0,), vocab),
        count_cell("factor", (1,), dim),
        count_cell("param_count", (0,), count),
    )
    rec.beat(
        "count",
        "count",
        # The product stands whole on a line of its own: "E holds V × d of them:" /
        # "50,257 × 768 = 38,597,376." (no line opens on "= 38,597,376").
        f"Every entry is a trainable parameter: E holds V \u00d7 d of them: "
        f"{V} \u00d7 {d} = {format_count(count)}.",
        run_time=2.4,
        min_hold=1.5,
    )


def _memory(rec: Recorder, vocab: int, dim: int) -> None:
    """Price the table in each storage format, then compare other widths d."""
    screen = rec.screen
    for number, dtype in enumerate(DTYPES):
        size = bytes_per_parameter(dtype)
        nbytes = table_bytes(vocab, dim, dtype)
        screen.labels[f"dtype_{number}"] = dtype
        screen.add(
            count_cell("dtype_bytes", (number,), size),
            count_cell("dtype_total", (number,), nbytes),
            memory_cell("dtype_memory", (number,), nbytes),
        )
        if number == 0:
            narration = (
                f"Stored as {dtype}, each parameter takes {size} bytes: "
                f"{format_count(nbytes)} bytes in all, or {format_bytes_binary(nbytes)}."
            )
        else:
            narration = (
                f"A common 16-bit format for training and inference is {dtype}. Each parameter "
                f"then takes {size} bytes, halving the table to {format_bytes_binary(nbytes)}."
            )
        rec.beat(dtype, "dtype", narration, run_time=1.6, min_hold=1.5)

    widths = comparison_dims(dim)
    for kind in COMPARE_CLEARS:
        screen.remove_kind(kind)
    for number in range(len(DTYPES)):
        del screen.labels[f"dtype_{number}"]
    screen.labels["compare_dtype"] = rec.words("dtype_memory", dtype=COMPARE_DTYPE)
    for number, width in enumerate(widths):
        screen.add(
            count_cell("compare_dim", (number,), width),
            count_cell("compare_count", (number,), parameter_count(vocab, width)),
            memory_cell("compare_memory", (number,), table_bytes(vocab, width, COMPARE_DTYPE)),
        )
    rec.beat(
        "compare",
        "compare",
        "A larger d gives each token more room to represent distinctions. But the "
        "parameters, memory and compute grow in step with d.",
        run_time=1.6,
        min_hold=2.0,
    )


def _lookup(
    rec: Recorder, shape: TableShape, token_id: int, looked_up: npt.NDArray[np.float32]
) -> None:
    """Look one ID up: a copy of d values, no arithmetic."""
    screen, dim = rec.screen, shape.dim
    d = format_count(dim)
    row_bytes = table_bytes(1, dim, COMPARE_DTYPE)
    # The widths table fades as the lookup starts, and the memory table (gone since the
    # comparison started) comes back as a summary line: each dtype's memory, under the
    # count's line; E and the copied row are the frame (issue 18: a 720p review read the
    # closing frame, E a thumbnail beside two tables, as dense).
    for kind in LOOKUP_CLEARS:
        screen.remove_kind(kind)
    del screen.labels["compare_dtype"]
    for number, dtype in enumerate(DTYPES):
        screen.labels[f"dtype_{number}"] = dtype
        nbytes = table_bytes(shape.vocab_size, dim, dtype)
        screen.add(memory_cell("dtype_memory", (number,), nbytes))
    screen.add(
        int_cell("token_id", (0,), token_id),
        int_cell("lookup_row", (0,), token_id),
        count_cell("row_values", (0,), dim),
        count_cell("row_bytes", (0,), row_bytes),
    )
    # The copy shows the looked-up row's real leading values, as the block does.
    for c in rec.window.cols:
        screen.add(value_cell("lookup_value", (token_id, c), looked_up[c]))
    rec.beat(
        "lookup",
        "lookup",
        f"A lookup itself does no arithmetic. ID {token_id} just copies row {token_id}, "
        f"{d} values or {format_count(row_bytes)} bytes in {COMPARE_DTYPE}. Nothing is "
        "multiplied or summed.",
        run_time=3.0,
        highlight=Highlight((0,), token_id, token_id),
        min_hold=2.0,
    )


SPEC = SceneSpec(
    name="ParameterCount",
    alias="params",
    module="parameter_count",
    summary=(
        "A V \u00d7 d table holds V \u00d7 d parameters: GPT-2's count, its memory, and the d "
        "trade-off."
    ),
    build=build_parameter_count,
    title="How many numbers the table holds",
    layout="parameter_count",
    default_ids=[3],
    order=60,
    examples=(
        {"vocab": 6, "dim": 3},
        {"vocab": 152064, "dim": 64, "init": "normal", "theme": "light"},
        {"vocab": 1000, "dim": 12288, "init": "normal"},
    ),
)
