"""Motion timed to the words in LargeVocabLookup and OneHotEquivalence.

Each beat below describes its motion in parts, one phrase after another
("Nothing is computed." / "The model walks to row 4821 and copies ..."), and
plays it as :class:`~embedviz.render.animations.Steps`. A dry run watches
every frame (without drawing it) and finds when each watched object first
changes (moves, grows, fades or changes colour): the object a phrase is
about must stay still until its phrase starts and change as it starts. Were
a beat played as one animation, everything in it would start with its first
phrase and these tests would fail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from conftest import count_frames, play_dry

from embedviz.inputs import prepared_storyboard

FPS = 15
# The first frame that shows a step's motion, counted from its phrase's start.
SLACK = 2

Resolve = Callable[[Any], dict[str, Any]]


@dataclass
class Watch:
    """Per frame, a fingerprint of each watched object; per beat, its frames."""

    frame: int = 0
    beats: dict[str, tuple[int, int]] = field(default_factory=dict)
    prints: list[dict[str, np.ndarray]] = field(default_factory=list)
    strip: list[bool] = field(default_factory=list)


def _fingerprint(mobject: Any) -> np.ndarray:
    """Where an object is, how big, and its mean fill and stroke colours and opacities."""
    parts = [m for m in mobject.get_family() if m.has_points()]
    fills = np.mean([m.get_fill_rgbas().mean(axis=0) for m in parts], axis=0)
    strokes = np.mean([m.get_stroke_rgbas().mean(axis=0) for m in parts], axis=0)
    size = [mobject.width, mobject.height]
    return np.concatenate([mobject.get_center(), size, fills, strokes])


def _watch(scene_name: str, watched: dict[str, Resolve]) -> tuple[Any, Watch]:
    """Play a scene frame by frame without drawing, fingerprinting each beat's objects."""

    from embedviz.render.base import StoryboardScene

    board = prepared_storyboard(scene_name, {}, environ={})
    watch = Watch()
    begun: dict[str, int] = {}
    current: dict[str, Any] = {}
    # A beat's watched objects are found at its first frame, once the stage has built
    # its animation (which may make them, as the rest beat makes its rings).
    pending: list[Any] = []

    class Watched(StoryboardScene):
        def setup(self) -> None:
            super().setup()
            count_frames(self, watch, watch.prints, self.look)

        def look(self) -> None:
            if pending:
                current.update(pending.pop()(self.stage))
            watch.prints.append({name: _fingerprint(m) for name, m in current.items()})
            members = self.get_mobject_family_members()
            watch.strip.append(
                # Any travelling row (the parts' strips and the older stages' alike).
                any(getattr(m, "row_strip", False) and len(m.submobjects) > 0 for m in members)
            )

        def update_to_time(self, t: float) -> None:
            super().update_to_time(t)
            self.look()

        def before_beat(self, beat: Any) -> None:
            current.clear()
            pending.clear()
            resolve = watched.get(beat.name)
            if resolve is not None:
                pending.append(resolve)
            begun[beat.name] = watch.frame

        def after_beat(self, beat: Any) -> None:
            watch.beats[beat.name] = (begun[beat.name], watch.frame)

    play_dry(lambda: Watched(storyboard=board, captions=True), FPS, "embedviz-steps-")
    return board, watch


def _changes(watch: Watch, name: str, first: int, last: int) -> list[int]:
    """Frames in ``[first, last)`` at which ``name`` differs from the frame before."""
    prints = watch.prints
    return [
        f
        for f in range(first + 1, last)
        if name in prints[f]
        and name in prints[f - 1]
        and np.abs(prints[f][name] - prints[f - 1][name]).max() > 1e-9
    ]


def _walks(watch: Watch, first: int, last: int) -> list[int]:
    """Frames in ``[first, last)`` at which the chip changes other than by its block's glide."""
    prints = watch.prints
    walks = []
    for f in range(first + 1, last):
        now, before = prints[f], prints[f - 1]
        change = now["chip"] - before["chip"]
        change[:3] -= now["block"][:3] - before["block"][:3]
        if np.abs(change).max() > 1e-9:
            walks.append(f)
    return walks


def _check(board: Any, watch: Watch, expected: dict[str, list[tuple[str, int]]]) -> None:
    """Each watched object is still before its phrase and changes as its phrase starts."""
    beats = {beat.name: beat for beat in board.all_beats()}
    for name, wanted in expected.items():
        beat = beats[name]
        first, last = watch.beats[name]
        for what, phrase in wanted:
            assert phrase < len(beat.phrases), (name, what, beat.phrases)
            start = first + round(beat.phrases[phrase].start * FPS)
            changes = _changes(watch, what, first, last)
            assert changes, (name, what, "never changes")
            assert start - 1 <= changes[0] <= start + SLACK, (name, what, phrase, changes[0], start)


def _large_vocab() -> None:
    def gap_labels(stage: Any) -> dict[str, Any]:
        from manim import VGroup

        grid = stage.matrix.grid
        gaps = VGroup(*grid.gap_labels.values(), *grid.col_gap_labels.values())
        return {"params": stage.matrix.count, "gaps": gaps}

    watched: dict[str, Resolve] = {
        "size": gap_labels,
        "scroll": lambda stage: {"thumb": stage.matrix.bar.thumb},
        # The chip, and its block: the blocks glide apart as the beat starts (the corridor
        # opens for the strip), the chip with its block; it walks only with its phrase.
        "lookup": lambda stage: {"chip": stage.chips.chips[0], "block": stage.output.grid},
        # The second lookup (after its scroll): its chip, and its block.
        "lookup-1": lambda stage: {"chip": stage.chips.chips[1], "block": stage.output.grid},
        "sentence": lambda stage: {"labels": stage.output.numbers},
        # The equal rows stay still (their values keep their colours): a ring passes round each.
        "rest": lambda stage: {f"ring{i}": ring for i, ring in enumerate(stage.repeat_rings)},
    }
    board, watch = _watch("LargeVocabLookup", watched)
    assert watch.frame == round(board.duration * FPS)
    _check(
        board,
        watch,
        {
            # "E holds ... numbers" / "Labelled gaps stand for the hidden rows ..."
            "size": [("params", 0), ("gaps", 1)],
            # "Take ID 4821." / "An ID is a row number, so the view scrolls down ..."
            "scroll": [("thumb", 1)],
            # "The sentence has 10 IDs." / "Each fetches its own row, ..., 10 rows."
            "sentence": [("labels", 1)],
            # "The other 7 IDs go the same way" / "ID 4821 repeats, so output rows 0 and 8 ..."
            "rest": [("ring0", 1), ("ring1", 1)],
        },
    )
    # One thread of motion: with the first phrase the ID's row is outlined while
    # the chip stays in its place; with the second the chip walks to the row and
    # rides home beside its copy without waiting beside its row (it stays as the row's tag);
    # with the third ("That copy is the embedding.") nothing moves but the outline.
    beat = next(b for b in board.beats if b.name == "lookup")
    first, last = watch.beats["lookup"]
    phrase = [first + round(p.start * FPS) for p in beat.phrases]
    moves = _walks(watch, first, last)
    # "Nothing is computed." / "The model walks to row 4821 and copies ..."
    assert moves, "the chip never walks"
    assert not [f for f in moves if f < phrase[1] - 1]
    walk = min(moves)
    assert phrase[1] - 1 <= walk <= phrase[1] + SLACK
    copy = next(f for f in range(first, last) if watch.strip[f])
    # The chip walks at its own pace (a long way takes over two seconds) and stops beside
    # the row only briefly before its copy comes out (test_thread's longest wait, 1.5 s).
    moving = set(moves)
    assert walk < copy
    assert len([f for f in range(walk, copy) if f not in moving]) <= round(1.5 * FPS)
    assert not [f for f in moves if f >= phrase[2]]
    _paced(watch, "lookup")
    _paced(watch, "lookup-1")


def _paced(watch: Watch, name: str) -> None:
    """A beat's chip never moves faster than its floors allow (MAX_CHIP_SPEED), and is home.

    Squeezed into its beat, a walk plays faster than its floor (:func:`chip_floor`): its
    peak speed over a frame is the measure (issue 18: lookup-1's fetch needed 5.6 s of
    its 5.4 s beat after its scroll and parting, and its walk played at twice its pace).
    """
    from manim import config

    from embedviz.render.parts.glide import MAX_CHIP_SPEED

    first, last = watch.beats[name]
    prints = watch.prints
    fastest = 0.0
    for f in range(first + 1, last):
        now, before = prints[f], prints[f - 1]
        step = (now["chip"][:3] - before["chip"][:3]) - (now["block"][:3] - before["block"][:3])
        fastest = max(fastest, float(np.linalg.norm(step)))
    most = MAX_CHIP_SPEED * float(config.frame_width) / FPS
    assert _walks(watch, first, last), (name, "the chip never walks")
    # 2 %: a frame's step is the pace's mean over it, a little under its peak at the floor.
    assert fastest <= most * 1.02, (name, round(fastest / most, 2))


def _one_hot() -> None:
    def one_hot(stage: Any) -> dict[str, Any]:
        row = stage.matrix.grid.row_labels[stage.vector.token_id]
        return {"strip": stage.vector.grid, "row": row}

    def sum_(stage: Any) -> dict[str, Any]:
        terms = stage.product.terms
        return {"zero": terms.zero_lines[0], "total": terms.total}

    watched: dict[str, Resolve] = {
        "one-hot": one_hot,
        "terms": lambda stage: {"title": stage.product.title, "lines": stage.product.terms},
        "sum": sum_,
        "compare": lambda stage: {
            "lookup": stage.compare.lookup.body,
            "equals": stage.compare.equals,
        },
        # The typeset product rises with the phrase; the header follows where it stood.
        "cost": lambda stage: {
            "ours": stage.costs.formula if stage.costs.formula is not None else stage.costs.header,
            "gpt2": stage.costs.entries[1],
        },
        "copy": lambda stage: {"zero": stage.costs.entries[2], "note": stage.costs.copy_note},
    }
    board, watch = _watch("OneHotEquivalence", watched)
    assert watch.frame == round(board.duration * FPS)
    _check(
        board,
        watch,
        {
            # "one_hot(3) holds 6 numbers: ..." / "Drawn on its side, entry k sits beside row k"
            "one-hot": [("strip", 0), ("row", 1)],
            # "Entry 0 of the product:" / "multiply each one-hot entry by the number beside it"
            "terms": [("title", 0), ("lines", 1)],
            # "Each 0 × E[k, 0] is exactly 0, ..." / "the sum is the value in row 3, unchanged."
            "sum": [("zero", 0), ("total", 1)],
            # "The lookup E[3] copies row 3 directly." / "The two rows match value for value"
            "compare": [("lookup", 0), ("equals", 1)],
            # "Each entry of E costs one multiply-add in the product:" / "V × d per token, ..."
            "cost": [("ours", 0), ("gpt2", 1)],
            # "A lookup skips all of that." / "It copies 3 numbers, nothing more."
            "copy": [("zero", 0), ("note", 1)],
        },
    )


# Session 40: in the corridor as wide as a strip and its riding chip (nothing crosses the
# output block off its own row), the first lookup's chip walks and rides about 7 units
# each way. Its fetch was built as 1.2 s there (with its wait beside the row) and 1 s back,
# played in those shares: the walk's floor (3 s) stretched the way back to 2.5 s (its own
# floor 1.2 s), and the chip rode home 0.4 s into "That copy is the embedding". Each part
# now takes its floor's share (VocabMotion.teaching_steps): 4.2 s of the phrase's 5.1 s.
# The rest's rings came 2 s into their phrase, its lookups (4.8 s at most REST_SPEEDUP
# times their pace) outlasting the 2.9 s phrase that names them: that phrase says more now.
# lookup-1 (after its scroll and the blocks' parting) shared its fetch the old way: it needed
# 5.6 s of its 5.4 s beat, and its chip walked at 1.9 times the pace its floor allows. Each
# part now takes its floor's time and the scroll and outlines play faster (fit_steps).
@pytest.mark.slow
def test_large_vocab_steps_start_with_their_phrases() -> None:
    _large_vocab()


@pytest.mark.slow
def test_one_hot_steps_start_with_their_phrases() -> None:
    _one_hot()


@pytest.mark.slow
@pytest.mark.parametrize("check", [_large_vocab, _one_hot], ids=["LargeVocab", "OneHot"])
def test_the_checks_fail_when_each_beat_plays_whole(
    check: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Played as one animation from its first phrase, a split beat fails its check."""
    from manim import Succession

    import embedviz.render.base as base

    def whole(animation: Any) -> tuple[Any, ...]:
        steps = getattr(animation, "steps", None)
        return (Succession(*steps),) if steps else (animation,)

    monkeypatch.setattr(base, "beat_steps", whole)
    with pytest.raises(AssertionError):
        check()
