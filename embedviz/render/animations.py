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
from itertools import pairwise
from typing import Any

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    ManimColor,
    Mobject,
    Rectangle,
    Scene,
    Succession,
    Transform,
    VGroup,
    VMobject,
    interpolate_color,
)
from manim.animation.animation import prepare_animation
from manim.utils.rate_functions import linear, smooth

from embedviz.render.glyphs import NumberText
from embedviz.render.mobjects import MatrixGrid, TokenChip
from embedviz.render.theme import DARK, Theme

__all__ = [
    "RowStrip",
    "Steps",
    "beat_steps",
    "make_caption_animation",
    "make_carry_numbers_animation",
    "make_copy_row_animation",
    "make_count_rows_animation",
    "make_deferred_animation",
    "make_dim_rows_animation",
    "make_fade_out_later",
    "make_lookup_animation",
    "make_return_animation",
    "make_reveal_animation",
    "make_row_strip",
    "make_walk_animation",
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
    # One after the other: two sentences overlapping for a moment are unreadable.
    return Succession(_FadeOutAndVanish(old, run_time=0.25), FadeIn(new, run_time=0.35))


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
        scene.remove(self.mobject)  # type: ignore[arg-type]  # a Mobject under Cairo


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
        _move(chip, np.asarray(home), 0.2, opacity=0.55),
    )


# Drawn above everything else, so a travelling row is never hidden by a fill.
STRIP_Z = 20


def make_row_strip(grid: MatrixGrid, row: int, theme: Theme = DARK) -> RowStrip:
    """Build a copy of a row's numbers inside a highlight strip, above everything.

    Parameters
    ----------
    grid
        The matrix.
    row
        The row to copy.
    theme
        Colours.

    Returns
    -------
    RowStrip
        The strip (a filled box) and copies of the row's numbers, in column
        order, then its elision marks: one rigid unit that keeps the grid's
        spacing and alignment.
    """
    cells = VGroup(*[cell.copy() for cell in grid.row_cells(row)])
    # The row's elision marks travel with it, so the output row needs none drawn before.
    marks = [m.copy() for m in grid.row_group(row)[1] if not isinstance(m, NumberText)]
    box = grid.row_box(row, theme)
    fill = interpolate_color(ManimColor(theme.background), ManimColor(theme.highlight), 0.22)
    box.set_fill(fill, opacity=1.0).set_stroke(theme.highlight, width=3)
    box.set_z_index(STRIP_Z)
    cells.set_z_index(STRIP_Z + 1)
    extras = VGroup(*marks).set_z_index(STRIP_Z + 1)
    return RowStrip(box, cells, extras)


class RowStrip(VGroup):
    """A travelling row: its box, its numbers in column order, its elision marks.

    Tests find travelling rows by :attr:`row_strip` and check they stay rigid.
    """

    row_strip = True


def make_copy_row_animation(
    grid: MatrixGrid,
    row: int,
    targets: Sequence[NumberText],
    route: Sequence[np.ndarray] = (),
    theme: Theme = DARK,
    keep_marks: bool = False,
) -> Animation:
    """Carry a copy of a row, as one rigid strip, into its output cells.

    Parameters
    ----------
    grid
        The matrix.
    row
        The row being copied.
    targets
        The output numbers, one per drawn column, already positioned at the
        same spacing as the grid's; they replace the strip's numbers when it
        lands.
    route
        Waypoints for the strip's first number, between the row and its
        first target: the strip travels in straight legs through them (a
        stage routes it around titles, chips and other numbers).
    theme
        Colours.
    keep_marks
        Leave the row's elision marks where the strip lands (for an output
        block that draws none of its own).

    Returns
    -------
    Animation
        The strip lifts off the row, travels leg by leg without changing shape,
        lands cell-aligned, and hands over to the output numbers.
    """
    return _CarryRow(grid, row, targets, route, theme, keep_marks, run_time=1.2)


class _StripAlongPath(Animation):
    """A strip that lights up, travels a polyline by pure shifts, and lands.

    Subclasses build the strip's parts in ``begin`` (so nothing of it is on
    screen while earlier parts of the beat play), then call :meth:`_set_path`.
    Moving by shifts alone keeps the strip rigid.
    """

    def __init__(self, **kwargs: Any) -> None:
        self.strip = RowStrip()
        super().__init__(self.strip, rate_func=linear, introducer=True, **kwargs)
        self.scene_ref: Scene | None = None

    def _setup_scene(self, scene: Scene) -> None:
        self.scene_ref = scene
        super()._setup_scene(scene)

    def _set_path(self, points: Sequence[np.ndarray]) -> None:
        self.points_on_path: list[np.ndarray] = list(points)
        lengths = [float(np.linalg.norm(b - a)) for a, b in pairwise(self.points_on_path)]
        self.cumulative = np.concatenate([[0.0], np.cumsum(lengths)])
        self.offset = np.zeros(3)

    def create_starting_mobject(self) -> VMobject:
        # Nothing reads it; a real copy would deep-copy the strip every beat.
        return VMobject()

    def _point_at(self, progress: float) -> np.ndarray:
        total = float(self.cumulative[-1])
        if total <= 0:
            return np.zeros(3)
        distance = smooth(progress) * total
        leg = int(np.searchsorted(self.cumulative, distance, side="right")) - 1
        leg = min(max(leg, 0), len(self.points_on_path) - 2)
        length = self.cumulative[leg + 1] - self.cumulative[leg]
        along = 0.0 if length <= 0 else (distance - self.cumulative[leg]) / length
        a, b = self.points_on_path[leg], self.points_on_path[leg + 1]
        point: np.ndarray = a + (b - a) * along - self.points_on_path[0]
        return point

    def interpolate_mobject(self, alpha: float) -> None:
        # 0-0.12: the strip lights up where it starts; then it travels; 0.92-1: it lands.
        box = self.strip[0]
        light = min(1.0, alpha / 0.12, max(0.0, (1.0 - alpha) / 0.08))
        box.set_fill(opacity=light).set_stroke(opacity=light)
        offset = self._point_at(min(1.0, max(0.0, (alpha - 0.12) / 0.8)))
        self.strip.shift(offset - self.offset)
        self.offset = offset


class _CarryRow(_StripAlongPath):
    """A grid row's strip that fades in on its row, travels, and lands.

    When the play ends it hands over to the output numbers.
    """

    def __init__(
        self,
        grid: MatrixGrid,
        row: int,
        targets: Sequence[NumberText],
        route: Sequence[np.ndarray],
        theme: Theme,
        keep_marks: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.grid = grid
        self.row = row
        self.targets = list(targets)
        self.route = [np.asarray(p, dtype=float) for p in route]
        self.theme = theme
        self.keep_marks = keep_marks

    def begin(self) -> None:
        built = make_row_strip(self.grid, self.row, self.theme)
        self.strip.add(*built.submobjects)
        start = built[1][0].get_center()
        self._set_path([start, *self.route, self.targets[0].get_center()])
        super().begin()

    def clean_up_from_scene(self, scene: Scene) -> None:
        marks = list(self.strip[2].submobjects) if self.keep_marks else []
        scene.remove(self.strip)
        # Kept marks rest at the depth of the numbers they land among.
        depth = self.targets[0].z_index if self.targets else 0
        for mark in marks:
            mark.set_z_index(depth)
        scene.add(*self.targets, *marks)


def make_carry_numbers_animation(
    sources: Sequence[VMobject],
    targets: Sequence[Mobject],
    route: Sequence[np.ndarray] = (),
    theme: Theme = DARK,
    *,
    take: bool = False,
    run_time: float = 1.2,
) -> Animation:
    """Carry numbers on one line, as one rigid highlighted strip, onto their targets.

    The general form of :func:`make_copy_row_animation` for numbers that are
    not a grid's row: a sum worked out beside a block, a block's row, a count.

    Parameters
    ----------
    sources
        The numbers, left to right on one line.
    targets
        What they become, one per source, at the same spacing (so that the
        strip lands cell-aligned); they replace the strip when it lands.
    route
        Waypoints for the first number's centre between its place and its
        target's: the strip travels in straight legs through them.
    theme
        Colours.
    take
        Carry the sources themselves (they leave their place) rather than
        copies of them (which lift off while the sources stay).
    run_time
        Seconds.

    Returns
    -------
    Animation
        The strip lights up where the numbers are, travels leg by leg by pure
        shifts, lands, and hands over to the targets.
    """
    return _CarryNumbers(sources, targets, route, theme, take, run_time=run_time)


class _CarryNumbers(_StripAlongPath):
    """A strip of numbers (copies, or the numbers themselves) that travels a polyline."""

    def __init__(
        self,
        sources: Sequence[VMobject],
        targets: Sequence[Mobject],
        route: Sequence[np.ndarray],
        theme: Theme,
        take: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.sources = list(sources)
        self.targets = list(targets)
        self.route = [np.asarray(p, dtype=float) for p in route]
        self.theme = theme
        self.take = take

    def begin(self) -> None:
        theme = self.theme
        if self.take:
            numbers = self.sources
            if self.scene_ref is not None:
                self.scene_ref.remove(*numbers)
        else:
            numbers = [source.copy() for source in self.sources]
        left = min(float(n.get_left()[0]) for n in numbers)
        right = max(float(n.get_right()[0]) for n in numbers)
        tallest = max(float(n.height) for n in numbers)
        pad = tallest * 0.6
        box = Rectangle(width=right - left + 2 * pad, height=tallest * 2.0)
        box.move_to(np.array([(left + right) / 2, float(numbers[0].get_center()[1]), 0.0]))
        fill = interpolate_color(ManimColor(theme.background), ManimColor(theme.highlight), 0.22)
        box.set_fill(fill, opacity=1.0).set_stroke(theme.highlight, width=3)
        box.set_z_index(STRIP_Z)
        cells = VGroup(*numbers).set_z_index(STRIP_Z + 1)
        self.strip.add(box, cells, VGroup())
        start = numbers[0].get_center()
        end = self.targets[0].get_center() if self.targets else start
        self._set_path([start, *self.route, end])
        super().begin()

    def clean_up_from_scene(self, scene: Scene) -> None:
        scene.remove(self.strip)
        scene.add(*self.targets)


def make_deferred_animation(build: Callable[[], Animation], run_time: float = 1.0) -> Animation:
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

    Returns
    -------
    Animation
        The wrapper.
    """
    return _Deferred(build, run_time=run_time)


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

    return make_deferred_animation(build, run_time)


class _Deferred(Animation):
    """Plays the animation ``build`` returns, built when this one begins."""

    def __init__(self, build: Callable[[], Animation], **kwargs: Any) -> None:
        super().__init__(VMobject(), rate_func=linear, introducer=True, **kwargs)
        self.build = build
        self.inner: Animation | None = None
        self.scene_ref: Scene | None = None

    def _setup_scene(self, scene: Scene) -> None:
        self.scene_ref = scene

    def begin(self) -> None:
        self.inner = self.build()
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
        AnimationGroup(make_walk_animation(chip, grid, row, lane_y), Create(box)),
        make_copy_row_animation(grid, row, targets, route, theme, keep_marks=bool(route)),
        AnimationGroup(back, FadeOut(box), *[FadeIn(tag) for tag in provenance]),
    )


def make_count_rows_animation(grid: MatrixGrid, row: int) -> Animation:
    """Pulse the row numbers from 0 up to ``row``, counting from zero."""
    labels = [grid.row_labels[r] for r in sorted(grid.row_labels) if r <= row]
    return LaggedStart(*[Indicate(label, scale_factor=1.6) for label in labels], lag_ratio=0.5)


def make_dim_rows_animation(grid: MatrixGrid, rows: Sequence[int]) -> Animation:
    """Fade the rows that no ID selected."""
    if not rows:
        return Indicate(VGroup(*grid.row_labels.values()), scale_factor=1.0)
    animations = [
        # manim types `.animate` as `_AnimationBuilder | Self` so that chained calls
        # type-check; at runtime it is the builder, built here as AnimationGroup would.
        prepare_animation(grid.row_group(r).animate.set_opacity(0.28))  # type: ignore[arg-type]
        for r in rows
    ]
    return AnimationGroup(*animations)
