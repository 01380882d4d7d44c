"""SequenceLookup: a sequence of IDs becomes a T x d block, in input order."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from embedviz.core.table import Table
from embedviz.story.model import Highlight, Storyboard, Window
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.common import (
    FETCH_SECONDS,
    MAX_SEQUENCE_TOKENS,
    Recorder,
    SceneSpec,
    and_list,
    intro_sentence,
    lookup_row_sentence,
    make_table,
    sequence_ids,
)
from embedviz.story.screen import int_cell
from embedviz.story.window import choose_window, unselected_rows

__all__ = ["RULE", "SPEC", "build_sequence_lookup"]

# The lookup's rule, in Typst maths: output row t is the row of E that ID t names.
RULE = '"out"[t] = E["ids"[t]]'


def _sequence_ids(options: SceneOptions, table: Table) -> list[int]:
    return sequence_ids(
        SPEC.ids(options),
        table.vocab_size,
        scene=SPEC.name,
        limit=MAX_SEQUENCE_TOKENS,
        example="2,3,5,1",
    )


def build_sequence_lookup(
    options: SceneOptions, *, legend: bool = True, words: Mapping[str, str] | None = None
) -> Storyboard:
    """Storyboard: a sequence of IDs becomes a T×d block, in input order.

    Parameters
    ----------
    options
        ``ids`` holds one sequence (default: ``SPEC.default_ids``).
    legend
        Whether the colour legend appears (only the first time in a longer video).
    words
        The words to label it with (e.g. a translation); English by default.

    Returns
    -------
    Storyboard
        The scene data.
    """
    table = make_table(options)
    ids = _sequence_ids(options, table)
    output = table.lookup(ids)
    told = SPEC.words(words)
    window = choose_window(table.vocab_size, table.dim, ids, narrow=True, words=told)
    rec = Recorder(window, output.shape, told)
    scale = rec.screen.add_grid(table, window, title_size=True, legend=legend)
    for position, token_id in enumerate(ids):
        rec.screen.add(int_cell("token_id", (position,), token_id))
    rec.beat("intro", "intro", intro_sentence(table), run_time=1.5)
    _predict_and_reveal(rec, len(ids), table.dim)
    _lookups(rec, ids, output, corridor=_corridor_has_room(window, ids))
    _dim_and_shape(rec, ids, table.dim)
    return rec.finish(SPEC, options, table, tuple(ids), scale)


def _corridor_has_room(window: Window, ids: list[int]) -> bool:
    """Whether a block taller than E's rows leaves the rule room in the corridor for two lookups.

    A block shorter than E leaves room beside it (from the reveal). One
    taller than E's rows (MiniLM's 12 rows for 9 IDs, a repeated ID), from a
    large vocabulary whose rows E shows apart (hidden ranges between them),
    has its strips climb or fall far to their rows: the renderer parts the
    blocks wide as the first lookup starts (a toy's level rows leave only a
    narrow corridor). The first two strips cross it from their rows of E to
    output rows 0 and 1, so the card has room under them when both rows
    stand in E's top half. (The renderer leaves out a card with no room.)
    """
    rows = window.rows
    apart = any(rows[0] < gap.first and gap.last < rows[-1] for gap in window.row_gaps)
    if len(ids) <= len(rows) or not apart:
        return False
    return 2 * (1 + max(rows.index(i) for i in ids[:2])) <= len(rows)


def _predict_and_reveal(rec: Recorder, count: int, dim: int) -> None:
    """Ask for the output's shape, then show the empty output block and its shape."""
    rec.screen.labels["question"] = rec.words("question")
    rec.beat(
        "predict",
        "predict",
        f"{count} token IDs go in, and each becomes a vector of {dim} values. "
        "Predict before we look. How many rows will the output have, "
        "and how many values in each row?",
        run_time=1.0,
        min_hold=3.0,
    )
    del rec.screen.labels["question"]
    rec.show_output_frame([(t,) for t in range(count)])
    if count < len(rec.window.rows):
        # A block shorter than E leaves room beside it on the output side until the
        # rest of the IDs land: the rule stands there, once the block's rows are drawn.
        rec.screen.labels["rule"] = RULE
    # The reveal writes the shape beside the output's title.
    rec.screen.add(int_cell("output_size", (0,), count), int_cell("output_size", (1,), dim))
    rec.beat(
        "reveal",
        "reveal",
        f"One output row per input ID, so {count} rows. Each row has {dim} values, "
        "the embedding dimension.",
        run_time=1.0,
    )


def _lookups(
    rec: Recorder, ids: list[int], output: npt.NDArray[np.float32], *, corridor: bool
) -> None:
    """Record the first ID at teaching pace, the second faster, the rest together in one beat.

    Each ID's chip becomes its output row's tag. The rest's beat still records
    every row it fills (the renderer plays them one after another, quickly).
    With ``corridor`` the rule stands in the corridor during the first two
    lookups (:func:`_corridor_has_room`).
    """
    if corridor:
        # The blocks part as the first lookup starts (not at the reveal): the rule
        # comes into the corridor they open, and goes before the rest's strips cross it.
        rec.screen.labels["rule"] = RULE
    for position, token_id in enumerate(ids[:2]):
        rec.fill_output((position,), output[position], token_id, chip_becomes_tag=True)
        if position == 0:
            narration = lookup_row_sentence(token_id) + (
                f" Its row is copied into output row {position}."
            )
        else:
            narration = (
                f"ID {token_id} selects row {token_id}; the copy lands in output row "
                f"{position}, keeping the input order."
            )
        rec.beat(
            f"lookup-{position}",
            "lookup",
            narration,
            run_time=2.4 if position == 0 else 1.6,
            highlight=Highlight((position,), token_id, token_id),
            min_hold=0.8,
            last_phrase=FETCH_SECONDS,
        )
    rest = range(2, len(ids))
    # The rule goes before the rest of the strips run (or the unused rows dim).
    rec.screen.labels.pop("rule", None)
    if not rest:
        return
    for position in rest:
        rec.fill_output((position,), output[position], ids[position], chip_becomes_tag=True)
    rec.beat(
        "lookup-rest",
        "lookup_many",
        rest_sentence([ids[p] for p in rest], rest.start),
        run_time=0.8 + 0.6 * len(rest),
        min_hold=0.8,
    )


def rest_sentence(ids: list[int], first: int) -> str:
    """Say that the remaining IDs do the same, each into its own output row.

    Parameters
    ----------
    ids
        The remaining IDs, in input order.
    first
        The output row of the first of them.

    Returns
    -------
    str
        One or two sentences.

    Examples
    --------
    >>> rest_sentence([1], 3)
    'The last ID, 1, does the same: row 1 lands in output row 3.'
    >>> rest_sentence([5, 1], 2)
    'The other 2 IDs do the same: each row lands beside its ID.'
    """
    if len(ids) == 1:
        return f"The last ID, {ids[0]}, does the same: row {ids[0]} lands in output row {first}."
    return f"The other {len(ids)} IDs do the same: each row lands beside its ID."


def _dim_and_shape(rec: Recorder, ids: list[int], dim: int) -> None:
    """Fade the rows no ID selected, then label the output's shape."""
    unused = tuple(row for row in rec.window.rows if row not in set(ids))
    rec.dimmed = unused
    if unused:
        dim_sentence = (
            f"{unselected_rows(rec.window, and_list(unused), len(unused))} "
            f"{'That row plays' if len(unused) == 1 else 'Those rows play'} no part in this lookup."
        )
    else:
        dim_sentence = "Every row drawn here was selected by at least one ID."
    rec.beat("dim", "dim", dim_sentence, run_time=1.0)
    rec.label_output_shape()
    rec.beat(
        "shape",
        "shape",
        f"The result is {len(ids)} \u00d7 {dim}. Each input ID gives one row. "
        "Each embedding dimension gives one column.",
        run_time=1.0,
        min_hold=2.0,
    )


SPEC = SceneSpec(
    name="SequenceLookup",
    alias="sequence",
    module="sequence",
    summary="A sequence of IDs becomes a T \u00d7 d block of rows, in input order.",
    build=build_sequence_lookup,
    title="A sequence of IDs becomes a block of vectors",
    default_ids=[2, 3, 5, 1],
    order=20,
    examples=(
        {"ids": "7,0,7,63", "vocab": 64, "dim": 5, "init": "normal"},
        {"ids": "4821,0,50256", "vocab": 50257, "dim": 768},
        {"ids": ",".join(str(i) for i in range(12)), "vocab": 40, "dim": 6},
    ),
)
