"""Animation factories: each returns one Animation for one kind of beat.

They move small things (a chip, a row's few numbers, a caption) rather than
fading whole grids in and out, because manim's cost per animation grows with
the size of the mobjects it copies and interpolates.

A factory whose motion tells a story in parts (walk to the row, copy it out,
go back) returns :class:`Steps`: the scene starts part *k* with phrase *k* of
the beat's narration (see :class:`~embedviz.render.base.StoryboardScene`).
Any other Animation plays as a single step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Mobject,
    Scene,
    Succession,
    Transform,
    VMobject,
)
from manim.utils.rate_functions import linear, there_and_back

from embedviz.render.carry import (
    RowStrip,
    make_carry_numbers_animation,
    make_copy_row_animation,
    make_row_strip,
)
from embedviz.render.design import RING_BUFF, USED_CHIP_OPACITY
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn, Reappear, RingFlash
from embedviz.render.glyphs import NumberText
from embedviz.render.mobjects import MatrixGrid, TokenChip
from embedviz.render.pace import give_seconds, seconds_of
from embedviz.render.theme import DARK, Theme

__all__ = [
    "RowStrip",
    "Steps",
    "beat_steps",
    "make_caption_animation",
    "make_carry_numbers_animation",
    "make_copy_row_animation",
    "make_deferred_animation",
    "make_fade_out_later",
    "make_lookup_animation",
    "make_return_animation",
    "make_reveal_animation",
    "make_row_strip",
    "make_walk_animation",
    "mobjects_that_may_move",
    "point_at",
    "steps_together",
]


class Steps(Succession):
    """A beat's animation in parts, each started with its phrase of the narration.

    :class:`~embedviz.render.base.StoryboardScene` plays the parts one by one:
    part *k* starts when the beat's phrase *k* starts (parts beyond the
    phrases follow on at once), each at its share of the beat's ``run_time``,
    so the beat lasts exactly as long as before. Anything that plays it as a
    plain Animation (a notebook, a test, a caller that knows nothing of steps)
    gets a :class:`manim.Succession` of the same parts.

    Parameters
    ----------
    *steps
        The parts, in order; their run times weigh their shares of the beat's
        ``run_time``. A nested ``Steps`` is spread into its parts.
    **kwargs
        Passed to :class:`manim.Succession`.

    Examples
    --------
    >>> from manim import Circle, FadeIn, FadeOut, Wait
    >>> dot = Circle()
    >>> len(Steps(FadeIn(dot), Wait(), FadeOut(dot)).steps)
    3
    """

    def __init__(self, *steps: Animation, **kwargs: Any) -> None:
        parts = [part for step in steps for part in beat_steps(step)]
        if not parts:
            raise ValueError("Steps needs at least one step")
        super().__init__(*parts, **kwargs)

    @property
    def steps(self) -> tuple[Animation, ...]:
        """The parts, in playing order."""
        return tuple(self.animations)


def beat_steps(animation: Animation) -> tuple[Animation, ...]:
    """Return the parts a beat plays one by one.

    Parameters
    ----------
    animation
        What a beat handler returned.

    Returns
    -------
    tuple of Animation
        The parts of a :class:`Steps`; any other animation is one step.
    """
    if isinstance(animation, Steps):
        return animation.steps
    return (animation,)


def steps_together(*animations: Animation) -> Animation:
    """Play animations at the same time, step by step when any of them has steps.

    A stage built from components can join its components' animations for a
    beat with this instead of :class:`manim.AnimationGroup`, which would hide
    their steps: step *k* of the result plays step *k* of each of them.

    Parameters
    ----------
    *animations
        The animations; a plain one is a single step.

    Returns
    -------
    Animation
        :class:`Steps` of :class:`manim.AnimationGroup` s, or one
        :class:`manim.AnimationGroup` when none has steps.
    """
    parts = [beat_steps(animation) for animation in animations]
    if all(len(p) == 1 for p in parts):
        return AnimationGroup(*animations)
    count = max(len(p) for p in parts)
    return Steps(*[AnimationGroup(*[p[k] for p in parts if k < len(p)]) for k in range(count)])


def make_caption_animation(old: VMobject | None, new: VMobject) -> Animation:
    """Swap the narration line: the old one fades out as the new one fades in."""
    if old is None:
        return FadeIn(new, run_time=0.5)
    # One after the other: two sentences overlapping for a moment are unreadable. The new
    # one waits hidden: manim adds a play's mobjects as the play begins, and, whole, the
    # new line stood over the old one still fading (where a step began with its phrase).
    return Succession(_FadeOutAndVanish(old, run_time=0.25), Reappear(new, run_time=0.35))


class _FadeOutAndVanish(FadeOut):
    """Fade out, then drop the outline at once.

    manim removes a faded mobject only when the whole play ends; until then it
    would be drawn, invisibly, on every remaining frame of the beat.
    """

    def interpolate(self, alpha: float) -> None:
        super().interpolate(alpha)
        if alpha >= 1:
            for part in self.mobject.family_members_with_points():
                part.set_points(np.zeros((0, 3)))

    def clean_up_from_scene(self, scene: Scene) -> None:
        # FadeOut would restore the mobject for reuse; a caption is never reused.
        scene.remove(self.mobject)


def make_reveal_animation(
    appearing: Sequence[VMobject], leaving: Sequence[VMobject] = ()
) -> Animation:
    """Fade small pieces in (and others out) together."""
    animations: list[Animation] = [FadeIn(mobject) for mobject in appearing]
    animations += [FadeOut(mobject) for mobject in leaving]
    return AnimationGroup(*animations)


def _move(
    mobject: VMobject, point: np.ndarray, run_time: float, opacity: float | None = None
) -> Animation:
    """Move to an absolute point (and fade), safe to chain on one mobject.

    Chained ``mobject.animate`` calls would share ``mobject.target``, so every
    step of a path built in advance would head for the last point.
    """
    target = mobject.copy().move_to(point)
    if opacity is not None:
        target.set_opacity(opacity)
    return Transform(mobject, target, run_time=run_time)


# How far above the input line chips travel, clear of the labels beside it.
_LANE_RISE = 0.5


def make_walk_animation(
    chip: TokenChip, grid: MatrixGrid, row: int, lane_y: float | None = None
) -> Animation:
    """Walk a token chip to park beside its zero-based row.

    It leaves the input line for a clear lane (``lane_y``, or just above the
    line), travels along it, and comes down the lane left of the row numbers,
    so it never passes over a cell, a label or another chip.
    """
    start = chip.get_center()
    anchor = grid.row_anchor(row, chip.width)
    lane = start[1] + _LANE_RISE if lane_y is None else lane_y
    return Succession(
        _move(chip, np.array([start[0], lane, 0.0]), 0.2),
        _move(chip, np.array([anchor[0], lane, 0.0]), 0.4),
        _move(chip, anchor, 0.4),
    )


def make_return_animation(
    chip: TokenChip,
    start: np.ndarray,
    home: Sequence[float] | np.ndarray,
    lane_y: float | None = None,
) -> Animation:
    """Send a chip from ``start`` back to its place in the input line, dimmed.

    Targets are absolute, so this can be built before the chip has moved. It
    travels along ``lane_y`` (by default just above the input line).
    """
    lane = home[1] + _LANE_RISE if lane_y is None else lane_y
    return Succession(
        _move(chip, np.array([start[0], lane, 0.0]), 0.3),
        _move(chip, np.array([home[0], lane, 0.0]), 0.3),
        _move(chip, np.asarray(home), 0.2, opacity=USED_CHIP_OPACITY),
    )


def make_deferred_animation(
    build: Callable[[], Animation],
    run_time: float = 1.0,
    touches: Callable[[], Sequence[Mobject]] | None = None,
) -> Animation:
    """Build an animation only when it starts, inside a :class:`~manim.Succession`.

    manim puts every mobject of a play's non-introducing animations (a
    ``FadeOut``, a ``Transform``) on screen when the play begins, so a later
    step's mobjects would show, at full opacity, before their turn. Wrapped,
    a step touches nothing until it starts.

    Parameters
    ----------
    build
        Returns the animation, when it starts.
    run_time
        Seconds (relative to its neighbours in a succession).
    touches
        Returns what the animation may change, asked when the play begins
        (see :func:`mobjects_that_may_move`); by default everything on screen.

    Returns
    -------
    Animation
        The wrapper.
    """
    return _Deferred(build, run_time=run_time, touches=touches)


def mobjects_that_may_move(animations: Sequence[Animation]) -> list[Mobject]:
    """Return what a play's animations may change without naming it as their mobject.

    Manim paints every mobject that no animation of a play names (and that
    sits under all the named ones) into one still background when the play
    begins, and draws only the rest frame by frame. An animation that gathers
    what it moves as it starts (a glide of the output block) or is built then
    (a deferred step) names nothing, so what it moves would stay painted where
    it was. Such an animation says what it may change with a ``may_move()``
    method; this collects them, through groups and successions.

    Parameters
    ----------
    animations
        A play's animations.

    Returns
    -------
    list
        The mobjects (with their families) that must be drawn every frame.
    """
    found: list[Mobject] = []
    for animation in animations:
        may_move = getattr(animation, "may_move", None)
        if may_move is not None:
            found += [member for mobject in may_move() for member in mobject.get_family()]
        if isinstance(animation, AnimationGroup):
            found += mobjects_that_may_move(animation.animations)
    return found


def make_fade_out_later(mobjects: Sequence[VMobject], run_time: float = 1.0) -> Animation:
    """Fade mobjects out as a later step of a succession, untouched until then.

    Parameters
    ----------
    mobjects
        What leaves.
    run_time
        Seconds (relative to its neighbours in a succession).

    Returns
    -------
    Animation
        A :func:`make_deferred_animation` of their fade-outs.
    """
    gone = list(mobjects)

    def build() -> Animation:
        return AnimationGroup(*[FadeOut(mobject) for mobject in gone])

    return make_deferred_animation(build, run_time, touches=lambda: gone)


class _Deferred(Animation):
    """Plays the animation ``build`` returns, built when this one begins."""

    def __init__(
        self,
        build: Callable[[], Animation],
        touches: Callable[[], Sequence[Mobject]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(VMobject(), rate_func=linear, introducer=True, **kwargs)
        self.build = build
        self.touches = touches
        self.inner: Animation | None = None
        self.scene_ref: Scene | None = None

    def _setup_scene(self, scene: Scene) -> None:
        self.scene_ref = scene

    def may_move(self) -> Sequence[Mobject]:
        """Return what the animation, not built yet, may change: all on screen unless told."""
        if self.touches is not None:
            return self.touches()
        return list(self.scene_ref.mobjects) if self.scene_ref is not None else []

    def begin(self) -> None:
        self.inner = self.build()
        # Built only now: it lasts what this step was given (see give_seconds).
        give_seconds(self.inner, seconds_of(self))
        if self.scene_ref is not None:
            self.inner._setup_scene(self.scene_ref)
        self.inner.begin()

    def interpolate(self, alpha: float) -> None:
        if self.inner is not None:
            self.inner.interpolate(alpha)

    def update_mobjects(self, dt: float) -> None:
        if self.inner is not None:
            self.inner.update_mobjects(dt)

    def finish(self) -> None:
        if self.inner is not None:
            self.inner.finish()

    def clean_up_from_scene(self, scene: Scene) -> None:
        if self.inner is not None:
            self.inner.clean_up_from_scene(scene)


def make_lookup_animation(
    chip: TokenChip,
    home: Sequence[float] | np.ndarray,
    grid: MatrixGrid,
    row: int,
    targets: Sequence[NumberText],
    theme: Theme = DARK,
    route: Sequence[np.ndarray] = (),
    lane_y: float | None = None,
    provenance: Sequence[VMobject] = (),
) -> Steps:
    """Walk a chip to its row, copy the row out, send the chip back dimmed.

    Parameters
    ----------
    chip
        The token's chip.
    home
        Where the chip rests in the input line.
    grid
        The matrix.
    row
        The zero-based row the ID selects.
    targets
        The output numbers the row's copy becomes.
    theme
        Colours.
    route
        Waypoints of the copied row (see :func:`make_copy_row_animation`).
    lane_y
        The clear lane the chip travels along.
    provenance
        Tags that fade in beside the landed row (its ID, its word piece) as the
        chip goes home.

    Returns
    -------
    Steps
        Three steps, each started with its phrase: walk and highlight the
        row, copy it out, go back (and tag the landed row).
    """
    box = grid.row_box(row, theme)
    back = make_return_animation(chip, grid.row_anchor(row, chip.width), home, lane_y)
    return Steps(
        AnimationGroup(make_walk_animation(chip, grid, row, lane_y), OutlineIn(box)),
        make_copy_row_animation(grid, row, targets, route, theme, keep_marks=bool(route)),
        AnimationGroup(back, FadeOut(box), *[FadeIn(tag) for tag in provenance]),
    )


def point_at(
    mobject: Mobject,
    colour: str,
    scale: float = 1.0,
    buff: float = RING_BUFF,
    run_time: float = 1.0,
    ring: bool = True,
    about_edge: np.ndarray | None = None,
) -> Animation:
    """Point at what the narration names: an outline in the highlight passes round it.

    A highlight never recolours what it points at: a value's colour says its
    sign and size, and every other number keeps its own colour too. A single
    text, or a line of a number and its words, may also swell (``scale``) as a
    whole, each member in its own colour.

    Parameters
    ----------
    mobject
        What is pointed at.
    colour
        The highlight.
    scale
        How far it swells (1: not at all).
    buff
        The outline's margin: by default enough that its ink stands clear of
        what it rounds (:data:`~embedviz.render.design.RING_BUFF`).
    run_time
        Seconds.
    ring
        Draw the passing outline (False: only the swell, for a part of a
        label whose outline goes round the whole label).
    about_edge
        The edge that stays put as it swells (None: it swells about its centre).

    Returns
    -------
    Animation
        The passing outline (and the swell).
    """
    if scale == 1.0:
        return RingFlash(mobject, color=colour, buff=buff, run_time=run_time)
    # Swell there and back, every member in its own colour (a line of a number and its
    # words grows as a whole, its gaps with it).
    swollen = mobject.copy().scale(scale, about_edge=about_edge)
    swell = Transform(mobject, swollen, rate_func=there_and_back, run_time=run_time)
    if not ring:
        return swell
    # The ring goes round the text at its largest: round it as it stands, a wide label
    # swelling by a tenth ran out through the ring's sides (a frame review: the violet
    # lines struck through LargeVocabLookup's "columns 1–766 hidden").
    outline = RingFlash(swollen, color=colour, buff=buff, run_time=run_time)
    return AnimationGroup(outline, swell)
