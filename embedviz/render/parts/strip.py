"""A row strip: a copy of a matrix row that lifts off, travels a clear path and lands cell-aligned.

The strip is the row's numbers (and its elision marks) in a box outlined in
amber, the colour of the ID that fetched it, following the ID's chip home (the
chip stays on the output row as its tag). The solver keeps the strip's path
clear (out to the right at the row's height, then along a free column, then
into the output row), and the strip never covers its source row: while it
still overlaps the row it slides off, only its hollow amber frame shows, and
its numbers appear once it is clear.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from manim import Animation, Rectangle, Scene, VGroup, VMobject
from manim.utils.rate_functions import linear, smooth

from embedviz.render.design import Theme
from embedviz.render.glyphs import NumberText
from embedviz.render.metrics import xyz
from embedviz.render.parts.chips import Chip
from embedviz.render.parts.grid import CellGrid
from embedviz.story.model import NumberCell

__all__ = ["STRIP_Z", "Carry", "RowStrip", "make_strip"]

# Drawn above everything else, so nothing's fill hides a travelling row.
STRIP_Z = 20


class RowStrip(VGroup):
    """A travelling row: its box, its numbers in column order, its elision marks.

    Tests find travelling rows by :attr:`row_strip` and :attr:`source_row`.
    """

    row_strip = True

    def __init__(self, *parts: VMobject, source_row: int = -1) -> None:
        super().__init__(*parts)
        self.source_row = source_row


def make_strip(grid: CellGrid, row: int, theme: Theme) -> RowStrip:
    """Copy a matrix row into a strip: box (neutral fill, amber outline), numbers, marks."""
    numbers = VGroup(*[number.copy() for number in grid.get_row_numbers(row)])
    marks = VGroup(*[mark.copy() for mark in grid.marks.get(row, VGroup())])
    left, bottom, right, top = grid.row_box(row, buff=0.0)
    box = Rectangle(width=right - left, height=top - bottom)
    box.move_to(xyz((left + right) / 2, (bottom + top) / 2))
    box.set_fill(theme.cell_fill, opacity=1.0).set_stroke(theme.chip, width=3.5)
    box.set_z_index(STRIP_Z)
    numbers.set_z_index(STRIP_Z + 1)
    marks.set_z_index(STRIP_Z + 1)
    return RowStrip(box, numbers, marks, source_row=row)


class Carry(Animation):
    """A row's strip lifts off, travels a polyline, and lands in its output row.

    Parameters
    ----------
    grid
        The matrix.
    row
        The row it copies.
    chip
        The ID's chip; once the strip lands it stands for the output row's tag
        (None when no chip fetched the row, e.g. a slip's wrong row).
    tag
        The output row's ``output_id`` cell: the chip stands for it once landed
        (None when the chip keeps the cell it has).
    targets
        The output row's numbers, already in their slots; they replace the
        strip's numbers when it lands.
    waypoints
        Where the strip's reference point (its box's centre) goes after its
        start, in order; the last is its landing place.
    theme
        Colours.
    **kwargs
        Passed to :class:`manim.Animation`.
    """

    def __init__(
        self,
        grid: CellGrid,
        row: int,
        chip: Chip | None,
        tag: NumberCell | None,
        targets: Sequence[NumberText],
        waypoints: Sequence[np.ndarray],
        theme: Theme,
        **kwargs: Any,
    ) -> None:
        self.strip = RowStrip(source_row=row)
        super().__init__(self.strip, rate_func=linear, introducer=True, **kwargs)
        self.grid, self.row, self.chip, self.tag = grid, row, chip, tag
        self.targets = list(targets)
        self.waypoints = [np.asarray(p, dtype=float) for p in waypoints]
        self.theme = theme
        self.moved = np.zeros(3)
        self.path = np.zeros((0, 3))
        self.lengths = np.zeros(0)
        self.scene_ref: Scene | None = None
        self.landed = False

    def _setup_scene(self, scene: Scene) -> None:
        # The scene, to hand over to the output numbers as soon as this finishes.
        self.scene_ref = scene
        super()._setup_scene(scene)

    def begin(self) -> None:
        """Build the strip on its row (only now, so nothing of it shows before its turn)."""
        built = make_strip(self.grid, self.row, self.theme)
        self.strip.add(*built.submobjects)
        start = self.strip[0].get_center()
        self.path = np.array([start, *self.waypoints])
        self.lengths = np.concatenate(
            [[0.0], np.cumsum(np.linalg.norm(np.diff(self.path, axis=0), axis=1))]
        )
        left, bottom, right, top = self.grid.row_box(self.row, buff=0.0)
        self.source_size = (right - left, top - bottom)
        super().begin()

    def create_starting_mobject(self) -> VMobject:
        """Return an empty stand-in: nothing reads it."""
        return VMobject()

    def _offset(self, alpha: float) -> np.ndarray:
        total = float(self.lengths[-1])
        if total <= 0:
            return np.zeros(3)
        distance = smooth(alpha) * total
        leg = min(
            max(int(np.searchsorted(self.lengths, distance, side="right")) - 1, 0),
            len(self.path) - 2,
        )
        span = self.lengths[leg + 1] - self.lengths[leg]
        along = 0.0 if span <= 0 else (distance - self.lengths[leg]) / span
        point: np.ndarray = self.path[leg] + (self.path[leg + 1] - self.path[leg]) * along
        offset: np.ndarray = point - self.path[0]
        return offset

    def interpolate_mobject(self, alpha: float) -> None:
        """Move the strip to where it is at ``alpha``; show its numbers once clear of its row."""
        offset = self._offset(alpha)
        step = offset - self.moved
        self.strip.shift(step)
        self.moved = offset
        # Still over its own row: only the amber frame slides off it (hollow),
        # so the row underneath stays readable; the copy's numbers appear as
        # soon as it is clear of the row, out to the right or up or down.
        width, height = self.source_size
        cleared = max(
            max(0.0, float(offset[0])) / max(width, 1e-9), abs(float(offset[1])) / max(height, 1e-9)
        )
        opacity = 0.0 if cleared < 1.0 else min(1.0, (cleared - 1.0) * 8)
        box, numbers, marks = self.strip[0], self.strip[1], self.strip[2]
        numbers.set_fill(opacity=opacity)
        marks.set_fill(opacity=opacity)
        box.set_fill(opacity=0.0 if cleared < 1.0 else 1.0)

    def finish(self) -> None:
        """Land at once, so that a later step of a succession sees the output row filled."""
        super().finish()
        if self.scene_ref is not None:
            self._land(self.scene_ref)

    def clean_up_from_scene(self, scene: Scene) -> None:
        """Land, if :meth:`finish` has not."""
        self._land(scene)

    def _land(self, scene: Scene) -> None:
        """Hand over: the output numbers take the strip's place, the chip becomes the row's tag."""
        if self.landed:
            return
        self.landed = True
        marks = list(self.strip[2].submobjects)
        scene.remove(self.strip)
        for mark in marks:
            mark.set_z_index(0).set_fill(opacity=1.0)
        if self.chip is not None and self.tag is not None:
            self.chip.become_tag(self.tag)
        scene.add(*self.targets, *marks)
