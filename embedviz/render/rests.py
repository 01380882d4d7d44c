"""Pieces that rest away from their solved places until a later beat needs them there.

A layout solved for its last beat can leave most of the frame empty in its
first ones: ParameterCount's panel fills in section by section. Until the
layout needs them home, a stage's pieces (a block, a line of text) rest
elsewhere, each drawn at a scale of its own about its centre: E large beside
its sizes and count, the sums spread down the panel. A beat names where its
pieces rest at its end (a mapping from piece to :data:`Place`);
:meth:`Rests.settle` eases them there from wherever they stand, and a piece a
beat does not name goes home.

Every place is computed from the piece's solved points, so resting and going
home never drift. The beat's own animation is built with the pieces already
at its places (:meth:`Rests.building`): an outline or a fade-in built then
lands where the piece stands once settled.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
from manim import Animation, Mobject, VMobject
from manim.utils.rate_functions import smooth

__all__ = ["Place", "Rests", "Settle"]

# A piece's scale about its centre, and where that centre goes: (scale, x, y).
Place = tuple[float, float, float]
# Seconds a settle takes.
SETTLE_TIME = 1.0
# The shares of a settle over which a piece that travels unseen fades out, and back in.
FADE_OUT = 0.3
FADE_IN = 0.15
_RGBAS = ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas")


class Rests:
    """Where a stage's pieces stand: home (as solved) or resting at a beat's places.

    Parameters
    ----------
    pieces
        Each piece by name: the mobjects that move together (a piece's
        members keep their arrangement, scaled about the piece's centre).
        Pieces may share mobjects; a beat's places name pieces that do not.
        A piece with nothing drawn (a label a layout has none of) is left out.
    """

    def __init__(self, pieces: Mapping[str, Sequence[Mobject]]) -> None:
        self.pieces: dict[str, list[Mobject]] = {}
        self.home: dict[int, tuple[Mobject, np.ndarray]] = {}
        self.centres: dict[str, np.ndarray] = {}
        for name, members in pieces.items():
            points = [m.points for top in members for m in top.get_family() if len(m.points)]
            if not points:
                continue
            self.pieces[name] = list(members)
            stacked = np.concatenate(points)
            self.centres[name] = (stacked.min(axis=0) + stacked.max(axis=0)) / 2
            for top in members:
                for member in top.get_family():
                    if len(member.points):
                        self.home.setdefault(id(member), (member, member.points.copy()))
        self.places: dict[str, Place] = {}

    def box(self, name: str) -> tuple[float, float, float, float]:
        """Return a piece's solved box ``(left, bottom, right, top)``."""
        points = [
            self.home[id(m)][1]
            for top in self.pieces[name]
            for m in top.get_family()
            if id(m) in self.home
        ]
        stacked = np.concatenate(points)
        low, high = stacked.min(axis=0), stacked.max(axis=0)
        return (float(low[0]), float(low[1]), float(high[0]), float(high[1]))

    def targets(self, places: Mapping[str, Place]) -> dict[int, np.ndarray]:
        """Return every member's points with the pieces at ``places`` (the others home)."""
        found = {key: points for key, (_, points) in self.home.items()}
        for name, (scale, x, y) in places.items():
            centre = self.centres[name]
            to = np.array([x, y, centre[2]])
            for top in self.pieces[name]:
                for member in top.get_family():
                    if id(member) in self.home:
                        home = self.home[id(member)][1]
                        found[id(member)] = to + (home - centre) * scale
        return found

    def put(self, places: Mapping[str, Place]) -> None:
        """Stand the pieces at ``places`` at once (the others home)."""
        for key, points in self.targets(places).items():
            member = self.home[key][0]
            if member.points.shape == points.shape:
                member.points = points.copy()
        self.places = dict(places)

    @contextmanager
    def building(self, places: Mapping[str, Place]) -> Iterator[None]:
        """Stand the pieces at ``places`` while a beat is built, then back where they were."""
        before = self.places
        self.put(places)
        try:
            yield
        finally:
            self.put(before)

    def settle(self, places: Mapping[str, Place], fade: Sequence[str] = ()) -> Settle | None:
        """Return the easing of every piece to ``places``; None if none moves.

        The pieces named in ``fade`` that move fade out as they leave and back
        in as they arrive (:class:`Settle`): a piece whose straight path would
        cross another piece or a line travels unseen.
        """
        targets = self.targets(places)
        moving = [
            (self.home[key][0], points)
            for key, points in targets.items()
            if not np.allclose(self.home[key][0].points, points, rtol=0.0, atol=1e-9)
        ]
        moved = {id(member) for member, _ in moving}
        fading = [
            member
            for name in fade
            for top in self.pieces.get(name, [])
            for member in top.get_family()
            if id(member) in moved
        ]
        self.places = dict(places)
        return Settle(moving, fading=fading) if moving else None


class Settle(Animation):
    """Ease members from where they stand to their target points (uniform scales and moves).

    Parameters
    ----------
    moving
        Each member with the points it ends at.
    fading
        Members of ``moving`` that travel unseen: they fade out over the first
        :data:`FADE_OUT` of the time and back in over the last :data:`FADE_IN`, and stand at
        their own opacity again at the end.
    """

    def __init__(
        self,
        moving: Sequence[tuple[Mobject, np.ndarray]],
        fading: Sequence[Mobject] = (),
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("rate_func", smooth)
        kwargs.setdefault("run_time", SETTLE_TIME)
        # An introducer whose mobject is a stand-in: the scene adds nothing.
        super().__init__(VMobject(), introducer=True, **kwargs)
        self.moving = list(moving)
        self.fading = list({id(m): m for m in fading}.values())
        self.opacities: list[list[np.ndarray]] = []
        self.start: list[np.ndarray] = []

    def _setup_scene(self, scene: Any) -> None:
        """Add nothing: the settle only moves what is already there."""

    def clean_up_from_scene(self, scene: Any) -> None:
        """Remove nothing."""

    def may_move(self) -> list[Mobject]:
        """Return what the settle moves."""
        return [member for member, _ in self.moving]

    def begin(self) -> None:
        """Note where every member starts."""
        self.start = [member.points.copy() for member, _ in self.moving]
        self.opacities = [[getattr(m, name)[:, 3].copy() for name in _RGBAS] for m in self.fading]
        super().begin()

    def create_starting_mobject(self) -> VMobject:
        """Return an empty stand-in: nothing reads it."""
        return VMobject()

    def interpolate_mobject(self, alpha: float) -> None:
        """Put every member ``alpha`` of the way (eased) from its start to its target."""
        eased = self.rate_func(alpha)
        for (member, target), start in zip(self.moving, self.start, strict=True):
            if start.shape != target.shape:
                continue
            # At the end exactly the target: home is the solved layout, to the last bit.
            member.points = target.copy() if eased >= 1.0 else start + (target - start) * eased
        # Out over the first share of the time, unseen between, back in over the last
        # (a shorter one: they come into view only once all but home).
        leaving = 1.0 - alpha / FADE_OUT
        arriving = 1.0 - (1.0 - alpha) / FADE_IN
        seen = float(np.clip(max(leaving, arriving), 0.0, 1.0))
        for member, opacities in zip(self.fading, self.opacities, strict=True):
            for name, opacity in zip(_RGBAS, opacities, strict=True):
                getattr(member, name)[:, 3] = opacity * seen
