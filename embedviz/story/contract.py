"""The storyboard as a published contract: JSON Schema, loading and re-verification.

A storyboard file is versioned JSON (:data:`~embedviz.story.model.SCHEMA_VERSION`).
Its JSON Schema (draft 2020-12) is generated from the dataclasses in
:mod:`embedviz.story.model`, so a field added to the model is in the schema
at once. :func:`load_storyboard` reads a file back into the same frozen,
validated objects (``load(dump(x)) == x``), and :func:`verify_storyboard`
rebuilds it from its recorded options and its words and reports every
number, displayed string or ID that the core would not draw (the input files
are checked above this layer, by :func:`embedviz.inputs.verified_problems`).

What an author may edit is :data:`EDITABLE_FIELDS` and
:data:`EDITABLE_BEAT_FIELDS`: the title, the summary, the language, the
words (the text of each word role the layout declares, e.g. to translate
them; the labels are filled from them, see :func:`refreshed`), the sentences
of the audio descriptions (``description_words``) and, per beat, the
narration and the timing (within the limits every beat is checked against).
A beat's descriptions are derived from the core like its numbers; only their
sentences (and the spoken form a voice says) are the author's.
"""

from __future__ import annotations

import functools
import json
import re
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, asdict, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, Literal, NoReturn, TypeVar, Union, get_args, get_origin, get_type_hints

import numpy as np

from embedviz.core.errors import EmbedvizError
from embedviz.core.limits import parse_whole_number
from embedviz.core.paths import require_file
from embedviz.story.describe import describe, description_problems
from embedviz.story.describe_words import MAX_DESCRIPTION_CHARS
from embedviz.story.layouts import ALL_ACTIONS, ALL_KINDS, LAYOUTS
from embedviz.story.model import (
    MAX_BEAT_SECONDS,
    MAX_NARRATION_CHARS,
    MIN_RUN_TIME,
    SCHEMA_URL,
    SCHEMA_VERSION,
    Beat,
    NumberCell,
    Storyboard,
    StoryboardError,
)
from embedviz.story.phrases import make_phrases, one_space
from embedviz.story.problems import (
    Problem,
    StoryboardProblemsError,
    by_beat,
    problems_of,
    timing_fix,
)
from embedviz.story.scenes import SCENES, find_scene
from embedviz.story.spoken import speaker_for
from embedviz.story.vocabulary import LayoutSpec
from embedviz.story.words import MAX_PAGE_WORD_CHARS, max_chars

__all__ = [
    "EDITABLE_BEAT_FIELDS",
    "EDITABLE_FIELDS",
    "MAX_NESTING",
    "MAX_STORYBOARD_BYTES",
    "OLDEST_VERSION",
    "SCHEMA_ID",
    "UnreadableStoryboardError",
    "check_storyboard",
    "json_schema",
    "load_storyboard",
    "read_storyboard",
    "rebuild",
    "refreshed",
    "storyboard_from_data",
    "storyboard_problems",
    "verify_storyboard",
]

SCHEMA_ID = SCHEMA_URL
# The oldest storyboard format this embedviz reads (a version 2 file reads as
# version 3, its new words in English).
OLDEST_VERSION = 2
# Storyboard fields an author may change; every other field is re-derived.
EDITABLE_FIELDS = frozenset({"title", "summary", "language", "voice", "words", "description_words"})
# Beat fields an author may change (the timing stays within the beat limits). The
# phrases follow the narration: where they no longer spell it, loading derives them again.
EDITABLE_BEAT_FIELDS = {"narration", "run_time", "duration", "phrases"}
_T = TypeVar("_T")
# Keys written for readers' convenience and ignored on load.
_DERIVED_KEYS: dict[type, frozenset[str]] = {Storyboard: frozenset({"duration"})}


class UnreadableStoryboardError(EmbedvizError):
    """A file that is not a storyboard at all: missing, too big, not UTF-8, or not JSON."""


# A storyboard file is at most this big (FullExplainer's, the largest, is under 1 MB) ...
MAX_STORYBOARD_BYTES = 5_000_000
# ... and nests arrays and objects at most this deep (the largest nests 8).
MAX_NESTING = 32
# A JSON string, escapes included (unrolled, so the match is linear).
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
# +1 for each opening bracket, -1 for each closing one, by byte.
_BRACKET_STEP = np.zeros(256, dtype=np.int8)
_BRACKET_STEP[[ord("["), ord("{")]] = 1
_BRACKET_STEP[[ord("]"), ord("}")]] = -1


# -- schema ------------------------------------------------------------------


def _attribute_docs(cls: type) -> dict[str, str]:
    """Read the ``Attributes`` section of a numpy-style class docstring."""
    doc = cls.__doc__ or ""
    match = re.search(r"Attributes\n\s*-+\n(.*)", doc, re.S)
    if not match:
        return {}
    docs: dict[str, str] = {}
    names: list[str] = []
    for line in match.group(1).splitlines():
        if line.startswith("    ") and not line.startswith("        ") and line.strip():
            names = [name.strip() for name in line.split(",")]
            for name in names:
                docs[name] = ""
        elif line.strip() and names:
            for name in names:
                docs[name] = (docs[name] + " " + line.strip()).strip()
    return docs


def _schema_for(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """Return the JSON Schema of one type hint, adding dataclasses to ``defs``."""
    origin, args = get_origin(tp), get_args(tp)
    if tp is Any:
        return {}
    if tp is type(None):
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema_for(arg, defs) for arg in args]}
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return {"type": "array", "items": _schema_for(args[0], defs)}
    if origin is tuple:
        return {
            "type": "array",
            "prefixItems": [_schema_for(arg, defs) for arg in args],
            "items": False,
            "minItems": len(args),
        }
    if origin is list:
        return {"type": "array", "items": _schema_for(args[0], defs)}
    if origin is dict:
        return {
            "type": "object",
            "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
            "additionalProperties": _schema_for(args[1], defs),
        }
    if isinstance(tp, type) and is_dataclass(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placeholder: recursion (a storyboard's parts)
            hints = get_type_hints(tp)
            docs = _attribute_docs(tp)
            properties: dict[str, Any] = {}
            required: list[str] = []
            for item in fields(tp):
                schema = _schema_for(hints[item.name], defs)
                if docs.get(item.name):
                    schema = {"description": docs[item.name], **schema}
                properties[item.name] = schema
                if item.default is MISSING and item.default_factory is MISSING:
                    required.append(item.name)
            if tp is Storyboard:
                properties["duration"] = {
                    "description": "Total seconds, written for readers; ignored on load.",
                    "type": "number",
                }
            summary = (tp.__doc__ or "").strip().splitlines()[0]
            defs[name] = {
                "type": "object",
                "description": summary,
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            }
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no JSON Schema for {tp!r}")


def _layout_rules(name: str, spec: LayoutSpec) -> dict[str, Any]:
    """Return the JSON Schema rule of one layout: its words, actions, kinds and label roles."""
    return {
        "if": {"properties": {"layout": {"const": name}}, "required": ["layout"]},
        "then": {
            "properties": {
                "words": {
                    "propertyNames": {"enum": sorted(spec.words)},
                    "properties": {
                        role: {"maxLength": max_chars(role)} for role in sorted(spec.words)
                    },
                },
                "beats": {
                    "items": {
                        "properties": {
                            "action": {"enum": sorted(spec.actions)},
                            "numbers": {
                                "items": {"properties": {"kind": {"enum": sorted(spec.kinds)}}}
                            },
                            "labels": {
                                "propertyNames": {
                                    "pattern": "^(?:" + "|".join(spec.roles) + ")$"
                                    if spec.roles
                                    else "^$"
                                }
                            },
                        }
                    }
                },
            }
        },
    }


def json_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of a storyboard file.

    Generated from the model's dataclasses and type hints, so it follows the
    model: number kinds, actions and layouts are enumerations, each layout's
    kinds, actions and label roles come from
    :data:`~embedviz.story.layouts.LAYOUTS`, every object rejects unknown keys,
    and ``version`` must be :data:`SCHEMA_VERSION`. Checks that JSON Schema
    cannot express (``run_time <= duration``, phrases in order and inside
    their beat, cells inside the window, unique beat names) are made when a
    file is loaded.

    Returns
    -------
    dict
        The schema, ready for ``json.dumps``.
    """
    defs: dict[str, Any] = {}
    _schema_for(Storyboard, defs)
    board = defs["Storyboard"]
    board["properties"]["version"] = {
        "description": "The storyboard format's version.",
        "const": SCHEMA_VERSION,
    }
    board["required"] = [*board["required"], "version"]
    board["properties"]["words"] = {
        **board["properties"]["words"],
        "additionalProperties": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_PAGE_WORD_CHARS,
            "pattern": "^[^\\n\\r]*\\S[^\\n\\r]*$",
        },
    }
    board["properties"]["description_words"]["additionalProperties"] = {
        **board["properties"]["words"]["additionalProperties"],
        "maxLength": MAX_DESCRIPTION_CHARS,
    }
    # Layouts, number kinds and actions are strings in the model, checked
    # against what the layouts declare; the schema enumerates them.
    board["properties"]["layout"] = {**board["properties"]["layout"], "enum": sorted(LAYOUTS)}
    cell = defs["NumberCell"]["properties"]
    cell["kind"] = {**cell["kind"], "enum": sorted(ALL_KINDS)}
    beat = defs["Beat"]["properties"]
    beat["action"] = {**beat["action"], "enum": sorted(ALL_ACTIONS)}
    beat["run_time"] = {**beat["run_time"], "minimum": MIN_RUN_TIME}
    beat["duration"] = {**beat["duration"], "minimum": MIN_RUN_TIME, "maximum": MAX_BEAT_SECONDS}
    beat["narration"] = {**beat["narration"], "maxLength": MAX_NARRATION_CHARS}
    phrase = defs["Phrase"]["properties"]
    phrase["start"] = {**phrase["start"], "minimum": 0, "maximum": MAX_BEAT_SECONDS}
    phrase["duration"] = {
        **phrase["duration"], "exclusiveMinimum": 0, "maximum": MAX_BEAT_SECONDS
    }  # fmt: skip
    # What each layout may show, as declared in LAYOUTS.
    board["allOf"] = [_layout_rules(name, spec) for name, spec in LAYOUTS.items()]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"embedviz storyboard, version {SCHEMA_VERSION}",
        "$ref": "#/$defs/Storyboard",
        "$defs": defs,
    }


# -- loading -----------------------------------------------------------------


def _describe(tp: Any) -> str:
    origin = get_origin(tp)
    if origin is Literal:
        return "one of " + ", ".join(repr(arg) for arg in get_args(tp))
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(arg) for arg in get_args(tp))
    if origin in (tuple, list):
        return "a list"
    if origin is dict:
        return "an object"
    if tp is type(None):
        return "null"
    return {int: "a whole number", float: "a number", str: "a string", bool: "true or false"}.get(
        tp, getattr(tp, "__name__", str(tp))
    )


@functools.cache
def _hints(tp: type) -> dict[str, Any]:
    """Return the type hints of a dataclass, read once (reading them is slow)."""
    return get_type_hints(tp)


def _preview(value: Any) -> str:
    """Show a JSON value in a message, briefly, without printing all of a big one."""
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str) and len(value) > 60:
        return json.dumps(value[:60]) + "…"
    return json.dumps(value)[:60]


def _load(tp: Any, value: Any, path: str, repaired: list[Problem]) -> Any:
    """Convert JSON data to the type hint ``tp``, naming ``path`` on failure.

    Every item of a list and every field of an object is read, so one call
    reports all their problems together (:class:`StoryboardProblemsError`). A beat
    whose timing alone is wrong is read with the timing its fix asks for, and
    its problem goes to ``repaired``.
    """
    origin, args = get_origin(tp), get_args(tp)

    def wrong() -> StoryboardError:
        # Built only when raised: loading stays linear in the file's size.
        return StoryboardError(f"{path}: expected {_describe(tp)}, not {_preview(value)}")

    if tp is Any:
        return value
    if tp is type(None):
        if value is None:
            return None
        raise wrong()
    if origin in (Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            kept = len(repaired)
            try:
                return _load(arg, value, path, repaired)
            except StoryboardError:
                del repaired[kept:]  # this reading of the value was not the one
                continue
        raise wrong()
    if origin is Literal:
        if isinstance(value, str) and value in args:
            return value
        raise wrong()
    scalar = {bool: bool, int: int, float: int | float, str: str}.get(tp)
    if scalar is not None:
        if isinstance(value, scalar) and (tp is bool or not isinstance(value, bool)):
            return float(value) if tp is float else value
        raise wrong()
    if origin in (tuple, list):
        if not isinstance(value, list):
            raise wrong()
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(value) != len(args):
                raise wrong()
            return tuple(
                _load(a, v, f"{path}[{i}]", repaired)
                for i, (a, v) in enumerate(zip(args, value, strict=True))
            )
        items = _each(
            enumerate(value), lambda item: _load(args[0], item[1], f"{path}[{item[0]}]", repaired)
        )
        return tuple(items) if origin is tuple else items
    if origin is dict:
        if not isinstance(value, dict):
            raise wrong()
        return {str(k): _load(args[1], v, f"{path}.{k}", repaired) for k, v in value.items()}
    if isinstance(tp, type) and is_dataclass(tp):
        if not isinstance(value, dict):
            raise wrong()
        return _load_object(tp, value, path, repaired)
    raise TypeError(f"cannot load {tp!r}")


def _each(items: Iterable[_T], read: Callable[[_T], Any]) -> list[Any]:
    """Read every item, even after one fails; raise all their problems together."""
    values, errors = [], []
    for item in items:
        try:
            values.append(read(item))
        except StoryboardError as error:
            errors.append(error)
    if errors:
        raise StoryboardProblemsError(problems_of(errors))
    return values


def _load_object(tp: type, value: dict[str, Any], path: str, repaired: list[Problem]) -> Any:
    """Read a dataclass's fields (all of them, whatever fails), then build it."""
    beat = None
    if tp is Beat and isinstance(value.get("name"), str):
        path = f"{path} (beat {value['name']!r})"
        part = re.search(r"\.parts\[(\d+)\]", path)
        beat = (f"part {int(part.group(1)) + 1}, " if part else "") + f"beat {value['name']!r}"
    hints = _hints(tp)
    known = {item.name: item for item in fields(tp)}
    extra = set(value) - set(known) - _DERIVED_KEYS.get(tp, frozenset())
    if extra:
        raise StoryboardError(f"{path}: unknown field {sorted(extra)[0]!r}")
    for name, item in known.items():
        if name not in value and item.default is MISSING and item.default_factory is MISSING:
            raise StoryboardError(f"{path}: field {name!r} is missing")
    names = [name for name in known if name in value]
    read = _each(names, lambda name: _load(hints[name], value[name], f"{path}.{name}", repaired))
    kwargs = dict(zip(names, read, strict=True))
    try:
        return tp(**kwargs)
    except StoryboardError as error:
        if beat is None:
            raise StoryboardProblemsError([Problem(str(error))]) from None
        return _repaired_beat(kwargs, beat, error, repaired)


def _repaired_beat(
    kwargs: dict[str, Any], beat: str, error: StoryboardError, repaired: list[Problem]
) -> Beat:
    """Build a beat with the timing its fix asks for, recording the problem; else raise it."""
    phrases = kwargs.get("phrases", ())
    fix = timing_fix(
        beat,
        float(kwargs["run_time"]),
        float(kwargs["duration"]),
        sum(float(phrase.duration) for phrase in phrases),
    )
    message = str(error).removesuffix("; lengthen 'duration'")
    if fix is None:
        raise StoryboardProblemsError([Problem(message, beat)]) from None
    run_time, duration, words = fix
    try:
        fixed = Beat(**{**kwargs, "run_time": run_time, "duration": duration})
    except StoryboardError as still:
        # Something besides the timing is wrong too: both are problems.
        raise StoryboardProblemsError(
            [Problem(message, beat, words), Problem(str(still), beat)]
        ) from None
    repaired.append(Problem(message, beat, words))
    return fixed


def storyboard_from_data(data: object) -> Storyboard:
    """Build a storyboard from parsed JSON, checking its version first.

    Parameters
    ----------
    data
        What ``json.loads`` returned for a storyboard file.

    Returns
    -------
    Storyboard
        The frozen, validated storyboard.

    Raises
    ------
    StoryboardProblemsError
        For another version, a missing or mistyped field, or a broken
        invariant; the message names the beat and the field of the first
        problem (and how many more there are), and the exception holds them
        all, each with its fix where there is one.
    """
    board, problems = storyboard_problems(data)
    if problems or board is None:
        raise StoryboardProblemsError(problems)
    return board


def storyboard_problems(data: object) -> tuple[Storyboard | None, list[Problem]]:
    """Read parsed JSON as a storyboard, and list every problem it has, grouped by beat.

    Parameters
    ----------
    data
        What ``json.loads`` returned for a storyboard file.

    Returns
    -------
    tuple
        The storyboard, or ``None`` when a problem leaves nothing to build,
        and the problems in the order of the file's beats (those of the
        storyboard as a whole first). A beat whose only problem is its timing
        is built with the timing its fix asks for, so the storyboard can still
        be compared with the core.
    """
    try:
        _check_version(data)
    except StoryboardError as error:
        return None, [Problem(str(error))]
    assert isinstance(data, dict)
    if data["version"] == 2:
        data = _from_version_2(data)
    repaired: list[Problem] = []
    board: Storyboard | None = None
    try:
        board = _load(Storyboard, _rephrased(data), "storyboard", repaired)
        raised: list[Problem] = []
    except StoryboardError as error:
        raised = problems_of([error])
    if board is not None and not raised and not _has_descriptions(data):
        # Written before beats had audio descriptions: derive them from its cells.
        board = describe(board)
    groups = by_beat([*repaired, *raised], _beat_labels(data))
    return (board if not raised else None), [problem for _, group in groups for problem in group]


def _has_descriptions(data: dict[str, Any]) -> bool:
    """Whether any beat of a storyboard file (or of its parts) carries a descriptions field."""
    beats = data.get("beats")
    if isinstance(beats, list) and any(
        isinstance(beat, dict) and "descriptions" in beat for beat in beats
    ):
        return True
    parts = data.get("parts")
    return isinstance(parts, list) and any(
        isinstance(part, dict) and _has_descriptions(part) for part in parts
    )


def _check_version(data: object) -> None:
    if not isinstance(data, dict) or "version" not in data:
        raise StoryboardError("not an embedviz storyboard: it has no 'version' field")
    version = data["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise StoryboardError(f"'version' must be a whole number, not {version!r}")
    if version < OLDEST_VERSION:
        raise StoryboardError(
            f"storyboard format version {version} is older than version {OLDEST_VERSION}, "
            "the oldest this embedviz reads; write it again with 'embedviz storyboard SCENE "
            "--json' and carry your edits over"
        )
    if version > SCHEMA_VERSION:
        raise StoryboardError(
            f"storyboard format version {version} is newer than version {SCHEMA_VERSION}, "
            "which this embedviz reads; upgrade embedviz to read it"
        )


# The word roles each layout had in version 2; the words a layout gained since
# read in English from a version 2 file, which could not have them.
_VERSION_2_GRID = ("embedding_matrix", "value_colour")
_VERSION_2_WORDS: dict[str, tuple[str, ...]] = {
    "lookup": (*_VERSION_2_GRID, "token_ids", "output"),
    "zero_based": (
        *_VERSION_2_GRID,
        "token_ids",
        "counting_from_one",
        "slip_id",
        "slip_row_index",
        "no_such_row",
        "debugging_trace",
        "input_id",
        "zero_based_row_index",
        "returned_vector",
    ),
    "batch": _VERSION_2_GRID,
    "large_vocab": (*_VERSION_2_GRID, "token_ids", "output", "parameters"),
    "one_hot": (*_VERSION_2_GRID, "token_id", "multiply_adds", "lookup", "copies"),
    "parameter_count": (
        "embedding_matrix",
        "columns",
        "rows",
        "parameters",
        "dtype",
        "bytes_each",
        "total_bytes",
        "memory",
        "width",
        "values_copied",
        "bytes",
        "no_arithmetic",
    ),
    "training_nudge": (*_VERSION_2_GRID, "gradient"),
    "position_blindness": (
        *_VERSION_2_GRID,
        "token_ids",
        "output",
        "token_vector",
        "position_vector",
        "sum",
        "learned_table",
        "identical",
        "different",
    ),
}


def _from_version_2(data: dict[str, Any]) -> dict[str, Any]:
    """Read a version 2 file as version 3: the words it could not have, in English.

    Version 3 added words (labels, chapters, the course page) and the
    ``summary``. A version 2 file's own words are kept (a word it should
    have had is still refused as missing); its labels were written in
    English, as the English words fill them, so it verifies as before.
    """

    def upgrade(board: object) -> object:
        if not isinstance(board, dict):
            return board  # refused when loaded, with the field named
        board = {**board, "version": SCHEMA_VERSION}
        layout, words = board.get("layout", "lookup"), board.get("words")
        if isinstance(words, dict) and words and layout in LAYOUTS:
            old = set(_VERSION_2_WORDS.get(layout, ()))
            new = {r: t for r, t in LAYOUTS[layout].words.items() if r not in old | set(words)}
            board["words"] = {**words, **new}
        if not board.get("summary") and isinstance(board.get("scene"), str):
            known = [spec for spec in SCENES.values() if spec.name == board["scene"]]
            board["summary"] = known[0].summary if known else ""
        if isinstance(board.get("parts"), list):
            board["parts"] = [upgrade(part) for part in board["parts"]]
        return board

    upgraded = upgrade(data)
    assert isinstance(upgraded, dict)
    return upgraded


def _beat_labels(data: dict[str, Any]) -> list[str]:
    """Every beat's label (as :class:`Problem` names it), in the file's order."""
    labels: list[str] = []
    parts: list[Any] = data["parts"] if isinstance(data.get("parts"), list) else []
    for number, part in enumerate([data, *parts]):
        beats = part.get("beats") if isinstance(part, dict) else None
        for beat in beats if isinstance(beats, list) else []:
            if isinstance(beat, dict) and isinstance(beat.get("name"), str):
                labels.append((f"part {number}, " if number else "") + f"beat {beat['name']!r}")
    return labels


def _rephrased(data: dict[str, Any]) -> dict[str, Any]:
    """Derive the phrases again, in the file's data, of every beat whose narration was rewritten.

    This happens before the beats are built, so a beat whose new narration
    needs more time is reported with the time its new phrases need.
    """
    language = data.get("language")
    # The verbaliser has rules for English, German and French; other languages
    # are spoken as written (an author may correct a phrase's 'spoken' form).
    tag = language if isinstance(language, str) else "en"
    speak = speaker_for(tag)
    out = dict(data)
    if isinstance(data.get("parts"), list):
        out["parts"] = [_rephrased(p) if isinstance(p, dict) else p for p in data["parts"]]
    if isinstance(data.get("beats"), list):
        out["beats"] = [
            _rephrased_beat(b, speak, tag) if isinstance(b, dict) else b for b in data["beats"]
        ]
    return out


def _rephrased_beat(
    beat: dict[str, Any], speak: Callable[[str], str], language: str
) -> dict[str, Any]:
    narration, phrases = beat.get("narration"), beat.get("phrases", [])
    if not isinstance(narration, str) or not isinstance(phrases, list):
        return beat  # mistyped: reading the beat reports it
    if len(narration) > MAX_NARRATION_CHARS:
        return beat  # too long to split: reading the beat refuses it
    texts = [p["text"] for p in phrases if isinstance(p, dict) and isinstance(p.get("text"), str)]
    if len(texts) != len(phrases):
        return beat
    # Spaces compare as the cues keep them: a non-breaking one the author typed is new text.
    if one_space(" ".join(texts)) == one_space(narration):
        return beat
    phrases = make_phrases(narration, speak, language=language)
    return {**beat, "phrases": [asdict(phrase) for phrase in phrases]}


def _nesting(text: str) -> int:
    """Return how deeply JSON text nests arrays and objects, in time linear in its length.

    Strings are removed first (their brackets do not nest anything); the depth
    is then the running sum of the opening and closing brackets.
    """
    bare = _JSON_STRING.sub("", text).encode("utf-8")
    if not bare:
        return 0
    depth = np.cumsum(_BRACKET_STEP[np.frombuffer(bare, dtype=np.uint8)], dtype=np.int64)
    return int(depth.max())


def _json_constant(name: str) -> NoReturn:
    raise StoryboardError(f"{name} is not a number a storyboard may hold")


def _bounded_int(text: str) -> int:
    return parse_whole_number(text, "a number in it")


def _read_json(path: str | Path) -> tuple[Path, Any]:
    """Read a file's JSON, or raise :class:`UnreadableStoryboardError` in one line.

    Any file is read in bounded time, linear in its size: a file over
    :data:`MAX_STORYBOARD_BYTES`, nesting deeper than :data:`MAX_NESTING`, a
    whole number of more than :data:`~embedviz.core.limits.MAX_DIGITS` digits
    or a ``NaN`` is refused before anything is built from it.
    """
    file = Path(path)
    try:
        require_file(file, "storyboard file")
        with file.open("rb") as handle:
            raw = handle.read(MAX_STORYBOARD_BYTES + 1)
    except EmbedvizError as error:
        raise UnreadableStoryboardError(str(error)) from None
    except OSError as error:
        raise UnreadableStoryboardError(f"{file}: cannot be read ({error.strerror})") from None
    if len(raw) > MAX_STORYBOARD_BYTES:
        raise UnreadableStoryboardError(
            f"{file}: larger than {MAX_STORYBOARD_BYTES // 1_000_000} MB, more than any "
            "storyboard needs; it is not read"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableStoryboardError(f"{file}: not UTF-8 text") from None
    depth = _nesting(text)
    if depth > MAX_NESTING:
        raise UnreadableStoryboardError(
            f"{file}: nested {depth} levels deep; a storyboard nests at most {MAX_NESTING}"
        )
    try:
        return file, json.loads(text, parse_int=_bounded_int, parse_constant=_json_constant)
    except json.JSONDecodeError as error:
        raise UnreadableStoryboardError(
            f"{file}: not JSON ({error.msg} at line {error.lineno})"
        ) from None
    except EmbedvizError as error:
        raise UnreadableStoryboardError(f"{file}: {error}") from None
    except RecursionError:
        raise UnreadableStoryboardError(f"{file}: nested too deeply") from None


def load_storyboard(path: str | Path) -> Storyboard:
    """Read a storyboard JSON file.

    Parameters
    ----------
    path
        The file.

    Returns
    -------
    Storyboard
        The storyboard (not yet verified against the core; see
        :func:`verify_storyboard`).

    Raises
    ------
    UnreadableStoryboardError
        If the file is missing, not a regular file, too big, not UTF-8, not
        JSON, or beyond the limits of :func:`_read_json`.
    StoryboardProblemsError
        If it is JSON but not a valid storyboard of this version: the
        message is the first problem, the exception holds them all.
    """
    file, data = _read_json(path)
    board, problems = storyboard_problems(data)
    if problems or board is None:
        raise StoryboardProblemsError(problems).prefixed(f"{file}: ")
    return board


def read_storyboard(path: str | Path) -> tuple[Storyboard | None, list[Problem]]:
    """Read a storyboard JSON file and list every problem it has (see :func:`storyboard_problems`).

    Parameters
    ----------
    path
        The file.

    Returns
    -------
    tuple
        The storyboard (``None`` when it cannot be built) and its problems,
        grouped by beat, each with its fix where embedviz knows one.

    Raises
    ------
    UnreadableStoryboardError
        If the file is missing, not UTF-8 or not JSON.
    """
    _, data = _read_json(path)
    return storyboard_problems(data)


# -- verification ------------------------------------------------------------


def _show(cell: NumberCell) -> str:
    return f"{cell.text!r} ({cell.value!r})"


def _compare_beat(where: str, mine: Beat, core: Beat) -> list[str]:
    problems = []
    at = f"{where}beat {mine.name!r}"
    theirs = {(c.kind, c.index): c for c in core.numbers}
    ours = {(c.kind, c.index): c for c in mine.numbers}
    for key in sorted(set(ours) | set(theirs)):
        kind, index = key
        name = f"{at}, cell {kind} {list(index)}"
        if key not in theirs:
            problems.append(
                f"{name}: the file shows {_show(ours[key])}; the core shows no such cell"
            )
        elif key not in ours:
            problems.append(f"{name}: missing from the file; the core gives {_show(theirs[key])}")
        elif (ours[key].text, ours[key].value) != (theirs[key].text, theirs[key].value):
            problems.append(
                f"{name}: the file says {_show(ours[key])}, the core gives {_show(theirs[key])}"
            )
    for role in sorted(set(mine.labels) | set(core.labels)):
        said, given = mine.labels.get(role), core.labels.get(role)
        if said != given:
            problems.append(
                f"{at}, label {role!r}: the file says {said!r}, the core gives {given!r}"
            )
    problems.extend(description_problems(at, mine, core))
    for item in fields(Beat):
        if item.name in EDITABLE_BEAT_FIELDS | {"numbers", "labels", "name", "descriptions"}:
            continue
        said, given = getattr(mine, item.name), getattr(core, item.name)
        if said != given:
            problems.append(
                f"{at}, field {item.name!r}: the file says {said!r}, the core gives {given!r}"
            )
    return problems


def _compare(mine: Storyboard, core: Storyboard, where: str = "") -> list[str]:
    problems = []
    for item in fields(Storyboard):
        if item.name in EDITABLE_FIELDS | {"beats", "parts", "inputs"}:
            continue
        said, given = getattr(mine, item.name), getattr(core, item.name)
        if said != given:
            shown = "ids" if item.name == "ids" else f"field {item.name!r}"
            problems.append(f"{where}{shown}: the file says {said!r}, the core gives {given!r}")
    names = [beat.name for beat in mine.beats]
    core_names = [beat.name for beat in core.beats]
    if names != core_names:
        problems.append(f"{where}beats: the file has {names}, the core gives {core_names}")
    else:
        for beat, fresh in zip(mine.beats, core.beats, strict=True):
            problems.extend(_compare_beat(where, beat, fresh))
    if len(mine.parts) != len(core.parts):
        problems.append(f"{where}parts: the file has {len(mine.parts)}, the core {len(core.parts)}")
    else:
        # Parts are counted from 1, as verify's report of a file's beats counts them.
        for number, (part, rebuilt) in enumerate(zip(mine.parts, core.parts, strict=True), 1):
            problems.extend(_compare(part, rebuilt, f"{where}part {number} ({part.scene}), "))
    return problems


def rebuild(board: Storyboard, words: Mapping[str, str] | None = None) -> Storyboard:
    """Build a storyboard again from its recorded options, with its own words.

    Parameters
    ----------
    board
        A storyboard (its scene, options and words are used; for a
        composite one, each part's words too).
    words
        Other words to build it with (e.g. a translation) instead of its own.

    Returns
    -------
    Storyboard
        What the core gives: every number, label, window and gap label
        derived again, the labels filled from the words.

    Raises
    ------
    EmbedvizError
        If the recorded options no longer build (e.g. a missing file).
    """
    part_words = {part.scene: part.words for part in board.parts}
    return find_scene(board.scene).make(
        board.options, words=board.words if words is None else words, part_words=part_words
    )


def refreshed(board: Storyboard) -> Storyboard:
    """Return an edited storyboard true to the core again, keeping what its author wrote.

    After an author translates the words, the labels filled from them
    (``rows 6–4818 hidden``, the question, ...) still read as before; this
    builds the storyboard again from its recorded options and its words, and
    keeps the author's fields (:data:`EDITABLE_FIELDS`, and per beat the
    narration, phrases and timing).

    Parameters
    ----------
    board
        A loaded storyboard (its input files checked by the caller).

    Returns
    -------
    Storyboard
        Every number, label and window from the core, every edit kept.

    Raises
    ------
    EmbedvizError
        If the options no longer build, or the core now gives other beats.
    """
    return _carried(board, rebuild(board))


def _carried(edited: Storyboard, core: Storyboard) -> Storyboard:
    """Put an author's fields from ``edited`` onto ``core``, part by part and beat by beat."""
    names = [beat.name for beat in edited.beats]
    if names != [beat.name for beat in core.beats] or len(edited.parts) != len(core.parts):
        raise StoryboardError(
            f"{edited.scene}: the core now gives other beats than the file's {names}; write it "
            "again with 'embedviz storyboard SCENE --json' and carry your edits over"
        )
    beats = tuple(
        replace(fresh, **{name: getattr(mine, name) for name in EDITABLE_BEAT_FIELDS})
        for mine, fresh in zip(edited.beats, core.beats, strict=True)
    )
    parts = tuple(
        _carried(mine, fresh) for mine, fresh in zip(edited.parts, core.parts, strict=True)
    )
    kept = {name: getattr(edited, name) for name in EDITABLE_FIELDS}
    return replace(core, **kept, beats=beats, parts=parts, inputs=edited.inputs)


def verify_storyboard(board: Storyboard) -> list[str]:
    """Rebuild a storyboard from its options, and list where the file differs.

    The files it was built from are checked above this layer
    (:func:`embedviz.inputs.verified_problems` checks them too); here every
    number, label and field is compared with what the core gives for the
    recorded options.

    Parameters
    ----------
    board
        A loaded storyboard.

    Returns
    -------
    list of str
        One line per problem, naming the beat, the cell or label and both
        values; empty when the file is true to the core. Edits to the
        title, the summary, the language, the words, the narration and the
        timing are allowed; the labels must be those the words fill.
    """
    try:
        core = rebuild(board)
    except EmbedvizError as error:
        return [f"cannot rebuild {board.scene} from the recorded options: {error}"]
    # A changed file also shows as the cells that no longer match it.
    return _compare(board, core)


def check_storyboard(board: Storyboard) -> Storyboard:
    """Return the storyboard if it is true to the core, else refuse it in one line.

    Parameters
    ----------
    board
        A loaded storyboard.

    Returns
    -------
    Storyboard
        The same storyboard.

    Raises
    ------
    StoryboardError
        Naming the first problem (and how many more there are).
    """
    problems = verify_storyboard(board)
    if problems:
        more = (
            f" (and {len(problems) - 1} more; run 'embedviz verify')" if len(problems) > 1 else ""
        )
        raise StoryboardError(f"refused: {problems[0]}{more}")
    return board
