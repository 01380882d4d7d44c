"""Beats in parallel: render ranges of a storyboard's beats in worker processes, then join them.

Manim renders a scene in one process (ManimCommunity/manim#80). A storyboard,
however, fully describes the state at the start of every beat, so a worker
can start anywhere: it plays the beats before its range with Manim's
``skip_animations`` (each animation is brought to its end; nothing is drawn
or encoded), renders its own range into its own movie, and stops. The parent
joins the workers' movies in order, packet for packet, without re-encoding
(the same concat join Manim uses for its partial movies), and joins each
section's pieces the same way.

The ranges are balanced by what costs time: drawing motion. With the hold
writer (see :mod:`embedviz.render.writer`) a hold costs almost nothing, so a
range's cost is its beats' run times plus a small cost per beat; at a
constant frame rate every tick is encoded, so the whole duration counts.

Workers are forked, so a scene class made on the fly (as ``embedviz render``
and the exporter make them) needs no pickling.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import signal
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

from embedviz.story.model import Beat, Storyboard

__all__ = [
    "PER_BEAT_SECONDS",
    "RangeRender",
    "beat_ranges",
    "join_clips",
    "range_scene",
    "render_in_parallel",
]

# What a beat costs besides its motion, in seconds of motion: building its
# animation and the first frame of each play (measured: about a third of a
# second of drawing per beat at -ql).
PER_BEAT_SECONDS = 0.3


def beat_ranges(
    beats: Sequence[Beat], workers: int, *, constant_frame_rate: bool = False
) -> list[tuple[int, int]]:
    """Split beats into at most ``workers`` consecutive ranges of about equal cost.

    Parameters
    ----------
    beats
        Every beat, in order (:meth:`Storyboard.all_beats`).
    workers
        How many ranges at most; each range holds at least one beat.
    constant_frame_rate
        Every tick is encoded (``--cfr``), so a beat costs its whole duration;
        otherwise its motion (``run_time``) plus :data:`PER_BEAT_SECONDS`.

    Returns
    -------
    list of (int, int)
        ``(first, stop)`` beat indices of each range; together they cover
        every beat once, in order.

    Examples
    --------
    >>> from types import SimpleNamespace as B
    >>> beats = [B(run_time=1.0, duration=4.0)] * 4 + [B(run_time=6.0, duration=8.0)]
    >>> beat_ranges(beats, 2)
    [(0, 4), (4, 5)]
    >>> beat_ranges(beats, 9)
    [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]
    """
    if not beats:
        return []
    count = max(1, min(workers, len(beats)))
    costs = [b.duration if constant_frame_rate else b.run_time + PER_BEAT_SECONDS for b in beats]
    total = sum(costs)
    ranges: list[tuple[int, int]] = []
    first = 0
    spent = 0.0
    for number in range(1, count):
        # Cut where the cost so far comes nearest this range's share, leaving
        # at least one beat for each range still to come.
        target = total * number / count
        last_allowed = len(beats) - (count - number)
        stop = first + 1
        spent += costs[first]
        # A tie goes on, so that beats which cost nothing never hold a cut back.
        while stop < last_allowed and abs(spent + costs[stop] - target) <= abs(spent - target):
            spent += costs[stop]
            stop += 1
        ranges.append((first, stop))
        first = stop
    ranges.append((first, len(beats)))
    return ranges


def range_scene(scene_class: type[Any], first: int, stop: int) -> type[Any]:
    """Return a subclass of a storyboard scene that renders only beats ``first`` to ``stop``.

    The beats before ``first`` are played with ``skip_animations`` (so the
    screen reaches the state the storyboard describes at beat ``first``);
    at beat ``stop`` the scene ends. Sections keep their names: a section
    that starts before the range is reopened, under the same name, at its
    first beat. Every rendered beat's end is recorded in ``beat_ends``.

    Parameters
    ----------
    scene_class
        A :class:`~embedviz.render.base.StoryboardScene` subclass.
    first, stop
        The range of :meth:`Storyboard.all_beats` indices.

    Returns
    -------
    type
        The subclass.
    """
    from manim.utils.exceptions import EndSceneEarlyException

    class RangeScene(scene_class):  # type: ignore[misc]
        def setup(self) -> None:
            super().setup()
            self.beat_index = 0
            self.section_name = "autocreated"  # manim's name for the first section
            self.beat_ends: list[float] = []
            if first > 0:
                super().next_section(self.section_name, skip_animations=True)

        def next_section(self, name: str = "unnamed", *args: Any, **kwargs: Any) -> None:
            self.section_name = name
            kwargs["skip_animations"] = self.beat_index < first
            super().next_section(name, *args, **kwargs)

        def play_beat(self, beat: Beat) -> None:
            if self.beat_index >= stop:
                raise EndSceneEarlyException()
            if self.beat_index == first and first > 0:
                # The range starts here: render from now on, in the same section.
                super().next_section(self.section_name, skip_animations=False)
            super().play_beat(beat)
            if self.beat_index >= first:
                self.beat_ends.append(float(self.time))
            self.beat_index += 1

    RangeScene.__name__ = RangeScene.__qualname__ = scene_class.__name__
    return RangeScene


@dataclass
class RangeRender:
    """What rendering one range (or all of them, joined) produced."""

    movie: Path
    # (section name, clip) in order; a name may repeat where a range cut a section.
    sections: list[tuple[str, Path]] = field(default_factory=list)
    beat_ends: list[float] = field(default_factory=list)


def render_in_parallel(
    scene_class: type[Any],
    board: Storyboard,
    settings: Mapping[str, Any],
    workers: int,
    work: Path,
    *,
    constant_frame_rate: bool = False,
) -> RangeRender:
    """Render a storyboard in ranges of beats, one worker process each, and join them.

    Parameters
    ----------
    scene_class
        The storyboard scene to render (it is subclassed per range, see
        :func:`range_scene`).
    board
        The storyboard it plays.
    settings
        Manim settings for :func:`manim.tempconfig` (quality, format,
        ``save_sections``, ...); each worker gets its own ``media_dir``.
    workers
        Worker processes (at most one per beat).
    work
        A private folder for the workers' files and the joined results.
    constant_frame_rate
        Balance the ranges for a constant frame rate render.

    Returns
    -------
    RangeRender
        The joined movie, its sections (joined by name) and the scene time
        at the end of every beat.

    Raises
    ------
    RuntimeError
        A worker failed; its error's first line is the message.
    """
    ranges = beat_ranges(board.all_beats(), workers, constant_frame_rate=constant_frame_rate)
    context = multiprocessing.get_context("fork")
    processes = []
    for number, (first, stop) in enumerate(ranges):
        folder = work / f"range-{number:03d}"
        folder.mkdir(parents=True)
        process = context.Process(
            target=_render_range,
            args=(
                range_scene(scene_class, first, stop),
                board,
                dict(settings),
                folder,
                os.getpid(),
            ),
            name=f"embedviz-beats-{first}-{stop}",
        )
        process.start()
        processes.append((process, folder))
    try:
        parts = [_result(process, folder) for process, folder in processes]
    finally:
        for process, _ in processes:
            if process.is_alive():
                process.terminate()
            process.join()
    return _joined(parts, work)


def _render_range(
    scene_class: type[Any], board: Storyboard, settings: dict[str, Any], folder: Path, parent: int
) -> None:
    """Render one range into ``folder`` and describe it in ``result.json`` (a worker)."""
    # The parent handles Ctrl-C and SIGTERM, and stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _end_with_parent(parent)
    try:
        from manim import tempconfig

        with tempconfig({**settings, "media_dir": str(folder / "media")}):
            scene = scene_class(storyboard=board)
            scene.render()
            writer = scene.renderer.file_writer
            sections: list[tuple[str, str]] = []
            if settings.get("save_sections"):
                index = Path(writer.output_plan.section_index)
                folder_of = Path(writer.sections_output_dir)
                sections = [
                    (str(entry["name"]), str(folder_of / entry["video"]))
                    for entry in json.loads(index.read_text(encoding="utf-8"))
                ]
            result = {
                "movie": str(writer.movie_file_path),
                "sections": sections,
                "beat_ends": scene.beat_ends,
            }
        (folder / "result.json").write_text(json.dumps(result), encoding="utf-8")
    except BaseException as error:
        (folder / "error.txt").write_text(
            f"{type(error).__name__}: {error}\n{traceback.format_exc()}", encoding="utf-8"
        )
        os._exit(1)
    os._exit(0)


def _end_with_parent(parent: int) -> None:
    """Make this worker end when its parent does, however the parent ends.

    A parent stopped with SIGKILL (or an export worker stopped with SIGTERM)
    cannot stop its workers; without this they would go on writing into a
    staging folder that has been removed. Linux only (prctl); elsewhere the
    parent's own clean-up is all there is.
    """
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent ended before the request was made
        os._exit(1)


def _result(process: Any, folder: Path) -> RangeRender:
    process.join()
    result = folder / "result.json"
    if process.exitcode != 0 or not result.is_file():
        error = folder / "error.txt"
        text = error.read_text(encoding="utf-8") if error.is_file() else ""
        first_line = text.strip().splitlines()[0] if text.strip() else f"exit {process.exitcode}"
        raise RuntimeError(f"a beat worker failed: {first_line}")
    data = json.loads(result.read_text(encoding="utf-8"))
    return RangeRender(
        Path(data["movie"]),
        [(name, Path(path)) for name, path in data["sections"]],
        [float(t) for t in data["beat_ends"]],
    )


def _joined(parts: list[RangeRender], work: Path) -> RangeRender:
    """Join the ranges' movies, and the pieces of each section, in order."""
    movie = work / f"joined{parts[0].movie.suffix}"
    join_clips([part.movie for part in parts], movie)
    pieces: list[tuple[str, list[Path]]] = []
    for part in parts:
        for name, clip in part.sections:
            if pieces and pieces[-1][0] == name:
                pieces[-1][1].append(clip)
            else:
                pieces.append((name, [clip]))
    sections = []
    for number, (name, clips) in enumerate(pieces):
        target = work / "sections" / f"{number:04d}_{name}{clips[0].suffix}"
        target.parent.mkdir(parents=True, exist_ok=True)
        join_clips(clips, target)
        sections.append((name, target))
    return RangeRender(movie, sections, [t for part in parts for t in part.beat_ends])


def join_clips(clips: Sequence[Path], target: Path) -> None:
    """Join clips of one encoding into ``target``, in order, without re-encoding.

    The concat demuxer places each clip after the one before by its length,
    as Manim joins its partial movies (and as there, decode times are left
    for the muxer to derive).

    Parameters
    ----------
    clips
        Video files with the same codec, size and time base (one render's).
    target
        The joined file; its container is taken from its suffix.
    """
    import av

    if len(clips) == 1:
        shutil.copyfile(clips[0], target)
        return
    manifest = BytesIO("".join(f"file 'file:{Path(c).as_posix()}'\n" for c in clips).encode())
    with (
        av.open(manifest, "r", options={"safe": "0"}, format="concat") as source,
        av.open(str(target), "w") as out,
    ):
        video = source.streams.video[0]
        stream = out.add_stream_from_template(template=video)
        for packet in source.demux(video):
            if packet.dts is None:  # the demuxer's flushing packets
                continue
            packet.dts = None
            packet.stream = stream
            out.mux(packet)
