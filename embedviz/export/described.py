"""The audio-described version of a clip: extended audio description (WCAG 1.2.7).

With ``--voice``, every clip also gets ``SCENE.described.mp4`` and a page that
plays it, ``SCENE.described.html``.
After each beat that has descriptions (see :mod:`embedviz.story.describe`),
the picture holds on the beat's last frame while its descriptions are
spoken, one after another, in an extended pause; then the clip goes on. So a
viewer who cannot see the picture hears every value, print, chart and word
piece without the narration being talked over.

The described storyboard is the narrated one with each beat lengthened by
its pause (in whole ticks, so beats still start on a frame), which shifts the
captions and chapters of the described version to match. Its soundtrack is
the narration with the descriptions laid into the pauses, the descriptions
normalised like the narration (−16 LUFS, true peaks at or below −1 dBTP), so
the two speak equally loud. The picture
is the rendered clip with its frames held through each pause (it is mapped
by time, so a variable-frame-rate source works as well as a constant one).
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from embedviz.export.documents import language_name, page_html
from embedviz.export.loudness import RATE, normalise
from embedviz.export.voice import Voice, synthesise, trimmed_speech
from embedviz.export.wording import PageWords
from embedviz.story.model import Storyboard
from embedviz.story.phrases import PHRASE_PAUSE, ceil_ticks

__all__ = [
    "DescribedClip",
    "described_html",
    "described_soundtrack",
    "described_storyboard",
    "hold_frames",
    "speak_descriptions",
    "write_described",
]


@dataclass(frozen=True)
class DescribedClip:
    """A clip's audio-described version, before it is encoded.

    Attributes
    ----------
    board
        The described storyboard: each beat lasts its narrated duration plus
        its pause.
    pauses
        Per beat of :meth:`Storyboard.all_beats`, the seconds the picture
        holds after it while its descriptions are spoken (0 for a beat
        without descriptions).
    samples
        The soundtrack: 48 kHz mono floats, narration and descriptions,
        normalised to −16 LUFS with true peaks at or below −1 dBTP.
    loudness
        The written file's soundtrack as measured: ``lufs`` and ``true_peak_dbtp``.
    """

    board: Storyboard
    pauses: tuple[float, ...]
    samples: npt.NDArray[np.float64]
    loudness: dict[str, float]


def speak_descriptions(
    board: Storyboard, voice: Voice, folder: Path
) -> list[list[npt.NDArray[np.float64]]]:
    """Speak every description of every beat, trimmed of the silence around it.

    Parameters
    ----------
    board
        A described storyboard.
    voice
        The voice that speaks the narration.
    folder
        Where the intermediate files go.

    Returns
    -------
    list of list of numpy.ndarray
        Per beat, one 48 kHz clip per description, in order.
    """
    beats = board.all_beats()
    texts = [d.spoken for beat in beats for d in beat.descriptions]
    clips = iter(trimmed_speech(clip) for clip in synthesise(voice, texts, folder))
    return [[next(clips) for _ in beat.descriptions] for beat in beats]


def described_storyboard(
    board: Storyboard, speech: Sequence[Sequence[npt.NDArray[np.float64]]]
) -> tuple[Storyboard, tuple[float, ...]]:
    """Lengthen each beat by the pause its spoken descriptions need.

    Parameters
    ----------
    board
        The narrated storyboard.
    speech
        Per beat, the spoken descriptions (:func:`speak_descriptions`).

    Returns
    -------
    tuple
        The described storyboard, and each beat's pause in seconds: every
        description's speech plus a short rest after it, in whole ticks.
    """
    pauses = tuple(
        ceil_ticks(sum(clip.size / RATE + PHRASE_PAUSE for clip in clips)) if clips else 0.0
        for clips in speech
    )
    durations = [
        beat.duration + pause for beat, pause in zip(board.all_beats(), pauses, strict=True)
    ]
    return board.retimed(durations), pauses


def described_soundtrack(
    board: Storyboard,
    narration: npt.NDArray[np.float64],
    speech: Sequence[Sequence[npt.NDArray[np.float64]]],
    pauses: Sequence[float],
) -> npt.NDArray[np.float64]:
    """Lay the descriptions into pauses cut into the narration after each beat.

    Parameters
    ----------
    board
        The narrated storyboard (its beat times place the cuts).
    narration
        Its soundtrack (48 kHz mono).
    speech
        Per beat, the spoken descriptions.
    pauses
        Per beat, the pause after it, in seconds.

    Returns
    -------
    numpy.ndarray
        The described soundtrack: narration and descriptions, each part
        normalised to −16 LUFS with true peaks at or below −1 dBTP.
    """
    pieces: list[npt.NDArray[np.float64]] = []
    starts = board.beat_start_times()
    speech = _at_narration_loudness(speech)
    for start, beat, clips, pause in zip(starts, board.all_beats(), speech, pauses, strict=True):
        first, last = round(start * RATE), round((start + beat.duration) * RATE)
        said = narration[first:last]
        pieces.append(np.pad(said, (0, max(0, last - first - said.size))))
        gap = np.zeros(round(pause * RATE))
        at = 0
        for clip in clips:
            gap[at : at + clip.size] += clip[: max(0, gap.size - at)]
            at += clip.size + round(PHRASE_PAUSE * RATE)
        pieces.append(gap)
    # Both parts are at the target loudness and under the limiter's aim, and
    # join in silence (phrases and descriptions fade in and out), so the whole
    # is too: normalising it again cost a tenth of a narrated export, to move
    # its loudness by about 0.1 LU. The encoder's peaks are checked after encoding.
    return np.concatenate(pieces) if pieces else np.zeros(0)


def _at_narration_loudness(
    speech: Sequence[Sequence[npt.NDArray[np.float64]]],
) -> list[list[npt.NDArray[np.float64]]]:
    """Bring the descriptions, as one track, to the loudness the narration already has.

    A synthesiser speaks at its own level (espeak-ng about 4.5 LU under the
    target), and the descriptions are most of a described track. Laid in
    raw, they pulled the whole track about 3 LU down, so normalising it
    raised every narrated peak by as much and limited it hard: a codec's
    peaks then overshoot more, and a long described track took three
    encode passes to fit (see :func:`embedviz.export.loudness.fit_through_codec`).
    At the narration's loudness, the mix needs no gain of its own and fits in one.
    """
    clips = [clip for beat in speech for clip in beat]
    if not clips:
        return [list(beat) for beat in speech]
    levelled = iter(
        np.split(normalise(np.concatenate(clips)), np.cumsum([c.size for c in clips])[:-1])
    )
    return [[next(levelled) for _ in beat] for beat in speech]


def hold_frames(
    movie: Path, target: Path, beat_ends: Sequence[float], pauses: Sequence[float], fps: int
) -> None:
    """Write the clip's picture with its frame held through each pause.

    At every time of the described clip, the picture is the source frame on
    screen at the matching source time; inside a pause it is the beat's last
    frame. A variable-frame-rate source without reordered frames (what the
    hold writer writes, see :mod:`embedviz.render.writer`) is copied packet
    for packet, nothing re-encoded: a frame already lasts until the next
    one starts, so a pause only moves every later frame on by its length. A
    source with B-frames (``--cfr``) is decoded and encoded again, one frame
    per tick.

    Parameters
    ----------
    movie
        The rendered (silent) clip.
    target
        The ``.mp4`` to write (no sound yet).
    beat_ends
        When each beat ends in the source, in seconds.
    pauses
        The pause after each beat, in seconds.
    fps
        The frame rate to write.
    """
    if not _copy_with_pauses(movie, target, beat_ends, pauses, fps):
        _encode_with_pauses(movie, target, beat_ends, pauses, fps)


def _copy_with_pauses(
    movie: Path, target: Path, beat_ends: Sequence[float], pauses: Sequence[float], fps: int
) -> bool:
    """Copy a clip's packets, each later by the pauses before it; False if it cannot.

    The copy needs every packet in display order (no B-frames): a frame is
    then on screen from its own time to the next frame's, whatever lies
    between. Times are counted in ticks (``1/fps``), on which beats and
    pauses start.
    """
    import av

    with av.open(str(movie)) as inp:
        source = inp.streams.video[0]
        base = Fraction(source.time_base or 0)
        packets = [p for p in inp.demux(source) if p.pts is not None and p.size]
        stamps = [int(p.pts or 0) for p in packets]
        if not base or not packets or stamps != sorted(stamps):
            return False
        if any(p.dts != p.pts for p in packets):
            return False
        tick = Fraction(1, fps) / base  # one tick in the source's time base
        # Each frame's start in ticks, and last when the final frame ends.
        starts = [round(stamp / tick) for stamp in stamps]
        starts.append(round((stamps[-1] + (packets[-1].duration or tick)) / tick))
        # Where each pause starts, in ticks, and the ticks it adds.
        cuts = [
            (round(end * fps), round(pause * fps))
            for end, pause in zip(beat_ends, pauses, strict=True)
        ]
        with av.open(str(target), "w", format="mp4") as out:
            stream = out.add_stream_from_template(source)
            stream.time_base = Fraction(1, fps)
            for number, packet in enumerate(packets):
                start, stop = starts[number], starts[number + 1]
                last = number + 1 == len(packets)
                # The frame on screen when a beat ends stays through its pause (the
                # last frame through every pause still to come); later ones move on.
                moved = sum(extra for cut, extra in cuts if cut <= start)
                held = sum(extra for cut, extra in cuts if start < cut and (last or cut <= stop))
                packet.stream = stream
                packet.time_base = Fraction(1, fps)
                packet.pts = packet.dts = start + moved
                packet.duration = stop - start + held
                out.mux(packet)
    return True


def _encode_with_pauses(
    movie: Path, target: Path, beat_ends: Sequence[float], pauses: Sequence[float], fps: int
) -> None:
    """Decode a clip and encode it again, one frame per tick, holding through each pause."""
    import av

    total = sum(pauses) + (beat_ends[-1] if beat_ends else 0.0)
    count = round(total * fps)
    with av.open(str(movie)) as inp, av.open(str(target), "w", format="mp4") as out:
        source = inp.streams.video[0]
        stream = out.add_stream("libx264", rate=fps)
        stream.width = source.codec_context.width
        stream.height = source.codec_context.height
        stream.pix_fmt = "yuv420p"
        # Manim's own quality (crf 23); the held frames cost next to nothing.
        stream.options = {"crf": "23", "preset": "veryfast"}
        stream.codec_context.time_base = Fraction(1, fps)
        frames = iter(inp.decode(source))
        shown = next(frames)
        coming = next(frames, None)
        picture = shown.to_ndarray(format="yuv420p")
        for number in range(count):
            wanted = _source_time(number / fps, beat_ends, pauses, fps)
            if coming is not None and float(coming.time or 0.0) <= wanted + 1e-6:
                while coming is not None and float(coming.time or 0.0) <= wanted + 1e-6:
                    shown, coming = coming, next(frames, None)
                picture = shown.to_ndarray(format="yuv420p")
            # A new frame every time: the encoder holds frames it was given for its
            # look-ahead, so one frame object sent again with a new time corrupts them.
            frame = av.VideoFrame.from_ndarray(picture, format="yuv420p")
            frame.pts = number
            frame.time_base = Fraction(1, fps)
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)


def _source_time(
    time: float, beat_ends: Sequence[float], pauses: Sequence[float], fps: int
) -> float:
    """Map a time in the described clip to the source time whose frame it shows."""
    shift = 0.0
    previous_end = 0.0
    for end, pause in zip(beat_ends, pauses, strict=True):
        if time < end + shift:
            return time - shift
        if time < end + shift + pause:
            # Held: the beat's last frame, half a frame before its end.
            return max(previous_end, end - 0.5 / fps)
        shift += pause
        previous_end = end
    return time - shift


def described_html(board: Storyboard, gallery: str = "../index.html") -> str:
    """Return the page that plays a clip's audio-described version.

    Parameters
    ----------
    board
        The described storyboard; its words give the page's words.
    gallery
        The gallery page, relative to the clip's folder.

    Returns
    -------
    str
        A self-contained page with the described video, its shifted captions
        and chapters, and links back.
    """
    name, language = board.scene, html.escape(board.language)
    said = PageWords.of(board.parts[0] if board.parts else board)
    minutes = math.floor(board.duration / 60)
    seconds = f"{board.duration - 60 * minutes:.0f}"
    title = said.text("page_described_link", title=board.title)
    body = (
        f'<nav aria-label="{html.escape(said.text("page_other_pages"))}">\n<ul>\n'
        f'<li><a href="{gallery}#{name}-section">{said.html("page_without_description")}</a>'
        "</li>\n"
        f'<li><a href="{name}.transcript.html">{said.html("page_the_transcript")}</a></li>\n'
        f'<li><a href="{gallery}">{said.html("page_all_clips")}</a></li>\n</ul>\n</nav>\n<main>\n'
        f'<h1 id="{name}-described-title">'
        f"{said.html('page_described_link', title=board.title)}</h1>\n"
        f"<p>{said.html('page_described_intro')}</p>\n"
        f'<video id="{name}-described-video" controls preload="metadata" playsinline '
        f'poster="{name}.poster.png" aria-labelledby="{name}-described-title" width="854" '
        f'height="480">\n<source src="{name}.described.mp4" type="video/mp4">\n'
        f'<track kind="captions" srclang="{language}" label="{language_name(board.language)}" '
        f'src="{name}.described.{language}.vtt" default>\n'
        f'<track kind="chapters" srclang="{language}" '
        f'label="{html.escape(said.text("page_chapters"))}" '
        f'src="{name}.described.chapters.vtt">\n</video>\n'
        f"<p>{said.html('page_length', minutes=minutes, seconds=seconds)}</p>\n</main>"
    )
    return page_html(title, body, language=board.language)


@dataclass(frozen=True)
class MediaTools:
    """The export's tools that the described version uses.

    Attributes
    ----------
    mux_soundtrack
        ``(movie, samples, rate, target)``: writes the movie with the soundtrack
        and returns its loudness as written.
    video_seconds
        ``(movie)``: the movie's length in seconds.
    """

    mux_soundtrack: Callable[[Path, Any, int, Path], dict[str, float]]
    video_seconds: Callable[[Path], float]


def write_described(
    board: Storyboard,
    narration: npt.NDArray[np.float64],
    voice: Voice,
    movie: Path,
    folder: Path,
    work: Path,
    fps: int,
    media: MediaTools,
) -> DescribedClip:
    """Make a clip's audio-described version and write all its files into ``folder``.

    Parameters
    ----------
    board
        The narrated storyboard (timed to its speech).
    narration
        Its soundtrack.
    voice
        The voice that speaks the narration; it speaks the descriptions too.
    movie
        The rendered, silent clip.
    folder
        The clip's folder: ``SCENE.described.mp4`` (H.264 and AAC),
        ``.LANG.vtt``, ``.chapters.vtt`` and ``.html`` are written there.
    work
        A private folder for intermediate files.
    fps
        The clip's frame rate.
    media
        How to measure a movie and put a soundtrack under it (the export's
        own tools, passed in so that this module does not import the one
        that calls it).

    Returns
    -------
    DescribedClip
        The described storyboard, its pauses and its soundtrack.
    """
    from embedviz.export.documents import captions_vtt, chapters_vtt

    mux_soundtrack, video_seconds = media.mux_soundtrack, media.video_seconds

    speech = speak_descriptions(board, voice, work / "described-speech")
    described, pauses = described_storyboard(board, speech)
    samples = described_soundtrack(board, narration, speech, pauses)
    starts = board.beat_start_times()
    ends = [start + beat.duration for start, beat in zip(starts, board.all_beats(), strict=True)]
    held = work / f"{board.scene}.described.silent.mp4"
    hold_frames(movie, held, ends, pauses, fps)
    name = board.scene
    mp4 = folder / f"{name}.described.mp4"
    # H.264 and AAC play in every current browser; a second (WebM) encode would double the cost.
    loudness = mux_soundtrack(held, samples, RATE, mp4)
    length = video_seconds(mp4)
    (folder / f"{name}.described.{described.language}.vtt").write_text(
        captions_vtt(described, length), encoding="utf-8"
    )
    (folder / f"{name}.described.chapters.vtt").write_text(
        chapters_vtt(described, length), encoding="utf-8"
    )
    (folder / f"{name}.described.html").write_text(described_html(described), encoding="utf-8")
    return DescribedClip(described, pauses, samples, loudness)
