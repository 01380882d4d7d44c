"""OneHotEquivalence's vector and costs.

- :class:`OneHotColumn`: ``one_hot(i)`` drawn on its side, so labelled as
  what it is, ``one_hot(i)ᵀ`` with its shape ``V × 1``: entry k level with
  row k of E, hidden entries sharing E's bands (both ranges labelled in the
  margin, the vector's over E's). Beat ``one_hot``.
- :class:`CostTable`: multiply-adds per token for the product here, at
  GPT-2's size, and for the lookup (none: it copies d numbers). Beats
  ``cost`` and ``copy``.
"""

from __future__ import annotations

from collections.abc import Mapping

from manim import (
    LEFT,
    RIGHT,
    Animation,
    AnimationGroup,
    LaggedStart,
    Succession,
    Transform,
    VGroup,
    VMobject,
)

from embedviz.render.animations import Steps, make_reveal_animation, point_at
from embedviz.render.baseline import on_one_line, put_on_line
from embedviz.render.design import LABEL_RATIO, SPACE, Theme, maths
from embedviz.render.fades import FadeIn
from embedviz.render.formula import FormulaText
from embedviz.render.gap_text import GapLabel
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.metrics import char_advance, digit_height, xyz
from embedviz.render.mobjects import ShapeLabel
from embedviz.render.parts.grid import CellGrid, Slot, row_slots
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.solve_one_hot import COST_LINES, COST_PRODUCT, OneHotPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["CostTable", "OneHotColumn"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]


def _labels(board: Storyboard) -> dict[str, str]:
    return {role: text for beat in board.beats for role, text in beat.labels.items()}


class OneHotColumn(Component):
    """``one_hot(i)ᵀ``: the vector on its side, entry k beside row k of E.

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
    matrix
        E, whose rows the entries sit beside (and whose gap labels move into
        the margin, under the vector's).
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: OneHotPlan,
        theme: Theme,
        matrix: MatrixPart,
    ) -> None:
        super().__init__(host, theme)
        self.matrix, self.token_id = matrix, board.single_id()
        window, labels, scale = board.beats[0].window, _labels(board), plan.scale

        def element(row: Slot, col: Slot) -> VMobject:
            cell = cells[("one_hot", (row.key,))]
            # The one 1 is the text colour, the zeros recede (still 4.5:1 on a cell).
            return NumberText(cell, scale.data, theme.text if cell.value == 1 else theme.muted)

        rows = row_slots(window, plan.sizes)
        self.grid = CellGrid(rows, [Slot(0, plan.vector_width)], element, theme)
        self.grid.shift(
            xyz(plan.vector_left - self.grid.body_left(), plan.matrix_top - self.grid.body_top())
        )
        self.entries = {key[0]: m for key, m in self.grid.entries.items()}
        # Each entry (one digit) centred in its cell, not at its right edge by E's row number.
        centre = self.grid.body_left() + plan.vector_width / 2
        for entry in self.entries.values():
            if isinstance(entry, NumberText):
                entry.place(xyz(centre, entry.get_center()[1]), align="center")
        right = plan.vector_left - SPACE
        self.gap_labels = VGroup()
        for number in range(len(window.row_gaps)):
            y = self.grid.row_y(number, gap=True)
            line = digit_height(scale.note) * 1.9
            # Words (entries 6–4818 are 0): sans, as E's label under it.
            mine = GapLabel(labels[f"one_hot_gap_{number}"], scale.note, theme.muted)
            self.gap_labels.add(mine.place(xyz(right, y + line / 2), align="right"))
            # E's label for the same range, under the vector's (it was beside E's row numbers).
            theirs = matrix.grid.gap_labels[number]
            theirs.place(xyz(right, y - line / 2), align="right")
        sizes = [cells[("one_hot_size", (axis,))] for axis in (0, 1)]
        self.title = VGroup(
            maths(labels["one_hot_title"], theme.text, scale.label),
            ShapeLabel(sizes, scale.label, theme.muted),
        ).arrange(RIGHT, buff=SPACE * 1.5)
        # Left of E's heading (right-aligned over E), as far right as it goes.
        heading_left = matrix.grid.body_right() - matrix.heading.width
        self.title.move_to(xyz(0, plan.heading_y))
        self.title.align_to(xyz(heading_left - 2 * SPACE, 0), RIGHT)

    def intro(self) -> list[VMobject]:
        """Return nothing: the vector appears with its own beat."""
        return []

    def beat_one_hot(self, beat: Beat) -> Animation:
        """Show the vector and pulse its 1; then pulse the 1 with row i's number beside it.

        "one_hot(3) holds 6 numbers: 1 at position 3, 0 everywhere else." /
        "Drawn on its side, entry k sits beside row k of E."
        """
        one = self.entries[self.token_id]
        colour, grow = self.theme.highlight, 1 / LABEL_RATIO
        row_label = self.matrix.grid.row_labels[self.token_id]
        return Steps(
            Succession(
                make_reveal_animation([self.grid, self.title, self.gap_labels]),
                point_at(one, colour, scale=1.2),
            ),
            AnimationGroup(
                point_at(one, colour, scale=1.2),
                point_at(row_label, colour, scale=grow),
            ),
        )


class CostTable(Component):
    """What each way costs per token: the product here, at GPT-2's size, and the lookup.

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
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: OneHotPlan,
        theme: Theme,
        formula: VMobject | None = None,
    ) -> None:
        super().__init__(host, theme)
        # The costs are the payoff: as large as the captions that speak them (issue 18).
        labels, label = _labels(board), plan.payoff
        # The typeset product rises to its place over the costs as they come, at the size
        # it came in at (it shrank to the labels' there, under the captions', issue 18).
        self.formula, self.formula_place = formula, None
        if formula is not None:
            self.formula_place = formula.copy()
            self.formula_place.move_to(xyz(0, plan.formula_y))
            self.formula_place.align_to(xyz(plan.panel_left, 0), LEFT)
        self.header = SansText(board.word("multiply_adds"), label, theme.muted)
        names: list[VMobject] = [
            maths(COST_PRODUCT, theme.text, label),
            LabelText(labels["cost_gpt2"], label, theme.text),
            SansText(board.word("lookup"), label, theme.text),
        ]
        values: list[VMobject] = []
        for number in (0, 1):
            sizes = [cells[("cost_size", (number, axis))] for axis in (0, 1)]
            values.append(
                VGroup(
                    ShapeLabel(sizes, label, theme.text),
                    LabelText("=", label, theme.muted),
                    NumberText(cells[("multiply_adds", (number,))], label, theme.text),
                ).arrange(RIGHT, buff=char_advance(label) * 0.6)
            )
        values.append(NumberText(cells[("multiply_adds", (2,))], label, theme.text))
        # One phrase on one baseline ("copies" has a descender, "3" none).
        self.copy_note = on_one_line(
            [
                SansText(board.word("copies"), label, theme.muted),
                NumberText(cells[("copy_count", (0,))], label, theme.text),
                SansText(labels["copy_unit"], label, theme.muted),
            ],
            char_advance(label) * 0.6,
        )
        left, line = plan.panel_left, plan.cost_line
        value_x = left + max(name.width for name in names) + char_advance(label) * 2
        ys = [plan.cost_top - (k + 0.5) * line for k in range(COST_LINES)]
        put_on_line(self.header, ys[0]).align_to(xyz(left, 0), LEFT)
        self.entries: list[VGroup] = []
        for name, value, y in zip(names, values, ys[1:4], strict=True):
            # A typeset name keeps its box's centre; words and values sit on the line.
            name.move_to(xyz(0, y)).align_to(xyz(left, 0), LEFT)
            if not isinstance(name, FormulaText):
                put_on_line(name, y)
            put_on_line(value, y).align_to(xyz(value_x, 0), LEFT)
            self.entries.append(VGroup(name, value))
        # The lookup's 0, then what it does instead: "lookup  0  copies 3 numbers".
        copy_x = values[2].get_right()[0] + char_advance(label) * 2
        put_on_line(self.copy_note, ys[3]).align_to(xyz(copy_x, 0), LEFT)

    def beat_cost(self, beat: Beat) -> Animation:
        """Raise the typeset product as the multiply-adds here show; then, with its phrase, GPT-2's.

        The typeset product stood under the two rows it equates (:class:`ComparePart`).
        """
        shown: Animation = LaggedStart(FadeIn(self.header), FadeIn(self.entries[0]), lag_ratio=0.4)
        if self.formula is not None and self.formula_place is not None:
            # The formula is in its place before the header comes where it stood: together,
            # they overprinted (a mid-motion review).
            shown = Succession(Transform(self.formula, self.formula_place, run_time=0.6), shown)
        return Steps(shown, FadeIn(self.entries[1]))

    def beat_copy(self, beat: Beat) -> Animation:
        """Show that the lookup does no multiply-adds; then, with its phrase, that it copies d."""
        return Steps(FadeIn(self.entries[2]), FadeIn(self.copy_note))
