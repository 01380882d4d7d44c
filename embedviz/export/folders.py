"""Output folders that embedviz owns: a manifest, safe replacement, readable modes.

A folder that embedviz writes (an exported site, the sections of a render)
carries a manifest, :data:`MANIFEST`, listing every file embedviz put there.
Such a folder may be replaced by a new one; anything else may not:

- a path that does not exist, or an empty folder, is free to use;
- a folder whose files are all in its manifest is embedviz's own, and so is
  a site exported before manifests existed (``index.html`` and
  ``SCENE/SCENE.*`` files only);
- a regular file, a link, or a folder holding anything embedviz did not
  write (no manifest, or a file or folder the manifest does not list) is
  refused with one line, and left exactly as it was.

A single file (a render) may replace an existing file only if the manifest
of its folder lists it: :func:`record_files` adds each render to the list.

Replacement is a pair of renames, so the folder is whole before and after.
The folder that is swapped out is then emptied of the files its manifest
lists only; if anything else appeared in it meanwhile, it is kept and named.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from embedviz.core.errors import EmbedvizError

__all__ = [
    "MANIFEST",
    "Terminated",
    "check_folder",
    "check_replaceable",
    "check_replaceable_file",
    "forget_stop_signals",
    "merge_into_place",
    "on_stop_signal",
    "publish_permissions",
    "record_files",
    "signals_held",
    "swap_into_place",
    "write_manifest",
]

MANIFEST = ".embedviz-manifest.json"
_GENERATOR = "embedviz"


# What an export wrote before sites carried a manifest: index.html and SCENE/SCENE.*.
_LEGACY_SUFFIXES = (
    "mp4", "webm", "poster.png", "en.vtt", "chapters.vtt", "transcript.html", "numbers.html",
    "snippet.html", "timing.json", "storyboard.json",
)  # fmt: skip


def _legacy_site_files(folder: Path) -> set[str] | None:
    """Return the files of a site exported before manifests existed, or None if it is not one."""
    gallery = folder / "index.html"
    if gallery.is_symlink() or not gallery.is_file():
        return None
    try:
        if 'class="embedviz-clip"' not in gallery.read_text(encoding="utf-8"):
            return None
    except (OSError, UnicodeDecodeError):
        return None
    owned = {"index.html"}
    for clip in folder.iterdir():
        if clip.is_dir() and not clip.is_symlink():
            for suffix in _LEGACY_SUFFIXES:
                path = clip / f"{clip.name}.{suffix}"
                if path.is_file() and not path.is_symlink():
                    owned.add(f"{clip.name}/{clip.name}.{suffix}")
    return owned


def _owned_files(folder: Path) -> set[str] | None:
    """Return the files the manifest lists (itself included), or None without one."""
    manifest = folder / MANIFEST
    if not os.path.lexists(manifest):
        return _legacy_site_files(folder)
    if manifest.is_symlink() or not manifest.is_file():
        return None
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("generator") != _GENERATOR:
        return None
    files = data.get("files")
    if not isinstance(files, list) or not all(isinstance(name, str) for name in files):
        return None
    return {*files, MANIFEST}


def _strangers(folder: Path, owned: set[str]) -> list[str]:
    """Relative paths in ``folder`` that the manifest does not account for."""
    allowed_dirs = {parent.as_posix() for name in owned for parent in Path(name).parents}
    found: list[str] = []
    for root, dirs, files in os.walk(folder):
        base = Path(root).relative_to(folder)
        for name in sorted(dirs):
            relative = (base / name).as_posix()
            if (Path(root) / name).is_symlink():
                if relative not in owned:
                    found.append(relative)
            elif relative not in allowed_dirs:
                found.append(relative + "/")
        for name in sorted(files):
            relative = (base / name).as_posix()
            if relative not in owned:
                found.append(relative)
        # Do not descend into folders that are already strangers.
        dirs[:] = [d for d in dirs if (base / d).as_posix() in allowed_dirs]
    return found


def check_folder(target: Path, option: str = "--out") -> None:
    """Refuse, in one line, a target that is not a folder (a file or a link).

    Parameters
    ----------
    target
        Where a folder is to go.
    option
        The command-line option that named it, for the message.

    Raises
    ------
    EmbedvizError
        When ``target`` exists and is not a folder.
    """
    if os.path.lexists(target) and (target.is_symlink() or not target.is_dir()):
        raise EmbedvizError(
            f"{target} exists and is not a folder; give {option} a new folder, or an empty one"
        )


def check_replaceable(target: Path, option: str = "--out", also: str = "") -> None:
    """Refuse, in one line, a target that embedviz may not replace.

    Parameters
    ----------
    target
        Where a new folder is to go.
    option
        The command-line option that named it, for the message.
    also
        Another way on, added to the message for a folder of other files
        (the command line's ``--force``).

    Raises
    ------
    EmbedvizError
        When ``target`` is a file or link, or a folder holding anything
        embedviz did not write.
    """
    if not os.path.lexists(target):
        return
    remedy = f"give {option} a new folder, or an empty one{also}"
    check_folder(target, option)
    if not any(target.iterdir()):
        return
    owned = _owned_files(target)
    if owned is None:
        raise EmbedvizError(
            f"{target} is not empty and was not made by embedviz, so it will not be replaced; "
            f"{remedy}"
        )
    strangers = _strangers(target, owned)
    if strangers:
        more = f" and {len(strangers) - 1} more" if len(strangers) > 1 else ""
        raise EmbedvizError(
            f"{target} holds {strangers[0]}{more}, which embedviz did not write, so it will not "
            f"be replaced; move that away, or {remedy}"
        )


def check_replaceable_file(path: Path, option: str = "-o") -> None:
    """Refuse, in one line, to overwrite a file that embedviz did not write.

    Parameters
    ----------
    path
        Where a new file is to go.
    option
        The command-line option that named its folder, for the message.

    Raises
    ------
    EmbedvizError
        When ``path`` is not a regular file, or its folder's manifest does
        not list it.
    """
    if not os.path.lexists(path):
        return
    if path.is_symlink() or not path.is_file():
        raise EmbedvizError(
            f"{path} exists and is not a file; move it away, or use another {option}"
        )
    if path.name not in (_owned_files(path.parent) or set()):
        raise EmbedvizError(
            f"{path} exists and was not written by embedviz, so it will not be replaced; "
            f"move it away, or use another {option}"
        )


def record_files(folder: Path, *names: str) -> None:
    """Add files to ``folder``'s manifest (creating it), so later runs may replace them.

    Parameters
    ----------
    folder
        The folder.
    *names
        File names in ``folder``.
    """
    listed = (_owned_files(folder) or set()) - {MANIFEST}
    record = {"generator": _GENERATOR, "files": sorted(listed | set(names))}
    fd, temporary = tempfile.mkstemp(prefix=f".{MANIFEST}.", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(json.dumps(record, indent=1) + "\n")
        publish_permissions(Path(temporary))
        os.replace(temporary, folder / MANIFEST)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_manifest(folder: Path) -> None:
    """List every file in ``folder`` in its manifest, marking the folder as embedviz's.

    Parameters
    ----------
    folder
        A finished folder, before it is swapped into place.
    """
    files = sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and path.name != MANIFEST
    )
    record = {"generator": _GENERATOR, "files": files}
    (folder / MANIFEST).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def publish_permissions(path: Path) -> None:
    """Give a finished output the modes ``cp`` would: 0755 folders, 0644 files.

    The process's umask still applies, so a user who keeps files private
    (umask 077) gets private outputs.

    Parameters
    ----------
    path
        A file, or a folder whose whole tree is set.
    """
    mask = _umask()
    folder_mode, file_mode = 0o777 & ~mask, 0o666 & ~mask
    if not path.is_dir():
        path.chmod(file_mode)
        return
    path.chmod(folder_mode)
    for root, dirs, files in os.walk(path):
        for name in dirs:
            Path(root, name).chmod(folder_mode)
        for name in files:
            Path(root, name).chmod(file_mode)


class Terminated(BaseException):
    """SIGTERM, raised in the main thread so that it unwinds like Ctrl-C."""


# The stop signals (SIGINT, SIGTERM) received while a command runs.
_stop_signals: list[int] = []


def on_stop_signal(signum: int, frame: object) -> None:
    """Handle SIGINT or SIGTERM: remember it, then unwind with its exception.

    Python drops an exception raised while it runs a finalizer or a weakref
    callback ("Exception ignored in ..."), so the signal is also remembered:
    :func:`signals_held` raises it again before anything is published.

    Parameters
    ----------
    signum
        The signal.
    frame
        The interrupted frame (unused).
    """
    _stop_signals.append(signum)
    if signum == signal.SIGTERM:
        # Once is enough: let the clean-up run without a second interruption.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Terminated
    raise KeyboardInterrupt


def forget_stop_signals() -> None:
    """Start a command with no stop signal remembered."""
    _stop_signals.clear()


def _raise_if_stopped() -> None:
    if _stop_signals:
        raise Terminated if _stop_signals[-1] == signal.SIGTERM else KeyboardInterrupt


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while outputs are published (a pair of renames).

    A signal that arrives meanwhile is delivered when the block ends. One that
    arrived earlier but whose exception was lost (see :func:`on_stop_signal`)
    is raised on entry, so nothing is published after a stop. Outside the
    main thread this does nothing.
    """
    held = {signal.SIGINT, signal.SIGTERM}
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        _raise_if_stopped()
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)


def _remove_owned(folder: Path, owned: set[str]) -> None:
    """Delete the listed files of a swapped-out folder; keep anything else."""
    for name in owned:
        path = folder / name
        if path.is_file() and not path.is_symlink():
            path.unlink()
    for root, _dirs, _files in sorted(os.walk(folder), key=lambda item: -len(item[0])):
        with contextlib.suppress(OSError):
            Path(root).rmdir()
    if folder.exists():
        print(
            f"embedviz: warning: files that embedviz did not write were kept in {folder}",
            file=sys.stderr,
        )


def merge_into_place(staging: Path, target: Path, option: str = "--out") -> None:
    """Move a finished folder's files into ``target``, keeping every file embedviz did not write.

    The files of ``target``'s manifest that the new folder does not have are
    deleted; the new folder's files replace or join the rest; the manifest
    then lists the new files only. Unlike :func:`swap_into_place` this is one
    rename per file, not one for the whole folder.

    Parameters
    ----------
    staging
        The finished folder, with its manifest, on the same file system.
    target
        A folder (created if missing).
    option
        The command-line option that named ``target``, for messages.

    Raises
    ------
    EmbedvizError
        When ``target`` is not a folder, or a new file would replace one that
        embedviz did not write; nothing has changed.
    """
    check_folder(target, option)
    target.mkdir(parents=True, exist_ok=True)
    owned = (_owned_files(target) or set()) - {MANIFEST}
    new = sorted(
        path.relative_to(staging).as_posix() for path in staging.rglob("*") if path.is_file()
    )
    for name in new:
        path = target / name
        if name != MANIFEST and name not in owned and os.path.lexists(path):
            raise EmbedvizError(
                f"{path} exists and was not written by embedviz, so it will not be replaced; "
                f"move it away, or give {option} a new folder, or an empty one"
            )
        for parent in Path(name).parents:
            folder = target / parent
            if os.path.lexists(folder) and (folder.is_symlink() or not folder.is_dir()):
                raise EmbedvizError(
                    f"{folder} is in the way of {name}; move it away, or give {option} a new "
                    "folder, or an empty one"
                )
    for name in sorted(owned - set(new)):
        path = target / name
        if path.is_file() and not path.is_symlink():
            path.unlink()
    for name in new:
        if name == MANIFEST:
            continue
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / name, target / name)
    os.replace(staging / MANIFEST, target / MANIFEST)
    # Folders that held only files embedviz removed go too; any other stays.
    for name in sorted(owned - set(new), key=lambda n: -n.count("/")):
        for parent in Path(name).parents:
            if parent != Path("."):
                with contextlib.suppress(OSError):
                    (target / parent).rmdir()


def swap_into_place(staging: Path, target: Path, option: str = "--out") -> None:
    """Replace ``target`` by the finished ``staging`` folder with two renames.

    Parameters
    ----------
    staging
        The finished folder, on the same file system as ``target``.
    target
        Absent, empty, or embedviz's own (checked again here).
    option
        The command-line option that named ``target``, for messages.

    Raises
    ------
    EmbedvizError
        When ``target`` is no longer replaceable; nothing has changed.
    """
    check_replaceable(target, option)
    if not os.path.lexists(target):
        staging.rename(target)
        return
    owned = _owned_files(target) or set()
    retired = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    retired.rmdir()
    target.rename(retired)
    try:
        staging.rename(target)
    except BaseException:
        retired.rename(target)
        raise
    _remove_owned(retired, owned)
