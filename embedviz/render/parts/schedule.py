"""The rest of the lookups, played together: one ID's motions, and when each starts.

:class:`~embedviz.render.parts.motion.LookupMotion` builds a :class:`Lookup`
for every ID (walk to the row, come back with its strip, settle);
:func:`clear_starts` starts each of the rest as early as its paths are clear
of every motion still running, and :meth:`Lookup.together` plays one of them
at the rest's pace, its row outlined only while its chip or its strip is there.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from manim import Animation, AnimationGroup, Succession, VMobject, Wait

from embedviz.render.animations import make_deferred_animation
from embedviz.render.fades import OutlineIn

__all__ = ["STRIP_LAG", "WALK", "Lookup", "clear_starts", "late_marks", "swept"]

# Seconds of one lookup among the rest: the walk, the way back with the strip, the settling.
REST_WALK, REST_CARRY, REST_SETTLE = 0.45, 0.7, 0.15
# The strip lifts off this far into the chip's way back (a share of the chip's time).
STRIP_LAG = 0.3
# Seconds of a chip's walk to its row at teaching pace; of a row's outline coming or going.
WALK, OUTLINE = 0.9, 0.2
# The next of the rest starts at least this long after one starts: its row's outline comes
# (as its chip arrives, the outline's time before the walk's end) only once the strip before
# has landed. A 720p review of MiniLM's ten rest lookups: two started a third of a second
# apart, so a copy landed beside the next chip while that chip's row stood outlined, and a
# glance paired the wrong ones. One copy travels at a time, and the only row of E outlined
# then is its own.
REST_LAG = REST_CARRY + REST_WALK * OUTLINE / WALK


@dataclass
class Lookup:
    """One ID's motions, and the rectangles their paths sweep (for scheduling the rest)."""

    walk: Animation
    moved: Animation
    settle: Animation
    mark: Animation
    go: Animation
    walk_area: list[tuple[float, float, float, float]]
    carry_area: list[tuple[float, float, float, float]]
    # A mark that shows only once the blocks rest together (it has room only there).
    late: list[Animation] = field(default_factory=list)
    # The row's amber outline, and the mark's fade-in as it lands (when not late).
    outline: VMobject | None = None
    shown: list[Animation] = field(default_factory=list)
    # Seconds (at the rest's pace) its chip waits beside its row, its walk built with the wait.
    dwell: float = 0.0

    def arriving(self, walk: float) -> Animation:
        """Return the chip's walk (``walk`` seconds long), its row outlined as it arrives.

        Never before it sets off: a 720p review of MiniLM saw row 101 outlined
        4.5 s before its chip left the sentence lane, an effect before its
        cause. Without a new outline (none, or one the narration drew before:
        ``mark`` is a wait), the walk alone.
        """
        if self.outline is None or not isinstance(self.mark, OutlineIn):
            return self.go
        # Built as they start: manim would put the outline on screen, whole, as the
        # beat begins (every lookup's at once) for a Create or a FadeOut waiting its turn.
        outline = self.outline
        drawn = make_deferred_animation(
            lambda: OutlineIn(outline, run_time=OUTLINE), OUTLINE, touches=lambda: [outline]
        )
        return AnimationGroup(self.go, Succession(Wait(run_time=max(walk - OUTLINE, 0)), drawn))

    def together(self) -> Animation:
        """Return this lookup as one of the rest: its row outlined from its chip's arrival.

        Many lookups overlapped in time, so a row outlined as its chip set off
        left several rows outlined with no chip beside any: the outline comes
        as the chip arrives. It stands until the row's copy lands (an empty
        amber box out of a row no longer outlined was paired by eye with the
        next one's), and the next lookup's row is outlined only after that
        (:data:`REST_LAG`): one row outlined at a time.
        """
        if self.outline is None:
            walk, moved, settle = self.walk, self.moved, self.settle
        else:
            walk = self.arriving(WALK)
            # ``moved`` fades it as its strip lands (FadesAsItLeaves).
            moved = self.moved
            settle = AnimationGroup(*self.shown) if self.shown else Wait()
        walk.set_run_time(REST_WALK + self.dwell)
        moved.set_run_time(REST_CARRY)
        return Succession(walk, moved, settle.set_run_time(REST_SETTLE))


def late_marks(lookups: Sequence[Lookup]) -> list[Animation]:
    """Return the late marks' fade-in, once the blocks rest together (empty: none)."""
    marks = [shown for one in lookups for shown in one.late]
    return [AnimationGroup(*marks)] if marks else []


def swept(
    points: Sequence[np.ndarray] | np.ndarray, width: float, height: float
) -> list[tuple[float, float, float, float]]:
    """Return the rectangles a box of this size sweeps moving through ``points``, one per leg."""
    boxes = []
    for a, b in itertools.pairwise(points):
        boxes.append(
            (
                min(a[0], b[0]) - width / 2,
                min(a[1], b[1]) - height / 2,
                max(a[0], b[0]) + width / 2,
                max(a[1], b[1]) + height / 2,
            )
        )
    return boxes


def _meet(
    first: list[tuple[float, float, float, float]], second: list[tuple[float, float, float, float]]
) -> bool:
    """Whether any rectangle of ``first`` overlaps any of ``second``."""
    return any(
        a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6
        for a in first
        for b in second
    )


def clear_starts(lookups: Sequence[Lookup]) -> list[float]:
    """When each of the rest starts (seconds): as early as its paths are clear of those moving.

    A lookup's walk sweeps its chip's path; its carry (the way back and the
    strip) sweeps the chip's path and the strip's. Two motions may overlap in
    time only if their sweeps do not overlap in space.
    """
    busy: list[tuple[float, float, list[tuple[float, float, float, float]]]] = []
    starts: list[float] = []
    earliest = 0.0
    for one in lookups:
        start = earliest
        while True:
            arrived = start + REST_WALK + one.dwell
            walk = (start, arrived, one.walk_area)
            carry = (arrived, arrived + REST_CARRY, one.carry_area)
            clash = [
                end
                for begin, end, area in busy
                for mine in (walk, carry)
                if mine[0] < end - 1e-9 and begin < mine[1] - 1e-9 and _meet(mine[2], area)
            ]
            if not clash:
                break
            start += 0.05
        busy += [walk, carry]
        starts.append(round(start, 6))
        earliest = start + REST_LAG + one.dwell
    return starts
