"""BatchLookup: a B x T batch of IDs becomes a B x T x d block, slice by slice.

A batch holds B sequences of the same length T, one per row. The embedding
layer looks every ID up independently, so the output keeps the input's
(B, T) layout and adds d: ``out[b, t] = E[ids[b, t]]``. The scene draws
the input as B rows of chips and the output as B stacked T x d slices.

A single sequence is refused rather than shown as a batch of one (B = 1):
the scene is about the batch axis, and SequenceLookup already shows one
sequence.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import validate_ids
from embedviz.core.table import Table
from embedviz.story.model import Highlight, NumberCell, Storyboard, Window
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.common import (
    FETCH_SECONDS,
    Recorder,
    SceneSpec,
    and_list,
    intro_sentence,
    make_table,
)
from embedviz.story.screen import int_cell
from embedviz.story.window import compact_window, labelled_window, unselected_rows
from embedviz.story.words import Words

__all__ = [
    "MAX_BATCH",
    "MAX_BATCH_TOKENS",
    "MAX_GRID_LINES",
    "MAX_LENGTH",
    "RULE",
    "SPEC",
    "build_batch_lookup",
]

# The rule every lookup of the batch plays, in Typst maths (``ids`` and ``out`` read
# upright): slice b, row t is the row of E that ID (b, t) names. Recorded as the label
# ``rule`` from the reveal (whose narration says it in words) to the end; the render
# stands it on a card in a top corner over E (the left, or the right where the block's
# labels fill it), where no strip or chip goes (render/parts/batch_rule.py). The shape
# beat's narration writes it the same way (``out[b, t]``), as the sequence's card writes ``out[t]``.
RULE = '"out"[b, t] = E["ids"[b, t]]'

# Beyond these the B slices no longer fit beside the matrix at a readable size.
MAX_BATCH = 4
MAX_LENGTH = 8
MAX_BATCH_TOKENS = 18  # a 3 x 6 batch
# Drawn matrix rows plus elision rows; more would shrink the numbers too far.
MAX_GRID_LINES = 12
# Every column up to this many (for at most so many IDs); beyond, the first and the last.
_FULL_COLS = 3
_FULL_COLS_IDS = 12
# A wider table's first two columns and its last, for a batch of at most so many IDs, in
# sequences at least so long, whose window is at least so many lines tall (rows plus
# hidden ranges): see ``_window``.
_HEAD_COLS_IDS = 8
_HEAD_COLS_LENGTH = 4
_HEAD_COLS_LINES = 9


def _batch_ids(options: SceneOptions, table: Table) -> list[list[int]]:
    checked = validate_ids(SPEC.ids(options), table.vocab_size)
    if checked.ndim != 2:
        raise EmbedvizError(
            "BatchLookup needs a batch of at least 2 sequences, separated by ';' "
            "(e.g. 2,3,5,1;4,0,3,2); use SequenceLookup for a single sequence"
        )
    batch, length = (int(n) for n in checked.shape)
    if batch < 2:
        raise EmbedvizError(
            "BatchLookup needs at least 2 sequences, separated by ';'; "
            "use SequenceLookup for a single sequence"
        )
    if batch > MAX_BATCH:
        raise EmbedvizError(
            f"BatchLookup shows at most {MAX_BATCH} sequences legibly, but {batch} were "
            "given; use a smaller batch"
        )
    if length > MAX_LENGTH:
        raise EmbedvizError(
            f"BatchLookup shows sequences of at most {MAX_LENGTH} IDs legibly, but these "
            f"have {length}; use shorter sequences"
        )
    if batch * length > MAX_BATCH_TOKENS:
        raise EmbedvizError(
            f"BatchLookup shows at most {MAX_BATCH_TOKENS} IDs in all legibly, but this "
            f"{batch} x {length} batch has {batch * length}; use fewer or shorter sequences"
        )
    return [[int(i) for i in row] for row in checked]


def _window(vocab: int, dim: int, ids: list[list[int]], words: Words) -> Window:
    """Pick E's rows (as the compact window) and its columns.

    Every column of a table up to three wide, for a batch of up to 12 IDs;
    else the first and the last: the matrix, the walking column and the
    slices then fit the frame with their numbers at least 18 px tall at 720p.

    A batch of up to 8 IDs in sequences of at least 4 (a 2 x 4 batch) whose
    window is at least 9 lines tall (rows and hidden ranges) also shows
    column 1. Its layout is bound by the frame's height and by the block of
    chips over E, not by the columns: at GPT-2's size with five-digit IDs (11
    lines) E showed two columns, each cell padded two characters wider to
    fill the width, and the numbers stay 18.7 px with a third column (a 720p
    review: "E shows only two data columns"). A shorter window, or a batch
    of shorter sequences, is bound by the width: a third column drew the
    numbers smaller (24.1 px to 22.7 px for GPT-2's default batch, 21.3 to
    19.8 px for a 2 x 3 batch; 19.5 to 17.5 px for four single IDs). In a
    12 x 6 table it costs up to 1 px (20.4 to 19.4 px).
    """
    focus = sorted({i for row in ids for i in row})
    rows = compact_window(vocab, dim, focus, words).rows
    count = len(ids) * len(ids[0])
    if dim <= _FULL_COLS and count <= _FULL_COLS_IDS:
        return labelled_window(rows, range(dim), vocab, dim, words)
    window = labelled_window(rows, sorted({0, dim - 1}), vocab, dim, words)
    tall = len(window.rows) + len(window.row_gaps) >= _HEAD_COLS_LINES
    long = len(ids[0]) >= _HEAD_COLS_LENGTH
    if count <= _HEAD_COLS_IDS and long and tall and dim > _FULL_COLS:
        return labelled_window(rows, [0, 1, dim - 1], vocab, dim, words)
    return window


def build_batch_lookup(
    options: SceneOptions, *, legend: bool = True, words: Mapping[str, str] | None = None
) -> Storyboard:
    """Storyboard: a B×T batch of IDs becomes a B×T×d block, one slice per sequence.

    Parameters
    ----------
    options
        ``ids`` holds a batch: rows separated by ``;``, all the same length
        (default ``2,3,5,1;4,0,3,2``). At most 4 rows of at most 8 IDs,
        and 18 IDs in all (a 3 x 6 batch).
    legend
        Whether the colour legend appears (only the first time in a longer video).
    words
        The words to label it with (e.g. a translation); English by default.

    Returns
    -------
    Storyboard
        The scene data; its ``layout`` is ``batch``.

    Raises
    ------
    EmbedvizError
        For a single sequence, a ragged or empty batch, an ID out of range,
        a batch too large to draw legibly, or a bad table.
    """
    table = make_table(options)
    ids = _batch_ids(options, table)
    output = table.lookup(ids)
    focus = sorted({i for row in ids for i in row})
    told = SPEC.words(words)
    window = _window(table.vocab_size, table.dim, ids, told)
    lines = len(window.rows) + len(window.row_gaps)
    if lines > MAX_GRID_LINES:
        raise EmbedvizError(
            f"these {len(focus)} distinct IDs need {lines} matrix rows on screen, but "
            f"BatchLookup draws at most {MAX_GRID_LINES}; use fewer distinct IDs"
        )
    rec = Recorder(window, output.shape, told)
    scale = rec.screen.add_grid(table, window, title_size=True, legend=legend)
    for b, row in enumerate(ids):
        for t, token_id in enumerate(row):
            rec.screen.add(int_cell("token_id", (b, t), token_id))
    # The output's place asks its question from the start (the predict beat points at
    # it): a review saw a blank dark panel there for the first beats.
    rec.screen.labels["question"] = rec.words("batch_question")
    rec.beat("intro", "intro", intro_sentence(table), run_time=1.5)
    _axes_predict_reveal(rec, output.shape)
    marks: list[NumberCell] = []
    _first_sequence(rec, ids, output, marks)
    _other_sequences(rec, ids, output, marks)
    _repeats(rec, marks)
    _dim_and_shape(rec, focus, output.shape)
    return rec.finish(SPEC, options, table, tuple(tuple(row) for row in ids), scale)


def _axes_predict_reveal(rec: Recorder, shape: tuple[int, ...]) -> None:
    """Name the batch's axes, ask for the output's shape, then show every slice, still empty."""
    batch, length, dim = shape
    screen = rec.screen
    screen.add(int_cell("batch_dim", (0,), batch), int_cell("batch_dim", (1,), length))
    screen.labels["batch_axis"] = rec.words("batch_axis")
    screen.labels["length_axis"] = rec.words("length_axis")
    rec.beat(
        "batch",
        "axes",
        f"The input is now a batch: {batch} sequences of {length} IDs, one per row. "
        f"Its shape is B \u00d7 T: batch size {batch}, sequence length {length}.",
        run_time=1.2,
    )
    rec.beat(
        "predict",
        "predict",
        f"Each ID still becomes one row of d = {dim} values. "
        "Predict before we look: what shape will the whole output have?",
        run_time=1.0,
        min_hold=3.0,
    )
    del screen.labels["question"]
    # The whole block stands from here: every slice's empty body with its row
    # numbers (the render draws them all at once); a later slice's header comes
    # with its first lookup.
    rec.show_output_frame([(b, t) for b in range(batch) for t in range(length)])
    screen.add(int_cell("slice", (0,), 0))
    screen.add(int_cell("batch_dim", (2,), dim))
    # Each card's header, and the block's three edges: B, T and d = ...
    screen.labels["slice_title"] = rec.words("slice_title")
    screen.labels["edge_b"] = "B"
    screen.labels["edge_t"] = "T"
    screen.labels["edge_d"] = "d ="
    # The rule comes with the slices and stands to the end.
    screen.labels["rule"] = RULE
    rec.beat(
        "reveal",
        "reveal",
        f"One {length} \u00d7 {dim} slice per sequence. Slice b holds sequence b; "
        "its row t holds the vector of the ID at position t.",
        run_time=1.0,
    )


def _fill(
    rec: Recorder,
    position: tuple[int, int],
    output: npt.NDArray[np.float32],
    token_id: int,
    marks: list[NumberCell],
) -> None:
    """Land a row, its chip becoming its tag; hold its equality mark back for the repeats beat.

    The chip travels on as the row's tag (``output_id``) and its ``token_id``
    cell leaves the screen (one ID, one object, one place: issue 18, a review
    counted each used ID twice while it stayed written, dimmed, in its place);
    the input block keeps its places' outlines, the B × T shape, with its B
    and T edges (``batch_dim``) to check the output against. A batch of at most
    :data:`KEPT_BLOCK` (two sequences of four IDs, two repeats) keeps it to the end,
    while the marks speak of its repeated IDs (issue 18, a teacher's review of
    GPT-2's batch: it vanished as the last row landed): its slices leave room
    under them for the marks. A larger one empties it with the last row, and
    the render's E rises into its place.
    """
    rec.fill_output(position, output[position], token_id, chip_becomes_tag=True)
    mark = rec.screen.numbers.pop(("equal_to", position), None)
    if mark is not None:
        marks.append(mark)
    last = position == tuple(n - 1 for n in output.shape[:2])
    sizes = (output.shape[0], output.shape[1], len(marks))
    if last and any(size > most for size, most in zip(sizes, KEPT_BLOCK, strict=True)):
        _empty_block(rec)


# The largest batch (sequences, IDs each, repeated rows) whose input block stays on
# screen to the end (render: batch_finale.keep_input): two sequences of eight IDs fill
# the frame's height, and four marks found no room under the slices or under E.
KEPT_BLOCK = (2, 4, 2)


def _empty_block(rec: Recorder) -> None:
    """Drop the block's B and T edges with its last chip.

    The slices' own edges name the output from here on; an edge round an
    empty grid would point at nothing.
    """
    for axis in (0, 1):
        del rec.screen.numbers[("batch_dim", (axis,))]
    for role in ("batch_axis", "length_axis"):
        del rec.screen.labels[role]


def _first_sequence(
    rec: Recorder, ids: list[list[int]], output: npt.NDArray[np.float32], marks: list[NumberCell]
) -> None:
    """Sequence 0: two IDs one by one, then the rest of the sequence in one beat."""
    first, length = ids[0], len(ids[0])
    _fill(rec, (0, 0), output, first[0], marks)
    rec.beat(
        "lookup-0-0",
        "lookup",
        f"Sequence 0, position 0 holds ID {first[0]}. It selects row {first[0]} of E, "
        "counting from zero. The copy lands in slice 0, row 0.",
        run_time=2.4,
        highlight=Highlight((0, 0), first[0], first[0]),
        min_hold=0.8,
        last_phrase=FETCH_SECONDS,
    )
    if length > 1:
        _fill(rec, (0, 1), output, first[1], marks)
        rec.beat(
            "lookup-0-1",
            "lookup",
            f"ID {first[1]} at position 1 lands in slice 0, row 1. "
            "The sequence picks the slice; the position picks the row.",
            run_time=2.4,
            highlight=Highlight((0, 1), first[1], first[1]),
            min_hold=0.8,
            last_phrase=FETCH_SECONDS,
        )
    if length > 2:
        for t in range(2, length):
            _fill(rec, (0, t), output, first[t], marks)
        rows_text = {3: "row 2", 4: "rows 2 and 3"}.get(length, f"rows 2 to {length - 1}")
        rec.beat(
            "lookup-0-rest",
            "lookup_many",
            # Two sentences: a long list broke the one sentence at its colon, and
            # "The rest of sequence 0 follows in order:" stood alone as a cue.
            f"The rest of sequence 0 follows in order. IDs {and_list(first[2:])} "
            f"fill {rows_text} of slice 0.",
            run_time=1.2 * (length - 2),
            min_hold=0.8,
        )


def _other_sequences(
    rec: Recorder, ids: list[list[int]], output: npt.NDArray[np.float32], marks: list[NumberCell]
) -> None:
    """Each later sequence fills its own slice in one beat, under the one before."""
    screen, length = rec.screen, len(ids[0])
    for b in range(1, len(ids)):
        # Slice b's body and row numbers stand since the reveal; its header comes now.
        screen.add(int_cell("slice", (b,), b))
        for t in range(length):
            _fill(rec, (b, t), output, ids[b][t], marks)
        rec.beat(
            f"lookup-{b}",
            "lookup_many",
            f"Sequence {b} uses the same matrix E. IDs {and_list(ids[b])} "
            f"fill slice {b}, in order.",
            run_time=1.2 * length,
            min_hold=0.8,
        )


def _repeats(rec: Recorder, marks: list[NumberCell]) -> None:
    """Once every row has landed, mark each row whose ID came earlier: out[1,2] = out[0,1]."""
    if not marks:
        return
    # The block of chips is empty now (each chip is its row's tag, its edges gone with
    # the last chip): the marks take its place.
    rec.screen.add(*marks)
    rec.screen.labels.update(_pair_labels(rec, marks))
    rec.beat(
        "repeats",
        "repeats",
        "IDs that repeat fetch the same row again. Each marked row equals its first copy, "
        "wherever it sits in the batch.",
        run_time=1.2,
    )


def _pair_labels(rec: Recorder, marks: list[NumberCell]) -> dict[str, str]:
    """Return a letter for every row of each repeated ID, keyed ``pair_b_t``.

    A teacher's review (issue 18) saw all the marked rows ringed alike, the
    pairing written only in the ``out[1,2] = out[0,0]`` lines. Each repeated
    ID gets its own letter (``a``, ``b``, ... in the order of its first copy
    in the batch, so that they read in order down the slices: a later review
    saw ``b`` over ``a`` in slice 0), on its first copy, on each repeat, and
    at the start of each of its marks: equal is shown by a shape (the letter
    in its ring), not by a colour.
    """
    ids = {c.index: int(c.value) for c in rec.screen.numbers.values() if c.kind == "output_id"}
    letters: dict[tuple[int, ...], str] = {}
    labels: dict[str, str] = {}
    for mark in sorted(marks, key=lambda c: (rec.first_filled[ids[c.index]], c.index)):
        first = rec.first_filled[ids[mark.index]]
        # At most MAX_BATCH_TOKENS // 2 repeated IDs: one letter each.
        letter = letters.setdefault(first, "abcdefghijklmnopqrstuvwxyz"[len(letters)])
        for b, t in (first, mark.index):
            labels[f"pair_{b}_{t}"] = letter
    return labels


def _dim_and_shape(rec: Recorder, focus: list[int], shape: tuple[int, ...]) -> None:
    """Fade the rows no sequence selected, then give the output's B × T × d shape."""
    batch, length, dim = shape
    screen = rec.screen
    unused = tuple(row for row in rec.window.rows if row not in set(focus))
    if unused:
        rec.dimmed = unused
        listed = and_list(unused)
        rec.beat(
            "dim",
            "dim",
            f"{unselected_rows(rec.window, listed, len(unused), ' by any sequence')} "
            f"{'That row plays' if len(unused) == 1 else 'Those rows play'} no part in this batch.",
            run_time=1.0,
        )
    # The shape joins the edges' names (B, T, d = ...): the d edge keeps its size (a
    # review read the bare ``d`` it once shrank to as a label that lost its value).
    screen.labels["output_title"] = rec.words("output")
    screen.add(*(int_cell("output_size", (axis,), n) for axis, n in enumerate(shape)))
    rec.label_output_shape()
    rec.beat(
        "shape",
        "shape",
        f"The result is {batch} \u00d7 {length} \u00d7 {dim}: batch size, sequence length, "
        "embedding dimension. In code, out[b, t] equals E[ids[b, t]].",
        run_time=1.4,
        min_hold=2.0,
    )


SPEC = SceneSpec(
    name="BatchLookup",
    alias="batch",
    module="batch",
    summary=(
        "A B \u00d7 T batch of IDs becomes a B \u00d7 T \u00d7 d block, one T \u00d7 d slice "
        "per sequence."
    ),
    build=build_batch_lookup,
    title="A batch of sequences becomes a stack of slices",
    layout="batch",
    default_ids=[[2, 3, 5, 1], [4, 0, 3, 2]],
    order=30,
    examples=(
        {"ids": "7,0,7,9,2;5,5,1,0,2;9,3,4,4,0", "vocab": 10, "dim": 5, "init": "normal"},
        {"ids": "4821,0,50256;50256,7,4821", "vocab": 50257, "dim": 768},
        {"ids": "1,2,3,4,5,6,7,0;0,7,6,5,4,3,2,1", "vocab": 8, "dim": 3, "theme": "light"},
        {"ids": "1,0;2,3;3,1;0,2", "vocab": 4, "dim": 2},
    ),
)
