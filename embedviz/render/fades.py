"""Fades that change only colours: Manim's ``FadeIn`` and ``FadeOut`` without the copies.

Manim fades by transforming a mobject between itself and a faded copy: it
copies the whole family two or three times as the fade starts, and on every
frame interpolates every point of every member between two identical
outlines, though only the opacities change. A table of a hundred numbers
fading in paid for both on every frame of FullExplainer's transitions.

:class:`FadeIn` and :class:`FadeOut` here are Manim's classes (so they nest,
subclass and compare as Manim's do) that, for a plain fade of vectorised
mobjects (no ``shift``, ``target_position`` or ``scale``), keep each member's
colours and interpolate those alone, with Manim's own formula
(``(1 - a) * start + a * end``, and the end values themselves at ``a = 1``).
The outlines are left as they are, where Manim's are the same points to
within rounding. A fade that moves, or a member that is not a
:class:`~manim.VMobject`, is Manim's fade unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from manim import (
    DEFAULT_STROKE_WIDTH,
    SMALL_BUFF,
    Animation,
    Mobject,
    SurroundingRectangle,
    VGroup,
    VMobject,
    there_and_back,
)
from manim import FadeIn as ManimFadeIn
from manim import FadeOut as ManimFadeOut

__all__ = [
    "FadeIn",
    "FadeInBehind",
    "FadeInRiding",
    "FadeOut",
    "FadesAsItLeaves",
    "Looks",
    "OutlineIn",
    "Reappear",
    "RingFlash",
    "StepAside",
    "hidden_looks",
    "looks_of",
    "set_looks",
]

# What VMobject.interpolate_color interpolates, in its order; the first three
# hold an opacity column, which a fade takes to zero.
_COLOURS = (
    "fill_rgbas",
    "stroke_rgbas",
    "background_stroke_rgbas",
    "stroke_width",
    "background_stroke_width",
    "sheen_direction",
    "sheen_factor",
)
_WITH_OPACITY = 3

# What a fade interpolates of one member (:func:`looks_of`), in :data:`_COLOURS`' order: the
# parts that recolour or fade a member by hand (batch_focus, batch_fold, batch_legend) use it.
Looks = tuple[Any, ...]


def looks_of(member: VMobject) -> Looks:
    """Copy what a fade interpolates of one member."""
    values = (getattr(member, name) for name in _COLOURS)
    return tuple(np.array(v) if isinstance(v, np.ndarray) else v for v in values)


def hidden_looks(shown: Looks, columns: int = _WITH_OPACITY) -> Looks:
    """Return the looks ``fade(1)`` gives: every opacity zero, everything else as shown.

    ``columns`` 1 zeroes the fill's alone (the stroke stays: an outline).
    """
    hidden = list(shown)
    for index in range(columns):
        rgbas = np.array(shown[index])
        rgbas[:, 3] = 0.0
        hidden[index] = rgbas
    return tuple(hidden)


def set_looks(member: VMobject, start: Looks, end: Looks, alpha: float) -> None:
    """Interpolate one member's colours as VMobject.interpolate_color does."""
    for name, first, last in zip(_COLOURS, start, end, strict=True):
        if alpha == 1.0:
            setattr(member, name, np.array(last) if isinstance(last, np.ndarray) else last)
        else:
            setattr(member, name, (1 - alpha) * first + alpha * last)


class _ColourFade:
    """The plain-fade path shared by :class:`FadeIn` and :class:`FadeOut`."""

    fades_in: bool
    mobject: Any
    shift_vector: Any
    scale_factor: float
    point_target: bool

    def _plain(self) -> bool:
        moves = self.point_target or self.scale_factor != 1 or np.any(self.shift_vector)
        members = self.mobject.family_members_with_points()
        return not moves and all(isinstance(m, VMobject) for m in members)

    def begin(self) -> None:
        """Start the fade: keep each member's colours (no copies), then show its first frame."""
        self._members: list[VMobject] | None = None
        if not self._plain():
            super().begin()  # type: ignore[misc]
            return
        self._members = self.mobject.family_members_with_points()
        shown = [looks_of(member) for member in self._members]
        hidden = [hidden_looks(looks) for looks in shown]
        pairs = (
            zip(hidden, shown, strict=True) if self.fades_in else zip(shown, hidden, strict=True)
        )
        self._ends = list(pairs)
        # Animation.begin without its starting copy.
        self.starting_mobject = self.mobject
        if getattr(self, "suspend_mobject_updating", False):
            self.mobject.suspend_updating()
        self.interpolate(0)  # type: ignore[attr-defined]

    def get_all_mobjects(self) -> Any:
        """Return the faded mobject alone (a plain fade made no copies)."""
        if getattr(self, "_members", None) is None:
            return super().get_all_mobjects()  # type: ignore[misc]
        return [self.mobject]

    def interpolate_mobject(self, alpha: float) -> None:
        """Interpolate each member's colours, with Manim's lag between members."""
        members = getattr(self, "_members", None)
        if members is None:
            super().interpolate_mobject(alpha)  # type: ignore[misc]
            return
        count = len(members)
        for index, (member, (start, end)) in enumerate(zip(members, self._ends, strict=True)):
            sub_alpha = self.get_sub_alpha(alpha, index, count)  # type: ignore[attr-defined]
            set_looks(member, start, end, sub_alpha)


class FadeIn(_ColourFade, ManimFadeIn):
    """Manim's :class:`~manim.FadeIn`, changing only colours for a plain fade.

    Parameters
    ----------
    *mobjects, **kwargs
        As for :class:`manim.FadeIn`.
    """

    fades_in = True


class FadeInBehind(FadeIn):
    """A :class:`FadeIn` under everything on screen: what passes over its place stays in front.

    Empty blocks that fade in at their places while rows glide across them
    (PositionBlindness's ``arrange``) must not veil the rows. Set up mid-play
    (late in a :class:`~manim.Succession`), the mobject is drawn frame by
    frame too, first: Manim's ``bring_to_back`` leaves it out of what the play draws.
    """

    def _setup_scene(self, scene: Any) -> None:
        if scene is None:
            return
        scene.bring_to_back(self.mobject)
        drawn = getattr(scene, "moving_mobjects", None)
        if drawn is not None:
            scene.moving_mobjects = [self.mobject, *(m for m in drawn if m is not self.mobject)]


class FadeInRiding(FadeInBehind):
    """A :class:`FadeInBehind` of what another animation moves meanwhile.

    Manim's own fade transforms between copies made as it begins, which would
    pin the mobject where it started; only the colour-only fade lets it ride
    with a glide (:func:`~embedviz.render.parts.glide.come_with`), so this one
    is colour-only always.
    """

    def _plain(self) -> bool:
        return True


class OutlineIn(FadeIn):
    """Bring a closed outline (a row's ring, a block's frame) in whole, by fading.

    Manim's ``Create`` draws an outline from one corner along its sides, so
    mid-draw its first side stands alone: a 720p review of the moments read
    row 3's ring, begun along its top, as an underline of row 2's last number
    (the very confusion ZeroBasedIndexing teaches against), and part-drawn
    rings of rows 0 and 2 as marks on row 1. Lines that are meant to be drawn
    (strikes, ties, leaders) still use ``Create``.
    """


class RingFlash(OutlineIn):
    """A ring that comes and goes whole round what is pointed at.

    Manim's ``Circumscribe`` runs a slice of an outline round its mobject, so
    at any moment a part of the ring stands alone, and along a row's top or
    bottom it reads as a mark on the neighbouring row (see :class:`OutlineIn`).
    This ring fades in and out in place, and is gone at the end.

    Parameters
    ----------
    mobject
        What is pointed at.
    color
        The ring's colour.
    buff
        The ring's margin round ``mobject``.
    stroke_width
        The ring's line width.
    run_time
        Seconds, in and out.
    **kwargs
        As for :class:`FadeIn`.
    """

    def __init__(
        self,
        mobject: Mobject,
        *,
        color: Any,
        buff: float = SMALL_BUFF,
        stroke_width: float = DEFAULT_STROKE_WIDTH,
        run_time: float = 1.0,
        **kwargs: Any,
    ) -> None:
        ring = SurroundingRectangle(mobject, color=color, buff=buff, stroke_width=stroke_width)
        kwargs.setdefault("rate_func", there_and_back)
        super().__init__(ring, remover=True, run_time=run_time, **kwargs)


class FadeOut(_ColourFade, ManimFadeOut):
    """Manim's :class:`~manim.FadeOut`, changing only colours for a plain fade.

    Parameters
    ----------
    *mobjects, **kwargs
        As for :class:`manim.FadeOut`.
    """

    # Manim's clean-up removes the mobject and interpolates back to 0: the
    # colour path above then gives it back the colours it had.
    fades_in = False


class StepAside(Animation):
    """Fade mobjects out of the way, or back to the very colours they had, on screen throughout.

    Manim's :class:`~manim.FadeOut` removes its mobject when the play ends,
    and a :class:`FadeIn` in the same play starts from the faded colours: a
    mobject faded out and back within one play would stay hidden, then go.
    This fades the colours alone (as :class:`FadeIn` and :class:`FadeOut` do
    for a plain fade), with the colours each member had before it went
    aside kept in ``saved`` for the way back.

    Parameters
    ----------
    mobjects
        What steps aside (or comes back).
    saved
        The members' colours, by ``id``: filled going out, read coming back.
    out
        True to fade out, False to fade back in.
    **kwargs
        Passed to :class:`manim.Animation`.
    """

    def __init__(
        self, mobjects: list[VMobject], saved: dict[int, Looks], out: bool, **kwargs: Any
    ) -> None:
        super().__init__(VGroup(*mobjects), **kwargs)
        self.saved, self.out = saved, out
        self._ends: list[tuple[VMobject, Looks, Looks]] = []

    def begin(self) -> None:
        """Keep (or read back) each member's colours; no starting copy is made."""
        for member in self.mobject.family_members_with_points():
            if not isinstance(member, VMobject):
                continue  # only vectorised mobjects here (as a plain fade)
            if self.out:
                shown = self.saved.setdefault(id(member), looks_of(member))
                self._ends.append((member, looks_of(member), hidden_looks(shown)))
            elif id(member) in self.saved:
                shown = self.saved.pop(id(member))
                self._ends.append((member, looks_of(member), shown))
        self.starting_mobject = self.mobject
        self.interpolate(0)

    def interpolate_mobject(self, alpha: float) -> None:
        """Interpolate each member's colours between where it started and where it goes."""
        for member, start, end in self._ends:
            set_looks(member, start, end, alpha)


class FadesAsItLeaves(Animation):
    """Fade an outline as what it belongs to moves away, and remove it.

    A row's amber outline is its ID's: it stands while the chip waits beside
    the row and while the row's strip slides out of it. Faded on a clock of
    its own, it stood on after a quick chip had gone (a review of the rest of
    the lookups: a ring round row 5 with no chip near it); faded by the chip's
    distance, it was gone before the strip came out (the next review: an empty
    amber box out of an unlit row). Here its opacity follows ``gone`` (how far
    its owner has gone, read every frame): whole up to ``near``, gone by
    ``far``. Play it in the same group as, and after, the motion that moves
    its owner.

    Parameters
    ----------
    outline
        The outline that fades (removed when this ends).
    gone
        How far (scene units) what it belongs to has gone now (read, never moved).
    near, far
        Distances (scene units) at which the fade starts and ends.
    **kwargs
        Passed to :class:`manim.Animation`.
    """

    def __init__(
        self, outline: VMobject, gone: Callable[[], float], near: float, far: float, **kwargs: Any
    ) -> None:
        kwargs.setdefault("remover", True)
        super().__init__(outline, **kwargs)
        self.gone, self.near, self.far = gone, near, max(far, near + 1e-6)
        self.shown = self.filled = 1.0

    def begin(self) -> None:
        """Note how opaque the outline is; no copy is made."""
        outline = self.mobject
        assert isinstance(outline, VMobject)
        self.shown = float(outline.get_stroke_opacity())
        # A filled mark (a hidden row's number, LargeVocabLookup) fades its fill too.
        self.filled = float(outline.get_fill_opacity())
        self.starting_mobject = self.mobject
        self.interpolate(0)

    def interpolate_mobject(self, alpha: float) -> None:
        """Set the outline's opacity from how far its owner has gone (``alpha`` is not read)."""
        gone = float(self.gone())
        kept = min(1.0, max(0.0, (self.far - gone) / (self.far - self.near)))
        outline = self.mobject
        assert isinstance(outline, VMobject)
        outline.set_stroke(opacity=self.shown * kept)
        if self.filled > 0:
            outline.set_fill(opacity=self.filled * kept)


class Reappear(Animation):
    """Hide a mobject now; fade it back to its own colours when this plays.

    As :class:`StepAside` coming back, but its mobject is the mobject itself:
    a group round it would stay on the scene as a root of its own after the
    play (a caption's next line, read as ink under the caption).

    Parameters
    ----------
    mobject
        What waits hidden (hidden as this is built).
    **kwargs
        Passed to :class:`manim.Animation`.
    """

    def __init__(self, mobject: VMobject, **kwargs: Any) -> None:
        super().__init__(mobject, **kwargs)
        self._ends: list[tuple[VMobject, Looks, Looks]] = []
        for member in mobject.family_members_with_points():
            if isinstance(member, VMobject):
                shown = looks_of(member)
                self._ends.append((member, hidden_looks(shown), shown))
                set_looks(member, shown, hidden_looks(shown), 1.0)

    def begin(self) -> None:
        """Start from the hidden colours; no starting copy is made."""
        self.starting_mobject = self.mobject
        self.interpolate(0)

    def interpolate_mobject(self, alpha: float) -> None:
        """Interpolate each member's colours from hidden back to its own."""
        for member, start, end in self._ends:
            set_looks(member, start, end, alpha)
