"""Checking a path the user named before anything is opened.

"Does not exist" is only right when nothing is there: a folder where a file
was expected, a device such as ``/dev/null``, a FIFO (whose ``open`` would
block) or a broken symbolic link each get their own one-line message.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from embedviz.core.errors import EmbedvizError

__all__ = ["require_file", "require_folder"]

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _stat(path: Path, what: str) -> os.stat_result:
    """Stat ``path``, following links, turning every failure into one clear line."""
    try:
        return path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            raise EmbedvizError(
                f"{what} {path} is a broken symbolic link (its target does not exist)"
            ) from None
        raise EmbedvizError(f"{what} {path} does not exist") from None
    except NotADirectoryError:
        raise EmbedvizError(
            f"{what} {path} does not exist (a part of the path is a file, not a folder)"
        ) from None
    except PermissionError:
        raise EmbedvizError(f"{what} {path} cannot be reached (permission denied)") from None
    except OSError as error:  # ELOOP, ENAMETOOLONG, ...
        raise EmbedvizError(f"{what} {path} cannot be used ({error.strerror})") from None


def require_file(path: str | Path, what: str) -> Path:
    """Refuse a path that is not an existing, readable regular file.

    Parameters
    ----------
    path
        The path as the user gave it.
    what
        What the file is for, starting the message, e.g. ``"weights file"``.

    Returns
    -------
    pathlib.Path
        The path.

    Raises
    ------
    EmbedvizError
        Saying what is wrong: it does not exist, is a directory, is not a
        regular file (a device, a FIFO, a socket), is a broken link, or
        cannot be read.
    """
    file = Path(path)
    mode = _stat(file, what).st_mode
    if stat.S_ISDIR(mode):
        raise EmbedvizError(f"{what} {file} is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise EmbedvizError(f"{what} {file} is not a regular file (it is {_kind(mode)})")
    if not os.access(file, os.R_OK):
        raise EmbedvizError(f"{what} {file} cannot be read (permission denied)")
    return file


def require_folder(path: str | Path, what: str) -> Path:
    """Refuse a path that is not an existing folder.

    Parameters
    ----------
    path
        The path as the user gave it.
    what
        What the folder is for, starting the message, e.g. ``"model folder"``.

    Returns
    -------
    pathlib.Path
        The path.

    Raises
    ------
    EmbedvizError
        Saying what is wrong: it does not exist, is a file, or is something
        else (a device, a FIFO, ...).
    """
    folder = Path(path)
    mode = _stat(folder, what).st_mode
    if stat.S_ISREG(mode):
        raise EmbedvizError(f"{what} {folder} is a file, not a folder")
    if not stat.S_ISDIR(mode):
        raise EmbedvizError(f"{what} {folder} is not a folder (it is {_kind(mode)})")
    return folder
