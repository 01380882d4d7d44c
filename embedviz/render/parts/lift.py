"""A riding strip lifts out of its row: the row itself slides out, its chip at its right end.

Issue 18, one thread of motion. A strip slid out
from under E, drawn only past E's edge, and its numbers showed only a column
clear of it (the row read as one more value): its first number showed two
columns out, and the chip riding at its right end crossed the gap between E
and the output block, and entered the block, alone (a 720p review of GPT-2's
sequence; tests/test_chip_thread.py). Here a riding strip is drawn whole, its
numbers shown, from its first move, and the row's own numbers under it are
hidden, as the row lifts out of E, its slot still outlined. Each shows again
as the copy's left edge passes it: faint while the copy still reaches into E
(the source left behind, not more values of the copy), whole once it is clear.
A 720p review of SingleTokenLookup saw E's row 3 blank for the whole slide
while the caption said "It copies the whole row out": a move, not a copy. No
number ever stands under the copy, so no place shows two values.
"""

from __future__ import annotations

import numpy as np
from manim import Scene, VMobject

from embedviz.render.metrics import xyz
from embedviz.render.parts.strip import Carry

__all__ = ["LiftCarry", "RisingLift", "uncovered"]


# How far past a number's right end the copy's left edge goes while the number
# fades back in, in columns: a quick fade, so the row reads as whole again at once,
# yet no frame shows a number cut by the copy's edge at full strength.
UNCOVER_RAMP = 0.25
# While the copy still reaches into E, the numbers it has passed show at this share of
# their opacity: the row stays (it is copied, not moved), yet reads as the faint source
# beside its copy, not as more values of it (tests/test_strip_heading.py).
GHOST = 0.35


def uncovered(text: VMobject, left_edge: float, column: float) -> float:
    """Return how far ``text`` shows again: 0 while the copy's ``left_edge`` is over it.

    It starts to show once the copy's left edge has passed its right end, and is
    whole :data:`UNCOVER_RAMP` of a ``column`` later.
    """
    past = left_edge - float(text.get_right()[0])
    return min(1.0, max(0.0, past / (UNCOVER_RAMP * column)))


class LiftCarry(Carry):
    """A :class:`~embedviz.render.parts.strip.Carry` that lifts out of E when its chip rides."""

    lift = False
    under: list[tuple[VMobject, float]]

    def start_from_box(self) -> None:
        """Set its way, and whether it lifts: riding, out of E's right edge."""
        super().start_from_box()
        self.lift = bool(self.rides) and not np.isfinite(self.cover[1])
        if not self.lift:
            return
        self.shade = None
        texts = [*self.grid.get_row_numbers(self.row), *self.grid.marks.get(self.row, [])]
        self.under = [(t, float(t.get_fill_opacity())) for t in texts]

    def _slide(self, alpha: float) -> None:
        """Move it: lifting, drawn whole, the row's numbers under it hidden."""
        super()._slide(alpha)
        if not self.lift:
            return
        box, numbers, marks = self.strip[0], self.strip[1], self.strip[2]
        left, bottom, right, top = self.source_box
        dx, dy = (float(v) for v in self.moved[:2])
        x0, y0, x1, y1 = left + dx, bottom + dy, right + dx, top + dy
        corners = [xyz(x0, y1), xyz(x1, y1), xyz(x1, y0), xyz(x0, y0)]
        box.set_points_as_corners([*corners, corners[0]])
        box.set_fill(opacity=1.0).set_stroke(opacity=1.0)
        for text in [*numbers.submobjects, *marks.submobjects]:
            text.set_fill(opacity=1.0)
        column = max((s.size for s in self.grid.col_slots if not s.gap), default=1.0)
        clear = 1.0 if alpha >= 1 else self._back(x0, y0, y1)
        for text, opacity in self.under:
            back = clear + (1.0 - clear) * GHOST * uncovered(text, x0, column)
            text.set_fill(opacity=opacity * back)

    def _back(self, left: float, bottom: float, top: float) -> float:
        """Return how far E's row is whole again, its copy's box at ``left`` (its bottom, top).

        Over the first :data:`UNCOVER_RAMP` of a column the copy moves clear of E's
        edge (till then only the numbers it has passed show, faintly).
        """
        column = max((s.size for s in self.grid.col_slots if not s.gap), default=1.0)
        return min(1.0, max(0.0, (left - self.cover[2]) / (UNCOVER_RAMP * column)))

    def may_move(self) -> list[VMobject]:
        """Return E's row numbers it may hide and show again: drawn every frame of its play."""
        if not self.rides:
            return []
        return [*self.grid.get_row_numbers(self.row), *self.grid.marks.get(self.row, [])]

    def _land(self, scene: Scene) -> None:
        """Land, the row's numbers in E shown again."""
        if self.lift and not self.landed:
            for text, opacity in self.under:
                text.set_fill(opacity=opacity)
        super()._land(scene)


class RisingLift(LiftCarry):
    """A lift whose copy stops short of a column clear of E, then rises (or falls) to its row.

    OneHotEquivalence's row i lands in the lookup's row, under the product, which
    starts closer to E than a column: E's row faded back in only part way (a third,
    the toy's), then whole at once as the copy landed. It also fades back in over
    the first row's height its copy has risen clear of it: off its row's line, the
    copy no longer reads as more of the row's values.
    """

    def _back(self, left: float, bottom: float, top: float) -> float:
        """Return the larger of the two: clear of E's edge, or clear of its row's line."""
        row_bottom, row_top = self.source_box[1], self.source_box[3]
        height = row_top - row_bottom
        clear = max(bottom - row_top, row_bottom - top)
        return max(super()._back(left, bottom, top), min(1.0, max(0.0, clear / height)))
