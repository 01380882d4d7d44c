"""TrainingNudge and ParameterCount: each step of a split beat starts with its phrase.

Their beats come in steps (``Steps``), one per phrase that describes a motion:
the loss's IDs, then their rows, then the loss; the scatter, then the zeros;
the block's rows, then its columns, then its numbers; and so on. A dry run
watches every frame (without drawing it). For each split beat it checks the
schedule (step *k* starts on phrase *k*'s frame) and the screen: nothing
moves in the still frames before a step's phrase, and something moves as
the phrase starts. A beat played as one animation has a single step, and its
later motions start before their phrases, so both checks fail.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from conftest import count_frames, play_dry

from embedviz.inputs import prepared_storyboard

FPS = 15

# The beats split into one step per phrase, by scene.
SPLIT = {
    "TrainingNudge": (
        "loss",
        "upstream",
        "scatter",
        "accumulate",
        "update",
        "unchanged",
        "loss-drop",
    ),
    "ParameterCount": ("table", "count", "float32", "bfloat16", "compare", "lookup"),
}


@dataclass
class Watch:
    """A fingerprint of the screen per frame, and when each beat and step started."""

    frame: int = 0
    frames: list[float] = field(default_factory=list)
    beats: dict[str, int] = field(default_factory=dict)
    steps: dict[str, dict[int, tuple[int, int]]] = field(default_factory=dict)


def _fingerprint(members: list[Any]) -> float:
    """Sum what each mobject shows (points, colours, opacities) into one number."""
    total = 0.0
    for number, m in enumerate(members):
        weight = 1.0 + (number % 7) * 0.137
        points = m.points
        if len(points):
            total += weight * float(np.abs(points).sum())
        for colours in (getattr(m, "fill_rgbas", ()), getattr(m, "stroke_rgbas", ())):
            if len(colours):
                total += weight * 3.1 * float(np.abs(colours).sum())
    return total


def _watch(scene_name: str) -> tuple[Any, Watch]:
    """Play a scene frame by frame without drawing or captions, fingerprinting each frame."""

    from embedviz.render.base import StoryboardScene

    board = prepared_storyboard(scene_name, {}, environ={})
    watch = Watch()
    current: list[str] = [""]

    class Watched(StoryboardScene):
        def setup(self) -> None:
            super().setup()
            count_frames(self, watch, watch.frames, self.look)

        def look(self) -> None:
            watch.frames.append(_fingerprint(self.get_mobject_family_members()))

        def update_to_time(self, t: float) -> None:
            super().update_to_time(t)
            self.look()

        def play(self, *args: Any, **kwargs: Any) -> None:
            begun = watch.beats.get(current[0], 0)
            for step, offset, seconds in self.playing_steps:
                start = begun + round((self.beat_clock + offset) * FPS)
                watch.steps[current[0]][step] = (start, round(seconds * FPS))
            super().play(*args, **kwargs)

        def before_beat(self, beat: Any) -> None:
            current[0] = beat.name
            watch.beats[beat.name] = watch.frame
            watch.steps[beat.name] = {}

    play_dry(lambda: Watched(storyboard=board, captions=False), FPS, "embedviz-phrase-steps-")
    return board, watch


def _changed(frames: list[float], a: int, b: int) -> bool:
    """Return whether the screen at frame ``b`` differs from frame ``a``."""
    return abs(frames[b] - frames[a]) > 1e-6 * max(1.0, abs(frames[a]))


@pytest.mark.slow
@pytest.mark.parametrize("scene_name", list(SPLIT))
def test_each_split_step_starts_with_its_phrase(scene_name: str) -> None:
    board, watch = _watch(scene_name)
    beats = {beat.name: beat for beat in board.all_beats()}
    frames = watch.frames
    assert len(frames) == round(board.duration * FPS)
    for name in SPLIT[scene_name]:
        beat = beats[name]
        first = watch.beats[name]
        steps = watch.steps[name]
        # One step per phrase, each scheduled on its phrase's first frame.
        assert sorted(steps) == list(range(len(beat.phrases))), (name, steps)
        for k, phrase in enumerate(beat.phrases):
            start, _ = steps[k]
            assert abs(start - (first + phrase.start * FPS)) <= 1, (name, k)
            # On screen: something moves as the phrase starts ...
            assert any(_changed(frames, start - 1, f) for f in range(start, start + 3)), (name, k)
            if k == 0:
                continue
            # ... and nothing moved in the still frames between the previous
            # step's end and this phrase.
            before, before_length = steps[k - 1]
            still = range(before + before_length + 1, start - 1)
            assert not any(_changed(frames, f - 1, f) for f in still), (name, k)
