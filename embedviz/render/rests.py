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

from embedviz.render.parts.glide import glide_floor

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
        placed: set[int] = set()  # a member two placed pieces share goes with the first
        for name, (scale, x, y) in places.items():
            centre = self.centres[name]
            to = np.array([x, y, centre[2]])
            for top in self.pieces[name]:
                for member in top.get_family():
                    if id(member) in self.home and id(member) not in placed:
                        placed.add(id(member))
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

    def settle(
        self, places: Mapping[str, Place], fade: Sequence[str] = (), lead: float = 0.0
    ) -> Settle | None:
        """Return the easing of every piece to ``places``; None if none moves.

        The pieces named in ``fade`` that move fade out as they leave and back
        in as they arrive (:class:`Settle`): a piece whose straight path would
        cross another piece or a line travels unseen. With ``lead``, each piece
        named in ``places`` glides whole on a curve, across first and up or down
        after (:class:`Settle`).
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
        groups = self._groups(places, moved)
        self.places = dict(places)
        if not moving:
            return None
        return Settle(moving, fading=fading, groups=groups, lead=lead)

    def _members(self, name: str) -> list[Mobject]:
        """Return a piece's members, each drawn part of it."""
        return [m for top in self.pieces[name] for m in top.get_family() if id(m) in self.home]

    def _groups(self, places: Mapping[str, Place], moved: set[int]) -> list[list[Mobject]]:
        """Return the moving members that keep their arrangement as they go, in groups.

        A group is what one piece at ``places`` (or home) holds of one piece where
        they stand now (or of what stands home): only that goes from one uniform scale of its
        solved points to another (the count's two lines, each a piece, join into one).
        """
        was = {id(m): name for name in self.places for m in self._members(name)}
        groups: dict[tuple[str, str], list[Mobject]] = {}
        placed: set[int] = set()
        for name in places:
            for member in self._members(name):
                if id(member) in moved:
                    groups.setdefault((name, was.get(id(member), "")), []).append(member)
                    placed.add(id(member))
        for name in self.places:  # what goes home, by where it stood
            for member in self._members(name):
                if id(member) in moved and id(member) not in placed:
                    groups.setdefault(("", name), []).append(member)
                    placed.add(id(member))
        return list(groups.values())


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
    groups
        Members that keep their arrangement as they go (a piece): with ``lead``, each
        group's centre moves across first and up or down after, and its scale changes
        with its move across, so that it stays one undistorted whole on its curve.
    lead
        The share of the time by which the move across leads the move up or down:
        each takes the last ``1 - lead`` of it (across first). A piece that goes
        up past another's side, on a straight path, crossed it (issue 18: at
        ParameterCount's ``compare`` the memory table, going up and right, ran over
        E's right column and the count's two lines ran into each other).
    """

    def __init__(
        self,
        moving: Sequence[tuple[Mobject, np.ndarray]],
        fading: Sequence[Mobject] = (),
        groups: Sequence[Sequence[Mobject]] = (),
        lead: float = 0.0,
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
        self.lead = float(lead)
        index = {id(member): k for k, (member, _) in enumerate(self.moving)}
        self.groups = [[index[id(m)] for m in g if id(m) in index] for g in groups] if lead else []
        self.lanes: list[tuple[np.ndarray, np.ndarray, float]] = []

    def floor(self) -> float:
        """Return the least seconds it may last: no corner of a member glides too fast.

        Each axis moves over ``1 - lead`` of the time, so that much faster at its peak.
        """
        far = 0.0
        for member, target in self.moving:
            if len(member.points) and member.points.shape == target.shape:
                for axis in range(2):
                    for pick in (np.min, np.max):
                        far = max(far, abs(pick(target[:, axis]) - pick(member.points[:, axis])))
        return glide_floor(far, 0.0) / (1.0 - self.lead)

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
        self.lanes = [self._lane(group) for group in self.groups]
        self.opacities = [[getattr(m, name)[:, 3].copy() for name in _RGBAS] for m in self.fading]
        super().begin()

    def _lane(self, group: list[int]) -> tuple[np.ndarray, np.ndarray, float]:
        """Return a group's start centre, target centre and scale (target over start)."""
        ends = []
        for points in ([self.start[k] for k in group], [self.moving[k][1] for k in group]):
            stacked = np.concatenate([p for p in points if len(p)])
            low, high = stacked.min(axis=0), stacked.max(axis=0)
            ends.append(((low + high) / 2, float(np.max(high[:2] - low[:2]))))
        (c0, w0), (c1, w1) = ends
        return c0, c1, (w1 / w0 if w0 > 0 else 1.0)

    def create_starting_mobject(self) -> VMobject:
        """Return an empty stand-in: nothing reads it."""
        return VMobject()

    def _curve(self, alpha: float) -> None:
        """Put every group on its curve at ``alpha``: across first, up or down after."""
        span = 1.0 - self.lead
        across = self.rate_func(min(1.0, alpha / span))
        down = self.rate_func(max(0.0, (alpha - self.lead) / span))
        for group, (c0, c1, ratio) in zip(self.groups, self.lanes, strict=True):
            centre = c0 + (c1 - c0) * np.array([across, down, across])
            scale = 1.0 + (ratio - 1.0) * across
            for k in group:
                member, target = self.moving[k]
                if self.start[k].shape == target.shape:
                    member.points = (
                        target.copy() if alpha >= 1.0 else centre + (self.start[k] - c0) * scale
                    )

    def interpolate_mobject(self, alpha: float) -> None:
        """Put every member ``alpha`` of the way (eased) from its start to its target."""
        eased = self.rate_func(alpha)
        for (member, target), start in zip(self.moving, self.start, strict=True):
            if start.shape != target.shape:
                continue
            # At the end exactly the target: home is the solved layout, to the last bit.
            member.points = target.copy() if eased >= 1.0 else start + (target - start) * eased
        if self.groups:
            self._curve(alpha)
        # Out over the first share of the time, unseen between, back in over the last
        # (a shorter one: they come into view only once all but home).
        leaving = 1.0 - alpha / FADE_OUT
        arriving = 1.0 - (1.0 - alpha) / FADE_IN
        seen = float(np.clip(max(leaving, arriving), 0.0, 1.0))
        for member, opacities in zip(self.fading, self.opacities, strict=True):
            for name, opacity in zip(_RGBAS, opacities, strict=True):
                getattr(member, name)[:, 3] = opacity * seen
