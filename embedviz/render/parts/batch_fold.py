"""BatchLookup: an empty slice in the copies' way steps aside behind their slice while they pass.

A 720p review (issue 18) saw sequence 0's copies rise beside E across slice
1's empty, dimmed rows on their way up into slice 0: for a moment a copy lay
over slice 1's rows and read as landing in the wrong slice. In the ``beside``
arrangement no way of a whole strip and no place of the stack keeps them off
it (tests/test_batch_slice_bands.py). So, once the lookup's first motion is
named (its chip ringed), every empty slice whose band a copy of the beat
would cross slides up behind the slice the copies go to (a stack of cards:
its frame's top edge peeks over that slice's, under its header; its row
numbers fade, as they would stand over that slice's), the B edge spanning
the cards as they stand; once the beat's rows are in, it slides back down to
its place, its row numbers come back. Each way is a calm glide
(:data:`FOLD_SECONDS`, :func:`~embedviz.render.parts.glide.glide_floor` at
least). A slice left folded until its own turn left its place empty at three
beat ends of GPT-2's batch (20.4 % of the frame); so every beat ends with
every slice in its place, and every slice's values stand in view at the end.

A slice that folds is drawn under everything else on screen from then on (z
index; its body is opaque): sliding up, it passes under the copies' slice,
hidden but for its peeking edge.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from manim import Animation, AnimationGroup, Mobject, Succession, VMobject

from embedviz.render.animations import Steps, beat_steps, make_deferred_animation
from embedviz.render.fades import hidden_looks, looks_of
from embedviz.render.pace import at_least
from embedviz.render.parts.batch_focus import Recolour
from embedviz.render.parts.glide import Glide, glide_floor
from embedviz.story.model import Beat

if TYPE_CHECKING:
    from embedviz.render.parts.batch import SliceStack
    from embedviz.render.parts.batch_motion import BatchMotion

__all__ = ["BEHIND", "FOLD_SECONDS", "Fanning", "crossed", "step_aside"]

# Seconds a slice takes to fold behind another, or to come back out (glide_floor at least).
FOLD_SECONDS = 0.8
# The slices' drawing order once one has folded: under everything else (z 0, strips 20).
BEHIND = -1
# How much of the gap between a slice's top edge and its header a folded card's edge shows.
PEEK_SHARE = 0.6


def _frames(stack: SliceStack) -> list[VMobject]:
    return [grid.body[0] for grid in stack.slices]


class Fanning(Glide):
    """Shift each slice by its own ``dy`` (pure shifts, smoothly); the B edge spans them.

    Parameters
    ----------
    stack
        The slices.
    moves
        Each slice's index and how far it moves right and up (left, down: negative).
    """

    def __init__(
        self,
        stack: SliceStack,
        moves: Sequence[tuple[int, float, float]],
        kept: dict[str, Any],
        back: bool = False,
        **kwargs: Any,
    ) -> None:
        self.stack, self.moves, self.kept, self.back = stack, list(moves), kept, back
        super().__init__(self._moving, 0.0, **kwargs)

    def _anchor(self) -> np.ndarray:
        frame = self.stack.slices[self.kept["host"]].body[0]
        return np.asarray(frame.get_corner(np.array([-1, 1, 0])))

    def begin(self) -> None:
        """Keep the B edge as it stands before the fold, to stand it so again once back."""
        if not self.back:
            self.kept["edge"] = self.stack.edge_b.copy()
            self.kept["at"] = self._anchor()
        super().begin()

    def _moving(self) -> list[Mobject]:
        return [*[self.stack.slices[b] for b, _, _ in self.moves], self.stack.edge_b]

    def may_move(self) -> list[Mobject]:
        """Return all on screen: a slice drawn under the rest is drawn each frame with it."""
        return list(self.stack.host.mobjects)

    def interpolate_mobject(self, alpha: float) -> None:
        """Shift the slices as far as ``alpha`` has come; the B edge spans them as they stand."""
        target = self.rate_func(alpha)
        for b, dx, dy in self.moves:
            self.stack.slices[b].shift(np.array([dx, dy, 0.0]) * (target - self.done))
        self.done = target
        frames = _frames(self.stack)
        top = max(float(frame.get_top()[1]) for frame in frames)
        bottom = min(float(frame.get_bottom()[1]) for frame in frames)
        edge = self.stack.b_edge_spanning(top, bottom)
        if target == 1.0 and self.back:
            # Back home: the edge as it stood (rebuilt, it differed in its last digits).
            edge = self.kept["edge"].copy().shift(self._anchor() - self.kept["at"])
        self.stack.edge_b.become(edge)


def _fanning(
    stack: SliceStack, moves: list[tuple[int, float, float]], kept: dict[str, Any], back: bool
) -> Animation:
    fanning = Fanning(stack, moves, kept, back, run_time=FOLD_SECONDS)
    return at_least(fanning, max(glide_floor(dx, dy) for _, dx, dy in moves))


def crossed(
    stack: SliceStack, motion: BatchMotion, fresh: Collection[tuple[int, ...]], empty: set[int]
) -> list[int]:
    """Return the empty slices whose band some copy of ``fresh`` crosses on its way up or down.

    A copy goes from its row of E to its row of its slice, beside E, across
    every height between (a row of E not drawn: it may cross any).
    """
    grid = motion.matrix.grid
    shown = set(grid.get_rows())
    ways = []
    for position in fresh:
        row = int(stack.cells[("token_id", tuple(position))].value)
        target = stack.slices[position[0]].row_y(position[1])
        if row not in shown:
            return sorted(empty)
        ways.append(sorted((float(grid.row_y(row)), float(target))))
    found = []
    for b in sorted(empty):
        body = stack.slices[b].body
        low, high = float(body.get_bottom()[1]), float(body.get_top()[1])
        if any(way[0] < high and way[1] > low for way in ways):
            found.append(b)
    return found


def _numbers(
    stack: SliceStack, later: list[int], kept: dict[str, Any], back: bool = False
) -> Animation:
    """Fade the slices' row numbers out where they stand (their looks kept), or back in.

    Only their opacities change, and they stay on screen in between: a fade
    out that removes them at its play's end took them off after their fade
    back in, where a beat has one step.
    """

    def build() -> Animation:
        fades = []
        for b in later:
            part = stack.row_numbers[b]
            members = [m for m in part.family_members_with_points() if isinstance(m, VMobject)]
            if back:
                ends = kept.pop(f"numbers {b}")
            else:
                kept[f"numbers {b}"] = shown = [looks_of(m) for m in members]
                ends = [hidden_looks(looks) for looks in shown]
            fades.append(Recolour(part, members, ends, share=1.0))
        return AnimationGroup(*fades)

    return make_deferred_animation(
        build, FOLD_SECONDS / 2, touches=lambda: [stack.row_numbers[b] for b in later]
    )


def _aside(stack: SliceStack, host: int, later: list[int]) -> tuple[Animation, Animation]:
    """Return the fold of ``later`` behind slice ``host`` and the way back to their places."""
    first = stack.slices[host]
    gap = float(stack.headers[host].get_bottom()[1]) - first.body_top()
    peek = PEEK_SHARE * gap
    # Up only: a strip is a little wider than its slice, and rises over both its sides.
    moves = [(b, 0.0, first.body_top() + peek - stack.slices[b].body_top()) for b in later]
    for b in later:
        stack.slices[b].set_z_index(BEHIND)
    kept: dict[str, Any] = {"host": host}
    going = AnimationGroup(_fanning(stack, moves, kept, False), _numbers(stack, later, kept))
    home = [(b, -dx, -dy) for b, dx, dy in moves]
    coming = Succession(_fanning(stack, home, kept, True), _numbers(stack, later, kept, True))
    return going, coming


def step_aside(
    stack: SliceStack, motion: BatchMotion, filled: Collection[Any], played: Animation, beat: Beat
) -> Animation:
    """Return a lookup beat with the empty slices its copies would cross folded while they pass.

    In the ``beside`` arrangement only. They fold at the end of the beat's
    first step (it names the ID: a chip is ringed, a header comes), or
    before its only step, and come back at the end of its last step.
    """
    if stack.batch_plan.mode != "beside" or beat.output is None:
        return played
    fresh = [p for p in beat.output.filled if p not in filled]
    active = {p[0] for p in fresh}
    holding = {p[0] for p in filled}
    empty = {b for b in range(len(stack.slices)) if b not in active | holding}
    later = crossed(stack, motion, fresh, empty) if fresh else []
    if not later:
        return played
    going, coming = _aside(stack, min(active), later)
    steps = list(beat_steps(played))
    if len(steps) > 1:
        steps[0] = Succession(steps[0], going)
    else:
        steps[0] = Succession(going, steps[0])
    steps[-1] = Succession(steps[-1], coming)
    return Steps(*steps)
