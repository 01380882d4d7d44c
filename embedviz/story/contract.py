"""The storyboard as a published contract: JSON Schema, loading and re-verification.

A storyboard file is versioned JSON (:data:`~embedviz.story.model.SCHEMA_VERSION`).
Its JSON Schema (draft 2020-12) is generated from the dataclasses in
:mod:`embedviz.story.model`, so a field added to the model is in the schema
at once. :func:`load_storyboard` reads a file back into the same frozen,
validated objects (``load(dump(x)) == x``), and :func:`verify_storyboard`
rebuilds it from its recorded options and input files and reports every
number, displayed string or ID that the core would not draw.

What an author may edit is :data:`EDITABLE_FIELDS` and
:data:`EDITABLE_BEAT_FIELDS`: the title, the language, the UI words (the
text of each word role the layout draws, e.g. to translate them), the
sentences of the audio descriptions (``description_words``) and, per beat,
the narration and the timing (within the limits every beat is checked
against). A beat's descriptions are derived from the core like its numbers;
only their words (and the spoken form a voice says) are the author's.
"""

from __future__ import annotations

import hashlib
import json
import re
import types
from collections.abc import Callable, Iterable
from dataclasses import MISSING, asdict, fields, is_dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from embedviz.core.errors import EmbedvizError
from embedviz.story.describe import describe, description_problems
from embedviz.story.describe_words import MAX_DESCRIPTION_CHARS
from embedviz.story.model import (
    LAYOUTS,
    MAX_BEAT_SECONDS,
    MIN_RUN_TIME,
    SCHEMA_URL,
    SCHEMA_VERSION,
    Beat,
    InputFile,
    NumberCell,
    Storyboard,
    StoryboardError,
)
from embedviz.story.options import SceneOptions
from embedviz.story.phrases import make_phrases
from embedviz.story.problems import (
    Problem,
    StoryboardProblemsError,
    by_beat,
    problems_of,
    timing_fix,
)
from embedviz.story.spoken import speaker_for
from embedviz.story.words import MAX_WORD_CHARS

__all__ = [
    "EDITABLE_BEAT_FIELDS",
    "EDITABLE_FIELDS",
    "SCHEMA_ID",
    "UnreadableStoryboardError",
    "check_storyboard",
    "file_sha256",
    "input_files",
    "json_schema",
    "load_storyboard",
    "read_storyboard",
    "storyboard_from_data",
    "storyboard_problems",
    "verify_storyboard",
]

SCHEMA_ID = SCHEMA_URL
# Storyboard fields an author may change; every other field is re-derived.
EDITABLE_FIELDS = frozenset({"title", "language", "voice", "words", "description_words"})
# Beat fields an author may change (the timing stays within the beat limits). The
# phrases follow the narration: where they no longer spell it, loading derives them again.
EDITABLE_BEAT_FIELDS = {"narration", "run_time", "duration", "phrases"}
_T = TypeVar("_T")
# Keys written for readers' convenience and ignored on load.
_DERIVED_KEYS: dict[type, frozenset[str]] = {Storyboard: frozenset({"duration"})}


class UnreadableStoryboardError(EmbedvizError):
    """A file that is not a storyboard at all: missing, not UTF-8, or not JSON."""


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


def _one_line(longest: int) -> dict[str, Any]:
    """Return the schema of one line of text, not blank, at most ``longest`` characters."""
    return {
        "type": "string",
        "minLength": 1,
        "maxLength": longest,
        "pattern": "^[^\\n\\r]*\\S[^\\n\\r]*$",
    }


def json_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of a storyboard file.

    Generated from the model's dataclasses and type hints, so it follows the
    model: number kinds, actions and layouts are enumerations, each layout's
    kinds, actions and label roles come from
    :data:`~embedviz.story.model.LAYOUTS`, every object rejects unknown keys,
    and ``version`` must be :data:`SCHEMA_VERSION`. Checks that JSON Schema
    cannot express (``run_time <= duration``, cells inside the window, unique
    beat names) are made when a file is loaded.

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
            "maxLength": MAX_WORD_CHARS,
            "pattern": "^[^\\n\\r]*\\S[^\\n\\r]*$",
        },
    }
    board["properties"]["description_words"]["additionalProperties"] = _one_line(
        MAX_DESCRIPTION_CHARS
    )
    beat = defs["Beat"]["properties"]
    beat["run_time"] = {**beat["run_time"], "minimum": MIN_RUN_TIME}
    beat["duration"] = {**beat["duration"], "minimum": MIN_RUN_TIME, "maximum": MAX_BEAT_SECONDS}
    # What each layout may show, as declared in LAYOUTS.
    board["allOf"] = [
        {
            "if": {"properties": {"layout": {"const": name}}, "required": ["layout"]},
            "then": {
                "properties": {
                    "words": {"propertyNames": {"enum": sorted(spec.words)}},
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
        for name, spec in LAYOUTS.items()
    ]
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


def _load(tp: Any, value: Any, path: str, repaired: list[Problem]) -> Any:
    """Convert JSON data to the type hint ``tp``, naming ``path`` on failure.

    Every item of a list and every field of an object is read, so one call
    reports all their problems together (:class:`StoryboardProblemsError`). A beat
    whose timing alone is wrong is read with the timing its fix asks for, and
    its problem goes to ``repaired``.
    """
    origin, args = get_origin(tp), get_args(tp)
    wrong = StoryboardError(f"{path}: expected {_describe(tp)}, not {json.dumps(value)[:60]}")
    if tp is Any:
        return value
    if tp is type(None):
        if value is None:
            return None
        raise wrong
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
        raise wrong
    if origin is Literal:
        if isinstance(value, str) and value in args:
            return value
        raise wrong
    scalar = {bool: bool, int: int, float: int | float, str: str}.get(tp)
    if scalar is not None:
        if isinstance(value, scalar) and (tp is bool or not isinstance(value, bool)):
            return float(value) if tp is float else value
        raise wrong
    if origin in (tuple, list):
        if not isinstance(value, list):
            raise wrong
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(value) != len(args):
                raise wrong
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
            raise wrong
        return {str(k): _load(args[1], v, f"{path}.{k}", repaired) for k, v in value.items()}
    if isinstance(tp, type) and is_dataclass(tp):
        if not isinstance(value, dict):
            raise wrong
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
    hints = get_type_hints(tp)
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
    if version < SCHEMA_VERSION:
        raise StoryboardError(
            f"storyboard format version {version} is older than version {SCHEMA_VERSION}, "
            "which this embedviz reads; write it again with 'embedviz storyboard SCENE --json' "
            "and carry your edits over"
        )
    if version > SCHEMA_VERSION:
        raise StoryboardError(
            f"storyboard format version {version} is newer than version {SCHEMA_VERSION}, "
            "which this embedviz reads; upgrade embedviz to read it"
        )


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
    speak = speaker_for(language if isinstance(language, str) else "en")
    out = dict(data)
    if isinstance(data.get("parts"), list):
        out["parts"] = [_rephrased(p) if isinstance(p, dict) else p for p in data["parts"]]
    if isinstance(data.get("beats"), list):
        out["beats"] = [
            _rephrased_beat(b, speak) if isinstance(b, dict) else b for b in data["beats"]
        ]
    return out


def _rephrased_beat(beat: dict[str, Any], speak: Callable[[str], str]) -> dict[str, Any]:
    narration, phrases = beat.get("narration"), beat.get("phrases", [])
    if not isinstance(narration, str) or not isinstance(phrases, list):
        return beat  # mistyped: reading the beat reports it
    texts = [p["text"] for p in phrases if isinstance(p, dict) and isinstance(p.get("text"), str)]
    if len(texts) != len(phrases):
        return beat
    if " ".join(" ".join(texts).split()) == " ".join(narration.split()):
        return beat
    return {**beat, "phrases": [asdict(phrase) for phrase in make_phrases(narration, speak)]}


def _read_json(path: str | Path) -> tuple[Path, Any]:
    """Read a file's JSON, or raise :class:`UnreadableStoryboardError` in one line."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UnreadableStoryboardError(f"{file}: no such file") from None
    except IsADirectoryError:
        raise UnreadableStoryboardError(f"{file}: is a folder, not a storyboard file") from None
    except UnicodeDecodeError:
        raise UnreadableStoryboardError(f"{file}: not UTF-8 text") from None
    except OSError as error:
        raise UnreadableStoryboardError(f"{file}: cannot be read ({error.strerror})") from None
    try:
        return file, json.loads(text)
    except json.JSONDecodeError as error:
        raise UnreadableStoryboardError(
            f"{file}: not JSON ({error.msg} at line {error.lineno})"
        ) from None


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
        If the file is missing, not UTF-8 or not JSON.
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


# -- input files -------------------------------------------------------------

_HASHES: dict[tuple[str, int, int], str] = {}


def file_sha256(path: str | Path) -> str:
    """Return the SHA-256 of a file's bytes as hex (cached while it is unchanged).

    Parameters
    ----------
    path
        The file.

    Returns
    -------
    str
        64 lower-case hex digits.
    """
    file = Path(path)
    stat = file.stat()
    key = (str(file.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _HASHES:
        digest = hashlib.sha256()
        with file.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        _HASHES[key] = digest.hexdigest()
    return _HASHES[key]


def input_files(options: SceneOptions) -> tuple[InputFile, ...]:
    """Pin the files a storyboard is built from by their SHA-256.

    Parameters
    ----------
    options
        Prepared options (``weights`` already resolved from ``model``).

    Returns
    -------
    tuple of InputFile
        The weights file and the tokenizer file, where used.
    """
    pinned = []
    for role, name in (("weights", options.weights), ("tokenizer", options.tokenizer)):
        if name is not None and Path(name).is_file():
            pinned.append(InputFile(role, name, file_sha256(name)))  # type: ignore[arg-type]
    return tuple(pinned)


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


def verify_storyboard(board: Storyboard) -> list[str]:
    """Rebuild a storyboard from its options and files, and list where the file differs.

    Parameters
    ----------
    board
        A loaded storyboard.

    Returns
    -------
    list of str
        One line per problem, naming the beat, the cell or label and both
        values; empty when the file is true to the core. Edits to the
        title, the language, the UI words, the narration and the timing
        are allowed.
    """
    from embedviz.story.scenes import find_scene

    problems = []
    for pinned in board.inputs:
        file = Path(pinned.path)
        if not file.is_file():
            return [f"{pinned.role} file {pinned.path}: no longer exists"]
        if file_sha256(file) != pinned.sha256:
            problems.append(
                f"{pinned.role} file {pinned.path}: changed since the storyboard was made "
                f"(SHA-256 was {pinned.sha256[:12]}…, now {file_sha256(file)[:12]}…)"
            )
    try:
        core = find_scene(board.scene).make(board.options)
    except EmbedvizError as error:
        return [*problems, f"cannot rebuild {board.scene} from the recorded options: {error}"]
    # A changed file also shows as the cells that no longer match it.
    return [*problems, *_compare(board, core)]


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
