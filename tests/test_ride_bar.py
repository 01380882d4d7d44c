"""Beside a scroll bar a chip closes the bar's gap while its strip is hidden, then rides level.

LargeVocabLookup docks a chip at its row's right end past the scroll bar,
the bar's width further from the row than a chip docks without one. A 720p
review saw that chip lead its copy home; ridden with the bar's width kept, it
stood 29 px from its copy as the strip showed, and a chip whose way home was
shorter than its strip's drifted ahead of it on their one pace (session 25).

Sampled finely along both ways at one pace (the chip's way home from
:func:`~embedviz.render.parts.ride.ride_home`, the strip's from the plan),
for every output row and rows of E above, among and below them:

- from the moment the strip first shows (its right end
  :func:`~embedviz.render.parts.strip.emerge_air` past E's body) until it
  lands, the chip stands level with it and as far right of its right end as
  a chip docks from a row with no bar (TAG_GAP);
- the chip never covers the scroll bar's column;
- it sets off from its dock (``park_x``) and ends at its tag (``tag_x``).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.metrics import xyz
from embedviz.render.parts.ride import ride_home
from embedviz.render.parts.strip import emerge_air
from embedviz.render.solver import LookupPlan
from embedviz.render.solver_across import TAG_GAP
from embedviz.render.stages.large_vocab import large_vocab_spec, solve_large_vocab

SAMPLES = 4001


@functools.cache
def _plan() -> LookupPlan:
    board = prepared_storyboard("LargeVocabLookup", {}, environ={})
    return solve_large_vocab(large_vocab_spec(board))


def _at(points: np.ndarray, shares: np.ndarray) -> np.ndarray:
    """Return the points at these shares (0-1) of the way's length along ``points``."""
    lengths = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(points, axis=0), axis=1))])
    distances = shares * lengths[-1]
    return np.stack([np.interp(distances, lengths, points[:, k]) for k in range(3)], axis=1)


def _cases() -> list[tuple[float, float]]:
    plan = _plan()
    row_h = plan.sizes.row_height
    targets = [plan.output_row_y(t) for t in range(12)]
    sources = [plan.matrix_top - (k + 0.5) * row_h for k in range(0, 14, 3)]
    return [(s, t) for s in sources for t in targets]


def test_the_plan_has_a_scroll_bar() -> None:
    assert _plan().bar_width > 0, "no scroll bar: the checks below would test nothing of it"


def _off(plan: LookupPlan, width: float, source_y: float, target_y: float) -> tuple[int, list[str]]:
    """Return how many samples show the strip, and where its chip stands off it or on the bar."""
    half = plan.body_width / 2
    edge = plan.matrix_left + plan.body_width  # E's body's right edge
    park = xyz(plan.park_x(width), source_y)
    home = xyz(plan.tag_x(width), target_y)
    chip_way = np.asarray(ride_home(plan, park, target_y, home), dtype=float)
    assert np.allclose(chip_way[0], park)
    assert np.allclose(chip_way[-1], home)
    shares = np.linspace(0.0, 1.0, SAMPLES)
    start = xyz(plan.matrix_left + half, source_y)
    strip = _at(np.array([start, *plan.strip_path(source_y, target_y)]), shares)
    chip = _at(chip_way, shares)
    lefts = chip[:, 0] - width / 2
    where = f"row at {source_y:.2f} -> output row at {target_y:.2f}"
    off = []
    if lefts.min() < edge + plan.bar_width - 1e-9:
        off.append(f"{where}: covers the bar by {edge + plan.bar_width - lefts.min():.3f}")
    showing = strip[:, 0] + half > edge + emerge_air()
    gaps = lefts[showing] - (strip[showing, 0] + half)
    level = np.abs(chip[showing, 1] - strip[showing, 1])
    if showing.any() and (np.abs(gaps - TAG_GAP).max() > 1e-6 or level.max() > 1e-6):
        off.append(
            f"{where}: gap {gaps.min():.3f}-{gaps.max():.3f} (TAG_GAP {TAG_GAP:.3f}), "
            f"off level {level.max():.3f}; as it first shows {gaps[0]:.3f}"
        )
    return int(showing.sum()), off


@pytest.mark.parametrize("share", [1.0, 0.5])
def test_a_chip_rides_beside_its_strip_past_a_scroll_bar(share: float) -> None:
    plan = _plan()
    seen = [_off(plan, plan.chip_width * share, s, t) for s, t in _cases()]
    assert sum(n for n, _ in seen) > 0, "no strip was seen showing: the check would pass vacuously"
    off = [line for _, lines in seen for line in lines]
    assert not off, "chips off their strips:\n" + "\n".join(off[:20])
