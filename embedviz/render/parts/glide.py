"""A glide: what stands on screen moves, smoothly, by pure shifts, slowly enough to follow.

:class:`Glide` moves the lookup family's blocks (the output block up to clear
the strips' paths, the matrix and the block apart to open the corridor) and
back. :func:`glide_floor` is the least time a glide of a given length may take
(:func:`~embedviz.render.pace.at_least`): a teacher's eye must follow it.
:func:`arriving` brings what a glide makes room for while it plays, so that a
calm glide does not leave the frame empty for long.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from manim import Animation, AnimationGroup, Mobject, Scene, Succession, VMobject, Wait, config
from manim.utils.rate_functions import smooth

from embedviz.render.design import MARGIN, SPACE
from embedviz.render.fades import FadeInBehind, FadeInRiding
from embedviz.render.metrics import xyz

__all__ = [
    "ARRIVAL_SHARE",
    "GLIDE_SECONDS",
    "LANDING_SHARE",
    "MAX_CHIP_SPEED",
    "MAX_GLIDE_SPEED",
    "MIN_GLIDE_SECONDS",
    "OPEN_SHARE",
    "Glide",
    "Opening",
    "arriving",
    "chip_floor",
    "come_with",
    "glide_floor",
    "inside_from",
    "passed_at",
    "riding_with",
]

# Seconds of a glide as built (a beat's share may stretch or squeeze it).
GLIDE_SECONDS = 0.5
# The least a glide may last as played: shorter, a block's move reads as a jump.
MIN_GLIDE_SECONDS = 0.6
# The fastest a glide may move at its peak, in frame widths per second: half the frame
# a second. The eye's smooth pursuit follows a target up to about 30 degrees a second;
# a frame seen from the back of a classroom spans 20 to 30 degrees, so half of it a
# second (10 to 15 degrees) keeps well within what a teacher's eye follows.
MAX_GLIDE_SPEED = 0.5
# The fastest an ID's chip may move at its peak, in frame widths per second: a small
# target the eye follows on its own (one ID from its chip to its row and back), a
# little faster than a table, still within smooth pursuit from the back of the room.
# Squeezed into a short beat's share, a chip crossed the frame in a quarter second.
MAX_CHIP_SPEED = 0.75
# ``smooth`` peaks at this many times its average speed (its slope at the middle).
_SMOOTH_PEAK = 2.54
# What a glide makes room for comes over this last share of it, behind what glides
# (:class:`~embedviz.render.fades.FadeInBehind`): a calm glide of PositionBlindness's
# rows (``arrange``, 2 s) left the frame a third empty for a second before its blocks.
ARRIVAL_SHARE = 0.8
# An empty block opening out from the safe area's edge (:class:`Opening`) comes once it
# stands at least this share of its width.
OPEN_SHARE = 1 / 3
# What the gliding rows pass over (a sign beside their place) comes over this last
# share of the glide only, once they have passed it: no text crosses another.
LANDING_SHARE = 0.1


def glide_floor(dx: float, dy: float) -> float:
    """Return the least seconds a smooth glide by (``dx``, ``dy``) may take.

    At least :data:`MIN_GLIDE_SECONDS`, and long enough that its peak speed
    stays under :data:`MAX_GLIDE_SPEED`.

    Examples
    --------
    >>> glide_floor(0.0, 0.1)
    0.6
    >>> round(glide_floor(14.222 / 2, 0.0), 2)
    2.54
    """
    speed = MAX_GLIDE_SPEED * float(config.frame_width)
    return max(MIN_GLIDE_SECONDS, _SMOOTH_PEAK * math.hypot(dx, dy) / speed)


def chip_floor(
    points: Sequence[np.ndarray] | np.ndarray, pace: Callable[[float], float] | None = None
) -> float:
    """Return the least seconds a chip's walk along ``points`` at ``pace`` may take.

    Long enough that its peak speed stays under :data:`MAX_CHIP_SPEED`; the
    peak is ``pace``'s steepest slope (``smooth``'s by default).

    Examples
    --------
    >>> import numpy as np
    >>> round(chip_floor([np.zeros(3), np.array([14.222 / 2, 0.0, 0.0])]), 2)
    1.69
    """
    path = np.asarray(points, dtype=float)
    length = float(np.sum(np.linalg.norm(np.diff(path, axis=0), axis=1))) if len(path) else 0.0
    peak = _SMOOTH_PEAK
    if pace is not None:
        times = np.linspace(0.0, 1.0, 401)
        peak = float(np.max(np.diff([pace(float(t)) for t in times]))) * (len(times) - 1)
    return peak * length / (MAX_CHIP_SPEED * float(config.frame_width))


def arriving(glide: Animation, coming: Animation, share: float = ARRIVAL_SHARE) -> Animation:
    """Play ``coming`` over the last ``share`` of ``glide``, and end with it.

    The group lasts as long as ``glide``, so a floor marked on the glide
    (:func:`~embedviz.render.pace.at_least`) holds for the group.

    Examples
    --------
    >>> group = arriving(Wait(run_time=2.0), Wait(run_time=1.0), 0.25)
    >>> waited, came = group.animations[1].animations
    >>> float(group.get_run_time()), waited.get_run_time(), came.get_run_time()
    (2.0, 1.5, 0.5)
    """
    seconds = float(glide.get_run_time())
    coming.set_run_time(seconds * share)
    return AnimationGroup(glide, Succession(Wait(run_time=seconds * (1 - share)), coming))


class Glide(Animation):
    """Shift whatever ``gather`` returns as the glide begins by ``dy`` (and ``dx``), smoothly.

    What moves is gathered only when the glide starts, so that rows which land
    in the same beat before it glide with the block (an animation built in
    advance would not know them, and a group built in advance would put them on
    screen too early).
    """

    def __init__(
        self, gather: Callable[[], list[Mobject]], dy: float, dx: float = 0.0, **kwargs: Any
    ) -> None:
        kwargs.setdefault("rate_func", smooth)
        kwargs.setdefault("run_time", GLIDE_SECONDS)
        super().__init__(VMobject(), introducer=True, **kwargs)
        self.gather, self.dy, self.dx = gather, dy, dx
        self.moving: list[Mobject] = []
        self.done = 0.0

    def _setup_scene(self, scene: Scene) -> None:
        """Add nothing: the glide only moves what is already there."""

    def may_move(self) -> list[Mobject]:
        """Return what the glide would move, were it to start now."""
        return self.gather()

    def clean_up_from_scene(self, scene: Scene) -> None:
        """Remove nothing."""

    def begin(self) -> None:
        """Gather what moves."""
        self.moving = self.gather()
        self.done = 0.0
        super().begin()

    def create_starting_mobject(self) -> VMobject:
        """Return an empty stand-in: nothing reads it."""
        return VMobject()

    def interpolate_mobject(self, alpha: float) -> None:
        """Shift everything gathered to where it is at ``alpha`` (by pure shifts)."""
        target = self.rate_func(alpha)
        for mobject in self.moving:
            mobject.shift(xyz(self.dx, self.dy) * (target - self.done))
        self.done = target


def riding_with(mobjects: Sequence[Mobject], offset: np.ndarray, run_time: float) -> Glide:
    """Set ``mobjects`` back by ``offset``; return the glide that brings them home with a block.

    What a gliding block makes room for comes in behind it (:func:`arriving`).
    Standing in its place as it faded in, an empty block's edge ran through the
    travelling block's row numbers (a 720p review of PositionBlindness's
    ``arrange``); riding with the block (moved by ``offset`` over ``run_time``,
    smoothly), each keeps its final distance from it and crosses nothing.
    """
    for mobject in mobjects:
        mobject.shift(-offset)
    dx, dy = float(offset[0]), float(offset[1])
    return Glide(lambda: list(mobjects), dy, dx, run_time=run_time)


def passed_at(block: Mobject, offset: np.ndarray, still: Mobject) -> float:
    """Return the share of a smooth glide (``block`` by ``offset``) after which ``still`` is clear.

    0 when it never meets it (within a quarter space); sampled every fortieth.
    """
    low, high = block.get_corner(xyz(-1, -1))[:2], block.get_corner(xyz(1, 1))[:2]
    pad = SPACE / 4
    s_low, s_high = still.get_corner(xyz(-1, -1))[:2] - pad, still.get_corner(xyz(1, 1))[:2] + pad
    last = 0.0
    for k in range(41):
        moved = np.asarray(offset)[:2] * smooth(k / 40)
        if np.all(low + moved < s_high) and np.all(high + moved > s_low):
            last = k / 40
    return last


def _safe_half() -> np.ndarray:
    """Return the safe area's half width and half height: the frame less :data:`MARGIN`."""
    return np.array([float(config.frame_width), float(config.frame_height)]) / 2 - MARGIN


def _ink(mobject: Mobject) -> tuple[np.ndarray, np.ndarray, float]:
    """Return ``mobject``'s box (low, high corners) and how far its strokes' ink reaches past it."""
    reach = max((0.01 * float(m.get_stroke_width()) / 2 for m in mobject.get_family()), default=0)
    low = np.asarray(mobject.get_corner(xyz(-1, -1)))[:2]
    return low, np.asarray(mobject.get_corner(xyz(1, 1)))[:2], reach


def _share_for(way: float) -> float:
    """Return the share of a smooth glide at which ``way`` (0 to 1) of its way is gone."""
    early, late = 0.0, 1.0
    for _ in range(40):
        middle = (early + late) / 2
        early, late = (middle, late) if smooth(middle) < way else (early, middle)
    return late


def inside_from(mobject: Mobject, offset: np.ndarray) -> float:
    """Return the share of a smooth glide (``mobject`` by ``offset``) from which it stays safe.

    Safe: its ink inside the frame less the design system's
    :data:`~embedviz.render.design.MARGIN`. The glide's end is safe (a beat's
    end is held to the margin on its own), and a box on a straight way into a
    box stays in once in: 0 when it is safe all the way.
    """
    low, high, reach = _ink(mobject)
    half = _safe_half() - reach
    need = 0.0  # the least share of the way that brings it inside
    for start, limit, sign in ((low, -half, 1.0), (high, half, -1.0)):
        for axis, move in enumerate(np.asarray(offset, dtype=float)[:2]):
            short = sign * (limit[axis] - start[axis])  # how far it stands outside
            if short > 1e-9 and sign * move > 1e-12:
                need = max(need, min(1.0, short / (sign * move)))
    return _share_for(need) if need > 0.0 else 0.0


class Opening(Glide):
    """Bring a mobject home with a gliding block, held inside the safe area all the way.

    It stands set back by ``offset`` as the glide begins (as :func:`riding_with`
    sets it) and rides with the block, keeping its final distance from it;
    where it would stand past the safe area's edge, it waits at that edge, or
    (``narrows``: an empty block's frame and rules, never a text) its near side
    rides on and its far side waits there, the block narrower, opening out to
    its width as the gliding block makes room.
    """

    def __init__(
        self, mobject: Mobject, offset: np.ndarray, narrows: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(lambda: [mobject], float(offset[1]), float(offset[0]), **kwargs)
        low, high, reach = _ink(mobject)
        self.low, self.high = low + offset[:2], high + offset[:2]  # where it ends
        self.edge = _safe_half() - reach
        self.home = [(m, m.points.copy() + xyz(*offset[:2])) for m in mobject.get_family()]
        self.narrows = narrows

    def interpolate_mobject(self, alpha: float) -> None:
        """Place it where it rides at ``alpha``, inside the safe area."""
        back = np.array([self.dx, self.dy]) * (self.rate_func(alpha) - 1.0)
        low, high = self.low + back, self.high + back
        back[1] = np.clip(back[1], -self.edge[1] - self.low[1], self.edge[1] - self.high[1])
        over = max(0.0, high[0] - self.edge[0]) - max(0.0, -self.edge[0] - low[0])
        width = float(self.high[0] - self.low[0])
        if not self.narrows:  # it waits at the edge, whole
            new_low, scale = low[0] - over, 1.0
        elif self.dx < 0:  # coming from the right: its right side waits at the edge
            new_low, scale = low[0], max(width - max(over, 0.0), 1e-3) / width
        else:
            new_low, scale = low[0] - over, max(width + min(over, 0.0), 1e-3) / width
        for mobject, points in self.home:
            if len(points):
                moved = points + xyz(0.0, back[1])
                moved[:, 0] = new_low + (points[:, 0] - self.low[0]) * scale
                mobject.points = moved

    def open_from(self) -> float:
        """Return the share of the glide from which it stands :data:`OPEN_SHARE` of its width.

        0 for one that does not narrow: it is whole, and inside, all the way.
        """
        width = float(self.high[0] - self.low[0])
        if not self.narrows or not self.dx:
            return 0.0
        # How far its far side may go past its home with the block still that wide.
        inside = self.edge[0] - self.high[0] if self.dx < 0 else self.low[0] + self.edge[0]
        way = 1.0 - (float(inside) + width * (1 - OPEN_SHARE)) / abs(self.dx)
        return _share_for(way) if way > 0 else 0.0


def come_with(
    glide: Animation,
    block: Mobject,
    offset: np.ndarray,
    riders: Sequence[Sequence[Mobject]],
    behind: Sequence[Mobject],
    opening: Sequence[Mobject] = (),
    ways: Mapping[int, np.ndarray] | None = None,
) -> Animation:
    """Play ``glide`` (``block`` going by ``offset``) and bring in what it makes room for.

    ``riders``, in groups that come together (a block and its heading), ride
    with the block (:func:`riding_with`) as they fade in behind it over the
    last :data:`ARRIVAL_SHARE`. A group with a member in ``opening`` (an empty
    block) rides inside the safe area (:class:`Opening`: that member narrows,
    the others wait at the edge, unseen): that member comes once it stands
    :data:`OPEN_SHARE` of its width, each other once it stands inside where it
    rides, on its own; another group comes once all of it stands
    inside the safe area (:func:`inside_from`). Riding in from past the frame's
    right edge with the rows, P's empty block showed 4 units past it and
    touched it at 24.4 s (a 720p review of PositionBlindness's ``arrange``).
    ``behind`` fade in where they stand, once the block has passed them (over
    at least the last :data:`LANDING_SHARE`).

    ``ways`` (by ``id``) gives a rider its own way where it rides with a point
    of the block other than its centre: a block that changes shape as it glides
    (PositionBlindness's rows, 5.0 x 2.7 units becoming 5.7 x 2.0) moved its
    heading 0.3 units nearer its top edge, and a 720p review saw the labels fade
    in at one place and settle at another (issue 18). In an opening group,
    what does not narrow (a heading) comes only once it stands whole inside the
    safe area where it rides, beside the near side of what narrows.
    """
    seconds = float(glide.get_run_time())
    groups = [list(g) for g in riders if g]
    held = [g for g in groups if any(m is o for m in g for o in opening)]

    def way(mobject: Mobject) -> np.ndarray:
        return np.asarray((ways or {}).get(id(mobject), offset), dtype=float)

    rides: list[Glide] = [
        riding_with([m], way(m), seconds) for g in groups if g not in held for m in g
    ]
    faded: list[tuple[list[Mobject], float, type[FadeInBehind]]] = []
    for group in groups:
        if group in held:
            for mobject in group:
                mobject.shift(-way(mobject))
            narrow = [any(m is o for o in opening) for m in group]
            opens = [
                Opening(m, way(m), n, run_time=seconds) for m, n in zip(group, narrow, strict=True)
            ]
            rides += opens
            # What narrows comes as it opens out; whole, a member waits at the edge, so it
            # comes on its own once it stands inside where it rides (waiting for it, P's
            # block came late: 16 % of the frame empty at 0.7 of arrange's first step).
            for o, m, n in zip(opens, group, narrow, strict=True):
                ready = o.open_from() if n else inside_from(m, way(m))
                faded.append(([m], min(ARRIVAL_SHARE, 1.0 - ready), FadeInRiding))
            continue
        ready = max(inside_from(m, way(m)) for m in group)
        faded.append((group, min(ARRIVAL_SHARE, 1.0 - ready), FadeInRiding))
    clear = max((passed_at(block, offset, m) for m in behind), default=0.0)
    late = min(ARRIVAL_SHARE, max(LANDING_SHARE, 1.0 - clear))
    faded.append((list(behind), late, FadeInBehind))
    return AnimationGroup(
        glide,
        *rides,
        *[
            Succession(
                Wait(run_time=seconds * (1.0 - share)),
                AnimationGroup(*[fade(m) for m in group], run_time=seconds * share),
            )
            for group, share, fade in faded
            if group
        ],
    )
