"""Rows looser than the solver's usual ceiling, to fill a band left under the title.

A scene that opts in (:attr:`~embedviz.render.spec.LookupSpec.fill_height`, e.g.
PositionBlindness at GPT-2 size, where three columns bind the width) may grow its
rows past :data:`~embedviz.render.solver.MAX_PITCH`, up to :data:`FILL_PITCH`, only
as far as the band between the title and the matrix's heading needs to come
under the empty-area rule. The solver passes its own measuring function in, so
this module does not import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from embedviz.render.metrics import digit_height
from embedviz.render.space import EMPTY_SHARE

if TYPE_CHECKING:
    from embedviz.render.solver import LookupPlan

PlanT = TypeVar("PlanT")

__all__ = ["FILL_AIM", "FILL_PITCH", "filled_pitch", "title_band_share"]

# With ``fill_height``, rows grow up to this pitch (in digit heights).
FILL_PITCH = 3.0
# The pitch grows in these steps.
PITCH_STEP = 0.02
# A band is aimed at this share of the empty-area rule: the heading's and the title's boxes
# are a little taller than their glyphs.
FILL_AIM = 0.9


def filled_pitch(
    measure: Callable[[float], tuple[PlanT, list[str]]],
    pitch: float,
    emptiest: Callable[[PlanT], float],
) -> float:
    """Return the pitch past ``pitch`` that leaves no band the rule measures over an eighth.

    Parameters
    ----------
    measure
        The solver's plan for a pitch, with the problems that rule it out.
    pitch
        The loosest pitch the solver's usual search reached.
    emptiest
        The share of the frame a plan's emptiest band takes (the lookup's:
        :func:`title_band_share`).

    Returns
    -------
    float
        The first pitch whose band is under the rule (at :data:`FILL_AIM` of
        it), or the loosest that fits, up to :data:`FILL_PITCH`.
    """
    best = pitch
    for k in range(round((FILL_PITCH - pitch) / PITCH_STEP) + 1):
        trial = pitch + k * PITCH_STEP
        plan, problems = measure(trial)
        if problems:
            break
        best = trial
        if emptiest(plan) <= FILL_AIM * EMPTY_SHARE:
            break
    return best


def title_band_share(plan: LookupPlan) -> float:
    """Return a lookup plan's band from the title's bottom to the heading's top, as a frame share.

    The band runs across the frame, so its height's share of the frame's is its area's.
    """
    from manim import config

    title_bottom = plan.title_y - digit_height(plan.title_font) / 2
    heading_top = plan.heading_y + digit_height(plan.scale.label) / 2
    return float(title_bottom - heading_top) / float(config.frame_height)
