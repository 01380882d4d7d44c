"""Storyboards for the scenes: narration, timing and every number, per beat."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import validate_ids
from embedviz.core.table import (
    DEFAULT_DIM,
    DEFAULT_VOCAB,
    EmbeddingTable,
    Table,
    TorchSeededTable,
)
from embedviz.core.torch_format import format_torch_tensor
from embedviz.story.model import Beat, Highlight, OutputState, Storyboard, Window
from embedviz.story.options import SceneOptions, resolve_options
from embedviz.story.printed import split_printed
from embedviz.story.screen import Screen, int_cell, value_cell
from embedviz.story.window import choose_window

__all__ = [
    "MAX_SEQUENCE_TOKENS",
    "SCENES",
    "SceneSpec",
    "build_storyboard",
    "find_scene",
    "make_table",
    "ordinal",
]

MAX_SEQUENCE_TOKENS = 12
GRAD_FN = "EmbeddingBackward0"
# Reading pace for on-screen narration, in words per second; beats last at
# least long enough to read their sentence.
_WORDS_PER_SECOND = 3.2
# Durations are whole multiples of this so beats start on a frame at 15, 30
# and 60 frames per second alike.
_TICK = 0.2


def ordinal(n: int) -> str:
    """Return ``1st``, ``2nd``, ``3rd``, ``4th``, ... for a one-based count.

    Parameters
    ----------
    n
        A positive count.

    Returns
    -------
    str
        The English ordinal.
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def make_table(options: SceneOptions) -> Table:
    """Build the table that a scene shows.

    Parameters
    ----------
    options
        The resolved options.

    Returns
    -------
    Table
        From ``options.weights`` when given, else seeded (torch-compatible
        tables compute only the rows that are asked for).

    Raises
    ------
    EmbedvizError
        For conflicting sizes, a bad file, or a bad seed or size.
    """
    if options.weights is not None:
        table = EmbeddingTable.from_file(options.weights, options.tensor)
        for name, wanted, actual in (
            ("--vocab", options.vocab, table.vocab_size),
            ("--dim", options.dim, table.dim),
        ):
            if wanted is not None and wanted != actual:
                raise EmbedvizError(
                    f"{name} {wanted} disagrees with {options.weights}, whose table is "
                    f"{table.vocab_size} x {table.dim}; drop {name} or use another file"
                )
        return table
    vocab = options.vocab if options.vocab is not None else DEFAULT_VOCAB
    dim = options.dim if options.dim is not None else DEFAULT_DIM
    if options.init == "torch":
        # Only the rows a scene shows are computed: cost does not grow with V.
        return TorchSeededTable.create(vocab, dim, options.seed)
    return EmbeddingTable.from_seed(vocab, dim, options.seed, "normal")


def _seconds(value: float) -> float:
    return round(round(value / _TICK) * _TICK, 6)


class _Recorder:
    """Collects beats, freezing the screen after each one."""

    def __init__(self, window: Window, shape: tuple[int, ...]) -> None:
        self.screen = Screen()
        self.window = window
        self.beats: list[Beat] = []
        self.output: OutputState | None = None
        self.shape = shape
        self.dimmed: tuple[int, ...] = ()

    def beat(
        self,
        name: str,
        action: str,
        narration: str,
        run_time: float,
        highlight: Highlight | None = None,
        min_hold: float = 1.0,
    ) -> None:
        reading = len(narration.split()) / _WORDS_PER_SECOND
        duration = _seconds(max(run_time + min_hold, reading))
        self.beats.append(
            Beat(
                name=name,
                action=action,
                narration=narration,
                run_time=_seconds(run_time),
                duration=duration,
                highlight=highlight,
                window=self.window,
                dimmed_rows=self.dimmed,
                output=self.output,
                numbers=self.screen.frozen_numbers(),
                labels=self.screen.frozen_labels(),
            )
        )

    def fill_output(self, position: tuple[int, ...], row: npt.NDArray[np.float32]) -> None:
        for col in self.window.cols:
            self.screen.add(value_cell("output", (*position, col), row[col]))
        assert self.output is not None
        self.output = OutputState(
            self.output.shape, (*self.output.filled, position), self.output.shape_labelled
        )

    def show_output_frame(self, positions: list[tuple[int, ...]]) -> None:
        self.output = OutputState(self.shape)
        for position in positions:
            self.screen.add(int_cell("position", position, position[-1]))


def _intro_sentence(table: Table) -> str:
    return (
        f"The embedding layer stores a {table.vocab_size} \u00d7 {table.dim} matrix: "
        f"one row per vocabulary entry, one column per embedding dimension."
    )


def _lookup_row_sentence(token_id: int) -> str:
    return (
        f"ID {token_id} is a row number, not a quantity. Counting from zero, "
        f"row {token_id} is the {ordinal(token_id + 1)} row."
    )


def _single_ids(options: SceneOptions, table: Table) -> int:
    ids = options.ids if options.ids is not None else [3]
    checked = validate_ids(ids, table.vocab_size)
    if checked.size != 1:
        raise EmbedvizError(
            f"SingleTokenLookup shows one token ID, but {checked.size} were given; "
            "use SequenceLookup for several"
        )
    return int(checked.ravel()[0])


def build_single_token_lookup(options: SceneOptions) -> Storyboard:
    """Storyboard: one ID walks to its row; the row is printed as PyTorch does.

    Parameters
    ----------
    options
        ``ids`` must hold one ID (default 3).

    Returns
    -------
    Storyboard
        The scene data.
    """
    table = make_table(options)
    token_id = _single_ids(options, table)
    output = table.lookup([token_id])
    window = choose_window(table.vocab_size, table.dim, [token_id])
    printed = format_torch_tensor(output, grad_fn=GRAD_FN)
    lines, _ = split_printed(printed, output.shape)
    rec = _Recorder(window, output.shape)
    screen = rec.screen
    focus = Highlight((0,), token_id, token_id)

    screen.add_grid(table, window, title_size=True)
    screen.add(int_cell("token_id", (0,), token_id))
    rec.beat("intro", "intro", _intro_sentence(table), run_time=1.5)
    rec.beat(
        "zero-based",
        "count_rows",
        "Rows are numbered from 0, like positions in a Python list. "
        + _lookup_row_sentence(token_id),
        run_time=1.6,
        highlight=focus,
    )
    rec.show_output_frame([(0,)])
    rec.fill_output((0,), output[0])
    rec.beat(
        "lookup",
        "lookup",
        f"Nothing is multiplied or added: the layer walks to row {token_id} and copies "
        f"the whole row out. Those {table.dim} numbers are the embedding of token {token_id}.",
        run_time=2.4,
        highlight=focus,
    )
    screen.labels["code"] = f"embedding_layer(torch.tensor([{token_id}]))"
    for line_number, line in enumerate(lines):
        for piece_number, (_, text, element) in enumerate(line.pieces):
            if element is None:
                screen.labels[f"printed_{line_number}_{piece_number:03d}"] = text
            else:
                screen.add(value_cell("printed", element, output[element]))
    rec.beat(
        "print",
        "print",
        f"PyTorch prints the result inside double brackets. The outer pair means a "
        f"2-D tensor with a single row; the {table.dim} numbers inside are row {token_id}.",
        run_time=1.6,
        highlight=focus,
    )
    rec.beat(
        "grad-fn",
        "grad_fn",
        f"grad_fn=<{GRAD_FN}> is metadata that PyTorch attaches to the result. "
        f"What matters are the numbers: row {token_id} of the matrix.",
        run_time=1.0,
        highlight=focus,
    )
    return Storyboard(
        scene="SingleTokenLookup",
        title="One token ID, one row",
        options=options.to_dict(),
        vocab_size=table.vocab_size,
        dim=table.dim,
        source=table.source,
        ids=token_id,
        beats=tuple(rec.beats),
        printed=printed,
    )


def _sequence_ids(options: SceneOptions, table: Table) -> list[int]:
    ids = options.ids if options.ids is not None else [2, 3, 5, 1]
    checked = validate_ids(ids, table.vocab_size)
    if checked.ndim != 1:
        raise EmbedvizError(
            f"SequenceLookup shows one sequence, but the IDs have shape {checked.shape}; "
            "give comma-separated IDs such as 2,3,5,1"
        )
    if checked.size > MAX_SEQUENCE_TOKENS:
        raise EmbedvizError(
            f"SequenceLookup shows at most {MAX_SEQUENCE_TOKENS} tokens legibly, "
            f"but {checked.size} were given"
        )
    return [int(i) for i in checked]


def build_sequence_lookup(options: SceneOptions) -> Storyboard:
    """Storyboard: a sequence of IDs becomes a T×d block, in input order.

    Parameters
    ----------
    options
        ``ids`` holds one sequence (default ``[2, 3, 5, 1]``).

    Returns
    -------
    Storyboard
        The scene data.
    """
    table = make_table(options)
    ids = _sequence_ids(options, table)
    output = table.lookup(ids)
    count, dim = len(ids), table.dim
    window = choose_window(table.vocab_size, dim, ids)
    rec = _Recorder(window, output.shape)
    screen = rec.screen

    screen.add_grid(table, window, title_size=True)
    for position, token_id in enumerate(ids):
        screen.add(int_cell("token_id", (position,), token_id))
    rec.beat("intro", "intro", _intro_sentence(table), run_time=1.5)

    screen.labels["question"] = "output shape?  rows \u00d7 values"
    rec.beat(
        "predict",
        "predict",
        f"{count} token IDs go in, and each becomes a vector of {dim} values. "
        "Predict before we look: how many rows will the output have, "
        "and how many values in each row?",
        run_time=1.0,
        min_hold=3.0,
    )
    del screen.labels["question"]
    rec.show_output_frame([(t,) for t in range(count)])
    rec.beat(
        "reveal",
        "reveal",
        f"One output row per input ID, so {count} rows; each row has {dim} values, "
        "the embedding dimension.",
        run_time=1.0,
    )
    for position, token_id in enumerate(ids):
        rec.fill_output((position,), output[position])
        if position == 0:
            narration = _lookup_row_sentence(token_id) + (
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
            run_time=2.4,
            highlight=Highlight((position,), token_id, token_id),
            min_hold=0.8,
        )
    unused = tuple(row for row in window.rows if row not in set(ids))
    rec.dimmed = unused
    if unused:
        unused_text = ", ".join(str(row) for row in unused)
        noun = "Row" if len(unused) == 1 else "Rows"
        dim_sentence = (
            f"{noun} {unused_text} {'was' if len(unused) == 1 else 'were'} not selected, "
            "so they play no part in this lookup."
        )
    else:
        dim_sentence = "Every row drawn here was selected by at least one ID."
    rec.beat("dim", "dim", dim_sentence, run_time=1.0)
    screen.add(int_cell("output_size", (0,), count), int_cell("output_size", (1,), dim))
    assert rec.output is not None
    rec.output = OutputState(rec.output.shape, rec.output.filled, shape_labelled=True)
    rec.beat(
        "shape",
        "shape",
        f"The result is {count} \u00d7 {dim}: the rows come from the input IDs, "
        "the columns from the embedding dimension.",
        run_time=1.0,
        min_hold=2.0,
    )
    return Storyboard(
        scene="SequenceLookup",
        title="A sequence of IDs becomes a block of vectors",
        options=options.to_dict(),
        vocab_size=table.vocab_size,
        dim=dim,
        source=table.source,
        ids=ids,
        beats=tuple(rec.beats),
    )


@dataclass(frozen=True)
class SceneSpec:
    """A scene that can be rendered.

    Attributes
    ----------
    name
        The class name, e.g. ``SequenceLookup``.
    alias
        A short name for the command line, e.g. ``sequence``.
    module
        The file under ``scenes/`` that defines it.
    summary
        One line for ``embedviz scenes``.
    build
        Makes its storyboard from options.
    """

    name: str
    alias: str
    module: str
    summary: str
    build: Callable[[SceneOptions], Storyboard]


SCENES: dict[str, SceneSpec] = {
    spec.name: spec
    for spec in (
        SceneSpec(
            "SingleTokenLookup",
            "single",
            "single_token",
            "One token ID walks to its zero-based row; the row is printed as PyTorch does.",
            build_single_token_lookup,
        ),
        SceneSpec(
            "SequenceLookup",
            "sequence",
            "sequence",
            "A sequence of IDs becomes a T x d block of rows, in input order.",
            build_sequence_lookup,
        ),
    )
}


def find_scene(name: str) -> SceneSpec:
    """Find a scene by class name or alias, ignoring case.

    Parameters
    ----------
    name
        ``SequenceLookup``, ``sequence``, ...

    Returns
    -------
    SceneSpec
        The scene.

    Raises
    ------
    EmbedvizError
        If no scene has that name.
    """
    wanted = name.strip().lower()
    for spec in SCENES.values():
        if wanted in (spec.name.lower(), spec.alias):
            return spec
    known = ", ".join(f"{spec.name} ({spec.alias})" for spec in SCENES.values())
    raise EmbedvizError(f"unknown scene {name!r}; choose one of {known}")


def build_storyboard(
    scene: str, overrides: dict[str, Any] | None = None, **resolve_kwargs: Any
) -> Storyboard:
    """Resolve options (file, environment, overrides) and build a storyboard.

    Parameters
    ----------
    scene
        Class name or alias.
    overrides
        Explicit options, as from command-line flags.
    **resolve_kwargs
        Passed to :func:`embedviz.story.options.resolve_options`
        (``cwd``, ``environ``).

    Returns
    -------
    Storyboard
        The scene data.
    """
    spec = find_scene(scene)
    options = resolve_options(overrides, scene=spec.name, **resolve_kwargs)
    return spec.build(options)
