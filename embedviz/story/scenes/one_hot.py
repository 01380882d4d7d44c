"""OneHotEquivalence: multiplying a one-hot vector by E gives the looked-up row.

The scene builds ``one_hot(i)``, multiplies it by the embedding matrix ``E``
for real (every one of the ``V × d`` multiply-adds), shows the terms of one
column, and sets the product beside the lookup ``E[i]``: they are equal. Then
it counts what the product costs, against a lookup that copies ``d`` numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import validate_ids
from embedviz.core.one_hot import multiply_adds, one_hot, one_hot_matmul
from embedviz.core.table import EmbeddingTable, Table, TorchSeededTable
from embedviz.story.model import Highlight, NumberCell, NumberKind, Storyboard, Window
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.common import Recorder, SceneSpec, make_table
from embedviz.story.screen import Screen, int_cell, value_cell
from embedviz.story.window import labelled_window
from embedviz.story.words import Words

__all__ = [
    "GPT2_DIM",
    "GPT2_VOCAB",
    "SPEC",
    "build_one_hot_equivalence",
    "one_hot_gap_label",
    "one_hot_window",
    "product_formula",
    "term_gap_label",
]

# GPT-2's token embedding (wte) is 50257 x 768: the scale the cost beat quotes.
GPT2_VOCAB = 50257
GPT2_DIM = 768
# The column whose terms are written out; every column works the same way.
_TERM_COLUMN = 0
# Fewer rows and columns than other scenes' windows: this layout also draws
# the one-hot vector, the terms of a column and two result rows, and its
# numbers must stay readable at 480p.
_MAX_FULL_ROWS = 8
_HEAD_ROWS = 3
_MAX_FULL_COLS = 4
# A wide table shows its first and last columns: the product's row and the
# lookup's have E's columns, so each column drawn is drawn three times across.
_HEAD_COLS = 1


def one_hot_window(vocab_size: int, dim: int, token_id: int, words: Words | None = None) -> Window:
    """Pick the rows and columns of ``E`` (and entries of the vector) to draw.

    Parameters
    ----------
    vocab_size
        ``V``.
    dim
        ``d``.
    token_id
        The ID whose one-hot vector is multiplied; its row is always drawn.
    words
        The storyboard's words for the gap labels; English by default.

    Returns
    -------
    Window
        All rows when ``V <= 8``, else the first three rows, the ID's row with
        its neighbours, and the last row; all columns when ``d <= 4``, else
        the first and the last. Hidden ranges carry exact labels.
    """
    if vocab_size <= _MAX_FULL_ROWS:
        rows = list(range(vocab_size))
    else:
        shown = set(range(_HEAD_ROWS)) | {vocab_size - 1}
        shown |= {r for r in (token_id - 1, token_id, token_id + 1) if 0 <= r < vocab_size}
        rows = sorted(shown)
    cols = list(range(dim)) if dim <= _MAX_FULL_COLS else [*range(_HEAD_COLS), dim - 1]
    return labelled_window(rows, cols, vocab_size, dim, words or SPEC.words())


def one_hot_gap_label(first: int, last: int, words: Words | None = None) -> str:
    """Label hidden entries of a one-hot vector, e.g. ``entries 6–4818 are 0``.

    Parameters
    ----------
    first, last
        The hidden range, inclusive; it never holds the ID.
    words
        The storyboard's words; English by default.

    Returns
    -------
    str
        The label, singular for a single entry.
    """
    told = words or SPEC.words()
    if first == last:
        return told("one_hot_gap_entry", first=first)
    return told("one_hot_gap_entries", first=first, last=last)


def term_gap_label(first: int, last: int, words: Words | None = None) -> str:
    """Label the hidden terms of a column's sum, e.g. ``+ terms 6–4818: all 0``.

    Parameters
    ----------
    first, last
        The hidden rows, inclusive; their one-hot entries are all 0.
    words
        The storyboard's words; English by default.

    Returns
    -------
    str
        The label, singular for a single term.
    """
    told = words or SPEC.words()
    if first == last:
        return told("term_gap_term", first=first)
    return told("term_gap_terms", first=first, last=last)


def product_formula(token_id: int) -> str:
    """Write ``one_hot(i) E = E[i]`` in Typst maths, for the typeset product.

    Parameters
    ----------
    token_id
        ``i``.

    Returns
    -------
    str
        The Typst source, e.g. ``"one_hot"(3) thin E = E[3]``.
    """
    return f'"one_hot"({token_id}) thin E = E[{token_id}]'


def _single_id(options: SceneOptions, table: Table) -> int:
    checked = validate_ids(SPEC.ids(options), table.vocab_size)
    if checked.size != 1:
        raise EmbedvizError(
            f"OneHotEquivalence multiplies one one-hot vector, but {checked.size} IDs were "
            "given; pass a single ID such as --ids 3"
        )
    return int(checked.ravel()[0])


def _full_weight(table: Table) -> npt.NDArray[np.float32]:
    """Return all ``V × d`` values: the product really reads every row."""
    if isinstance(table, TorchSeededTable):
        return table.materialise().weight
    if isinstance(table, EmbeddingTable):
        return table.weight
    return table.rows(np.arange(table.vocab_size))  # pragma: no cover - other Table types


@lru_cache(maxsize=8)
def _seeded_product(table: TorchSeededTable, i: int) -> npt.NDArray[np.float32]:
    """Return ``one_hot(i) @ E`` for a seeded table, computed in full once a process.

    A seeded table is its sizes and seed, so the product is too. Drawing a
    GPT-2-sized table's 38.6 million values was most of building the
    storyboard, and a render, an export or a notebook builds it more than once
    (read-only, so no caller can change what the next one gets).
    """
    product: npt.NDArray[np.float32] = one_hot_matmul(
        one_hot([i], table.vocab_size), _full_weight(table)
    )[0]
    product.setflags(write=False)
    return product


def _product(table: Table, vector: npt.NDArray[np.float32], i: int) -> npt.NDArray[np.float32]:
    """Return ``one_hot(i) @ E``, every row and every column of ``E`` multiplied."""
    if isinstance(table, TorchSeededTable):
        return _seeded_product(table, i)
    product: npt.NDArray[np.float32] = one_hot_matmul(vector, _full_weight(table))[0]
    return product


def _check_equal(product: npt.NDArray[np.float32], row: npt.NDArray[np.float32], i: int) -> None:
    """Refuse to claim an equality that does not hold (a NaN or inf in ``E``)."""
    if np.array_equal(product, row):
        return
    col = int(np.flatnonzero(product != row)[0])
    raise EmbedvizError(
        f"one_hot({i}) @ E differs from E[{i}] in column {col} ({product[col]} vs {row[col]}): "
        "the table holds a NaN or infinity, and 0 times infinity is NaN"
    )


def build_one_hot_equivalence(
    options: SceneOptions, *, legend: bool = True, words: Mapping[str, str] | None = None
) -> Storyboard:
    """Storyboard: ``one_hot(i) @ E`` equals the lookup ``E[i]``, at a cost.

    Parameters
    ----------
    options
        ``ids`` must hold one ID (default 3).
    legend
        Whether the colour legend appears (only the first time in a longer video).
    words
        The words to label it with (e.g. a translation); English by default.

    Returns
    -------
    Storyboard
        The scene data (layout ``one_hot``).

    Raises
    ------
    EmbedvizError
        For bad options, more than one ID, or a table whose non-finite values
        would make the product differ from the lookup.
    """
    table = make_table(options)
    i = _single_id(options, table)
    vocab, dim = table.vocab_size, table.dim
    vector = one_hot([i], vocab)  # (1, V)
    product = _product(table, vector, i)
    looked_up = table.lookup([i])[0]
    _check_equal(product, looked_up, i)
    told = SPEC.words(words)
    window = one_hot_window(vocab, dim, i, told)
    rec = Recorder(window, (1, dim), told)
    focus = Highlight((0,), i, i)

    scale = rec.screen.add_grid(table, window, title_size=True, legend=legend)
    rec.screen.add(int_cell("token_id", (0,), i))
    rec.beat(
        "intro",
        "intro",
        f"Looking up ID {i} copies row {i} of E. A matrix product gives the very same row; "
        "let's build it and compare.",
        run_time=1.0,
    )
    _one_hot_vector(rec, vector[0], focus)
    block = table.rows(np.asarray(window.rows))
    _one_column(rec, block, vector[0], product, focus)
    _other_columns(rec, block, vector[0], product, focus)
    _product_and_lookup(rec, product, looked_up, focus)
    _cost(rec, vocab, dim)
    return rec.finish(SPEC, options, table, i, scale)


def _one_hot_vector(rec: Recorder, vector: npt.NDArray[np.float32], focus: Highlight) -> None:
    """Draw one_hot(i) on its side, entry k beside row k of E."""
    i, vocab, window = focus.token_id, len(vector), rec.window
    for k in window.rows:
        rec.screen.add(int_cell("one_hot", (k,), int(vector[k])))
    # Drawn on its side, the vector is one_hot(i) transposed: V × 1, as its label says.
    rec.screen.add(int_cell("one_hot_size", (0,), vocab), int_cell("one_hot_size", (1,), 1))
    rec.screen.labels["one_hot_title"] = f'"one_hot"({i})^T'
    for number, gap in enumerate(window.row_gaps):
        rec.screen.labels[f"one_hot_gap_{number}"] = one_hot_gap_label(
            gap.first, gap.last, rec.words
        )
    rec.beat(
        "one-hot",
        "one_hot",
        f"one_hot({i}) holds {vocab} numbers: 1 at position {i}, 0 everywhere else. "
        "Drawn on its side, entry k sits beside row k of E.",
        run_time=2.0,
        highlight=focus,
    )


def _one_column(
    rec: Recorder,
    block: npt.NDArray[np.float32],
    vector: npt.NDArray[np.float32],
    product: npt.NDArray[np.float32],
    focus: Highlight,
) -> None:
    """Write out the terms of one column of the product, and their sum."""
    i, j, window, screen = focus.token_id, _TERM_COLUMN, rec.window, rec.screen
    screen.labels["product_title"] = f'"one_hot"({i}) thin E'
    screen.add(int_cell("product_size", (0,), 1), int_cell("product_size", (1,), len(product)))
    _column_terms(screen, window, block, vector, j)
    for number, gap in enumerate(window.row_gaps):
        screen.labels[f"term_gap_{number}"] = term_gap_label(gap.first, gap.last, rec.words)
    rec.beat(
        "terms",
        "terms",
        f"Here is entry {j} of the product. Multiply each one-hot entry by the number "
        f"beside it in column {j}. Then add all {len(vector)} products.",
        run_time=1.8,
        highlight=focus,
    )
    screen.add(value_cell("term_sum", (j,), product[j]), value_cell("product", (j,), product[j]))
    rec.beat(
        "sum",
        "sum",
        f"Each 0 \u00d7 E[k, {j}] is exactly 0, so only 1 \u00d7 E[{i}, {j}] is left. "
        f"The sum is the value in row {i}, unchanged.",
        run_time=1.6,
        highlight=focus,
    )


def _column_terms(
    screen: Screen,
    window: Window,
    block: npt.NDArray[np.float32],
    vector: npt.NDArray[np.float32],
    j: int,
) -> None:
    """Put column j's terms on the screen: each drawn row's one-hot entry and E[k, j]."""
    for r, k in enumerate(window.rows):
        screen.add(
            int_cell("term_one_hot", (j, k), int(vector[k])),
            value_cell("term_weight", (j, k), block[r, j]),
        )


def _drop_terms(screen: Screen, *, labels: bool = True) -> None:
    """Take the worked column's terms and its sum (and its gap labels) off the screen."""
    for kind in ("term_one_hot", "term_weight", "term_sum"):
        screen.remove_kind(kind)
    for key in [key for key in screen.labels if labels and key.startswith("term_gap_")]:
        del screen.labels[key]


def _other_columns(
    rec: Recorder,
    block: npt.NDArray[np.float32],
    vector: npt.NDArray[np.float32],
    product: npt.NDArray[np.float32],
    focus: Highlight,
) -> None:
    """Work every other drawn column as column 0 was, one beat each, to the whole product.

    As the box reaches column j its terms replace the last column's in place (each
    line's weight becomes E[k, j]) and their sum becomes entry j of the product: the
    working on screen is always the highlighted column's (issue 18). Each column is
    a beat of its own, so that its numbers are the screen's at that beat's end; the
    last is ``columns``, whose sentence says that every column works the same way.
    """
    i, screen, window = focus.token_id, rec.screen, rec.window
    others = [col for col in window.cols if col != _TERM_COLUMN]
    if not others:
        # A single column's terms stay beside E until the lookup's row needs the panel.
        rec.beat(
            "columns",
            "columns",
            f"With a single column, that sum is the whole product: row {i} of E, exactly.",
            run_time=1.4,
            highlight=focus,
        )
        return
    for j in others:
        _drop_terms(screen, labels=False)
        _column_terms(screen, window, block, vector, j)
        total = product[j]
        screen.add(value_cell("term_sum", (j,), total), value_cell("product", (j,), total))
        if j != others[-1]:
            narration = f"Column {j} works the same way. Only 1 \u00d7 E[{i}, {j}] is left."
            rec.beat(f"column-{j}", "columns", narration, run_time=2.2, highlight=focus)
    rec.beat(
        "columns",
        "columns",
        f"Every other column works the same way, so the product is exactly row {i} of E.",
        run_time=2.4,
        highlight=focus,
    )


def _product_and_lookup(
    rec: Recorder,
    product: npt.NDArray[np.float32],
    looked_up: npt.NDArray[np.float32],
    focus: Highlight,
) -> None:
    """Set the lookup E[i] beside the whole product: equal, value for value."""
    i, screen, window = focus.token_id, rec.screen, rec.window
    _drop_terms(screen)
    screen.labels["lookup_title"] = f"E[{i}]"
    screen.labels["product_formula"] = product_formula(i)
    for col in window.cols:
        screen.add(value_cell("output", (0, col), looked_up[col]))
    # The chip fetches the row and stays beside it as its tag (one ID, one object).
    screen.numbers.pop(("token_id", (0,)), None)
    screen.add(int_cell("output_id", (0,), i))
    rec.beat(
        "compare",
        "compare",
        f"The lookup E[{i}] copies row {i} directly. The two rows match value for value: "
        f"one_hot({i}) times E equals E[{i}].",
        run_time=2.0,
        highlight=focus,
        min_hold=1.5,
    )


def _cost(rec: Recorder, vocab: int, dim: int) -> None:
    """Count the product's multiply-adds, here and at GPT-2's size, against a copy of d numbers."""
    screen = rec.screen
    screen.labels["cost_gpt2"] = "GPT-2"
    screen.labels["copy_unit"] = rec.words("copy_unit_one" if dim == 1 else "copy_unit_many")
    screen.add(
        _count_cell("cost_size", (0, 0), vocab),
        _count_cell("cost_size", (0, 1), dim),
        _count_cell("multiply_adds", (0,), multiply_adds(vocab, dim)),
        # Grouped as the count beside them is: "50,257 × 768 = 38,597,376".
        _count_cell("cost_size", (1, 0), GPT2_VOCAB),
        _count_cell("cost_size", (1, 1), GPT2_DIM),
        _count_cell("multiply_adds", (1,), multiply_adds(GPT2_VOCAB, GPT2_DIM)),
    )
    rec.beat(
        "cost",
        "cost",
        "Each entry of E costs one multiply-add in the product: V \u00d7 d per token, "
        "tens of millions for GPT-2, mostly times zero.",
        run_time=1.6,
        min_hold=2.0,
    )
    screen.add(
        _count_cell("multiply_adds", (2,), 0),
        int_cell("copy_count", (0,), dim),
    )
    rec.beat(
        "copy",
        "copy",
        f"A lookup skips all of that. It copies {dim} {'number' if dim == 1 else 'numbers'}, "
        "nothing more. An embedding layer is this product, done the cheap way.",
        run_time=1.4,
        min_hold=2.0,
    )


def _count_cell(kind: NumberKind, index: tuple[int, ...], count: int) -> NumberCell:
    """Make the cell for a large whole number, e.g. ``38,597,376``."""
    return NumberCell(kind, index, f"{count:,}", float(count))


SPEC = SceneSpec(
    name="OneHotEquivalence",
    alias="onehot",
    module="one_hot",
    summary=(
        "Multiplying one_hot(i) by E gives E[i]; the product costs V \u00d7 d multiply-adds, "
        "a lookup none."
    ),
    build=build_one_hot_equivalence,
    title="Multiplying by a one-hot vector is a lookup",
    layout="one_hot",
    default_ids=[3],
    order=50,
    examples=(
        {"ids": "0"},
        {"ids": "4821", "vocab": 50257, "dim": 768},
        {"vocab": 12, "dim": 6, "ids": "11"},
    ),
)
