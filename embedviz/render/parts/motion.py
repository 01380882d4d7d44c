"""One thread of motion for the lookup family: a chip fetches its row, the row follows it home.

:class:`LookupMotion` plays the ``lookup`` beat (one ID at teaching pace: walk,
carry, settle, one step per phrase) and the ``lookup_many`` beat (the rest,
each starting as soon as its paths are clear of every motion still running).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Succession,
    VMobject,
    Wait,
)

from embedviz.render.animations import Steps
from embedviz.render.design import Theme
from embedviz.render.metrics import xyz
from embedviz.render.parts.chips import Chip, Follow, curve_points
from embedviz.render.parts.lookup import ChipColumn, MatrixPart, OutputPart
from embedviz.render.parts.strip import Carry
from embedviz.render.solver import LookupPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell

__all__ = ["LookupMotion"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]
Path = Sequence[np.ndarray]

# Seconds of one lookup among the rest: the walk, the way back with the strip, the settling.
_REST_WALK, _REST_CARRY, _REST_SETTLE = 0.45, 0.7, 0.15
# The strip lifts off this far into the chip's way back (a share of the chip's time).
_STRIP_LAG = 0.3
# The next of the rest starts at least this long after one starts.
_REST_LAG = 0.35


@dataclass
class _Lookup:
    """One ID's motions, and the rectangles their paths sweep (for scheduling the rest)."""

    walk: Animation
    moved: Animation
    settle: Animation
    walk_area: list[tuple[float, float, float, float]]
    carry_area: list[tuple[float, float, float, float]]


def _swept(
    points: Sequence[np.ndarray] | np.ndarray, width: float, height: float
) -> list[tuple[float, float, float, float]]:
    """Return the rectangles a box of this size sweeps moving through ``points``, one per leg."""
    boxes = []
    for a, b in itertools.pairwise(points):
        boxes.append(
            (
                min(a[0], b[0]) - width / 2,
                min(a[1], b[1]) - height / 2,
                max(a[0], b[0]) + width / 2,
                max(a[1], b[1]) + height / 2,
            )
        )
    return boxes


def _meet(
    first: list[tuple[float, float, float, float]], second: list[tuple[float, float, float, float]]
) -> bool:
    """Whether any rectangle of ``first`` overlaps any of ``second``."""
    return any(
        a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6
        for a in first
        for b in second
    )


def _clear_starts(lookups: Sequence[_Lookup]) -> list[float]:
    """When each of the rest starts (seconds): as early as its paths are clear of those moving.

    A lookup's walk sweeps its chip's path; its carry (the way back and the
    strip) sweeps the chip's path and the strip's. Two motions may overlap in
    time only if their sweeps do not overlap in space.
    """
    busy: list[tuple[float, float, list[tuple[float, float, float, float]]]] = []
    starts: list[float] = []
    earliest = 0.0
    for one in lookups:
        start = earliest
        while True:
            walk = (start, start + _REST_WALK, one.walk_area)
            carry = (start + _REST_WALK, start + _REST_WALK + _REST_CARRY, one.carry_area)
            clash = [
                end
                for begin, end, area in busy
                for mine in (walk, carry)
                if mine[0] < end - 1e-9 and begin < mine[1] - 1e-9 and _meet(mine[2], area)
            ]
            if not clash:
                break
            start += 0.05
        busy += [walk, carry]
        starts.append(round(start, 6))
        earliest = start + _REST_LAG
    return starts


class LookupMotion(Component):
    """One thread of motion: a chip walks to its row, the row follows it home as a strip.

    The chip leaves its place beside output row *t* through that (still
    empty) row, walks down the column between the blocks to the right end of
    its matrix row, which is outlined in amber; then it walks back, and the
    row's strip lifts off and follows it into output row *t*, where the chip
    stays as the row's tag.

    Parameters
    ----------
    host
        The scene.
    theme
        Colours.
    plan, matrix, output, chips
        The plan and the parts it moves between.
    cells
        Every cell, by (kind, index).
    """

    def __init__(
        self,
        host: StageHost,
        theme: Theme,
        plan: LookupPlan,
        matrix: MatrixPart,
        output: OutputPart,
        chips: ChipColumn,
        cells: Cells,
    ) -> None:
        super().__init__(host, theme)
        self.plan, self.matrix, self.output, self.chips, self.cells = (
            plan,
            matrix,
            output,
            chips,
            cells,
        )
        self.filled: set[tuple[int, ...]] = set()
        # What has landed beside the output block (its numbers, marks), for the settle.
        self.carries: list[Carry] = []
        self.marks: list[VMobject] = []
        self.radius = plan.sizes.row_height * 0.45

    # -- hooks a layout with other places for its chips or rows overrides ---------------
    def source(self, row: int) -> tuple[float, float, float]:
        """Return the left and right ends and the centre line of the matrix row a strip leaves."""
        left, _, right, _ = self.matrix.grid.row_box(row, buff=0.0)
        return left, right, self.matrix.grid.row_y(row)

    def chip_paths(
        self, row_index: int, chip: Chip, park: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return a chip's way to its row (``park``) and its way back to its output row's tag.

        By default the chip waits beside the output row it fills: it walks left
        through that (still empty) row into the walking column, along it to
        its row, and back the same way.
        """
        lane_y = self.plan.output_row_y(row_index)
        home = self.chips.homes[row_index]
        there = curve_points([home, xyz(park[0], lane_y), park], self.radius)
        back = curve_points([park, xyz(park[0], lane_y), home], self.radius)
        return there, back

    def make_carry(self, row: int, chip: Chip, position: tuple[int, ...], path: Path) -> Carry:
        """Return the carry of a matrix row's strip along ``path`` into its output row."""
        return Carry(
            self.matrix.grid,
            row,
            chip,
            self.cells[("output_id", position)],
            self.output.targets(position),
            path,
            self.theme,
            run_time=1.0,
        )

    def _one(self, position: tuple[int, ...]) -> _Lookup:
        """Build one ID's motions (walk there; come back with the strip; settle) and their paths."""
        row_index = self.output.row_of(position)
        chip = self.chips.chips[row_index]
        row = int(self.cells[("token_id", position)].value)
        left, right, source_y = self.source(row)
        park = xyz(self.plan.park_x(chip.width), source_y)
        there, back = self.chip_paths(row_index, chip, park)
        outline = self.matrix.outline(row)
        walk = AnimationGroup(Follow(chip, there, run_time=1.0), Create(outline))
        path = self.plan.strip_path(source_y, self.plan.output_row_y(row_index))
        carry = self.make_carry(row, chip, position, path)
        moved = LaggedStart(Follow(chip, back, run_time=1.0), carry, lag_ratio=_STRIP_LAG)
        self.carries.append(carry)
        mark = self.output.mark(position)
        if mark is not None:
            self.marks.append(mark)
        settle = AnimationGroup(FadeOut(outline), *([FadeIn(mark)] if mark is not None else []))
        self.filled.add(position)
        start = xyz((left + right) / 2, source_y)
        chip_box = (chip.width, chip.height)
        strip_box = (right - left, self.plan.sizes.row_height)
        swept = _swept(there, *chip_box) + _swept([*back], *chip_box)
        swept += _swept([start, *path], *strip_box)
        return _Lookup(walk, moved, settle, _swept(there, *chip_box), swept)

    def beat_lookup(self, beat: Beat) -> Animation:
        """One ID at teaching pace: walk to the row, bring it home, settle (one step each)."""
        assert beat.highlight is not None
        self._show_output()
        one = self._one(beat.highlight.position)
        return Steps(one.walk, one.moved, one.settle)

    def beat_lookup_many(self, beat: Beat) -> Animation:
        """Play the remaining IDs together: each starts as soon as its paths are clear.

        Like a :class:`manim.LaggedStart`, each lookup starts a little after the
        one before; it waits longer only while its chip's or its strip's path
        would cross one still moving.
        """
        self._show_output()
        assert beat.output is not None
        landing = [p for p in beat.output.filled if p not in self.filled]
        order = [p for t in self.plan.order if (p := self.output.positions[t]) in landing]
        lookups = [self._one(position) for position in order]
        if not lookups:
            return Indicate(self.output.grid.body, color=self.theme.highlight, scale_factor=1.0)
        starts = _clear_starts(lookups)
        items: list[Animation] = []
        for one, start in zip(lookups, starts, strict=True):
            one.walk.set_run_time(_REST_WALK)
            one.moved.set_run_time(_REST_CARRY)
            item = Succession(one.walk, one.moved, one.settle.set_run_time(_REST_SETTLE))
            items.append(Succession(Wait(run_time=start), item) if start > 0 else item)
        return AnimationGroup(*items)

    def settle(
        self,
        still: list[VMobject],
        top: float,
        bottom: float,
        riders: Sequence[VMobject] = (),
    ) -> Animation:
        """Glide the output block (with its chips and labels) level with the matrix, and centre all.

        While rows are fetched the block sits where every strip has a clear
        path; once all have landed it moves so that its top is level with the
        matrix's, and then everything (``still``: the matrix, its heading and
        legend) moves with it to the middle of the band from ``top`` to ``bottom``.
        ``riders`` (a legend over the output block) move with the block.
        """
        grid, matrix = self.output.grid, self.matrix.grid
        moving: list[VMobject] = [grid, self.output.heading, self.output.numbers, *self.marks]
        moving += list(riders)
        moving += [m for m in (self.output.shape,) if m is not None]
        moving += [self.chips.heading, *self.chips.chips, self.chips.pieces]
        for carry in self.carries:
            moving += [*carry.targets, *carry.strip[2].submobjects]
        level = matrix.body_top() - grid.body_top()
        highest = max([m.get_top()[1] + level for m in moving] + [m.get_top()[1] for m in still])
        lowest = min(
            [m.get_bottom()[1] + level for m in moving] + [m.get_bottom()[1] for m in still]
        )
        centre = (top + bottom) / 2 - (highest + lowest) / 2
        shifts = [(m, level + centre) for m in moving] + [(m, centre) for m in still]
        # Pure shifts: a glide never touches colours (the dimming before it keeps).
        glides = [
            Follow(m, np.array([xyz(0, 0), xyz(0, dy)])) for m, dy in shifts if abs(dy) > 1e-6
        ]
        return AnimationGroup(*glides) if glides else Wait()

    def _show_output(self) -> None:
        """Make sure the output block is on screen (SingleTokenLookup shows it with its lookup)."""
        shown = set(map(id, self.host.mobjects))
        missing = [
            m
            for m in (self.output.grid, self.output.heading, self.output.numbers)
            if id(m) not in shown
        ]
        if missing:
            self.host.add(*missing)
