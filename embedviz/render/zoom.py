"""A close-up that pulls back: the content drawn larger until a later beat needs the room.

A layout solved for its last beat can leave room empty for most of the video:
SingleTokenLookup at GPT-2's size keeps a band under E and the output row for
the PyTorch print, which comes only in its fourth beat. Until then the frame
shows the content scaled up about one point (as a camera's close-up would),
filling the frame; the beat that needs the room pulls back to the layout as
solved (:meth:`Zoom.pull_back`).

Every beat is built and played in the solved layout's coordinates, so no part
has to know about the close-up: :meth:`Zoom.wrap` turns a beat's animation
into one that undoes the close-up on everything on screen (and on what the
animation moves), plays its frame, and redoes it. The title and the captions
are not scaled.

A :class:`Stretch` is the same in height only, for a layout as wide as the
frame that leaves a band empty under what it shows first: the rows spread
apart, and every text keeps its size (TrainingNudge's introduction).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
from manim import Animation, Group, Mobject, config, smooth

from embedviz.render.animations import Steps, beat_steps, mobjects_that_may_move
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import MARGIN, MAX_DATA_PX, SPACE, px_for_font
from embedviz.render.formula import FormulaText
from embedviz.render.glyphs import GlyphString, SansText
from embedviz.render.parts.captions import Caption
from embedviz.render.parts.chips import Chip
from embedviz.render.stage import StageHost

__all__ = [
    "Stretch",
    "Zoom",
    "close_up",
    "moved_by",
    "spread_close_up",
    "stage_close_up",
    "stage_stretch",
    "stretch_fit",
]

# What a spread close-up keeps in shape: texts, typeset formulas and chips.
PIECES = (GlyphString, SansText, FormulaText, Chip)


def close_up(
    content: tuple[float, float, float, float],
    room: tuple[float, float, float, float],
    largest: float,
) -> tuple[float, np.ndarray] | None:
    """Return the scale and the fixed point that fit ``content`` to ``room``, centred.

    Parameters
    ----------
    content, room
        ``(left, bottom, right, top)`` of what is drawn, and of where it may go.
    largest
        The largest scale allowed (the type scale's ceiling over today's size).

    Returns
    -------
    tuple or None
        The scale and the point it is taken about; None when it would not
        grow the content by at least 5 %.
    """
    found = spread_close_up(content, room, largest, 1.0)
    return None if found is None else (found[0], found[2])


def spread_close_up(
    content: tuple[float, float, float, float],
    room: tuple[float, float, float, float],
    largest: float,
    most_spread: float,
    least_spread: float = 1.0,
    focus: tuple[float, float, float, float] | None = None,
) -> tuple[float, float, np.ndarray] | None:
    """Return a close-up whose pieces also stand further apart up and down, to fill the room.

    A layout wider than the room's shape is bound by the width: scaled
    alone, it leaves bands empty above and below it. Its pieces (texts and
    chips, drawn at the scale) may stand up to ``most_spread`` times further
    apart vertically than the scale alone puts them (as a looser pitch would):
    places scale by the factor across and by the factor times the spread up
    and down.

    Bound by the height, they may stand closer, down to ``least_spread``.
    ``focus`` (by default the content) is centred as far as the content stays
    in the room: what shows first, when room is kept for what comes later.

    Returns
    -------
    tuple or None
        The scale, the spread and the fixed point (of each axis); None when the
        close-up would not grow the content by at least 5 %.
    """
    left, bottom, right, top = content
    room_w, room_h = room[2] - room[0], room[3] - room[1]
    factor = min(room_w / (right - left), room_h / (top - bottom) / least_spread, largest)
    if factor < 1.05:
        return None
    spread = max(least_spread, min(most_spread, room_h / (top - bottom) / factor))
    scales = np.array([factor, factor * spread, 1.0])
    seen = content if focus is None else focus
    centre = np.array([(seen[0] + seen[2]) / 2, (seen[1] + seen[3]) / 2, 0.0])
    target = np.array([(room[0] + room[2]) / 2, (room[1] + room[3]) / 2, 0.0])
    # Keep the whole content inside the room: move the target by what spills over.
    for axis, (low, high) in enumerate(((left, right), (bottom, top))):
        lowest = target[axis] + scales[axis] * (low - centre[axis])
        highest = target[axis] + scales[axis] * (high - centre[axis])
        target[axis] += max(0.0, room[axis] - lowest) - max(0.0, highest - room[axis + 2])
    # The point that stays put, per axis: target = fixed + scale * (centre - fixed).
    fixed = np.zeros(3)
    fixed[:2] = (target[:2] - scales[:2] * centre[:2]) / (1 - scales[:2])
    return factor, spread, fixed


def stage_close_up(
    scene: StageHost,
    title: Mobject,
    shown: Sequence[Mobject],
    data_font: float,
    keep: Sequence[Mobject] = (),
    most_spread: float = 1.0,
    least_spread: float = 1.0,
    focus: Sequence[Mobject] = (),
) -> Zoom | None:
    """Return a close-up that fills the frame with what a stage shows first, if it grows it.

    Parameters
    ----------
    scene
        The scene (everything on it is drawn larger, but the kept mobjects).
    title
        The title: the close-up fills the band between it and the captions.
    shown
        What the stage shows before its layout needs the rest of the frame.
    data_font
        The table numbers' font size: the close-up stops at the type scale's
        ceiling (``MAX_DATA_PX``).
    keep
        Mobjects drawn at their own size besides the title and the captions.
    most_spread, least_spread
        How much further apart (or closer) up and down than the scale its
        pieces may stand (:func:`spread_close_up`; 1: a plain close-up).
    focus
        What is centred (:func:`spread_close_up`); by default all of ``shown``.

    Returns
    -------
    Zoom or None
        None when the close-up would not grow the content by 5 %.
    """
    boxes = np.array(mobject_boxes(list(shown)))
    content = (*boxes[:, :2].min(axis=0), *boxes[:, 2:].max(axis=0))
    band = content_band(title)
    half = float(config.frame_width) / 2 - MARGIN
    room = (-half, band[1] + SPACE, half, band[3] - SPACE)
    inner = np.array(mobject_boxes(list(focus))) if focus else None
    seen = None if inner is None else (*inner[:, :2].min(axis=0), *inner[:, 2:].max(axis=0))
    largest = MAX_DATA_PX / px_for_font(data_font)
    found = spread_close_up(content, room, largest, most_spread, least_spread, seen)
    if found is None:
        return None
    factor, spread, fixed = found

    def kept() -> list[Mobject]:
        everything = [m for top in scene.mobjects for m in top.get_family()]
        return [title, *keep, *(m for m in everything if isinstance(m, Caption))]

    return Zoom(factor, fixed, lambda: list(scene.mobjects), kept, spread)


def moved_by(animation: Animation) -> list[Mobject]:
    """Return every mobject an animation moves, through groups and successions.

    (An :class:`~manim.AnimationGroup`'s own mobject leaves out what its
    introducers bring in.)
    """
    mobject: Any = animation.mobject
    found: list[Mobject] = [mobject] if mobject is not None else []
    for inner in getattr(animation, "animations", ()):
        found += moved_by(inner)
    return found


class Zoom:
    """A close-up of everything on screen but the title and captions.

    Parameters
    ----------
    factor
        How much larger than the solved layout the content is drawn.
    fixed
        The point the scaling is taken about (per axis).
    content
        Returns the mobjects on screen now.
    kept
        Returns the mobjects that keep their size and place (the title, the
        captions), with their families.
    spread
        How much further apart up and down the pieces stand than ``factor``
        puts them: a text or a chip is drawn at ``factor`` about its own
        centre (never stretched), and that centre, like every other point
        (a frame's, an outline's, a path's), scales by ``factor`` across and
        ``factor * spread`` up and down.
    """

    # The kinds of mobject drawn at the scale about their own centres, never stretched.
    pieces: tuple[type, ...] = PIECES

    def __init__(
        self,
        factor: float,
        fixed: np.ndarray,
        content: Callable[[], Iterable[Mobject]],
        kept: Callable[[], Iterable[Mobject]],
        spread: float = 1.0,
    ) -> None:
        self.factor = factor
        self.spread = spread
        self.fixed = fixed
        self.content = content
        self.kept = kept

    def _members(self, extra: Iterable[Mobject] = ()) -> tuple[list[Mobject], list[list[Mobject]]]:
        """Every mobject with points on screen (and in ``extra``), each once (groups share).

        Returns the loose members, and the pieces (each a text's or a chip's
        members with points), which keep their shape: the outermost piece
        claims its family, in whichever group it is reached first.
        """
        kept = {id(m) for top in self.kept() for m in top.get_family()}
        tops = [*self.content(), *extra]
        found: dict[int, Mobject] = {}
        roots: dict[int, Mobject] = {}
        for top in tops:
            for member in top.get_family():
                if id(member) not in kept:
                    found.setdefault(id(member), member)
                    if isinstance(member, self.pieces):
                        roots.setdefault(id(member), member)
        claimed: set[int] = set()
        pieces: list[list[Mobject]] = []
        for root in sorted(roots.values(), key=lambda m: -len(m.get_family())):
            if id(root) in claimed:
                continue
            family = [m for m in root.get_family() if id(m) not in claimed]
            claimed.update(id(m) for m in family)
            pieces.append([m for m in family if len(m.points) and id(m) not in kept])
        loose = [m for m in found.values() if len(m.points) and id(m) not in claimed]
        return loose, [p for p in pieces if p]

    def _scales(self) -> np.ndarray:
        return np.array([self.factor, self.factor * self.spread, 1.0])

    def _rescale(
        self, old: np.ndarray, new: np.ndarray, found: tuple[list[Mobject], list[list[Mobject]]]
    ) -> None:
        """Move every member from the mapping with scales ``old`` to the one with ``new``."""
        if np.allclose(old, new, rtol=0.0, atol=1e-15):
            return
        ratio = new / old
        loose, pieces = found
        for member in loose:
            member.points = self.fixed + (member.points - self.fixed) * ratio
        for piece in pieces:
            points = np.concatenate([m.points for m in piece])
            centre = (points.min(axis=0) + points.max(axis=0)) / 2
            moved = self.fixed + (centre - self.fixed) * ratio
            for member in piece:
                member.points = moved + (member.points - centre) * ratio[0]

    @contextmanager
    def solved(self, extra: Callable[[], Iterable[Mobject]] = tuple) -> Iterator[None]:
        """Undo the close-up for the block (on the screen and on ``extra()``), then redo it.

        ``extra`` is asked again at the end: what a beat builds inside the
        block, in the solved layout, joins the close-up there.
        """
        ones = np.ones(3)
        self._rescale(self._scales(), ones, self._members(extra()))
        try:
            yield
        finally:
            self._rescale(ones, self._scales(), self._members(extra()))

    def wrap(self, animation: Animation) -> Animation:
        """Return the beat's animation played under the close-up, step by step."""
        if self.factor == 1.0:
            return animation
        steps = [_Closer(step, self) for step in beat_steps(animation)]
        return Steps(*steps) if len(steps) > 1 else steps[0]

    def pull_back(self) -> Animation:
        """Return the camera's pull-back: the content shrinks to the layout as solved."""
        return _PullBack(self)


# Texts move as wholes under a stretch: their glyphs keep their shapes.
_TEXTS = (GlyphString, SansText, FormulaText)


class Stretch(Zoom):
    """A close-up in height only: the rows spread apart and every text keeps its size.

    Where the solved layout is as wide as the frame but leaves a band empty
    under what a stage shows first (TrainingNudge's E and gradient, before the
    weights come), the content is drawn taller instead of larger: every point
    moves away from the line ``y = fixed[1]`` by ``factor`` (a cell's frame
    grows taller), and every text moves as a whole with its centre, at its own
    size. The scaling composes like the :class:`Zoom`'s, so the beats, the
    solved block and the pull-back work alike.
    """

    # Texts move as wholes (chips stretch with the rows, as the cells' frames do).
    pieces = _TEXTS

    def _scales(self) -> np.ndarray:
        return np.array([1.0, self.factor, 1.0])


def stretch_fit(
    units: Sequence[tuple[float, float, bool]], room: tuple[float, float]
) -> tuple[float, float] | None:
    """Return the factor and the fixed line that stretch ``units`` to fill ``room``, centred.

    Parameters
    ----------
    units
        ``(bottom, top, text)`` of each thing drawn: a text moves with its
        centre at its own size, anything else is stretched.
    room
        ``(bottom, top)`` of where they may go.

    Returns
    -------
    tuple or None
        The factor and the line ``y = fixed`` it is taken about; None when it
        would not make the content 5 % taller.
    """

    def extent(factor: float) -> tuple[float, float]:
        lows, highs = [], []
        for bottom, top, text in units:
            if text:
                centre, half = (bottom + top) / 2 * factor, (top - bottom) / 2
                lows.append(centre - half)
                highs.append(centre + half)
            else:
                lows.append(bottom * factor)
                highs.append(top * factor)
        return min(lows), max(highs)

    def height(factor: float) -> float:
        low, high = extent(factor)
        return high - low

    wanted = room[1] - room[0]
    if height(1.05) > wanted:
        return None
    low, high = 1.05, 1.05
    while height(high) < wanted and high < 64:
        low, high = high, high * 2
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if height(middle) < wanted else (low, middle)
    factor = low
    bottom, top = extent(factor)
    # y -> factor * y + offset centres it; that is a stretch about y = offset / (1 - factor).
    offset = (room[0] + room[1]) / 2 - (bottom + top) / 2
    return factor, offset / (1 - factor)


def stage_stretch(
    scene: StageHost, title: Mobject, shown: Sequence[Mobject], keep: Sequence[Mobject] = ()
) -> Stretch | None:
    """Return a stretch that fills the band's height with what a stage shows first.

    Parameters
    ----------
    scene
        The scene (everything on it is stretched, but the kept mobjects).
    title
        The title: the stretch fills the band between it and the captions.
    shown
        What the stage shows before its layout needs the rest of the frame.
    keep
        Mobjects left as they are besides the title and the captions.

    Returns
    -------
    Stretch or None
        None when it would not make the content 5 % taller.
    """
    band = content_band(title)

    def kept() -> list[Mobject]:
        everything = [m for top in scene.mobjects for m in top.get_family()]
        return [title, *keep, *(m for m in everything if isinstance(m, Caption))]

    measured = Stretch(1.0, np.zeros(3), lambda: list(shown), lambda: [title, *keep])
    loose, pieces = measured._members()
    units = [(float(m.points[:, 1].min()), float(m.points[:, 1].max()), False) for m in loose]
    for piece in pieces:
        ys = np.concatenate([m.points[:, 1] for m in piece])
        units.append((float(ys.min()), float(ys.max()), True))
    found = stretch_fit(units, (band[1] + SPACE, band[3] - SPACE))
    if found is None:
        return None
    factor, line = found
    return Stretch(factor, np.array([0.0, line, 0.0]), lambda: list(scene.mobjects), kept)


class _Closer(Animation):
    """One step of a beat, computed and played in the solved layout's coordinates."""

    def __init__(self, inner: Animation, zoom: Zoom) -> None:
        self.inner, self.zoom = inner, zoom
        super().__init__(inner.mobject, run_time=inner.get_run_time(), rate_func=lambda t: t)
        self.introducer, self.remover = inner.is_introducer(), inner.is_remover()

    def _moved(self) -> list[Mobject]:
        return moved_by(self.inner)

    def may_move(self) -> list[Mobject]:
        """Return what the step may move without naming it (a glide in it, say)."""
        return mobjects_that_may_move([self.inner])

    def set_run_time(self, run_time: float) -> Animation:
        self.inner.set_run_time(run_time)
        return super().set_run_time(run_time)

    def _setup_scene(self, scene: Any) -> None:
        self.inner._setup_scene(scene)

    def begin(self) -> None:
        with self.zoom.solved(self._moved):
            self.inner.begin()

    def interpolate(self, alpha: float) -> None:
        with self.zoom.solved(self._moved):
            self.inner.interpolate(alpha)

    def update_mobjects(self, dt: float) -> None:
        with self.zoom.solved(self._moved):
            self.inner.update_mobjects(dt)

    def finish(self) -> None:
        with self.zoom.solved(self._moved):
            self.inner.finish()

    def clean_up_from_scene(self, scene: Any) -> None:
        self.inner.clean_up_from_scene(scene)


class _PullBack(Animation):
    """The close-up eases back to the solved layout (the zoom's factor ends at 1)."""

    def __init__(self, zoom: Zoom) -> None:
        self.zoom = zoom
        self.start = (zoom.factor, zoom.spread)
        # What it moves, as the renderer must know (everything under the close-up); an
        # introducer, so that the scene does not add the group itself.
        moved = Group(*zoom.content())
        super().__init__(moved, run_time=1.0, rate_func=smooth, introducer=True)

    def _setup_scene(self, scene: Any) -> None:
        """Add nothing: the pull-back only moves what is already there."""

    def may_move(self) -> list[Mobject]:
        """Return everything under the close-up: all of it shrinks."""
        return list(self.zoom.content())

    def begin(self) -> None:
        # What comes on during the pull-back is built in the solved layout: left alone.
        self.start, self.members = (self.zoom.factor, self.zoom.spread), self.zoom._members()

    def interpolate(self, alpha: float) -> None:
        zoom, eased = self.zoom, self.rate_func(alpha)
        old = zoom._scales()
        zoom.factor, zoom.spread = (s + (1.0 - s) * eased for s in self.start)
        zoom._rescale(old, zoom._scales(), self.members)

    def update_mobjects(self, dt: float) -> None:
        """Nothing of its own to update."""

    def finish(self) -> None:
        self.interpolate(1.0)

    def clean_up_from_scene(self, scene: Any) -> None:
        """Nothing to add or remove."""
