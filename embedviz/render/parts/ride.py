"""A chip rides home with the row it fetched: at its strip's right end, from its row to its tag.

One ID, one object, one place: a chip walks to its row of E and docks at
its right end; the row lifts off as a strip, and the chip rides at the
strip's right end, as far from it as it docked, until the strip lands in its
output row and the chip stands there as its tag. So from its row to its tag
the chip stands against the row it fetched, and one glance reads the two
together (a 720p review of SequenceLookup's lookup-0 caught the chip leading
its copy home by up to 140 px, alone in its output row, where it read as
waiting beside nothing).

Beside (see :mod:`~embedviz.render.solver`) the strip rises beside the
output block's still-empty rows, its right end a walking column's width short
of the block's; it turns by at most
:data:`~embedviz.render.solver_across.RIDE_TURN`, so the chip riding there
passes the chips waiting in the tags' column at least a TAG_GAP clear. Where it cannot ride:

- in the corridor, the strip runs along the output block's side (its right
  end a TAG_GAP short of the block), so a chip at its right end would cross
  the landed rows' numbers;
- beside a scroll bar (LargeVocabLookup), the chip docks the bar's width
  further from its row than from the strip once it has cleared the bar, and
  riding there it would cross the tags' column.

There the chip leads its strip home by the way it walked, and the strip
follows it (:data:`~embedviz.render.parts.schedule.STRIP_LAG`).
"""

from __future__ import annotations

import numpy as np

from embedviz.render.metrics import xyz
from embedviz.render.solver import LookupPlan

__all__ = ["ride_home", "rides"]


def rides(plan: LookupPlan) -> bool:
    """Return whether a chip rides home at its strip's right end in this plan (see above)."""
    return plan.mode != "corridor" and plan.bar_width <= 0


def ride_home(plan: LookupPlan, park: np.ndarray, target_y: float, home: np.ndarray) -> np.ndarray:
    """Return a chip's way home riding its strip: the strip's way, moved by where the chip docked.

    Parameters
    ----------
    plan
        The plan (its :meth:`~embedviz.render.solver.LookupPlan.strip_path`).
    park
        Where the chip docked, at its row's right end (the strip sets off from
        its row's centre there, at the same height).
    target_y
        The output row's centre line, where the strip lands.
    home
        The chip's place as the row's tag (where the strip's landing puts it).

    Returns
    -------
    numpy.ndarray
        Points from ``park`` to ``home``, each the strip's centre at that
        point of its way plus one fixed offset: the chip moves as the strip
        does (both go along their ways at one pace), never nearer nor further.
    """
    source_y = float(park[1])
    ahead = park - xyz(plan.matrix_left + plan.body_width / 2, source_y)
    ride = [point + ahead for point in plan.strip_path(source_y, target_y)]
    return np.array([park, *ride, home])
