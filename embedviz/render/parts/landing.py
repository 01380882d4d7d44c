"""A short carry whose chip leads: it turns level with its output row early, and slows in.

A strip whose chip leads it home (a slip's, a scatter's, OneHotEquivalence's
compare) shows its numbers only level with its own rows
(:func:`~embedviz.render.parts.strip.stretch_fade`): coming up or down a
column into its output row, that is the last half row of its way. Eased in
and out, a carry of 0.3 s (a scatter's, squeezed into its beat) spent 0.03
to 0.07 s there, so its numbers faded in over one or two frames: they popped
on (issue 18, a lecture-hall review). :func:`landing_pace` brings the strip
level with its output row by :data:`LANDING_SHARE` of its run and spends the
rest slowing into its place; :func:`landing_carry` also floors the carry at
:data:`LANDING_SECONDS` (:func:`~embedviz.render.pace.at_least`), into the
beat's hold, so the numbers fade in over :data:`~embedviz.render.parts.strip.NUMBERS_FADE_SECONDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from embedviz.render.design import Theme
from embedviz.render.glyphs import NumberText
from embedviz.render.pace import at_least
from embedviz.render.parts.chips import Chip
from embedviz.render.parts.drawer import SHOW_RAMP, drawer_rate
from embedviz.render.parts.grid import CellGrid
from embedviz.render.parts.strip import (
    FADE_OF_RIDE,
    NUMBERS_FADE_SECONDS,
    Carry,
    body_box,
    emerge_air,
)
from embedviz.story.model import NumberCell

__all__ = [
    "LANDING_SECONDS",
    "LANDING_SHARE",
    "landing_carry",
    "landing_pace",
    "level_distance",
    "out_distance",
]

# The share of its run by which the strip is level with its output row.
LANDING_SHARE = 0.4
# The least seconds such a carry lasts: its numbers fade in over at most FADE_OF_RIDE of the
# rest (NUMBERS_FADE_SECONDS of it), with a frame or two to spare for where they start to show.
LANDING_SECONDS = 1.2 * NUMBERS_FADE_SECONDS / (FADE_OF_RIDE * (1 - LANDING_SHARE))


def level_distance(path: np.ndarray, half: float, samples: int = 400) -> float:
    """Return how far along ``path`` its point is level (within ``half``) with its end from then on.

    Examples
    --------
    >>> path = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [3.0, 1.0, 0.0]])  # 4 long
    >>> round(level_distance(path, 0.25), 2)
    3.76
    """
    lengths = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(path, axis=0), axis=1))])
    total, line = float(lengths[-1]), float(path[-1][1])
    level = total
    for distance in np.linspace(total, 0.0, samples + 1):
        leg = min(max(int(np.searchsorted(lengths, distance, side="right")) - 1, 0), len(path) - 2)
        span = lengths[leg + 1] - lengths[leg]
        along = 0.0 if span <= 0 else (distance - lengths[leg]) / span
        y = float(path[leg][1] + (path[leg + 1][1] - path[leg][1]) * along)
        if abs(y - line) >= half:
            break
        level = float(distance)
    return level


def out_distance(path: np.ndarray, left: float, edge: float, samples: int = 400) -> float:
    """Return how far along ``path`` a strip whose left end is at ``left`` first passes ``edge``.

    (``path``: its centre's points; its whole length when it never does.)

    Examples
    --------
    >>> path = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [3.0, 1.0, 0.0]])
    >>> round(out_distance(path, -1.0, 1.0), 2)
    2.0
    """
    lengths = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(path, axis=0), axis=1))])
    total = float(lengths[-1])
    for distance in np.linspace(0.0, total, samples + 1):
        leg = min(max(int(np.searchsorted(lengths, distance, side="right")) - 1, 0), len(path) - 2)
        span = lengths[leg + 1] - lengths[leg]
        along = 0.0 if span <= 0 else (distance - lengths[leg]) / span
        x = float(path[leg][0] + (path[leg + 1][0] - path[leg][0]) * along)
        if left + x - float(path[0][0]) >= edge - 1e-9:
            return float(distance)
    return total


def landing_pace(
    grid: CellGrid, row: int, waypoints: Sequence[np.ndarray], share: float = LANDING_SHARE
) -> Callable[[float], float]:
    """Return the pace of row ``row``'s strip along ``waypoints``: where it shows by ``share``.

    Its numbers may show once it is out of the matrix (past its edge, the
    strip's air and :data:`~embedviz.render.parts.drawer.SHOW_RAMP`) and level
    with its output row (a quarter of a row's height inside the half row
    where they may): the pace reaches the later of the two at ``share`` of
    its run, then slows into the landing. Where it is there early enough
    already, the usual ease in and out.
    """
    left, bottom, right, top = grid.row_box(row, buff=0.0)
    start = np.array([(left + right) / 2, (bottom + top) / 2, 0.0])
    path = np.array([start, *[np.asarray(p, dtype=float) for p in waypoints]])
    total = float(np.sum(np.linalg.norm(np.diff(path, axis=0), axis=1)))
    if total <= 0:
        return drawer_rate(1.0, share)
    edge = body_box(grid)[2] + emerge_air() + SHOW_RAMP
    shows = max(level_distance(path, (top - bottom) / 4), out_distance(path, left, edge))
    return drawer_rate(shows / total, share)


def landing_carry(
    grid: CellGrid,
    row: int,
    chip: Chip | None,
    tag: NumberCell | None,
    targets: Sequence[NumberText],
    waypoints: Sequence[np.ndarray],
    theme: Theme,
    kind: type[Carry] = Carry,
    **kwargs: Any,
) -> Carry:
    """Return a :class:`Carry` (or a ``kind`` of one) on :func:`landing_pace`.

    It lasts at least :data:`LANDING_SECONDS`.
    """
    pace = landing_pace(grid, row, waypoints)
    carry = kind(grid, row, chip, tag, targets, waypoints, theme, pace=pace, **kwargs)
    at_least(carry, LANDING_SECONDS)
    return carry
