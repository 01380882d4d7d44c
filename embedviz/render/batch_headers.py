"""The slices' header band in the batch layout: its clear ground, and where it stays short.

A 720p review saw, in a band 1.6 digits tall, "slice 0" 3 px over its slice
and "slice 1" squeezed between two (5 px under one, 3 px over the other).
Each header now has :data:`HEADER_CLEAR` over and under its ink. The taller
band makes the stack taller too: where that costs the table's numbers their
floor, the headers keep the old band (:func:`keep_floor`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from embedviz.render.design import MIN_DATA_PX, MIN_DEFAULT_DATA_PX, SPACE, px_for_font
from embedviz.render.metrics import digit_height

if TYPE_CHECKING:
    from embedviz.render.batch_plan import BatchPlan, BatchSpec

__all__ = ["HEADER_CLEAR", "OLD_BAND", "header_height", "keep_floor"]

# The clear ground over and under a slice's header (13 px at 720p, 12 past the border's
# stroke).
HEADER_CLEAR = 1.2 * SPACE
# The old header band, in digit heights (and the headings' band over E and the slices).
OLD_BAND = 1.6
# A header's ink: a digit's height and its ascenders, in digit heights.
HEADER_INK = 1.03


def header_height(spec: BatchSpec, label: float) -> float:
    """Return the height of a slice's header band at the label font size ``label``.

    Four or more slices keep the old band: with the taller one the 4 x 2
    pairs' stack spread down the frame and lost its upright legend (left for
    a later change); so does a spec without ``header_clear`` (:func:`keep_floor`).
    """
    if spec.header_clear and spec.batch <= 3:
        return digit_height(label) * HEADER_INK + 2 * HEADER_CLEAR
    return digit_height(label) * OLD_BAND


def keep_floor(solve: Callable[[BatchSpec], BatchPlan], spec: BatchSpec) -> BatchPlan:
    """Return ``solve``'s plan with the taller header band, or the old band's where needed.

    The old band wins where it keeps the numbers over a floor (18 or 24 px at
    720p) that the taller one does not.
    The 3 x 6 batch, bound by the height, drew its numbers at 15.4 px with the
    taller band (the floor for real-sized tables is 18 px), 18.1 px with the old.
    """
    plan = solve(spec)
    px = px_for_font(plan.scale.data)
    if not spec.header_clear or px >= MIN_DEFAULT_DATA_PX - 1e-6:
        return plan
    old = solve(replace(spec, header_clear=False))
    old_px = px_for_font(old.scale.data)
    costs = any(px < floor - 1e-6 <= old_px for floor in (MIN_DATA_PX, MIN_DEFAULT_DATA_PX))
    return old if costs else plan
