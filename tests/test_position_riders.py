"""PositionBlindness's ``arrange``: what comes with the travelling rows stands where it stays.

A 720p review of ``--positions learned`` (issue 18, about 23.9 s) saw labels fade
in at temporary places, then move to where they belong: the rows' heading
``token vector E[id]`` and their ``pos`` heading, and P's empty block with its
heading, rode with the travelling block's centre while the block changed shape
(the lookup's output block, 5.0 x 2.7 units, becomes E[id]'s, 5.7 x 2.0). The
heading stood 0.30 units over the block's top as it began to show, 0.60 once
landed; ``pos`` stood 0.31 units lower than its column's top and 0.29 units right.

Each rider, while drawn at all, keeps the offset it ends with from the point of
the block it belongs to: the heading from the block's top-left corner, ``pos``
from its column's first number, P's block and heading from that column too (P
stands right of the positions). P's block, opening out from the safe area's
edge, is read by its near (left) side; its heading comes whole, where it stays
beside that side.

Dry-run, sampled at every twenty-fourth of the beat's first step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from drawn import drawn_opacity, on_screen

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

PX = 720 / 8.0  # pixels a scene unit at 720p
# Off by more than this many pixels from where it stays beside its point of the block.
OFF_PX = 2.0
# Drawn at all: over a hundredth of its opacity.
SHOWN = 0.01
UL = np.array([-1.0, 1.0, 0.0])

CASES = {
    "learned": {"positions": "learned"},
    "sinusoidal": {},
    "light": {"theme": "light"},
}


def _riders(stage: Any) -> dict[str, Any]:
    blocks = stage.blocks
    return {
        "token heading": stage.tokens.heading,
        "pos heading": stage.tokens.pos_heading,
        "P heading": blocks.pe_heading,
        "P block": blocks.pe_grid,
    }


def _offsets(stage: Any, moving: bool) -> dict[str, np.ndarray]:
    """Each rider's top-left corner's offset from its point of the block."""
    grid = stage.output.grid if moving else stage.tokens.grid
    first = (stage.output.numbers if moving else stage.tokens.numbers)[0]
    corner, column = grid.get_corner(UL), first.get_corner(UL)
    points = {"token heading": corner, "pos heading": column, "P heading": column}
    return {name: m.get_corner(UL) - points.get(name, column) for name, m in _riders(stage).items()}


def _read(overrides: dict[str, Any]) -> tuple[list[tuple[float, str, float, np.ndarray]], Any]:
    board = prepared_storyboard("PositionBlindness", overrides, environ={})
    seen: list[tuple[float, str, float, np.ndarray]] = []
    final: dict[str, np.ndarray] = {}

    def read(scene: Any, moment: Any) -> None:
        stage = scene.stage
        if moment.alpha >= 1.0:
            final.update(_offsets(stage, False))
            return
        if moment.step != 0:
            return
        shown, mobjects = on_screen(scene), _riders(stage)
        for name, offset in _offsets(stage, True).items():
            seen.append((moment.time, name, drawn_opacity(mobjects[name], shown), offset))

    alphas = tuple(k / 24 for k in range(1, 24))
    play_moments(board, read, alphas=alphas, pixel_width=256, pixel_height=144, beats={"arrange"})
    return seen, final


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_what_rides_in_with_the_rows_shows_only_where_it_stays(case: str) -> None:
    seen, final = _read(CASES[case])
    assert final, "the arrange beat's end was not read"
    shown = [s for s in seen if s[2] > SHOWN]
    assert {s[1] for s in shown} == set(final), "a rider never showed in the first step"
    problems = sorted(
        {
            f"{name} at {time:.2f} s (opacity {opacity:.2f}): {distance:.1f} px off"
            for time, name, opacity, offset in shown
            if (distance := float(np.hypot(*(offset - final[name])[:2])) * PX) > OFF_PX
        }
    )
    assert not problems, "\n".join(problems)
