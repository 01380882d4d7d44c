"""A riding strip lifts out of its row: the row itself slides out, its chip at its right end.

Issue 18, one thread of motion. A strip slid out
from under E, drawn only past E's edge, and its numbers showed only a column
clear of it (the row read as one more value): its first number showed two
columns out, and the chip riding at its right end crossed the gap between E
and the output block, and entered the block, alone (a 720p review of GPT-2's
sequence; tests/test_chip_thread.py). Here a riding strip is drawn whole, its
numbers shown, from its first move, and the row's own numbers under it are
hidden: each value shows once, in the copy, as the row lifts out of E like a
drawer, its slot left empty and still outlined. They fade back in over the
first column the copy moves clear of E (over a few frames at least), and are
whole before it lands.
"""

from __future__ import annotations

import numpy as np
from manim import Scene, VMobject

from embedviz.render.metrics import xyz
from embedviz.render.pace import seconds_of
from embedviz.render.parts.strip import Carry, stretch_fade

__all__ = ["LiftCarry"]


class LiftCarry(Carry):
    """A :class:`~embedviz.render.parts.strip.Carry` that lifts out of E when its chip rides."""

    lift = False
    under: list[tuple[VMobject, float]]
    back: tuple[float, float, float]  # see _back_times

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
        back = 1.0 if alpha >= 1 else self._back(alpha)
        for text, opacity in self.under:
            text.set_fill(opacity=opacity * back)

    def _back_times(self, samples: int = 400) -> tuple[float, float, float]:
        """Return when its row's own numbers in E start and end coming back, and a fade's share.

        As shares of its run. From its first move clear of E's edge to a column clear, and over
        :func:`~embedviz.render.parts.strip.stretch_fade` of its run at least (a fast
        carry's column went by in under a frame); whole before it lands, over that
        share of its run's end at least (a batch's copy lands in a slice less than a
        column from E: its row's numbers stood at 0.2 to 0.65 and popped on as it landed).
        """
        column = max((s.size for s in self.grid.col_slots if not s.gap), default=1.0)
        fade = stretch_fade(seconds_of(self), 0.0, 1.0)
        alphas = np.linspace(0.0, 1.0, samples + 1)
        x0 = np.array([self.source_box[0] + float(self._offset(float(a))[0]) for a in alphas])
        clear = (x0 - self.cover[2]) / column
        start = float(alphas[np.argmax(clear > 0)]) if np.any(clear > 0) else 1.0
        whole = float(alphas[np.argmax(clear >= 1)]) if np.any(clear >= 1) else 1.0
        return start, max(whole, start + fade), fade

    def _back(self, alpha: float) -> float:
        """Return how far the row's own numbers in E have come back at ``alpha`` (0 to 1)."""
        start, whole, fade = self.back
        clearing, landing = (alpha - start) / (whole - start), (alpha - (1.0 - fade)) / fade
        return min(1.0, max(0.0, clearing, landing))

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
