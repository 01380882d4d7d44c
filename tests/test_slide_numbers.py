"""A strip sliding sideways out of E shows each number once its cell is a column clear of E.

Issue 18 (one thread of motion), 720p reviews: a copied row leaving E through
its right edge, level with its own row, was an empty amber box until much
later. The toy SequenceLookup's ``lookup-1`` slid row 3 out under the output
block empty, its numbers showing only as it rose; PositionBlindness's first
strip and GPT-2's ``lookup-0`` and ``lookup-1`` slid level into their output
rows empty, their numbers showing only inside them. A number may not show
nearer E than a column width (it reads as one more column of the row:
test_strip_heading), but once its own cell has cleared E's right edge by more
than a column width and a pixel, on its row's line, nothing stops it: it must
then be whole (opacity 0.95) within :data:`LATE` seconds, a 0.2 s fade (no
pop: test_numbers_fade) and a frame and a half to spare.

Each case's lookup carries (those whose strip leaves through E's right edge,
level with its row) are swept finely where they stand in the play (their own
interpolation, read back as drawn) and timed by the scene's clock. A text's
cell is its column's slot in E (the grid's column slots, read as the carry
begins: the text's centre lies in it), moved as the strip has moved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

SWEEP = 800
WHOLE = 0.95
# A 0.2 s fade (the strip's least: test_numbers_fade) and a frame and a half at 30 fps to
# spare. (Before the fix: 0.31 s at GPT-2's size, 0.36 s in PositionBlindness, 0.56 s in
# the toy, numbers shown only once the whole strip was out.)
LATE = 0.25
GPT2 = {"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768}
# Scene, overrides, the beats whose carries are read.
CASES: dict[str, tuple[str, dict[str, Any], tuple[str, ...]]] = {
    "toy": ("SequenceLookup", {}, ("lookup-0", "lookup-1")),
    "positions": ("PositionBlindness", {}, ("lookup",)),
    "gpt2": ("SequenceLookup", GPT2, ("lookup-0", "lookup-1")),
}


@dataclass
class _Sweep:
    """One carry swept: at each alpha, each text's opacity and whether its cell is clear."""

    name: str
    alphas: np.ndarray
    opacity: np.ndarray  # (alphas, texts)
    clear: np.ndarray  # (alphas, texts): a column and a pixel past E's edge, level with its row
    clock: list[tuple[float, float]] = field(default_factory=list)


def _slots(carry: Any) -> list[tuple[float, float]]:
    """Return each of E's column slots as (left, right), read from the grid."""
    grid = carry.grid
    found = []
    for slot in grid.col_slots:
        centre = grid.col_x(slot.key, gap=slot.gap)
        found.append((centre - slot.size / 2, centre + slot.size / 2))
    return found


def _sweep(carry: Any, original: Any, name: str) -> _Sweep | None:
    """Sweep ``carry``; None unless its strip leaves E's columns level with its row."""
    from manim import config

    grid = carry.grid
    pixel = float(config.frame_height) / 720
    edge = grid.body_right() + float(grid.col_slots[-1].size) + pixel
    original(carry, 0.0)
    texts = [*carry.strip[1].submobjects, *carry.strip[2].submobjects]
    slots = _slots(carry)
    # Each text's cell's left as the strip starts (in its row): the slot its centre is in.
    lefts = np.array(
        [
            next(a for a, b in slots if a - 1e-6 <= float(t.get_center()[0]) <= b + 1e-6)
            for t in texts
        ]
    )
    x0, line = float(texts[0].get_center()[0]), float(texts[0].get_center()[1])
    height = float(carry.strip[0].height)
    alphas = np.linspace(0.0, 1.0, SWEEP + 1)
    opacity, clear = [], []
    sideways = None
    for alpha in alphas:
        original(carry, float(alpha))
        dx = float(texts[0].get_center()[0]) - x0
        level = abs(float(texts[0].get_center()[1]) - line) < height / 3
        opacity.append([float(t.get_fill_opacity()) for t in texts])
        clear.append(level & (lefts + dx > edge))
        if sideways is None and float(lefts.min()) + dx >= grid.body_right():
            # Out of E's columns: it slid out sideways if it is still level with its row.
            sideways = level
    if not sideways:
        return None
    return _Sweep(name, alphas, np.array(opacity), np.array(clear))


def _play(case: str) -> list[_Sweep]:
    """Play the case's beats; sweep each lookup carry as it is first drawn built."""
    from embedviz.render.parts.strip import Carry

    scene, overrides, beats = CASES[case]
    original = Carry.interpolate_mobject
    seen: dict[Any, _Sweep | None] = {}
    clock: dict[Any, list[tuple[float, float]]] = {}
    now = [""]

    def record(carry: Any, alpha: float) -> None:
        built = len(carry.strip.submobjects) > 1 and carry.targets
        if built and carry not in seen and now[0] in beats:
            seen[carry] = _sweep(carry, original, f"{now[0]} row {carry.row}")
        original(carry, alpha)
        if carry.scene_ref is not None and 0 < alpha < 1:
            clock.setdefault(carry, []).append((float(carry.scene_ref.last_t), alpha))

    def on(_: Any, moment: Any) -> None:
        now[0] = moment.beat.name

    board = prepared_storyboard(scene, overrides, environ={})
    names = [b.name for b in board.beats]
    # The beat before each too, so that the beat's name is known as its first carry moves.
    wanted = {n for b in beats for n in (b, names[names.index(b) - 1])}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Carry, "interpolate_mobject", record)
        play_moments(
            board,
            on,
            alphas=tuple(k / 40 for k in range(1, 40)),
            beats=wanted,
            pixel_width=192,
            pixel_height=108,
        )
    found = []
    for carry, swept in seen.items():
        if swept is not None:
            swept.clock = sorted(set(clock.get(carry, [])), key=lambda pair: pair[1])
            found.append(swept)
    return found


def _late(swept: _Sweep) -> tuple[int, list[str]]:
    """Return how many texts' cells cleared E, and those shown whole too late after."""
    (t0, a0), (t1, a1) = swept.clock[0], swept.clock[-1]
    seconds = (t1 - t0) / (a1 - a0)
    checked, late = 0, []
    for k in range(swept.opacity.shape[1]):
        cleared = np.flatnonzero(swept.clear[:, k])
        if not len(cleared):
            continue
        checked += 1
        first = cleared[0]
        whole = np.flatnonzero(swept.opacity[first:, k] >= WHOLE)
        at = float(swept.alphas[first + whole[0]]) if len(whole) else 1.0
        wait = (at - float(swept.alphas[first])) * seconds
        if wait > LATE:
            late.append(f"{swept.name}: text {k} hidden {wait:.2f} s after its cell cleared E")
    return checked, late


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_strip_sliding_out_shows_its_numbers_once_each_cell_is_a_column_clear(
    case: str,
) -> None:
    # (A carry first drawn as a read beat ends plays on in the next, unread: left out.)
    swept = [one for one in _play(case) if len(one.clock) > 1]
    beats = {one.name.split(" row ")[0] for one in swept}
    assert beats == set(CASES[case][2]), (
        f"no strip slid sideways out of E in {beats ^ set(CASES[case][2])}"
    )
    late = []
    for one in swept:
        checked, found = _late(one)
        assert checked, f"{one.name}: no cell cleared E by a column while level with its row"
        late += found
    assert not late, late[:6]
