"""LargeVocabLookup: a GPT-2-sized table, scrolled to one row, then a sentence.

The table is drawn as a spreadsheet with labelled gaps. The sentence's first
ID is featured: the view scrolls from the top rows down to that ID's row,
which is copied whole into the output. The next two IDs are followed the same
way, and the rest of the sentence then lands in one beat: one output row per
ID, in input order.

Only the rows the scene shows are ever computed (a torch-seeded table makes
just those rows), so building this storyboard costs the same at V=50257 as at
V=60.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from embedviz.core.cells import format_scale
from embedviz.core.colour_key import table_key
from embedviz.core.errors import EmbedvizError
from embedviz.core.table import Table
from embedviz.story.model import Highlight, NumberCell, Storyboard, Window
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.common import (
    FETCH_SECONDS,
    MAX_SEQUENCE_TOKENS,
    Recorder,
    SceneSpec,
    make_table,
    ordinal,
    sequence_ids,
)
from embedviz.story.screen import Screen, int_cell, value_cell
from embedviz.story.window import gap_label, labelled_window
from embedviz.story.words import Words

__all__ = [
    "GPT2_DIM",
    "GPT2_VOCAB",
    "SPEC",
    "build_large_vocab_lookup",
    "byte_size",
    "scroll_window",
    "start_window",
]

GPT2_VOCAB = 50257
GPT2_DIM = 768

# GPT-2's published embedding widths, all with the same 50257-entry vocabulary.
_GPT2_SIZES = {768: "GPT-2", 1024: "GPT-2 medium", 1280: "GPT-2 large", 1600: "GPT-2 XL"}

# For V > 8 every window draws eight slots (six rows and two labelled gaps,
# or seven rows and one), so a scroll swaps a few rows in and out rather than
# resizing the grid.
_TOP_ROWS = 6  # rows 0..5 before the first scroll
_KEPT_TOP = 2  # rows 0 and 1 stay in view as a landmark
_END_ROWS = 5  # the rows shown when the target is near the end
_MAX_FULL_ROWS = 8
# Columns: the first and the last. E and the output stand side by side with
# the same columns, so each column drawn costs two: a second head column took
# GPT-2's numbers down to 18.3 px at 720p (the floor for real-sized tables),
# where two columns let them reach 22 px, readable from the back of a hall.
# The labelled gap between them says which are hidden.
_HEAD_COLS = 1
_TAIL_COLS = 1
_MAX_FULL_COLS = 3

_SCENE = "LargeVocabLookup"
# Seconds a later walked lookup's motion takes: the view scrolls, E and the output block
# part for the strip, the chip fetches the row, and the blocks close up again (the
# renderer's floors: about 5 s). The default's 5.4 s phrase left the scroll and the
# outlines 0.3 s once the blocks closed at its end (issue 18: parted into the rest, the
# corridor stood empty there, a quarter of the frame). From the phrase that fetches the
# row, the fetch and the closing take FETCH_SECONDS (MiniLM's second phrase, 2.5 s, played
# the chip's walk faster than its floor).
_WALKED_SECONDS = 5.4
# The rest's first phrase lasts while its lookups go: the blocks part (lookup-1 closed
# them) and the kept outlines fade, then each ID takes about this much (the renderer's
# REST_SPEEDUP times its pace). MiniLM's ten took 6.8 s of a 5.1 s phrase, the repeat's
# rings coming 1.7 s into the phrase that names them.
_REST_LEAD = 0.3
_REST_EACH = 0.68
# IDs followed one by one down the table: the featured one at teaching pace,
# the next faster; the rest of the sentence then goes together in one beat,
# since it is the same motion again (issue 18: one thread of motion).
_WALKED = 2


def _window(vocab_size: int, dim: int, rows: set[int], words: Words | None) -> Window:
    head = _HEAD_COLS
    if dim <= _MAX_FULL_COLS:
        cols = list(range(dim))
    else:
        cols = list(range(head)) + list(range(dim - _TAIL_COLS, dim))
    return labelled_window(sorted(rows), cols, vocab_size, dim, words or SPEC.words())


def start_window(vocab_size: int, dim: int, words: Words | None = None) -> Window:
    """Return the first view: the top rows and the last row.

    Parameters
    ----------
    vocab_size
        ``V``.
    dim
        ``d``.
    words
        The storyboard's words for the gap labels; English by default.

    Returns
    -------
    Window
        Every row when ``V <= 8``; otherwise rows 0 to 5 and row ``V-1``
        with the gap between them labelled. Columns: all when ``d <= 3``,
        otherwise the first and the last.

    Raises
    ------
    EmbedvizError
        If ``V`` or ``d`` is not positive.
    """
    if vocab_size < 1 or dim < 1:
        raise EmbedvizError(f"a table needs at least one row and column, not {vocab_size} x {dim}")
    if vocab_size <= _MAX_FULL_ROWS:
        return _window(vocab_size, dim, set(range(vocab_size)), words)
    return _window(vocab_size, dim, set(range(_TOP_ROWS)) | {vocab_size - 1}, words)


def scroll_window(
    vocab_size: int,
    dim: int,
    row: int,
    current: Window | None = None,
    words: Words | None = None,
) -> Window:
    """Return the view that shows ``row``, scrolling only when needed.

    Parameters
    ----------
    vocab_size
        ``V``.
    dim
        ``d``.
    row
        The row that must be visible.
    current
        The view on screen now; it is kept when it already shows ``row``.
    words
        The storyboard's words for the gap labels; English by default.

    Returns
    -------
    Window
        ``current`` if it shows the row; else the top view for rows 0 to 5;
        else rows 0, 1 and the last five rows for a row near the end; else
        rows 0, 1, the row with one neighbour on each side, and the last
        row. For ``V > 8`` every view draws eight slots (rows plus gaps), so
        the grid keeps its size while it scrolls.

    Raises
    ------
    EmbedvizError
        If ``row`` is outside ``0 .. V-1``.
    """
    if not 0 <= row < vocab_size:
        raise EmbedvizError(f"row {row} is outside the table's rows 0 to {vocab_size - 1}")
    if current is not None and row in current.rows:
        return current
    if vocab_size <= _MAX_FULL_ROWS or row < _TOP_ROWS:
        return start_window(vocab_size, dim, words)
    top = set(range(_KEPT_TOP))
    if row >= vocab_size - _END_ROWS + 1:
        end = set(range(vocab_size - _END_ROWS, vocab_size))
        return _window(vocab_size, dim, top | end, words)
    return _window(vocab_size, dim, top | {row - 1, row, row + 1, vocab_size - 1}, words)


def byte_size(count: int) -> str:
    """Say how large ``count`` bytes is, e.g. ``147 MiB`` or ``1.2 KiB``.

    Parameters
    ----------
    count
        A number of bytes, zero or more.

    Returns
    -------
    str
        Plain bytes below 1 KiB; otherwise binary units, to one decimal
        below 100 and whole from 100 up.
    """
    if count < 1024:
        return f"{count} bytes"
    value = float(count)
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        value /= 1024
        if value < 1024 or unit == "TiB":
            break
    return f"{value:.0f} {unit}" if value >= 100 else f"{value:.1f} {unit}"


def _with_defaults(options: SceneOptions) -> SceneOptions:
    """Fill in GPT-2's sizes where a seeded table's sizes were not given.

    ``SPEC.defaults`` gives these sizes wherever options are resolved; this
    keeps a direct call of the builder (with bare ``SceneOptions``) the same.
    """
    if options.weights is not None:
        return options
    return replace(
        options,
        vocab=GPT2_VOCAB if options.vocab is None else options.vocab,
        dim=GPT2_DIM if options.dim is None else options.dim,
    )


def _sentence_ids(options: SceneOptions, table: Table) -> list[int]:
    ids = SPEC.ids(options)
    if options.ids is None and max(ids) >= table.vocab_size:
        raise EmbedvizError(
            f"the default sentence uses IDs up to {max(ids)}, beyond a "
            f"vocabulary of {table.vocab_size}; give --ids"
        )
    return sequence_ids(
        ids, table.vocab_size, scene=_SCENE, limit=MAX_SEQUENCE_TOKENS, example="4821,464,318"
    )


def _plan_windows(vocab_size: int, dim: int, ids: list[int], words: Words) -> list[Window]:
    """Return the view for each lookup: the first ID's, then each later ID's."""
    views = []
    current = start_window(vocab_size, dim, words)
    for token_id in ids:
        current = scroll_window(vocab_size, dim, token_id, current, words)
        views.append(current)
    return views


def _show_window(screen: Screen, window: Window, rows: dict[int, npt.NDArray[np.float32]]) -> None:
    """Replace the grid's rows and gap labels on screen with ``window``'s."""
    screen.remove_kind("weight")
    screen.remove_kind("row_label")
    for key in [key for key in screen.labels if key.startswith(("row_gap_", "col_gap_"))]:
        del screen.labels[key]
    for row in window.rows:
        screen.add(int_cell("row_label", (row,), row))
        for col in window.cols:
            screen.add(value_cell("weight", (row, col), rows[row][col]))
    for col in window.cols:
        screen.add(int_cell("col_label", (col,), col))
    for number, gap in enumerate(window.row_gaps):
        screen.labels[f"row_gap_{number}"] = gap.label
    for number, gap in enumerate(window.col_gaps):
        screen.labels[f"col_gap_{number}"] = gap.label


def _fetch_rows(table: Table, windows: list[Window]) -> dict[int, npt.NDArray[np.float32]]:
    """Compute only the rows any view shows, in one call; refuse non-finite values."""
    wanted = sorted({row for window in windows for row in window.rows})
    block = table.rows(np.asarray(wanted, dtype=np.int64))
    cols = list(windows[0].cols)
    bad = np.argwhere(~np.isfinite(block[:, cols]))
    if bad.size:
        row, col = wanted[int(bad[0][0])], cols[int(bad[0][1])]
        raise EmbedvizError(
            f"the table holds {block[int(bad[0][0]), col]} at row {row}, column {col}; "
            "only finite values can be drawn"
        )
    return {row: block[i] for i, row in enumerate(wanted)}


def _stored_dtype(table: Table) -> tuple[str, int]:
    """Name the dtype the values are stored in, and its size in bytes."""
    name = str(getattr(table, "stored_dtype", "float32"))
    sizes = {"bfloat16": 2, "float16": 2, "float32": 4, "float64": 8}
    # Any other file dtype was converted to float32 on reading.
    return (name, sizes[name]) if name in sizes else ("float32", 4)


def _size_note(vocab_size: int, dim: int) -> str:
    name = _GPT2_SIZES.get(dim) if vocab_size == GPT2_VOCAB else None
    return f", like {name}'s" if name else ""


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _lookup_sentence(
    ids: list[int], position: int, scrolled: bool, first_seen: dict[int, int]
) -> str:
    """Narrate one later lookup of the sentence."""
    token_id = ids[position]
    if token_id in first_seen:
        earlier = first_seen[token_id]
        return (
            f"ID {token_id} again: the same row, so output row {position} equals output "
            f"row {earlier}. The lookup never sees where a token sits."
        )
    if not scrolled:
        return (
            f"Row {token_id} is already on screen, so its copy goes straight into "
            f"output row {position}."
        )
    if position == 1:
        return (
            f"Next, ID {token_id}: the view scrolls to row {token_id}, and its copy "
            f"fills output row {position}."
        )
    return f"ID {token_id}: scroll to row {token_id}, copy it to output row {position}."


def _rest_sentence(ids: list[int]) -> str:
    """Narrate the IDs after the walked ones, which go in turn (one copy travels at a time).

    Before a repeat is named, their phrase lasts while they go (at most
    REST_SPEEDUP times their pace, after the blocks part: about 5.5 s for the
    default eight; the beat holds it that long, see ``_REST_EACH``), so that
    the repeat's rings come as their phrase names them. Said as "The other 8
    IDs do the same, in turn." (2.9 s), the caption named "output rows 0 and 8"
    while row 8's copy was still on its way, and the rings came 2 s into it
    (issue 18). The beat's narration keeps to 26 words and 150 characters (the
    repeat's "position plays no part" is now "whatever their position").
    """
    rest = len(ids) - _WALKED
    for position in range(_WALKED, len(ids)):
        if ids[position] in ids[:position]:
            earlier = ids.index(ids[position])
            went = (
                f"The other {_plural(rest, 'ID')} does the same, in turn."
                if rest == 1
                else f"The remaining {rest} IDs fetch entire rows in turn, including hidden ones."
            )
            return (
                f"{went} ID {ids[position]} repeats, so output rows "
                f"{earlier} and {position} are identical, whatever their position."
            )
    if rest == 1:
        return (
            f"The last ID, {ids[-1]}, does the same: its whole row is copied into output "
            f"row {len(ids) - 1}."
        )
    return (
        f"The other {rest} IDs do the same, in turn. Each row, on screen or hidden, "
        "is copied whole into its output row."
    )


def build_large_vocab_lookup(
    options: SceneOptions, *, legend: bool = True, words: Mapping[str, str] | None = None
) -> Storyboard:
    """Storyboard: scroll a GPT-2-sized table to one row, then look up a sentence.

    Parameters
    ----------
    options
        ``ids`` is the sentence (1 to 12 IDs; default ten GPT-2-sized IDs
        starting with 4821); its first ID is the one followed down the
        table. ``vocab`` and ``dim`` default to GPT-2's 50257 and 768.
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
        For a bad ID, a batch, more than 12 IDs, bad sizes or weights, or a
        non-finite value in a drawn cell.
    """
    options = _with_defaults(options)
    table = make_table(options)
    ids = _sentence_ids(options, table)
    vocab, dim = table.vocab_size, table.dim
    told = SPEC.words(words)
    first_view = start_window(vocab, dim, told)
    views = _plan_windows(vocab, dim, ids[:_WALKED], told)
    rows = _fetch_rows(table, [first_view, *views])
    output = table.lookup(ids)
    # The table's one colour scale (as every scene's), so colours stay put while scrolling.
    scale = table_key(table)

    rec = Recorder(first_view, output.shape, told)
    screen = rec.screen
    _show_window(screen, first_view, rows)
    screen.add(int_cell("table_size", (0,), vocab), int_cell("table_size", (1,), dim))
    if legend:
        for position, value in enumerate((-scale, 0.0, scale)):
            screen.add(NumberCell("legend", (position,), format_scale(value), value))
    for position, token_id in enumerate(ids):
        screen.add(int_cell("token_id", (position,), token_id))
    # The empty output block waits beside the table from the start, its chips beside it.
    rec.show_output_frame([(t,) for t in range(len(ids))])
    rec.beat(
        "intro",
        "intro",
        f"This embedding matrix has {vocab:,} rows, one per vocabulary entry. It has {dim} "
        f"columns{_size_note(vocab, dim)}. Only a corner fits on screen.",
        run_time=1.0,
    )
    _size(rec, table, first_view)
    _featured(rec, ids, views[0], rows, output)
    _walked(rec, ids, views, rows, output)
    screen.add(int_cell("output_size", (0,), len(ids)), int_cell("output_size", (1,), dim))
    rec.label_output_shape()
    count = len(ids)
    rec.beat(
        "shape",
        "shape",
        f"{_plural(count, 'ID')} became {_plural(count, 'vector')}: a {count} \u00d7 {dim} "
        "block. Every row was copied whole from E; nothing was computed.",
        run_time=1.0,
        min_hold=2.0,
    )
    return rec.finish(SPEC, options, table, tuple(ids), scale)


def _size(rec: Recorder, table: Table, view: Window) -> None:
    """Count the table's numbers and their memory; name the hidden ranges."""
    vocab, dim = table.vocab_size, table.dim
    parameters = vocab * dim
    stored, itemsize = _stored_dtype(table)
    rec.screen.add(NumberCell("param_count", (0,), f"{parameters:,}", float(parameters)))
    # The narration is English (an author translates it whole), whatever the words.
    hidden = [gap_label(gap.first, gap.last, "row") for gap in view.row_gaps]
    hidden += [gap_label(gap.first, gap.last, "column") for gap in view.col_gaps]
    hidden = [text.replace(" hidden", "") for text in hidden]
    gaps_sentence = (
        f"Labelled gaps stand for the hidden {' and '.join(hidden)}."
        if hidden
        else "This one is small enough to draw whole."
    )
    rec.beat(
        "size",
        "size",
        f"E holds {vocab:,} \u00d7 {dim:,} = {parameters:,} numbers, about "
        f"{byte_size(parameters * itemsize)} as {stored}. {gaps_sentence}",
        run_time=2.0,
        min_hold=2.0,
    )


def _featured(
    rec: Recorder,
    ids: list[int],
    view: Window,
    rows: dict[int, npt.NDArray[np.float32]],
    output: npt.NDArray[np.float32],
) -> None:
    """Scroll to the first ID's row and copy it whole into output row 0."""
    featured = ids[0]
    focus = Highlight((0,), featured, featured)
    scrolled = view != rec.window
    rec.window = view
    _show_window(rec.screen, view, rows)
    where = (
        f"so the view scrolls to row {featured}. It is the "
        f"{ordinal(featured + 1)} row, counting from 0."
        if scrolled
        else f"and row {featured} is already on screen. It is the {ordinal(featured + 1)} "
        "row, counting from 0."
    )
    find = f"Take ID {featured}. An ID is a row number, {where}"
    # 2.8 s (was 2.4): the row's outline now follows the scroll, once the caption names the
    # row; the chip's ring and the scroll keep about their 1.2 s each (1.17 s; the stage
    # shares run_time among the steps, and times snap to whole ticks).
    rec.beat("scroll", "scroll", find, run_time=2.8, highlight=focus)
    rec.fill_output((0,), output[0], ids[0], chip_becomes_tag=True)
    dim = output.shape[-1]
    rec.beat(
        "lookup",
        "lookup",
        f"Nothing is computed. The model walks to row {featured} and copies the whole row "
        "into output row 0. That copy is the embedding: "
        f"{dim} {'number' if dim == 1 else 'numbers'}.",
        run_time=2.4,
        highlight=focus,
    )


def _walked(
    rec: Recorder,
    ids: list[int],
    views: list[Window],
    rows: dict[int, npt.NDArray[np.float32]],
    output: npt.NDArray[np.float32],
) -> None:
    """Look up the next IDs one by one, each scrolled to; then the rest of the sentence."""
    count = len(ids)
    if count > 1:
        rec.beat(
            "sentence",
            "sentence",
            f"The sentence has {count} IDs. Each fetches its own row, in input order, so the "
            f"output has {count} rows.",
            run_time=2.0,
        )
    first_seen = {ids[0]: 0}
    for position in range(1, min(count, _WALKED)):
        token_id = ids[position]
        scrolled = views[position] != views[position - 1]
        rec.window = views[position]
        _show_window(rec.screen, views[position], rows)
        rec.fill_output((position,), output[position], token_id, chip_becomes_tag=True)
        rec.beat(
            f"lookup-{position}",
            "scroll_lookup",
            _lookup_sentence(ids, position, scrolled, first_seen),
            run_time=_WALKED_SECONDS if scrolled else _WALKED_SECONDS - 0.6,
            highlight=Highlight((position,), token_id, token_id),
            min_hold=0.6,
            last_phrase=FETCH_SECONDS,
        )
        first_seen.setdefault(token_id, position)
    if count > _WALKED:
        for position in range(_WALKED, count):
            rec.fill_output((position,), output[position], ids[position], chip_becomes_tag=True)
        rest = count - _WALKED
        # Together, in a few seconds: done before a repeat's phrase points at its rows.
        rec.beat(
            "rest",
            "fill_rest",
            _rest_sentence(ids),
            run_time=0.8 + 0.3 * rest,
            first_phrase=_REST_LEAD + _REST_EACH * rest,
        )


SPEC = SceneSpec(
    name=_SCENE,
    alias="large",
    module="large_vocab",
    summary=(
        "A GPT-2-sized 50257 \u00d7 768 table: the first ID scrolls into view and its row "
        "is copied; then the whole sentence becomes one vector per ID."
    ),
    build=build_large_vocab_lookup,
    title="A real-sized table: walking to a row",
    layout="large_vocab",
    # Ten plausible GPT-2-sized IDs (no claim about which words they are). The
    # first is featured; its repeat at position 8 shows that the lookup ignores
    # position.
    default_ids=[4821, 464, 3290, 318, 257, 31373, 11, 13, 4821, 50256],
    order=40,
    defaults={"vocab": GPT2_VOCAB, "dim": GPT2_DIM},
    examples=(
        {"ids": "40,7,59,40,2", "vocab": 60, "dim": 5},
        {"ids": "4821,464,50256", "dim": 1600},
        {"ids": "4821,464,3290,318,257,31373,11,13,50000,290,50254,50256"},
        {"theme": "light"},
    ),
)
