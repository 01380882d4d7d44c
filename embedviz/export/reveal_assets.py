"""reveal.js for slide decks: fetched once by ``embedviz setup slides``, never by npm.

A deck copies four files of reveal.js (the core, its stylesheet, the
speaker-notes plugin and its licence) next to its ``index.html``, so it plays
from ``file://`` without a CDN. embedviz does not carry those files in its own
source: ``embedviz setup slides`` downloads the pinned npm tarball over HTTPS
(or reads one given with ``--from``), checks it against the pinned SHA-512
integrity that npm publishes, and unpacks only those four files into the user's
data folder. Nothing else from the tarball is written, and a tarball whose hash
differs is refused whole.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path

from embedviz.core.errors import EmbedvizError

__all__ = [
    "REVEAL_FILES",
    "REVEAL_INTEGRITY",
    "REVEAL_URL",
    "REVEAL_VERSION",
    "find_reveal",
    "install_reveal",
    "reveal_home",
    "setup_command",
]

REVEAL_VERSION = "6.0.1"
REVEAL_URL = f"https://registry.npmjs.org/reveal.js/-/reveal.js-{REVEAL_VERSION}.tgz"
# The "dist.integrity" that the npm registry publishes for that tarball.
REVEAL_INTEGRITY = (
    "sha512-9eacArNIgqO2HGWOK+93gJNn+gvdGDVbSq+i2u3Ja9kjiHps0XNLpgYTZTYjKRH91uXy3clGimeGiw4umHG"
    "/tg=="
)
# Where each file a deck needs lies in the tarball -> where it goes.
REVEAL_FILES: Mapping[str, str] = {
    "package/dist/reveal.js": "reveal.js",
    "package/dist/reveal.css": "reveal.css",
    "package/dist/plugin/notes.js": "plugin/notes.js",
    "package/LICENSE": "LICENSE",
}
# The tarball is about 3 MB; anything far larger is not it.
_MAX_TARBALL_BYTES = 64 * 1024 * 1024


def setup_command() -> str:
    """Return the command that sets reveal.js up for the Python running embedviz."""
    return f"{sys.executable} -m embedviz setup slides"


def reveal_home(environ: Mapping[str, str] | None = None) -> Path:
    """Return the folder that holds this version's reveal.js files.

    Parameters
    ----------
    environ
        The environment to read ``XDG_DATA_HOME`` and ``HOME`` from; by
        default the process's.

    Returns
    -------
    Path
        ``$XDG_DATA_HOME/embedviz/reveal.js-VERSION`` (by default under
        ``~/.local/share``).
    """
    env = os.environ if environ is None else environ
    data = env.get("XDG_DATA_HOME") or str(Path(env.get("HOME") or Path.home()) / ".local/share")
    return Path(data) / "embedviz" / f"reveal.js-{REVEAL_VERSION}"


def _complete(folder: Path) -> bool:
    return all((folder / name).is_file() for name in REVEAL_FILES.values())


def find_reveal(environ: Mapping[str, str] | None = None) -> Path:
    """Return the folder of the reveal.js files that every deck copies.

    Parameters
    ----------
    environ
        As for :func:`reveal_home`.

    Returns
    -------
    Path
        A folder holding ``reveal.js``, ``reveal.css``, ``plugin/notes.js``
        and reveal.js's ``LICENSE``.

    Raises
    ------
    EmbedvizError
        If reveal.js has not been set up; the message names the command.
    """
    folder = reveal_home(environ)
    if _complete(folder):
        return folder
    raise EmbedvizError(
        f"slides need reveal.js {REVEAL_VERSION}, which is not set up yet; "
        f"run once: {setup_command()}"
    )


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def _read_source(source: str | Path | None) -> bytes:
    """Read the tarball from a file, or download it from the npm registry."""
    if source is not None:
        path = Path(source)
        try:
            if not path.is_file():
                raise EmbedvizError(f"--from {path}: not a file")
            if path.stat().st_size > _MAX_TARBALL_BYTES:
                raise EmbedvizError(f"--from {path}: too large to be the reveal.js tarball")
            return path.read_bytes()
        except OSError as error:
            raise EmbedvizError(f"--from {path}: {error.strerror or error}") from None
    try:
        with urllib.request.urlopen(REVEAL_URL, timeout=60) as response:
            data: bytes = response.read(_MAX_TARBALL_BYTES + 1)
    except (urllib.error.URLError, OSError, TimeoutError) as error:
        reason = getattr(error, "reason", None) or error
        raise EmbedvizError(
            f"could not download {REVEAL_URL} ({reason}); download it elsewhere and run "
            f"{setup_command()} --from reveal.js-{REVEAL_VERSION}.tgz"
        ) from None
    if len(data) > _MAX_TARBALL_BYTES:
        raise EmbedvizError(f"{REVEAL_URL} is too large to be the reveal.js tarball")
    return data


def _unpack(data: bytes, staging: Path) -> None:
    """Write the deck's files from the tarball into ``staging``; nothing else."""
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for member in archive.getmembers():
                target = REVEAL_FILES.get(member.name)
                if target is None:
                    continue
                if not member.isfile():
                    raise EmbedvizError(f"the reveal.js tarball's {member.name} is not a file")
                reader = archive.extractfile(member)
                assert reader is not None  # a regular file always has a reader
                (staging / target).parent.mkdir(parents=True, exist_ok=True)
                (staging / target).write_bytes(reader.read())
    except (tarfile.TarError, OSError, EOFError) as error:
        raise EmbedvizError(f"the reveal.js tarball cannot be unpacked ({error})") from None
    missing = [name for name in REVEAL_FILES.values() if not (staging / name).is_file()]
    if missing:
        raise EmbedvizError(f"the reveal.js tarball lacks {', '.join(missing)}")


def install_reveal(
    source: str | Path | None = None,
    *,
    integrity: str = REVEAL_INTEGRITY,
    environ: Mapping[str, str] | None = None,
) -> tuple[Path, bool]:
    """Set reveal.js up for slide decks, if it is not set up already.

    Parameters
    ----------
    source
        A local copy of the npm tarball; by default it is downloaded from
        :data:`REVEAL_URL`.
    integrity
        The expected npm integrity string (SHA-512, base64); the pinned
        release's by default.
    environ
        As for :func:`reveal_home`.

    Returns
    -------
    tuple of (Path, bool)
        The folder, and whether this call wrote it (False when it was there).

    Raises
    ------
    EmbedvizError
        If the tarball cannot be read, its hash differs, or it lacks a file.
        Nothing is left behind then.
    """
    home = reveal_home(environ)
    if _complete(home):
        return home, False
    data = _read_source(source)
    found = _integrity(data)
    if found != integrity:
        raise EmbedvizError(
            f"the reveal.js tarball's SHA-512 does not match reveal.js {REVEAL_VERSION} "
            f"(expected {integrity}, got {found}); nothing was written"
        )
    try:
        home.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{home.name}.", dir=home.parent))
    except OSError as error:
        raise EmbedvizError(f"cannot write {home.parent}: {error.strerror or error}") from None
    try:
        _unpack(data, staging)
        for path in [staging, *staging.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        if home.exists():
            # An incomplete earlier setup: replace only the files a deck needs.
            for name in REVEAL_FILES.values():
                (home / name).parent.mkdir(parents=True, exist_ok=True)
                os.replace(staging / name, home / name)
        else:
            staging.rename(home)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return home, True
