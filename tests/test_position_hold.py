"""PositionBlindness's output block holds one place, width and row height while its rows fill in.

A teacher's 720p review of PositionBlindness (issue 18; ``{"positions":
"learned"}``, the lookup the same as the default's) found the output box
changing place during the ``lookup`` beat (7.7 to 14.2 s): it glided down for
the first strip to slide level into row 0, up to where the other three had a
clear path, and home, three glides in six seconds. It now stands where every
path is clear from the intro on, and glides home once, after the last row has
landed.

The beat is dry-run and sampled at every thirtieth of each step. Read from the
output grid as drawn: its body's edges and the pitch of its row centre lines;
read from the strips: when the first sets off and when the last lands.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

ALPHAS = tuple(k / 30 for k in range(31))
PX = 1280 / (8.0 * 16 / 9)  # pixels a scene unit at 720p
CASES: dict[str, dict[str, Any]] = {
    "learned": {"positions": "learned"},
    "sinusoidal": {},
    "light": {"theme": "light"},
}

# (time, body left, right, top, bottom, row pitch, strips travelling)
Sample = tuple[float, float, float, float, float, float, int]


def _read(scene: MomentScene, moment: Any, found: list[Sample]) -> None:
    if moment.beat.action != "lookup_all":
        return
    motion: Any = scene.stage.motion
    grid = motion.output.grid
    body = grid.body
    rows = [float(grid.row_y(r)) for r in grid.get_rows()]
    pitch = (rows[0] - rows[-1]) / (len(rows) - 1)
    on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
    moving = sum(1 for c in motion.carries if not c.landed and id(c.strip) in on_screen)
    box = (body.get_left()[0], body.get_right()[0], body.get_top()[1], body.get_bottom()[1])
    found.append((moment.time, *(float(v) for v in box), pitch, moving))


@functools.cache
def _samples(case: str) -> tuple[Sample, ...]:
    board = prepared_storyboard("PositionBlindness", CASES[case], environ={})
    found: list[Sample] = []
    beats = {b.name for b in board.beats if b.action == "lookup_all"}
    play_moments(
        board,
        lambda s, m: _read(s, m, found),
        alphas=ALPHAS,
        pixel_width=192,
        pixel_height=108,
        beats=beats,
    )
    return tuple(sorted(found))


def _changes(samples: tuple[Sample, ...]) -> list[tuple[float, str]]:
    """Return each moment the block's place, width or row pitch differs from the one before."""
    names = ("left", "right", "top", "bottom", "row pitch")
    changed = []
    for before, now in itertools.pairwise(samples):
        moved = [
            n for n, a, b in zip(names, before[1:6], now[1:6], strict=True) if abs(a - b) * PX > 0.5
        ]
        if moved:
            changed.append((now[0], ", ".join(moved)))
    return changed


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_the_block_holds_still_while_its_rows_fill_in(case: str) -> None:
    samples = _samples(case)
    travelling = [k for k, s in enumerate(samples) if s[6]]
    assert len(travelling) > 10, "no strip was sampled on its way"
    first, last = travelling[0], travelling[-1]
    # From the moment the first strip is on its way to the moment the last has landed.
    held = _changes(samples[first : last + 2])
    assert not held, [(round(t, 2), what) for t, what in held]
    # Before it, the block stands where it stood at the beat's start; after, one glide home.
    assert not _changes(samples[: first + 1]), "the block moved before the first strip set off"
    after = _changes(samples[last + 1 :])
    runs = [t for k, (t, _) in enumerate(after) if k == 0 or after[k - 1][0] < t - 0.2]
    assert len(runs) <= 1, [round(t, 2) for t in runs]


def test_the_change_reader_can_fail() -> None:
    """A still block has no change; a glide and a new row pitch are read."""
    still: Sample = (0.0, -0.3, 5.3, 2.7, 0.0, 0.69, 1)
    assert _changes((still, (0.1, *still[1:]))) == []
    glided = (0.2, -0.3, 5.3, 2.5, -0.2, 0.69, 1)
    squeezed = (0.3, -0.3, 5.3, 2.5, -0.2, 0.6, 1)
    assert _changes((still, glided, squeezed)) == [(0.2, "top, bottom"), (0.3, "row pitch")]
