"""Shared pieces of every storyboard: tables, timing, the beat recorder."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import IdList, validate_ids
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
from embedviz.story.layouts import LAYOUTS
from embedviz.story.model import (
    Action,
    Beat,
    Highlight,
    NumberCell,
    OutputState,
    Storyboard,
    TokenIds,
    Window,
)
from embedviz.story.options import SceneOptions
from embedviz.story.phrases import TICK, ceil_ticks, make_phrases
from embedviz.story.screen import Screen, int_cell, value_cell
from embedviz.story.spoken import spoken_form
from embedviz.story.words import Words

__all__ = [
    "GRAD_FN",
    "MAX_SEQUENCE_TOKENS",
    "Recorder",
    "SceneSpec",
    "Shaped",
    "TableShape",
    "attach_pieces",
    "intro_sentence",
    "lookup_row_sentence",
    "make_table",
    "ordinal",
    "pieces_sentence",
    "sequence_ids",
    "snap_seconds",
]

MAX_SEQUENCE_TOKENS = 12
# Seconds a lookup at teaching pace needs from the phrase that fetches its row: the
# chip walks to its row and leads the row's copy home, at a pace a room can follow
# (the renderer's chip pace: a walk across most of the frame and back takes about 5 s).
FETCH_SECONDS = 5.0
GRAD_FN = "EmbeddingBackward0"
# Durations are whole multiples of a tick so beats start on a frame at 15,
# 30 and 60 frames per second alike.
_TICK = TICK


def ordinal(n: int, words: Words | None = None) -> str:
    """Return ``1st``, ``2nd``, ``3rd``, ``4th``, ... for a one-based count.

    Parameters
    ----------
    n
        A positive count.
    words
        A storyboard's words: the English rule picks the word
        ``ordinal_st``, ``ordinal_nd``, ``ordinal_rd`` or ``ordinal_th``
        (``{n}st`` ...), which a translation may write differently
        (``{n}.`` in German). Plain English when not given.

    Returns
    -------
    str
        The ordinal.
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}" if words is None else words(f"ordinal_{suffix}", n=n)


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
    words
        The storyboard's words (:meth:`SceneSpec.words`), which fill the
        labels a viewer reads; English when not given.
    """

    def __init__(self, window: Window, shape: tuple[int, ...], words: Words | None = None) -> None:
        self.words = words if words is not None else Words()
        self.screen = Screen() if words is None else Screen(words=words)
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
        last_phrase: float = 0.0,
        first_phrase: float = 0.0,
    ) -> None:
        """Freeze the screen into a new beat; it lasts long enough to read.

        The narration is split into phrases (caption cues), each held for as
        long as reading it takes; the beat lasts at least as long as its
        animation plus ``min_hold``, and at least as long as its phrases. From
        its last phrase's start it lasts at least ``last_phrase`` seconds: the
        time the motion that phrase plays needs (see :data:`FETCH_SECONDS`).
        Its first phrase, when another follows, is held at least ``first_phrase``
        seconds (the next starts that late): the time the motion it plays needs.
        """
        phrases = make_phrases(narration, spoken_form)
        if len(phrases) > 1 and first_phrase > phrases[0].duration:
            later = ceil_ticks(first_phrase - phrases[0].duration)
            phrases = (
                replace(phrases[0], duration=phrases[0].duration + later),
                *(replace(p, start=p.start + later) for p in phrases[1:]),
            )
        reading = sum(phrase.duration for phrase in phrases)
        duration = max(snap_seconds(run_time + min_hold), ceil_ticks(reading))
        if phrases and last_phrase > 0:
            duration = max(duration, ceil_ticks(phrases[-1].start + last_phrase))
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
        chip_becomes_tag: bool = False,
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
            that marks the two rows as equal. Its value is the earlier
            position; its text names both rows (``out[8] = out[0]``, or
            ``out[1,2] = out[0,0]`` in a batch), so that it never reads as a
            number equal to a row (``8 = out[0]``) beside the row's position
            index (issue 18).
        chip_becomes_tag
            The input chip at this position is the row's tag from now on (one
            ID, one object): its ``token_id`` cell leaves the screen as the
            ``output_id`` cell arrives.
        """
        for col in self.window.cols:
            self.screen.add(value_cell("output", (*position, col), row[col]))
        if token_id is not None:
            if chip_becomes_tag:
                self.screen.numbers.pop(("token_id", position), None)
            self.screen.add(int_cell("output_id", position, token_id))
            first = self.first_filled.setdefault(token_id, position)
            if first != position:
                where = ",".join(str(i) for i in first)
                here = ",".join(str(i) for i in position)
                text = f"out[{here}] = out[{where}]"
                self.screen.add(NumberCell("equal_to", position, text, first[-1]))
        assert self.output is not None
        self.output = OutputState(
            self.output.shape, (*self.output.filled, position), self.output.shape_labelled
        )

    def show_output_frame(self, positions: list[tuple[int, ...]]) -> None:
        """Show the empty output block with its row labels."""
        self.output = OutputState(self.shape)
        for position in positions:
            self.screen.add(int_cell("position", position, position[-1]))

    def label_output_shape(self) -> None:
        """Show the output block's shape label from now on."""
        assert self.output is not None
        self.output = OutputState(self.output.shape, self.output.filled, shape_labelled=True)

    def finish(
        self,
        spec: SceneSpec,
        options: SceneOptions,
        table: Shaped,
        ids: TokenIds,
        value_scale: float,
        *,
        printed: str | None = None,
    ) -> Storyboard:
        """Return the storyboard of the recorded beats: every builder's last step.

        Parameters
        ----------
        spec
            The scene: its name, title and layout.
        options
            The options it was built from.
        table
            The table's shape and origin.
        ids
            The token IDs shown.
        value_scale
            The colour scale of the values shown.
        printed
            The PyTorch-style print, when the scene shows one.

        Returns
        -------
        Storyboard
            The scene data, with the recorder's words and the scene's title
            and summary. When the IDs came from text, the first beat's
            narration first says how the text splits into token pieces
            (:func:`pieces_sentence`), and each chip's piece is among its
            beat's labels (see :func:`attach_pieces`). Every beat is then
            described (:func:`embedviz.story.describe.describe`): what it
            shows that its narration does not say.
        """
        beats = list(self.beats)
        if options.text is not None and options.pieces and beats:
            beats[0] = _told_pieces(beats[0], options.text, options.pieces, options.max_tokens)
        board = Storyboard(
            scene=spec.name,
            title=spec.title,
            summary=spec.summary,
            options=options,
            vocab_size=table.vocab_size,
            dim=table.dim,
            source=table.source,
            ids=ids,
            beats=tuple(beats),
            value_scale=value_scale,
            printed=printed,
            layout=spec.layout,
            words=dict(self.words.texts),
        )
        return describe(attach_pieces(board, options.pieces))


class Shaped(Protocol):
    """A table's shape and origin, all a storyboard records of it."""

    @property
    def vocab_size(self) -> int:
        """``V``."""

    @property
    def dim(self) -> int:
        """``d``."""

    @property
    def source(self) -> str:
        """Where the values came from."""


@dataclass(frozen=True)
class TableShape:
    """The shape and origin of a table a scene never builds whole (see :class:`Shaped`).

    Attributes
    ----------
    vocab_size, dim
        ``V`` and ``d``.
    source
        Where the values come from.
    """

    vocab_size: int
    dim: int
    source: str


def pieces_sentence(text: str, pieces: tuple[str, ...], max_tokens: int | None = None) -> str:
    """Say how a text splits into token pieces, e.g. ``'Embeddings' splits into em, ##bed, ...``.

    Parameters
    ----------
    text
        The text as given (``--text``).
    pieces
        Its token pieces, in order (special tokens included where kept).
    max_tokens
        The limit ``--max-tokens`` set, if any: when the pieces reach it,
        the sentence says that only the first ones are shown.

    Returns
    -------
    str
        One sentence naming every piece, so that the pieces reach the
        narration, its captions and the transcript.
    """
    listed = ", ".join(pieces)
    if max_tokens is not None and len(pieces) >= max_tokens:
        return f"'{text}' splits into token pieces; the first {len(pieces)} are {listed}."
    if len(pieces) == 1:
        return f"'{text}' is a single token piece, {listed}."
    return f"'{text}' splits into {len(pieces)} token pieces: {listed}."


def _told_pieces(beat: Beat, text: str, pieces: tuple[str, ...], max_tokens: int | None) -> Beat:
    """Begin a beat's narration with how the text splits; hold the beat long enough to read it."""
    narration = f"{pieces_sentence(text, pieces, max_tokens)} {beat.narration}"
    phrases = make_phrases(narration, spoken_form)
    reading = ceil_ticks(sum(phrase.duration for phrase in phrases))
    return replace(beat, narration=narration, phrases=phrases, duration=max(beat.duration, reading))


def and_list(items: Sequence[object]) -> str:
    """Write items as a spoken list: ``0``, ``0 and 2``, ``0, 2 and 5``.

    Parameters
    ----------
    items
        What to list, in order (written with ``str``); at least one.

    Returns
    -------
    str
        The items joined by commas, the last by "and".
    """
    words = [str(item) for item in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def intro_sentence(table: Table) -> str:
    """Introduce the matrix and its shape."""
    return (
        f"The embedding layer stores a {table.vocab_size} \u00d7 {table.dim} matrix. "
        f"It has one row per vocabulary entry and one column per embedding dimension."
    )


def lookup_row_sentence(token_id: int) -> str:
    """Say that an ID is a zero-based row number.

    One sentence, so that it is one caption phrase: the chip's walk to the
    row plays while it is read, and the copy waits for the next phrase.
    """
    return (
        f"ID {token_id} is a row number, not a quantity: the {ordinal(token_id + 1)} row, "
        "counting from zero."
    )


@dataclass(frozen=True)
class SceneSpec:
    """A scene that can be rendered: everything about it that is not a beat.

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
    title
        The title shown at the top of the video.
    layout
        Which stage draws it (see :mod:`embedviz.story.layouts`).
    default_ids
        The token IDs it shows when the options give none; the one place
        they are declared.
    order
        Its place in teaching order (and in ``FullExplainer``).
    examples
        Non-default options that tests also render (long ID lists, large d,
        ...), as command-line style values.
    defaults
        This scene's own defaults where they differ from every other
        scene's (e.g. a GPT-2-sized table); files, environment and flags
        still override them.
    plays
        For a composite scene, the scenes it plays in order; the registry
        (:mod:`embedviz.story.scenes`) fills it in, so that the composite's
        module needs no list of scenes.
    """

    name: str
    alias: str
    module: str
    summary: str
    build: Callable[..., Storyboard]
    title: str = ""
    layout: str = "lookup"
    default_ids: IdList | None = None
    order: int = 100
    examples: tuple[dict[str, Any], ...] = field(default=())
    defaults: dict[str, Any] = field(default_factory=dict)
    plays: tuple[SceneSpec, ...] = ()

    def ids(self, options: SceneOptions) -> Any:
        """Return the IDs to show: the options', else this scene's default (not yet validated).

        Parameters
        ----------
        options
            Resolved options.

        Returns
        -------
        object
            ``options.ids`` when given, else a fresh copy of :attr:`default_ids`.
        """
        if options.ids is not None:
            return options.ids
        default = self.default_ids
        if isinstance(default, list):
            return [list(row) if isinstance(row, list) else row for row in default]
        return default

    def words(self, given: Mapping[str, str] | None = None) -> Words:
        """Return the scene's words: its layout's English ones, with any given ones instead.

        Parameters
        ----------
        given
            Words by role, e.g. a storyboard's translated ones.

        Returns
        -------
        Words
            Every word the layout declares (a role the layout does not
            declare is kept, for the storyboard to refuse).
        """
        return Words({**LAYOUTS[self.layout].words, **(given or {})})

    def make(
        self,
        options: SceneOptions,
        *,
        legend: bool = True,
        words: Mapping[str, str] | None = None,
        part_words: Mapping[str, Mapping[str, str]] | None = None,
    ) -> Storyboard:
        """Build the storyboard from prepared options.

        Parameters
        ----------
        options
            Resolved and prepared options (text already tokenised; see
            :func:`embedviz.inputs.prepared_storyboard`, the one entry point
            from user input).
        legend
            Whether the colour legend appears (only the first time in a
            longer video).
        words
            The words to fill labels, chapters and page headings with
            (e.g. a translation); English where not given.
        part_words
            For a composite scene, each part's words by scene name.

        Returns
        -------
        Storyboard
            The scene data.
        """
        if self.plays:
            return self.build(
                options, legend=legend, plays=self.plays, words=words, part_words=part_words
            )
        return self.build(options, legend=legend, words=words)


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
