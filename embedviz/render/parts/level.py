"""Whether a strip slides over the output block's columns at its row's height before it turns.

Beside the matrix a strip slides out of its row until it is clear of the
matrix, then turns up or down toward its output row (:func:`~embedviz.render.
routes.rising_route`). Where the corridor between the blocks is narrower than
a strip (GPT-2's layout), the strip's right end is over the block's columns
before it turns: level with whichever output row stands at its row's height.
There the block must stand where no output row but the strip's own is level
with it (:func:`~embedviz.render.routes.clear_order`'s ``over``).
"""

from __future__ import annotations

from embedviz.render.solver import LookupPlan
from embedviz.render.solver_across import RIDE_TURN

__all__ = ["strips_over"]


def strips_over(plan: LookupPlan) -> bool:
    """Whether the plan's strips reach over the output block's columns before they turn.

    A strip turns as its left end leaves the matrix (the walking column's
    left edge) and rounds that turn over :data:`RIDE_TURN` (at most half a
    row) further: over the block if its right end reaches the block's left
    edge by then. Never in the corridor arrangement (its strips go down the
    corridor and into their rows from the left).
    """
    if plan.mode == "corridor":
        return False
    turn = min(plan.sizes.row_height / 2, RIDE_TURN)
    return plan.column_left + plan.body_width + turn > plan.output_left + 1e-6
