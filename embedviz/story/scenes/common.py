"""Shared pieces of every storyboard: tables, timing, the beat recorder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import validate_ids
from embedviz.core.model_dir import model_name
from embedviz.core.table import (
    DEFAULT_DIM,
    DEFAULT_VOCAB,
    EmbeddingTable,
    FileTable,
    Table,
    TorchSeededTable,
)
from embedviz.story.describe import describe
from embedviz.story.model import (
    Action,
    Beat,
    Highlight,
    NumberCell,
    OutputState,
    Storyboard,
    Window,
)
from embedviz.story.options import SceneOptions
from embedviz.story.phrases import TICK, ceil_ticks, make_phrases
from embedviz.story.screen import Screen, int_cell, value_cell
from embedviz.story.spoken import spoken_form

__all__ = [
    "GRAD_FN",
    "MAX_SEQUENCE_TOKENS",
    "Recorder",
    "SceneSpec",
    "attach_pieces",
    "intro_sentence",
    "lookup_row_sentence",
    "make_table",
    "ordinal",
    "sequence_ids",
    "snap_seconds",
]

MAX_SEQUENCE_TOKENS = 12
GRAD_FN = "EmbeddingBackward0"
# Durations are whole multiples of a tick so beats start on a frame at 15,
# 30 and 60 frames per second alike.
_TICK = TICK


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
        From ``options.weights`` when given (memory-mapped), else seeded
        (torch-compatible tables compute only the rows that are asked for).

    Raises
    ------
    EmbedvizError
        For conflicting sizes, a bad file, or a bad seed or size.
    """
    if options.weights is not None:
        source = (
            f"model {model_name(options.model)}"
            if options.model
            else f"{Path(options.weights).name}"
        )
        # Memory-mapped: only the rows a scene shows are ever read.
        table: Table = FileTable.open(options.weights, options.tensor, source)
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


def snap_seconds(value: float) -> float:
    """Round a time to whole ticks so beats start on a frame at any frame rate."""
    return round(round(value / _TICK) * _TICK, 6)


class Recorder:
    """Collects beats, freezing the screen after each one.

    Parameters
    ----------
    window
        The visible part of the matrix.
    shape
        The lookup's full output shape.
    """

    def __init__(self, window: Window, shape: tuple[int, ...]) -> None:
        self.screen = Screen()
        self.window = window
        self.beats: list[Beat] = []
        self.output: OutputState | None = None
        self.shape = shape
        self.dimmed: tuple[int, ...] = ()
        # Provenance: the first output position that each token ID filled.
        self.first_filled: dict[int, tuple[int, ...]] = {}

    def beat(
        self,
        name: str,
        action: Action,
        narration: str,
        run_time: float,
        highlight: Highlight | None = None,
        min_hold: float = 1.0,
    ) -> None:
        """Freeze the screen into a new beat; it lasts long enough to read.

        The narration is split into phrases (caption cues), each held for as
        long as reading it takes; the beat lasts at least as long as its
        animation plus ``min_hold``, and at least as long as its phrases.
        """
        phrases = make_phrases(narration, spoken_form)
        reading = sum(phrase.duration for phrase in phrases)
        duration = max(snap_seconds(run_time + min_hold), ceil_ticks(reading))
        self.beats.append(
            Beat(
                name=name,
                action=action,
                narration=narration,
                run_time=snap_seconds(run_time),
                duration=duration,
                highlight=highlight,
                window=self.window,
                dimmed_rows=self.dimmed,
                output=self.output,
                numbers=self.screen.frozen_numbers(),
                labels=self.screen.frozen_labels(),
                phrases=phrases,
            )
        )

    def fill_output(
        self,
        position: tuple[int, ...],
        row: npt.NDArray[np.float32],
        token_id: int | None = None,
    ) -> None:
        """Land a looked-up row in the output block (visible columns only).

        Parameters
        ----------
        position
            The output position.
        row
            The looked-up row.
        token_id
            When given, the row carries its provenance: an ``output_id`` cell
            (the ID it came from, drawn in the chip colour beside the row), and,
            when an earlier position holds the same ID, an ``equal_to`` cell
            drawn ``= out[0]`` (its value is that earlier position) that marks
            the two rows as equal.
        """
        for col in self.window.cols:
            self.screen.add(value_cell("output", (*position, col), row[col]))
        if token_id is not None:
            self.screen.add(int_cell("output_id", position, token_id))
            first = self.first_filled.setdefault(token_id, position)
            if first != position:
                where = ",".join(str(i) for i in first)
                self.screen.add(NumberCell("equal_to", position, f"= out[{where}]", first[-1]))
        assert self.output is not None
        self.output = OutputState(
            self.output.shape, (*self.output.filled, position), self.output.shape_labelled
        )

    def show_output_frame(self, positions: list[tuple[int, ...]]) -> None:
        """Show the empty output block with its row labels."""
        self.output = OutputState(self.shape)
        for position in positions:
            self.screen.add(int_cell("position", position, position[-1]))


def intro_sentence(table: Table) -> str:
    """Introduce the matrix and its shape."""
    return (
        f"The embedding layer stores a {table.vocab_size} \u00d7 {table.dim} matrix: "
        f"one row per vocabulary entry, one column per embedding dimension."
    )


def lookup_row_sentence(token_id: int) -> str:
    """Say that an ID is a zero-based row number.

    One sentence, so that it is one caption phrase: the chip's walk to the
    row plays while it is read, and the copy waits for the next phrase.
    """
    return (
        f"ID {token_id} is a row number, not a quantity: counting from zero, "
        f"row {token_id} is the {ordinal(token_id + 1)} row."
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
        Makes its storyboard from options (and ``legend=False`` when a
        longer video has already shown the colour legend).
    order
        Its place in teaching order (and in ``FullExplainer``).
    examples
        Non-default options that tests also render (long ID lists, large d,
        ...), as command-line style values.
    defaults
        This scene's own defaults where they differ from every other
        scene's (e.g. a GPT-2-sized table); files, environment and flags
        still override them.
    """

    name: str
    alias: str
    module: str
    summary: str
    build: Callable[..., Storyboard]
    order: int = 100
    examples: tuple[dict[str, Any], ...] = field(default=())
    defaults: dict[str, Any] = field(default_factory=dict)

    def make(self, options: SceneOptions) -> Storyboard:
        """Build the storyboard, with token pieces on the chips when IDs came from text.

        Every beat is then described (:func:`embedviz.story.describe.describe`):
        what it shows that its narration does not say.

        Parameters
        ----------
        options
            Resolved (and prepared) options.

        Returns
        -------
        Storyboard
            The scene data.
        """
        from embedviz.story.contract import input_files

        board = describe(attach_pieces(self.build(options), options.pieces))
        pinned = input_files(options)
        return replace(board, inputs=pinned) if pinned else board


def attach_pieces(board: Storyboard, pieces: tuple[str, ...] | None) -> Storyboard:
    """Record each visible token chip's text piece among its beat's labels.

    Parameters
    ----------
    board
        A storyboard built from IDs that came from text.
    pieces
        The token strings, one per position of a sequence; ``None`` when the
        IDs were given directly.

    Returns
    -------
    Storyboard
        The same scene; in every beat, each ``token_id`` cell's piece (e.g.
        ``##bed``) is also on screen, drawn above its chip, and each
        ``output_id`` cell's piece beside its output row.
    """
    if not pieces:
        return board
    beats = []
    for beat in board.beats:
        shown = sorted(
            cell.index for cell in beat.numbers if cell.kind in ("token_id", "output_id")
        )
        extra = {
            f"piece_{index[-1]}": pieces[index[-1]] for index in shown if index[-1] < len(pieces)
        }
        beats.append(replace(beat, labels={**beat.labels, **extra}))
    return replace(board, beats=tuple(beats))


def sequence_ids(
    ids: object, vocab_size: int, *, scene: str, limit: int, example: str
) -> list[int]:
    """Validate the IDs of a scene that shows one sequence.

    Parameters
    ----------
    ids
        The IDs as given (a list, or nested lists for a batch).
    vocab_size
        ``V``.
    scene
        The scene's name, for messages.
    limit
        The most tokens the scene shows legibly.
    example
        Example IDs for the message, e.g. ``2,3,5,1``.

    Returns
    -------
    list of int
        The IDs.

    Raises
    ------
    EmbedvizError
        For any bad ID, a batch, or more than ``limit`` IDs.
    """
    checked = validate_ids(ids, vocab_size)
    if checked.ndim != 1:
        raise EmbedvizError(
            f"{scene} shows one sequence, but the IDs have shape {checked.shape}; "
            f"give comma-separated IDs such as {example}"
        )
    if checked.size > limit:
        raise EmbedvizError(
            f"{scene} shows at most {limit} tokens legibly, but {checked.size} were given"
        )
    return [int(i) for i in checked]
