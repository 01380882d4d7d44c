"""ParameterCount's E changes size and place twice: back at float32, forward at the lookup.

A teacher's 720p review of ParameterCount (default options, issue 18, lecture-hall
frames) found the matrix E changed size or place three times: shrunk at float32
(~17.3 s), moved down about 0.9 units for the widths table (~33.2 s) and grown back
home for the lookup (~42.3-42.6 s). Each change read as a new table. So E was made
to recede once, as float32 starts, and hold to the end; a later review then found E a
thumbnail beside two tables in the closing frame, and asked that the tables leave as
the lookup starts, so that E and its copied row are the frame's focal objects, larger.

Now E is drawn large while it is introduced and counted (``table``, ``count``), goes
once, smoothly, back to a receded size as ``float32`` starts and holds it while the
memory and widths tables stand beside it (``float32`` to ``compare``), and comes
forward once, smoothly, as the lookup starts, to a size larger than its receded one,
which it keeps to the end. It never moves within a beat after its first step.

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
# The beats before the first change, the two that make one (in their first step), and
# the beats E holds its receded size through.
INTRO = ("table", "count")
CHANGES = ("float32", "lookup")
RECEDED = ("float32", "bfloat16", "compare")
# How much larger E's numbers stand at the lookup than while the tables stand.
GROWS = {"default": 1.1, "light": 1.1}
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


def _held(shown: list[Sample], beats: tuple[str, ...]) -> list[tuple[float, ...]]:
    """Return E as drawn through some beats, their first steps' motion aside."""
    return [
        e
        for beat, step, _, e in shown
        if e is not None and beat in beats and not (beat in CHANGES and step == 0)
    ]


def _one_way(path: list[tuple[float, ...]]) -> None:
    """Check each measure goes one way along a path (no back and forth)."""
    for k in range(len(path[0])):
        steps = [b[k] - a[k] for a, b in pairwise(path)]
        assert all(d >= -1e-4 for d in steps) or all(d <= 1e-4 for d in steps), (k, path)


@pytest.mark.parametrize("case", sorted(CASES))
def test_e_recedes_as_float32_starts_and_comes_forward_as_the_lookup_starts(case: str) -> None:
    samples = _samples(case)
    shown = [(beat, step, time, e) for beat, step, time, e in samples if e is not None]
    assert len(shown) > 30, "E was sampled too rarely to tell"
    # Once drawn, E stays on screen to the end.
    assert samples[-1][3] is not None
    holds = [_held(shown, beats) for beats in (INTRO, RECEDED, ("lookup",))]
    for held, beats in zip(holds, (INTRO, RECEDED, ("lookup",)), strict=True):
        assert held, beats
        assert all(_same(e, held[0]) for e in held), ("E moved while it holds", beats, held)
    intro, receded, final = (held[0] for held in holds)
    # Smaller while the tables stand; larger again, with the copied row, at the lookup.
    assert receded[0] < intro[0] - 1e-3, (intro, receded)
    assert receded[4] < intro[4] - 1e-3, (intro, receded)
    # GPT-2's E comes forward a good step (18 px to about 22 px at 720p, the tables gone);
    # the toy's and the huge table's stand near their floors at home and recede little.
    assert final[4] >= receded[4] * GROWS.get(case, 1.0) - 1e-9, (receded, final)
    for change, (before, after) in zip(CHANGES, pairwise((intro, receded, final)), strict=False):
        during = [e for beat, step, _, e in shown if beat == change and step == 0]
        _one_way([before, *during, after])
