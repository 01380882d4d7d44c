"""The scene's file writer: it owns the video files, the holds and the sound.

Manim 0.22's :class:`~manim.scene.scene_file_writer.SceneFileWriter` hands
each partial movie's frames to a :class:`VideoSegmentEncoder`, which
converts and encodes a held frame once per tick: a 10 s hold at 60 fps is 600
RGBA→YUV conversions and 600 encodes, although the picture never changes.
:class:`HoldWriter` keeps Manim's writer (paths, sections, sound, the
in-flight encoder pool) and changes only how a segment is encoded:

* **Variable frame rate** (the default). A run of identical frames, whether a
  ``wait`` or the still part of a play, is encoded once, at the time its
  first tick starts, with a duration of the whole run. The stream's time
  base stays one tick per frame (``1/fps``), so every frame still starts on
  the frame grid, and the same picture is on screen at every instant as in
  the constant-rate video. A run that ends a segment is closed by one more
  copy on its last tick, so each partial movie lasts exactly its ticks even
  for a tool that ignores the last packet's duration; the concat join that
  assembles the scene and its sections then keeps every gap.
  H.264 is written without B-frames: with B-frames x264 numbers decode times
  as if every frame lasted one tick, and an MP4's duration (taken from
  decode times) then ends seconds early. What is left to encode is motion,
  so x264's "veryfast" preset is used (see :data:`VARIABLE_RATE_X264`).
* **Constant frame rate** (``--cfr``): the frames Manim would write, each
  tick its own frame, but a repeated frame is converted once, not once per
  tick. The bytes are the same as Manim's.

* **One segment per section.** Without Manim's cache (embedviz's renders
  and exports disable it), the plays of a section go on writing into one
  segment instead of one each: a storyboard of 296 plays (FullExplainer) no
  longer pays 296 times for an encoder, a keyframe, a thread and a file to
  join. Measured on 2 cores at -ql: 42 to 30 CPU-seconds, the same frames.

Formats other than H.264 (MP4, MOV) and VP9 (WebM), and GIF (which Manim
renumbers frame by frame), are always written at a constant frame rate.
"""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import av
import numpy as np
from manim import config
from manim.renderer.cairo_renderer import CairoRenderer
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

__all__ = [
    "ENCODERS_IN_FLIGHT",
    "ENCODERS_IN_FLIGHT_UP_TO_720P",
    "VARIABLE_RATE_CODECS",
    "VARIABLE_RATE_X264",
    "HoldEncoder",
    "HoldRenderer",
    "HoldWriter",
    "encoders_in_flight",
    "use_hold_writer",
]

# How many finished clips (one per play or hold) may still be encoding while
# the next is drawn. Manim's default, 1, makes drawing wait for every clip's
# encoder to drain; a storyboard plays dozens of short clips, so overlapping
# them puts the second core to work. Each encoder in flight holds its own x264
# buffers, which grow with the frame: at -qh, SingleTokenLookup peaked at 1.1
# GiB with 2 and 2.3 GiB with 4. Measured on 2 cores: LargeVocabLookup at -ql
# 10.5 s -> 9.2 s with 2; FullExplainer at -ql (296 plays) 21.3 s with 2,
# 17.2 s with 4 (peak 334 -> 397 MiB) and 16.4 s with 8 (585 MiB). So frames up
# to 720p keep 4 in flight, larger ones 2.
ENCODERS_IN_FLIGHT = 2
ENCODERS_IN_FLIGHT_UP_TO_720P = 4


def encoders_in_flight(pixels: int) -> int:
    """Return how many clips may encode while the next is drawn, for frames of ``pixels``.

    >>> [encoders_in_flight(w * h) for w, h in ((854, 480), (1280, 720), (1920, 1080))]
    [4, 4, 2]
    """
    return ENCODERS_IN_FLIGHT_UP_TO_720P if pixels <= 1280 * 720 else ENCODERS_IN_FLIGHT


# Encoders whose streams carry variable frame rate timestamps through Manim's
# concat join, embedviz's remuxes and browsers (checked by the tests).
VARIABLE_RATE_CODECS = frozenset({"libx264", "libvpx-vp9"})
# x264 options added at a variable frame rate. No B-frames: decode order is
# display order, so decode times are display times. The "veryfast" preset:
# what is left to encode is motion of flat colour and text, where it costs a
# third less than the default "medium" and, measured on SequenceLookup at
# -qh, even gave a smaller file (3.29 MB against 3.52 MB) at the same crf.
VARIABLE_RATE_X264 = (("bf", "0"), ("preset", "veryfast"))


class HoldEncoder(VideoSegmentEncoder):
    """Encode one partial movie, each run of identical frames once (see the module).

    Parameters
    ----------
    target
        The segment file.
    spec
        Manim's resolved encoder settings.
    variable
        Write a run of identical frames as one frame with the run's duration;
        False writes one frame per tick (converting a repeated frame once).
    """

    def __init__(self, *, target: Path, spec: Any, variable: bool) -> None:
        if variable and spec.codec == "libx264":
            spec = dataclasses.replace(spec, options=(*spec.options, *VARIABLE_RATE_X264))
        super().__init__(target=target, spec=spec)
        self._video = cast(Any, self._stream)
        self.variable = variable
        self._tick = Fraction(spec.frame_rate.denominator, spec.frame_rate.numerator)
        # The run of identical frames not yet encoded: its pixels, first tick, ticks.
        self._run: np.ndarray | None = None
        self._run_start = 0
        self._run_ticks = 0
        # Each encoded frame's duration in ticks, by its timestamp, for its packet.
        self._durations: dict[int, int] = {}

    def write_frame(self, pixels: Any, *, repeat: int = 1) -> None:
        """Add ``repeat`` ticks of one frame (see :meth:`VideoSegmentEncoder.write_frame`)."""
        self._validate_frame(pixels, repeat)
        try:
            if not self.variable:
                self._encode_ticks(pixels, repeat)
            elif self._run is not None and np.array_equal(self._run, pixels):
                self._run_ticks += repeat
                self._next_pts += repeat
            else:
                self._end_run(closing=False)
                self._run, self._run_start, self._run_ticks = pixels, self._next_pts, repeat
                self._next_pts += repeat
        except BaseException as error:
            raise self._operation_error("encode", error) from error

    def finish(self) -> None:
        """Encode the last run, flush the encoder and close the segment."""
        if self._closed:
            return
        first_error: Exception | None = None
        try:
            self._end_run(closing=True)
            for packet in self._video.encode():
                self._mux(packet)
        except Exception as error:
            first_error = error
        finally:
            self._closed = True
            try:
                self._container.close()
            except Exception as error:
                if first_error is None:
                    first_error = error
        if first_error is not None:
            raise self._operation_error("finish", first_error) from first_error

    # -- encoding ------------------------------------------------------------
    def _encode_ticks(self, pixels: Any, repeat: int) -> None:
        """Constant rate: one frame per tick, converted to the codec's format once."""
        frame = av.VideoFrame.from_ndarray(pixels, format="rgba")
        if repeat > 1:
            frame = frame.reformat(format=self.spec.pixel_format)
        for _ in range(repeat):
            self._encode(frame, self._next_pts, 1)
            self._next_pts += 1

    def _end_run(self, *, closing: bool) -> None:
        """Encode the pending run once; ``closing`` adds a copy on its last tick."""
        if self._run is None:
            return
        frame = av.VideoFrame.from_ndarray(self._run, format="rgba")
        start, ticks = self._run_start, self._run_ticks
        self._run = None
        if closing and ticks > 1:
            frame = frame.reformat(format=self.spec.pixel_format)
            self._encode(frame, start, ticks - 1)
            self._encode(frame, start + ticks - 1, 1)
        else:
            self._encode(frame, start, ticks)

    def _encode(self, frame: Any, pts: int, ticks: int) -> None:
        frame.pts = pts
        frame.time_base = self._tick
        self._durations[pts] = ticks
        for packet in self._video.encode(frame):
            self._mux(packet)

    def _mux(self, packet: Any) -> None:
        # The packet's duration is what lets a container end a hold correctly.
        if packet.pts is not None and packet.pts in self._durations:
            packet.duration = self._durations.pop(packet.pts)
        self._container.mux(packet)


class HoldWriter(SceneFileWriter):
    """Manim's scene file writer, encoding holds once (see the module docstring).

    Parameters
    ----------
    settings
        Manim's resolved writer settings.
    variable
        Write variable frame rate video where the format allows it (see
        :attr:`variable`); False keeps a constant frame rate.
    """

    def __init__(self, settings: Any, *, variable: bool = True) -> None:
        in_flight = encoders_in_flight(config.pixel_width * config.pixel_height)
        if settings.max_inflight_encoders < in_flight:
            # Only this writer's limit changes (manim's config does not); a
            # larger one set by the user is kept.
            settings = dataclasses.replace(settings, max_inflight_encoders=in_flight)
        #: Whether the plays of a section write into one segment: only without
        #: Manim's cache, whose entries are one play each, keyed by its hash.
        self.one_segment_per_section = bool(config.disable_caching)
        super().__init__(settings)
        encoder = settings.video_encoder
        #: Whether segments are written at a variable frame rate: asked for, a
        #: video output other than GIF, and an encoder in VARIABLE_RATE_CODECS.
        self.variable = bool(
            variable
            and encoder is not None
            and encoder.codec in VARIABLE_RATE_CODECS
            and not self.output_spec.is_gif
        )

    def _create_segment_encoder(self, target: Path) -> VideoSegmentEncoder:
        encoder = self.video_encoder
        if encoder is None:
            raise RuntimeError("Video segment encoding requires resolved settings.")
        return HoldEncoder(target=target, spec=encoder, variable=self.variable)

    # -- one segment per section ------------------------------------------------
    # Manim opens a segment per play so that each can be cached by its hash.
    # Without caching (embedviz's renders and exports), a storyboard's dozens of
    # short plays would each pay for an encoder, a keyframe, a thread and a file
    # to join; instead the plays of a section go on writing into one segment,
    # which closes at the next section or at the end. The frames are the same.
    def add_partial_movie_file(self, hash_animation: str | None) -> None:
        """Plan a play's segment, or none where it joins the open one."""
        if self._joins_open_segment(hash_animation is not None):
            # A placeholder keeps one entry per play, as for a skipped play.
            self.partial_movie_files.append(None)
            self.sections[-1].partial_movie_files.append(None)
            return
        super().add_partial_movie_file(hash_animation)

    def begin_animation(
        self, allow_write: bool = False, *, animation_index: int, file_path: Any = None
    ) -> None:
        """Open a segment for the play, unless it goes on writing into the open one."""
        if file_path is None and self._joins_open_segment(allow_write):
            return
        super().begin_animation(allow_write, animation_index=animation_index, file_path=file_path)

    def end_animation(self, allow_write: bool = False) -> None:
        """Keep the segment open for the section's next play (see above)."""
        if not (self.one_segment_per_section and allow_write):
            super().end_animation(allow_write)

    def next_section(self, name: str, type_: str, skip_animations: bool) -> None:
        """Close the open segment: a section's clip starts with a segment of its own."""
        self.close_open_segment()
        super().next_section(name, type_, skip_animations)

    def finish(self) -> None:
        """Close the open segment, then join the segments as Manim does."""
        if self.output_spec.is_video:
            self.close_open_segment()
        super().finish()

    def close_open_segment(self) -> None:
        """Seal the segment that plays have been writing into, if one is open."""
        if self.one_segment_per_section and self._current_encode_job is not None:
            self.close_partial_movie_stream()

    def _joins_open_segment(self, writes: bool) -> bool:
        return self.one_segment_per_section and writes and self._current_encode_job is not None


class HoldRenderer(CairoRenderer):
    """Manim's Cairo renderer with a :class:`HoldWriter`, drawing a still frame once.

    For a ``wait`` Manim first draws every mobject that does not move into
    a background image, then, since none moves, draws every mobject again on
    top of it. Here a frame in which nothing moves is that background image,
    and the background image itself starts from an earlier one where the
    mobjects under it are unchanged (see
    :meth:`~embedviz.render.camera.TracingCamera.paint_still`).

    Parameters
    ----------
    constant_frame_rate
        Keep a constant frame rate (``--cfr``).
    **kwargs
        Passed to :class:`~manim.renderer.cairo_renderer.CairoRenderer`
        (``camera_class``, ``skip_animations``).
    """

    def __init__(self, *, constant_frame_rate: bool = False, **kwargs: Any) -> None:
        writer = functools.partial(HoldWriter, variable=not constant_frame_rate)
        super().__init__(file_writer_class=cast(Any, writer), **kwargs)

    def save_static_frame_data(self, scene: Any, static_mobjects: Any) -> Any:
        """Paint the still part of a play, from a kept picture where one applies.

        See :meth:`~embedviz.render.camera.TracingCamera.paint_still`; with
        another camera, Manim paints it from nothing.
        """
        paint_still = getattr(self.camera, "paint_still", None)
        if paint_still is None:
            return super().save_static_frame_data(scene, static_mobjects)
        static = list(static_mobjects)
        self.static_image = paint_still(static) if static else None
        return self.static_image

    def update_frame(
        self,
        scene: Any,
        mobjects: Any = None,
        include_submobjects: bool = True,
        ignore_skipping: bool = True,
        **kwargs: Any,
    ) -> None:
        """Draw the frame; with no moving mobjects, it is the still background image."""
        if mobjects is not None and self.static_image is not None and not list(mobjects):
            if not (self.skip_animations and not ignore_skipping):
                self.camera.set_frame_to_background(self.static_image)
            return
        super().update_frame(scene, mobjects, include_submobjects, ignore_skipping, **kwargs)


def use_hold_writer(renderer: Any, *, constant_frame_rate: bool = False) -> HoldWriter | None:
    """Give a renderer a :class:`HoldWriter` in place of Manim's writer.

    Call it right after the scene is constructed, before anything is played.
    At least :data:`ENCODERS_IN_FLIGHT` segments may encode while the next is
    drawn; a larger limit set by the user is kept, and Manim's global config
    does not change.

    Parameters
    ----------
    renderer
        The scene's renderer; one without Manim's file writer (OpenGL) is
        left as it is.
    constant_frame_rate
        Keep a constant frame rate (``--cfr``).

    Returns
    -------
    HoldWriter or None
        The new writer, or None if the renderer was left alone.
    """
    writer = getattr(renderer, "file_writer", None)
    if isinstance(writer, HoldWriter) or not isinstance(writer, SceneFileWriter):
        return None
    replacement = HoldWriter(writer.settings, variable=not constant_frame_rate)
    cast(Any, renderer).file_writer = replacement
    return replacement
