"""A strict WebVTT checker for the tests, written from the W3C WebVTT spec.

It follows the spec's *authoring* (file conformance) rules, which are stricter
than the browser's forgiving parser: a file that passes here is one that a
validator accepts and that every player shows as written. It checks

- the ``WEBVTT`` signature line and the blank lines between blocks;
- comment (``NOTE``), ``STYLE`` and ``REGION`` blocks, only before the cues for
  the last two;
- cue identifiers, and cue timings: timestamps in the exact
  ``[hh:]mm:ss.ttt`` form (minutes and seconds 00-59, hours at least two
  digits), an end later than the start, and every start at or after the
  starts of all earlier cues;
- cue settings, by name and value;
- cue text: ``&`` only as an HTML character reference (with its ``;``),
  ``<`` only as a valid cue tag (``c``, ``i``, ``b``, ``u``, ``ruby``, ``rt``,
  ``v``, ``lang`` or a timestamp), every span closed in order, no empty line
  and no ``-->``;
- for chapters (``chapters=True``): chapter title text (no tags) and cues that
  nest or do not overlap at all ("a WebVTT file using only nested cues").

It shares no code with :mod:`embedviz.export.documents`; the text of each cue
comes back with its character references decoded, so a test can compare it
with what was meant.
"""

from __future__ import annotations

import html.entities
import re
from dataclasses import dataclass

__all__ = ["Cue", "WebVTTError", "parse_webvtt"]


class WebVTTError(ValueError):
    """The file does not conform to the WebVTT spec."""


@dataclass(frozen=True)
class Cue:
    """One cue: identifier, times in seconds and the decoded text."""

    identifier: str
    start: float
    end: float
    text: str


_TIMESTAMP = re.compile(r"(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})")
_TIMING = re.compile(r"(\S+)[ \t]+-->[ \t]+(\S+)((?:[ \t]+\S+)*)[ \t]*")
_SETTING_VALUES = {
    "vertical": re.compile(r"rl|lr"),
    "line": re.compile(r"(?:-?\d+|\d+(?:\.\d+)?%)(?:,(?:start|center|end))?"),
    "position": re.compile(r"\d+(?:\.\d+)?%(?:,(?:line-left|center|line-right))?"),
    "size": re.compile(r"\d+(?:\.\d+)?%"),
    "align": re.compile(r"start|center|end|left|right"),
    "region": re.compile(r"[^\s]+"),
}
_ENTITIES = html.entities.html5
_REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
_TAG = re.compile(r"<(/?)([^\s.>/]*)((?:\.[^\s.>]+)*)(?:[ \t]([^>\n]*))?>")
_TIMESTAMP_TAG = re.compile(r"<(?:\d{2,}:)?[0-5]\d:[0-5]\d\.\d{3}>")
_TAG_NAMES = {"c", "i", "b", "u", "ruby", "rt", "v", "lang"}


def _seconds(text: str, where: str) -> float:
    match = _TIMESTAMP.fullmatch(text)
    if match is None:
        raise WebVTTError(f"{where}: bad timestamp {text!r}")
    hours, minutes, secs, millis = match.groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(secs) + int(millis) / 1000


def _reference(text: str, where: str) -> str:
    if text.startswith("&#"):
        digits = text[3:-1] if text[2] in "xX" else text[2:-1]
        code = int(digits, 16 if text[2] in "xX" else 10)
        if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise WebVTTError(f"{where}: bad character reference {text!r}")
        return chr(code)
    name = text[1:]
    if name not in _ENTITIES:
        raise WebVTTError(f"{where}: unknown character reference {text!r}")
    return _ENTITIES[name]


def _cue_text(payload: str, where: str, *, tags_allowed: bool) -> str:
    """Check cue text and return it with references decoded and tags dropped."""
    out: list[str] = []
    open_tags: list[str] = []
    position = 0
    while position < len(payload):
        char = payload[position]
        if char == "&":
            match = _REFERENCE.match(payload, position)
            if match is None:
                raise WebVTTError(f"{where}: '&' that does not start a character reference")
            out.append(_reference(match.group(0), where))
            position = match.end()
        elif char == "<":
            stamp = _TIMESTAMP_TAG.match(payload, position)
            if stamp is not None and tags_allowed:
                position = stamp.end()
                continue
            match = _TAG.match(payload, position)
            if match is None:
                raise WebVTTError(f"{where}: '<' that does not start a valid cue tag")
            closing, name, classes, annotation = match.groups()
            if not tags_allowed:
                raise WebVTTError(f"{where}: chapter title text holds a tag {match.group(0)!r}")
            if name not in _TAG_NAMES:
                raise WebVTTError(f"{where}: unknown cue tag {match.group(0)!r}")
            if closing:
                if classes or annotation:
                    raise WebVTTError(f"{where}: end tag with classes or annotation")
                if not open_tags or open_tags[-1] != name:
                    raise WebVTTError(f"{where}: end tag </{name}> closes nothing open")
                open_tags.pop()
            else:
                if name in {"v", "lang"} and not (annotation or "").strip():
                    raise WebVTTError(f"{where}: <{name}> needs an annotation")
                if name not in {"v", "lang"} and annotation:
                    raise WebVTTError(f"{where}: <{name}> takes no annotation")
                open_tags.append(name)
            position = match.end()
        else:
            out.append(char)
            position += 1
    # Only a voice span that runs to the end of the cue may be left open.
    if [tag for tag in open_tags if tag != "v"] or len(open_tags) > 1:
        raise WebVTTError(f"{where}: unclosed cue tags {open_tags}")
    return "".join(out)


def _blocks(lines: list[str]) -> list[tuple[int, list[str]]]:
    """Split lines into blocks at blank lines, with each block's first line number."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for number, line in enumerate(lines, start=1):
        if line == "":
            if current:
                blocks.append((start, current))
                current = []
        else:
            if not current:
                start = number
            current.append(line)
    if current:
        blocks.append((start, current))
    return blocks


def parse_webvtt(text: str, *, chapters: bool = False) -> list[Cue]:
    """Check a WebVTT file strictly and return its cues.

    Parameters
    ----------
    text
        The whole file, decoded from UTF-8.
    chapters
        Check it as a chapters file: chapter title text, only nested cues.

    Returns
    -------
    list of Cue
        The cues in file order, text decoded.

    Raises
    ------
    WebVTTError
        On the first thing that does not conform, with its line number.
    """
    if "\0" in text:
        raise WebVTTError("NUL character in the file")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = re.split(r"\r\n|\r|\n", text)
    signature = lines[0]
    if not re.fullmatch(r"WEBVTT(?:[ \t][^\n]*)?", signature) or "-->" in signature:
        raise WebVTTError(f"line 1: the file must start with 'WEBVTT', not {signature!r}")
    if len(lines) > 1 and lines[1] != "":
        raise WebVTTError("line 2: the WEBVTT line must be followed by a blank line")
    cues: list[Cue] = []
    seen_cue = False
    for start_line, block in _blocks(lines[1:]):
        where = f"line {start_line + 1}"
        first = block[0]
        if re.match(r"NOTE(?:[ \t]|$)", first):
            if any("-->" in line for line in block):
                raise WebVTTError(f"{where}: '-->' inside a NOTE block")
            continue
        if first in {"STYLE", "REGION"} or re.match(r"(?:STYLE|REGION)[ \t]*$", first):
            if seen_cue:
                raise WebVTTError(f"{where}: {first} block after the first cue")
            if any("-->" in line for line in block):
                raise WebVTTError(f"{where}: '-->' inside a {first} block")
            continue
        identifier = ""
        if "-->" not in first:
            identifier, block = first, block[1:]
            if not block:
                raise WebVTTError(f"{where}: a block that is neither a cue nor a comment")
        timing, *payload = block
        match = _TIMING.fullmatch(timing)
        if match is None:
            raise WebVTTError(f"{where}: bad cue timings line {timing!r}")
        start = _seconds(match.group(1), where)
        end = _seconds(match.group(2), where)
        for setting in match.group(3).split():
            name, colon, value = setting.partition(":")
            pattern = _SETTING_VALUES.get(name)
            if not colon or pattern is None or not pattern.fullmatch(value):
                raise WebVTTError(f"{where}: bad cue setting {setting!r}")
        if end <= start:
            raise WebVTTError(f"{where}: the cue ends at or before its start")
        if cues and start < max(cue.start for cue in cues):
            raise WebVTTError(f"{where}: the cue starts before an earlier cue")
        if not payload:
            raise WebVTTError(f"{where}: a cue with no text")
        for line in payload:
            if "-->" in line:
                raise WebVTTError(f"{where}: '-->' inside cue text")
        decoded = _cue_text("\n".join(payload), where, tags_allowed=not chapters)
        cues.append(Cue(identifier, start, end, decoded))
        seen_cue = True
    if chapters:
        for index, cue in enumerate(cues):
            for other in cues[:index]:
                disjoint = cue.start >= other.end or other.start >= cue.end
                nested = (other.start <= cue.start and cue.end <= other.end) or (
                    cue.start <= other.start and other.end <= cue.end
                )
                same = (cue.start, cue.end) == (other.start, other.end)
                if not disjoint and (not nested or same):
                    raise WebVTTError(
                        f"chapter {cue.identifier or index + 1!s} overlaps an earlier one"
                    )
    return cues
