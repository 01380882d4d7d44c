"""E's row numbers take the ID's amber while their rows stand outlined in it (issue 18).

Amber means "this token ID": its chip, its row's outline and its output tag.
The number of the row being looked up *is* that ID, so while the row stands
outlined in amber its number is written in the ID's amber text colour
(``Theme.id_ink``), and goes back to its own colour as the outline goes: a
student follows the ID from chip to row number to row.

The outline's life is spread over many paths (a chip's arrival, the count to a
named row, the outline a beat keeps, the fade as the copy lands, a kept one
released), so the number does not follow any of them: it follows the outline
itself. E's grid (:class:`~embedviz.render.parts.matrix_grid.MatrixGrid`) notes
every amber outline it draws (:meth:`IdRows.watch`), and at every frame
(:func:`light_id_rows`, from the scene's ``update_mobjects`` and the end of each
play) a number takes ``id_ink`` as far as its row's most opaque outline on the
scene is opaque: the same fade, frame for frame, never a blink of its own. The
numbers that may change in a play are drawn frame by frame
(:func:`id_numbers_moving`), not painted into the play's still background.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from manim import Animation, ManimColor, Mobject, VMobject, interpolate_color

__all__ = ["IdRows", "id_numbers_moving", "light_id_rows"]

_ALL: weakref.WeakSet[IdRows] = weakref.WeakSet()


class IdRows:
    """A grid's row numbers and the amber outlines drawn round their rows.

    Parameters
    ----------
    labels
        The row numbers, by row (read when lit: labels added later count).
    ink
        The ID's amber as text (``Theme.id_ink``).
    """

    def __init__(self, labels: Mapping[int, VMobject], ink: str) -> None:
        self.labels = labels
        self.ink = ink
        self.outlines: dict[int, list[VMobject]] = {}
        # A lit number's own colour, to go back to when its row's outline has gone.
        self.rest: dict[int, Any] = {}
        # Outlines seen on the scene: one not yet seen may come in with any play, even one
        # that names it only once it has begun (a scroll that builds its steps as it plays).
        self.seen: set[int] = set()
        _ALL.add(self)

    def watch(self, row: int, outline: VMobject) -> None:
        """Light ``row``'s number whenever ``outline`` shows, as opaque as it is."""
        self.outlines.setdefault(row, []).append(outline)

    def shown(self, row: int, on_scene: set[int]) -> float:
        """Return how opaque ``row``'s most opaque outline on the scene is (0: none shows)."""
        shown = [o for o in self.outlines[row] if id(o) in on_scene]
        self.seen.update(id(o) for o in shown)
        opacities = [float(o.get_stroke_opacity()) for o in shown]
        return max(opacities, default=0.0)

    def light(self, on_scene: set[int]) -> None:
        """Colour each watched row's number from its outline's opacity now."""
        for row in self.outlines:
            label = self.labels.get(row)
            if label is None:
                continue
            shown = self.shown(row, on_scene)
            if shown <= 0.0:
                if row in self.rest:
                    label.set_fill(self.rest.pop(row))
                continue
            if row not in self.rest:
                inked = label.family_members_with_points()
                self.rest[row] = (inked[0] if inked else label).get_fill_color()
            label.set_fill(interpolate_color(self.rest[row], ManimColor(self.ink), shown))

    def moving(self, touched: set[int]) -> list[Mobject]:
        """Return the numbers that may change colour in a play that ``touched`` these ids.

        Those lit, those of outlines it touches, and those of outlines not yet shown.
        """
        rows = set(self.rest)
        for row, outlines in self.outlines.items():
            if any(id(o) in touched or id(o) not in self.seen for o in outlines):
                rows.add(row)
        return [self.labels[r] for r in rows if r in self.labels]


def _family_ids(mobjects: Iterable[Mobject]) -> set[int]:
    return {id(member) for mobject in mobjects for member in mobject.get_family()}


def light_id_rows(mobjects: Sequence[Mobject]) -> None:
    """Colour every watched row number from its row's outline on the scene (``mobjects``)."""
    live = [rows for rows in _ALL if rows.outlines]
    if not live:
        return
    on_scene = _family_ids(mobjects)
    for rows in live:
        rows.light(on_scene)


def id_numbers_moving(
    mobjects: Sequence[Mobject], animations: Sequence[Animation], may_move: Iterable[Mobject]
) -> list[Mobject]:
    """Return the row numbers a play may recolour: those of outlines it shows, moves or fades.

    ``mobjects`` is the scene's, ``may_move`` what the play's animations say they may move.
    """
    live = [rows for rows in _ALL if rows.outlines]
    if not live:
        return []
    named: list[Any] = [animation.mobject for animation in animations]
    touched = _family_ids([*mobjects, *named, *may_move])
    return [label for rows in live for label in rows.moving(touched)]
