"""Time floors: a motion a teacher's eye must follow gets at least so many seconds.

A beat's steps share its ``run_time`` in proportion to their own run times
(:meth:`~embedviz.render.base.StoryboardScene.play_beat`), so a motion inside a
short beat plays faster than it was built. Most motions may (a chip's walk,
a strip's carry: they move a small thing a short way). A table gliding across
the frame may not: squeezed into a fifth of a second it jumps. :func:`at_least`
marks such a motion with the seconds it needs; :func:`needed_seconds` says how
long a step holding it must last, and :func:`floored_frames` lengthens those
steps, into the still hold the narration leaves after the motion, never past
the beat's end. A step of several motions played one after another can give
its floored ones the time of the rest (:func:`fit_floors`), so that it fits
its phrase.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from manim import Animation, AnimationGroup, Succession

__all__ = [
    "FLOOR_ATTRIBUTE",
    "SECONDS_ATTRIBUTE",
    "at_least",
    "fit_floors",
    "fit_steps",
    "floored_frames",
    "give_seconds",
    "needed_seconds",
    "seconds_of",
]

# The attribute that carries an animation's floor, in seconds.
FLOOR_ATTRIBUTE = "embedviz_min_seconds"
# The attribute that holds the seconds an animation really lasts on screen (see give_seconds).
SECONDS_ATTRIBUTE = "embedviz_seconds"
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
    if isinstance(animation, AnimationGroup) and animation.max_end_time > 0:
        # A member's share of the group is its span of the group's own time line, not of
        # its run_time: a group given a run_time of its own (fit_floors) plays them stretched.
        whole = float(animation.max_end_time)
        for member, start, end in animation.anims_with_timings:
            own = float(end) - float(start)
            if own > 0:
                need = max(need, needed_seconds(member) * whole / own)
    return need


def fit_floors(members: Sequence[Animation], seconds: float) -> None:
    """Share ``members``' run times (played one after another) so their floors fit ``seconds``.

    The members keep their total. Played in ``seconds``, a member with a floor
    gets at least its floor (:func:`needed_seconds`), and the members without
    one give it the time, each keeping its share of what is left; so the step
    they make needs no more than ``seconds`` and stays inside its phrase
    (:func:`floored_frames` grows a step past its phrase otherwise). Where the
    floors alone need ``seconds`` or more, nothing changes.

    Examples
    --------
    >>> from manim import Succession, Wait
    >>> lead, carry = Wait(run_time=1.0), at_least(Wait(run_time=1.0), 0.6)
    >>> needed_seconds(Succession(lead, carry))  # 2 s, the carry's half: 0.6 s of 1.2 s
    1.2
    >>> fit_floors([lead, carry], 0.8)
    >>> round(lead.get_run_time(), 6), round(carry.get_run_time(), 6)
    (0.5, 1.5)
    >>> round(needed_seconds(Succession(lead, carry)), 6)
    0.8
    """
    times = [float(member.get_run_time()) for member in members]
    whole = sum(times)
    if whole <= 0 or seconds <= 0:
        return
    # A floored member's least share of the whole, at the pace of ``seconds``.
    wanted = [
        max(time, needed_seconds(member) * whole / seconds) if needed_seconds(member) > 0 else 0.0
        for member, time in zip(members, times, strict=True)
    ]
    floored = sum(wanted)
    rest = whole - sum(t for t, w in zip(times, wanted, strict=True) if w > 0)
    if floored == 0 or floored >= whole or rest <= 0:
        return  # nothing to fit, or no room: floored_frames gives the step what room there is
    left = (whole - floored) / rest
    for member, time, want in zip(members, times, wanted, strict=True):
        member.set_run_time(want if want > 0 else time * left)


def fit_steps(steps: Sequence[Sequence[Animation]], seconds: float) -> list[Animation]:
    """Return ``steps`` (each its parts one after another) to play one after another in ``seconds``.

    Each part with a floor takes its floor's time, never less (its own where
    longer); where all of them would not fit ``seconds``, the parts without
    one play faster (:func:`fit_floors`), each keeping its share of what the
    floors leave. Each step is marked with the time it takes: a beat plays it
    no faster (:func:`floored_frames`), so its parts keep their times and one
    phrase holds them all. Where the floors alone need ``seconds`` or more,
    the parts keep their times.

    Examples
    --------
    >>> from manim import Wait
    >>> walk, wait = at_least(Wait(run_time=1.0), 2.0), Wait(run_time=1.0)
    >>> first, second = fit_steps([[Wait(run_time=1.0)], [walk, wait]], 3.0)
    >>> round(needed_seconds(first), 6), round(needed_seconds(second), 6)
    (0.5, 2.5)
    """
    parts = [part for step in steps for part in step]
    for part in parts:
        part.set_run_time(max(float(part.get_run_time()), needed_seconds(part)))
    whole = sum(float(part.get_run_time()) for part in parts)
    floors = sum(needed_seconds(part) for part in parts)
    if whole > seconds > floors:
        fit_floors(parts, seconds)
        for part in parts:
            part.set_run_time(float(part.get_run_time()) * seconds / whole)
    built = [Succession(*step) for step in steps]
    return [at_least(step, float(step.get_run_time())) for step in built]


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


def give_seconds(animation: Animation, seconds: float) -> None:
    """Tell ``animation``, and every animation in it, how many seconds it really lasts.

    A beat plays a step in the frames it gives it (``set_run_time`` on the
    step), and a group plays its members at its own pace: a member's
    ``run_time`` is only its share of the group's. A motion that must last a
    least real time (a strip's numbers fading in over a few frames, not one)
    reads :func:`seconds_of` as it begins. A wrapper that plays an ``inner``
    animation over its own run passes its seconds on (one built only as it
    begins, a deferred step, passes them on then). A group's rate function is
    taken as linear (as every group a beat plays is): its members get their
    shares of its seconds.

    Examples
    --------
    >>> from manim import LaggedStart, Succession, Wait
    >>> first, second = Wait(run_time=1.0), Wait(run_time=2.0)
    >>> lagged = LaggedStart(Wait(run_time=2.0), second, lag_ratio=0.5)  # 3 s: 0-2, 1-3
    >>> give_seconds(Succession(first, lagged), 2.0)  # 4 s played in 2
    >>> seconds_of(first), seconds_of(lagged), seconds_of(second)
    (0.5, 1.5, 1.0)
    """
    setattr(animation, SECONDS_ATTRIBUTE, float(seconds))
    inner = getattr(animation, "inner", None)
    if isinstance(inner, Animation):
        give_seconds(inner, seconds)
    if isinstance(animation, AnimationGroup) and animation.max_end_time > 0:
        scale = float(seconds) / float(animation.max_end_time)
        for member, start, end in animation.anims_with_timings:
            give_seconds(member, (float(end) - float(start)) * scale)


def seconds_of(animation: Animation) -> float:
    """Return how many seconds ``animation`` lasts on screen (given by :func:`give_seconds`).

    An animation no beat has timed (played on its own) lasts its ``run_time``.
    """
    return float(getattr(animation, SECONDS_ATTRIBUTE, animation.get_run_time()))
