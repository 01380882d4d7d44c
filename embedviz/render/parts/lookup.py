"""The lookup family's components: the matrix, the output block, the chips, and the lookup motion.

Each component owns its mobjects and the beats that move them (see
:class:`~embedviz.render.stage.Component`); a stage composes them from a
:class:`~embedviz.render.solver.LookupPlan`.

- :class:`MatrixPart`: E as a :class:`~embedviz.render.parts.grid.CellGrid`,
  its heading (``embedding matrix E  6 × 3``), the legend. Beats ``count_rows``, ``dim``.
- :class:`OutputPart`: the output block, its heading and shape, its row
  numbers and equality marks. Beats ``predict``, ``reveal``, ``shape``.
- :class:`ChipColumn`: the token chips, waiting beside the output rows they
  will fill, with their word pieces.
- :class:`LookupMotion`: one thread of motion. Beats ``lookup`` (one ID at
  teaching pace) and ``lookup_many`` (the rest, together).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Animation,
    AnimationGroup,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    Succession,
    SurroundingRectangle,
    VGroup,
    VMobject,
    Wait,
    config,
)
from manim.animation.animation import prepare_animation

from embedviz.render.animations import Steps, make_reveal_animation
from embedviz.render.design import LABEL_RATIO, MARGIN, SPACE, Theme, at_least, maths, value_colour
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.metrics import text_width, xyz
from embedviz.render.mobjects import ShapeLabel
from embedviz.render.parts.chips import PIECE_RATIO, Chip, Follow, curve_points
from embedviz.render.parts.grid import matrix_grid, output_grid
from embedviz.render.parts.legend import Legend
from embedviz.render.parts.strip import Carry
from embedviz.render.solver import LookupPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["ChipColumn", "LookupMotion", "MatrixPart", "OutputPart"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]

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


def heading_words(word: str, font_size: float, theme: Theme) -> list[VMobject]:
    """Set a heading such as ``embedding matrix E``: muted words, and its symbol as maths.

    A last word of one letter is the block's symbol; it is set with MathTypst
    (the one maths voice) in the text colour. A translated heading keeps its
    own words.
    """
    words, _, symbol = word.rpartition(" ")
    if words and len(symbol) == 1 and symbol.isalpha():
        return [SansText(words, font_size, theme.muted), maths(symbol, theme.text, font_size)]
    return [SansText(word, font_size, theme.muted)]


def fit_width(mobject: VMobject, width: float) -> None:
    """Shrink a heading to ``width`` if it is wider (never under the 12 px floor)."""
    if mobject.width <= width:
        return
    sizes = [
        m.font_size
        for m in mobject.get_family()
        if isinstance(getattr(m, "font_size", None), float | int)
    ]
    least = at_least(0) / min(sizes) if sizes else 0.0
    mobject.scale(max(width / mobject.width, least))


class MatrixPart(Component):
    """The embedding matrix E: grid, heading, legend.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell of the storyboard, by (kind, index).
    plan
        Where things go.
    theme
        Colours.
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: LookupPlan, theme: Theme
    ) -> None:
        super().__init__(host, theme)
        window = board.beats[0].window
        gaps = {n: gap.label for n, gap in enumerate(window.row_gaps)}
        self.grid = matrix_grid(window, cells, plan.sizes, theme, board.value_scale, gaps)
        self.grid.shift(
            xyz(plan.matrix_left - self.grid.body_left(), plan.matrix_top - self.grid.body_top())
        )
        label = plan.scale.label
        sizes = [cells[("table_size", (axis,))] for axis in (0, 1)]
        self.heading = VGroup(
            *heading_words(board.word("embedding_matrix"), label, theme),
            ShapeLabel(sizes, label, theme.muted),
        ).arrange(RIGHT, buff=SPACE * 1.5)
        left = min(
            m.get_left()[0]
            for m in [*self.grid.row_labels.values(), *self.grid.gap_labels.values()]
        )
        fit_width(self.heading, self.grid.body_right() - left)
        self.heading.move_to(xyz(0, plan.heading_y)).align_to(xyz(left, 0), LEFT)
        self.legend: Legend | None = None
        legend_cells = [cells[key] for key in sorted(cells) if key[0] == "legend"]
        if legend_cells:
            self.legend = Legend(legend_cells, plan.scale.legend, theme, board.word("value_colour"))
            self.legend.move_to(xyz(0, plan.legend_y))
            edge = LEFT if plan.legend_left else RIGHT
            self.legend.align_to(xyz(plan.legend_x, 0), edge)

    def intro(self) -> list[VMobject]:
        """Return the grid, its heading and the legend."""
        return [self.grid, self.heading, *([self.legend] if self.legend is not None else [])]

    def outline(self, row: int) -> VMobject:
        """Return the amber outline of the row an ID selects (not yet added)."""
        return self.grid.row_outline(row, self.theme.chip)

    def beat_count_rows(self, beat: Beat) -> Animation:
        """Point at row number 0, then count the row numbers up to the ID's row and mark it."""
        assert beat.highlight is not None
        labels = self.grid.row_labels
        target = beat.highlight.row
        colour = self.theme.highlight
        counted = [labels[r] for r in sorted(labels) if r <= target]
        # A pulse grows a row number only so far that it stays no larger than the data.
        grow = 1 / LABEL_RATIO
        return Steps(
            Indicate(labels[min(labels)], color=colour, scale_factor=grow),
            LaggedStart(
                *[Indicate(m, color=colour, scale_factor=grow) for m in counted], lag_ratio=0.5
            ),
        )

    def beat_dim(self, beat: Beat) -> Animation:
        """Dim the rows no ID selected, keeping them 3:1 against their ground."""
        rows = [r for r in beat.dimmed_rows if r in self.grid.rows_group]
        if not rows:
            return Indicate(
                self.grid.get_row_labels(), scale_factor=1.0, color=self.theme.highlight
            )
        colours = self.grid.dimmed_colours(rows)
        fades = [
            prepare_animation(m.animate.set_fill(colours[id(m)]))  # type: ignore[arg-type]
            for row in rows
            for m in self.grid.get_row(row)
        ]
        return AnimationGroup(*fades)


class OutputPart(Component):
    """The output block: one row per input position, with its heading, row numbers and marks.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell, by (kind, index).
    plan
        Where things go.
    theme
        Colours.
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: LookupPlan, theme: Theme
    ) -> None:
        super().__init__(host, theme)
        self.cells = cells
        self.plan = plan
        self.value_scale = board.value_scale
        positions = sorted({i for (k, i) in cells if k == "position"})
        self.positions = positions
        window = board.beats[0].window
        self.grid = output_grid(positions, window, plan.sizes, theme)
        self.grid.shift(
            xyz(plan.output_left - self.grid.body_left(), plan.output_top - self.grid.body_top())
        )
        label = plan.scale.label
        self.heading = SansText(board.word("output"), label, theme.output)
        # The shape is written beside it at the reveal: leave it room in the block's width.
        fit_width(self.heading, plan.body_width * 0.6)
        self.heading.move_to(xyz(0, plan.output_heading_y)).align_to(xyz(plan.output_left, 0), LEFT)
        self.numbers = VGroup()
        for order, position in enumerate(positions):
            number = NumberText(cells[("position", position)], label, theme.muted)
            number.place(xyz(plan.position_left, plan.output_row_y(order)), align="left")
            self.numbers.add(number)
        self.shape: ShapeLabel | None = None
        self.question: LabelText | None = None
        self.underlines: list[VMobject] = []

    def row_of(self, position: tuple[int, ...]) -> int:
        """Return the grid row that holds an input position."""
        return self.positions.index(position)

    def targets(self, position: tuple[int, ...]) -> list[NumberText]:
        """Create (without adding) one output row's numbers, each in its slot."""
        row = self.row_of(position)
        cells = sorted(
            (c for (k, i), c in self.cells.items() if k == "output" and i[:-1] == position),
            key=lambda c: c.index,
        )
        font, theme, scale = self.plan.scale.data, self.theme, self.value_scale
        return [
            self.grid.put(
                row, c.index[-1], NumberText(c, font, value_colour(c.value, scale, theme))
            )
            for c in cells
        ]

    def mark(self, position: tuple[int, ...]) -> NumberText | None:
        """Return a row's equality mark (``= out[0]``), placed, if the storyboard has one."""
        cell = self.cells.get(("equal_to", position))
        if cell is None:
            return None
        mark = NumberText(cell, self.plan.scale.label, self.theme.wrong)
        y = self.plan.output_row_y(self.row_of(position))
        mark.place(xyz(self.plan.mark_left, y), align="left")
        return mark

    def beat_predict(self, beat: Beat) -> Animation:
        """Ask for the output's shape where the block will be, underlining each axis in turn."""
        # Where the block will be, reaching into the (still empty) walking column
        # when it must, and no smaller than the floor.
        left = self.plan.column_left + SPACE
        room = self.grid.body_right() - left
        font = self.plan.scale.label
        font = max(min(font, font * room / text_width(beat.label("question"), font)), at_least(0))
        self.question = LabelText(beat.label("question"), font, self.theme.text)
        self.question.move_to(self.grid.body).align_to(self.grid.body, RIGHT)
        if self.question.width < self.grid.width_of_body:
            self.question.move_to(self.grid.body)
        self.underlines = [
            u for word in ("rows", "values") if (u := self._underline(word)) is not None
        ]
        shown = FadeIn(self.question, shift=0.2 * DOWN)
        if len(self.underlines) < 2:
            return shown
        return Steps(Succession(shown, Create(self.underlines[0])), Create(self.underlines[1]))

    def _underline(self, word: str) -> Line | None:
        assert self.question is not None
        start = self.question.text.find(word)
        if start < 0:
            return None
        low, high = self.question.slot_corners()
        advance = (high[0] - low[0]) / len(self.question.text)
        y = low[1] - (high[1] - low[1]) * 0.5
        line = Line(
            xyz(low[0] + start * advance, y), xyz(low[0] + (start + len(word)) * advance, y)
        )
        return line.set_stroke(self.theme.highlight, width=3)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Reveal the empty block, its row numbers and its shape (then point at the last size)."""
        leaving: list[VMobject] = [m for m in (self.question, *self.underlines) if m is not None]
        appearing: list[VMobject] = [self.grid, self.heading, self.numbers]
        sizes = sorted((c for c in beat.numbers if c.kind == "output_size"), key=lambda c: c.index)
        if sizes:
            self.shape = ShapeLabel(sizes, self.plan.scale.label, self.theme.output)
            self.shape.next_to(self.heading, RIGHT, buff=SPACE * 2)
            appearing.append(self.shape)
        shown: Animation = make_reveal_animation(appearing)
        if leaving:
            shown = Succession(make_reveal_animation([], leaving), shown)
        if self.shape is None or len(beat.phrases) < 2:
            return shown
        return Steps(shown, Indicate(self.shape[-1], color=self.theme.highlight))

    def frame_and_shape(self, tags: VMobject, phrases: int) -> Animation:
        """Frame the block and its shape; then flash its rows and tags, then its width.

        One step per phrase: "The result is 4 × 3." / "Each input ID gives one
        row." / "Each embedding dimension gives one column." (with fewer
        phrases, the steps run together).
        """
        box = SurroundingRectangle(self.grid.body, color=self.theme.output, buff=0.06)
        accent = self.theme.highlight
        if self.shape is None:
            return Create(box)
        framed = AnimationGroup(Create(box), Indicate(self.shape, color=accent, scale_factor=1.0))
        rows = AnimationGroup(
            Indicate(self.shape[0], color=accent), Circumscribe(tags, color=accent, buff=0.06)
        )
        width = Indicate(self.shape[-1], color=accent)
        if phrases >= 3:
            return Steps(framed, rows, width)
        return (
            Steps(Succession(framed, rows), width)
            if phrases == 2
            else Succession(framed, rows, width)
        )


class ChipColumn(Component):
    """The token chips, each waiting beside the output row it will fill, with its word piece.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell, by (kind, index).
    plan
        Where things go.
    theme
        Colours.
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: LookupPlan, theme: Theme
    ) -> None:
        super().__init__(host, theme)
        pieces = board.options.pieces or ()
        label = plan.scale.label
        ids = sorted((i, c) for (k, i), c in cells.items() if k == "token_id")
        self.chips: list[Chip] = []
        self.pieces = VGroup()
        for order, (index, cell) in enumerate(ids):
            chip = Chip(cell, label, theme)
            chip.move_to(xyz(plan.tag_x(chip.width), plan.output_row_y(order)))
            self.chips.append(chip)
            if index[-1] < len(pieces):
                piece = LabelText(pieces[index[-1]], at_least(label * PIECE_RATIO), theme.id_ink)
                piece.place(xyz(plan.piece_left, plan.output_row_y(order)), align="left")
                self.pieces.add(piece)
        self.homes = [chip.get_center().copy() for chip in self.chips]
        self.heading = SansText(board.word("token_ids"), label, theme.muted)
        fit_width(self.heading, config.frame_width / 2 - MARGIN - plan.tag_left)
        self.heading.move_to(xyz(0, plan.output_heading_y)).align_to(xyz(plan.tag_left, 0), LEFT)

    def intro(self) -> list[VMobject]:
        """Return the heading, the chips and their pieces."""
        return [self.heading, *self.chips, *self.pieces]


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
        self.radius = plan.sizes.row_height * 0.45

    def _one(self, position: tuple[int, ...]) -> _Lookup:
        """Build one ID's motions (walk there; come back with the strip; settle) and their paths."""
        row_index = self.output.row_of(position)
        chip = self.chips.chips[row_index]
        row = int(self.cells[("token_id", position)].value)
        source_y = self.matrix.grid.row_y(row)
        park = xyz(self.plan.park_x(chip.width), source_y)
        lane_y = self.plan.output_row_y(row_index)
        home = self.chips.homes[row_index]
        there = curve_points([home, xyz(park[0], lane_y), park], self.radius)
        back = curve_points([park, xyz(park[0], lane_y), home], self.radius)
        outline = self.matrix.outline(row)
        walk = AnimationGroup(Follow(chip, there, run_time=1.0), Create(outline))
        path = self.plan.strip_path(source_y, lane_y)
        carry = Carry(
            self.matrix.grid,
            row,
            chip,
            self.cells[("output_id", position)],
            self.output.targets(position),
            path,
            self.theme,
            run_time=1.0,
        )
        moved = LaggedStart(Follow(chip, back, run_time=1.0), carry, lag_ratio=_STRIP_LAG)
        mark = self.output.mark(position)
        settle = AnimationGroup(FadeOut(outline), *([FadeIn(mark)] if mark is not None else []))
        self.filled.add(position)
        left, _, right, _ = self.matrix.grid.row_box(row, buff=0.0)
        start = xyz((left + right) / 2, source_y)
        chip_box = (chip.width, chip.height)
        strip_box = (right - left, self.plan.sizes.row_height)
        swept = _swept(there, *chip_box) + _swept([start, *path], *strip_box)
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
