"""Manim's box edges of a mobject, read in one pass over its points (issue 18: suite time).

``Mobject.get_left``, ``get_right`` and ``get_center`` (``get_critical_point``) gather
every family member's anchors into a Python list before taking a minimum and a
maximum; tests/carry_plays.py reads them at 2,001 alphas of every carry, and that
was most of a swept play's time. These functions take the same anchors (each cubic
curve's first and last point; a lone point as it is) with numpy slices: the minima
and maxima, and so every edge, are the same floats (tests/test_edges.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["LEFT", "ORIGIN", "RIGHT", "bounds", "centre", "critical", "gradient_ends", "left"]

LEFT = np.array([-1.0, 0.0, 0.0])
RIGHT = np.array([1.0, 0.0, 0.0])
ORIGIN = np.zeros(3)
_AXES = (RIGHT, np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0]))

Bounds = tuple[np.ndarray, np.ndarray] | None


def _anchors(member: Any) -> np.ndarray:
    """Return ``member.get_anchors()`` as one array, in any order."""
    points = member.points
    if len(points) <= 1:
        return np.asarray(points)
    step = member.n_points_per_cubic_curve
    return np.concatenate([points[::step], points[step - 1 :: step]])


def bounds(mobject: Any) -> Bounds:
    """Return the least and greatest of ``mobject``'s anchors per axis (None: no points).

    The anchors are those of ``VMobject.get_points_defining_boundary``.
    """
    family = [m for m in mobject.get_family() if len(m.points)]
    if not family:
        return None
    step = family[0].n_points_per_cubic_curve
    members = [m.points for m in family]
    if all(m.n_points_per_cubic_curve == step and len(m.points) % step == 0 for m in family):
        # Every member whole curves: their anchors stay every step-th point of them all.
        points = np.concatenate(members)
        anchors = np.concatenate([points[::step], points[step - 1 :: step]])
    else:
        anchors = np.concatenate([_anchors(m) for m in family])
    return anchors.min(axis=0), anchors.max(axis=0)


def critical(found: Bounds, direction: np.ndarray) -> np.ndarray:
    """Return ``get_critical_point(direction)`` of a mobject whose :func:`bounds` are ``found``."""
    if found is None:
        return np.zeros(3)
    low, high = found
    middle = (low + high) / 2
    return np.where(direction < 0, low, np.where(direction > 0, high, middle))


def left(mobject: Any) -> float:
    """Return ``mobject.get_left()[0]``."""
    return float(critical(bounds(mobject), LEFT)[0])


def centre(mobject: Any) -> np.ndarray:
    """Return ``mobject.get_center()``."""
    return critical(bounds(mobject), ORIGIN)


def gradient_ends(mobject: Any) -> tuple[np.ndarray, np.ndarray]:
    """Return ``mobject.get_gradient_start_and_end_points()`` (a flat VMobject's).

    Manim's own arithmetic: the centre, less and plus the edge centres' offsets
    from it along the sheen direction.
    """
    if mobject.shade_in_3d:
        ends: tuple[np.ndarray, np.ndarray] = mobject.get_gradient_start_and_end_points()
        return ends
    found = bounds(mobject)
    c = critical(found, ORIGIN)
    bases = np.array([critical(found, axis) - c for axis in _AXES]).transpose()
    offset = np.dot(bases, mobject.get_sheen_direction())
    return c - offset, c + offset
