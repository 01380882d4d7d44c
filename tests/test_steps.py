"""Motion timed to the words: each step of a beat's animation starts with its phrase.

A beat's animation may come in steps (``Steps``: for a lookup, walk the chip
to its row, copy the row out, send the chip back). The scene starts step *k*
when phrase *k* of the narration starts, and the beat still lasts exactly its
storyboard duration. The dry runs here watch every frame (without drawing
it) and find when things start to move, so they check what is on screen,
not the schedule that put it there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from conftest import count_frames, play_dry
from hypothesis import given
from hypothesis import strategies as st

from embedviz.inputs import prepared_storyboard
from embedviz.render.base import schedule_steps, share_frames

FPS = 15


# -- the schedule, as a pure function ------------------------------------------


@given(
    lengths=st.lists(st.integers(1, 30), min_size=1, max_size=5),
    gaps=st.lists(st.integers(0, 60), min_size=0, max_size=6),
    spare=st.integers(0, 90),
)
def test_steps_start_with_their_phrases_and_fit_the_beat(
    lengths: list[int], gaps: list[int], spare: int
) -> None:
    phrases = [0]
    for gap in gaps:
        phrases.append(phrases[-1] + gap)
    total = max(sum(lengths), phrases[-1]) + spare
    starts = schedule_steps(lengths, phrases, total)
    ends = [start + length for start, length in zip(starts, lengths, strict=True)]
    assert starts[0] >= 0
    assert ends[-1] <= total
    # In order, never overlapping.
    assert all(end <= start for end, start in zip(ends, starts[1:], strict=False))
    # When starting each step with its phrase (or straight after the step
    # before, if that ends later; steps beyond the phrases follow on) ends in
    # time, that is exactly the schedule.
    wanted: list[int] = []
    ready = 0
    for k, length in enumerate(lengths):
        wanted.append(max(phrases[k] if k < len(phrases) else 0, ready))
        ready = wanted[-1] + length
    if ready <= total:
        assert starts == wanted
    else:
        # Otherwise the steps are pulled earlier, the last ending with the beat.
        assert ends[-1] == total
        assert all(s <= w for s, w in zip(starts, wanted, strict=True))


def test_a_schedule_that_cannot_fit_is_refused() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        schedule_steps([10, 10], [0], 15)


@given(
    total=st.integers(0, 200),
    weights=st.lists(st.floats(0.01, 5.0), min_size=1, max_size=6),
)
def test_frames_are_shared_in_proportion(total: int, weights: list[float]) -> None:
    shares = share_frames(total, weights)
    assert sum(shares) == total
    whole = sum(weights)
    for share, weight in zip(shares, weights, strict=True):
        assert abs(share - total * weight / whole) < 1 + 1e-9


def test_a_plain_animation_is_one_step_and_steps_flatten() -> None:
    from manim import Circle, FadeIn, FadeOut, Wait

    from embedviz.render.animations import Steps, beat_steps, steps_together

    dot = Circle()
    plain = FadeIn(dot)
    assert beat_steps(plain) == (plain,)
    inner = Steps(Wait(), FadeOut(dot))
    outer = Steps(plain, inner)
    assert len(outer.steps) == 3
    assert outer.steps[0] is plain
    # Played whole, Steps is a Succession of its parts.
    assert outer.get_run_time() == pytest.approx(3.0)
    joined = steps_together(Steps(Wait(), Wait()), FadeIn(Circle()))
    assert isinstance(joined, Steps)
    assert len(joined.steps) == 2
    assert not isinstance(steps_together(FadeIn(Circle()), Wait()), Steps)


# -- what a dry run shows, frame by frame --------------------------------------


@dataclass
class Watch:
    """What each frame showed: chip centres, whether a row strip is out, captions."""

    frame: int = 0
    beats: dict[str, tuple[int, int]] = field(default_factory=dict)
    chips: list[np.ndarray] = field(default_factory=list)
    strip: list[bool] = field(default_factory=list)
    captions: list[frozenset[str]] = field(default_factory=list)


def _watch(scene_name: str, captions: bool) -> tuple[Any, Watch]:
    """Play a scene frame by frame without drawing, noting what each frame holds."""

    from embedviz.render.base import StoryboardScene
    from embedviz.render.glyphs import SansText
    from embedviz.render.parts.chips import Chip
    from embedviz.render.parts.strip import RowStrip

    board = prepared_storyboard(scene_name, {}, environ={})
    watch = Watch()
    spoken = {p.text for beat in board.all_beats() for p in beat.phrases}
    begun: dict[str, int] = {}

    class Watched(StoryboardScene):
        def setup(self) -> None:
            super().setup()
            count_frames(self, watch, watch.chips, self.look)

        def look(self) -> None:
            members = self.get_mobject_family_members()
            chips = sorted(
                {id(m): m for m in members if isinstance(m, Chip)}.values(),
                key=lambda m: m.number.cell.index,
            )
            watch.chips.append(np.array([c.get_center() for c in chips]))
            watch.strip.append(
                any(isinstance(m, RowStrip) and len(m.submobjects) > 0 for m in members)
            )
            shown = {
                " ".join(m.original_text.split())
                for m in members
                if isinstance(m, SansText) and m.get_fill_opacity() > 0.5
            }
            watch.captions.append(frozenset(shown & spoken))

        def update_to_time(self, t: float) -> None:
            super().update_to_time(t)
            self.look()

        def before_beat(self, beat: Any) -> None:
            begun[beat.name] = watch.frame

        def after_beat(self, beat: Any) -> None:
            watch.beats[beat.name] = (begun[beat.name], watch.frame)

    play_dry(lambda: Watched(storyboard=board, captions=captions), FPS, "embedviz-steps-")
    return board, watch


@pytest.mark.slow
@pytest.mark.parametrize("captions", [True, False], ids=["burned", "plain"])
def test_each_lookup_step_starts_with_its_phrase(captions: bool) -> None:
    board, watch = _watch("SequenceLookup", captions)
    # The video keeps the storyboard's timing: every beat starts and ends on
    # the frame the storyboard says, and the whole lasts its duration.
    assert watch.frame == round(board.duration * FPS)
    start = 0.0
    for beat in board.all_beats():
        expected = (round(start * FPS), round((start + beat.duration) * FPS))
        assert watch.beats[beat.name] == expected, beat.name
        start += beat.duration
    beat = next(b for b in board.beats if b.name == "lookup-0")
    # "ID 2 is a row number ...: the 3rd row, counting from zero." then "Its row is copied ...".
    assert len(beat.phrases) == 2
    first, last = watch.beats[beat.name]
    phrase = [first + p.start * FPS for p in beat.phrases]
    chips = watch.chips

    def moving(frame: int) -> bool:
        # A chip moves in the block (each chip's step less the chips' median step): the
        # block may glide up with every chip before the lookups (test_block_hold.py).
        step = chips[frame] - chips[frame - 1]
        return bool(np.abs(step - np.median(step, axis=0)).max() > 1e-6)

    # Step 0: phrase 0 names the row, which is outlined; the chip stays in its place.
    assert not any(moving(f) for f in range(first + 1, round(phrase[1])))
    # Step 1, the fetch: the chip leaves its place as phrase 1 starts ...
    walk = next(f for f in range(first + 1, last) if moving(f))
    assert abs((walk - 1) - phrase[1]) <= 1
    # ... and the row's strip comes out as soon as the chip has reached it: the
    # chip never waits beside its row (one thread of motion, issue 18) ...
    copy = next(f for f in range(first, last) if watch.strip[f])
    assert walk < copy < last
    # Between the chip leaving its place and its row lifting out, it stands still at most
    # two frames: it walks all the way (its pace: test_chip_pace) and the row lifts as it
    # arrives. (A bound of 2 s on the walk itself stood here; the walk to a riding dock,
    # seqdock25, ends a frame after it, with no frame still.)
    assert len([f for f in range(walk, copy) if not moving(f)]) <= 2
    # ... and it goes home with the row: the chip moves on as the strip lifts.
    back = next(f for f in range(copy, last) if moving(f))
    assert back - copy <= 2
    # Step 2 (the outline fades) has no phrase of its own. Once the row has
    # landed the chip is its tag and moves no more (riding at the strip's end, it
    # takes its last step on the frame the strip lands: moving() compares a frame
    # with the one before).
    landed = next(f for f in range(copy, last) if not watch.strip[f])
    assert not any(moving(f) for f in range(landed + 1, last))
    if captions:
        # Each phrase's caption is up from shortly after its phrase starts.
        for number, p in enumerate(beat.phrases):
            at = round(phrase[number]) + 10
            assert p.text in watch.captions[at], (number, watch.captions[at])
