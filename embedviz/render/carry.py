"""Rows and numbers carried as one rigid strip along a polyline (the older stages' motion).

Split from :mod:`embedviz.render.animations` (which re-exports these). The
lookup family carries rows with :class:`embedviz.render.parts.strip.Carry`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np
from manim import (
    Animation,
    ManimColor,
    Mobject,
    Rectangle,
    Scene,
    VGroup,
    VMobject,
    interpolate_color,
)
from manim.utils.rate_functions import linear, smooth

from embedviz.render.glyphs import NumberText
from embedviz.render.mobjects import MatrixGrid
from embedviz.render.theme import DARK, Theme

__all__ = [
    "STRIP_Z",
    "RowStrip",
    "make_carry_numbers_animation",
    "make_copy_row_animation",
    "make_row_strip",
]


# Drawn above everything else, so a travelling row is never hidden by a fill.
STRIP_Z = 20


def make_row_strip(grid: MatrixGrid, row: int, theme: Theme = DARK) -> RowStrip:
    """Build a copy of a row's numbers inside a highlight strip, above everything.

    Parameters
    ----------
    grid
        The matrix.
    row
        The row to copy.
    theme
        Colours.

    Returns
    -------
    RowStrip
        The strip (a filled box) and copies of the row's numbers, in column
        order, then its elision marks: one rigid unit that keeps the grid's
        spacing and alignment.
    """
    cells = VGroup(*[cell.copy() for cell in grid.row_cells(row)])
    # The row's elision marks travel with it, so the output row needs none drawn before.
    marks = [m.copy() for m in grid.row_group(row)[1] if not isinstance(m, NumberText)]
    box = grid.row_box(row, theme)
    fill = interpolate_color(ManimColor(theme.background), ManimColor(theme.highlight), 0.22)
    box.set_fill(fill, opacity=1.0).set_stroke(theme.highlight, width=3)
    box.set_z_index(STRIP_Z)
    cells.set_z_index(STRIP_Z + 1)
    extras = VGroup(*marks).set_z_index(STRIP_Z + 1)
    return RowStrip(box, cells, extras)


class RowStrip(VGroup):
    """A travelling row: its box, its numbers in column order, its elision marks.

    Tests find travelling rows by :attr:`row_strip` and check they stay rigid.
    """

    row_strip = True


def make_copy_row_animation(
    grid: MatrixGrid,
    row: int,
    targets: Sequence[NumberText],
    route: Sequence[np.ndarray] = (),
    theme: Theme = DARK,
    keep_marks: bool = False,
) -> Animation:
    """Carry a copy of a row, as one rigid strip, into its output cells.

    Parameters
    ----------
    grid
        The matrix.
    row
        The row being copied.
    targets
        The output numbers, one per drawn column, already positioned at the
        same spacing as the grid's; they replace the strip's numbers when it
        lands.
    route
        Waypoints for the strip's first number, between the row and its
        first target: the strip travels in straight legs through them (a
        stage routes it around titles, chips and other numbers).
    theme
        Colours.
    keep_marks
        Leave the row's elision marks where the strip lands (for an output
        block that draws none of its own).

    Returns
    -------
    Animation
        The strip lifts off the row, travels leg by leg without changing shape,
        lands cell-aligned, and hands over to the output numbers.
    """
    return _CarryRow(grid, row, targets, route, theme, keep_marks, run_time=1.2)


class _StripAlongPath(Animation):
    """A strip that lights up, travels a polyline by pure shifts, and lands.

    Subclasses build the strip's parts in ``begin`` (so nothing of it is on
    screen while earlier parts of the beat play), then call :meth:`_set_path`.
    Moving by shifts alone keeps the strip rigid.
    """

    def __init__(self, **kwargs: Any) -> None:
        self.strip = RowStrip()
        super().__init__(self.strip, rate_func=linear, introducer=True, **kwargs)
        self.scene_ref: Scene | None = None

    def _setup_scene(self, scene: Scene) -> None:
        self.scene_ref = scene
        super()._setup_scene(scene)

    def _set_path(self, points: Sequence[np.ndarray]) -> None:
        self.points_on_path: list[np.ndarray] = list(points)
        lengths = [float(np.linalg.norm(b - a)) for a, b in pairwise(self.points_on_path)]
        self.cumulative = np.concatenate([[0.0], np.cumsum(lengths)])
        self.offset = np.zeros(3)

    def create_starting_mobject(self) -> VMobject:
        # Nothing reads it; a real copy would deep-copy the strip every beat.
        return VMobject()

    def _point_at(self, progress: float) -> np.ndarray:
        total = float(self.cumulative[-1])
        if total <= 0:
            return np.zeros(3)
        distance = smooth(progress) * total
        leg = int(np.searchsorted(self.cumulative, distance, side="right")) - 1
        leg = min(max(leg, 0), len(self.points_on_path) - 2)
        length = self.cumulative[leg + 1] - self.cumulative[leg]
        along = 0.0 if length <= 0 else (distance - self.cumulative[leg]) / length
        a, b = self.points_on_path[leg], self.points_on_path[leg + 1]
        point: np.ndarray = a + (b - a) * along - self.points_on_path[0]
        return point

    def interpolate_mobject(self, alpha: float) -> None:
        # 0-0.12: the strip lights up where it starts; then it travels; 0.92-1: it lands.
        box = self.strip[0]
        light = min(1.0, alpha / 0.12, max(0.0, (1.0 - alpha) / 0.08))
        box.set_fill(opacity=light).set_stroke(opacity=light)
        offset = self._point_at(min(1.0, max(0.0, (alpha - 0.12) / 0.8)))
        self.strip.shift(offset - self.offset)
        self.offset = offset


class _CarryRow(_StripAlongPath):
    """A grid row's strip that fades in on its row, travels, and lands.

    When the play ends it hands over to the output numbers.
    """

    def __init__(
        self,
        grid: MatrixGrid,
        row: int,
        targets: Sequence[NumberText],
        route: Sequence[np.ndarray],
        theme: Theme,
        keep_marks: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.grid = grid
        self.row = row
        self.targets = list(targets)
        self.route = [np.asarray(p, dtype=float) for p in route]
        self.theme = theme
        self.keep_marks = keep_marks

    def begin(self) -> None:
        built = make_row_strip(self.grid, self.row, self.theme)
        self.strip.add(*built.submobjects)
        start = built[1][0].get_center()
        self._set_path([start, *self.route, self.targets[0].get_center()])
        super().begin()

    def clean_up_from_scene(self, scene: Scene) -> None:
        marks = list(self.strip[2].submobjects) if self.keep_marks else []
        scene.remove(self.strip)
        # Kept marks rest at the depth of the numbers they land among.
        depth = self.targets[0].z_index if self.targets else 0
        for mark in marks:
            mark.set_z_index(depth)
        scene.add(*self.targets, *marks)


def make_carry_numbers_animation(
    sources: Sequence[VMobject],
    targets: Sequence[Mobject],
    route: Sequence[np.ndarray] = (),
    theme: Theme = DARK,
    *,
    take: bool = False,
    run_time: float = 1.2,
) -> Animation:
    """Carry numbers on one line, as one rigid highlighted strip, onto their targets.

    The general form of :func:`make_copy_row_animation` for numbers that are
    not a grid's row: a sum worked out beside a block, a block's row, a count.

    Parameters
    ----------
    sources
        The numbers, left to right on one line.
    targets
        What they become, one per source, at the same spacing (so that the
        strip lands cell-aligned); they replace the strip when it lands.
    route
        Waypoints for the first number's centre between its place and its
        target's: the strip travels in straight legs through them.
    theme
        Colours.
    take
        Carry the sources themselves (they leave their place) rather than
        copies of them (which lift off while the sources stay).
    run_time
        Seconds.

    Returns
    -------
    Animation
        The strip lights up where the numbers are, travels leg by leg by pure
        shifts, lands, and hands over to the targets.
    """
    return _CarryNumbers(sources, targets, route, theme, take, run_time=run_time)


class _CarryNumbers(_StripAlongPath):
    """A strip of numbers (copies, or the numbers themselves) that travels a polyline."""

    def __init__(
        self,
        sources: Sequence[VMobject],
        targets: Sequence[Mobject],
        route: Sequence[np.ndarray],
        theme: Theme,
        take: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.sources = list(sources)
        self.targets = list(targets)
        self.route = [np.asarray(p, dtype=float) for p in route]
        self.theme = theme
        self.take = take

    def begin(self) -> None:
        theme = self.theme
        if self.take:
            numbers = self.sources
            if self.scene_ref is not None:
                self.scene_ref.remove(*numbers)
        else:
            numbers = [source.copy() for source in self.sources]
        left = min(float(n.get_left()[0]) for n in numbers)
        right = max(float(n.get_right()[0]) for n in numbers)
        tallest = max(float(n.height) for n in numbers)
        pad = tallest * 0.6
        box = Rectangle(width=right - left + 2 * pad, height=tallest * 2.0)
        box.move_to(np.array([(left + right) / 2, float(numbers[0].get_center()[1]), 0.0]))
        fill = interpolate_color(ManimColor(theme.background), ManimColor(theme.highlight), 0.22)
        box.set_fill(fill, opacity=1.0).set_stroke(theme.highlight, width=3)
        box.set_z_index(STRIP_Z)
        cells = VGroup(*numbers).set_z_index(STRIP_Z + 1)
        self.strip.add(box, cells, VGroup())
        start = numbers[0].get_center()
        end = self.targets[0].get_center() if self.targets else start
        self._set_path([start, *self.route, end])
        super().begin()

    def clean_up_from_scene(self, scene: Scene) -> None:
        scene.remove(self.strip)
        scene.add(*self.targets)
