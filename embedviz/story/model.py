"""Scene data: frozen dataclasses that describe a scene beat by beat.

A :class:`Storyboard` is everything a renderer needs and everything a test
needs to check it: which token is highlighted, which part of the matrix is
visible, every number on screen with the exact string shown and the float
behind it, every other label, the narration and the timing. It serialises to
JSON, which is what the snapshot tests pin.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

__all__ = [
    "Beat",
    "Gap",
    "Highlight",
    "NumberCell",
    "OutputState",
    "Phrase",
    "Storyboard",
    "Window",
]


@dataclass(frozen=True)
class NumberCell:
    """One number drawn on screen.

    Attributes
    ----------
    kind
        What it is: ``weight`` (a table cell, index ``(row, col)``),
        ``output`` (an output cell, index ``position + (col,)``),
        ``printed`` (a value inside the PyTorch-style print, same index as
        ``output``), ``row_label`` (a zero-based row number, ``(row,)``),
        ``col_label`` (``(col,)``), ``token_id`` (an input chip,
        ``position``), ``position`` (an output row label, ``position``) or
        ``size`` (a dimension of a shape label, ``(axis,)``).
    index
        Where it sits, as described for ``kind``.
    text
        The exact string drawn.
    value
        The value behind it: a float32 widened to float for table values,
        a whole number for indices and sizes.
    """

    kind: str
    index: tuple[int, ...]
    text: str
    value: float


@dataclass(frozen=True)
class Gap:
    """A hidden range of rows or columns in an elided grid.

    Attributes
    ----------
    first, last
        The first and last hidden index, inclusive.
    label
        The exact label drawn in the gap, e.g. ``rows 6–4818 not shown``.
    """

    first: int
    last: int
    label: str


@dataclass(frozen=True)
class Window:
    """The visible part of the V×d matrix.

    Attributes
    ----------
    rows
        Row indices drawn, ascending.
    cols
        Column indices drawn, ascending.
    row_gaps
        Hidden row ranges, each drawn as one elision row.
    col_gaps
        Hidden column ranges, each drawn as one elision column.
    """

    rows: tuple[int, ...]
    cols: tuple[int, ...]
    row_gaps: tuple[Gap, ...] = ()
    col_gaps: tuple[Gap, ...] = ()


@dataclass(frozen=True)
class Highlight:
    """The token a beat is about.

    Attributes
    ----------
    position
        Its position in the input: ``(t,)`` for a sequence.
    token_id
        The ID at that position.
    row
        The zero-based row index it selects (equal to the ID).
    """

    position: tuple[int, ...]
    token_id: int
    row: int


@dataclass(frozen=True)
class OutputState:
    """The output block after a beat.

    Attributes
    ----------
    shape
        The full lookup shape, e.g. ``(4, 3)``.
    filled
        Positions whose rows have landed, in landing order.
    shape_labelled
        Whether the shape label is shown.
    """

    shape: tuple[int, ...]
    filled: tuple[tuple[int, ...], ...] = ()
    shape_labelled: bool = False


@dataclass(frozen=True)
class Phrase:
    """One caption cue of a beat's narration, and what is said while it shows.

    Attributes
    ----------
    text
        The written form, shown as the caption (at most two lines of 42
        characters; see :mod:`embedviz.story.phrases`).
    spoken
        The same words as they are spoken (``4 × 3`` becomes ``4 by 3``);
        an author may correct a pronunciation here.
    start
        When the phrase starts, in seconds from the start of its beat. Its
        caption cue and its speech start then.
    duration
        How long it is held, in seconds: long enough to read (or, with a
        voice, to say) plus a short pause.
    """

    text: str
    spoken: str
    start: float
    duration: float


@dataclass(frozen=True)
class Beat:
    """One step of a scene: an animation, then a hold while it is read.

    Attributes
    ----------
    name
        A unique, stable name, e.g. ``lookup-2``.
    action
        What the renderer animates; each action has one factory.
    narration
        The sentence shown (and later spoken) during the beat.
    run_time
        Seconds of animation.
    duration
        Seconds the beat lasts in total (animation plus hold).
    highlight
        The token in focus, if any.
    window
        The visible part of the matrix after the beat.
    dimmed_rows
        Visible rows drawn faded after the beat.
    output
        The output block after the beat, if it is on screen.
    numbers
        Every number on screen after the beat.
    labels
        Every other label on screen after the beat (code, printed
        punctuation, gap labels, questions), excluding the narration.
    phrases
        The narration split into caption cues, back to back from the
        beat's start; their durations add up to at most ``duration``.
        Empty when there is no narration.
    """

    name: str
    action: str
    narration: str
    run_time: float
    duration: float
    highlight: Highlight | None
    window: Window
    dimmed_rows: tuple[int, ...]
    output: OutputState | None
    numbers: tuple[NumberCell, ...]
    labels: tuple[str, ...] = ()
    phrases: tuple[Phrase, ...] = ()

    @property
    def phrase_time(self) -> float:
        """Seconds the phrases need together (at most :attr:`duration`)."""
        return round(sum(phrase.duration for phrase in self.phrases), 6)


@dataclass(frozen=True)
class Storyboard:
    """A whole scene.

    Attributes
    ----------
    scene
        The scene's class name, e.g. ``SequenceLookup``.
    title
        The title shown at the top.
    options
        The resolved options it was built from (JSON-friendly).
    vocab_size, dim
        The table's shape.
    source
        Where the table's values came from.
    ids
        The token IDs, as nested lists (an int for a single ID).
    printed
        The PyTorch-style print of the lookup, when the scene shows it.
    beats
        The beats, in order.
    layout
        Which stage draws it (``lookup`` for the grid, chips and output).
    value_scale
        The magnitude at which table values get their strongest colour.
    parts
        For a composite scene (``FullExplainer``): the scenes it plays, in
        order, each as its own section. Its own ``beats`` are then empty.
    """

    scene: str
    title: str
    options: dict[str, Any]
    vocab_size: int
    dim: int
    source: str
    ids: Any
    beats: tuple[Beat, ...]
    printed: str | None = None
    layout: str = "lookup"
    value_scale: float = 1.0
    parts: tuple[Storyboard, ...] = ()
    version: int = field(default=1)

    def all_beats(self) -> tuple[Beat, ...]:
        """Return every beat that plays, the parts' beats in order for a composite."""
        if not self.parts:
            return self.beats
        return tuple(beat for part in self.parts for beat in part.all_beats())

    @property
    def duration(self) -> float:
        """Total seconds: the sum of the beats' durations."""
        return round(sum(beat.duration for beat in self.all_beats()), 6)

    def beat_start_times(self) -> list[float]:
        """Return the start time of every beat in :meth:`all_beats`, in seconds.

        Returns
        -------
        list of float
            Cumulative start times; the first beat starts at 0.
        """
        starts: list[float] = []
        elapsed = 0.0
        for beat in self.all_beats():
            starts.append(round(elapsed, 6))
            elapsed += beat.duration
        return starts

    def retimed(self, durations: Sequence[float]) -> Storyboard:
        """Return a copy whose beats last the given durations (e.g. to fit speech).

        Parameters
        ----------
        durations
            One duration per beat of :meth:`all_beats`, in order; each is at
            least that beat's run time.

        Returns
        -------
        Storyboard
            The same scene with new durations (parts retimed in place).

        Raises
        ------
        ValueError
            If the count is wrong, or a duration is shorter than its
            animation or than its phrases.
        """
        beats = self.all_beats()
        if len(durations) != len(beats):
            raise ValueError(f"{len(durations)} durations for {len(beats)} beats")
        queue = iter(durations)

        def retime(board: Storyboard) -> Storyboard:
            if board.parts:
                return replace(board, parts=tuple(retime(part) for part in board.parts))
            new_beats = []
            for beat in board.beats:
                duration = round(float(next(queue)), 6)
                if duration < beat.run_time:
                    raise ValueError(f"beat {beat.name} cannot be shorter than its animation")
                if duration < beat.phrase_time - 1e-6:
                    raise ValueError(f"beat {beat.name} cannot be shorter than its phrases")
                new_beats.append(replace(beat, duration=duration))
            return replace(board, beats=tuple(new_beats))

        return retime(self)

    def to_dict(self) -> dict[str, Any]:
        """Return the storyboard as plain JSON-ready data.

        Returns
        -------
        dict
            Tuples become lists; the total duration is included, for every
            part too.
        """
        data = asdict(self)
        data["duration"] = self.duration
        data["parts"] = [part.to_dict() for part in self.parts]
        return data

    def to_json(self, indent: int | None = 2) -> str:
        """Serialise the storyboard to JSON.

        Parameters
        ----------
        indent
            JSON indentation; ``None`` for one line.

        Returns
        -------
        str
            The JSON text, with keys in a stable order.
        """
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)
