"""The training layout's components: the gradient, the loss weights, the column sum, the update.

Placed by :func:`~embedviz.render.solver_training.solve_training`; the matrix
is the lookup family's :class:`~embedviz.render.parts.lookup.MatrixPart`.

- :class:`GradientPart`: ``∂L/∂E`` on E's rows (an empty body that fills in),
  and the row marks ``nudged`` / ``unchanged``. Beat ``unchanged``.
- :class:`WeightsPart`: each token ID with its position beside its weight
  row ``w_t``, and the loss line ``L = Σ w_t·e_t = …``. Beat ``upstream``.
- :class:`SumPanel`: a repeated ID's contributions and their column sum,
  under the gradient.
- :class:`UpdateRule`: ``E ← E − 0.5 · ∂L/∂E``, and E's changed rows (their cells roll
  over in turn); the weights and the column sum recede
  (:mod:`~embedviz.render.parts.recede`). Beat ``update``.

Every symbol is set with :func:`~embedviz.render.design.maths` in the colour
of what it names: E in the text colour, the gradients (``∂L/∂E``, ``w_t``) in
the gradient's own colour (a light magenta in the dark theme, reddish purple in the
light one: apart from the value colours and from amber; green is the position vectors').
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from manim import (
    LEFT,
    RIGHT,
    Animation,
    AnimationGroup,
    Indicate,
    LaggedStart,
    Line,
    Succession,
    VGroup,
    VMobject,
    config,
)

from embedviz.render.animations import Steps, point_at
from embedviz.render.design import SPACE, Theme, maths, value_colour
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import char_advance, xyz
from embedviz.render.parts.chips import Chip, number_gap
from embedviz.render.parts.grid import CELL_PAD_CHARS, CellGrid, Slot, col_slots, row_slots
from embedviz.render.parts.lookup import MatrixPart, fit_width
from embedviz.render.parts.recede import recede
from embedviz.render.parts.roll import ROLL_TIME, roll_lag, roll_over
from embedviz.render.parts.rows import Rows, heading
from embedviz.render.solver_training import GRADIENT_SYMBOL, TrainingPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard, Window

__all__ = ["GradientPart", "SumPanel", "UpdateRule", "WeightsPart", "empty_grid", "labels_of"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]


def labels_of(board: Storyboard) -> dict[str, str]:
    """Return every label of the storyboard by role (the last text each role had)."""
    return {role: text for beat in board.beats for role, text in beat.labels.items()}


def empty_grid(
    rows: Sequence[Slot],
    window: Window,
    plan: TrainingPlan,
    theme: Theme,
    corner: tuple[float, float],
    frame: str | None = None,
) -> CellGrid:
    """Return a body with the window's columns and these rows, its top-left corner at ``corner``.

    Framed as E is unless ``frame`` says otherwise: in the gradient's magenta, under the
    highlight's violet rings, the two read as one colour (a 720p review).
    """
    pad = char_advance(plan.scale.data) * CELL_PAD_CHARS / 2
    grid = CellGrid(rows, col_slots(window, plan.sizes), lambda r, c: None, theme, frame, pad)
    grid.body[0].set_stroke(frame or theme.cell_stroke, width=2)
    return grid.shift(xyz(corner[0] - grid.body_left(), corner[1] - grid.body_top()))


def line_slots(count: int, plan: TrainingPlan) -> list[Slot]:
    """Return ``count`` rows of the plan's height, keyed 0, 1, ..."""
    return [Slot(n, plan.sizes.row_height) for n in range(count)]


class GradientPart(Component):
    """``∂L/∂E`` beside E, on the same rows, and the marks that say which rows moved.

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
        self, host: StageHost, board: Storyboard, cells: Cells, plan: TrainingPlan, theme: Theme
    ) -> None:
        super().__init__(host, theme)
        window = board.beats[0].window
        label = plan.scale.label
        corner = (plan.grad_left, plan.matrix_top)
        self.grid = empty_grid(row_slots(window, plan.sizes), window, plan, theme, corner)
        rows = [(row,) for row in window.rows]
        self.rows = Rows(
            self.grid,
            rows,
            cells,
            "grad",
            plan.scale.data,
            theme,
            board.value_scale,
            keys=window.rows,
        )
        self.heading = heading(
            board.word("gradient"), GRADIENT_SYMBOL, label, theme.muted, theme.gradient
        )
        self.heading.move_to(xyz(0, plan.heading_y)).align_to(xyz(plan.grad_heading_left, 0), LEFT)
        labels = labels_of(board)
        changed = {c.index[0] for c in cells.values() if c.kind == "updated"}
        self.marks: dict[int, SansText] = {}
        for row in window.rows:
            text = labels.get(f"mark_{row:06d}")
            if text is not None:
                colour = theme.text if row in changed else theme.muted
                mark = SansText(text, label, colour)
                y = self.rows.y((row,))
                self.marks[row] = mark.move_to(xyz(0, y)).align_to(xyz(plan.mark_left, 0), LEFT)
        self.zero_rows = [
            row for row in window.rows if all(n.cell.value == 0 for n in self.rows.numbers[(row,)])
        ]

    def intro(self) -> list[VMobject]:
        """Return the empty body and its heading: the gradient of E, still to be found."""
        return [self.grid, self.heading]

    def zeros(self) -> list[VMobject]:
        """Return the rows no ID selected: exactly zero, with their elision marks."""
        return [m for row in self.zero_rows for m in self.rows.row((row,))]

    def beat_unchanged(self, beat: Beat) -> Animation:
        """Point at the zero rows, then mark each drawn row as nudged or unchanged.

        Each zero row gets its own passing outline: one round them all (rows 0
        and 50256 at GPT-2 size) crossed the nudged rows' numbers between them.
        Each runs on its row's cells: round the numbers' ink, it began inside the
        first cell's padding and framed part of the row (a 720p review, issue 18).
        """
        marks = LaggedStart(
            *[FadeIn(mark, shift=0.15 * LEFT) for mark in self.marks.values()], lag_ratio=0.15
        )
        colour = self.theme.highlight
        rows = [(row,) for row in self.zero_rows]
        if not rows:
            return marks
        boxes = [self.rows.outline(row, colour, beside=rows) for row in rows]
        pointed = AnimationGroup(*[point_at(box, colour, buff=0.0) for box in boxes])
        return Steps(pointed, marks)


class WeightsPart(Component):
    """The token IDs, each beside its position and its loss weight ``w_t``, and the loss line.

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
        self, host: StageHost, board: Storyboard, cells: Cells, plan: TrainingPlan, theme: Theme
    ) -> None:
        super().__init__(host, theme)
        window = board.beats[0].window
        data, label = plan.scale.data, plan.scale.label
        ids = sorted((c for c in cells.values() if c.kind == "token_id"), key=lambda c: c.index)
        corner = (plan.matrix_left, plan.weights_top)
        self.grid = empty_grid(line_slots(len(ids), plan), window, plan, theme, corner)
        positions = [c.index for c in ids]
        self.rows = Rows(self.grid, positions, cells, "upstream", data, theme, board.value_scale)
        self.chips: list[Chip] = []
        self.positions = VGroup()
        for cell in ids:
            y = self.rows.y(cell.index)
            chip = Chip(cell, label, theme)
            # Right-aligned, each beside its position number.
            x = plan.position_left - number_gap(label) - chip.width / 2
            self.chips.append(chip.move_to(xyz(x, y)))
            number = NumberText(cells[("position", cell.index)], label, theme.muted)
            self.positions.add(number.place(xyz(plan.position_left, y), align="left"))
        labels = labels_of(board)
        first = next(
            b.labels["upstream_title"] for b in board.beats if "upstream_title" in b.labels
        )
        self.title = maths(first, theme.gradient, label)
        self.title_full = maths(labels["upstream_title"], theme.gradient, label)
        for title in (self.title, self.title_full):
            title.move_to(xyz(0, plan.weights_heading_y)).align_to(xyz(plan.matrix_left, 0), LEFT)
        self.formula = maths(labels["loss_formula"], theme.text, label)
        self.equals = maths(labels["loss_equals"], theme.text, label)
        losses = sorted((c for c in cells.values() if c.kind == "loss"), key=lambda c: c.index)
        self.loss_before = NumberText(losses[0], label, theme.text)
        self.loss_after = NumberText(losses[-1], label, theme.text) if len(losses) > 1 else None
        self.arrow = maths(labels["loss_arrow"], theme.muted, label) if self.loss_after else None
        line = [
            m
            for m in (self.formula, self.equals, self.loss_before, self.arrow, self.loss_after)
            if m
        ]
        VGroup(*line).arrange(RIGHT, buff=SPACE)
        for piece in line:
            piece.set_y(plan.loss_y)
        VGroup(*line).align_to(xyz(plan.tag_left, 0), LEFT)
        # A long loss after the step (-362.8585 at GPT-2 size) would run into the
        # update rule that shares this line: move the line left, never off the frame.
        overflow = VGroup(*line).get_right()[0] - (plan.rule_left - 3 * SPACE)
        room = VGroup(*line).get_left()[0] - (SPACE - float(config.frame_width) / 2)
        if overflow > 0:
            VGroup(*line).shift(min(overflow, max(room, 0.0)) * LEFT)

    def members(self) -> list[VMobject]:
        """Return everything the part draws, shown or not (what moves when it rests)."""
        line = [self.formula, self.equals, self.loss_before, self.arrow, self.loss_after]
        shown = [self.grid, *self.rows.all(), *self.chips, self.positions, self.title]
        return [*shown, self.title_full, *(m for m in line if m is not None)]

    def row_cells(self, position: tuple[int, ...]) -> list[VMobject]:
        """Return one weight row's numbers and marks."""
        return self.rows.row(position)

    def appear(self) -> list[VMobject]:
        """Return what the loss's definition brings: the loss, its value, the weights."""
        return [
            self.formula,
            self.equals,
            self.loss_before,
            self.grid,
            self.title,
            *self.rows.all(),
        ]

    def beat_upstream(self, beat: Beat) -> Animation:
        """Point at the loss; then the weights' title becomes ``w_t = ∂L/∂e_t``.

        Two steps: the loss is pointed at as the narration asks how it
        changes; the title is named as the answer is given.
        """
        colour = self.theme.highlight
        return Steps(
            Indicate(self.formula, scale_factor=1.0, color=colour, run_time=1.5),
            Succession(
                FadeOut(self.title, run_time=0.3),
                FadeIn(self.title_full),
                Indicate(self.title_full, scale_factor=1.0, color=colour),
            ),
        )

    def loss_drop(self) -> Animation:
        """Show the loss after the step beside the loss before it."""
        assert self.arrow is not None
        assert self.loss_after is not None
        return Succession(
            FadeIn(self.arrow),
            FadeIn(self.loss_after, shift=0.2 * LEFT),
            point_at(self.loss_after, self.theme.highlight),
        )


class SumPanel(Component):
    """A repeated ID's contributions ``w_0``, ``+ w_2`` and their column sum, under the gradient.

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
    weights, gradient
        The rows the sum is pointed out in.
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: TrainingPlan,
        theme: Theme,
        weights: WeightsPart,
        gradient: GradientPart,
    ) -> None:
        super().__init__(host, theme)
        self.weights, self.gradient = weights, gradient
        window = board.beats[0].window
        data, label, scale = plan.scale.data, plan.scale.label, board.value_scale
        labels = labels_of(board)
        terms = sorted({c.index[:-1] for c in cells.values() if c.kind == "term"})
        sums = sorted({c.index[:-1] for c in cells.values() if c.kind == "sum"})
        corner = (plan.grad_left, plan.weights_top)
        self.grid = empty_grid(
            line_slots(len(terms) + 1, plan), window, plan, theme, corner, theme.output
        )
        self.terms = Rows(self.grid, terms, cells, "term", data, theme, scale)
        self.sums = Rows(self.grid, sums, cells, "sum", data, theme, scale, first=len(terms))
        names = [labels[r] for r in sorted(labels) if r.startswith("sum_term_")]
        self.names = [maths(text, theme.gradient, label) for text in [*names, labels["sum_total"]]]
        for row, name in enumerate(self.names):
            y = self.grid.row_y(row)
            name.move_to(xyz(0, y)).align_to(xyz(plan.names_right, 0), RIGHT)
        self.rule = sum_rule(self.grid, len(terms), theme)
        self.title = maths(labels["sum_title"], theme.gradient, label)
        fit_width(self.title, config_right() - plan.grad_left)
        self.title.move_to(xyz(0, plan.weights_heading_y)).align_to(xyz(plan.grad_left, 0), LEFT)
        self.positions = terms
        self.row = sums[0][0]

        self.outlines: list[VMobject] = []

    def beat_accumulate(self, beat: Beat) -> Animation:
        """Name a repeated ID's contributions where they come from; then point at their sum.

        Two steps: the contributions (outlined in the weights, and the
        gradient row they add up to) and the sum's title with the phrase that
        names them; the sum with "Repeats add up; they never overwrite."
        """
        colour = self.theme.highlight
        self.outlines = [self.weights.rows.outline(p, colour) for p in self.positions]
        self.outlines.append(self.gradient.rows.outline((self.row,), colour))
        total = VGroup(*self.sums.numbers[(self.row,)])
        # The terms' names came with the rows in the scatter (ScatterMotion._sum).
        return Steps(
            AnimationGroup(*[OutlineIn(m) for m in self.outlines], FadeIn(self.title)),
            point_at(total, colour),
        )


def sum_rule(grid: CellGrid, row: int, theme: Theme) -> Line:
    """Return the rule over row ``row`` of a grid, as under a column sum on paper."""
    y = grid.body_top() - row * grid.row_slots[0].size
    rule = Line(xyz(grid.body_left(), y), xyz(grid.body_right(), y))
    return rule.set_stroke(theme.text, width=3).set_z_index(1)


def config_right() -> float:
    """Return the right edge of the frame's safe area."""
    from manim import config

    from embedviz.render.design import MARGIN

    return float(config.frame_width) / 2 - MARGIN


class UpdateRule(Component):
    """``E ← E − 0.5 · ∂L/∂E`` beside the loss, and E's looked-up rows taking their new values.

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
    matrix, gradient
        The blocks the rule reads and changes.
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: TrainingPlan,
        theme: Theme,
        matrix: MatrixPart,
        gradient: GradientPart,
    ) -> None:
        super().__init__(host, theme)
        labels = labels_of(board)
        label = plan.scale.label
        self.matrix, self.gradient, self.board, self.plan = matrix, gradient, board, plan
        self.rule: VGroup | None = None
        lr = [c for c in cells.values() if c.kind == "lr"]
        if lr:
            self.rule = VGroup(
                maths(labels["update_left"], theme.text, label),
                # Amber means a token ID; the learning rate is a plain number.
                NumberText(lr[0], label, theme.text),
                maths(labels["update_right"], theme.text, label),
            ).arrange(RIGHT, buff=SPACE)
            self.rule.move_to(xyz(0, plan.loss_y)).align_to(xyz(plan.rule_left, 0), LEFT)
        self.updated = sorted(
            (c for c in cells.values() if c.kind == "updated"), key=lambda c: c.index
        )
        self.rows = sorted({c.index[0] for c in self.updated})
        self.leaving: list[VMobject] = []
        # What the gradient came from (the weights, the column sum): it recedes as the rule comes.
        self.receding: list[VMobject] = []

    def beat_update(self, beat: Beat) -> Animation:
        """Show the rule; then turn each looked-up row of E into its new value.

        Two steps, one per phrase: the rule (as the outlines of the last beats
        leave), then the gradient rows pulse while E's cells roll over (the old
        value drifting up, the new one rising in: :mod:`~embedviz.render.parts.roll`,
        whose hand-over leaves no cell blank at any moment). A row's cells roll in
        turn, left to right.
        """
        assert self.rule is not None
        grid = self.matrix.grid
        rolls: dict[int, list[Animation]] = {}
        for cell in self.updated:
            row, col = cell.index
            old = grid.entries[(row, col)]
            # The old number leaves the grid's row, so that it can leave the screen whole.
            grid.rows_group[row].remove(old)
            self.host.add(old)
            colour = value_colour(cell.value, self.board.value_scale, self.theme)
            new = grid.put(row, col, NumberText(cell, self.plan.scale.data, colour))
            grid.entries[(row, col)] = new
            _, low, _, high = grid.row_box(row, buff=0.0)
            rolls.setdefault(row, []).append(roll_over(old, new, high - low))
        colour = self.theme.highlight
        pulses = [
            point_at(VGroup(*self.gradient.rows.numbers[(row,)]), colour) for row in self.rows
        ]
        changes = [
            LaggedStart(*cells, lag_ratio=roll_lag(len(cells)), run_time=ROLL_TIME)
            for cells in rolls.values()
        ]
        on = {id(m) for top in self.host.mobjects for m in top.get_family()}
        served = recede([m for m in self.receding if id(m) in on], self.theme)
        shown = AnimationGroup(FadeIn(self.rule), *[FadeOut(m) for m in self.leaving], served)
        return Steps(shown, AnimationGroup(*pulses, *changes))

    def moved(self) -> list[VMobject]:
        """Return E's numbers that the update changed (after it)."""
        return [self.matrix.grid.entries[(c.index[0], c.index[1])] for c in self.updated]
