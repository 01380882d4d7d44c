"""BatchLookup's leaders stand clear of E's right edge beside its rows (issue 18).

A teacher's review of 720p frames (GPT-2's batch, from the repeats beat, 74.6 s,
to the end) read the upper leader, climbing about 15 px right of E's edge and
running into slice 1's row 2 level with E's row 2, as "E's row 2 goes to
out[1,2]", which is false. No leader may run within a row's height of E's
right edge beside E's rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_batch_repeats import GPT2, PX, _leaders

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import SPACE
from embedviz.render.parts.mark_under import LEADER_GAP, LEADER_WIDTH, lane_spots

BEATS = ("repeats", "shape")
_SEEN: dict[str, dict[str, dict[str, Any]]] = {}


def _beat_ends(overrides: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Play the scene dry; read the stage and what is drawn at the end of each of BEATS."""
    from embedviz.render.moments import play_moments

    key = repr(sorted(overrides.items()))
    if key not in _SEEN:
        board = prepared_storyboard("BatchLookup", overrides, environ={})
        seen: dict[str, dict[str, Any]] = {}

        def read(scene: Any, moment: Any) -> None:
            if moment.beat.name in BEATS and moment.alpha == 1.0:
                drawn = [m for top in scene.mobjects for m in top.get_family()]
                seen[moment.beat.name] = {"stage": scene.stage, "drawn": drawn}

        play_moments(board, read, alphas=())
        _SEEN[key] = seen
    return _SEEN[key]


def _nearest_beside(runs: list[np.ndarray], low: float, high: float) -> float:
    """Return the least x of the ink of the runs' parts that stand between heights low and
    high: a level run's end as drawn (it reaches half its stroke past its corner), an
    upright's x less half its stroke."""
    xs = []
    for (x0, y0), (x1, y1) in runs:
        if max(y0, y1) < low or min(y0, y1) > high:
            continue
        if abs(y1 - y0) < 1e-9:
            xs.append(min(x0, x1))
        else:  # an upright (or slanted) run: its x where it stands in the band
            for y in (max(min(y0, y1), low), min(max(y0, y1), high)):
                xs.append(x0 + (x1 - x0) * (y - y0) / (y1 - y0) - LEADER_WIDTH / 200)
    return min(xs, default=float("inf"))


@pytest.mark.parametrize(
    "overrides",
    [
        GPT2,
        {},
    ],
)
@pytest.mark.parametrize("beat", BEATS)
def test_no_leader_runs_hugging_es_right_edge(overrides: dict[str, Any], beat: str) -> None:
    """Beside E's rows (between its cells' bottom and top), every leader's ink stands at
    least a row's height right of E's right edge, so that no run reads as leaving an E
    row (on main, GPT-2: 20.0 px, its row 27.1 px tall; the default batch: 5.4 px, 35.6)."""
    seen = _beat_ends(overrides)[beat]
    stage = seen["stage"]
    grid = stage.matrix.grid
    edge = float(grid.get_right()[0])
    low, high = float(grid.get_bottom()[1]), float(grid.body_top())
    row = stage.plan.sizes.row_height
    leaders = _leaders(seen)
    assert len(leaders) >= 2
    for text, runs in leaders.items():
        near = _nearest_beside(runs, low, high) - edge
        assert near >= row - 1e-6, (text, beat, round(near * PX, 1), round(row * PX, 1))


def test_lane_spots_stand_in_the_gaps_right_part_where_they_fit() -> None:
    """Beside E: in the gap's right half where they fit there; else packed against the
    slices where the nearest keeps a row's height from E; else centred, as before."""
    apart = LEADER_GAP + LEADER_WIDTH / 200
    edge, row = 0.0, 3 * SPACE
    for gap in (2.0, 1.05, 0.62):
        end = edge + gap
        span = (edge + SPACE, end - SPACE)
        beside = lane_spots(2, span, (edge, end, row))
        away = lane_spots(2, span)
        assert beside is not None
        assert away is not None
        assert beside[1] - beside[0] >= apart - 1e-9
        assert span[0] - 1e-9 <= beside[0]
        assert beside[1] <= span[1] + 1e-9
        if gap >= 2 * (SPACE + apart):  # room for both in the right half
            assert beside[0] >= edge + gap / 2
        elif span[1] - apart >= edge + row + LEADER_WIDTH / 200:
            assert beside[0] - LEADER_WIDTH / 200 >= edge + row - 1e-9
        else:  # too narrow: the old centred placement
            assert beside == away
        assert beside[0] >= away[0] - 1e-9  # never nearer E than before
