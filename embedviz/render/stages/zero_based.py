"""The zero-based layout: the lookup grid, a crossed-out slip and a debug trace.

The stage is composed of parts (:mod:`embedviz.render.components`): a
:class:`GridPanel` (grid, title, legend; its ``count_rows`` beat) and a
:class:`ChipLane` with the one token chip, laid out as the lookup layout's
classic arrangement (:func:`classic_layout`). The right half holds two cards
instead of the output block: the one-based attempt (its row index and the
wrong row's values, crossed out) and the three-step trace (input ID,
zero-based row index, returned vector), which ends with the check against
the matrix row. Those beats need several parts at once, so they are the
stage's own.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Create,
    Cross,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    Rectangle,
    Succession,
    SurroundingRectangle,
    Transform,
    VGroup,
    VMobject,
)

from embedviz.render.animations import (
    Steps,
    make_copy_row_animation,
    make_count_rows_animation,
    make_return_animation,
    make_reveal_animation,
    make_walk_animation,
)
from embedviz.render.classic import classic_layout
from embedviz.render.components import ChipLane, GridPanel
from embedviz.render.glyphs import LabelText, NumberText, WordText
from embedviz.render.layout import frame_regions
from embedviz.render.mobjects import GridMetrics, MatrixGrid, char_advance, xyz
from embedviz.render.stage import Stage, register_stage
from embedviz.render.theme import Theme, value_colour
from embedviz.story.model import Beat, NumberCell, Window

__all__ = ["VectorStrip", "ZeroBasedStage", "check_mark", "mono_line"]

# The right-hand panel, in scene units (the grid keeps LookupStage's left half).
_PANEL_LEFT = 0.9
_VALUE_X = 4.6  # where the trace's values start
# The widest a step of the trace may be (it ends before the step's value); a
# longer translation is shrunk to fit, as is a heading wider than the panel.
_STEP_WIDTH = _VALUE_X - 0.2 - (_PANEL_LEFT + 0.3)
_LEGEND_Y = -2.45
_LABEL_SIZE = 20
_NUMBER_SIZE = 22
_DIM = 0.4  # opacity of the slip once it has been corrected


def _panel_width() -> float:
    """Return the width of the right-hand panel, from its left edge to the frame's."""
    return frame_regions().right - _PANEL_LEFT


def mono_line(
    pieces: Sequence[str | NumberCell], font_size: float, colours: Sequence[str]
) -> VGroup:
    """Set labels and checked numbers side by side, as one monospace line.

    Parameters
    ----------
    pieces
        Plain strings (drawn as :class:`LabelText`) and storyboard cells
        (drawn as :class:`NumberText`), in reading order.
    font_size
        Font size of every piece.
    colours
        One colour per piece.

    Returns
    -------
    VGroup
        The pieces, each starting where the previous one's advance ends, so
        the line reads as one string while every number stays checkable.
    """
    line = VGroup()
    x = 0.0
    for piece, colour in zip(pieces, colours, strict=True):
        text = LabelText(piece, font_size, colour) if isinstance(piece, str) else None
        mobject = text if text is not None else NumberText(piece, font_size, colour)
        mobject.place([x, 0, 0], align="left")
        x += mobject.slot_width
        line.add(mobject)
    return line


def check_mark(height: float, colour: str) -> VMobject:
    """Draw a tick as a stroked path (a shape, not text)."""
    mark = VMobject()
    mark.set_points_as_corners([xyz(0, 0.45 * height), xyz(0.35 * height, 0), xyz(height, height)])
    mark.set_stroke(colour, width=6).set_fill(opacity=0)
    return mark


class VectorStrip(VGroup):
    """One row of values in the grid's cell style: the slip's row or the returned vector.

    Parameters
    ----------
    cells
        The row's cells, one per drawn column, ordered by column (the last
        index element is the column).
    window
        The grid's window; hidden column ranges become ``…`` slots.
    metrics
        The grid's sizes, so the strip's cells match the grid's.
    theme
        Colours.
    value_scale
        The magnitude that gets the strongest value colour.
    frame_colour
        The colour of the strip's outline.
    """

    def __init__(
        self,
        cells: Sequence[NumberCell],
        window: Window,
        metrics: GridMetrics,
        theme: Theme,
        value_scale: float,
        frame_colour: str,
    ) -> None:
        super().__init__()
        by_col = {cell.index[-1]: cell for cell in cells}
        slots: list[tuple[int, str, int]] = [(c, "col", c) for c in window.cols]
        slots += [(gap.first, "gap", gap.first) for gap in window.col_gaps]
        widths = [
            metrics.cell_width if kind == "col" else metrics.gap_width
            for _, kind, _ in sorted(slots)
        ]
        width, height = float(sum(widths)), metrics.cell_height
        self.box = Rectangle(width=width, height=height)
        self.box.set_fill(theme.cell_fill, opacity=1.0).set_stroke(frame_colour, width=2)
        self.box.move_to(xyz(width / 2, -height / 2))
        # The outline, separators and elisions; the numbers are kept apart so
        # that a copied row can fly into them.
        self.frame = VGroup(self.box)
        self.add(self.frame)
        pad = char_advance(metrics.font_size) * 0.7
        self.numbers: list[NumberText] = []
        x = 0.0
        for (_, kind, col), slot_width in zip(sorted(slots), widths, strict=True):
            if x > 0:
                self.frame.add(
                    Line(xyz(x, 0), xyz(x, -height), stroke_width=0.8, color=theme.cell_stroke)
                )
            if kind == "gap":
                dots = LabelText("\u2026", metrics.font_size, theme.muted)
                self.frame.add(dots.move_to(xyz(x + slot_width / 2, -height / 2)))
            else:
                cell = by_col[col]
                number = NumberText(
                    cell, metrics.font_size, value_colour(cell.value, value_scale, theme)
                )
                number.place([x + slot_width - pad, -height / 2, 0], align="right")
                self.numbers.append(number)
                self.add(number)
            x += slot_width
        # Beneath everything: numbers copied in later are added to the scene
        # before the frame's own fade-in finishes, and must not end up under it.
        self.frame.set_z_index(-1)


@register_stage
class ZeroBasedStage(Stage):
    """The grid and chip, the one-based slip, the zero-based count and the trace.

    Composed of a :class:`GridPanel` and a :class:`ChipLane`; the slip and
    trace cards are its own.
    """

    layout = "zero_based"

    def build(self) -> None:
        """Lay out the grid panel and the chip, then the slip and trace cards."""
        chip_cells = sorted(
            (c for c in self.cells.values() if c.kind == "token_id"), key=lambda c: c.index
        )
        chips = [self.make_chip(cell, 24) for cell in chip_cells]
        layout = classic_layout(self.scene, self.board, self.cells, self.theme, chips)
        self.grid_panel: GridPanel = self.add_part(layout.grid)
        self.chip_lane: ChipLane = self.add_part(layout.chips)
        assert layout.grid.grid is not None
        self.grid: MatrixGrid = layout.grid.grid
        self.metrics: GridMetrics = layout.metrics
        self.chips = layout.chips.chips
        self.chip_homes = layout.chips.homes
        theme = self.theme
        cells = self.cells
        grid = self.grid
        metrics = self.metrics
        board = self.board
        self.token_id = board.single_id()

        # Counts beside the grid: the slip's one-based tally, then the ordinal.
        count_x = grid.body.get_right()[0] + 0.2
        small = max(16.0, metrics.font_size * 0.8)
        self.tallies = VGroup()
        for key in sorted(k for k in cells if k[0] == "one_based_count"):
            tally = NumberText(cells[key], small, theme.wrong)
            tally.place([count_x, _row_y(grid, key[1][0]), 0], align="left")
            self.tallies.add(tally)
        self.ordinal = NumberText(cells[("ordinal", (self.token_id,))], small, theme.accent)
        self.ordinal.place([count_x, _row_y(grid, self.token_id), 0], align="left")

        self._build_slip()
        self._build_trace()

    # -- layout ----------------------------------------------------------------
    def _build_slip(self) -> None:
        theme, cells = self.theme, self.cells
        wrong = theme.wrong
        header = WordText(self.word("counting_from_one"), _LABEL_SIZE, wrong, _panel_width())
        header.move_to(xyz(0, 1.85)).align_to(xyz(_PANEL_LEFT, 0), LEFT)
        line = mono_line(
            [
                f"{self.word('slip_id')} ",
                cells[("wrong_id", (0,))],
                f" \u2192 {self.word('slip_row_index')} ",
                cells[("wrong_index", (0,))],
            ],
            _NUMBER_SIZE,
            [theme.text, theme.id_ink, theme.text, wrong],
        )
        # Keep a handle on the drawn index for the last beat.
        self.wrong_index = line[-1]
        line.move_to(xyz(0, 1.42)).align_to(xyz(_PANEL_LEFT, 0), LEFT)
        values = sorted(
            (c for c in cells.values() if c.kind == "wrong_value"), key=lambda c: c.index
        )
        body: VMobject
        if values:
            body = VectorStrip(
                values,
                self.board.beats[0].window,
                self.metrics,
                theme,
                self.board.value_scale,
                wrong,
            )
            body.next_to(line, direction=DOWN, buff=0.22)
            body.align_to(xyz(_PANEL_LEFT, 0), LEFT)
        else:
            body = WordText(self.word("no_such_row"), _LABEL_SIZE, wrong, _panel_width())
            body.next_to(line, direction=DOWN, buff=0.25)
            body.align_to(xyz(_PANEL_LEFT, 0), LEFT)
        # Cross out what the slip gets wrong: the fetched vector, or (for ID 0)
        # the impossible row index itself.
        crossed = body if values else line
        self.slip_cross = Cross(crossed, stroke_color=wrong, stroke_width=5, scale_factor=1.08)
        self.slip = VGroup(header, line, body, self.slip_cross)
        self.slip_bottom = float(body.get_bottom()[1])

    def _build_trace(self) -> None:
        theme, cells = self.theme, self.cells
        top = min(self.slip_bottom - 0.45, 0.45)
        header = WordText(self.word("debugging_trace"), _LABEL_SIZE, theme.text, _panel_width())
        header.move_to(xyz(0, top)).align_to(xyz(_PANEL_LEFT, 0), LEFT)
        steps = (
            (self.word("input_id"), ("trace_id", (0,)), theme.id_ink),
            (self.word("zero_based_row_index"), ("trace_index", (0,)), theme.accent),
        )
        self.trace_steps: list[VGroup] = []
        y = top - 0.45
        for label_text, key, colour in steps:
            label = WordText(label_text, _LABEL_SIZE, theme.muted, _STEP_WIDTH)
            label.move_to(xyz(0, y)).align_to(xyz(_PANEL_LEFT + 0.3, 0), LEFT)
            value = NumberText(cells[key], _NUMBER_SIZE, colour)
            value.place([_VALUE_X, y, 0], align="left")
            arrow = LabelText("\u2193", _LABEL_SIZE, theme.muted)
            arrow.place([_PANEL_LEFT, y, 0], align="left")
            self.trace_steps.append(VGroup(arrow, label, value))
            y -= 0.42
        self.trace_index = self.trace_steps[1][2]
        vector_label = WordText(self.word("returned_vector"), _LABEL_SIZE, theme.muted, _STEP_WIDTH)
        vector_label.move_to(xyz(0, y)).align_to(xyz(_PANEL_LEFT + 0.3, 0), LEFT)
        arrow = LabelText("\u2193", _LABEL_SIZE, theme.muted)
        arrow.place([_PANEL_LEFT, y, 0], align="left")
        outputs = sorted((c for c in cells.values() if c.kind == "output"), key=lambda c: c.index)
        self.vector = VectorStrip(
            outputs,
            self.board.beats[0].window,
            self.metrics,
            theme,
            self.board.value_scale,
            theme.output,
        )
        self.vector.next_to(vector_label, direction=DOWN, buff=0.2)
        self.vector.align_to(xyz(_PANEL_LEFT + 0.3, 0), LEFT)
        self.trace_header = header
        self.vector_step = VGroup(arrow, vector_label, self.vector.frame)

        check_cell = cells[("check_row", (0,))]
        self.check_line = mono_line(
            ["= E[", check_cell, "]"], _NUMBER_SIZE, [theme.accent, theme.accent, theme.accent]
        )
        self.check_line.move_to(xyz(0, y)).align_to(xyz(_VALUE_X, 0), LEFT)
        self.check = check_mark(0.3, theme.accent).next_to(self.check_line, RIGHT, buff=0.2)

    # -- beat handlers -----------------------------------------------------------
    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the grid panel and the chip."""
        panel, lane = self.grid_panel, self.chip_lane
        shown = [self.title, panel.grid, panel.title, *lane.intro(), panel.legend, panel.dtype_note]
        return make_reveal_animation([m for m in shown if m is not None])

    def beat_wrong_count(self, beat: Beat) -> Animation:
        """Count rows from one down the grid; the chip lands a row early; cross it out."""
        grid, chip = self.grid, self.chips[0]
        wrong_row = self.token_id - 1
        header, line, body, cross = self.slip
        self.wrong_box: Rectangle | None = None
        if wrong_row >= 0:
            walk = make_walk_animation(chip, grid, wrong_row)
            box = grid.row_box(wrong_row, self.theme).set_stroke(self.theme.wrong)
            self.wrong_box = box
            assert isinstance(body, VectorStrip)
            shown: Animation = AnimationGroup(
                Create(box), FadeIn(header), FadeIn(line), FadeIn(body.frame)
            )
            # The slip really fetches a row: the wrong one's values fly out.
            fetched: Animation = make_copy_row_animation(grid, wrong_row, body.numbers)
        else:
            # Row -1 would sit above row 0, where the column numbers are: no row at all.
            target = grid.row_anchor(0) + UP * self.metrics.cell_height
            walk = _path(chip, [xyz(chip.get_x(), target[1] + 1.0), target])
            shown = AnimationGroup(FadeIn(header), FadeIn(line))
            fetched = FadeIn(body)
        tally = LaggedStart(*[FadeIn(t, shift=0.1 * LEFT) for t in self.tallies], lag_ratio=0.6)
        # Two steps: "counting the rows 1, 2, 3 lands on row index 2, ..." (the
        # count, the landing and the slip written down), then "and fetches the
        # wrong vector." (the row's values fly out and the slip is crossed out).
        return Steps(
            Succession(AnimationGroup(tally, walk) if len(self.tallies) else walk, shown),
            Succession(
                # The count is done: its tallies dim before the wrong row's
                # values fly out past them (they leave with the next beat).
                Transform(self.tallies, self.tallies.copy().set_opacity(_DIM), run_time=0.3),
                fetched,
                Create(cross),
            ),
        )

    def beat_right_count(self, beat: Beat) -> Animation:
        """Count 0, 1, 2, ... on the row labels, the chip stepping down with the count.

        Two steps: "Rows are numbered from 0." clears the slip and points at
        row number 0; "Counting 0, 1, 2, 3 lands on row index 3, ..." counts
        down with the chip and outlines the row.
        """
        grid, chip = self.grid, self.chips[0]
        leaving: list[Animation] = [FadeOut(t) for t in self.tallies]
        if self.wrong_box is not None:
            leaving.append(FadeOut(self.wrong_box))
        dim_target = self.slip.copy().set_opacity(_DIM)
        self.right_box = grid.row_box(self.token_id, self.theme).set_stroke(self.theme.accent)
        counted = [row for row in sorted(grid.row_labels) if row <= self.token_id]
        steps = _path(chip, [grid.row_anchor(row) for row in counted], run_time=0.5)
        zero = grid.row_labels[min(grid.row_labels)]
        return Steps(
            Succession(
                AnimationGroup(*leaving, Transform(self.slip, dim_target)),
                Indicate(zero, color=self.theme.accent, scale_factor=1.6),
            ),
            Succession(
                AnimationGroup(make_count_rows_animation(grid, self.token_id), steps),
                AnimationGroup(Create(self.right_box), FadeIn(self.ordinal, shift=0.1 * LEFT)),
            ),
        )

    def beat_trace(self, beat: Beat) -> Animation:
        """Write the three steps, copy the row into the returned vector, send the chip home.

        Two steps: "... trace three things in order: the input ID," writes the
        heading and the ID step; "the zero-based row index it selects, and the
        returned vector." writes the other two, copies the row and sends the
        chip home.
        """
        first, second = self.trace_steps
        chip = self.chips[0]
        home = make_return_animation(chip, self.grid.row_anchor(self.token_id), self.chip_homes[0])
        return Steps(
            LaggedStart(FadeIn(self.trace_header), FadeIn(first), lag_ratio=0.5),
            Succession(
                LaggedStart(FadeIn(second), FadeIn(self.vector_step), lag_ratio=0.5),
                make_copy_row_animation(self.grid, self.token_id, self.vector.numbers),
                home,
            ),
        )

    def beat_check(self, beat: Beat) -> Animation:
        """Show that the returned vector equals row E[i]: outline both, then tick it.

        Two steps: "... compare the vector with the matrix itself: it equals
        E[3] ..." outlines the row and the vector and writes ``= E[3]``; "ID,
        index and vector agree." ticks it.
        """
        accent = self.theme.accent
        return Steps(
            AnimationGroup(
                Indicate(self.grid.row_group(self.token_id), color=accent, scale_factor=1.0),
                Create(SurroundingRectangle(self.vector.box, color=accent, buff=0.05)),
                FadeIn(self.check_line),
            ),
            Create(self.check),
        )

    def beat_diagnose(self, beat: Beat) -> Animation:
        """Point at the slip's row index, then at the trace's index and its row of E.

        Two steps: "If you expected the third row, you counted from one." and
        "If the index is right but the values differ, compare against that row
        of E."
        """
        accent = self.theme.accent
        return Steps(
            Indicate(self.wrong_index, color=self.theme.wrong),
            AnimationGroup(
                Indicate(self.trace_index, color=accent),
                Indicate(self.grid.row_group(self.token_id), color=accent, scale_factor=1.0),
            ),
        )


def _row_y(grid: MatrixGrid, row: int) -> float:
    """Return a drawn row's centre height, where the grid now is."""
    return float(grid.row_labels[row].get_center()[1])


def _path(mobject: VMobject, points: Sequence[np.ndarray], run_time: float = 0.4) -> Animation:
    """Move through absolute points, one short Transform per leg."""
    legs: list[Animation] = []
    ghost = mobject.copy()
    for point in points:
        ghost = ghost.copy().move_to(point)
        legs.append(Transform(mobject, ghost, run_time=run_time))
    return Succession(*legs)
