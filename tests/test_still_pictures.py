"""Still pictures painted from kept ones: every frame the same as painted from nothing."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.camera import TracingCamera


def _frames(scene: str, overrides: dict[str, Any], media: Path, *, keep: bool) -> list[Any]:
    """Play a scene at 256x144 and return every frame written: (digest, ticks held)."""
    from manim import tempconfig

    from embedviz.render.base import StoryboardScene
    from embedviz.render.writer import HoldRenderer

    written: list[Any] = []
    board = prepared_storyboard(scene, overrides, cwd=media, environ={})

    class Counting(HoldRenderer):  # type: ignore[misc]
        def add_frame(self, frame: np.ndarray, num_frames: int = 1) -> None:
            digest = hashlib.sha256(np.ascontiguousarray(frame).tobytes()).hexdigest()
            written.append((digest, num_frames))
            super().add_frame(frame, num_frames)

    class Kept(TracingCamera):  # type: ignore[misc]
        max_stills = TracingCamera.max_stills if keep else 0

    settings = {"disable_caching": True, "media_dir": str(media), "pixel_width": 256,
                "pixel_height": 144, "frame_rate": 15}  # fmt: skip
    with tempconfig(settings):
        renderer = Counting(camera_class=Kept)
        StoryboardScene(storyboard=board, renderer=renderer).render()
    return written


@pytest.mark.parametrize(
    ("scene", "overrides"),
    [
        ("SequenceLookup", {}),
        ("BatchLookup", {}),
        ("TrainingNudge", {}),
        ("LargeVocabLookup", {}),
    ],
)
def test_kept_still_pictures_give_every_frame_exactly(
    scene: str, overrides: dict[str, Any], tmp_path: Path
) -> None:
    fresh = _frames(scene, overrides, tmp_path / "fresh", keep=False)
    kept = _frames(scene, overrides, tmp_path / "kept", keep=True)
    assert len(fresh) > 20  # motion and holds were drawn
    assert kept == fresh


def test_a_still_picture_starts_from_the_longest_kept_one_that_fits() -> None:
    from manim import BLUE, RED, Square, tempconfig

    with tempconfig({"pixel_width": 64, "pixel_height": 36}):
        camera = TracingCamera()
        painted: list[Any] = []
        real = camera.capture_mobjects

        def capture(mobjects: Any, **kwargs: Any) -> None:
            painted.append(list(mobjects))
            real(mobjects, **kwargs)

        camera.capture_mobjects = capture  # type: ignore[method-assign]
        a, b, c = Square(color=RED), Square(color=BLUE).shift([1, 0, 0]), Square().scale(0.5)
        first = camera.paint_still([a, b])
        assert painted == [[a, b]]
        whole = camera.paint_still([a, b, c])
        assert painted[-1] == [c]  # a and b were kept
        c.set_color(RED)  # c changed: painted again, from the picture of a and b
        camera.paint_still([a, b, c])
        assert painted[-1] == [c]
        b.shift([0, 1, 0])  # b moved: nothing kept fits
        camera.paint_still([a, b, c])
        assert painted[-1] == [a, b, c]
        camera.reset()
        camera.capture_mobjects([a, b, c])
        np.testing.assert_array_equal(camera.pixel_array, camera.paint_still([a, b, c]))
        assert not np.array_equal(first, whole)
