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
from typing import TYPE_CHECKING

from embedviz.render.metrics import digit_height
from embedviz.render.space import EMPTY_SHARE

if TYPE_CHECKING:
    from embedviz.render.solver import LookupPlan

__all__ = ["FILL_AIM", "FILL_PITCH", "filled_pitch"]

# With ``fill_height``, rows grow up to this pitch (in digit heights).
FILL_PITCH = 3.0
# The pitch grows in these steps.
PITCH_STEP = 0.02
# A band is aimed at this share of the empty-area rule: the heading's and the title's boxes
# are a little taller than their glyphs.
FILL_AIM = 0.9


def filled_pitch(
    measure: Callable[[float], tuple[LookupPlan, list[str]]],
    pitch: float,
) -> float:
    """Return the pitch past ``pitch`` that leaves no band under the title over an eighth.

    Parameters
    ----------
    measure
        The solver's plan for a pitch, with the problems that rule it out.
    pitch
        The loosest pitch the solver's usual search reached.

    Returns
    -------
    float
        The first pitch whose band (the title's bottom to the heading's top)
        is under the rule, or the loosest that fits, up to :data:`FILL_PITCH`.
    """
    from manim import config

    limit = FILL_AIM * EMPTY_SHARE * float(config.frame_height)
    best = pitch
    for k in range(round((FILL_PITCH - pitch) / PITCH_STEP) + 1):
        trial = pitch + k * PITCH_STEP
        plan, problems = measure(trial)
        if problems:
            break
        best = trial
        title_bottom = plan.title_y - digit_height(plan.title_font) / 2
        heading_top = plan.heading_y + digit_height(plan.scale.label) / 2
        if title_bottom - heading_top <= limit:
            break
    return best
