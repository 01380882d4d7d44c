"""Word pieces a lecture hall reads: the lookup solver sets them at :data:`MIN_PIECE_PX`.

A real model's sentence shows each token's piece beside its chip. At the
labels' share (:data:`~embedviz.render.parts.chips.PIECE_RATIO`) a frame
bound by its width sets them at the 12 px floor (MiniLM's 12 tokens in
SequenceLookup: the corridor, a strip wide, and the output's columns take
the width). :func:`lecture_pieces` solves the frame again with the pieces'
floor at :data:`MIN_PIECE_PX` (or, where that does not keep them, as near
it as does) and keeps that plan where its table numbers stay over every
floor the first plan's reach (:data:`MIN_DATA_PX`, and
:data:`MIN_DEFAULT_DATA_PX` for a frame that reached it): the wider pieces'
column costs the numbers a little (MiniLM: 18.6 to 18.1 px), never a floor.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol, TypeVar

from embedviz.render.design import (
    MIN_DATA_PX,
    MIN_DEFAULT_DATA_PX,
    MIN_PIECE_PX,
    TypeScale,
    font_for_px,
    px_for_font,
)
from embedviz.render.parts.chips import piece_font
from embedviz.render.spec import LookupSpec

__all__ = ["PIECE_STEP_PX", "lecture_pieces"]

# Where the pieces cannot reach MIN_PIECE_PX, they are tried this much smaller, in turn
# (MiniLM's "The movie was not bad at all, ...": 16 px takes the numbers to 17.4 px,
# 15 px keeps 18.0); each try is one more solve.
PIECE_STEP_PX = 1.0


class _Scaled(Protocol):
    @property
    def scale(self) -> TypeScale: ...


Plan = TypeVar("Plan", bound=_Scaled)


def lecture_pieces(spec: LookupSpec, solve: Callable[[LookupSpec], Plan]) -> Plan:
    """Return ``solve(spec)``, or the plan with pieces at :data:`MIN_PIECE_PX` if that keeps floors.

    Parameters
    ----------
    spec
        What the frame holds; its chips' pieces ("" for none).
    solve
        The solver, from a spec to a plan with a type scale.

    Returns
    -------
    Plan
        The plan whose pieces are at least :data:`MIN_PIECE_PX` tall, where
        its table numbers stay at or over each floor the plan without that
        reaches; else with them as near that as keeps those floors (a
        :data:`PIECE_STEP_PX` at a time); else the plan without a floor for them.
    """
    plan = solve(spec)
    if not any(piece for _, piece in spec.chips):
        return plan
    least = px_for_font(piece_font(plan.scale))
    floors = [font_for_px(px) for px in (MIN_DATA_PX, MIN_DEFAULT_DATA_PX)]
    kept = max([floor for floor in floors if floor <= plan.scale.data], default=0.0)
    if not kept:
        return plan
    # From the lecture size down, a pixel at a time, while over the pieces' size as it is.
    px = MIN_PIECE_PX
    while px > least + PIECE_STEP_PX / 2:
        raised = solve(replace(spec, piece_px=px))
        if raised.scale.data >= kept:
            return raised
        px -= PIECE_STEP_PX
    return plan
