"""TrainingNudge: rows start random, and one SGD step nudges the looked-up ones.

One real training step on a toy loss, ``L = Σ_t w_t · e_t`` with fixed
weights ``w_t`` and ``e_t = E[id_t]``. Its gradient with respect to each
looked-up vector is just ``w_t``; the lookup's backward pass scatter-adds
those into ``∂L/∂E`` (a repeated ID collects one ``w_t`` per occurrence), and
SGD moves only those rows. Every other row keeps its exact bits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from embedviz.core.table import Table
from embedviz.core.training import (
    LEARNING_RATES,
    TrainingStep,
    nudge_learning_rate,
    occurrences,
    toy_loss_weights,
    training_step,
)
from embedviz.story.model import Highlight, NumberCell, Storyboard, Window
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.common import Recorder, SceneSpec, and_list, make_table, sequence_ids
from embedviz.story.screen import int_cell, value_cell
from embedviz.story.window import MAX_FULL_ROWS, labelled_window
from embedviz.story.words import Words

__all__ = [
    "MAX_TRAINING_TOKENS",
    "SPEC",
    "build_training_nudge",
    "training_window",
]

# Two T-row panels share the frame with the matrix; beyond this they get unreadable.
MAX_TRAINING_TOKENS = 8
# Up to this many columns are all drawn; wider tables show the first and the
# last: three blocks of the matrix's width share the frame's width.
_FULL_COLS = 3


def training_window(
    vocab_size: int, dim: int, ids: list[int], words: Words | None = None
) -> Window:
    """Pick the rows and columns this scene draws.

    Parameters
    ----------
    vocab_size
        ``V``.
    dim
        ``d``.
    ids
        The token IDs; their rows are always drawn.
    words
        The storyboard's words for the gap labels; English by default.

    Returns
    -------
    Window
        Every row when ``V <= 8``; otherwise the looked-up rows, the first
        row no ID selects and the last row (so that unchanged rows are in
        view). Every column when ``d <= 3``; otherwise columns 0 and
        ``d - 1``. The matrix shares the frame's width with its gradient and
        the loss weights, so it is narrower than the lookup scenes' window.
    """
    focus = set(ids)
    if vocab_size <= MAX_FULL_ROWS:
        rows = list(range(vocab_size))
    else:
        # At most len(focus) + 1 steps: the first row that no ID selects.
        spare = next(row for row in range(vocab_size) if row not in focus)
        rows = sorted(focus | {spare, vocab_size - 1})
    cols = list(range(dim)) if dim <= _FULL_COLS else [0, dim - 1]
    return labelled_window(rows, cols, vocab_size, dim, words or SPEC.words())


def _training_ids(options: SceneOptions, table: Table) -> list[int]:
    return sequence_ids(
        SPEC.ids(options),
        table.vocab_size,
        scene="TrainingNudge",
        limit=MAX_TRAINING_TOKENS,
        example="2,3,2",
    )


_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def build_training_nudge(
    options: SceneOptions, *, legend: bool = True, words: Mapping[str, str] | None = None
) -> Storyboard:
    """Storyboard: one SGD step of a toy loss nudges only the looked-up rows.

    Parameters
    ----------
    options
        ``ids`` holds one sequence (default ``[2, 3, 2]``: ID 2 repeats, so
        its gradient row sums two contributions).
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
        For bad IDs, too many tokens, or a bad table.
    """
    table = make_table(options)
    ids = _training_ids(options, table)
    count, dim = len(ids), table.dim
    weights = toy_loss_weights(count, dim, options.seed)
    step = _step(table, ids, weights)
    told = SPEC.words(words)
    window = training_window(table.vocab_size, dim, ids, told)
    rec = Recorder(window, (count, dim), told)
    scale = rec.screen.add_grid(table, window, title_size=True, legend=legend)
    rec.beat(
        "intro",
        "intro",
        "Every row of the embedding matrix starts out as random numbers. Training then "
        "nudges those rows, exactly as it nudges every other weight.",
        run_time=1.5,
    )
    _loss_and_gradient(rec, table, ids, weights, step)
    _accumulate(rec, ids)
    _update(rec, [int(row) for row in step.rows], step)
    rec.beat(
        "meaning",
        "meaning",
        "Nobody assigns a meaning to any column. Training only finds directions that "
        "make predictions less wrong, over many steps.",
        run_time=1.2,
        min_hold=2.0,
    )
    return rec.finish(SPEC, options, table, tuple(ids), scale)


def _step(table: Table, ids: list[int], weights: npt.NDArray[np.float32]) -> TrainingStep:
    """One SGD step, its learning rate sized so that the loss moves by at most half."""
    # A trial step at the largest rate gives L and the gradient, which fix the rate.
    trial = training_step(table, ids, weights, LEARNING_RATES[0])
    return training_step(table, ids, weights, nudge_learning_rate(trial.loss_before, trial.grad))


def _loss_and_gradient(
    rec: Recorder,
    table: Table,
    ids: list[int],
    weights: npt.NDArray[np.float32],
    step: TrainingStep,
) -> None:
    """Show the toy loss, its gradient per looked-up vector, and its scatter into ∂L/∂E."""
    screen, window = rec.screen, rec.window
    for position, token_id in enumerate(ids):
        screen.add(int_cell("token_id", (position,), token_id))
        screen.add(int_cell("position", (position,), position))
        for col in window.cols:
            screen.add(value_cell("upstream", (position, col), weights[position, col]))
    # Typst maths, typeset by the renderer.
    # Each position's looked-up row e_t = E[id_t], gathered beside its chip: the loss's
    # other factor, drawn while the loss is defined (a 720p review, issue 18).
    gathered = table.lookup(ids)
    for position in range(len(ids)):
        for col in window.cols:
            screen.add(value_cell("output", (position, col), gathered[position, col]))
    screen.labels["output_title"] = 'e_t = E["id"_t]'
    screen.labels["loss_formula"] = "L = inline(sum_t w_t dot e_t)"
    screen.labels["upstream_title"] = "w_t"
    screen.labels["loss_equals"] = "="
    screen.add(value_cell("loss", (0,), step.loss_before))
    rec.beat(
        "loss",
        "loss",
        "One training step. Each ID looks up its row of E. A toy loss adds up each "
        "row's dot product with its weight w\u209c.",
        # Three motions, one per phrase: the IDs, their rows, the loss.
        run_time=2.4,
        min_hold=1.5,
    )
    screen.labels["upstream_title"] = "w_t = partial L \\/ partial e_t"
    rec.beat(
        "upstream",
        "upstream",
        "Backpropagation asks how L changes with each looked-up vector. For this loss "
        "the answer is simply its weight, w\u209c.",
        run_time=1.6,
    )
    # The gathered rows make way for ∂L/∂E, which appears as the scatter fills it.
    screen.remove_kind("output")
    del screen.labels["output_title"]
    for row in window.rows:
        for col in window.cols:
            screen.add(value_cell("grad", (row, col), step.grad_row(row)[col]))
    _column_sum(rec, ids, weights, step)
    hidden = "Every other row, drawn or hidden," if window.row_gaps else "Every other row"
    others = f"{hidden} gets exactly zero."
    if not window.row_gaps and set(window.rows) <= set(ids):
        # IDs that select every row of a small table leave no row at zero to point at.
        others = "No row is left out: every row of E was looked up."
    rec.beat(
        "scatter",
        "scatter",
        f"The backward pass adds each w\u209c into its ID's row of ∂L/∂E. {others}",
        run_time=3.0,
        min_hold=1.2,
    )


_SUBSCRIPT = str.maketrans(
    "0123456789t", "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089\u209c"
)


def _subscripts(terms: str) -> str:
    """Write ``w_0 + w_2`` for a caption as ``w₀ + w₂`` (Unicode; the caption font has them)."""
    return re.sub(r"_(\w+)", lambda match: match.group(1).translate(_SUBSCRIPT), terms)


def _column_sum(
    rec: Recorder, ids: list[int], weights: npt.NDArray[np.float32], step: TrainingStep
) -> None:
    """Show a repeated ID's contributions and their sum, worked out as the scatter adds them."""
    screen, window = rec.screen, rec.window
    repeated = next((token_id for token_id in ids if ids.count(token_id) > 1), None)
    if repeated is None:
        return
    for position in occurrences(ids, repeated):
        for col in window.cols:
            screen.add(value_cell("term", (position, col), weights[position, col]))
    for col in window.cols:
        screen.add(value_cell("sum", (repeated, col), step.grad_row(repeated)[col]))
    # Each row of the sum is named as it lands, so it never stands unexplained.
    for number, position in enumerate(occurrences(ids, repeated)):
        sign = "" if number == 0 else "+ "
        screen.labels[f"sum_term_{number:02d}"] = f"{sign}w_{position}"
    screen.labels["sum_total"] = "="


def _accumulate(rec: Recorder, ids: list[int]) -> None:
    """Name a repeated ID's contributions: its gradient row sums one w_t per occurrence."""
    screen = rec.screen
    repeated = next((token_id for token_id in ids if ids.count(token_id) > 1), None)
    if repeated is None:
        rec.beat(
            "accumulate",
            "accumulate",
            "Each ID occurs once here, so each gradient row is a single w\u209c. "
            "A repeated ID would collect one w\u209c per occurrence, summed.",
            run_time=1.0,
        )
        return
    where = occurrences(ids, repeated)
    terms = " + ".join(f"w_{position}" for position in where)
    # Typst maths: ∂L/∂E[i] = w_a + w_b, typeset by the renderer.
    screen.labels["sum_title"] = f"partial L \\/ partial E[{repeated}] = {terms}"
    times = _COUNT_WORDS[len(where)]
    if len(where) <= 3:
        narration = (
            f"ID {repeated} sits at positions {and_list(where)}: its row "
            f"sums {times} contributions, {_subscripts(terms)}. "
            "Repeats add up; they never overwrite."
        )
    else:
        narration = (
            f"ID {repeated} occurs {times} times, so row {repeated} collects {times} "
            "contributions, one w\u209c per occurrence. Repeats add up; they never overwrite."
        )
    rec.beat(
        "accumulate",
        "accumulate",
        narration,
        run_time=1.8,
        highlight=Highlight((where[0],), repeated, repeated),
        min_hold=1.5,
    )


def _update(rec: Recorder, looked_up: list[int], step: TrainingStep) -> None:
    """Apply the SGD step: looked-up rows move, the others keep their bits; the loss drops."""
    screen, window = rec.screen, rec.window
    for row in looked_up:
        if row not in window.rows:
            continue
        after = step.after_row(row)
        for col in window.cols:
            del screen.numbers[("weight", (row, col))]
            screen.add(value_cell("updated", (row, col), after[col]))
    lr = f"{step.lr:g}"
    screen.add(NumberCell("lr", (0,), lr, step.lr))
    screen.labels["update_left"] = "E <- E -"
    screen.labels["update_right"] = "dot partial L \\/ partial E"
    rec.beat(
        "update",
        "update",
        # Two phrases, in the order the motion plays: the rule appears, then
        # each looked-up row turns into its new value.
        f"Stochastic gradient descent updates E ← E − {lr} · ∂L/∂E. "
        f"Learning rate {lr}, sized to this loss, nudges each row against its gradient.",
        run_time=3.0,
    )
    for row in window.rows:
        screen.labels[f"mark_{row:06d}"] = rec.words("nudged" if row in looked_up else "unchanged")
    rec.beat("unchanged", "unchanged", _unchanged_sentence(rec, looked_up), run_time=1.6)
    screen.add(value_cell("loss", (1,), step.loss_after))
    screen.labels["loss_arrow"] = "->"
    if step.loss_after < 0 < step.loss_before - step.loss_after:
        # A class sees the loss fall below zero (far below, with 768 numbers a row)
        # and asks why: say so, within the beat's 25 words.
        narration = (
            "The loss went down: each row moved the way that makes L smaller. "
            "This toy loss has no floor, so it can go below zero."
        )
    elif step.loss_after < step.loss_before:
        # "against its gradient, the way that ..." fits no two 42-character lines
        # without ending one on "its" or leaving "the way ..." a fragment of a cue.
        narration = (
            "The loss went down. Each looked-up row moved against its gradient, "
            "which makes L smaller."
        )
    else:
        narration = (
            "The loss did not go down: these weights cancel, so the gradient is zero "
            "and nothing moved."
        )
    rec.beat("loss-drop", "loss_drop", narration, run_time=1.6)


def _unchanged_sentence(rec: Recorder, looked_up: list[int]) -> str:
    """Say which drawn rows the update left bit-for-bit the same."""
    window = rec.window
    unchanged = [row for row in window.rows if row not in looked_up]
    if not unchanged:
        return (
            "Every row drawn here was looked up, so every one moved. Rows that no ID "
            "selects get zero gradient and keep their exact bits."
        )
    noun = "Row" if len(unchanged) == 1 else "Rows"
    pronoun = "it" if len(unchanged) == 1 else "them"
    tail = " Every hidden row keeps its bits too." if window.row_gaps else ""
    return (
        f"{noun} {and_list(unchanged)} had zero gradient. The "
        f"update leaves {pronoun} bit-for-bit the same.{tail}"
    )


def _ids_text(ids: list[int]) -> str:
    return ",".join(str(i) for i in ids)


SPEC = SceneSpec(
    name="TrainingNudge",
    alias="training",
    module="training_nudge",
    summary="One SGD step: the gradient scatter-adds into looked-up rows; the rest stay put.",
    build=build_training_nudge,
    title="Training nudges the rows",
    layout="training_nudge",
    default_ids=[2, 3, 2],
    order=70,
    examples=(
        {
            "ids": _ids_text([464, 50256, 464, 11, 3290, 11, 50256, 11]),
            "vocab": 50257,
            "dim": 768,
        },
        {"ids": "7,0,7,63", "vocab": 64, "dim": 5, "init": "normal", "theme": "light"},
        {"ids": "4,1,0", "vocab": 5, "dim": 1},
    ),
)
