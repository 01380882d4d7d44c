"""Motion timed to the words in the grid, output, print, zero-based and position beats.

Each beat below has a narration of several phrases, each describing one part
of the motion (the print: show the call and its print, then outline the outer
brackets, then the numbers). The beat's handler returns
:class:`~embedviz.render.animations.Steps`, and the scene starts step *k* with
phrase *k*. A dry run watches every frame (without drawing it) and checks
two things: the steps the scene plays (``playing_steps`` and ``beat_clock``)
start with their phrases, one step per phrase; and what a step brings
(an outline, a tick, a word) is first drawn when its phrase starts, not when
the beat does. A beat that played its motion as one animation fails both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from conftest import play_dry

from embedviz.inputs import prepared_storyboard

FPS = 15

# The beats split into steps, and how many steps each plays: one per phrase.
SPLIT: dict[str, dict[str, int]] = {
    "SingleTokenLookup": {"zero-based": 2, "print": 3, "grad-fn": 2},
    "SequenceLookup": {"predict": 3, "reveal": 2, "shape": 3},
    "ZeroBasedIndexing": {
        "one-based": 2,
        "zero-based": 2,
        "trace": 2,
        "check": 2,
        "diagnose": 2,
    },
    "PositionBlindness": {"lookup": 2, "arrange": 2, "positions": 3, "add": 3, "differ": 2},
}


def _drawn(scene: Any, mobject: Any) -> bool:
    """Whether ``mobject`` is on screen: in the scene, visible and not a speck."""
    if mobject is None or mobject not in scene.get_mobject_family_members():
        return False
    if not mobject.has_points() and not mobject.submobjects:
        return False
    opacity = max(float(mobject.get_stroke_opacity()), float(mobject.get_fill_opacity()))
    return opacity > 0.1 and max(mobject.width, mobject.height) > 0.02


_SHOWN: set[int] = set()


def _fading(scene: Any, mobject: Any) -> bool:
    """Whether ``mobject``, once fully shown, has begun to fade (or has gone)."""
    if _drawn(scene, mobject) and float(mobject.get_fill_opacity()) > 0.99:
        _SHOWN.add(id(mobject))
        return False
    return id(mobject) in _SHOWN


# What each step brings, seen on screen: (beat, phrase, probe). The probe is
# true from the frame the step's motion shows.
Probe = Callable[[Any], bool]
PROBES: dict[str, list[tuple[str, int, Probe]]] = {
    "SingleTokenLookup": [
        # The outer brackets are ringed with "The outer pair means ...",
        ("print", 1, lambda s: any(_drawn(s, b) for b in s.stage.printed.bracket_marks)),
        # the numbers with "The 3 numbers inside are row 3.", and row 3 of the matrix
        # as that phrase names it (issue 18's frame review: it was marked only with
        # the grad_fn beat's "row 3 of the matrix").
        (
            "print",
            2,
            lambda s: (
                _drawn(s, s.stage.printed.numbers_box)
                and _drawn(s, getattr(s.stage, "named_row", None))
            ),
        ),
    ],
    "SequenceLookup": [
        # The question comes with "Predict before we look: how many rows ...,"
        ("predict", 1, lambda s: _drawn(s, s.stage.output.question)),
        # and "values" is underlined with "how many rows ..., and how many values ...?"
        (
            "predict",
            2,
            lambda s: (
                len(s.stage.output.underlines) > 1 and _drawn(s, s.stage.output.underlines[1])
            ),
        ),
    ],
    "ZeroBasedIndexing": [
        # The count's tallies, once shown, leave as the wrong row is fetched
        # ("This classic slip fetches the wrong vector.").
        ("one-based", 1, lambda s: _fading(s, s.stage.motion.tallies[0])),
        # The tick comes with "ID, index and vector agree."
        ("check", 1, lambda s: _drawn(s, s.stage.trace.tick)),
    ],
    "PositionBlindness": [
        # Row 0 of P is outlined with "so row 0 is 0, 1, 0."
        ("positions", 2, lambda s: _drawn(s, s.stage.first_row_box)),
        # P's definition comes with the empty P and sums, as "There is one vector per
        # position, whatever token sits there." says what it says (the sums' band stood
        # half empty until "Even columns hold sines ..." brought it); not before.
        ("arrange", 1, lambda s: _drawn(s, s.stage.formula)),
    ],
}


@dataclass
class Watch:
    """Frames, each beat's first frame, the steps each play started and probe hits."""

    frame: int = 0
    begun: dict[str, int] = field(default_factory=dict)
    # beat -> [(step, start in seconds from the beat's start)]
    steps: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    # (beat, phrase) -> the first frame its probe held
    seen: dict[tuple[str, int], int] = field(default_factory=dict)


def _watch(scene_name: str) -> tuple[Any, Watch]:
    """Play a scene frame by frame without drawing it, noting its steps and probes."""

    from embedviz.render.base import StoryboardScene

    board = prepared_storyboard(scene_name, {}, environ={})
    watch = Watch()
    probes = PROBES.get(scene_name, [])
    current: list[str] = [""]

    class Watched(StoryboardScene):
        def setup(self) -> None:
            super().setup()
            renderer: Any = self.renderer
            renderer.update_frame = lambda *args, **kwargs: None

            def count(frame: Any, num_frames: int = 1) -> None:
                for _ in range(num_frames):
                    self.look()
                    watch.frame += 1

            renderer.add_frame = count

        def look(self) -> None:
            for beat, phrase, probe in probes:
                key = (beat, phrase)
                if beat == current[0] and key not in watch.seen and probe(self):
                    watch.seen[key] = watch.frame

        def play(self, *args: Any, **kwargs: Any) -> None:
            for step, offset, _ in self.playing_steps:
                watch.steps.setdefault(current[0], []).append((step, self.beat_clock + offset))
            super().play(*args, **kwargs)

        def update_to_time(self, t: float) -> None:
            super().update_to_time(t)
            self.look()

        def before_beat(self, beat: Any) -> None:
            current[0] = beat.name
            watch.begun[beat.name] = watch.frame

    play_dry(lambda: Watched(storyboard=board, captions=False), FPS, "embedviz-phrase-steps-")
    return board, watch


@pytest.fixture(scope="module", params=sorted(SPLIT))
def watched(request: pytest.FixtureRequest) -> tuple[str, Any, Watch]:
    board, watch = _watch(request.param)
    return request.param, board, watch


@pytest.mark.slow
def test_each_step_starts_with_its_phrase(watched: tuple[str, Any, Watch]) -> None:
    scene, board, watch = watched
    beats = {beat.name: beat for beat in board.all_beats()}
    for name, count in SPLIT[scene].items():
        beat = beats[name]
        assert len(beat.phrases) == count, (scene, name, [p.text for p in beat.phrases])
        started = sorted(watch.steps.get(name, []))
        # One step per phrase, each started once ...
        assert [step for step, _ in started] == list(range(count)), (scene, name, started)
        # ... as its phrase starts (to the frame).
        for (step, start), phrase in zip(started, beat.phrases, strict=True):
            assert abs(start - phrase.start) <= 1.5 / FPS, (scene, name, step, start, phrase)


@pytest.mark.slow
def test_what_a_step_brings_is_drawn_as_its_phrase_starts(
    watched: tuple[str, Any, Watch],
) -> None:
    scene, board, watch = watched
    beats = {beat.name: beat for beat in board.all_beats()}
    for beat_name, phrase, _ in PROBES.get(scene, []):
        beat = beats[beat_name]
        assert (beat_name, phrase) in watch.seen, (scene, beat_name, phrase, "never drawn")
        at = watch.seen[(beat_name, phrase)] - watch.begun[beat_name]
        expected = beat.phrases[phrase].start * FPS
        # Not before its phrase, and within a few frames of it (a Create's
        # first frames are a speck, a fade's are faint).
        assert expected - 1 <= at <= expected + 6, (scene, beat_name, phrase, at, expected)


def test_the_probe_sees_only_what_is_drawn() -> None:
    from manim import Rectangle, Scene

    scene = Scene()
    box = Rectangle(width=1, height=0.5)
    assert not _drawn(scene, box)  # not in the scene
    scene.add(box)
    assert _drawn(scene, box)
    box.set_stroke(opacity=0.0)
    assert not _drawn(scene, box)  # invisible
    box.set_stroke(opacity=1.0).scale(0.001)
    assert not _drawn(scene, box)  # a speck
