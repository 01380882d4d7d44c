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

A manifest is data, not instructions: it lists names relative to its folder
and nothing else. An entry that is absolute, holds ``..`` (or ``.``, or an
empty part) or is not a string refuses the whole manifest in one line, and
nothing is deleted; a listed file is only ever deleted through real folders
inside the folder, never through a link. Whoever publishes into a place
holds its lock (see :mod:`embedviz.export.publishing`):
:func:`folder_lock` for a folder that files are put into, :func:`site_lock`
for a folder that is replaced as a whole.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from embedviz.core.errors import EmbedvizError
from embedviz.export.publishing import (
    LOCK_NAME,
    Terminated,
    forget_stop_signals,
    on_stop_signal,
    output_lock,
    signals_held,
)

__all__ = [
    "MANIFEST",
    "Terminated",
    "check_folder",
    "check_mergeable",
    "check_replaceable",
    "check_replaceable_file",
    "check_writable",
    "folder_lock",
    "forget_stop_signals",
    "link_files",
    "listed_files",
    "listed_path",
    "make_staging",
    "manifest_name_problem",
    "merge_into_place",
    "on_stop_signal",
    "publish_permissions",
    "read_manifest",
    "record_files",
    "signals_held",
    "site_lock",
    "swap_into_place",
    "write_manifest",
]

MANIFEST = ".embedviz-manifest.json"
_GENERATOR = "embedviz"
# A manifest is a list of names; anything bigger than this is not one of ours.
_MANIFEST_BYTES = 16 * 1024 * 1024


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


def folder_lock(folder: Path) -> Path:
    """Return the lock file of a folder that runs put files into (renders, sheets).

    Parameters
    ----------
    folder
        The output folder.

    Returns
    -------
    Path
        ``folder/.embedviz-lock``.
    """
    return folder / LOCK_NAME


def site_lock(target: Path) -> Path:
    """Return the lock file of a folder that is replaced as a whole (a site, a deck).

    It lies beside the folder, since the folder itself is swapped out.

    Parameters
    ----------
    target
        The folder.

    Returns
    -------
    Path
        ``.NAME.embedviz-lock`` in the folder's parent.
    """
    return target.parent / f".{target.name}{LOCK_NAME}"


def manifest_name_problem(name: object) -> str | None:
    """Say why ``name`` may not be listed in a manifest, or return None if it may.

    A manifest lists names relative to its folder: non-empty parts joined by
    ``/``, none of them ``.`` or ``..``, not absolute, no backslash or NUL.

    Parameters
    ----------
    name
        One entry of a manifest's ``files``.

    Returns
    -------
    str or None
        The reason, or None for a good name.
    """
    if not isinstance(name, str):
        return "is not a name"
    if not name or "\x00" in name or "\\" in name:
        return "is not a plain name"
    path = PurePosixPath(name)
    if path.is_absolute():
        return "is an absolute path"
    if ".." in path.parts:
        return "leads out of the folder"
    if path.as_posix() != name or "." in name.split("/"):
        return "is not a plain name"
    return None


def read_manifest(folder: Path) -> frozenset[str] | None:
    """Return the names ``folder``'s manifest lists, checked, or None without one of ours.

    Parameters
    ----------
    folder
        A folder.

    Returns
    -------
    frozenset of str or None
        The listed names, relative to ``folder`` (the manifest itself not
        among them); ``None`` when there is no manifest, or it is a link,
        not JSON, or not embedviz's.

    Raises
    ------
    EmbedvizError
        When embedviz's manifest lists a name that is not inside the folder
        (absolute, with ``..``, ...): it is not trusted, and nothing is to be
        changed.
    """
    manifest = folder / MANIFEST
    if manifest.is_symlink() or not manifest.is_file():
        return None
    try:
        with manifest.open("rb") as handle:
            text = handle.read(_MANIFEST_BYTES + 1)
        if len(text) > _MANIFEST_BYTES:
            return None
        data = json.loads(text.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("generator") != _GENERATOR:
        return None
    files = data.get("files")
    if not isinstance(files, list):
        return None
    for name in files:
        problem = manifest_name_problem(name)
        if problem is not None:
            shown = json.dumps(name)[:80]
            raise EmbedvizError(
                f"{manifest} lists {shown}, which {problem}; embedviz lists only names inside "
                f"{folder}, so it does not trust this manifest and changed nothing"
            )
    return frozenset(files)


def _owned_files(folder: Path) -> set[str] | None:
    """Return the files the manifest lists (itself and a lock included), or None without one."""
    if not os.path.lexists(folder / MANIFEST):
        return _legacy_site_files(folder)
    listed = read_manifest(folder)
    return None if listed is None else {*listed, MANIFEST, LOCK_NAME}


def _real_path(folder: Path, name: str) -> Path | None:
    """Return ``folder/name`` if every folder on the way is a real folder, not a link."""
    parts = PurePosixPath(name).parts
    current = folder
    for part in parts[:-1]:
        current = current / part
        if current.is_symlink() or not current.is_dir():
            return None
    return current / parts[-1]


def listed_files(folder: Path) -> frozenset[str] | None:
    """Return the files embedviz wrote in ``folder``, or None if it is not embedviz's.

    Parameters
    ----------
    folder
        A folder (a site, a deck, a render folder).

    Returns
    -------
    frozenset of str or None
        The names its manifest lists (or, for a site exported before
        manifests existed, its ``index.html`` and ``SCENE/SCENE.*`` files),
        relative to ``folder``; neither the manifest nor the lock file is
        among them. ``None`` when no manifest of embedviz's is there.

    Raises
    ------
    EmbedvizError
        When the manifest lists a name that is not inside the folder.
    """
    owned = _owned_files(folder) if folder.is_dir() else None
    return None if owned is None else frozenset(owned - {MANIFEST, LOCK_NAME})


def listed_path(folder: Path, name: str) -> Path | None:
    """Return ``folder/name`` if it is a regular file reached through real folders.

    Parameters
    ----------
    folder
        The manifest's folder.
    name
        A name its manifest lists.

    Returns
    -------
    Path or None
        The file; ``None`` when it is missing, a link, not a regular file,
        or lies behind a link.
    """
    path = _real_path(folder, name)
    if path is None or path.is_symlink() or not path.is_file():
        return None
    return path


def link_files(source: Path, names: Iterable[str], staging: Path) -> None:
    """Put each listed file of ``source`` at the same name in ``staging``, byte for byte.

    A hard link where the file system allows one, so the file keeps its
    inode, modes and times; otherwise a copy that keeps its modes and times.

    Parameters
    ----------
    source
        A folder of embedviz's (a site).
    names
        Names its manifest lists.
    staging
        A new folder on the same file system.

    Raises
    ------
    EmbedvizError
        When a file is missing, a link, or lies behind one.
    """
    for name in names:
        if manifest_name_problem(name) is not None:
            raise ValueError(f"{name!r} is not a plain relative name")
        path = listed_path(source, name)
        if path is None:
            raise EmbedvizError(
                f"{source / MANIFEST} lists {name}, which is missing or not a plain file"
            )
        copy = staging / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(path, copy, follow_symlinks=False)
        except OSError:
            # No hard links here (another file system, FAT, some network shares).
            shutil.copy2(path, copy, follow_symlinks=False)


def _check_listed_paths(folder: Path, owned: set[str]) -> None:
    """Refuse a manifest whose listed files lie behind a link (they could be outside)."""
    for name in sorted(owned):
        if os.path.lexists(folder / name) and _real_path(folder, name) is None:
            raise EmbedvizError(
                f"{folder / MANIFEST} lists {name}, which lies behind a link or a file in "
                f"{folder}; embedviz does not follow it, so it changed nothing"
            )


def _remove_listed(folder: Path, name: str) -> None:
    """Delete one listed file, only as a regular file reached through real folders."""
    path = _real_path(folder, name)
    if path is not None and path.is_file() and not path.is_symlink():
        path.unlink()


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


def check_writable(folder: Path, option: str) -> None:
    """Refuse, in one line, a folder that this process may not write into.

    Parameters
    ----------
    folder
        An existing folder.
    option
        The command-line option that named it (or the folder that holds it).

    Raises
    ------
    EmbedvizError
        When ``folder`` is read-only to this process.
    """
    if not os.access(folder, os.W_OK | os.X_OK):
        raise EmbedvizError(
            f"{folder} is read-only, so embedviz cannot write there; make it writable, or "
            f"give {option} another folder"
        )


def make_staging(parent: Path, prefix: str, option: str) -> Path:
    """Create a hidden staging folder in ``parent`` (and ``parent`` if missing).

    Call it inside :func:`signals_held` and assign the result there, so that
    a stop cannot leave the folder behind unnamed.

    Parameters
    ----------
    parent
        Where the staging folder goes: beside (or inside) the output.
    prefix
        The start of its name, e.g. ``.site.new-``.
    option
        The command-line option that named the output, for messages.

    Returns
    -------
    Path
        The new, empty folder.

    Raises
    ------
    EmbedvizError
        When ``parent`` cannot be created or written (read-only, or a file in
        the way).
    """
    for ancestor in [parent, *parent.parents]:
        if os.path.lexists(ancestor) and not ancestor.is_dir():
            raise EmbedvizError(
                f"{ancestor} is a file, not a folder, so embedviz cannot write in {parent}; "
                f"give {option} another place"
            )
    try:
        parent.mkdir(parents=True, exist_ok=True)
        check_writable(parent, option)
        return Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    except OSError as error:
        raise EmbedvizError(
            f"cannot write in {parent} ({error.strerror}); give {option} another place"
        ) from None


def check_mergeable(target: Path, option: str = "--out") -> None:
    """Refuse, in one line, a folder that ``--force`` may not write into.

    Parameters
    ----------
    target
        Where the files are to go.
    option
        The command-line option that named it, for the message.

    Raises
    ------
    EmbedvizError
        When ``target`` exists and is not a folder, or its manifest lists a
        name outside it or behind a link.
    """
    check_folder(target, option)
    if target.is_dir():
        _check_listed_paths(target, (_owned_files(target) or set()) - {MANIFEST, LOCK_NAME})


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
        # Empty, but read-only: replacing it would undo what its owner chose.
        check_writable(target, option)
        return
    owned = _owned_files(target)
    if owned is None:
        raise EmbedvizError(
            f"{target} is not empty and was not made by embedviz, so it will not be replaced; "
            f"{remedy}"
        )
    _check_listed_paths(target, owned)
    strangers = _strangers(target, owned)
    if strangers:
        more = f" and {len(strangers) - 1} more" if len(strangers) > 1 else ""
        raise EmbedvizError(
            f"{target} holds {strangers[0]}{more}, which embedviz did not write, so it will not "
            f"be replaced; move that away, or {remedy}"
        )
    # Its old files are removed after the swap: every folder of it must be writable.
    for root, _dirs, _files in os.walk(target):
        check_writable(Path(root), option)


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

    The manifest is read and replaced under the folder's lock
    (:func:`folder_lock`), so runs that record files at once lose none.

    Parameters
    ----------
    folder
        The folder.
    *names
        File names in ``folder``, relative to it.

    Raises
    ------
    EmbedvizError
        When the folder's manifest lists a name outside it.
    ValueError
        When a name is not a plain relative name (a programming error).
    """
    for name in names:
        problem = manifest_name_problem(name)
        if problem is not None:
            raise ValueError(f"{name!r} {problem}")
    # Read, add and replace under the folder's lock: concurrent runs lose no entry.
    with output_lock(folder_lock(folder), folder):
        listed = (_owned_files(folder) or set()) - {MANIFEST, LOCK_NAME}
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


def publish_permissions(path: Path, *, files: bool = True) -> None:
    """Give a finished output the modes ``cp`` would: 0755 folders, 0644 files.

    The process's umask still applies, so a user who keeps files private
    (umask 077) gets private outputs.

    Parameters
    ----------
    path
        A file, or a folder whose whole tree is set.
    files
        Set the files' modes too; without it only folders are set (files
        linked from a published site keep theirs, and so does the site).
    """
    mask = _umask()
    folder_mode, file_mode = 0o777 & ~mask, 0o666 & ~mask
    if not path.is_dir():
        path.chmod(file_mode)
        return
    path.chmod(folder_mode)
    for root, dirs, names in os.walk(path):
        for name in dirs:
            Path(root, name).chmod(folder_mode)
        for name in names if files else ():
            Path(root, name).chmod(file_mode)


def _remove_owned(folder: Path, owned: set[str]) -> None:
    """Delete the listed files of a swapped-out folder; keep anything else."""
    for name in owned:
        _remove_listed(folder, name)
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
    with output_lock(site_lock(target), target):
        _merge(staging, target, option)


def _merge(staging: Path, target: Path, option: str) -> None:
    check_mergeable(target, option)
    target.mkdir(parents=True, exist_ok=True)
    owned = (_owned_files(target) or set()) - {MANIFEST, LOCK_NAME}
    _check_listed_paths(target, owned)
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
        _remove_listed(target, name)
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
    # Under the lock, a second run cannot move the folder between the check and the renames.
    with output_lock(site_lock(target), target):
        _swap(staging, target, option)


def _swap(staging: Path, target: Path, option: str) -> None:
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
