"""Exporting scenes to a course-page site, in parallel and atomically.

Every clip is rendered by a worker process into a staging folder beside the
target (same file system), the gallery page is written last, and only then
does the staging folder replace the target with a rename. A failed,
interrupted or terminated export stops its workers, removes its staging
folder and leaves the previous site exactly as it was.

Only a site that embedviz exported is ever replaced: the target must be
absent, an empty folder, or a folder whose manifest lists every file in it
(see :mod:`embedviz.export.folders`).
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import shutil
import signal
import sys
from collections.abc import Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from embedviz.core.errors import EmbedvizError
from embedviz.export.documents import (
    CHAPTERS_SCRIPT,
    CHAPTERS_SCRIPT_NAME,
    REPORT_NAME,
    ExportedClip,
    gallery_html,
)
from embedviz.export.folders import (
    check_mergeable,
    check_replaceable,
    make_staging,
    merge_into_place,
    publish_permissions,
    signals_held,
    site_lock,
    swap_into_place,
    write_manifest,
)
from embedviz.export.media import clip_units, export_clip, set_progress_sink
from embedviz.export.publishing import publishing
from embedviz.export.report import write_report
from embedviz.export.steps import STEPS_SCRIPT, STEPS_SCRIPT_NAME
from embedviz.export.voice import Voice, choose_voice
from embedviz.story.model import Storyboard

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


def export_site(
    scenes: list[str],
    out_dir: str | Path,
    *,
    quality: str = "m",
    jobs: int = 1,
    overrides: dict[str, Any] | None = None,
    show_progress: bool = True,
    voice: Voice | bool | None = None,
    burn_captions: bool = False,
    verbose: bool = False,
    force: bool = False,
    boards: Mapping[str, Storyboard] | None = None,
) -> list[ExportedClip]:
    """Export scenes and a gallery page into ``out_dir``, replacing it only on success.

    ``out_dir`` must be absent, an empty folder, or a site that embedviz
    exported (see :mod:`embedviz.export.folders`); anything else is refused
    before rendering starts. Files and folders come out readable by others
    (0755 and 0644 under the usual umask).

    Parameters
    ----------
    scenes
        Scene class names, in the order the gallery lists them.
    out_dir
        The site folder (created or replaced).
    quality
        ``l`` (480p15), ``m`` (720p30, the default), ``h`` (1080p60), ``p``
        (1440p60) or ``k`` (2160p60), as for ``embedviz render``.
    jobs
        Worker processes.
    overrides
        Scene options for every scene.
    show_progress
        Report progress on stderr: in a terminal a bar that moves with the
        frames rendered and encoded, otherwise one line per finished clip.
    voice
        Speak the narration with this voice, or with the best installed
        English voice when ``True`` (see :mod:`embedviz.export.voice`).
    burn_captions
        Draw the narration into the picture as well; by default the clips
        carry it only in their WebVTT caption track.
    verbose
        Let Manim and PyAV log their own messages.
    force
        Export into a folder that holds other files too: embedviz's own
        files there are replaced (file by file, see
        :func:`~embedviz.export.folders.merge_into_place`), and every other
        file is kept. A file embedviz did not write is never replaced.
    boards
        Ready storyboards by scene name (e.g. loaded with ``--storyboard``),
        exported as they are instead of being built from the options.

    Returns
    -------
    list of ExportedClip
        The exported clips.

    Raises
    ------
    EmbedvizError
        When ``out_dir`` may not be replaced; nothing has changed.
    ExportError
        When a scene fails; nothing in ``out_dir`` has changed.
    KeyboardInterrupt
        When interrupted; nothing in ``out_dir`` has changed.
    """
    if voice is True:
        voice = choose_voice("auto")
    speaker = voice or None
    target = Path(out_dir).resolve()
    if force:
        check_mergeable(target)
    else:
        check_replaceable(target)
    staging: Path | None = None
    try:
        # A signal that lands here is delivered once the folder's name is known.
        with signals_held():
            staging = make_staging(target.parent, f".{target.name}.new-", "--out")
        settings = {"voice": speaker, "burn_captions": burn_captions, "verbose": verbose}
        results = _run_jobs(
            scenes, staging, quality, settings, jobs, overrides, show_progress, dict(boards or {})
        )
        clips = [ExportedClip(**results[name]) for name in scenes]
        if any(clip.chapters for clip in clips):
            (staging / CHAPTERS_SCRIPT_NAME).write_text(CHAPTERS_SCRIPT, encoding="utf-8")
        (staging / STEPS_SCRIPT_NAME).write_text(STEPS_SCRIPT, encoding="utf-8")
        (staging / "index.html").write_text(
            gallery_html(clips, report=REPORT_NAME), encoding="utf-8"
        )
        # Measured on the finished pages and clips, so it comes last.
        write_report(staging, clips)
        write_manifest(staging)
        publish_permissions(staging)
        # One run at a time publishes here, and no stop can cut publishing short.
        with publishing(site_lock(target), target):
            if force:
                merge_into_place(staging, target)
                shutil.rmtree(staging)
            else:
                swap_into_place(staging, target)
        return clips
    except BaseException:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        raise


def _worker_start(events: Any) -> None:
    """Set up a worker: report progress to ``events``; leave signals to the parent.

    The parent stops workers itself when it is interrupted or terminated,
    after which it removes everything they wrote. A worker inherits the
    parent's handlers on fork, so they are reset here: Ctrl-C (sent to the
    whole process group) is ignored, and SIGTERM ends the worker at once.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    set_progress_sink(lambda *event: events.put(event))


class _Report:
    """Progress on stderr: a bar by frames in a terminal, else a line per clip."""

    def __init__(self, scenes: list[str], estimates: dict[str, int], show: bool) -> None:
        self.show = show
        self.tty = show and sys.stderr.isatty()
        self.count = len(scenes)
        self.finished = 0
        self.units = dict(estimates)
        self.bar: Any = None
        self.task: Any = None
        if self.tty:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(
                TextColumn("exporting"),
                BarColumn(),
                TextColumn("{task.percentage:>3.0f}%"),
                TextColumn("{task.fields[clips]}"),
                TimeElapsedColumn(),
                TextColumn("{task.description}"),
                transient=True,
            )
            self.task = self.bar.add_task("", total=sum(estimates.values()), clips=self._clips())

    def _clips(self) -> str:
        return f"{self.finished}/{self.count} clips"

    def __enter__(self) -> _Report:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def event(self, kind: str, name: str, value: float) -> None:
        """Take one event from a worker: its clip's real size, or work done."""
        if self.bar is None:
            return
        if kind == "total":
            self.units[name], old = int(value), self.units.get(name, 0)
            total = self.bar.tasks[0].total or 0
            self.bar.update(self.task, total=total + int(value) - old)
        elif kind == "advance":
            self.bar.update(self.task, advance=value, description=name)

    def done(self, name: str, seconds: float) -> None:
        """Record a finished clip."""
        self.finished += 1
        if self.bar is not None:
            self.bar.update(self.task, clips=self._clips(), description=name)
        elif self.show:
            print(f"exported {name} in {seconds:.1f} s ({self._clips()})", file=sys.stderr)


def _estimated_units(
    scenes: list[str],
    quality: str,
    overrides: dict[str, Any] | None,
    boards: dict[str, Storyboard],
) -> dict[str, int]:
    from embedviz.inputs import prepared_storyboard

    estimates = {}
    for name in scenes:
        try:
            board = boards.get(name) or prepared_storyboard(name, overrides)
            duration = board.duration
        except EmbedvizError:
            duration = 0.0  # the worker reports the failure
        estimates[name] = clip_units(duration, quality)
    return estimates


def _run_jobs(
    scenes: list[str],
    staging: Path,
    quality: str,
    settings: dict[str, Any],
    jobs: int,
    overrides: dict[str, Any] | None,
    show_progress: bool,
    boards: dict[str, Storyboard],
) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    units = _estimated_units(scenes, quality, overrides, boards)
    report = _Report(scenes, units, show_progress)
    context = multiprocessing.get_context("fork")
    events = context.Queue()
    pool = ProcessPoolExecutor(
        max_workers=max(1, jobs), mp_context=context, initializer=_worker_start,
        initargs=(events,),
    )  # fmt: skip
    try:
        with report:
            futures: dict[Future[dict[str, Any]], str] = {
                pool.submit(
                    export_clip,
                    name,
                    quality,
                    str(staging),
                    overrides,
                    board=boards.get(name),
                    **settings,
                ): name
                for name in scenes
            }
            pending = set(futures)
            while pending:
                done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                _drain(events, report)
                for future in done:
                    name = futures[future]
                    error = future.exception()
                    if error is not None:
                        raise ExportError(
                            name, _one_line(error), bad_input=isinstance(error, EmbedvizError)
                        ) from None
                    results[name] = future.result()
                    report.done(name, results[name].pop("seconds"))
    except BaseException:
        _stop_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        events.close()
        events.cancel_join_thread()
    return results


def _drain(events: Any, report: _Report) -> None:
    while True:
        try:
            event = events.get_nowait()
        except queue.Empty:
            return
        report.event(*event)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End every worker now, rather than after its current clip, and wait for them."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=10)
        if process.is_alive():
            process.kill()
            process.join()


def default_jobs() -> int:
    """Return a sensible number of worker processes: the usable CPUs."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
