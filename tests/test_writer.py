"""The hold writer on synthetic frames: each still picture encoded once, for its whole hold.

Tiny frames (64 x 48) straight into :class:`HoldEncoder`, read back with PyAV:
no scene is drawn, so these run in a second. The twin renders of real scenes
(variable against constant frame rate) are in ``test_frame_rate.py``.
"""

from __future__ import annotations

from fractions import Fraction
from io import BytesIO
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest
from manim._config.video_encoder import VideoEncoderSpec
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from embedviz.render.writer import HoldEncoder

FPS = 15
WIDTH, HEIGHT = 64, 48
CODECS = {"mp4": "libx264", "webm": "libvpx-vp9"}


def _spec(container: str) -> VideoEncoderSpec:
    return VideoEncoderSpec(
        container_format=container,
        codec=CODECS[container],
        pixel_format="yuv420p",
        width=WIDTH,
        height=HEIGHT,
        frame_rate=Fraction(FPS),
        options=(("crf", "23"),),
    )


def _picture(shade: int) -> np.ndarray:
    """A flat RGBA frame whose grey level tells it apart."""
    pixels = np.full((HEIGHT, WIDTH, 4), shade, dtype=np.uint8)
    pixels[..., 3] = 255
    return pixels


# (grey level, repeat) as a scene writes them: a wait is one frame with a
# repeat count; a play writes each tick, and a still stretch of it repeats
# the same picture frame by frame.
WRITES = [(0, 1), (40, 1), (80, 30), (120, 1), (120, 1), (120, 1), (160, 1), (200, 12)]
TICKS = sum(repeat for _, repeat in WRITES)
# The frame on screen at each tick, as the constant-rate video shows it.
SHOWN = [shade for shade, repeat in WRITES for _ in range(repeat)]


def _encode(encoder: VideoSegmentEncoder) -> Path:
    for shade, repeat in WRITES:
        encoder.write_frame(_picture(shade), repeat=repeat)
    encoder.finish()
    return encoder.target


def _frames(path: Path) -> list[tuple[float, int]]:
    """Each decoded frame's start (in ticks) and grey level."""
    with av.open(str(path)) as container:
        return [
            (
                float(frame.pts * frame.time_base) * FPS,
                int(np.median(frame.to_ndarray(format="rgb24")[..., 0])),
            )
            for frame in container.decode(video=0)
        ]


def _ends(path: Path) -> float:
    """When the last packet ends, in ticks (its time plus its duration)."""
    with av.open(str(path)) as container:
        return max(
            float((packet.pts + packet.duration) * packet.time_base) * FPS
            for packet in container.demux(video=0)
            if packet.size
        )


@pytest.mark.parametrize("container", sorted(CODECS))
def test_each_still_picture_is_encoded_once_for_its_whole_hold(
    container: str, tmp_path: Path
) -> None:
    path = _encode(
        HoldEncoder(target=tmp_path / f"vfr.{container}", spec=_spec(container), variable=True)
    )
    frames = _frames(path)
    # One frame per change of picture, at the tick it first appears, plus one
    # closing copy of the last picture on the last tick.
    changes = [tick for tick in range(TICKS) if tick == 0 or SHOWN[tick] != SHOWN[tick - 1]]
    starts = [round(start) for start, _ in frames]
    assert starts == [*changes, TICKS - 1]
    # WebM stores a frame's time and length in whole milliseconds, each rounded
    # down: a time reads up to 1 ms early and an end up to 2 ms (0.03 ticks).
    slack = 0.03 if container == "webm" else 1e-6
    assert all(abs(start - round(start)) <= slack for start, _ in frames)
    # The picture each frame shows is the one the constant-rate video shows then
    # (the grey levels are 40 apart; the codec moves a level by a few).
    for (_, shade), tick in zip(frames, starts, strict=True):
        assert abs(shade - SHOWN[tick]) <= 12, (tick, shade, SHOWN[tick])
    assert _ends(path) == pytest.approx(TICKS, abs=slack)


@pytest.mark.parametrize("container", sorted(CODECS))
def test_constant_rate_writes_exactly_what_manim_writes(container: str, tmp_path: Path) -> None:
    ours = _encode(
        HoldEncoder(target=tmp_path / f"cfr.{container}", spec=_spec(container), variable=False)
    )
    manims = _encode(
        VideoSegmentEncoder(target=tmp_path / f"manim.{container}", spec=_spec(container))
    )

    def packets(path: Path) -> list[tuple[Any, Any, bytes]]:
        with av.open(str(path)) as source:
            return [(p.pts, p.duration, bytes(p)) for p in source.demux(video=0) if p.size]

    # Packet for packet (the WebM container itself holds a random segment ID).
    assert packets(ours) == packets(manims)
    assert len(packets(ours)) == TICKS


def test_segments_joined_as_manim_joins_them_keep_every_hold(tmp_path: Path) -> None:
    """Manim's concat join offsets each segment by its length: a closing hold must count."""
    lengths = []
    paths = []
    for number, writes in enumerate([[(10, 1), (50, 20)], [(90, 7)], [(130, 1), (170, 1)]]):
        encoder = HoldEncoder(target=tmp_path / f"{number}.mp4", spec=_spec("mp4"), variable=True)
        for shade, repeat in writes:
            encoder.write_frame(_picture(shade), repeat=repeat)
        encoder.finish()
        paths.append(encoder.target)
        lengths.append(sum(repeat for _, repeat in writes))
    joined = tmp_path / "joined.mp4"
    # The same demuxer and remux as manim's SceneFileWriter.combine_files.
    manifest = BytesIO("".join(f"file 'file:{p}'\n" for p in paths).encode())
    with (
        av.open(manifest, options={"safe": "0"}, format="concat") as source,
        av.open(str(joined), "w") as out,
    ):
        stream = out.add_stream_from_template(template=source.streams.video[0])
        for packet in source.demux(source.streams.video[0]):
            if packet.dts is None:
                continue
            packet.dts = None
            packet.stream = stream
            out.mux(packet)
    starts = [round(start, 6) for start, _ in _frames(joined)]
    assert starts == [0, 1, 20, 21, 27, 28, 29]
    assert _ends(joined) == pytest.approx(sum(lengths))
    with av.open(str(joined)) as container:
        assert float(container.duration) / av.time_base == pytest.approx(sum(lengths) / FPS)


def test_a_bad_frame_is_refused_as_manim_refuses_it(tmp_path: Path) -> None:
    encoder = HoldEncoder(target=tmp_path / "bad.mp4", spec=_spec("mp4"), variable=True)
    with pytest.raises(ValueError, match="repeat must be a positive integer"):
        encoder.write_frame(_picture(0), repeat=0)
    with pytest.raises(ValueError, match="shape"):
        encoder.write_frame(np.zeros((2, 2, 4), dtype=np.uint8))
    encoder.abort()
    assert not (tmp_path / "bad.mp4").exists()


def _render_sections(media: Path, *, caching: bool) -> tuple[Path, list[Path]]:
    """Render a tiny scene of two sections, five plays and waits, into ``media``."""
    from manim import BLUE, LEFT, RIGHT, Scene, Square, tempconfig

    from embedviz.render.writer import HoldRenderer

    class TwoSections(Scene):
        def construct(self) -> None:
            square = Square(side_length=2, color=BLUE, fill_opacity=1)
            self.add(square)
            self.play(square.animate.shift(LEFT), run_time=0.4)
            self.wait(0.6)
            self.play(square.animate.shift(RIGHT), run_time=0.4)
            self.next_section("second")
            self.play(square.animate.scale(0.5), run_time=0.4)
            self.wait(1.0)

    settings = {
        "media_dir": str(media),
        "pixel_width": WIDTH * 2,
        "pixel_height": HEIGHT * 2,
        "frame_rate": FPS,
        "disable_caching": not caching,
        "save_sections": True,
        "verbosity": "ERROR",
        "progress_bar": "none",
    }
    with tempconfig(settings):
        scene = TwoSections(renderer=HoldRenderer())
        scene.render()
        movie = Path(scene.renderer.file_writer.movie_file_path)
        segments = sorted(Path(scene.renderer.file_writer.partial_movie_directory).glob("*.mp4"))
    return movie, segments


def test_the_plays_of_a_section_write_one_segment_and_the_same_video(tmp_path: Path) -> None:
    """Without Manim's cache each section is one segment, not one per play: same frames."""
    coalesced, segments = _render_sections(tmp_path / "uncached", caching=False)
    per_play, cached_segments = _render_sections(tmp_path / "cached", caching=True)
    # Manim's cache keys a segment by its play, so with it every play keeps its own.
    assert len(cached_segments) == 5
    assert len(segments) == 2
    assert _ends(coalesced) == pytest.approx(_ends(per_play))
    assert _ends(coalesced) == pytest.approx(round((0.4 + 0.6 + 0.4 + 0.4 + 1.0) * FPS))

    def pictures(path: Path) -> list[tuple[float, np.ndarray]]:
        with av.open(str(path)) as container:
            return [
                (float(f.pts * f.time_base) * FPS, f.to_ndarray(format="rgb24").astype(float))
                for f in container.decode(video=0)
            ]

    def shown(frames: list[tuple[float, np.ndarray]], tick: int) -> np.ndarray:
        return [picture for start, picture in frames if start <= tick + 1e-6][-1]

    ours, manims = pictures(coalesced), pictures(per_play)
    moved = 0.0
    for tick in range(round(_ends(per_play))):
        assert np.abs(shown(ours, tick) - shown(manims, tick)).mean() < 1.0, tick
        moved = max(moved, np.abs(shown(ours, tick) - shown(ours, 0)).mean())
    # The square moves and shrinks: the comparison can tell its pictures apart.
    assert moved > 4 * 1.0
    sections = sorted((tmp_path / "uncached").rglob("sections/*.mp4"))
    assert [round(_ends(path)) for path in sections] == [round(1.4 * FPS), round(1.4 * FPS)]
