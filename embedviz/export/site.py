"""Exporting scenes to a course-page site that grows over a term, atomically.

An export into an existing site adds or replaces its own clips only: every
other clip the site holds is kept byte for byte (hard-linked, or copied where
the file system has no links), and the gallery is rebuilt from what the site
then holds, in teaching order (see :mod:`embedviz.export.contents`). A clip
whose storyboard and render settings did not change since it was exported is
reused, not rendered again, unless ``rebuild`` asks for it.

Every clip is rendered by a worker process into a staging folder beside the
target (same file system); the kept clips, the gallery and the manifest join
it there, and only then does the staging folder replace the target with a
rename. A failed, interrupted or terminated export stops its workers,
removes its staging folder and leaves the previous site exactly as it was:
the site is the one before or the one after, never one between. An export
that changes nothing leaves the site untouched, times included.

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
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from embedviz.core.errors import EmbedvizError
from embedviz.export import media
from embedviz.export.contents import (
    SITE_RECORD,
    SiteContents,
    SiteWords,
    clip_record_json,
    clip_record_name,
    read_clip_record,
    read_site,
    render_key,
    render_settings,
    teaching_order,
)
from embedviz.export.documents import (
    CHAPTERS_SCRIPT,
    CHAPTERS_SCRIPT_NAME,
    REPORT_NAME,
    ExportedClip,
    gallery_html,
)
from embedviz.export.folders import (
    MANIFEST,
    check_mergeable,
    check_replaceable,
    link_files,
    listed_files,
    listed_path,
    make_staging,
    merge_into_place,
    publish_permissions,
    signals_held,
    site_lock,
    swap_into_place,
    write_manifest,
)
from embedviz.export.media import clip_units, export_clip, set_progress_sink
from embedviz.export.publishing import output_lock, publishing
from embedviz.export.report import REPORT_DATA, write_report
from embedviz.export.steps import STEPS_SCRIPT, STEPS_SCRIPT_NAME
from embedviz.export.voice import Voice, choose_voice
from embedviz.story.model import Storyboard

__all__ = ["ExportError", "default_jobs", "export_site", "gather_site", "unchanged_clips"]


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
    constant_frame_rate: bool = False,
    remove: Sequence[str] = (),
    title: str | None = None,
    intro: str | None = None,
    language: str | None = None,
    rebuild: bool = False,
) -> list[ExportedClip]:
    """Export scenes into the site ``out_dir``, adding or replacing only those clips.

    ``out_dir`` must be absent, an empty folder, or a site that embedviz
    exported (see :mod:`embedviz.export.folders`); anything else is refused
    before rendering starts. Every clip the site holds that is not named
    here (nor in ``remove``) is kept byte for byte; the gallery lists every
    clip the site then holds, in teaching order. Files and folders come out
    readable by others (0755 and 0644 under the usual umask).

    Parameters
    ----------
    scenes
        Scene class names (or aliases) to export.
    out_dir
        The site folder (created, or grown).
    quality
        ``l`` (480p15), ``m`` (720p30, the default), ``h`` (1080p60), ``p``
        (1440p60) or ``k`` (2160p60), as for ``embedviz render``.
    jobs
        Worker processes: one clip each; when at least three are free for
        each clip, the clip's beats are rendered in ranges by
        ``jobs // len(scenes)`` of them (see :func:`_beat_workers`).
    overrides
        Scene options for every scene.
    show_progress
        Report progress on stderr: in a terminal a bar that moves with the
        frames rendered and encoded, otherwise one line per finished clip;
        a line for each clip kept because it did not change, and for each
        clip removed.
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
    constant_frame_rate
        Write every frame of every tick (``--cfr``); by default a still
        picture is written once for the whole time it is held (variable
        frame rate, see :mod:`embedviz.render.writer`).
    remove
        Clips (folder names) to take out of the site: their files, as its
        manifest lists them, and their place in the gallery.
    title
        The gallery's heading and ``<title>`` (``""`` for the default); by
        default the site's title is kept.
    intro
        Paragraphs under the heading, separated by blank lines (``""`` for
        none); by default the site's are kept.
    language
        The BCP 47 tag of the title and intro; by default kept (``en``).
    rebuild
        Render every named scene, even one whose clip could be reused.

    Returns
    -------
    list of ExportedClip
        Every clip of the site's gallery, in its order.

    Raises
    ------
    EmbedvizError
        When ``out_dir`` may not be replaced, a clip to remove is not in it,
        or a clip to keep cannot be read back; nothing has changed.
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
    prepared = _prepared(scenes, overrides, boards or {})
    settings = render_settings(
        quality, speaker, burn_captions, constant_frame_rate=constant_frame_rate
    )
    keys = {name: render_key(board, settings) for name, board in prepared.items()}
    SiteWords().updated(title, intro, language)  # bad words fail here, before rendering
    say = _say if show_progress else _quiet
    staging: Path | None = None
    try:
        # A signal that lands here is delivered once the folder's name is known.
        with signals_held():
            staging = make_staging(target.parent, f".{target.name}.new-", "--out")
        # Under the site's lock: no run replaces it while its clips are linked.
        with output_lock(site_lock(target), target):
            held = read_site(target)
            _check_plan(held, list(prepared), remove, target)
            reused = set() if rebuild else _reuse(held, keys, target, staging)
        for name in teaching_order(reused):
            say(f"kept {name}: unchanged since it was exported (--rebuild renders it again)")
        rendering = [name for name in prepared if name not in reused]
        run = {
            "voice": speaker,
            "burn_captions": burn_captions,
            "verbose": verbose,
            "constant_frame_rate": constant_frame_rate,
            "beat_workers": _beat_workers(jobs, len(rendering)),
        }
        results = (
            _run_jobs(rendering, staging, quality, run, jobs, overrides, show_progress, prepared)
            if rendering
            else {}
        )
        for name in rendering:
            record = clip_record_json(results[name], keys[name], settings)
            (staging / clip_record_name(name)).write_text(record, encoding="utf-8")
            publish_permissions(staging / name)
        return _assemble_and_publish(
            staging, target, list(prepared), remove, (title, intro, language), force, say
        )
    except BaseException:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        raise


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _quiet(line: str) -> None:
    return None


def _prepared(
    scenes: Iterable[str], overrides: dict[str, Any] | None, boards: Mapping[str, Storyboard]
) -> dict[str, Storyboard]:
    """Return each scene's storyboard by class name: given, or built from the options."""
    from embedviz.inputs import prepared_storyboard
    from embedviz.story.scenes import find_scene

    prepared: dict[str, Storyboard] = {}
    for scene in scenes:
        try:
            name = boards[scene].scene if scene in boards else find_scene(scene).name
            prepared[name] = boards.get(name) or prepared_storyboard(name, overrides)
        except EmbedvizError as error:
            raise ExportError(scene, _one_line(error), bad_input=True) from None
    return prepared


def _check_plan(held: SiteContents, scenes: list[str], remove: Sequence[str], target: Path) -> None:
    """Refuse, before rendering, a clip to remove that is not there, or one to keep unread."""
    for name in remove:
        if name not in held.clips:
            holds = ", ".join(teaching_order(held.clips)) or "no clips"
            raise EmbedvizError(f"{target} holds no clip {name} to remove; it holds {holds}")
        if name in scenes:
            raise EmbedvizError(f"{name} is both to export and to remove; give it once")
    for name in teaching_order(held.clips):
        if name not in scenes and name not in remove:
            _kept_clip(held, name, target)


def _kept_clip(held: SiteContents, name: str, target: Path) -> ExportedClip:
    clip = held.clips[name].clip
    if clip is None:
        raise EmbedvizError(
            f"{target / name} cannot be listed in the gallery: {held.clips[name].problem}; "
            f"export {name} again, or remove it with --remove {name}"
        )
    return clip


def _reuse(held: SiteContents, keys: Mapping[str, str], target: Path, staging: Path) -> set[str]:
    """Link each clip whose render key did not change into ``staging``; return their names."""
    reused = set()
    for name, key in keys.items():
        clip = held.clips.get(name)
        if clip is None or clip.clip is None or clip.key != key:
            continue
        try:
            link_files(target, clip.files, staging)
        except EmbedvizError:
            # A file of it is gone: render it again instead.
            shutil.rmtree(staging / name, ignore_errors=True)
            continue
        reused.add(name)
    return reused


def _assemble_and_publish(
    staging: Path,
    target: Path,
    scenes: list[str],
    remove: Sequence[str],
    words: tuple[str | None, str | None, str | None],
    force: bool,
    say: Any,
) -> list[ExportedClip]:
    """Join the site's other clips to the new ones, write the gallery, and put it in place.

    Done under the site's lock, from what the site holds now: a clip that
    another run added meanwhile is kept too.
    """
    with output_lock(site_lock(target), target):
        held = read_site(target)
        listed = {name: read_clip_record(staging, name)[0] for name in scenes}
        for name in held.clips:
            if name not in scenes and name not in remove:
                listed[name] = _kept_clip(held, name, target)
                link_files(target, held.clips[name].files, staging)
        clips = [listed[name] for name in teaching_order(listed)]
        _write_site_pages(staging, clips, held.words.updated(*words))
        if _same_site(staging, target):
            say(f"embedviz: {target} is up to date; nothing was rendered or replaced")
            shutil.rmtree(staging)
            return clips
        for name in remove:
            if name in held.clips:
                say(f"removed {name}")
        # One run at a time publishes here, and no stop can cut publishing short.
        with publishing(site_lock(target), target):
            if force:
                merge_into_place(staging, target)
                shutil.rmtree(staging)
            else:
                swap_into_place(staging, target)
    return clips


def _write_site_pages(staging: Path, clips: list[ExportedClip], words: SiteWords) -> None:
    """Write the gallery and the site's own files beside the clips, then the manifest."""
    pages = {
        "index.html": gallery_html(
            clips, words.heading, intro=words.intro, language=words.language, report=REPORT_NAME
        ),
        STEPS_SCRIPT_NAME: STEPS_SCRIPT,
    }
    if any(clip.chapters for clip in clips):
        pages[CHAPTERS_SCRIPT_NAME] = CHAPTERS_SCRIPT
    record = words.to_json()
    if record is not None:
        pages[SITE_RECORD] = record
    for name, text in pages.items():
        (staging / name).write_text(text, encoding="utf-8")
        publish_permissions(staging / name)
    # Measured on the finished pages and clips, so it comes last.
    # A teacher's title heads the report too, marked with its language when not English.
    title_language = words.language if words.title and words.language != "en" else None
    write_report(staging, clips, words.title or "", title_language)
    for name in (REPORT_NAME, REPORT_DATA):
        publish_permissions(staging / name)
    # Folders only: linked files keep their modes, and so do the published ones.
    publish_permissions(staging, files=False)
    write_manifest(staging)
    publish_permissions(staging / MANIFEST)


def _same_site(staging: Path, target: Path) -> bool:
    """Whether ``staging`` holds exactly what ``target`` holds now, byte for byte."""
    new = listed_files(staging)
    old = listed_files(target) if target.is_dir() else None
    if new is None or old is None or new != old:
        return False
    old_manifest = listed_path(target, MANIFEST)
    if old_manifest is None or old_manifest.read_bytes() != (staging / MANIFEST).read_bytes():
        return False
    for name in new:
        mine, theirs = staging / name, listed_path(target, name)
        if theirs is None:
            return False
        if os.path.samefile(mine, theirs):
            continue
        if mine.stat().st_size != theirs.stat().st_size or mine.read_bytes() != theirs.read_bytes():
            return False
    return True


def gather_site(
    jobs_dir: str | Path,
    out_dir: str | Path,
    *,
    force: bool = False,
    show_progress: bool = True,
    remove: Sequence[str] = (),
    title: str | None = None,
    intro: str | None = None,
    language: str | None = None,
) -> list[ExportedClip]:
    """Add the clips that separate export jobs wrote to the site ``out_dir``.

    ``embedviz export --list-jobs`` prints one command per clip, each writing a
    one-clip site into ``JOBS/NN_SCENE``; a batch runner (GNU parallel, Slurm,
    Ray) runs them anywhere that sees the same files. This puts every
    finished clip into the site, byte for byte, as :func:`export_site` would
    have: it adds or replaces those clips, keeps the site's others, lists them
    all in the gallery in teaching order, and puts the site in place
    atomically, only over what embedviz wrote. Nothing is rendered.

    Parameters
    ----------
    jobs_dir
        The folder of job outputs, one one-clip site per subfolder.
    out_dir
        The site folder (created, or grown).
    force
        Write into a folder that holds other files too (see :func:`export_site`).
    show_progress
        Say on stderr which clips were removed, or that nothing changed.
    remove, title, intro, language
        As for :func:`export_site`.

    Returns
    -------
    list of ExportedClip
        The clips of the gallery.

    Raises
    ------
    EmbedvizError
        No finished job is found, a job is unfinished, or two jobs exported
        the same scene; ``out_dir`` may not be replaced. Nothing has changed.
    """
    jobs = Path(jobs_dir)
    found: dict[str, tuple[Path, tuple[str, ...]]] = {}
    for job in sorted(p for p in jobs.iterdir() if p.is_dir()) if jobs.is_dir() else []:
        held = read_site(job)
        clips = list(held.clips.values())
        if len(clips) != 1 or clips[0].key is None or listed_path(job, "index.html") is None:
            raise EmbedvizError(f"{job} is not a finished one-clip export")
        if clips[0].scene in found:
            raise EmbedvizError(f"{job}: a second export of {clips[0].scene}; gather one each")
        found[clips[0].scene] = (job, clips[0].files)
    if not found:
        raise EmbedvizError(f"{jobs}: no finished export jobs to gather")
    target = Path(out_dir).resolve()
    if force:
        check_mergeable(target)
    else:
        check_replaceable(target)
    SiteWords().updated(title, intro, language)  # bad words fail here, before anything is made
    staging: Path | None = None
    try:
        with signals_held():
            staging = make_staging(target.parent, f".{target.name}.new-", "--out")
        with output_lock(site_lock(target), target):
            _check_plan(read_site(target), list(found), remove, target)
        for job, files in found.values():
            link_files(job, files, staging)
        return _assemble_and_publish(
            staging,
            target,
            list(found),
            remove,
            (title, intro, language),
            force,
            _say if show_progress else _quiet,
        )
    except BaseException:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        raise


def unchanged_clips(
    boards: Mapping[str, Storyboard], out_dir: str | Path, settings: Mapping[str, Any]
) -> list[str]:
    """Return the scenes whose clip in the site ``out_dir`` would be reused as it is.

    Parameters
    ----------
    boards
        The storyboards to export, by scene name.
    out_dir
        The site.
    settings
        From :func:`~embedviz.export.contents.render_settings`.

    Returns
    -------
    list of str
        The scenes (in the order of ``boards``) whose clip the site holds,
        readable, under the same render key.
    """
    held = read_site(Path(out_dir).resolve())
    unchanged = []
    for name, board in boards.items():
        clip = held.clips.get(name)
        if clip is not None and clip.clip is not None and clip.key == render_key(board, settings):
            unchanged.append(name)
    return unchanged


# Fewer workers than this per clip render it in one process: on 2 cores, two
# ranges measured no faster than one (each replays the beats before its range).
MIN_BEAT_WORKERS = 3


def _beat_workers(jobs: int, clips: int) -> int:
    """Return how many processes render each clip's beats (see embedviz.render.parallel).

    >>> _beat_workers(16, 1), _beat_workers(16, 5), _beat_workers(2, 1), _beat_workers(8, 10)
    (16, 3, 1, 1)
    """
    share = jobs // max(1, clips)
    return share if share >= MIN_BEAT_WORKERS else 1


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


def longest_first(scenes: list[str], units: dict[str, int]) -> list[str]:
    """Order clips to start the longest first (ties keep teaching order).

    With fewer workers than clips, a long clip started last runs alone at the
    end while the other workers idle: a narrated ``--all`` export on two cores
    started FullExplainer (half the work) tenth. Longest first, the others
    share the remaining workers meanwhile.

    >>> longest_first(["a", "b", "c"], {"a": 1, "b": 9, "c": 1})
    ['b', 'a', 'c']
    """
    return sorted(scenes, key=lambda name: -units.get(name, 0))


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
    if export_clip is media.export_clip:  # a stand-in job (a test's) renders nothing
        preload_for_workers(voiced=settings.get("voice") is not None)
    context = multiprocessing.get_context("fork")
    events = context.Queue()
    pool = ProcessPoolExecutor(
        max_workers=max(1, min(jobs, len(scenes))), mp_context=context, initializer=_worker_start,
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
                for name in longest_first(scenes, units)
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


def preload_for_workers(*, voiced: bool) -> None:
    """Import what every clip's worker needs, once, before the workers are forked.

    A forked worker starts with its parent's modules. Importing manim, the
    stages and (for narration) scipy's signal tools costs about 1.5 s a
    process; imported here, it is paid once per export rather than once per
    worker, and the report, which reads the video themes, finds them loaded.
    manim reads ``manim.cfg`` from the working directory, which the workers
    share with this process.

    Parameters
    ----------
    voiced
        The clips are narrated: the loudness tools are loaded too.
    """
    import embedviz.export.described  # noqa: F401  (the described version, with a voice)
    from embedviz.render.stage import stage_for

    stage_for("lookup")  # imports manim and every stage module
    if voiced:
        from scipy import ndimage, signal  # noqa: F401


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
