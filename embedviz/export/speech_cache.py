"""Spoken phrases kept once per machine, so that an edit re-speaks only what changed.

A teacher who corrects one phrase of a narrated clip changes its storyboard,
so the clip is rendered again (see :mod:`embedviz.export.site`); without this
cache every phrase and every description of the clip was spoken again too,
which with Piper is most of a re-export. Each phrase's speech is kept as the
WAV file the voice wrote, under a key made of everything the sound depends
on: the engine and its program, the voice and its model file, the settings,
and the exact line spoken. Reading a kept file back gives the same samples
as reading the freshly written one, so a clip is the same with or without
the cache.

The files live in ``$XDG_CACHE_HOME/embedviz/speech`` (by default
``~/.cache/embedviz/speech``), and the least recently used go once the folder
holds more than :data:`LIMIT_BYTES`. A cache that cannot be read or written
is ignored: the phrase is then spoken as before.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path

from embedviz.caches import cache_folder

__all__ = ["LIMIT_BYTES", "SpeechCache"]

#: The most the speech folder keeps (about 6 hours of speech at 22 kHz).
LIMIT_BYTES = 1 << 30

# Bump when what is stored, or how it is keyed, changes.
_FORMAT = 1


def _file_identity(path: str | None) -> str | None:
    """Return a file's path, size and modification time, or None if it cannot be read."""
    if path is None:
        return None
    try:
        status = os.stat(path)
    except OSError:
        return None
    return f"{os.path.realpath(path)}:{status.st_size}:{status.st_mtime_ns}"


def _piper_version() -> str:
    try:
        return metadata.version("piper-tts")
    except metadata.PackageNotFoundError:
        return "none"


class SpeechCache:
    """The kept speech of one voice with one set of settings.

    Parameters
    ----------
    voice
        Everything that names the voice: engine, name, language and model file.
    settings
        The options the engine is run with (speed, pauses).
    folder
        Where the files go; by default ``cache_folder() / "speech"``.
    """

    def __init__(
        self,
        voice: Mapping[str, str | None],
        settings: Mapping[str, str],
        folder: Path | None = None,
    ) -> None:
        self.folder = folder or cache_folder() / "speech"
        engine = voice.get("engine")
        program = shutil.which("espeak-ng") if engine == "espeak" else None
        self._identity = {
            "format": _FORMAT,
            **{k: v for k, v in voice.items() if k != "model"},
            # A new model file or program speaks differently: its path, size and time.
            "model": _file_identity(voice.get("model")),
            "program": _file_identity(program) if engine == "espeak" else _piper_version(),
            "settings": dict(settings),
        }
        self.written = 0

    def path(self, line: str) -> Path:
        """Return where the speech of one line is kept.

        Parameters
        ----------
        line
            The exact text the voice is given.

        Returns
        -------
        Path
            A ``.wav`` file in the cache folder, named by the key.
        """
        text = json.dumps({**self._identity, "line": line}, sort_keys=True)
        key = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return self.folder / key[:2] / f"{key}.wav"

    def get(self, line: str) -> Path | None:
        """Return the kept speech of a line, or None if there is none.

        Parameters
        ----------
        line
            The exact text the voice is given.

        Returns
        -------
        Path or None
            The kept WAV file (marked as just used), or None.
        """
        path = self.path(line)
        try:
            os.utime(path)  # the least recently used go first
        except OSError:
            return None
        return path

    def put(self, line: str, wav: Path) -> None:
        """Keep a freshly spoken WAV file for a line; a failure keeps nothing.

        Parameters
        ----------
        line
            The exact text the voice was given.
        wav
            The file the voice wrote.
        """
        path = self.path(line)
        staging: str | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, staging = tempfile.mkstemp(prefix=".speech-", suffix=".wav", dir=path.parent)
            with os.fdopen(handle, "wb") as target, wav.open("rb") as source:
                shutil.copyfileobj(source, target)
            # Another export may keep the same line at once; either file is whole.
            os.replace(staging, path)
            self.written += wav.stat().st_size
        except OSError:
            if staging is not None:
                Path(staging).unlink(missing_ok=True)

    def trim(self, limit: int = LIMIT_BYTES) -> None:
        """Delete the least recently used files until the folder holds at most ``limit`` bytes.

        Only files this cache names (``??/<sha256>.wav``) are counted or deleted.

        Parameters
        ----------
        limit
            The most the folder may hold, in bytes.
        """
        try:
            files = [
                (status.st_mtime_ns, status.st_size, path)
                for path in self.folder.glob("??/" + "[0-9a-f]" * 64 + ".wav")
                for status in (path.stat(),)
            ]
        except OSError:
            return
        total = sum(size for _, size, _ in files)
        for _, size, path in sorted(files):
            if total <= limit:
                break
            path.unlink(missing_ok=True)
            total -= size
