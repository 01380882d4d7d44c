"""Rendering one scene into web-ready files: MP4, WebM, poster, captions and pages.

Runs in a worker process (see :mod:`embedviz.export.site`): it renders with
manim into a private folder, re-encodes the MP4 as VP9 WebM with PyAV (bit
exact, so the same clip gives the same bytes), takes the poster from the
final frame, and writes the documents derived from the storyboard. The
narration is left out of the picture unless captions are burned in: the
clip's WebVTT track carries it. Beat times are recorded during the render so that tests can
check the captions against the video itself.
"""

from __future__ import annotations

import itertools
import json
import logging
import math
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

from embedviz.export.documents import (
    STEPS_PAGE,
    ExportedClip,
    captions_vtt,
    chapters_vtt,
    descriptions_vtt,
    numbers_table_html,
    snippet_html,
    transcript_html,
)
from embedviz.export.steps import steps_html
from embedviz.export.voice import Voice, synthesise_phrases
from embedviz.quality import PRESETS
from embedviz.story.model import Beat, Storyboard

__all__ = [
    "AAC_RATE",
    "clip_units",
    "export_clip",
    "measured_loudness",
    "mux_soundtrack",
    "quiet_logging",
    "recording_scene",
    "restamp_movie",
    "set_progress_sink",
    "transcode_webm",
    "video_seconds",
    "write_poster",
]


# Where a worker reports its progress: (kind, scene, value) with kind "total"
# (the clip's work units) or "advance" (units done). None: not reported.
_progress_sink: Callable[[str, str, float], None] | None = None


def set_progress_sink(sink: Callable[[str, str, float], None] | None) -> None:
    """Send this process's progress events to ``sink`` (see :func:`clip_units`).

    Parameters
    ----------
    sink
        Called as ``sink(kind, scene, value)``: kind ``"total"`` gives a
        clip's work units once it starts, ``"advance"`` the units just done.
    """
    global _progress_sink
    _progress_sink = sink


def _progress(kind: str, scene: str, value: float) -> None:
    if _progress_sink is not None:
        _progress_sink(kind, scene, value)


def clip_units(duration: float, quality: str) -> int:
    """Return a clip's work units for progress: its frames, rendered and then encoded.

    Parameters
    ----------
    duration
        The clip's length in seconds.
    quality
        A ``-q`` preset: ``t``, ``l``, ``m``, ``h``, ``p`` or ``k``.

    Returns
    -------
    int
        Twice the frame count.
    """
    return 2 * max(1, round(duration * PRESETS[quality].fps))


def quiet_logging(verbose: bool = False) -> None:
    """Keep Manim's and PyAV's own log lines out of the output unless ``verbose``.

    Manim warns "Output format set as webm, this can be slower ..." and PyAV
    "Some options were not used: {'shortest': ...}" when Manim mixes in sound;
    neither is something an embedviz user can act on. Errors still show.

    Parameters
    ----------
    verbose
        Show their information and warnings as well.
    """
    level = logging.INFO if verbose else logging.ERROR
    logging.getLogger("manim").setLevel(level)
    logging.getLogger("av").setLevel(logging.WARNING if verbose else logging.ERROR)


def transcode_webm(source: Path, target: Path, scene: str = "", decoded: Any = None) -> None:
    """Re-encode an MP4 as VP9 WebM, frame for frame, with its sound as Opus.

    Each frame keeps its time and its length, so a variable frame rate
    video (a still picture written once for a whole hold, see
    :mod:`embedviz.render.writer`) stays one and costs VP9 one frame per
    hold, while a constant-rate one stays constant.

    The sound is decoded first (and fitted under the web true-peak ceiling,
    see :func:`_opus_source`); then video and sound are encoded in time
    order, so the WebM's clusters hold both streams interleaved. Encoding
    all the video before the sound instead writes tens of seconds of video
    before the first audio packet (the muxer holds back only 10 s), and
    Chromium then fails such files with ``PIPELINE_ERROR_DECODE`` when a page
    holds several of them. Sound beyond the video's last frame is dropped.

    The same MP4 always gives the same bytes: the muxer writes in bit-exact
    mode, without a random segment ID or the time of writing.

    Parameters
    ----------
    source
        The H.264 MP4 that manim wrote.
    target
        The ``.webm`` to write.
    scene
        The scene, for progress reports.
    decoded
        ``source``'s sound as :func:`mux_soundtrack` decoded it when it wrote
        the file (``keep_sound``), or ``None`` to decode it here: the same
        bytes decode to the same samples, and a long track's decoding cost a
        fifth of the sound's work.
    """
    import av

    # fflags=+bitexact: no random UIDs, no date, no encoder version string.
    container_options = {"fflags": "+bitexact"}
    ticks = _frame_ticks(source)
    with (
        av.open(str(source)) as inp,
        av.open(str(target), "w", format="webm", options=container_options) as out,
    ):
        in_stream = inp.streams.video[0]
        rate = _nominal_rate(in_stream)
        stream = out.add_stream("libvpx-vp9", rate=rate)
        stream.width = in_stream.codec_context.width
        stream.height = in_stream.codec_context.height
        stream.pix_fmt = "yuv420p"
        # Constant quality, tuned for speed: these clips are flat colour and text.
        stream.options = {"crf": "34", "b": "0", "deadline": "realtime", "cpu-used": "8"}
        stream.codec_context.time_base = Fraction(1) / rate
        # Every stream must exist before the first packet is written.
        sound: _OpusTrack | _OpusCopy | None = None
        if inp.streams.audio:
            seconds = float(ticks[-1] / rate) if ticks else 0.0
            pcm, trial = _opus_source(source, seconds, decoded)
            sound = _OpusTrack(out, pcm) if trial is None else _OpusCopy(out, trial)
        # Each frame's length in ticks, by its start, for its packet.
        lengths = {start: end - start for start, end in itertools.pairwise(ticks)}
        frames = zip(inp.decode(in_stream), ticks, strict=False)
        shown = next(frames, None)
        # Merge the two streams by time: the sound's next chunk goes first
        # whenever it starts no later than the next picture.
        while shown is not None or (sound is not None and not sound.done):
            if (
                sound is not None
                and not sound.done
                and (shown is None or sound.time <= shown[1] / rate)
            ):
                sound.encode_until(math.inf if shown is None else float(shown[1] / rate))
                continue
            assert shown is not None
            frame, start = shown
            # The frame's start on the encoder's time base: one tick per frame.
            frame.pts = start
            frame.time_base = stream.codec_context.time_base
            for encoded in stream.encode(frame):
                _mux_timed(out, encoded, lengths)
            _progress("advance", scene, lengths.get(start, 1))
            shown = next(frames, None)
        for encoded in stream.encode():
            _mux_timed(out, encoded, lengths)
        if sound is not None:
            sound.finish()


def _mux_timed(out: Any, packet: Any, lengths: dict[int, int]) -> None:
    """Mux a packet with its frame's length, so that a hold at the end keeps its time."""
    if packet.pts is not None and packet.pts in lengths:
        packet.duration = lengths[packet.pts]
    out.mux(packet)


def _nominal_rate(stream: Any) -> Fraction:
    """Return a video stream's frame rate: its tick, not its average (which holds lower)."""
    return Fraction(stream.guessed_rate or stream.base_rate or stream.average_rate or 15)


def _frame_ticks(source: Path) -> list[int]:
    """Return each frame's start in display order, in ticks, and last the video's end.

    A tick is one frame at the stream's nominal rate. A frame of a variable
    frame rate video can last many ticks (see :mod:`embedviz.render.writer`).
    """
    import av

    with av.open(str(source)) as container:
        stream = container.streams.video[0]
        tick = 1 / (_nominal_rate(stream) * Fraction(stream.time_base or 1))
        # A packet without a length lasts one tick.
        spans = sorted(
            (packet.pts / tick, (packet.pts + (packet.duration or tick)) / tick)
            for packet in container.demux(stream)
            if packet.pts is not None and packet.size
        )
    if not spans:
        return []
    return [*(round(start) for start, _ in spans), max(round(end) for _, end in spans)]


def video_seconds(source: Path) -> float:
    """Return how long a video file's picture lasts, in seconds.

    Parameters
    ----------
    source
        The video.

    Returns
    -------
    float
        When its last frame ends, on the frame grid (a clip can be a frame or
        two shorter than the sum of its beats). A variable frame rate video
        has fewer frames than its length in ticks; its frames' times count.
    """
    import av

    ticks = _frame_ticks(source)
    if not ticks:
        return 0.0
    with av.open(str(source)) as container:
        rate = _nominal_rate(container.streams.video[0])
    return float(ticks[-1] / rate)


_RATE = 48_000  # every soundtrack's samples per second


def _decoded_sound(source: Any) -> Any:
    """Decode a file's first sound stream to 48 kHz floats, one row per channel."""
    import av
    import numpy as np

    with av.open(source) as container:
        stream = container.streams.audio[0]
        layout = "mono" if stream.codec_context.layout.nb_channels == 1 else "stereo"
        resampler = av.AudioResampler(format="fltp", layout=layout, rate=_RATE)
        rows: list[Any] = []
        # AAC and Opus decode to planar floats at 48 kHz already (a stream keeps
        # its format): converting each of a long track's 10^5 frames to the same
        # format took over half the decoding.
        direct: bool | None = None
        for frame in container.decode(stream):
            if direct is None:
                found = (frame.format.name, frame.sample_rate, frame.layout.name)
                direct = found == ("fltp", _RATE, layout)
            if direct:
                rows.append(frame.to_ndarray())
            else:
                rows += [converted.to_ndarray() for converted in resampler.resample(frame)]
        if not direct:
            rows += [converted.to_ndarray() for converted in resampler.resample(None)]
    channels = 1 if layout == "mono" else 2
    if not rows:
        return np.zeros((channels, 0))
    return np.concatenate(rows, axis=1).astype(np.float64)


def _opus_source(source: Path, seconds: float, sound: Any = None) -> Any:
    """Return an MP4's sound as it goes into Opus: trimmed to the picture, peaks fitted.

    Opus changes the waveform it is given, and its decoded peaks can rise
    above the AAC's (measured: about 0.5 dB on narration, 1.5 dB on clipped
    bursts), so a mono track is encoded in memory first and limited harder
    until its decoded true peak fits under the web ceiling (see
    :func:`embedviz.export.loudness.fit_through_codec`). The limiter touches
    only peaks: the loudness stays as the MP4 has it.

    ``sound`` is the file's sound already decoded (see :func:`transcode_webm`).

    Returns the samples, and for a fitted mono track the in-memory WebM of its
    last (fitting) trial too, whose packets are the ones to write (``None``
    for sound passed on as it is).
    """
    import numpy as np

    from embedviz.export.loudness import fit_through_codec

    whole = _decoded_sound(str(source)) if sound is None else sound
    pcm = whole[:, : round(seconds * _RATE)]
    if pcm.shape[0] != 1 or not np.any(pcm):
        return pcm, None  # embedviz's narration is mono; other sound is passed on as it is
    trials: list[bytes] = []

    def round_trip(x: Any) -> Any:
        decoded, data = _opus_round_trip(x[np.newaxis])
        trials[:] = [data]
        return decoded[0]

    # The last trial is made with the samples returned (fit_through_codec's contract).
    return fit_through_codec(pcm[0], round_trip)[np.newaxis], trials[-1]


def _opus_round_trip(pcm: Any) -> tuple[Any, bytes]:
    """Encode samples exactly as :class:`_OpusTrack` does, in memory; decode them, and the WebM."""
    import io

    import av

    buffer = io.BytesIO()
    with av.open(buffer, "w", format="webm", options={"fflags": "+bitexact"}) as out:
        track = _OpusTrack(out, pcm)
        while not track.done:
            track.encode_until(math.inf)
        track.finish()
    buffer.seek(0)
    return _decoded_sound(buffer), buffer.getvalue()


class _OpusCopy:
    """The fitted trial's Opus packets (see :func:`_opus_source`), muxed again in time order.

    The trial already encoded the very samples that are written, and the
    same samples give the same packets, so they are copied, not encoded a
    second time. It has :class:`_OpusTrack`'s interface for the merge.
    """

    def __init__(self, out: Any, trial: bytes) -> None:
        import io

        import av

        self._source = av.open(io.BytesIO(trial), "r")
        stream = self._source.streams.audio[0]
        self.out = out
        self.stream = out.add_stream_from_template(stream)
        # Each packet with its start in seconds (demux's flushing packets have none).
        self._packets = [
            (float(packet.pts * packet.time_base), packet)
            for packet in self._source.demux(stream)
            if packet.pts is not None and packet.time_base is not None
        ]
        self._next = 0

    @property
    def done(self) -> bool:
        """Whether every packet has been written."""
        return self._next >= len(self._packets)

    @property
    def time(self) -> float:
        """When the next packet starts, in seconds."""
        return self._packets[self._next][0]

    def encode_until(self, seconds: float) -> None:
        """Write every packet that starts by ``seconds`` (at least one)."""
        while True:
            packet = self._packets[self._next][1]
            packet.stream = self.stream
            self.out.mux(packet)
            self._next += 1
            if self.done or self.time > seconds:
                return

    def finish(self) -> None:
        """Close the trial."""
        self._source.close()


class _OpusTrack:
    """A finished soundtrack encoded as Opus (WebM's audio codec) at 48 kHz, muxed as it goes.

    The same samples always give the same packets: the encoder is fed the
    same chunks as the in-memory trial in :func:`_opus_round_trip`.
    """

    _CHUNK = 960  # 20 ms, Opus's frame

    def __init__(self, out: Any, pcm: Any) -> None:
        # Mono narration stays mono; anything else is stereo.
        self.layout = "mono" if pcm.shape[0] == 1 else "stereo"
        self.out = out
        self.pcm = pcm
        self.stream = out.add_stream("libopus", rate=_RATE, layout=self.layout)
        # Floats, not 16-bit integers: a decoded AAC peak just over full scale
        # would otherwise be clipped flat, and a clipped wave makes Opus overshoot.
        self.stream.codec_context.format = "flt"
        self.samples = 0

    @property
    def done(self) -> bool:
        """Whether every sample has been given to the encoder."""
        return bool(self.samples >= self.pcm.shape[1])

    @property
    def time(self) -> float:
        """When the next chunk starts, in seconds."""
        return self.samples / _RATE

    def encode_until(self, seconds: float) -> None:
        """Encode and mux every 20 ms chunk that starts by ``seconds`` (at least one).

        The chunks go to the encoder together (at most 64 at once): it cuts its
        own 20 ms frames, and the packets are the same as one chunk at a time
        (checked), at about two thirds of the cost.
        """
        import av
        import numpy as np

        size = self._CHUNK
        if math.isinf(seconds):
            due = -(-(self.pcm.shape[1] - self.samples) // size)
        else:
            due = max(1, math.floor(seconds * _RATE - self.samples) // size + 1)
        chunk = np.ascontiguousarray(
            self.pcm[:, self.samples : self.samples + min(due, 64) * size], dtype=np.float32
        )
        frame = av.AudioFrame.from_ndarray(chunk, format="fltp", layout=self.layout)
        frame.sample_rate = _RATE
        # Count samples afresh: the encoder's time base is one sample.
        frame.pts = self.samples
        frame.time_base = Fraction(1, _RATE)
        self.samples += chunk.shape[1]
        for packet in self.stream.encode(frame):
            self.out.mux(packet)

    def finish(self) -> None:
        """Flush the encoder."""
        for packet in self.stream.encode(None):
            self.out.mux(packet)


def write_poster(source: Path, target: Path) -> None:
    """Save a frame that shows the scene as a PNG poster: the final frame (the finished picture).

    A clip that ends on a blank frame (a fade to the background) gets the last
    frame that still shows something instead, so a poster is never an empty
    screen.

    Parameters
    ----------
    source
        The video.
    target
        The ``.png`` to write.
    """
    import av

    poster = None
    with av.open(str(source)) as container:
        for frame in container.decode(video=0):
            poster = frame
    if poster is None:
        raise RuntimeError(f"{source} holds no video frames")
    if _blank(poster):
        # Rare (a clip that fades out): read it again for its last frame with content.
        with av.open(str(source)) as container:
            for frame in container.decode(video=0):
                if not _blank(frame):
                    poster = frame
    image = poster.to_image()  # type: ignore[no-untyped-call]  # PyAV leaves it unannotated
    image.save(target, optimize=True)


def _blank(frame: Any) -> bool:
    """Whether a frame is one flat colour (the background alone), judged on its luma plane."""
    import numpy as np

    luma = frame.to_ndarray(format="gray")[::4, ::4]
    return bool(np.ptp(luma) <= 8)


def mux_soundtrack(
    movie: Path,
    samples: Any,
    rate: int,
    target: Path,
    keep_sound: Callable[[Any], None] | None = None,
) -> dict[str, float]:
    """Copy a silent MP4's video and add a finished mono soundtrack as AAC (24 kHz).

    The video is copied, not re-encoded; its timestamps are put back on
    exact frame times (see :func:`restamp_movie`). The written sound is
    decoded and measured: if AAC made its true peak rise above the web
    ceiling (−1 dBTP, less a margin), the soundtrack is limited harder and
    the file written again (see
    :func:`embedviz.export.loudness.fit_through_codec`), so the file's
    peaks fit by construction. Copying the video again is cheap.

    Parameters
    ----------
    movie
        The MP4 that manim wrote (no sound).
    samples
        The soundtrack: mono float samples in [−1, 1], starting with the
        first frame (see :class:`embedviz.export.voice.Narration`).
    rate
        Its samples per second (48 000).
    target
        The ``.mp4`` to write, with the moov atom first for the web.
    keep_sound
        Called with the written file's sound as decoded (one row per
        channel), for :func:`transcode_webm`, which would decode it again.

    Returns
    -------
    dict
        The written soundtrack's loudness, as :func:`measured_loudness`
        reads it (from the last pass's decoding of the file: decoding a
        long track again cost as much as a pass).

    Raises
    ------
    EmbedvizError
        If no pass fits (never seen; on narration a second pass has always fitted).
    """
    from embedviz.export.loudness import fit_through_codec

    decoded: list[Any] = []

    def round_trip(pcm: Any) -> Any:
        _copy_movie(movie, target, pcm, rate)
        decoded[:] = [_decoded_sound(str(target))]
        return decoded[0][0]

    peaks: list[float] = []
    fit_through_codec(samples, round_trip, rate, measured=peaks.append)
    if keep_sound is not None:
        keep_sound(decoded[0])
    # The last pass wrote the file, and its peak was measured on this same decoding.
    return _loudness_of(decoded[0][0], true_peak=peaks[-1])


def measured_loudness(path: Path) -> dict[str, float] | None:
    """Measure a written file's soundtrack: integrated loudness and true peak.

    Parameters
    ----------
    path
        An MP4 or WebM.

    Returns
    -------
    dict or None
        ``lufs`` (ITU-R BS.1770, one decimal) and ``true_peak_dbtp`` (4×
        oversampled, one decimal); ``None`` for a file without sound.
    """
    import av

    with av.open(str(path)) as container:
        if not container.streams.audio:
            return None
    return _loudness_of(_decoded_sound(str(path)).mean(axis=0))


def _loudness_of(samples: Any, true_peak: float | None = None) -> dict[str, float]:
    """Integrated loudness and true peak of decoded mono samples, to one decimal.

    ``true_peak`` is the samples' peak when it was measured already.
    """
    from embedviz.export.loudness import integrated_loudness, true_peak_dbtp

    peak = true_peak_dbtp(samples) if true_peak is None else true_peak
    return {"lufs": round(integrated_loudness(samples), 1), "true_peak_dbtp": round(peak, 1)}


def restamp_movie(movie: Path, target: Path) -> None:
    """Copy an MP4's video with every timestamp on an exact frame time.

    Manim joins a scene's many partial movies, and each join rounds its
    start a little, so after hundreds of plays and waits a frame can sit a
    millisecond off its time and the file no longer reads as exactly 30 fps.
    Every frame is within half a frame of its time, so rounding to the
    nearest frame recovers it. Nothing is re-encoded.

    Parameters
    ----------
    movie
        The MP4 that manim wrote.
    target
        The ``.mp4`` to write, with the moov atom first for the web.
    """
    _copy_movie(movie, target, None, AAC_RATE)


# The MP4's AAC sample rate. The voices speak at 22.05 kHz (Piper, espeak-ng), so
# 24 kHz keeps all of their sound, and AAC then encodes half the samples of 48 kHz:
# measured, 60 % of the CPU for the same narration, the largest cost of a narrated
# export. (Opus in the WebM always runs at 48 kHz.)
AAC_RATE = 24_000


def _at_aac_rate(samples: Any, rate: int) -> Any:
    """Resample mono float32 samples to :data:`AAC_RATE` (FFmpeg's resampler: a few ms a minute)."""
    import av
    import numpy as np

    if rate == AAC_RATE or samples.size == 0:
        return samples
    resampler = av.AudioResampler(format="fltp", layout="mono", rate=AAC_RATE)
    pieces: list[Any] = []
    step = 1 << 16
    for start in range(0, samples.size, step):
        frame = av.AudioFrame.from_ndarray(
            samples[start : start + step].reshape(1, -1), format="fltp", layout="mono"
        )
        frame.sample_rate = rate
        pieces += [done.to_ndarray().reshape(-1) for done in resampler.resample(frame)]
    pieces += [done.to_ndarray().reshape(-1) for done in resampler.resample(None)]
    return np.ascontiguousarray(np.concatenate(pieces), dtype=np.float32)


def _copy_movie(movie: Path, target: Path, samples: Any | None, rate: int) -> None:
    import av
    import numpy as np

    pcm = np.asarray(samples if samples is not None else [], dtype=np.float32).reshape(-1)
    pcm = _at_aac_rate(pcm, rate)
    rate = AAC_RATE
    options = {"movflags": "+faststart"}
    with (
        av.open(str(movie)) as inp,
        av.open(str(target), "w", format="mp4", options=options) as out,
    ):
        video_in = inp.streams.video[0]
        video_out = out.add_stream_from_template(video_in)
        # The stream's nominal rate (its average is what drifted).
        fps = video_in.guessed_rate or video_in.average_rate
        # One frame, in the input's time base (512 ticks of 1/15360 s at 30 fps).
        base = video_in.time_base
        tick = Fraction(1) / (Fraction(fps) * base) if fps and base else None

        def on_frame(stamp: int | None) -> int | None:
            if stamp is None or tick is None:
                return stamp
            return int(round(Fraction(stamp) / tick) * tick)

        # One channel: the narration is mono, so its loudness is what it measures.
        audio = out.add_stream("aac", rate=rate, layout="mono") if samples is not None else None
        if audio is not None:
            audio.bit_rate = 96_000
            # FFmpeg's default AAC coder ("twoloop") now and then codes a loud vowel
            # with a gross gain error at 96 kb/s mono: measured on Piper narration
            # limited to -2 dBTP, 6 of 13 encodes peaked above -1 dBTP, up to +2.3
            # (one: a 40 ms vowel 2.3 dB too loud, at 6 dB SNR). The "fast"
            # coder stays within 0.8 dB in 20 of 20, at a better SNR (44 against 29
            # dB median) and the same bit rate.
            audio.options = {"aac_coder": "fast"}
        size = 1024  # AAC's frame size
        written = 0  # samples encoded so far

        def sound_until(seconds: float) -> None:
            # Interleave: encode the sound up to the picture's time before each
            # video packet, so that neither stream runs ahead in the file.
            nonlocal written
            while written < pcm.size and written < seconds * rate:
                # Whole AAC frames up to the picture's time, handed over at once (at
                # most 2**16 samples): the encoder cuts its own frames, and the same
                # packets come out (checked), but one call per 1024 samples cost a
                # fifth of the encode across a long hold.
                wanted = pcm.size if math.isinf(seconds) else math.ceil(seconds * rate)
                whole = -(-(wanted - written) // size) * size
                chunk = pcm[written : written + min(whole, 1 << 16)]
                frame = av.AudioFrame.from_ndarray(
                    chunk.reshape(1, -1), format="fltp", layout="mono"
                )
                frame.sample_rate = rate
                frame.pts = written
                frame.time_base = Fraction(1, rate)
                written += chunk.size
                assert audio is not None
                for packet in audio.encode(frame):
                    out.mux(packet)

        for packet in inp.demux(video_in):
            if packet.dts is None:  # demux's flushing packets
                continue
            dts = on_frame(packet.dts)
            packet.pts, packet.dts = on_frame(packet.pts), dts
            if audio is not None and dts is not None and packet.time_base is not None:
                sound_until(float(dts * packet.time_base))
            packet.stream = video_out
            out.mux(packet)
        if audio is not None:
            sound_until(float("inf"))
            for packet in audio.encode(None):
                out.mux(packet)


def recording_scene(
    board: Storyboard,
    *,
    burn_captions: bool = False,
    constant_frame_rate: bool = False,
) -> tuple[type[Any], list[float]]:
    """Return the scene class an export renders, and the list it fills with beat ends.

    Parameters
    ----------
    board
        The storyboard.
    burn_captions
        Draw the narration into the picture.
    constant_frame_rate
        Write a frame for every tick (``--cfr``), not each still picture once.

    Returns
    -------
    tuple
        The :class:`~embedviz.render.base.StoryboardScene` subclass, and the
        list that receives the scene time at the end of every beat.
    """
    from manim.renderer.cairo_renderer import CairoRenderer

    from embedviz.render.base import StoryboardScene

    beat_ends: list[float] = []

    class Recording(StoryboardScene):
        scene_name = board.scene
        captions = burn_captions

        def setup(self) -> None:
            super().setup()
            # Report every frame the renderer adds, for the progress bar.
            renderer = cast(CairoRenderer, self.renderer)
            add_frame = renderer.add_frame

            def counted(frame: Any, num_frames: int = 1) -> None:
                add_frame(frame, num_frames)
                # A beat worker plays the beats before its range without frames.
                if not renderer.skip_animations:
                    _progress("advance", board.scene, num_frames)

            renderer.add_frame = counted  # type: ignore[method-assign]

        def after_beat(self, beat: Beat) -> None:
            beat_ends.append(float(self.time))

    Recording.constant_frame_rate = constant_frame_rate
    return Recording, beat_ends


def _render(
    board: Storyboard,
    quality: str,
    media_dir: Path,
    *,
    burn_captions: bool = False,
    verbose: bool = False,
    constant_frame_rate: bool = False,
    beat_workers: int = 1,
) -> tuple[Path, list[float]]:
    """Render a storyboard to a silent MP4, recording when each beat ends."""
    from manim import tempconfig

    recording, beat_ends = recording_scene(
        board, burn_captions=burn_captions, constant_frame_rate=constant_frame_rate
    )
    settings: dict[str, Any] = {
        "media_dir": str(media_dir),
        **PRESETS[quality].settings(),
        "disable_caching": True,
        "verbosity": "INFO" if verbose else "ERROR",
        "progress_bar": "none",
        "format": "mp4",
        "output_file": board.scene,
    }
    quiet_logging(verbose)
    if beat_workers > 1:
        from embedviz.render.parallel import render_in_parallel

        joined = render_in_parallel(
            recording,
            board,
            settings,
            beat_workers,
            media_dir / "ranges",
            constant_frame_rate=constant_frame_rate,
        )
        return joined.movie, joined.beat_ends
    with tempconfig(settings):
        scene = recording(storyboard=board)
        scene.render()
        movie = Path(scene.renderer.file_writer.movie_file_path)
    return movie, beat_ends


def export_clip(
    scene: str,
    quality: str,
    out_dir: str | Path,
    overrides: dict[str, Any] | None = None,
    voice: Voice | None = None,
    *,
    burn_captions: bool = False,
    verbose: bool = False,
    board: Storyboard | None = None,
    constant_frame_rate: bool = False,
    beat_workers: int = 1,
) -> dict[str, Any]:
    """Render and write every file of one scene into ``out_dir/SCENE/``.

    Parameters
    ----------
    scene
        Class name or alias.
    quality
        A ``-q`` preset (see :data:`embedviz.quality.PRESETS`).
    out_dir
        The (staging) site folder.
    overrides
        Scene options, as from the command line.
    voice
        Speak the narration with this voice (see
        :func:`embedviz.export.voice.synthesise_phrases`) and mix it in:
        phrases and beats stretch to fit the speech, each caption cue starts
        with its speech, and the exported storyboard records the timing.
    burn_captions
        Draw the narration into the picture too; by default the clip carries
        it only in its WebVTT track, which a player can toggle and style.
    verbose
        Let Manim and PyAV log their own messages.
    board
        A ready (loaded and verified) storyboard to export instead of
        building one from the options.
    constant_frame_rate
        Write a frame for every tick (``--cfr``); by default each still
        picture is written once, lasting as long as it is held.
    beat_workers
        Render ranges of the clip's beats in this many processes and join
        them (see :mod:`embedviz.render.parallel`).

    Returns
    -------
    dict
        The :class:`ExportedClip` fields, for the gallery, and ``seconds``,
        how long this clip took.
    """
    started = time.monotonic()
    from embedviz.export.described import DescribedClip, MediaTools, write_described
    from embedviz.inputs import prepared_storyboard
    from embedviz.story.scenes import find_scene

    spec = find_scene(scene)
    if board is None:
        board = prepared_storyboard(spec.name, overrides)
    clip = ExportedClip.of(board, spec.summary)
    folder = Path(out_dir) / clip.folder
    folder.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".render-", dir=out_dir))
    described: DescribedClip | None = None
    try:
        narration = None
        loudness: dict[str, float] | None = None
        kept: list[Any] = []  # the voiced MP4's decoded sound, for its WebM
        if voice is not None:
            narration = synthesise_phrases(board, voice, work / "speech")
            board = narration.board
            clip = ExportedClip.of(board, spec.summary)
        _progress("total", spec.name, clip_units(board.duration, quality))
        movie, beat_ends = _render(
            board,
            quality,
            work,
            burn_captions=burn_captions,
            verbose=verbose,
            constant_frame_rate=constant_frame_rate,
            beat_workers=beat_workers,
        )
        if narration is not None:
            assert voice is not None
            voiced = work / f"{spec.name}.voiced.mp4"
            loudness = mux_soundtrack(movie, narration.samples, narration.rate, voiced, kept.append)
            # The audio-described version holds the picture while descriptions are spoken.
            fps = PRESETS[quality].fps
            tools = MediaTools(mux_soundtrack, video_seconds)
            described = write_described(
                board, narration.samples, voice, movie, folder, work, fps, tools
            )
            movie = voiced
        else:
            exact = work / f"{spec.name}.exact.mp4"
            restamp_movie(movie, exact)
            movie = exact
        mp4 = folder / f"{spec.name}.mp4"
        shutil.move(str(movie), mp4)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    # The voiced MP4 was moved, not changed: its sound as mux_soundtrack decoded it.
    transcode_webm(mp4, folder / f"{spec.name}.webm", spec.name, kept[0] if kept else None)
    write_poster(mp4, folder / f"{spec.name}.poster.png")
    name = spec.name
    length = video_seconds(mp4)
    (folder / f"{name}.{board.language}.vtt").write_text(
        captions_vtt(board, length), encoding="utf-8"
    )
    (folder / f"{name}.chapters.vtt").write_text(chapters_vtt(board, length), encoding="utf-8")
    (folder / f"{name}.descriptions.{board.language}.vtt").write_text(
        descriptions_vtt(board, length), encoding="utf-8"
    )
    (folder / STEPS_PAGE).write_text(steps_html(board), encoding="utf-8")
    (folder / f"{name}.transcript.html").write_text(
        transcript_html(board, with_steps=True), encoding="utf-8"
    )
    (folder / f"{name}.numbers.html").write_text(
        "<!-- The numbers the clip shows, as accessible tables. -->\n" + numbers_table_html(board),
        encoding="utf-8",
    )
    clip = replace(clip, steps=True, described=described is not None)
    (folder / f"{name}.snippet.html").write_text(snippet_html(clip), encoding="utf-8")
    timing = {
        "fps": PRESETS[quality].fps,
        "duration": board.duration,
        "beat_starts": board.beat_start_times(),
        "rendered_beat_ends": beat_ends,
        "burned_captions": burn_captions,
        # Seconds the audio-described version holds after each beat (with --voice).
        "described_pauses": list(described.pauses) if described is not None else None,
        # Each soundtrack as written, for the accessibility report.
        "loudness": {
            "clip": loudness,
            "described": described.loudness if described is not None else None,
        },
    }
    (folder / f"{name}.timing.json").write_text(json.dumps(timing, indent=1), encoding="utf-8")
    (folder / f"{name}.storyboard.json").write_text(board.to_json(), encoding="utf-8")
    return {
        "scene": clip.scene,
        "title": clip.title,
        "summary": clip.summary,
        "duration": clip.duration,
        "folder": clip.folder,
        "language": clip.language,
        "words": dict(clip.words),
        "steps": clip.steps,
        "described": clip.described,
        "seconds": time.monotonic() - started,
        # A composite clip's concepts, for the gallery's list that seeks the video.
        "chapters": clip.chapters,
    }
