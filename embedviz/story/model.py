"""Scene data: frozen, validated dataclasses that describe a scene beat by beat.

A :class:`Storyboard` is everything a renderer needs and everything a test
needs to check it: which token is highlighted, which part of the matrix is
visible, every number on screen with the exact string shown and the float
behind it, every other label keyed by its role, the words people read
(headings, column headers, label templates, chapter names, the course
page's headings) keyed by theirs, the narration and the timing.

It is a published contract: every value is checked when it is constructed
(or loaded), the errors name the beat and the field, and it serialises to
versioned JSON whose JSON Schema is generated from these classes (see
:mod:`embedviz.story.contract`). Which number kinds, beat actions, label
roles and words each layout may use is declared by the layout itself, in its
module under :mod:`embedviz.story.layouts`; this module knows no layout.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from difflib import get_close_matches
from typing import Any, Literal

from embedviz.core.errors import EmbedvizError
from embedviz.story.describe_words import (
    DESCRIPTION_WORDS,
    MAX_DESCRIPTION_CHARS,
    fill_template,
    template_slots,
)
from embedviz.story.layouts import ALL_ACTIONS, ALL_KINDS, LAYOUTS
from embedviz.story.options import SceneOptions
from embedviz.story.spoken import speaker_for
from embedviz.story.vocabulary import LayoutSpec
from embedviz.story.words import max_chars, template_problem

__all__ = [
    "LAYOUTS",
    "MAX_BEAT_SECONDS",
    "MAX_NARRATION_CHARS",
    "SCHEMA_URL",
    "SCHEMA_VERSION",
    "Action",
    "Beat",
    "Description",
    "Gap",
    "Highlight",
    "InputFile",
    "InputRole",
    "Layout",
    "LayoutSpec",
    "NumberCell",
    "NumberKind",
    "OutputState",
    "Phrase",
    "Slot",
    "Storyboard",
    "StoryboardError",
    "TokenIds",
    "Window",
]

# The storyboard JSON format; a file names the version it was written in.
SCHEMA_VERSION = 3
# The identifier (``$id``) of this version's JSON Schema (``embedviz storyboard --schema``).
SCHEMA_URL = f"urn:embedviz:storyboard:{SCHEMA_VERSION}"
# The longest a beat may last, and the shortest animation, in seconds.
MAX_BEAT_SECONDS = 600.0
MIN_RUN_TIME = 0.1
# The most a beat's narration may hold, in characters (the longest built-in is 150).
MAX_NARRATION_CHARS = 2000
# Rounding allowed when phrase times are compared (they are kept to the millisecond).
_TIME_SLACK = 1e-6

# A layout's name (one of :data:`LAYOUTS`), a number's kind and a beat's action
# (each declared by some layout, :data:`~embedviz.story.layouts.ALL_KINDS` and
# :data:`~embedviz.story.layouts.ALL_ACTIONS`): plain strings, checked when a
# storyboard is built or loaded, and enumerated in the JSON Schema.
Layout = str
NumberKind = str
Action = str
# Token IDs: one ID, a sequence, or a batch of sequences.
TokenIds = int | tuple[int, ...] | tuple[tuple[int, ...], ...] | None

# A well-formed BCP 47 tag (language, script, region, variants), e.g. de, pt-BR.
_BCP47 = re.compile(
    r"[A-Za-z]{2,3}(-[A-Za-z]{4})?(-(?:[A-Za-z]{2}|[0-9]{3}))?"
    r"(-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*"
)
_BEAT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_ROLE = re.compile(r"[a-z][a-z0-9_]*")


class StoryboardError(EmbedvizError):
    """A storyboard that breaks the contract; the message names the beat and field."""


def _checked_words(where: str, layout: str, words: object) -> dict[str, str]:
    """Check a storyboard's words against its layout; derive the English ones if none."""
    if not isinstance(words, Mapping):
        raise StoryboardError(f"{where}: field 'words' must map word roles to text")
    english = LAYOUTS[layout].words if layout in LAYOUTS else {}
    expected = set(english)
    if not words:
        return dict(sorted(english.items()))
    checked = dict(sorted(words.items()))
    for role, text in checked.items():
        if role not in expected:
            close = get_close_matches(str(role), sorted(expected), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            _fail(where, f"word {role!r}: not a word role of {layout}{hint}")
        if not isinstance(text, str) or not text.strip():
            _fail(where, f"word {role!r} must be non-empty text, not {text!r}")
        if "\n" in text or "\r" in text or not text.isprintable():
            _fail(where, f"word {role!r} must be one line of printable text, not {text!r}")
        if len(text) > max_chars(role):
            _fail(where, f"word {role!r} is {len(text)} characters; at most {max_chars(role)}")
        problem = template_problem(text, english[role])
        if problem:
            _fail(where, f"word {role!r} {problem}")
    missing = sorted(expected - set(checked))
    if missing:
        _fail(where, f"word {missing[0]!r} is missing; the {layout} layout draws it")
    return checked


def _fail(where: str, message: str) -> None:
    raise StoryboardError(f"{where}: {message}")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seconds(where: str, name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        _fail(where, f"field '{name}' must be a finite number of seconds, not {value!r}")
    return float(value)  # type: ignore[arg-type]


def _set(obj: object, name: str, value: object) -> None:
    object.__setattr__(obj, name, value)


def _int_tuple(where: str, name: str, value: object) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(_whole(v) for v in value):
        _fail(where, f"field '{name}' must be a list of whole numbers, not {value!r}")
    return tuple(value)  # type: ignore[arg-type]


@dataclass(frozen=True)
class NumberCell:
    """One number drawn on screen.

    Attributes
    ----------
    kind
        What it is: one of :data:`NumberKind`, those a layout may show being
        declared in :data:`LAYOUTS`. For example ``weight`` (a table cell,
        index ``(row, col)``), ``output`` (an output cell, index
        ``position + (col,)``), ``printed`` (a value inside the PyTorch-style
        print, same index as ``output``), ``row_label`` (a zero-based row
        number, ``(row,)``), ``col_label`` (``(col,)``), ``token_id`` (an
        input chip, ``position``), ``position`` (an output row label) or
        ``table_size`` (a dimension of the table's shape label, ``(axis,)``).
    index
        Where it sits, as described for ``kind``.
    text
        The exact string drawn.
    value
        The value behind it: a float32 widened to float for table values,
        a whole number for indices and sizes.
    """

    kind: NumberKind
    index: tuple[int, ...]
    text: str
    value: float

    def __post_init__(self) -> None:
        where = f"cell {self.kind} {tuple(self.index)}"
        if self.kind not in ALL_KINDS:
            _fail(where, f"field 'kind': unknown number kind {self.kind!r}")
        _set(self, "index", _int_tuple(where, "index", self.index))
        if not isinstance(self.text, str) or not self.text:
            _fail(where, f"field 'text' must be a non-empty string, not {self.text!r}")
        value = self.value
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            _fail(where, f"field 'value' must be a finite number, not {value!r}")
        _set(self, "value", float(value))


@dataclass(frozen=True)
class Gap:
    """A hidden range of rows or columns in an elided grid.

    Attributes
    ----------
    first, last
        The first and last hidden index, inclusive.
    label
        The exact label drawn in the gap, e.g. ``rows 6–4818 hidden``.
    """

    first: int
    last: int
    label: str

    def __post_init__(self) -> None:
        if not (_whole(self.first) and _whole(self.last) and 0 <= self.first <= self.last):
            _fail(f"gap {self.label!r}", f"needs 0 <= first <= last, not {self.first}..{self.last}")


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

    def __post_init__(self) -> None:
        for name in ("rows", "cols"):
            values = _int_tuple("window", name, getattr(self, name))
            if list(values) != sorted(set(values)) or (values and values[0] < 0):
                _fail("window", f"field '{name}' must be ascending, distinct and >= 0")
            _set(self, name, values)
        _set(self, "row_gaps", tuple(self.row_gaps))
        _set(self, "col_gaps", tuple(self.col_gaps))


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

    def __post_init__(self) -> None:
        _set(self, "position", _int_tuple("highlight", "position", self.position))
        if not (_whole(self.token_id) and _whole(self.row) and self.row >= 0):
            _fail("highlight", f"needs whole numbers, not {self.token_id!r}, {self.row!r}")


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

    def __post_init__(self) -> None:
        _set(self, "shape", _int_tuple("output", "shape", self.shape))
        _set(self, "filled", tuple(_int_tuple("output", "filled", p) for p in self.filled))


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


def _check_phrase_timing(where: str, phrases: tuple[Phrase, ...], duration: float) -> None:
    """Phrases start at 0 or later, last a positive time, follow each other, end in the beat.

    So every caption cue starts before it ends, and none outlasts its beat.
    """
    previous_end = 0.0
    for number, phrase in enumerate(phrases):
        field_name = f"phrases[{number}]"
        if not (isinstance(phrase.text, str) and isinstance(phrase.spoken, str)):
            _fail(where, f"phrase {number}: 'text' and 'spoken' must be strings")
        start = _seconds(where, f"{field_name}.start", phrase.start)
        length = _seconds(where, f"{field_name}.duration", phrase.duration)
        if start < 0:
            _fail(where, f"field '{field_name}.start' {start:g} is negative")
        if length <= 0:
            _fail(where, f"field '{field_name}.duration' {length:g} is not positive")
        if start < previous_end - _TIME_SLACK:
            _fail(
                where,
                f"field '{field_name}.start' {start:g} is before phrase {number - 1} ends at "
                f"{previous_end:g}; phrases follow each other",
            )
        previous_end = start + length
    needed = round(sum(phrase.duration for phrase in phrases), 6)
    if needed > duration + _TIME_SLACK:
        _fail(
            where,
            f"field 'phrases' need {needed:g} s, longer than its duration {duration:g}; "
            "lengthen 'duration'",
        )
    if previous_end > duration + _TIME_SLACK:
        _fail(
            where,
            f"field 'phrases[{len(phrases) - 1}]' ends at {previous_end:g} s, after the beat's "
            f"duration {duration:g}; lengthen 'duration' or start the phrase earlier",
        )


@dataclass(frozen=True)
class Slot:
    """One filled placeholder of a description's sentence.

    Attributes
    ----------
    name
        The placeholder it fills, e.g. ``values`` for ``{values}``.
    text
        What it says, as the core wrote it: numbers exactly as drawn, code,
        prints, word pieces, labels.
    cells
        The numbers it says, each as drawn on screen; the text of every one
        appears in ``text``, and ``verify`` derives them again from the core.
    """

    name: str
    text: str
    cells: tuple[NumberCell, ...] = ()

    def __post_init__(self) -> None:
        where = f"slot {self.name!r}"
        if not isinstance(self.name, str) or not self.name.isidentifier():
            _fail(where, "field 'name' must be a plain name such as 'values'")
        if not isinstance(self.text, str) or not self.text.strip():
            _fail(where, f"field 'text' must be non-empty text, not {self.text!r}")
        cells = tuple(self.cells)
        _set(self, "cells", cells)
        for cell in cells:
            if cell.text not in self.text:
                _fail(where, f"cell {cell.kind} {cell.index} ({cell.text!r}) is not in its text")


@dataclass(frozen=True)
class Description:
    """One sentence of audio description: what a beat shows and its narration leaves unsaid.

    Attributes
    ----------
    template
        The role of its sentence in :attr:`Storyboard.description_words`,
        e.g. ``row_copy`` (see :mod:`embedviz.story.describe_words`).
    slots
        What fills the sentence's placeholders, derived from the core.
    text
        The sentence as written: the template filled with the slots. It is
        derived again whenever the template changes, so an author translates
        the descriptions by translating :attr:`Storyboard.description_words`.
    spoken
        The same words as a voice says them (``-0.2010`` as "minus 0.201"),
        derived with the maths verbaliser of the storyboard's language; an
        author may correct a pronunciation here.
    """

    template: str
    slots: tuple[Slot, ...]
    text: str = ""
    spoken: str = ""

    def __post_init__(self) -> None:
        where = f"description {self.template!r}"
        if not isinstance(self.template, str) or not _ROLE.fullmatch(self.template):
            _fail(where, "field 'template' must be lower-case letters, digits and '_'")
        slots = tuple(self.slots)
        _set(self, "slots", slots)
        names = [slot.name for slot in slots]
        if len(set(names)) != len(names):
            _fail(where, f"field 'slots' names a placeholder twice: {names}")
        for name in ("text", "spoken"):
            if not isinstance(getattr(self, name), str):
                _fail(where, f"field '{name}' must be a string")

    def slot_texts(self) -> dict[str, str]:
        """Return each slot's text by its placeholder name."""
        return {slot.name: slot.text for slot in self.slots}

    @property
    def cells(self) -> tuple[NumberCell, ...]:
        """Every number the description says, slot by slot."""
        return tuple(cell for slot in self.slots for cell in slot.cells)


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
        punctuation, gap labels, questions), excluding the narration, keyed
        by its role (``question``, ``row_gap_0``, ...). The renderer finds a
        label by its role, never by its text.
    phrases
        The narration split into caption cues, back to back from the
        beat's start; their durations add up to at most ``duration``.
        Empty when there is no narration.
    descriptions
        The audio description of the beat: what the picture shows after it
        that the narration does not say (values, code, prints, charts, word
        pieces, what a colour means), one sentence each, derived from the
        beat's own cells (:mod:`embedviz.story.describe`).
    """

    name: str
    action: Action
    narration: str
    run_time: float
    duration: float
    highlight: Highlight | None
    window: Window
    dimmed_rows: tuple[int, ...]
    output: OutputState | None
    numbers: tuple[NumberCell, ...]
    labels: dict[str, str] = field(default_factory=dict)
    phrases: tuple[Phrase, ...] = ()
    descriptions: tuple[Description, ...] = ()

    @property
    def phrase_time(self) -> float:
        """Seconds the phrases need together (at most :attr:`duration`)."""
        return round(sum(phrase.duration for phrase in self.phrases), 6)

    def __post_init__(self) -> None:
        where = f"beat {self.name!r}"
        if not isinstance(self.name, str) or not _BEAT_NAME.fullmatch(self.name):
            _fail(where, "field 'name' must be letters, digits, '_', '.' or '-'")
        if self.action not in ALL_ACTIONS:
            _fail(where, f"field 'action': unknown action {self.action!r}")
        if not isinstance(self.narration, str):
            _fail(where, f"field 'narration' must be a string, not {self.narration!r}")
        run_time = _seconds(where, "run_time", self.run_time)
        duration = _seconds(where, "duration", self.duration)
        if run_time < MIN_RUN_TIME:
            _fail(where, f"field 'run_time' {run_time} is shorter than {MIN_RUN_TIME} s")
        if duration < run_time:
            _fail(where, f"field 'duration' {duration} is shorter than its run_time {run_time}")
        if duration > MAX_BEAT_SECONDS:
            _fail(where, f"field 'duration' {duration} is longer than {MAX_BEAT_SECONDS:g} s")
        _set(self, "run_time", run_time)
        _set(self, "duration", duration)
        dimmed = _int_tuple(where, "dimmed_rows", self.dimmed_rows)
        _set(self, "dimmed_rows", dimmed)
        if not set(dimmed) <= set(self.window.rows):
            _fail(where, f"field 'dimmed_rows' {dimmed} are not all inside the window")
        numbers = tuple(self.numbers)
        _set(self, "numbers", numbers)
        seen: set[tuple[str, tuple[int, ...]]] = set()
        rows, cols = set(self.window.rows), set(self.window.cols)
        for cell in numbers:
            key = (cell.kind, cell.index)
            if key in seen:
                _fail(where, f"field 'numbers' holds cell {cell.kind} {cell.index} twice")
            seen.add(key)
            outside = (
                (cell.kind == "weight" and not (cell.index[0] in rows and cell.index[1] in cols))
                or (cell.kind == "row_label" and cell.index[0] not in rows)
                or (cell.kind == "col_label" and cell.index[0] not in cols)
            )
            if outside:
                _fail(where, f"cell {cell.kind} {cell.index} lies outside the window")
        if not isinstance(self.labels, Mapping):
            _fail(where, "field 'labels' must map roles to text")
        labels = dict(sorted(self.labels.items()))
        for role, text in labels.items():
            if not isinstance(role, str) or not _ROLE.fullmatch(role):
                _fail(where, f"label role {role!r} must be lower-case letters, digits and '_'")
            if not isinstance(text, str) or not text:
                _fail(where, f"label {role!r} must be a non-empty string, not {text!r}")
        _set(self, "labels", labels)
        if len(self.narration) > MAX_NARRATION_CHARS:
            _fail(
                where,
                f"field 'narration' has {len(self.narration):,} characters, more than the "
                f"{MAX_NARRATION_CHARS:,} a beat may say",
            )
        phrases = tuple(self.phrases)
        _set(self, "phrases", phrases)
        _check_phrase_timing(where, phrases, duration)
        descriptions = tuple(self.descriptions)
        _set(self, "descriptions", descriptions)
        if not all(isinstance(item, Description) for item in descriptions):
            _fail(where, "field 'descriptions' must hold descriptions")

    def label(self, role: str) -> str:
        """Return the text of the label with this role.

        Parameters
        ----------
        role
            E.g. ``question``.

        Returns
        -------
        str
            The exact text drawn.

        Raises
        ------
        KeyError
            If this beat shows no label with that role.
        """
        try:
            return self.labels[role]
        except KeyError:
            raise KeyError(f"beat {self.name!r} has no label with role {role!r}") from None

    def labels_with(self, prefix: str) -> list[str]:
        """Return the texts of the labels whose role starts with ``prefix``, in role order.

        Parameters
        ----------
        prefix
            A role family, e.g. ``term_gap_``.

        Returns
        -------
        list of str
            The texts, ordered by role.
        """
        return [text for role, text in self.labels.items() if role.startswith(prefix)]


# What an input file is to a storyboard.
InputRole = Literal["weights", "tokenizer"]


@dataclass(frozen=True)
class InputFile:
    """A file a storyboard was built from, pinned by its contents.

    Attributes
    ----------
    role
        ``weights`` (the table) or ``tokenizer``.
    path
        The path it was read from.
    sha256
        The SHA-256 of its bytes, as lower-case hex.
    """

    role: InputRole
    path: str
    sha256: str

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[0-9a-f]{64}", str(self.sha256)):
            _fail(f"input {self.role}", f"field 'sha256' is not a SHA-256, {self.sha256!r}")


def _checked_description_words(
    where: str, words: object, beats: tuple[Beat, ...]
) -> dict[str, str]:
    """Check a storyboard's description sentences; derive the English ones if there are none."""
    if not isinstance(words, Mapping):
        raise StoryboardError(f"{where}: field 'description_words' must map roles to sentences")
    slots: dict[str, tuple[str, set[str]]] = {}
    for beat in beats:
        for description in beat.descriptions:
            names = {slot.name for slot in description.slots}
            known = slots.setdefault(description.template, (beat.name, names))
            if known[1] != names:
                _fail(
                    f"{where}, beat {beat.name!r}",
                    f"description {description.template!r} fills {sorted(names)}, but in "
                    f"beat {known[0]!r} it fills {sorted(known[1])}",
                )
    used = set(slots)
    if not words:
        unknown = sorted(used - set(DESCRIPTION_WORDS))
        if unknown:
            _fail(where, f"description {unknown[0]!r} has no sentence in 'description_words'")
        return {role: DESCRIPTION_WORDS[role] for role in sorted(used)}
    checked = dict(sorted(words.items()))
    for role, text in checked.items():
        at = f"{where}, description word {role!r}"
        if role not in DESCRIPTION_WORDS:
            close = get_close_matches(str(role), sorted(DESCRIPTION_WORDS), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            _fail(where, f"description word {role!r}: not a description role{hint}")
        if not isinstance(text, str) or not text.strip():
            _fail(at, f"must be non-empty text, not {text!r}")
        if "\n" in text or "\r" in text or not text.isprintable():
            _fail(at, f"must be one line of printable text, not {text!r}")
        if len(text) > MAX_DESCRIPTION_CHARS:
            _fail(at, f"is {len(text)} characters; at most {MAX_DESCRIPTION_CHARS}")
        try:
            placeholders = template_slots(text)
        except ValueError as error:
            _fail(at, str(error))
        if role in slots and placeholders != slots[role][1]:
            wanted = ", ".join(f"{{{name}}}" for name in sorted(slots[role][1]))
            _fail(at, f"must have exactly the placeholders {wanted}, not {text!r}")
    missing = sorted(used - set(checked))
    if missing:
        _fail(where, f"description word {missing[0]!r} is missing; a beat's description uses it")
    return checked


def _worded_beats(
    words: Mapping[str, str], beats: tuple[Beat, ...], language: str
) -> tuple[Beat, ...]:
    """Write each description's text from its sentence; speak it again where the text changed."""
    # The maths verbaliser has rules for some languages; others are spoken as written.
    speak = speaker_for(language)
    worded: list[Beat] = []
    for beat in beats:
        descriptions = []
        for description in beat.descriptions:
            text = fill_template(words[description.template], description.slot_texts())
            if text != description.text or not description.spoken:
                description = replace(description, text=text, spoken=speak(text))
            descriptions.append(description)
        changed = tuple(descriptions) != beat.descriptions
        worded.append(replace(beat, descriptions=tuple(descriptions)) if changed else beat)
    return tuple(worded)


def _canonical_ids(value: object) -> TokenIds:
    if value is None or _whole(value):
        return value  # type: ignore[return-value]
    if isinstance(value, list | tuple):
        if all(_whole(v) for v in value):
            return tuple(value)
        if all(isinstance(v, list | tuple) and all(_whole(i) for i in v) for v in value):
            return tuple(tuple(v) for v in value)
    _fail("storyboard", f"field 'ids' must be an ID, a list or a list of lists, not {value!r}")
    return None


def _flat_ids(ids: TokenIds) -> list[int]:
    if ids is None:
        return []
    if isinstance(ids, int):
        return [ids]
    return [i for item in ids for i in (item if isinstance(item, tuple) else (item,))]


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
        The resolved options it was built from.
    vocab_size, dim
        The table's shape.
    source
        Where the table's values came from.
    ids
        The token IDs: one ID, a sequence, or a batch of sequences.
    beats
        The beats, in order.
    value_scale
        The magnitude at which table values get their strongest colour,
        computed by the builder from the values it shows.
    printed
        The PyTorch-style print of the lookup, when the scene shows it.
    layout
        Which stage draws it (``lookup`` for the grid, chips and output).
    parts
        For a composite scene (``FullExplainer``): the scenes it plays, in
        order, each as its own section. Its own ``beats`` are then empty.
    language
        The BCP 47 tag of the narration, title, summary and words, e.g.
        ``en`` or ``de``; captions, transcripts and the voice use it.
    summary
        One sentence about the scene, for the gallery of a course page;
        an author may translate it.
    words
        Every word people read that is not narration: on screen
        (headings, column headers, the legend's title, the labels of
        hidden rows), the chapters' names and the course page's headings
        and table captions, keyed by role; the layout declares which roles
        (:mod:`embedviz.story.layouts`). Some are templates whose
        placeholders (``{first}``) the builder fills with the core's
        numbers; a translation keeps exactly the English placeholders.
        Derived in English when empty or absent; an author may translate
        them. Each is one line of at most 48 characters (120 for the
        page's, ``page_...``).
    description_words
        The sentences of the beats' audio descriptions, keyed by the role
        each description names (:attr:`Description.template`), with
        ``{placeholders}`` for what the core fills in. Derived in English
        (:mod:`embedviz.story.describe_words`) when empty or absent; an
        author may translate them, and every description's text follows.
    inputs
        The files the table (and IDs) came from, with their SHA-256, so that
        a changed file is noticed.
    voice
        The speech engine that timed the beats, if any.
    version
        The storyboard format's version, :data:`SCHEMA_VERSION`.
    """

    scene: str
    title: str
    options: SceneOptions
    vocab_size: int
    dim: int
    source: str
    ids: TokenIds
    beats: tuple[Beat, ...]
    value_scale: float
    printed: str | None = None
    layout: Layout = "lookup"
    parts: tuple[Storyboard, ...] = ()
    language: str = "en"
    summary: str = ""
    words: dict[str, str] = field(default_factory=dict)
    description_words: dict[str, str] = field(default_factory=dict)
    inputs: tuple[InputFile, ...] = ()
    voice: str | None = None
    version: int = SCHEMA_VERSION

    def __post_init__(self) -> None:
        where = f"storyboard {self.scene!r}"
        if self.version != SCHEMA_VERSION:
            _fail(
                where,
                f"field 'version' is {self.version!r}; this embedviz writes and "
                f"reads version {SCHEMA_VERSION}",
            )
        if isinstance(self.options, Mapping):
            _set(self, "options", SceneOptions(**self.options))
        if not isinstance(self.options, SceneOptions):
            _fail(where, "field 'options' must be SceneOptions")
        if self.layout not in LAYOUTS:
            _fail(where, f"field 'layout': unknown layout {self.layout!r}")
        for name in ("vocab_size", "dim"):
            value = getattr(self, name)
            if not _whole(value) or value < 1:
                _fail(where, f"field '{name}' must be a whole number >= 1, not {value!r}")
        scale = self.value_scale
        if (
            isinstance(scale, bool)
            or not isinstance(scale, int | float)
            or not (math.isfinite(scale) and scale > 0)
        ):
            _fail(where, f"field 'value_scale' must be a positive number, not {scale!r}")
        _set(self, "value_scale", float(scale))
        if not isinstance(self.language, str) or not _BCP47.fullmatch(self.language):
            _fail(where, f"field 'language' {self.language!r} is not a BCP 47 tag such as 'de'")
        _set(self, "words", _checked_words(where, self.layout, self.words))
        ids = _canonical_ids(self.ids)
        _set(self, "ids", ids)
        for token_id in _flat_ids(ids):
            if not 0 <= token_id < self.vocab_size:
                _fail(where, f"field 'ids': ID {token_id} is outside 0..{self.vocab_size - 1}")
        beats = tuple(self.beats)
        parts = tuple(self.parts)
        _set(self, "beats", beats)
        _set(self, "parts", parts)
        _set(self, "inputs", tuple(self.inputs))
        if (self.layout == "composite") != bool(parts):
            _fail(where, "only a composite layout has parts, and it must have some")
        if parts and beats:
            _fail(where, "a composite storyboard plays its parts' beats, not its own")
        spec = LAYOUTS[self.layout]
        names: set[str] = set()
        for beat in beats:
            at = f"{where}, beat {beat.name!r}"
            if beat.name in names:
                _fail(at, "field 'name' is not unique")
            names.add(beat.name)
            if beat.action not in spec.actions:
                _fail(at, f"field 'action': {beat.action!r} is not an action of {self.layout}")
            for cell in beat.numbers:
                if cell.kind not in spec.kinds:
                    _fail(at, f"cell {cell.kind} {cell.index}: not a kind of {self.layout}")
            for role in beat.labels:
                if not spec.role_allowed(role):
                    _fail(at, f"label {role!r}: not a label role of {self.layout}")
            if beat.highlight is not None and beat.highlight.row >= self.vocab_size:
                _fail(at, f"field 'highlight': row {beat.highlight.row} is outside the table")
        _set(
            self,
            "description_words",
            _checked_description_words(where, self.description_words, beats),
        )
        _set(self, "beats", _worded_beats(self.description_words, beats, self.language))

    def word(self, role: str) -> str:
        """Return the UI word drawn for a role, as the storyboard gives it.

        Parameters
        ----------
        role
            A word role of this layout, e.g. ``token_ids``.

        Returns
        -------
        str
            The text to draw (English unless an author translated it).

        Raises
        ------
        KeyError
            If this storyboard's layout draws no word with that role.
        """
        try:
            return self.words[role]
        except KeyError:
            raise KeyError(f"storyboard {self.scene!r} has no word with role {role!r}") from None

    def single_id(self) -> int:
        """Return the one token ID of a scene about a single token.

        Returns
        -------
        int
            ``ids`` itself.

        Raises
        ------
        StoryboardError
            If ``ids`` is not one ID.
        """
        if not _whole(self.ids):
            raise StoryboardError(f"storyboard {self.scene!r}: 'ids' is not a single ID")
        return int(self.ids)  # type: ignore[arg-type]

    def all_beats(self) -> tuple[Beat, ...]:
        """Return every beat that plays, the parts' beats in order for a composite."""
        if not self.parts:
            return self.beats
        return tuple(beat for part in self.parts for beat in part.all_beats())

    def output_positions(self) -> list[tuple[int, ...]]:
        """Return the output's row positions in order: every index of its shape but the last.

        They come from the output's shape, not from the row numbers drawn
        beside it: a one-row output (SingleTokenLookup's ``1 × d``) has a row
        but draws no number. Empty when no beat shows the output.
        """
        shape = next((b.output.shape for b in self.beats if b.output is not None), None)
        if shape is None:
            return []
        return list(itertools.product(*(range(n) for n in shape[:-1])))

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
        # The format's version first, so that a reader sees it at once.
        data: dict[str, Any] = {"version": self.version}
        data.update(asdict(self))
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
