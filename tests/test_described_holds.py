"""The described version's picture: each beat's last frame held through its pause.

Synthetic clips stand in for renders: every frame is one flat grey whose level
names the frame, so what is on screen at any time can be read back exactly,
and the expected picture comes from a plain walk over the beats written here,
not from the code under test.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from embedviz.export.described import hold_frames

FPS = 15
SIZE = (64, 48)
# Source frames as (first tick, level): a variable-frame-rate clip writes a
# still picture once, so frames last from 1 to 9 ticks.
FRAMES = [(0, 30), (1, 60), (2, 90), (9, 120), (10, 150), (11, 180), (20, 210)]
LENGTH = 24  # ticks: the last frame lasts 4
BEAT_ENDS = [9 / FPS, 20 / FPS, LENGTH / FPS]  # beats end on ticks
PAUSES = [5 / FPS, 0.0, 7 / FPS]  # the last beat's pause comes after the last frame


def _write(path: Path, *, variable: bool) -> None:
    """Write the clip: each frame once with its length, or every tick (with B-frames)."""
    with av.open(str(path), "w", format="mp4") as out:
        stream = out.add_stream("libx264", rate=FPS)
        stream.width, stream.height = SIZE
        stream.pix_fmt = "yuv420p"
        stream.options = {"crf": "18", "bf": "0"} if variable else {"crf": "18"}
        stream.codec_context.time_base = Fraction(1, FPS)
        ends = [tick for tick, _ in FRAMES[1:]] + [LENGTH]
        # The encoder hands packets back late, so each is given its length by its time.
        lengths = {tick: end - tick for (tick, _), end in zip(FRAMES, ends, strict=True)}
        for (tick, level), end in zip(FRAMES, ends, strict=True):
            picture = np.full((SIZE[1], SIZE[0], 3), level, dtype=np.uint8)
            for pts in [tick] if variable else range(tick, end):
                frame = av.VideoFrame.from_ndarray(picture, format="rgb24")
                frame.pts, frame.time_base = pts, Fraction(1, FPS)
                for packet in stream.encode(frame):
                    packet.duration = lengths[packet.pts] if variable else 1
                    out.mux(packet)
        for packet in stream.encode():
            packet.duration = lengths[packet.pts] if variable else 1
            out.mux(packet)


def _expected_levels() -> list[int]:
    """The level on screen in each tick of the described clip, beat by beat."""
    level_at = {}
    for (tick, level), end in zip(FRAMES, [t for t, _ in FRAMES[1:]] + [LENGTH], strict=True):
        level_at.update(dict.fromkeys(range(tick, end), level))
    levels: list[int] = []
    beat_start = 0
    for end, pause in zip(BEAT_ENDS, PAUSES, strict=True):
        end_tick = round(end * FPS)
        levels += [level_at[tick] for tick in range(beat_start, end_tick)]
        levels += [level_at[end_tick - 1]] * round(pause * FPS)
        beat_start = end_tick
    return levels


def _levels_on_screen(path: Path) -> tuple[list[int], float, int]:
    """Per tick, the level of the frame on screen; the clip's end; its packet count."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        packets = [p for p in container.demux(stream) if p.pts is not None and p.size]
        end = max(float((p.pts + (p.duration or 0)) * p.time_base) for p in packets)
    with av.open(str(path)) as container:
        frames = [
            (round(float(frame.time or 0.0) * FPS), int(np.median(frame.to_ndarray(format="gray"))))
            for frame in container.decode(video=0)
        ]
    levels = [
        [level for start, level in frames if start <= tick][-1] for tick in range(round(end * FPS))
    ]
    return levels, end, len(packets)


@pytest.mark.parametrize("variable", [True, False], ids=["variable-rate", "constant-rate"])
def test_each_beat_holds_its_last_frame_through_its_pause(tmp_path: Path, variable: bool) -> None:
    source, described = tmp_path / "clip.mp4", tmp_path / "described.mp4"
    _write(source, variable=variable)
    hold_frames(source, described, BEAT_ENDS, PAUSES, FPS)
    levels, end, _ = _levels_on_screen(described)
    expected = _expected_levels()
    assert end == pytest.approx(len(expected) / FPS, abs=1e-6)
    # Flat greys survive the codec within a step or two; neighbours are 30 apart.
    assert np.max(np.abs(np.array(levels) - np.array(expected))) <= 3


def test_a_variable_rate_clip_is_held_without_encoding_again(tmp_path: Path) -> None:
    source, described = tmp_path / "clip.mp4", tmp_path / "described.mp4"
    _write(source, variable=True)
    hold_frames(source, described, BEAT_ENDS, PAUSES, FPS)
    # The same packets, byte for byte, in the same order: only their times moved.
    payloads = []
    for path in (source, described):
        with av.open(str(path)) as container:
            payloads.append(
                [bytes(p) for p in container.demux(video=0) if p.pts is not None and p.size]
            )
    assert payloads[0] == payloads[1]
    assert _levels_on_screen(described)[2] == len(FRAMES)
