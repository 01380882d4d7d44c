"""Rounded boxes (chips, their places, tag places), copied from one built per size.

manim builds a :class:`~manim.RoundedRectangle` by rounding a rectangle's
corners with arcs, about 3 ms each; a stage draws a chip, its place and its
tag's place per ID, and a batch stage builds them again while it weighs where
the block stands. A copy of an untouched box of the same size has the very
same points (0.04 ms).
"""

from __future__ import annotations

from functools import lru_cache

from manim import RoundedRectangle

__all__ = ["rounded_box"]


@lru_cache(maxsize=1024)
def _template(width: float, height: float, radius: float) -> RoundedRectangle:
    """Return the box built once for this size (never handed out, so never changed)."""
    return RoundedRectangle(corner_radius=radius, width=width, height=height)


def rounded_box(width: float, height: float, radius: float) -> RoundedRectangle:
    """Return a new rounded box, as ``RoundedRectangle(corner_radius=radius, ...)`` builds it.

    Parameters
    ----------
    width, height
        Its size (scene units).
    radius
        Its corners' radius.

    Returns
    -------
    RoundedRectangle
        A box of its own, at the origin, in manim's default style.
    """
    return _template(float(width), float(height), float(radius)).copy()
