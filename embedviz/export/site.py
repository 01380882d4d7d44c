"""Exporting scenes to a course-page site, in parallel and atomically.

Every clip is rendered by a worker process into a staging folder beside the
target (same file system), the gallery page is written last, and only then
does the staging folder replace the target with a rename. A failed or
interrupted export removes its staging folder and leaves the previous site
exactly as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from concurrent.futures import FIRST_EXCEPTION, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from embedviz.core.errors import EmbedvizError
from embedviz.export.documents import (
    CHAPTERS_SCRIPT,
    CHAPTERS_SCRIPT_NAME,
    ExportedClip,
    gallery_html,
)
from embedviz.export.media import export_clip

__all__ = ["ExportError", "default_jobs", "export_site"]


class ExportError(RuntimeError):
    """A clip could not be exported; the message names the scene and the reason."""

    def __init__(self, scene: str, reason: str, *, bad_input: bool) -> None:
        super().__init__(f"{scene}: {reason}")
        self.scene = scene
        self.bad_input = bad_input


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _swap_into_place(staging: Path, target: Path) -> None:
    """Replace ``target`` by ``staging`` with renames, keeping it whole until then."""
    if target.exists():
        retired = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
        retired.rmdir()
        target.rename(retired)
        staging.rename(target)
        shutil.rmtree(retired, ignore_errors=True)
    else:
        staging.rename(target)


def export_site(
    scenes: list[str],
    out_dir: str | Path,
    *,
    quality: str = "l",
    jobs: int = 1,
    overrides: dict[str, Any] | None = None,
    show_progress: bool = True,
    voice: bool = False,
) -> list[ExportedClip]:
    """Export scenes and a gallery page into ``out_dir``, replacing it only on success.

    Parameters
    ----------
    scenes
        Scene class names, in the order the gallery lists them.
    out_dir
        The site folder (created or replaced).
    quality
        ``l``, ``m`` or ``h``.
    jobs
        Worker processes.
    overrides
        Scene options for every scene.
    show_progress
        Draw a progress bar for the whole job on stderr.
    voice
        Speak the narration with espeak-ng (see :mod:`embedviz.export.voice`).

    Returns
    -------
    list of ExportedClip
        The exported clips.

    Raises
    ------
    ExportError
        When a scene fails; nothing in ``out_dir`` has changed.
    KeyboardInterrupt
        When interrupted; nothing in ``out_dir`` has changed.
    """
    target = Path(out_dir).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=target.parent))
    try:
        results = _run_jobs(scenes, staging, quality, jobs, overrides, show_progress, voice)
        clips = [ExportedClip(**results[name]) for name in scenes]
        if any(clip.chapters for clip in clips):
            (staging / CHAPTERS_SCRIPT_NAME).write_text(CHAPTERS_SCRIPT, encoding="utf-8")
        (staging / "index.html").write_text(gallery_html(clips), encoding="utf-8")
        _swap_into_place(staging, target)
        return clips
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _run_jobs(
    scenes: list[str],
    staging: Path,
    quality: str,
    jobs: int,
    overrides: dict[str, Any] | None,
    show_progress: bool,
    voice: bool,
) -> dict[str, dict[str, Any]]:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    results: dict[str, dict[str, Any]] = {}
    progress = Progress(
        TextColumn("exporting"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} clips"),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        disable=not show_progress,
        transient=True,
    )
    with progress, ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        task = progress.add_task("", total=len(scenes))
        futures: dict[Future[dict[str, Any]], str] = {
            pool.submit(export_clip, name, quality, str(staging), overrides, voice): name
            for name in scenes
        }
        pending = set(futures)
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_EXCEPTION)
                for future in done:
                    name = futures[future]
                    error = future.exception()
                    if error is not None:
                        raise ExportError(
                            name, _one_line(error), bad_input=isinstance(error, EmbedvizError)
                        ) from None
                    results[name] = future.result()
                    progress.update(task, advance=1, description=name)
        except BaseException:
            for future in pending:
                future.cancel()
            # Stop the workers now rather than after their current clip.
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            raise
    return results


def default_jobs() -> int:
    """Return a sensible number of worker processes: the usable CPUs."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
