"""Rendering one scene into web-ready files: MP4, WebM, poster, captions and pages.

Runs in a worker process (see :mod:`embedviz.export.site`): it renders with
manim into a private folder, re-encodes the MP4 as VP9 WebM with PyAV,
takes the poster from the final frame, and writes the documents derived from
the storyboard. Beat times are recorded during the render so that tests can
check the captions against the video itself.
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from embedviz.export.documents import (
    ExportedClip,
    captions_vtt,
    chapters,
    chapters_vtt,
    numbers_table_html,
    snippet_html,
    transcript_html,
)
from embedviz.export.voice import voice_storyboard
from embedviz.story.model import Beat, Storyboard

__all__ = ["QUALITIES", "export_clip", "transcode_webm", "video_seconds", "write_poster"]

# -q flag -> (manim quality name, frames per second)
QUALITIES = {
    "l": ("low_quality", 15),
    "m": ("medium_quality", 30),
    "h": ("high_quality", 60),
}


def transcode_webm(source: Path, target: Path) -> None:
    """Re-encode an MP4 as VP9 WebM, frame for frame, with its sound as Opus.

    Video and sound are encoded in one pass over the MP4, in its (interleaved)
    order, so the WebM's clusters hold both streams in time order. Encoding
    all the video before the sound instead writes tens of seconds of video
    before the first audio packet (the muxer holds back only 10 s), and
    Chromium then fails such files with ``PIPELINE_ERROR_DECODE`` when a page
    holds several of them. Sound beyond the video's last frame is dropped.

    Parameters
    ----------
    source
        The H.264 MP4 that manim wrote.
    target
        The ``.webm`` to write.
    """
    import av

    with av.open(str(source)) as inp, av.open(str(target), "w", format="webm") as out:
        in_stream = inp.streams.video[0]
        rate = in_stream.average_rate or Fraction(15)
        stream = out.add_stream("libvpx-vp9", rate=rate)
        stream.width = in_stream.codec_context.width
        stream.height = in_stream.codec_context.height
        stream.pix_fmt = "yuv420p"
        # Constant quality, tuned for speed: these clips are flat colour and text.
        stream.options = {"crf": "34", "b": "0", "deadline": "realtime", "cpu-used": "8"}
        stream.codec_context.time_base = Fraction(1) / rate
        # Every stream must exist before the first packet is written.
        sound = _OpusTrack(out, _video_seconds(in_stream, rate)) if inp.streams.audio else None
        streams = [in_stream, inp.streams.audio[0]] if sound is not None else [in_stream]
        index = 0
        for packet in inp.demux(*streams):
            for frame in packet.decode():
                if isinstance(frame, av.VideoFrame):
                    # Number frames afresh in the encoder's time base: one tick per frame.
                    frame.pts = index
                    frame.time_base = stream.codec_context.time_base
                    index += 1
                    for encoded in stream.encode(frame):
                        out.mux(encoded)
                elif sound is not None and isinstance(frame, av.AudioFrame):
                    sound.add(frame)
        for encoded in stream.encode():
            out.mux(encoded)
        if sound is not None:
            sound.finish()


def _video_seconds(stream: Any, rate: Fraction) -> float:
    """Return the length of a video stream: its frame count over its frame rate."""
    if stream.frames:
        return float(stream.frames / rate)
    return float(stream.duration * stream.time_base)


def video_seconds(source: Path) -> float:
    """Return how long a video file's picture lasts, in seconds.

    Parameters
    ----------
    source
        The video.

    Returns
    -------
    float
        Its frame count over its frame rate (a clip can be a frame or two
        shorter than the sum of its beats).
    """
    import av

    with av.open(str(source)) as container:
        stream = container.streams.video[0]
        return _video_seconds(stream, stream.average_rate or Fraction(15))


class _OpusTrack:
    """Narration re-encoded as Opus (WebM's audio codec) at 48 kHz, muxed as it comes."""

    _RATE = 48000

    def __init__(self, out: Any, seconds: float) -> None:
        import av

        self.out = out
        self.stream = out.add_stream("libopus", rate=self._RATE, layout="stereo")
        self.resampler = av.AudioResampler(format="s16", layout="stereo", rate=self._RATE)
        self.samples = 0
        self.limit = round(seconds * self._RATE)

    def add(self, frame: Any) -> None:
        """Resample, trim to the video's length, encode and mux one decoded frame (or flush)."""
        import av

        for converted in self.resampler.resample(frame):
            keep = min(converted.samples, self.limit - self.samples)
            if keep <= 0:
                return
            if keep < converted.samples:
                # Packed s16 stereo: one row of interleaved left/right samples.
                data = converted.to_ndarray()[:, : keep * 2]
                converted = av.AudioFrame.from_ndarray(data, format="s16", layout="stereo")
                converted.sample_rate = self._RATE
            # Count samples afresh: the encoder's time base is one sample.
            converted.pts = self.samples
            converted.time_base = Fraction(1, self._RATE)
            self.samples += converted.samples
            for packet in self.stream.encode(converted):
                self.out.mux(packet)

    def finish(self) -> None:
        """Flush the resampler and the encoder."""
        self.add(None)
        for packet in self.stream.encode():
            self.out.mux(packet)


def write_poster(source: Path, target: Path) -> None:
    """Save the video's final frame (the finished picture) as a PNG poster.

    Parameters
    ----------
    source
        The video.
    target
        The ``.png`` to write.
    """
    import av

    last = None
    with av.open(str(source)) as container:
        for frame in container.decode(video=0):
            last = frame
    if last is None:
        raise RuntimeError(f"{source} holds no video frames")
    image = last.to_image()  # type: ignore[no-untyped-call]  # PyAV leaves it unannotated
    image.save(target, optimize=True)


def _render(
    board: Storyboard, quality: str, media_dir: Path, sounds: list[Path | None] | None = None
) -> tuple[Path, list[float]]:
    """Render a storyboard to MP4, recording when each beat ends (and adding speech)."""
    from manim import tempconfig

    from embedviz.render.base import StoryboardScene

    beat_ends: list[float] = []
    speech = iter(sounds or [])

    class Recording(StoryboardScene):
        scene_name = board.scene

        def before_beat(self, beat: Beat) -> None:
            sound = next(speech, None)
            if sound is not None:
                self.add_sound(str(sound))

        def after_beat(self, beat: Beat) -> None:
            beat_ends.append(float(self.time))

    settings: dict[str, Any] = {
        "media_dir": str(media_dir),
        "quality": QUALITIES[quality][0],
        "disable_caching": True,
        "verbosity": "ERROR",
        "progress_bar": "none",
        "format": "mp4",
        "output_file": board.scene,
    }
    # Manim logs encoder details as warnings; an export reports only failures.
    logging.getLogger("manim").setLevel(logging.ERROR)
    with tempconfig(settings):
        scene = Recording(storyboard=board)
        scene.render()
        movie = Path(scene.renderer.file_writer.movie_file_path)
    return movie, beat_ends


def export_clip(
    scene: str,
    quality: str,
    out_dir: str | Path,
    overrides: dict[str, Any] | None = None,
    voice: bool = False,
) -> dict[str, Any]:
    """Render and write every file of one scene into ``out_dir/SCENE/``.

    Parameters
    ----------
    scene
        Class name or alias.
    quality
        ``l``, ``m`` or ``h``.
    out_dir
        The (staging) site folder.
    overrides
        Scene options, as from the command line.
    voice
        Speak the narration with espeak-ng and mix it in; beats stretch to
        fit their sentence, and the exported storyboard records the timing.

    Returns
    -------
    dict
        The :class:`ExportedClip` fields, for the gallery.
    """
    from embedviz.inputs import prepared_storyboard
    from embedviz.story.scenes import find_scene

    spec = find_scene(scene)
    board = prepared_storyboard(spec.name, overrides)
    clip = ExportedClip(spec.name, board.title, spec.summary, board.duration, spec.name)
    folder = Path(out_dir) / clip.folder
    folder.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".render-", dir=out_dir))
    try:
        sounds = None
        if voice:
            board, sounds = voice_storyboard(board, work / "speech")
            clip = ExportedClip(spec.name, board.title, spec.summary, board.duration, spec.name)
        movie, beat_ends = _render(board, quality, work, sounds)
        mp4 = folder / f"{spec.name}.mp4"
        shutil.move(str(movie), mp4)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    transcode_webm(mp4, folder / f"{spec.name}.webm")
    write_poster(mp4, folder / f"{spec.name}.poster.png")
    name = spec.name
    length = video_seconds(mp4)
    (folder / f"{name}.en.vtt").write_text(captions_vtt(board, length), encoding="utf-8")
    (folder / f"{name}.chapters.vtt").write_text(chapters_vtt(board, length), encoding="utf-8")
    (folder / f"{name}.transcript.html").write_text(transcript_html(board), encoding="utf-8")
    (folder / f"{name}.numbers.html").write_text(
        "<!-- The numbers the clip shows, as accessible tables. -->\n" + numbers_table_html(board),
        encoding="utf-8",
    )
    (folder / f"{name}.snippet.html").write_text(snippet_html(clip), encoding="utf-8")
    timing = {
        "fps": QUALITIES[quality][1],
        "duration": board.duration,
        "beat_starts": board.beat_start_times(),
        "rendered_beat_ends": beat_ends,
    }
    (folder / f"{name}.timing.json").write_text(json.dumps(timing, indent=1), encoding="utf-8")
    (folder / f"{name}.storyboard.json").write_text(board.to_json(), encoding="utf-8")
    return {
        "scene": clip.scene,
        "title": clip.title,
        "summary": clip.summary,
        "duration": clip.duration,
        "folder": clip.folder,
        # A composite clip's concepts, for the gallery's list that seeks the video.
        "chapters": tuple(chapters(board)) if board.parts else (),
    }
