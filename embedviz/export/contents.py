"""What an exported site holds: its clips, how each was rendered, and its title.

A course site grows over a term: each export adds or replaces its own clips
and keeps every other clip byte for byte (see :mod:`embedviz.export.site`).
To list a clip in the gallery without rendering it again, each clip folder
carries a record, ``SCENE/SCENE.clip.json``:

- ``clip``: what the gallery shows of it, the fields of
  :class:`~embedviz.export.documents.ExportedClip` (title, blurb, length,
  language, chapters, ...) as the export that rendered it worked them out;
- ``render``: its render key, a hash of the storyboard it was rendered from,
  of the settings it was rendered with (quality, voice, burned captions) and
  of embedviz's code and the versions of Manim and PyAV, with the settings in
  readable form. An export whose key is unchanged reuses the clip.

A clip exported before records existed is listed from its
``SCENE.storyboard.json`` instead, and is never reused. The site's own
words, set with ``--title`` and ``--intro``, are in :data:`SITE_RECORD`.

Records are data read back from a folder anyone may have edited: each is read
only as a regular file of the site's manifest, within a size limit, and every
field is checked. A record that fails a check is not used: the clip it
describes can be exported again or removed, and nothing else depends on it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.metadata
import json
import math
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import embedviz
from embedviz.core.errors import EmbedvizError
from embedviz.export.documents import ExportedClip
from embedviz.export.folders import listed_files, listed_path
from embedviz.story.model import Storyboard

__all__ = [
    "CLIP_RECORD",
    "DEFAULT_TITLE",
    "SITE_RECORD",
    "HeldClip",
    "SiteContents",
    "SiteWords",
    "clip_record_json",
    "clip_record_name",
    "code_fingerprint",
    "intro_paragraphs",
    "read_clip_record",
    "read_site",
    "render_key",
    "render_settings",
    "site_title",
    "teaching_order",
]

# A clip's record, beside its files: SCENE/SCENE.clip.json.
CLIP_RECORD = "clip.json"
# The site's title and intro, when a teacher gave them.
SITE_RECORD = ".embedviz-site.json"
DEFAULT_TITLE = "embedviz clips"
_GENERATOR = "embedviz"
_FORMAT = 1
# A record is a few kilobytes (FullExplainer's chapters); anything bigger is not one of ours.
_RECORD_BYTES = 1024 * 1024
_TITLE_CHARS = 200
_INTRO_CHARS = 20_000
_TEXT_CHARS = 20_000
# A clip folder is named after its scene class; nothing else may name a path or an id.
_SCENE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")
# A well-formed BCP 47 tag, e.g. de, pt-BR, zh-Hant-TW.
_LANGUAGE = re.compile(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*")


def clip_record_name(scene: str) -> str:
    """Return a clip's record, relative to the site: ``SCENE/SCENE.clip.json``.

    Parameters
    ----------
    scene
        The scene's class name (its folder's name).

    Returns
    -------
    str
        The site-relative name.
    """
    return f"{scene}/{scene}.{CLIP_RECORD}"


# -- render keys -------------------------------------------------------------------------


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """Return a hash of the code that renders a clip: embedviz's, and Manim's and PyAV's versions.

    Every Python file of the installed package counts, so any change to
    embedviz (a new release, or an edit in a checkout) renders clips again.

    Returns
    -------
    str
        A SHA-256 hex digest.
    """
    digest = hashlib.sha256()
    for name, version in (
        ("embedviz", embedviz.__version__),
        ("manim", _version("manim")),
        ("av", _version("av")),
    ):
        digest.update(f"{name}={version}\n".encode())
    package = Path(embedviz.__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _file_digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


@functools.lru_cache(maxsize=4)
def _espeak_version() -> str:
    found = shutil.which("espeak-ng")
    if found is None:
        return "not installed"
    try:
        answer = subprocess.run(
            [found, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return answer.stdout.split("Data at")[0].strip() or "unknown"


def _voice_identity(voice: Any) -> dict[str, Any] | None:
    """Say which voice speaks, down to its model's bytes and its engine's version."""
    if voice is None:
        return None
    identity: dict[str, Any] = {
        "engine": voice.engine,
        "name": voice.name,
        "language": voice.language,
    }
    if voice.engine == "piper":
        model = Path(voice.model) if voice.model else None
        identity["engine_version"] = _version("piper-tts")
        identity["model"] = _file_digest(model) if model else None
        identity["model_config"] = (
            _file_digest(model.with_name(model.name + ".json")) if model else None
        )
    else:
        identity["engine_version"] = _espeak_version()
    return identity


def render_settings(
    quality: str, voice: Any, burn_captions: bool, *, constant_frame_rate: bool = False
) -> dict[str, Any]:
    """Return the settings that make a clip what it is, besides its storyboard.

    Every setting that changes a clip's files belongs here; one that does
    not (``-j``, ``--verbose``) does not, so that it never renders again.

    Parameters
    ----------
    quality
        ``l`` … ``k``.
    voice
        The :class:`~embedviz.export.voice.Voice` that speaks, or None.
    burn_captions
        Whether the narration is drawn into the picture too.
    constant_frame_rate
        Whether every tick gets a frame (``--cfr``), where the writer offers
        a choice.

    Returns
    -------
    dict
        JSON-ready settings, recorded with the clip and hashed into its key.
    """
    return {
        "quality": quality,
        "voice": _voice_identity(voice),
        "burn_captions": bool(burn_captions),
        "constant_frame_rate": bool(constant_frame_rate),
    }


def render_key(board: Storyboard, settings: Mapping[str, Any]) -> str:
    """Return the key under which a rendered clip may be reused.

    Parameters
    ----------
    board
        The storyboard the clip is rendered from (before a voice times it).
    settings
        From :func:`render_settings`.

    Returns
    -------
    str
        A SHA-256 hex digest of the storyboard's JSON, the settings and
        :func:`code_fingerprint`.
    """
    material = {
        "format": _FORMAT,
        "storyboard": board.to_json(),
        "settings": dict(settings),
        "code": code_fingerprint(),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def clip_record_json(fields: Mapping[str, Any], key: str, settings: Mapping[str, Any]) -> str:
    """Return a clip's record: its gallery fields and its render key.

    Parameters
    ----------
    fields
        The :class:`~embedviz.export.documents.ExportedClip` fields, as the
        export worked them out.
    key
        From :func:`render_key`.
    settings
        The readable settings the key covers.

    Returns
    -------
    str
        The JSON text of ``SCENE/SCENE.clip.json``.
    """
    names = {field.name for field in dataclasses.fields(ExportedClip)}
    record = {
        "generator": _GENERATOR,
        "format": _FORMAT,
        "clip": {name: value for name, value in fields.items() if name in names},
        "render": {"key": key, "settings": dict(settings)},
    }
    return json.dumps(record, indent=1, ensure_ascii=False) + "\n"


# -- reading records back ----------------------------------------------------------------


def _read_json(path: Path | None) -> Any:
    if path is None:
        raise ValueError("it is missing, a link or not a plain file")
    with path.open("rb") as handle:
        text = handle.read(_RECORD_BYTES + 1)
    if len(text) > _RECORD_BYTES:
        raise ValueError(f"it is larger than {_RECORD_BYTES} bytes")
    try:
        data = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ValueError("it is not JSON") from None
    if not isinstance(data, dict) or data.get("generator") != _GENERATOR:
        raise ValueError("it is not embedviz's")
    if data.get("format") != _FORMAT:
        raise ValueError(f"its format is not {_FORMAT}")
    return data


def _number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"its '{name}' is not a number")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"its '{name}' is not a finite time")
    return float(value)


def _text(name: str, value: object) -> str:
    if not isinstance(value, str) or len(value) > _TEXT_CHARS:
        raise ValueError(f"its '{name}' is not a text")
    return value


def _field(name: str, kind: str, value: object) -> object:
    """Check one gallery field by its declared type, returning it as the dataclass holds it."""
    if kind == "str":
        return _text(name, value)
    if kind == "float":
        return _number(name, value)
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"its '{name}' is not true or false")
        return value
    if kind == "tuple[tuple[float, float, str], ...]":
        if not isinstance(value, list) or len(value) > 10_000:
            raise ValueError(f"its '{name}' is not a list")
        items = []
        for item in value:
            if not isinstance(item, list) or len(item) != 3:
                raise ValueError(f"its '{name}' holds an entry that is not [start, end, title]")
            items.append((_number(name, item[0]), _number(name, item[1]), _text(name, item[2])))
        return tuple(items)
    if kind == "Mapping[str, str]":
        if not isinstance(value, dict) or len(value) > 10_000:
            raise ValueError(f"its '{name}' is not an object")
        return {_text(name, key): _text(name, text) for key, text in value.items()}
    raise ValueError(f"its '{name}' is of a kind this version of embedviz cannot read")


def _clip_from_fields(data: object, scene: str) -> ExportedClip:
    if not isinstance(data, dict):
        raise ValueError("its 'clip' is not an object")
    values: dict[str, Any] = {}
    for field in dataclasses.fields(ExportedClip):
        if field.name in data:
            values[field.name] = _field(field.name, str(field.type), data[field.name])
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise ValueError(f"it has no '{field.name}'")
    clip = ExportedClip(**values)
    if clip.scene != scene or clip.folder != scene:
        raise ValueError(f"it describes {clip.scene!r} in {clip.folder!r}, not {scene!r}")
    if not _LANGUAGE.fullmatch(clip.language):
        raise ValueError("its 'language' is not a BCP 47 tag")
    return clip


def read_clip_record(site: Path, scene: str) -> tuple[ExportedClip, str]:
    """Read and check a clip's record.

    Parameters
    ----------
    site
        The site folder.
    scene
        The clip's folder name.

    Returns
    -------
    tuple
        The clip as the gallery lists it, and its render key.

    Raises
    ------
    ValueError
        Saying what is wrong with the record.
    """
    data = _read_json(listed_path(site, clip_record_name(scene)))
    clip = _clip_from_fields(data.get("clip"), scene)
    render = data.get("render")
    key = render.get("key") if isinstance(render, dict) else None
    if not isinstance(key, str) or not re.fullmatch(r"[0-9a-f]{64}", key):
        raise ValueError("its render key is not a SHA-256 digest")
    return clip, key


def _clip_from_storyboard(site: Path, scene: str) -> ExportedClip:
    """List a clip exported before records existed, from its storyboard."""
    from embedviz.story.contract import load_storyboard
    from embedviz.story.scenes import find_scene

    path = listed_path(site, f"{scene}/{scene}.storyboard.json")
    if path is None:
        raise ValueError("its storyboard is missing, a link or not a plain file")
    try:
        board = load_storyboard(path)
        spec = find_scene(board.scene)
    except EmbedvizError as error:
        raise ValueError(str(error).splitlines()[0]) from None
    if spec.name != scene:
        raise ValueError(f"its storyboard is of {spec.name}, not {scene}")
    return ExportedClip.of(board, spec.summary)


@dataclass(frozen=True)
class HeldClip:
    """A clip that a site holds.

    Attributes
    ----------
    scene
        Its folder's name, its scene's class name.
    files
        Its files, relative to the site, as the manifest lists them.
    clip
        What the gallery lists for it; None when it cannot be read back.
    key
        Its render key; None for a clip exported before records existed.
    problem
        Why ``clip`` is None.
    """

    scene: str
    files: tuple[str, ...]
    clip: ExportedClip | None
    key: str | None = None
    problem: str | None = None


@dataclass(frozen=True)
class SiteWords:
    """The site's own words, set with ``--title``, ``--intro`` and ``--lang``.

    Attributes
    ----------
    title
        The gallery's heading and ``<title>``; None for the default.
    intro
        Paragraphs under the heading; empty for the default blurb.
    language
        The BCP 47 tag of the title and intro.
    """

    title: str | None = None
    intro: tuple[str, ...] = ()
    language: str = "en"

    def updated(
        self, title: str | None = None, intro: str | None = None, language: str | None = None
    ) -> SiteWords:
        """Return the words with what a run gave changed, and the rest kept.

        Parameters
        ----------
        title
            A new title (``""`` for the default), or None to keep it.
        intro
            A new intro text (``""`` for none), or None to keep it.
        language
            A new language tag, or None to keep it.

        Returns
        -------
        SiteWords
            The updated words.

        Raises
        ------
        EmbedvizError
            When the title or intro is too long or holds control characters,
            or the tag is not BCP 47.
        """
        return SiteWords(
            self.title if title is None else site_title(title),
            self.intro if intro is None else intro_paragraphs(intro),
            self.language if language is None else _language(language),
        )

    @property
    def heading(self) -> str:
        """The title to show: the site's, or :data:`DEFAULT_TITLE`."""
        return self.title or DEFAULT_TITLE

    def to_json(self) -> str | None:
        """Return the site record's text, or None when every word is the default."""
        if self == SiteWords():
            return None
        record = {
            "generator": _GENERATOR,
            "format": _FORMAT,
            "title": self.title,
            "intro": list(self.intro),
            "language": self.language,
        }
        return json.dumps(record, indent=1, ensure_ascii=False) + "\n"


def _no_controls(text: str, option: str, allowed: str = "") -> None:
    for character in text:
        if unicodedata.category(character) in ("Cc", "Cs") and character not in allowed:
            raise EmbedvizError(
                f"{option} holds the control character U+{ord(character):04X}; give plain text"
            )


def site_title(text: str) -> str | None:
    """Return a title as the gallery shows it: one line, its spaces collapsed.

    Parameters
    ----------
    text
        The ``--title`` given.

    Returns
    -------
    str or None
        The title; None for an empty one (the default title).

    Raises
    ------
    EmbedvizError
        When it is longer than 200 characters or holds control characters.
    """
    _no_controls(text, "--title", "\t\n\r")
    title = " ".join(text.split())
    if len(title) > _TITLE_CHARS:
        raise EmbedvizError(f"--title is {len(title)} characters long; give at most {_TITLE_CHARS}")
    return title or None


def intro_paragraphs(text: str) -> tuple[str, ...]:
    """Split an intro into paragraphs at blank lines, each on one line.

    Parameters
    ----------
    text
        The ``--intro`` text, or the text of ``--intro-file``.

    Returns
    -------
    tuple of str
        The paragraphs (none for an empty text).

    Raises
    ------
    EmbedvizError
        When it is longer than 20,000 characters or holds control characters.
    """
    _no_controls(text, "--intro", "\t\n\r")
    if len(text) > _INTRO_CHARS:
        raise EmbedvizError(f"--intro is {len(text)} characters long; give at most {_INTRO_CHARS}")
    blocks = re.split(r"\n[ \t\r]*\n", text.replace("\r\n", "\n"))
    return tuple(paragraph for block in blocks if (paragraph := " ".join(block.split())))


def _language(tag: str) -> str:
    if not _LANGUAGE.fullmatch(tag):
        raise EmbedvizError(f"--lang {tag!r} is not a BCP 47 language tag such as 'en' or 'fr'")
    return tag


def _read_site_words(site: Path) -> SiteWords:
    """Read the site record; one that fails a check gives the default words."""
    try:
        data = _read_json(listed_path(site, SITE_RECORD))
        title = data.get("title")
        intro = data.get("intro")
        language = data.get("language")
        if title is not None and not isinstance(title, str):
            raise ValueError("title")
        if not isinstance(intro, list) or not all(isinstance(p, str) for p in intro):
            raise ValueError("intro")
        if not isinstance(language, str):
            raise ValueError("language")
        return SiteWords().updated(title or "", "\n\n".join(intro), language)
    except (OSError, ValueError, EmbedvizError):
        return SiteWords()


def _held_clip(site: Path, scene: str, files: tuple[str, ...]) -> HeldClip | None:
    """Read one clip folder back; None for a folder that is not a clip."""
    try:
        if clip_record_name(scene) in files:
            try:
                clip, key = read_clip_record(site, scene)
            except ValueError as error:
                raise ValueError(f"its record {error}") from None
        elif f"{scene}/{scene}.storyboard.json" in files:
            clip, key = _clip_from_storyboard(site, scene), None
        else:
            return None
        missing = [name for name in files if listed_path(site, name) is None]
        if missing:
            raise ValueError(f"its file {missing[0]} is missing, a link or not a plain file")
    except (OSError, ValueError) as error:
        return HeldClip(scene, files, None, problem=str(error))
    return HeldClip(scene, files, clip, key)


@dataclass(frozen=True)
class SiteContents:
    """What a site holds, as its manifest and records say.

    Attributes
    ----------
    clips
        Its clips, by folder name.
    words
        Its title and intro.
    """

    clips: Mapping[str, HeldClip]
    words: SiteWords


def read_site(site: Path) -> SiteContents:
    """Read what an embedviz site holds: its clips, how each was rendered, its title.

    A clip is a folder of the manifest that holds its record
    (``SCENE/SCENE.clip.json``) or, exported before records existed, its
    storyboard (``SCENE/SCENE.storyboard.json``).

    Parameters
    ----------
    site
        A folder; absent, empty, or not embedviz's gives an empty site.

    Returns
    -------
    SiteContents
        Its clips and words.

    Raises
    ------
    EmbedvizError
        When its manifest lists a name outside the folder.
    """
    listed = listed_files(site) if site.is_dir() and not site.is_symlink() else None
    if listed is None:
        return SiteContents({}, SiteWords())
    folders: dict[str, list[str]] = {}
    for name in listed:
        first, _, rest = name.partition("/")
        if rest:
            folders.setdefault(first, []).append(name)
    clips = {}
    for scene, names in sorted(folders.items()):
        if _SCENE_NAME.fullmatch(scene):
            held = _held_clip(site, scene, tuple(sorted(names)))
            if held is not None:
                clips[scene] = held
    words = _read_site_words(site) if SITE_RECORD in listed else SiteWords()
    return SiteContents(clips, words)


def teaching_order(scenes: Iterable[str]) -> list[str]:
    """Sort clip names in teaching order: the order of ``embedviz scenes``, FullExplainer last.

    A scene this version does not know comes after the ones it knows and
    before FullExplainer, by name.

    Parameters
    ----------
    scenes
        Scene class names.

    Returns
    -------
    list of str
        The names, sorted.
    """
    from embedviz.story.scenes import SCENES

    known = list(SCENES)

    def place(name: str) -> tuple[bool, int, str]:
        return name == "FullExplainer", known.index(name) if name in known else len(known), name

    return sorted(set(scenes), key=place)
