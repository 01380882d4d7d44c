"""E's cells rolling over to their new values (TrainingNudge's ``update``), never blank.

A cell's old number hands over to its new one in place, as on a counter: the old
one drifts up a little, and at the middle of the roll (:data:`HANDOVER`) the new
one takes its place from a little below and rises to the cell's centre. One of
them is drawn, in full, at every moment, and never both.

A 720p review (GPT-2 size, ``update`` mid) found one of each row's two shown
cells blank for a moment: the old number faded up and out before the new one
faded in. A crossfade does not mend it: half-faded, a value colour is no longer
4.5:1 against the cells' fill (a full blue or red keeps about 5:1 only in full),
so wherever neither is near full there is no readable number, and wherever both
are, two strings of digits overlap in one cell (the light theme's middle column,
``update`` at alpha 0.5, with a crossfade over a tenth of the roll). The drift
keeps each inside its row's outline: the outlined rows of E stand close together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from manim import UP, Animation, AnimationGroup, VMobject

__all__ = ["HANDOVER", "ROLL_TIME", "RollOver", "roll_lag", "roll_over"]

# How long a row of E takes to roll over to its new values, in seconds.
ROLL_TIME = 2.0
# Of a cell's roll (after its rate function): where the new number takes the old one's place.
HANDOVER = 0.5
# The air kept between a drifting number's ink and its row's border (an outline's ink).
_ROW_AIR = 0.04


def roll_lag(cells: int) -> float:
    """Return the lag between a row's cells as they roll over, one after another.

    Each cell hands over in the middle of its own roll; the lag puts those
    moments apart, left to right, so that the eye can follow them in turn
    (all at once, the row's numbers changed in one flicker).
    """
    return 0.0 if cells < 2 else 0.6 / (cells - 1)


def _shown(alpha: float, leaving: bool) -> bool:
    """Whether a number is drawn at ``alpha`` of its roll: the old one before the handover."""
    return alpha < HANDOVER if leaving else alpha >= HANDOVER


class RollOver(Animation):
    """One number of a rolling cell: the old one leaving up, or the new one rising in.

    Parameters
    ----------
    mobject
        The number, where it stands at rest (the old one's place, or the new one's).
    lift
        How far the number travels over the whole roll (the old one up from its place,
        the new one up into it).
    leaving
        Whether it is the old number (removed from the scene at the end).
    movers
        The parts of ``mobject`` that drift (all of it by default); the rest
        stands still and shows or hides with it (a line whose other parts the
        coming one shares hands them over unmoved).
    """

    def __init__(
        self,
        mobject: VMobject,
        lift: float,
        leaving: bool,
        movers: Sequence[VMobject] | None = None,
        **kwargs: Any,
    ) -> None:
        self.lift, self.leaving = lift, leaving
        moving = [mobject] if movers is None else movers
        self.homes = [(m, np.array(m.get_center())) for m in moving]
        self.looks = [
            (m, float(m.get_fill_opacity()), float(m.get_stroke_opacity()))
            for m in mobject.get_family()
        ]
        super().__init__(mobject, remover=leaving, **kwargs)

    def interpolate_mobject(self, alpha: float) -> None:
        """Place the number and set its opacity at ``alpha`` of the roll."""
        rated = float(self.rate_func(alpha))
        rise = rated if self.leaving else rated - 1.0
        for mover, home in self.homes:
            mover.move_to(home + UP * self.lift * rise)
        share = 1.0 if _shown(rated, self.leaving) else 0.0
        for member, fill, stroke in self.looks:
            member.set_fill(opacity=fill * share, family=False)
            member.set_stroke(opacity=stroke * share, family=False)


def roll_over(old: VMobject, new: VMobject, row_height: float) -> Animation:
    """Return one cell's roll: ``old`` (on the scene, at its place) hands over to ``new``.

    Each drifts only as far as keeps its ink :data:`_ROW_AIR` inside its row
    while it shows (the outlined rows of E stand close together).
    """
    room = max(0.0, (row_height - max(float(old.height), float(new.height))) / 2 - _ROW_AIR)
    # Each shows for the part of the roll on its side of the handover.
    lift = room / max(HANDOVER, 1.0 - HANDOVER)
    return AnimationGroup(RollOver(old, lift, leaving=True), RollOver(new, lift, leaving=False))
