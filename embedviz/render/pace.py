"""Time floors: a motion a teacher's eye must follow gets at least so many seconds.

A beat's steps share its ``run_time`` in proportion to their own run times
(:meth:`~embedviz.render.base.StoryboardScene.play_beat`), so a motion inside a
short beat plays faster than it was built. Most motions may (a chip's walk,
a strip's carry: they move a small thing a short way). A table gliding across
the frame may not: squeezed into a fifth of a second it jumps. :func:`at_least`
marks such a motion with the seconds it needs; :func:`needed_seconds` says how
long a step holding it must last, and :func:`floored_frames` lengthens those
steps, into the still hold the narration leaves after the motion, never past
the beat's end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from manim import Animation, AnimationGroup

__all__ = ["FLOOR_ATTRIBUTE", "at_least", "floored_frames", "needed_seconds"]

# The attribute that carries an animation's floor, in seconds.
FLOOR_ATTRIBUTE = "embedviz_min_seconds"
# The least share of its frames a step without a floor keeps when a floor needs room.
SQUEEZE = 0.5


def at_least(animation: Animation, seconds: float | Callable[[], float]) -> Animation:
    """Mark ``animation`` as needing at least ``seconds`` when the beat plays it; return it.

    ``seconds`` may be a function, asked only when the beat plays: the floor of a
    motion built as it starts (a deferred step) depends on where things stand then.

    Examples
    --------
    >>> from manim import Wait
    >>> needed_seconds(at_least(Wait(run_time=0.5), 0.6))
    0.6
    >>> needed_seconds(at_least(Wait(run_time=0.5), lambda: 0.7))
    0.7
    """
    setattr(animation, FLOOR_ATTRIBUTE, seconds if callable(seconds) else float(seconds))
    return animation


def needed_seconds(animation: Animation) -> float:
    """Return how long ``animation`` must last for every marked motion in it to get its floor.

    A group (:class:`manim.Succession` included) plays its members at a pace
    proportional to its own (its members' times are fixed shares of it), so a
    member with floor *f* and run time *r* in a group of run time *R* asks for
    *f R / r*. An animation with no floor in it needs nothing (0).

    Examples
    --------
    >>> from manim import Succession, Wait
    >>> glide = at_least(Wait(run_time=0.5), 0.6)
    >>> round(needed_seconds(Succession(glide, Wait(run_time=1.5))), 6)
    2.4
    """
    floor = getattr(animation, FLOOR_ATTRIBUTE, 0.0)
    need = float(floor() if callable(floor) else floor)
    if isinstance(animation, AnimationGroup):
        whole = float(animation.get_run_time())
        for member in animation.animations:
            own = float(member.get_run_time())
            if own > 0:
                need = max(need, needed_seconds(member) * whole / own)
    return need


def floored_frames(
    steps: Sequence[Animation],
    lengths: Sequence[int],
    total: int,
    fps: float,
    phrase_starts: Sequence[int] = (0,),
) -> list[int]:
    """Return the steps' lengths in frames, each at least as long as its floor asks.

    Steps without a floor keep their shares; the beat's motion grows into
    its hold, as far as it may: step *k* still starts with phrase *k* (at
    ``phrase_starts[k]``) and the last ends by ``total`` (the beat's length).
    Where the hold is too short, the steps without a floor after that phrase
    play faster (down to :data:`SQUEEZE` of their shares: a chip's walk may,
    a table's glide may not); steps that overran their phrase already keep
    the room they took. Where the floors still do not fit, a step gets what
    room there is.

    Examples
    --------
    >>> from manim import Wait
    >>> steps = [Wait(run_time=1.0), at_least(Wait(run_time=0.5), 0.6)]
    >>> floored_frames(steps, [10, 5], 60, 15.0)
    [10, 9]
    >>> floored_frames(steps, [10, 5], 15, 15.0)
    [6, 9]
    >>> floored_frames(steps, [4, 5], 9, 15.0)
    [2, 7]
    >>> floored_frames(steps, [10, 5], 60, 15.0, [0, 53])
    [10, 7]
    """
    floored = [needed_seconds(step) > 0 for step in steps]
    grown = [
        max(length, math.ceil(needed_seconds(step) * fps - 1e-9))
        for step, length in zip(steps, lengths, strict=True)
    ]
    least = [
        length if fixed else math.ceil(length * SQUEEZE)
        for length, fixed in zip(lengths, floored, strict=True)
    ]
    # From the last phrase's step back: the steps from phrase k on must fit after it.
    starts = [0, *phrase_starts[1:]]
    for k in reversed(range(min(len(starts), len(steps)))):
        excess = sum(grown[k:]) - max(total - starts[k], sum(lengths[k:]))
        # The steps without a floor give first (they play faster), then the floors' growth.
        later = list(reversed(range(k, len(steps))))
        for index in sorted(later, key=lambda i: floored[i]):
            if excess <= 0:
                break
            give = max(0, min(excess, grown[index] - least[index]))
            grown[index] -= give
            excess -= give
    return grown
