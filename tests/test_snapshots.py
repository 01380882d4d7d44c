"""Snapshots: the scene data as JSON, and each scene's last frame as pixels."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image
from syrupy.extensions.image import PNGImageSnapshotExtension
from syrupy.extensions.json import JSONSnapshotExtension

from embedviz.inputs import prepared_storyboard
from embedviz.story.scenes import SCENES


@pytest.mark.parametrize("scene", list(SCENES))
def test_storyboard_json_snapshot(scene: str, snapshot: Any, tmp_path: Any) -> None:
    board = prepared_storyboard(scene, cwd=tmp_path, environ={})
    data = json.loads(board.to_json())
    if board.parts:
        # Each part is pinned by its own scene's snapshot; pin the structure here.
        data["parts"] = [
            {
                "scene": part["scene"],
                "layout": part["layout"],
                "duration": part["duration"],
                "beats": [(beat["name"], beat["duration"]) for beat in part["beats"]],
            }
            for part in data["parts"]
        ]
    assert data == snapshot(extension_class=JSONSnapshotExtension)


@pytest.mark.parametrize("scene", list(SCENES))
def test_storyboard_timing_adds_up(scene: str, tmp_path: Any) -> None:
    board = prepared_storyboard(scene, cwd=tmp_path, environ={})
    starts = board.beat_start_times()
    beats = board.all_beats()
    assert starts[0] == 0
    assert len(starts) == len(beats)
    for beat in beats:
        assert 0 < beat.run_time <= beat.duration
        # Beats start on a frame at 15, 30 and 60 fps.
        assert abs(beat.duration * 15 - round(beat.duration * 15)) < 1e-6
    assert board.duration == pytest.approx(sum(b.duration for b in beats))
    for part in board.parts or (board,):
        assert len({beat.name for beat in part.beats}) == len(part.beats)


@pytest.mark.parametrize("scene", list(SCENES))
def test_last_frame_pixels(scene: str, snapshot: Any, dry_run_cache: Any) -> None:
    frame = dry_run_cache(scene).frame
    buffer = io.BytesIO()
    Image.fromarray(frame).save(buffer, format="PNG", optimize=False)
    assert buffer.getvalue() == snapshot(extension_class=PNGImageSnapshotExtension)
