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
(the source left behind, not more values of the copy), whole once it is clear
(a column clear, over a few frames at least, and before it lands). A 720p
review of SingleTokenLookup saw E's row 3 blank for the whole slide while the
caption said "It copies the whole row out": a move, not a copy. No number ever
stands under the copy, so no place shows two values.
"""

from __future__ import annotations

import numpy as np
from manim import Scene, VMobject

from embedviz.render.metrics import xyz
from embedviz.render.pace import seconds_of
from embedviz.render.parts.strip import Carry, stretch_fade

__all__ = ["LiftCarry", "RisingLift", "ramp"]


# While the copy still reaches into E, the numbers it has passed show at this share of
# their opacity: the row stays (it is copied, not moved), yet reads as the faint source
# beside its copy, not as more values of it (tests/test_strip_heading.py).
GHOST = 0.35
# Seconds over which a passed number comes up to GHOST: at once to the eye (the copy
# is seen leaving the number behind), yet no more than 0.25 of its opacity per frame
# at 30 fps (tests/test_numbers_fade.py).
GHOST_SECONDS = 0.1


def ramp(alpha: float, start: float, length: float) -> float:
    """Return how far a fade that starts at ``start`` and lasts ``length`` (shares) is at ``alpha``.

    Examples
    --------
    >>> ramp(0.75, 0.5, 0.5), ramp(0.25, 0.5, 0.5), ramp(1.0, 0.5, 0.25)
    (0.5, 0.0, 1.0)
    """
    return min(1.0, max(0.0, (alpha - start) / length))


class LiftCarry(Carry):
    """A :class:`~embedviz.render.parts.strip.Carry` that lifts out of E when its chip rides."""

    lift = False
    under: list[tuple[VMobject, float]]
    back: tuple[float, float, float]  # see _back_times
    passes: list[float]  # when the copy's left edge passes each of ``under`` (shares of its run)
    ghost_fade: float  # GHOST_SECONDS as a share of its run

    def start_from_box(self) -> None:
        """Set its way, and whether it lifts: riding, out of E's right edge."""
        super().start_from_box()
        self.lift = bool(self.rides) and not np.isfinite(self.cover[1])
        if not self.lift:
            return
        self.shade = None
        texts = [*self.grid.get_row_numbers(self.row), *self.grid.marks.get(self.row, [])]
        self.under = [(t, float(t.get_fill_opacity())) for t in texts]
        self.back = self._back_times()

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
        clear = 1.0 if alpha >= 1 else self._back(alpha, y0, y1)
        for (text, opacity), passed in zip(self.under, self.passes, strict=True):
            back = clear + (1.0 - clear) * GHOST * ramp(alpha, passed, self.ghost_fade)
            text.set_fill(opacity=opacity * back)

    def _back_times(self, samples: int = 400) -> tuple[float, float, float]:
        """Return when its row's own numbers in E start and end coming back whole, and a fade.

        As shares of its run. From its first move clear of E's edge to a column clear, and over
        :func:`~embedviz.render.parts.strip.stretch_fade` of its run at least (a fast
        carry's column went by in under a frame); whole before it lands, over that
        share of its run's end at least (a batch's copy lands in a slice less than a
        column from E: its row's numbers stood at 0.2 to 0.65 and popped on as it landed).
        Also sets :attr:`passes` (when its left edge passes each number's right end)
        and :attr:`ghost_fade`.
        """
        column = max((s.size for s in self.grid.col_slots if not s.gap), default=1.0)
        fade = stretch_fade(seconds_of(self), 0.0, 1.0)
        alphas = np.linspace(0.0, 1.0, samples + 1)
        x0 = np.array([self.source_box[0] + float(self._offset(float(a))[0]) for a in alphas])
        self.passes = [_first(alphas, x0 >= float(t.get_right()[0])) for t, _ in self.under]
        seconds = seconds_of(self)
        self.ghost_fade = min(1.0, GHOST_SECONDS / seconds) if seconds > 0 else 1e-9
        clear = (x0 - self.cover[2]) / column
        start, whole = _first(alphas, clear > 0), _first(alphas, clear >= 1)
        return start, max(whole, start + fade), fade

    def _back(self, alpha: float, bottom: float, top: float) -> float:
        """Return how far the row's own numbers in E are whole again at ``alpha`` (0 to 1).

        Its copy's box spans ``bottom`` to ``top`` then (a :class:`RisingLift` reads them).
        """
        start, whole, fade = self.back
        return max(ramp(alpha, start, whole - start), ramp(alpha, 1.0 - fade, fade))

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

    # The lookup's row's height, when E's rows stand looser than the panel's (0: the same).
    land_height = 0.0

    def _slide(self, alpha: float) -> None:
        """Slide as a lift does; rising to its row, the box takes the row's height.

        A small table's rows stand looser than the panel's (the solver grows
        them to fill the frame, issue 18): the copy's box eases to the lookup's
        row's height as it rises, and lands as tall as that row.
        """
        super()._slide(alpha)
        box, (_, bottom, _, top) = self.strip[0], self.source_box
        rise = float(self.path[-1][1] - self.path[0][1]) if len(self.path) else 0.0
        if not self.land_height or abs(rise) < 1e-9 or not len(box.points):
            return
        done = min(1.0, max(0.0, float(self.moved[1]) / rise))
        height = (top - bottom) + (self.land_height - (top - bottom)) * done
        if box.height > 1e-9:
            box.stretch_to_fit_height(height)

    def _back(self, alpha: float, bottom: float, top: float) -> float:
        """Return the larger of the two: clear of E's edge, or clear of its row's line."""
        row_bottom, row_top = self.source_box[1], self.source_box[3]
        height = row_top - row_bottom
        clear = max(bottom - row_top, row_bottom - top)
        return max(super()._back(alpha, bottom, top), min(1.0, max(0.0, clear / height)))


def _first(alphas: np.ndarray, reached: np.ndarray) -> float:
    """Return the first of ``alphas`` where ``reached`` holds (1 where it never does)."""
    return float(alphas[np.argmax(reached)]) if np.any(reached) else 1.0
