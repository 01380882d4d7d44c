"""PositionBlindness: while two rows are compared, the other rows recede.

A 720p review (``same`` and ``differ``, both themes, sinusoidal and learned
P): rows 0 and 2 are outlined (amber on the token rows, the highlight on P
and the sums), and row 1, between them, shares its top and bottom borders
with the two outlines, so it read as boxed too (ID 3 in amber broke "amber =
this token ID only"). As the outlines are drawn, every row of those tables
that is not compared (its numbers and its column-gap marks) recedes to the
dimmed colour (:func:`~embedviz.render.design.dimmed`: 3:1 against the
cells' fill, as :meth:`~embedviz.render.parts.grid.CellGrid.dimmed_colours`
dims a row), colours only; the compared rows stay at full strength. They
come back as the outlines leave (``arrange`` turns the rows into full-strength
token rows); ``differ`` ends the scene.

Not :func:`embedviz.render.parts.recede.recede`: that fades blocks which have
served their beat to a readable 4.5:1, from the colours they have when the beat
is built; rows out of focus here drop to the dimmed 3:1, from the colours they
have when the dimming starts (they may still be fading in before it).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any, Protocol

from manim import Animation, VMobject

from embedviz.render.fades import looks_of
from embedviz.render.parts.batch_focus import Recolour, _members, dim_looks

__all__ = ["DimFromNow", "dim_others", "rest_of"]

Position = tuple[int, ...]


class _Rows(Protocol):
    """A block's rows by position (:class:`~embedviz.render.parts.rows.Rows`)."""

    positions: list[Position]

    def row(self, position: Position) -> list[VMobject]: ...


class DimFromNow(Recolour):
    """Take one text from its colours now to its dimmed colours on ``ground`` (3:1 kept)."""

    def __init__(self, mobject: VMobject, ground: str, **kwargs: Any) -> None:
        super().__init__(mobject, _members(mobject), [], share=1.0, **kwargs)
        self.ground = ground

    def begin(self) -> None:
        """Dim from the colours the text has when the animation starts."""
        self.ends = [dim_looks(looks_of(member), self.ground) for member in self.members]
        super().begin()


def dim_others(mobjects: Iterable[VMobject], ground: str) -> list[Animation]:
    """Return one :class:`DimFromNow` per text: each dims on ``ground`` (the cells' fill)."""
    return [DimFromNow(mobject, ground) for mobject in mobjects]


def rest_of(blocks: Sequence[_Rows], pair: Collection[Position]) -> list[VMobject]:
    """Return the numbers and marks of every row of ``blocks`` whose position is not in ``pair``."""
    return [m for rows in blocks for p in rows.positions if p not in pair for m in rows.row(p)]
