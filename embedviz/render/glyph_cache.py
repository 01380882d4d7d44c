"""Glyph outlines measured once per machine, as fontconfig caches its fonts.

Measuring a :class:`~embedviz.render.glyphs.GlyphFont` lays out about a
hundred characters with Pango and parses the SVGs: about a third of a second
of CPU per font, in every render (two fonts: a sixth of a short scene's
render at ``-ql``). The measurements depend only on the font file, Pango and
Manim, so they are kept in the user's cache folder
(``$XDG_CACHE_HOME/embedviz``, by default ``~/.cache/embedviz``), keyed by
all of these, and read back in milliseconds. A cache that cannot be read or
written is ignored: the font is then measured as before.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

from embedviz.caches import cache_folder

__all__ = ["cache_folder", "cached_glyph_font"]

FontT = TypeVar("FontT")

# Bump when what is stored changes.
_FORMAT = 1
_ARRAYS = ("_outlines", "_offsets")


def _font_file(family: str) -> str | None:
    """Name the file fontconfig picks for a family, with its size and time (or None)."""
    if shutil.which("fc-match") is None:
        return None
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{file}", family], capture_output=True, text=True, timeout=10
        ).stdout.strip()
        status = os.stat(found)
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{found}:{status.st_size}:{status.st_mtime_ns}"


def _key(family: str, extra: dict[str, Any]) -> str | None:
    font_file = _font_file(family)
    if font_file is None:
        return None
    versions = {}
    for package in ("manim", "manimpango"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = "none"
    text = json.dumps(
        {"format": _FORMAT, "family": family, "file": font_file, **versions, **extra},
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def cached_glyph_font(
    family: str, font_class: type[FontT], extra: dict[str, Any] | None = None
) -> FontT:
    """Return a measured glyph font, from the cache when it holds this one.

    Parameters
    ----------
    family
        The font family.
    font_class
        :class:`~embedviz.render.glyphs.GlyphFont`: ``font_class(family)``
        measures the font; its attributes are what is stored.
    extra
        Anything else the measurement depends on (reference size, characters).

    Returns
    -------
    GlyphFont
        The font, measured now or read back.
    """
    key = _key(family, extra or {})
    path = cache_folder() / f"glyphs-{key}.npz" if key else None
    if path is not None:
        state = _load(path)
        if state is not None:
            font = font_class.__new__(font_class)
            vars(font).update(state)
            return font
    font = font_class(family)  # type: ignore[call-arg]
    if path is not None:
        _save(path, vars(font))
    return font


def _load(path: Path) -> dict[str, Any] | None:
    """Read a stored font's attributes, or None if the file is missing or unreadable."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            state: dict[str, Any] = json.loads(str(stored["fields"]))
            state["_advances"] = {chr(int(c)): a for c, a in state["_advances"].items()}
            for kind in _ARRAYS:
                state[kind] = {}
            for name in stored.files:
                kind, _, code = name.partition(":")
                if kind in _ARRAYS:
                    state[kind][chr(int(code))] = stored[name]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return state


def _save(path: Path, state: dict[str, Any]) -> None:
    """Store a font's attributes in one step; a failure leaves no file behind."""
    fields = {k: v for k, v in state.items() if k not in (*_ARRAYS, "_advances")}
    fields["_advances"] = {str(ord(c)): float(a) for c, a in state["_advances"].items()}
    arrays = {
        f"{kind}:{ord(char)}": np.asarray(value)
        for kind in _ARRAYS
        for char, value in state[kind].items()
    }
    staging: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, staging = tempfile.mkstemp(prefix=".glyphs-", suffix=".npz", dir=path.parent)
        with os.fdopen(handle, "wb") as file:
            cast(Any, np.savez)(file, fields=np.array(json.dumps(fields)), **arrays)
        # Another process may store the same font at once; either file is whole.
        os.replace(staging, path)
    except (OSError, TypeError, ValueError):
        if staging is not None:
            Path(staging).unlink(missing_ok=True)
