"""Keep a heading clear of the frame's right edge by the verdict's distance.

A 720p review of PositionBlindness (issue 18) saw the chips' heading ``token
IDs`` end on the safe margin, by the frame's edge from the back of a lecture
hall; the verdict's word keeps twice the margin
(:data:`~embedviz.render.solver_positions.VERDICT_EDGE`), and so does it.
"""

from __future__ import annotations

from manim import LEFT, Mobject, config

from embedviz.render.solver_positions import VERDICT_EDGE

__all__ = ["keep_off_edge", "right_edge"]


def keep_off_edge(mobject: Mobject, edge: float = VERDICT_EDGE) -> Mobject:
    """Shift ``mobject`` left, where it must, to end ``edge`` inside the frame's right edge.

    Parameters
    ----------
    mobject
        What is placed (a heading); shifted in place.
    edge
        How far from the frame's right edge its box may reach, in scene units.

    Returns
    -------
    Mobject
        ``mobject``.
    """
    over = float(mobject.get_right()[0]) - (float(config.frame_width) / 2 - edge)
    return mobject.shift(over * LEFT) if over > 0 else mobject


def right_edge() -> float:
    """Return the x a verdict's word keeps left of: :data:`VERDICT_EDGE` off the frame's edge."""
    return float(config.frame_width / 2 - VERDICT_EDGE)
