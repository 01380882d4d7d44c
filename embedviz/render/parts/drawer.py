"""The drawer's pace: a strip slides out of its row quickly, then eases into its output row.

A strip's numbers show only once they are clear of the row they leave (they
never cover it), and a strip's whole way is barely longer than its row (the
output block stands a walking column from the matrix). Eased in and out
along its whole way, a strip was still partly in its row until 54–70 % of
its travel (SequenceLookup, SingleTokenLookup): for the first part of the
motion a 720p review saw an empty box moving (issue 18). :func:`drawer_rate`
spends the first :data:`DRAWER_SHARE` of the carry on the slide out of the
row, and the rest on the short way home, slowing into the landing, so the
numbers are readable for most of the motion.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["DRAWER_SHARE", "SHOW_RAMP", "clear_distance", "drawer_pace", "drawer_rate"]

# The share of a carry's time in which its strip slides clear of its row.
DRAWER_SHARE = 0.35
# How far (scene units) a number is clear of the row it leaves when it has fully shown.
SHOW_RAMP = 0.06

# A box as (left, bottom, right, top).
Box = tuple[float, float, float, float]


def clear_distance(path: np.ndarray, source: Box, ramp: float, samples: int = 400) -> float:
    """Return how far along ``path`` a strip starting on ``source`` is first ``ramp`` clear of it.

    Parameters
    ----------
    path
        The strip's centre's points, from its place on ``source`` (whose
        centre is ``path[0]``) to its landing.
    source
        The row it leaves, as (left, bottom, right, top).
    ramp
        How far clear of the row a number must be to show in full.
    samples
        How many places along the path are tried (the answer is the first
        of them that is clear, so it errs on the far side).

    Returns
    -------
    float
        The distance along the path (its whole length when it never clears).
    """
    lengths = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(path, axis=0), axis=1))])
    total = float(lengths[-1])
    left, bottom, right, top = source
    for distance in np.linspace(0.0, total, samples + 1):
        leg = min(max(int(np.searchsorted(lengths, distance, side="right")) - 1, 0), len(path) - 2)
        span = lengths[leg + 1] - lengths[leg]
        along = 0.0 if span <= 0 else (distance - lengths[leg]) / span
        dx, dy = (path[leg] + (path[leg + 1] - path[leg]) * along - path[0])[:2]
        # Two boxes of one size, one shifted: apart by the larger shift less the box's size.
        gap = max(abs(float(dx)) - (right - left), abs(float(dy)) - (top - bottom))
        if gap >= ramp:
            return float(distance)
    return total


def drawer_pace(
    path: Sequence[np.ndarray], source: Box, share: float = DRAWER_SHARE
) -> Callable[[float], float]:
    """Return the pace of a strip along ``path`` off ``source``: clear of it at ``share``.

    Its chip's way home takes the same pace: riding at the strip's right end
    (:mod:`~embedviz.render.parts.ride`) it moves with it; leading, setting off
    first, it stays ahead of the strip that follows it (eased in and out, the
    chip was overtaken as the strip hurried out of its row).
    """
    points = np.asarray(path, dtype=float)
    total = float(np.sum(np.linalg.norm(np.diff(points, axis=0), axis=1)))
    if total <= 0:
        return drawer_rate(1.0, share)
    return drawer_rate(clear_distance(points, source, SHOW_RAMP) / total, share)


def drawer_rate(clear: float, share: float = DRAWER_SHARE) -> Callable[[float], float]:
    """Return a rate that reaches ``clear`` (a share of the way) at ``share`` of the time.

    A monotone piecewise cubic through (0, 0), (share, clear) and (1, 1): the
    strip starts at the pace of its slide out of the row (it was not drawn
    before, so no jolt shows), passes ``clear`` without a change of speed,
    and comes to rest as it lands. Where the slide is no longer than its share
    of the way, the usual ease in and out is kept (nothing to hurry).

    Parameters
    ----------
    clear
        The share of the way (0 to 1) at which the strip is clear of its row.
    share
        The share of the time by which it should be.

    Returns
    -------
    callable
        A function from 0–1 to 0–1, increasing.
    """
    from manim.utils.rate_functions import smooth

    if not 0.0 < share < 1.0 or not share < clear < 1.0:
        return smooth
    out = clear / share
    home = (1.0 - clear) / (1.0 - share)
    # The speed where the two meet: the harmonic mean of theirs (monotone, Fritsch–Carlson).
    meet = 2.0 * out * home / (out + home)

    def rate(t: float) -> float:
        t = min(max(t, 0.0), 1.0)
        if t <= share:
            return _hermite(t / share, 0.0, clear, out * share, meet * share)
        return _hermite((t - share) / (1.0 - share), clear, 1.0, meet * (1.0 - share), 0.0)

    return rate


def _hermite(u: float, start: float, end: float, slope_start: float, slope_end: float) -> float:
    """Return the cubic Hermite curve at ``u`` (0–1) from ``start`` to ``end`` with these slopes."""
    u2, u3 = u * u, u * u * u
    return (
        (2 * u3 - 3 * u2 + 1) * start
        + (u3 - 2 * u2 + u) * slope_start
        + (-2 * u3 + 3 * u2) * end
        + (u3 - u2) * slope_end
    )
