"""The lookup family's tables glide slowly enough to follow, and once, not to and fro.

A frame-by-frame review rejected two behaviours of the lookup beats: at
GPT-2's size the output block jumped 100 to 150 px up and back within a
fifth of a second (its glide squeezed into the second lookup's short share
of time), and with MiniLM's twelve tokens the matrix and the block parted
and closed again around every lookup beat (nervous churn).

Each case is dry-run and sampled at every twenty-fourth of every step of its
lookup beats; where the output block and the matrix stand (their grids'
centres) is read at every sample, against the video's clock. At 720p:

- no table moves faster than half the frame's width a second (640 px/s) at
  any moment. The eye's smooth pursuit follows a target up to about 30
  degrees a second; a frame seen from the back of a classroom spans 20 to
  30 degrees of view, so half of it a second (10 to 15 degrees a second)
  stays well within what a teacher's eye follows;
- no move of a table (a run of samples in which it moves, more than a few
  pixels in all) lasts less than 0.6 s: shorter, it reads as a jump;
- over a run of consecutive lookup beats each table moves at most twice
  (out, and back): the blocks do not part and close again between lookups.
  One move more is the block's where the run's first beat stands it where
  its one strip slides level into its own output row
  (``LookupMotion.places``: GPT-2's first lookup, whose strip would
  otherwise run along output row 2 before rising to row 0): down for that
  strip, up for the rest, and home, each at a beat's start or end, seconds
  apart.

Glides outside the lookup beats are held to the same two rules
(:func:`test_other_glides_are_slow_enough_to_follow`); each failed them before
it was given its floor (1811, 1441 and 1448 px/s; LargeVocabLookup's settle in
``shape``, 1198 px/s, is gone: tests/test_beat_glides.py).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
from boards import minilm_options

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

FRAME_WIDTH_PX = 1280
# Scene units across the frame (manim's default frame, 16:9 at a height of 8).
FRAME_WIDTH = 8.0 * 16 / 9
PX = FRAME_WIDTH_PX / FRAME_WIDTH
# Half the frame's width a second (see the module's docstring).
MAX_SPEED_PX = FRAME_WIDTH_PX / 2
MIN_MOVE_SECONDS = 0.6
# A move of fewer pixels than this in all is not a glide (a settle's nudge).
MOVE_PX = 4.0
ALPHAS = tuple(k / 24 for k in range(25))
LOOKUPS = ("lookup", "lookup_many")


CASES: list[Any] = [
    ("SequenceLookup", {}),
    ("SequenceLookup", {"theme": "light"}),
    ("SequenceLookup", {"vocab": 50257, "dim": 768, "ids": "4821,0,50256"}),
    ("SequenceLookup", None),  # MiniLM, twelve tokens
    ("SingleTokenLookup", {}),
    ("LargeVocabLookup", {}),
]

Track = list[tuple[float, str, float, float, float, float]]


def _track(
    scene: str, overrides: dict[str, Any] | None, level: set[str] | None = None
) -> tuple[Track, list[tuple[str, str]]]:
    """Return (time, beat, output x, y, matrix x, y) at every sample, and the beats in order.

    ``level``, where given, gathers the beats that stand the block level for their strip.
    """
    board = prepared_storyboard(
        scene, minilm_options() if overrides is None else overrides, environ={}
    )
    track: Track = []

    def read(scene_object: Any, moment: Any) -> None:
        motion = scene_object.stage.motion
        if level is not None:
            level.update(getattr(motion, "places", {}))
        out = motion.output.grid.get_center()
        matrix = motion.matrix.grid.get_center()
        track.append((moment.time, moment.beat.name, out[0], out[1], matrix[0], matrix[1]))

    play_moments(board, read, alphas=ALPHAS, pixel_width=192, pixel_height=108)
    track.sort(key=lambda r: r[0])
    return track, [(b.name, b.action) for b in board.beats]


def _moves(track: Track, column: int) -> list[tuple[float, float, float, float]]:
    """Return each move of one table: (start, end, its length in px, its fastest px/s)."""
    moves: list[tuple[float, float, float, float]] = []
    current: list[float] | None = None
    for a, b in itertools.pairwise(track):
        dt = b[0] - a[0]
        step = math.hypot(b[column] - a[column], b[column + 1] - a[column + 1]) * PX
        if step < 1e-3:
            if current is not None:
                moves.append((current[0], current[1], current[2], current[3]))
                current = None
            continue
        speed = step / dt if dt > 1e-9 else math.inf
        if current is None:
            current = [a[0], b[0], 0.0, 0.0]
        current[1] = b[0]
        current[2] += step
        current[3] = max(current[3], speed)
    if current is not None:
        moves.append((current[0], current[1], current[2], current[3]))
    return [m for m in moves if m[2] >= MOVE_PX]


def _runs(beats: list[tuple[str, str]]) -> list[list[str]]:
    """Return the runs of consecutive lookup beats, by name."""
    runs: list[list[str]] = []
    for (name, action), before in zip(beats, [None, *beats[:-1]], strict=True):
        if action not in LOOKUPS:
            continue
        if before is not None and before[1] in LOOKUPS:
            runs[-1].append(name)
        else:
            runs.append([name])
    return runs


def check_glides(
    track: Track, beats: list[tuple[str, str]], level: frozenset[str] = frozenset()
) -> list[str]:
    """Return a line per glide too fast or too short, or a run with the tables to and fro.

    A run whose first beat is in ``level`` (it stands the block where its one strip
    slides in level) may move the block once more: down for that strip, first.
    """
    problems: list[str] = []
    for run in _runs(beats):
        samples = [r for r in track if r[1] in run]
        for what, column in (("output block", 2), ("matrix", 4)):
            moves = _moves(samples, column)
            if what == "output block" and run[0] in level and moves:
                first = next(r for r in samples if r[0] >= moves[0][0])
                if first[1] == run[0]:
                    moves = moves[1:]  # the level glide, in the run's first beat
            for start, end, length, fastest in moves:
                where = f"{what} at {start:.2f} s ({length:.0f} px)"
                if fastest > MAX_SPEED_PX * 1.02:
                    problems.append(f"{where} moves at {fastest:.0f} px/s")
                if end - start < MIN_MOVE_SECONDS - 1e-6:
                    problems.append(f"{where} moves in {end - start:.2f} s")
            if len(moves) > 2:
                times = ", ".join(f"{m[0]:.2f} s" for m in moves)
                problems.append(f"{what} moves {len(moves)} times in {run} (at {times})")
    return problems


@pytest.mark.slow
@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_lookup_tables_glide_slowly_and_once(scene: str, overrides: dict[str, Any] | None) -> None:
    level: set[str] = set()
    track, beats = _track(scene, overrides, level)
    assert any(r[1] == beats[0][0] for r in track), "no sample was read"
    problems = check_glides(track, beats, frozenset(level))
    assert not problems, "\n".join(problems)


# BatchLookup in the corridor: three sequences of six IDs at GPT-2's size.
CORRIDOR_BATCH = {"vocab": 50257, "dim": 768, "ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1"}


@pytest.mark.slow
def test_the_corridor_batch_parts_once_and_closes_once() -> None:
    """E and the stack of slices part as the lookups begin and close once every row is in.

    They parted and closed around every lookup beat (E moved 11 times, the
    stack 10, each 128 px in 0.4 s: 800 px/s), and the beat after the last
    lookup glided both left together in 0.15 s (1811 px/s). Over the run of
    lookup beats each table now moves at most twice: apart, and back (E's
    way back is its rise into the block of chips' emptied place). Over the
    whole scene E moves no more, and the stack once more: the rest of the
    way to E, with the notes. Every move keeps the floors.
    """
    track, beats = _track("BatchLookup", CORRIDOR_BATCH)
    problems = check_glides(track, beats)
    for what, column, most in (("stack", 2, 3), ("E", 4, 2)):
        moves = _moves(track, column)
        assert moves, f"{what} never moves"
        if len(moves) > most:
            problems.append(f"{what} moves {len(moves)} times in the scene")
        for start, end, length, fastest in moves:
            if fastest > MAX_SPEED_PX * 1.02 or end - start < MIN_MOVE_SECONDS - 1e-6:
                problems.append(f"{what} at {start:.2f} s: {length:.0f} px in {end - start:.2f} s")
    assert not problems, "\n".join(problems)


def test_the_glide_check_can_fail() -> None:
    """A jump, a short glide, and a part and close around each of two beats are all reported."""
    beats = [("intro", "intro"), ("l0", "lookup"), ("l1", "lookup"), ("dim", "dim")]

    def row(t: float, beat: str, y: float, x: float = 0.0) -> tuple[float, ...]:
        return (t, beat, 0.0, y, x, 0.0)

    # 150 px up and back, each in 0.2 s.
    up = 150 / PX
    jump: Any = [row(0.0, "l1", 0.0), row(0.2, "l1", up), row(1.0, "l1", up), row(1.2, "l1", 0)]
    found = check_glides(jump, beats)
    assert any("750 px/s" in line for line in found)
    assert any("moves in 0.20 s" in line for line in found)
    # The same, each in a second: calm.
    calm: Any = [row(0.0, "l1", 0.0)]
    calm += [row(k / 10, "l1", up * k / 10) for k in range(1, 11)]
    calm += [row(2 + k / 10, "l1", up * (1 - k / 10)) for k in range(11)]
    assert not check_glides(calm, beats)
    # The matrix slides out and back in each of two consecutive lookups.
    apart = 1.0 / PX * 60
    churn: Any = []
    for t0, beat in ((0.0, "l0"), (5.0, "l1")):
        churn += [row(t0 + k / 10, beat, 0.0, apart * k / 10) for k in range(11)]
        churn += [row(t0 + 2 + k / 10, beat, 0.0, apart * (1 - k / 10)) for k in range(11)]
    found = check_glides(churn, beats)
    assert found == ["matrix moves 4 times in ['l0', 'l1'] (at 0.00 s, 2.00 s, 5.00 s, 7.00 s)"]

    # The block down for l0's strip, up at l1's start and home at its end: three moves,
    # allowed only where l0 stands the block level for its strip, and only a first in l0.
    def glide(t0: float, beat: str, y0: float, y1: float) -> list[Any]:
        return [row(t0 + k / 10, beat, y0 + (y1 - y0) * k / 10, 0.0) for k in range(11)]

    low, high = -up / 2, up
    steps = glide(0.0, "l0", 0.0, low) + glide(5.0, "l1", low, high) + glide(8.0, "l1", high, 0)
    blocks = [(t, b, 0.0, y, 0.0, 0.0) for t, b, _, y, _, _ in steps]
    three = "output block moves 3 times in ['l0', 'l1'] (at 0.00 s, 5.00 s, 8.00 s)"
    assert check_glides(blocks, beats) == [three]
    assert not check_glides(blocks, beats, frozenset({"l0"}))
    assert check_glides(blocks, beats, frozenset({"l1"})) == [three]
    again = blocks + [(11 + t, "l1", 0.0, y, 0.0, 0.0) for t, _, _, y, _, _ in steps[:11]]
    assert check_glides(again, beats, frozenset({"l0"})), "a fourth move passed"


# Glides outside the lookup beats, each of one table (read by ``block``), in one beat.
# At 720p a review measured: BatchLookup's E and stack closing left at GPT-2's size in
# ``repeats`` (about 2040 px/s), and PositionBlindness's rows moving to the second
# arrangement in ``arrange`` (497 px at about 1480 px/s). (LargeVocabLookup's output
# block settling beside E in ``shape``, up to 205 px at about 1210 px/s, was given its
# floor; it no longer glides at all: tests/test_beat_glides.py.)
BEAT_CASES: list[Any] = [
    (
        "BatchLookup",
        {"vocab": 50257, "dim": 768, "ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1"},
        "repeats",
        # E already stands at its place (it rose there as the last row landed): the stack
        # glides the rest of the way to it.
        "motion.output.grid",
    ),
    ("PositionBlindness", {}, "arrange", "output.grid"),
    ("PositionBlindness", {"positions": "learned"}, "arrange", "output.grid"),
    # The lookup's glides (down for the first strip to slide in level, on up for the rest,
    # home): built at 0.5 s among the walks, the glide on up played in 0.4 s (1367 px/s);
    # main's up and home took 0.49 s each.
    ("PositionBlindness", {}, "lookup", "motion.output.grid"),
    ("PositionBlindness", {"ids": "3,3"}, "lookup", "motion.output.grid"),
]


def _beat_track(scene: str, overrides: dict[str, Any], beat: str, block: str) -> Track:
    """Return (time, beat, x, y, x, y) of the centre of ``stage.<block>`` through ``beat``."""
    board = prepared_storyboard(scene, overrides, environ={})
    track: Track = []

    def read(scene_object: Any, moment: Any) -> None:
        if moment.beat.name != beat:
            return
        found: Any = scene_object.stage
        for name in block.split("."):
            found = getattr(found, name)
        x, y = found.get_center()[:2]
        track.append((moment.time, beat, x, y, x, y))

    # Only ``beat`` is read: the others play unsampled.
    play_moments(board, read, alphas=ALPHAS, pixel_width=192, pixel_height=108, beats={beat})
    track.sort(key=lambda r: r[0])
    return track


@pytest.mark.slow
@pytest.mark.parametrize(
    ("scene", "overrides", "beat", "block"),
    BEAT_CASES,
    ids=[
        "batch-gpt2-repeats",
        "positions-arrange",
        "learned-arrange",
        "positions-lookup",
        "positions-3-3-lookup",
    ],
)
def test_other_glides_are_slow_enough_to_follow(
    scene: str, overrides: dict[str, Any], beat: str, block: str
) -> None:
    """The same floor as the lookup beats': no faster than 640 px/s, none under 0.6 s."""
    track = _beat_track(scene, overrides, beat, block)
    moves = _moves(track, 2)
    assert moves, f"{block} did not move in {beat}"
    problems = [
        f"{block} at {start:.2f} s ({length:.0f} px): {fastest:.0f} px/s in {end - start:.2f} s"
        for start, end, length, fastest in moves
        if fastest > MAX_SPEED_PX * 1.02 or end - start < MIN_MOVE_SECONDS - 1e-6
    ]
    assert not problems, "\n".join(problems)
