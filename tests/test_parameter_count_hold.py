"""ParameterCount's E changes size and place once, at float32 (issue 18, lecture-hall frames).

A teacher's 720p review of ParameterCount (default options) found the matrix E
changed size or place three times: shrunk at float32 (~17.3 s), moved down about
0.9 units for the widths table (~33.2 s) and grown back home for the lookup
(~42.3-42.6 s). Each change read as a new table. E is drawn large while it is
introduced and counted (``table``, ``count``), then goes once, smoothly, to its
final size and place as ``float32`` starts, and keeps them to the end.

E is read from its grid's body as drawn (its frame rectangle: the size of its
cells and its top-left corner) and from its first value's digit slot, at several
moments of every step and at every beat's end.
"""

from __future__ import annotations

import functools
from itertools import pairwise
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard

ALPHAS = (0.1, 0.25, 0.5, 0.75, 0.9)
CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "light": {"theme": "light"},
    "toy": {"vocab": 6, "dim": 3},
    # Its count's halves are wider than E's sizes: E was sized for them only at the count beat.
    "huge": {"dim": 16384, "ids": "255999", "vocab": 256000},
}
# The beats before the one change, and the one that makes it (in its first step).
INTRO = ("table", "count")
CHANGE = "float32"
Sample = tuple[str, int, float, tuple[float, ...] | None]


def _e(scene: Any) -> tuple[float, ...] | None:
    """Return E's body width, height and top-left corner, and its first value's slot height."""
    grid = scene.stage.block.grid
    body = grid.body[0]
    drawn = {id(m) for top in scene.mobjects for m in top.get_family()}
    if id(body) not in drawn:
        return None
    left, top = body.get_corner([-1, 1, 0])[:2]
    low, high = grid.get_entries()[0].slot_corners()
    return (body.width, body.height, float(left), float(top), float(high[1] - low[1]))


@functools.cache
def _samples(case: str) -> tuple[Sample, ...]:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("ParameterCount", CASES[case], environ={})
    found: list[Sample] = []
    play_moments(
        board,
        lambda s, m: found.append((m.beat.name, m.step, m.time, _e(s))),
        alphas=ALPHAS,
    )
    return tuple(sorted(found, key=lambda f: f[2]))


def _same(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return all(abs(x - y) <= 1e-4 for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("case", sorted(CASES))
def test_e_changes_size_and_place_once_as_float32_starts(case: str) -> None:
    samples = _samples(case)
    shown = [(beat, step, time, e) for beat, step, time, e in samples if e is not None]
    assert len(shown) > 30, "E was sampled too rarely to tell"
    # Once drawn, E stays on screen to the end.
    assert samples[-1][3] is not None
    first, last = shown[0][3], shown[-1][3]
    assert first is not None
    assert last is not None
    for beat, step, time, e in shown:
        assert e is not None
        if beat in INTRO:
            assert _same(e, first), ("E changed before float32", beat, step, time, e, first)
        elif not (beat == CHANGE and step == 0):
            assert _same(e, last), ("E changed after float32's first step", beat, time, e, last)
    # The one change: it goes from the first to the last, each measure one way (no back and forth).
    during = [e for beat, step, _, e in shown if beat == CHANGE and step == 0 and e is not None]
    path = [first, *during, last]
    for k in range(len(first)):
        steps = [b[k] - a[k] for a, b in pairwise(path)]
        assert all(d >= -1e-4 for d in steps) or all(d <= 1e-4 for d in steps), (k, path)
