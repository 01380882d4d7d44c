"""ZeroBasedIndexing: ID 3 selects row index 3, the fourth row, not the third.

The scene first acts out the usual off-by-one slip (counting rows from one
lands a row too early and fetches the wrong vector), then counts from zero,
and ends with the three-step debugging trace: input ID, zero-based row index,
returned vector, checked against the matrix row itself.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import validate_ids
from embedviz.core.table import Table
from embedviz.story.model import Highlight, NumberCell, OutputState, Storyboard, Window
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.common import Recorder, SceneSpec, make_table, ordinal
from embedviz.story.screen import int_cell, value_cell
from embedviz.story.window import MAX_FULL_ROWS, labelled_window
from embedviz.story.words import Words

__all__ = [
    "SPEC",
    "build_zero_based_indexing",
    "count_sequence",
    "nth",
    "zero_based_window",
]

# Counts longer than this are shortened with an ellipsis in the narration.
_SPELLED_COUNTS = 4
# A large table shows this many leading rows when the traced ID is near the top.
_HEAD_ROWS = 7
_FULL_COLS = 4
_ORDINAL_WORDS = (
    "first", "second", "third", "fourth", "fifth",
    "sixth", "seventh", "eighth", "ninth", "tenth",
)  # fmt: skip


def _one_id(options: SceneOptions, table: Table) -> int:
    checked = validate_ids(SPEC.ids(options), table.vocab_size)
    if checked.size != 1:
        raise EmbedvizError(
            f"ZeroBasedIndexing traces one token ID, but {checked.size} were given; "
            "pass a single ID such as --ids 3"
        )
    return int(checked.ravel()[0])


def count_sequence(first: int, last: int) -> str:
    """Spell out a count such as ``1, 2, 3`` or ``0, 1, 2, …, 4821``.

    Parameters
    ----------
    first
        Where the count starts (0 or 1).
    last
        Where it stops, inclusive (at least ``first``).

    Returns
    -------
    str
        Every number for a short count; the first three and the last,
        with an ellipsis, for a long one.
    """
    numbers = list(range(first, last + 1))
    if len(numbers) <= _SPELLED_COUNTS:
        return ", ".join(str(n) for n in numbers)
    return ", ".join(str(n) for n in numbers[:3]) + f", \u2026, {last}"


def nth(n: int) -> str:
    """Return an ordinal in words up to tenth, else in digits: ``fourth``, ``4822nd``.

    Parameters
    ----------
    n
        A positive one-based count.

    Returns
    -------
    str
        The ordinal, as it reads best in a sentence.
    """
    if 1 <= n <= len(_ORDINAL_WORDS):
        return _ORDINAL_WORDS[n - 1]
    return ordinal(n)


def zero_based_window(
    vocab_size: int, dim: int, token_id: int, words: Words | None = None
) -> Window:
    """Pick the rows and columns this scene draws.

    The scene is about counting rows, so it keeps rows and drops columns:
    fewer, larger numbers stay readable beside the trace.

    Parameters
    ----------
    vocab_size
        ``V``.
    dim
        ``d``.
    token_id
        The ID being traced.
    words
        The storyboard's words for the gap labels; English by default.

    Returns
    -------
    Window
        All rows when ``V <= 8``; otherwise the rows 0 to ``id + 1`` when
        that run is short, else rows 0-2 and ``id - 1 .. id + 1``, and the
        last row, each hidden range labelled. All columns when ``d <= 4``,
        else columns 0, 1 and ``d - 1``.
    """
    if vocab_size <= MAX_FULL_ROWS:
        rows = list(range(vocab_size))
    else:
        # The slip's row (id - 1) and the next row stay visible, so both counts land.
        near = range(max(token_id - 1, 0), min(token_id + 2, vocab_size))
        head = range(max(token_id + 2, 3)) if token_id + 2 <= _HEAD_ROWS else range(3)
        rows = sorted({*head, *near, vocab_size - 1})
    cols = list(range(dim)) if dim <= _FULL_COLS else [0, 1, dim - 1]
    return labelled_window(rows, cols, vocab_size, dim, words or SPEC.words())


def build_zero_based_indexing(
    options: SceneOptions, *, legend: bool = True, words: Mapping[str, str] | None = None
) -> Storyboard:
    """Storyboard: the one-based slip, the zero-based count, and the debug trace.

    Parameters
    ----------
    options
        ``ids`` must hold one ID (default 3); the table options as everywhere.
    legend
        Whether the colour legend appears (only the first time in a longer video).
    words
        The words to label it with (e.g. a translation); English by default.

    Returns
    -------
    Storyboard
        The scene data.

    Raises
    ------
    EmbedvizError
        For more than one ID, an ID outside the vocabulary, or bad table options.
    """
    table = make_table(options)
    token_id = _one_id(options, table)
    output = table.lookup([token_id])
    told = SPEC.words(words)
    window = zero_based_window(table.vocab_size, table.dim, token_id, told)
    rec = Recorder(window, output.shape, told)
    screen = rec.screen
    focus = Highlight((0,), token_id, token_id)

    scale = screen.add_grid(table, window, title_size=True, legend=legend)
    screen.add(int_cell("token_id", (0,), token_id))
    rec.beat(
        "intro",
        "intro",
        f"Token ID {token_id} points into this {table.vocab_size} \u00d7 {table.dim} "
        "embedding matrix. Which of its rows does the ID select?",
        run_time=1.5,
    )

    _counts(rec, table, focus)
    screen.add(int_cell("trace_id", (0,), token_id), int_cell("trace_index", (0,), token_id))
    rec.output = OutputState(output.shape)
    # The chip brings the row home and stays beside it as its tag (one ID, one object).
    rec.fill_output((0,), output[0], token_id, chip_becomes_tag=True)
    rec.beat(
        "trace",
        "trace",
        "When a lookup looks wrong, trace three things in order. Check the ID, "
        "the zero-based row index it selects and the returned vector.",
        run_time=2.0,
        highlight=focus,
    )

    screen.add(int_cell("check_row", (0,), token_id))
    rec.beat(
        "check",
        "check",
        f"Last, compare the vector with the matrix itself: it equals E[{token_id}] value "
        "for value. ID, index and vector agree.",
        run_time=1.2,
        highlight=focus,
    )

    _diagnose(rec, focus)
    return rec.finish(SPEC, options, table, token_id, scale)


def _counts(rec: Recorder, table: Table, focus: Highlight) -> None:
    """Act out the one-based slip, then count from zero to the ID's row."""
    screen, window, token_id = rec.screen, rec.window, focus.token_id
    wrong_row = token_id - 1
    # The slip: a one-based count labels row r as r + 1, so ID i lands on row i - 1.
    screen.add(int_cell("wrong_id", (0,), token_id), int_cell("wrong_index", (0,), wrong_row))
    if wrong_row >= 0:
        for row in window.rows:
            if row <= wrong_row:
                screen.add(int_cell("one_based_count", (row,), row + 1))
        wrong_values = table.rows(np.asarray([wrong_row]))[0]
        for col in window.cols:
            screen.add(value_cell("wrong_value", (col,), wrong_values[col]))
        slip = (
            f"Counting the rows {count_sequence(1, token_id)} lands on row index "
            f"{wrong_row}, the {nth(token_id)} row. This classic slip fetches the wrong "
            "vector."
        )
    else:
        slip = (
            "The classic slip: counting rows from 1. Then ID 0 would mean row 0 \u2212 1 "
            "= \u22121, a row that does not exist."
        )
    rec.beat("one-based", "wrong_count", slip, run_time=2.4, highlight=focus, min_hold=1.5)
    # The count from zero clears the slip's tallies; the wrong row it fetched stays,
    # crossed out, beside the count that corrects it, until the trace takes its place.
    screen.remove_kind("one_based_count")
    # Beside the row: its one-based position, e.g. row index 3 is the "4th" row.
    nth_row = ordinal(token_id + 1, rec.words)
    screen.add(NumberCell("ordinal", (token_id,), nth_row, float(token_id + 1)))
    if token_id == 0:
        count = "Rows are numbered from 0, so ID 0 selects row index 0: the very first row."
    else:
        count = (
            f"Rows are numbered from 0. Counting {count_sequence(0, token_id)} reaches row "
            f"index {token_id}, the {nth(token_id + 1)} row."
        )
    rec.beat("zero-based", "right_count", count, run_time=2.0, highlight=focus, min_hold=1.5)
    # The trace takes the slip's place: what it fetched and its struck lines (ID, row
    # index) leave together; the diagnosis brings the lines back (_diagnose).
    for kind in ("wrong_value", "wrong_id", "wrong_index"):
        screen.remove_kind(kind)


def _diagnose(rec: Recorder, focus: Highlight) -> None:
    """Name the slip again, its struck lines back on screen (its ID and row index)."""
    token_id = focus.token_id
    if token_id >= 1:
        diagnosis = (
            f"If you expected the {nth(token_id)} row, you counted from one. If the "
            "index is right but the values differ, compare against that row of E."
        )
    else:
        diagnosis = (
            "Asking for row \u22121 means you counted from one. If the index is right "
            "but the values differ, compare against that row of E."
        )
    rec.screen.add(
        int_cell("wrong_id", (0,), token_id), int_cell("wrong_index", (0,), token_id - 1)
    )
    rec.beat("diagnose", "diagnose", diagnosis, run_time=1.0, highlight=focus, min_hold=1.5)


SPEC = SceneSpec(
    name="ZeroBasedIndexing",
    alias="zero",
    module="zero_based",
    summary="ID 3 selects row index 3, the fourth row; the one-based slip and a debug trace.",
    build=build_zero_based_indexing,
    title="Rows count from zero",
    layout="zero_based",
    default_ids=[3],
    order=15,
    examples=(
        {"ids": "0"},
        {"ids": "4821", "vocab": 50257, "dim": 768},
        {"ids": "1", "vocab": 12, "dim": 5, "init": "normal", "theme": "light"},
    ),
)
