"""Outlines a teaching-pace lookup keeps to its beat's end (a 720p beat-end review).

A teacher who paused at the end of a lookup beat saw the copy and its chip
but no outlined source row: the outline faded with a short settle step at the
beat's end. Now a lookup at teaching pace (one named ID) leaves its row of E
outlined, and its output row ringed in the ID's amber, to the beat's end; the
next beat's first motion fades them (:meth:`KeptOutlines.release`, which
:meth:`~embedviz.render.stage.Stage.animate` plays with that beat's first
step), unless that beat looks the same row up again and takes its outline, or
prints that row (:meth:`KeptOutlines.carry_on`), keeping both for good.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from manim import Animation, VMobject
from manim.utils.rate_functions import rush_from

from embedviz.render.animations import make_deferred_animation
from embedviz.render.fades import FadeIn, FadeOut

__all__ = ["KeptOutlines", "shown_on"]

# Seconds of a kept outline's fade.
FADE = 0.3


class KeptOutlines:
    """The outlines one beat keeps standing, and those the beat before left."""

    def __init__(self) -> None:
        self.rows: dict[int, VMobject] = {}  # rows of E, by row
        self.rings: list[VMobject] = []  # output rows
        self.parting: dict[int, VMobject] = {}  # the beat before's rows of E
        self.fading: list[VMobject] = []  # the beat before's, going with this beat's start

    def matrix_side(self) -> list[VMobject]:
        """Return what moves with the matrix."""
        return [*self.rows.values(), *self.parting.values(), *self.fading]

    def output_side(self) -> list[VMobject]:
        """Return what moves with the output block."""
        return [*self.rings, *self.fading]

    def take(self, row: int) -> VMobject | None:
        """Hand a row's outline, left by the beat before, to a lookup of that row."""
        return self.parting.pop(row, None)

    def hold(self, row: int, outline: VMobject | None) -> None:
        """Keep ``row``'s outline (drawn already) to the beat's end."""
        if outline is not None:
            self.rows[row] = outline

    def keep(self, row: int, outline: VMobject | None, ring: VMobject) -> Animation:
        """Keep ``row``'s outline; return the ring's drawing (at once, as the strip lands)."""
        self.hold(row, outline)
        self.rings.append(ring)
        # Whole at once, where the strip's amber box stood as it landed: no blink between.
        return make_deferred_animation(
            lambda: FadeIn(ring, rate_func=lambda _: 1.0, run_time=FADE), FADE, lambda: [ring]
        )

    def before_beat(self) -> None:
        """Hand what the beat before kept to this beat (its first motion fades it)."""
        self.parting, self.rows = self.rows, {}
        self.fading, self.rings = self.rings, []

    def carry_on(self, row: int) -> VMobject | None:
        """Keep ``row``'s outline and the output's rings the beat before kept, for good.

        For a beat that shows that row again (SingleTokenLookup's ``print``: the
        tensor is the row just fetched): they dropped out for its first steps and
        came back with its last, a lecture-hall review found (issue 18). They stand
        to the scene's end, no longer kept here (no later beat fades them). None,
        and nothing carried on, when the beat before kept no outline of ``row``.
        """
        outline = self.parting.pop(row, None)
        if outline is not None:
            self.fading = []
        return outline

    def release(self, on_screen: Callable[[list[VMobject]], list[VMobject]]) -> list[Animation]:
        """Fade what the beat before kept and this beat has not taken (those ``on_screen``)."""
        self.fading += list(self.parting.values())
        self.parting = {}
        # Quickly at first: it is no longer what the narration names.
        return [FadeOut(m, run_time=FADE, rate_func=rush_from) for m in on_screen(self.fading)]


def shown_on(host: Any) -> Callable[[list[VMobject]], list[VMobject]]:
    """Return a filter: those of its mobjects on ``host``'s screen now."""

    def shown(mobjects: list[VMobject]) -> list[VMobject]:
        on = {id(m) for top in host.mobjects for m in top.get_family()}
        return [m for m in mobjects if id(m) in on]

    return shown
