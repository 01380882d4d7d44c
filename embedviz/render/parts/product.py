"""OneHotEquivalence's product and lookup rows.

- :class:`ProductPart`: the product's row and title, the terms of one column
  (each level with the row it uses, :class:`~embedviz.render.parts.terms.TermList`),
  their sum, and each column that follows, worked the same way in the same place.
  Beats ``terms``, ``sum`` and ``columns`` (one per other column).
- :class:`ComparePart`: the lookup: the chip, waiting at the right end of
  row i of E, walks to the lookup's row under the product with row i
  following it as a strip (the chip stays beside it as its tag); ``=`` marks
  and the typeset product. Beat ``compare``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    Animation,
    AnimationGroup,
    LaggedStart,
    Rectangle,
    Succession,
    VGroup,
    VMobject,
    Wait,
)
from manim.utils.rate_functions import rush_from

from embedviz.render.animations import Steps, make_deferred_animation, point_at
from embedviz.render.design import SPACE, Theme, maths, value_colour
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.metrics import char_advance, xyz
from embedviz.render.mobjects import ShapeLabel
from embedviz.render.pace import at_least
from embedviz.render.parts.chips import Chip, Follow, curve_points
from embedviz.render.parts.grid import CELL_PAD_CHARS, CellGrid, Slot, col_slots
from embedviz.render.parts.kept import KeptOutlines, shown_on
from embedviz.render.parts.landing import landing_carry
from embedviz.render.parts.lift import RisingLift
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.one_hot import OneHotColumn
from embedviz.render.parts.strip import Carry
from embedviz.render.parts.terms import TermList, rewrite, spent_opacity
from embedviz.render.solve_one_hot import OneHotPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["ComparePart", "ProductPart", "row_block"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]
# Drawn above the blocks it walks past, below a travelling strip.
CHIP_Z = 10
# The least seconds row i's copy takes from E to the lookup's row, its chip riding.
RIDE_SECONDS = 1.0
# The beats after the compare, over which row i of E stays outlined (see ComparePart.before_beat).
COSTS = frozenset({"cost", "copy"})


def _labels(board: Storyboard) -> dict[str, str]:
    return {role: text for beat in board.beats for role, text in beat.labels.items()}


def row_block(board: Storyboard, plan: OneHotPlan, theme: Theme, y: float) -> CellGrid:
    """Build an empty one-row block in E's columns at the panel's left, centred on y."""
    slots = col_slots(board.beats[0].window, plan.sizes)
    pad = char_advance(plan.scale.data) * CELL_PAD_CHARS / 2
    grid = CellGrid(
        [Slot(0, plan.product_row_height)], slots, lambda r, c: None, theme, theme.output, pad
    )
    grid.body[0].set_stroke(theme.output, width=2)
    top = y + plan.product_row_height / 2
    return grid.shift(xyz(plan.panel_left - grid.body_left(), top - grid.body_top()))


def _place(
    grid: CellGrid, cell: NumberCell, plan: OneHotPlan, board: Storyboard, theme: Theme
) -> NumberText:
    colour = value_colour(cell.value, board.value_scale, theme)
    return grid.put(0, cell.index[-1], NumberText(cell, plan.scale.data, colour))


def _marks(board: Storyboard, plan: OneHotPlan, grid: CellGrid, theme: Theme) -> VGroup:
    """Return a row's elision marks (not added), one per hidden range of columns."""
    marks = VGroup()
    for number in range(len(board.beats[0].window.col_gaps)):
        mark = LabelText("\u2026", plan.scale.data, theme.muted)
        marks.add(mark.move_to(xyz(grid.col_x(number, gap=True), grid.row_y(0))))
    return marks


class ProductPart(Component):
    """The product's row, one column's terms and their sum, then every column.

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
    matrix, vector
        E and the one-hot vector, which the terms pair up.
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: OneHotPlan,
        theme: Theme,
        matrix: MatrixPart,
        vector: OneHotColumn,
    ) -> None:
        super().__init__(host, theme)
        self.plan, self.matrix, self.vector = plan, matrix, vector
        self.token_id = board.single_id()
        labels, label = _labels(board), plan.scale.label
        self.column = min(c.index[0] for (k, _), c in cells.items() if k == "term_weight")
        self.product = row_block(board, plan, theme, plan.product_y)
        products = sorted(
            (c for (k, _), c in cells.items() if k == "product"), key=lambda c: c.index
        )
        self.cells = {c.index[0]: _place(self.product, c, plan, board, theme) for c in products}
        self.marks = _marks(board, plan, self.product, theme)
        sizes = [cells[("product_size", (axis,))] for axis in (0, 1)]
        self.title = VGroup(
            maths(labels["product_title"], theme.text, label),
            ShapeLabel(sizes, label, theme.muted),
        ).arrange(RIGHT, buff=SPACE * 1.5)
        self.title.move_to(xyz(0, plan.panel_heading_y)).align_to(xyz(plan.panel_left, 0), LEFT)
        window = board.beats[0].window
        bands = [matrix.grid.row_y(n, gap=True) for n in range(len(window.row_gaps))]
        # Every worked column's terms, in one place: column 0's, then each column's in turn
        # as the box reaches it (their zero terms already spent, as column 0's are by then).
        worked = sorted(c.index[0] for (k, _), c in cells.items() if k == "term_sum")
        self.lists = {col: TermList(board, cells, plan, theme, col, bands) for col in worked}
        for col, terms in self.lists.items():
            if col != self.column:
                terms.spend(theme.background)
        self.terms = self.lists[self.column]
        # The list on the screen (or last on it): the highlighted column's.
        self.showing = self.terms
        self.box: Rectangle | None = None

    def _column_box(self, col: int) -> Rectangle:
        grid = self.matrix.grid
        box = Rectangle(width=self.plan.sizes.cell_width, height=grid.height_of_body + 0.06)
        box.set_stroke(self.theme.highlight, width=4).set_fill(opacity=0)
        return box.move_to(xyz(grid.col_x(col), grid.body_top() - grid.height_of_body / 2))

    def beat_terms(self, beat: Beat) -> Animation:
        """Show the product's row and box a column; then write its terms, row by row.

        "Entry 0 of the product:" / "multiply each one-hot entry by the number
        beside it in column 0, then add all 6 products." Each row's entry and
        number pulse as its term is written level with them.
        """
        self.box = self._column_box(self.column)
        colour, grid = self.theme.highlight, self.matrix.grid
        steps: list[Animation] = []
        gaps = iter(self.terms.gap_lines)
        for slot in grid.row_slots:
            if slot.gap:
                steps.append(FadeIn(next(gaps), shift=0.15 * RIGHT))
                continue
            entry, cell = self.vector.entries[slot.key], grid.get_cell(slot.key, self.column)
            steps.append(
                AnimationGroup(
                    point_at(entry, colour),
                    point_at(cell, colour),
                    FadeIn(self.terms.lines[slot.key], shift=0.15 * RIGHT),
                )
            )
        shown = AnimationGroup(
            FadeIn(self.product),
            FadeIn(self.title),
            OutlineIn(self.box),
            run_time=max(1.0, len(steps) / 4),
        )
        return Steps(shown, Succession(*steps))

    def _climb(self, terms: TermList, column: int) -> Animation:
        """Return a copy of ``terms``' sum climbing into the product's cell ``column``.

        The copy sets off from the sum itself, drawn whole: out along the sum's
        line to a lane right of the terms, up it, and left into the cell.
        """
        total, target = terms.total, self.cells[column]
        slot = target.get_center().copy()
        # Right of every term, of the hidden ranges' lines and of the sum, left of the
        # chip that waits further right (the solver keeps the lane between them).
        right = max(m.get_right()[0] for m in terms.pieces())
        start = total.get_center().copy()
        lane = right + SPACE + target.width / 2
        target.shift(start - slot)
        points = [start, xyz(lane, start[1]), xyz(lane, slot[1]), slot]
        path = curve_points(points, self.plan.sizes.row_height * 0.4)

        # The copy comes only as it sets off (built then: manim shows an animation's mobject
        # as its play begins, and a copy beside the sum while it was written read as a second
        # result, "= -0.4015   -0.4015"), from over the sum, whole: faded in at the lane, it
        # came from nowhere, level with the last term, and read as part of it (a 720p review).
        # It leaves briskly (eased in, it lay over the sum for frames, the two a blur).
        def climbing() -> Animation:
            return Follow(target, path, run_time=1.2, introducer=True, rate_func=rush_from)

        return make_deferred_animation(climbing, run_time=1.2, touches=lambda: [target])

    def beat_sum(self, beat: Beat) -> Animation:
        """Fade the zero terms; then write the sum and carry a copy of it up into the product."""
        zeros = self.terms.zero_lines
        # Terms that are exactly zero recede once the sum is taken, as far as dimmed
        # content may: each text keeps 3:1 against the background.
        spent = spent_opacity(zeros, self.theme.background)
        faded: Animation = (
            AnimationGroup(*[m.animate.set_opacity(spent) for m in zeros])  # type: ignore[arg-type]
            if zeros
            else point_at(self.terms.lines[self.token_id], self.theme.highlight)
        )
        shown = AnimationGroup(FadeIn(self.terms.equals), FadeIn(self.terms.total))
        return Steps(faded, Succession(shown, self._climb(self.terms, self.column)))

    def beat_columns(self, beat: Beat) -> Animation:
        """Glide the column box to the beat's column, rewrite the terms for it, land its sum.

        "Column 1 works the same way." As the box reaches column j the terms
        beside E become column j's in place: each line's weight rolls over to
        E[k, j], the sum to entry j (their zero terms spent, as column 0's).
        "Only 1 × E[3, 1] is left." E[i, j] is pointed at as the sum's copy
        climbs into entry j of the product's row, as in the ``sum`` beat. The
        working on screen is always the boxed column's (a lecture-hall review,
        issue 18: column 0's terms beside E read as the working of the columns
        that followed). The last column's beat ends with the box gone, its
        terms standing until the lookup's row needs the panel (:class:`ComparePart`);
        with a single column, column 0's do.
        """
        column = next(c.index[0] for c in beat.numbers if c.kind == "term_sum")
        colour = self.theme.highlight
        last = column == max(self.cells)
        box = self.box if self.box is not None else self._column_box(self.column)
        self.box = box
        if column == self.showing.column:
            steps: list[Animation] = [point_at(self.cells[column], colour, scale=1.2)]
        else:
            old, new = self.showing, self.lists[column]
            self.showing = new
            place = self._column_box(column).get_center()
            glide = box.animate(run_time=1.0).move_to(place)  # type: ignore[operator]
            # Handed over mid-glide: the box leaves column j - 1 as its terms go. Begun with
            # the glide (after a Wait, the coming lines stood whole over the old until then:
            # a play shows every mobject of its animations as it begins).
            rolled = rewrite(old, new, self.plan.sizes.row_height, run_time=0.9)
            cell = self.matrix.grid.get_cell(self.token_id, column)
            steps = [
                AnimationGroup(glide, rolled),  # type: ignore[arg-type]
                AnimationGroup(point_at(cell, colour), self._climb(new, column)),
            ]
        if last:
            steps.append(AnimationGroup(FadeOut(box), *[FadeIn(m) for m in self.marks]))
        return Steps(*steps)


class ComparePart(Component):
    """The lookup beside the product: the chip fetches row i, the row lands under the product.

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
    matrix, product
        E, which the row leaves, and the product, which it is set under.
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: OneHotPlan,
        theme: Theme,
        matrix: MatrixPart,
        product: ProductPart,
    ) -> None:
        super().__init__(host, theme)
        self.plan, self.matrix, self.product, self.cells = plan, matrix, product, cells
        self.token_id = board.single_id()
        labels, label = _labels(board), plan.scale.label
        self.chip = Chip(cells[("token_id", (0,))], label, theme)
        self.home = xyz(plan.home_left() + plan.chip_width / 2, plan.lookup_y)
        # Until it fetches its row, the chip waits at the right end of that row of E (level
        # with the one-hot's 1), in the walking column between E and the panel: in the tag
        # column at the panel's right it stood beside nothing for 20 s, then walked back to
        # the row to fetch it (a lecture-hall review, issue 18).
        self.wait = xyz(plan.park_x(), matrix.grid.row_y(self.token_id))
        self.chip.move_to(self.wait).set_z_index(CHIP_Z)
        # Its heading ends where the chip ends at home (never further right), under it
        # (over it, between the product's row and the lookup's, it would crowd the "="
        # marks). The stage stands it over the waiting chip in the close-up; the panel's
        # terms need that place, so it fades as they come and shows again here.
        self.heading = SansText(board.word("token_id"), label, theme.muted)
        half, centre = self.heading.height / 2, plan.chip_width - self.heading.width / 2
        under = plan.lookup_y - plan.product_row_height / 2 - SPACE - half
        self.heading_home = xyz(plan.home_left() + centre, under)
        self.heading.move_to(self.heading_home)
        self.lookup = row_block(board, plan, theme, plan.lookup_y)
        outputs = sorted((c for (k, _), c in cells.items() if k == "output"), key=lambda c: c.index)
        self.targets = [_place(self.lookup, c, plan, board, theme) for c in outputs]
        self.title = maths(labels["lookup_title"], theme.text, label)
        self.title.move_to(xyz(0, plan.lookup_title_y)).align_to(xyz(plan.panel_left, 0), LEFT)
        middle = (
            product.product.body_top() - product.product.height_of_body + self.lookup.body_top()
        ) / 2
        # Upright: a rotated "=" would read as "‖".
        self.equals = VGroup(
            *[
                LabelText("=", plan.scale.data, theme.wrong).move_to(
                    xyz(self.lookup.col_x(col), middle)
                )
                for col in board.beats[0].window.cols
            ]
        )
        # The beat's conclusion, set as large as the data it speaks of (as wide as
        # the panel allows), centred under the two rows it equates in the middle of
        # the panel's lower half, until the costs come (CostTable raises it over them,
        # at this size). At the labels' size it floated there, a review found.
        self.formula = maths(labels["product_formula"], theme.text, plan.scale.data)
        if self.formula.width > plan.panel_width:
            self.formula.scale_to_fit_width(plan.panel_width)
        self.formula.move_to(xyz(plan.panel_left + plan.panel_width / 2, plan.formula_rest_y))
        self.outline: VMobject | None = None
        self.kept = KeptOutlines()

    def intro(self) -> list[VMobject]:
        """Return the chip, waiting level with the row it will fetch, and its heading."""
        return [self.heading, self.chip]

    def _ride(self, row_y: float) -> tuple[Carry, Follow]:
        """Return row i's copy lifting out of E into the lookup's row, and its chip riding it.

        The copy is drawn whole, its numbers shown, from its first move (:class:`RisingLift`):
        hidden until it was level with the lookup's row, it flew there as an empty amber
        frame, and the chip walking ahead of it went through the lookup's empty row, where
        it stood in its middle cell as a value (a 720p review, 39.4–40.7 s). The chip rides
        at the copy's right end, as far from it as it waited from the row, to its tag.
        """
        plan, grid = self.plan, self.matrix.grid
        landing_x = plan.panel_left + plan.body_width / 2
        way = [xyz(landing_x, row_y), xyz(landing_x, plan.lookup_y)]
        carry = landing_carry(
            grid,
            self.token_id,
            self.chip,
            self.cells[("output_id", (0,))],
            self.targets,
            way,
            self.theme,
            kind=RisingLift,
            run_time=1.0,
        )
        carry.rides = True
        if isinstance(carry, RisingLift) and plan.product_row_height != plan.sizes.row_height:
            carry.land_height = plan.product_row_height
        left, _, right, _ = grid.row_box(self.token_id, buff=0.0)
        ahead = self.wait - xyz((left + right) / 2, row_y)
        ride = np.array([self.wait, *[point + ahead for point in way], self.home])
        return carry, Follow(self.chip, ride, run_time=1.0, rate_func=carry.pace)

    def beat_compare(self, beat: Beat) -> Animation:
        """Fetch row i as a lookup does, under the product; then mark them equal.

        "The lookup E[3] copies row 3 directly." / "The two rows match value
        for value: one_hot(3) @ E equals E[3]." The chip waits at the right
        end of row i, which is outlined in amber; the row lifts out of E as a
        strip, its numbers shown, out at its own height and up the panel into
        its place, the chip riding at its right end, and the chip stays as its
        tag. Its heading (gone while the terms stood in the panel) comes back
        under it as it arrives.
        """
        grid = self.matrix.grid
        row_y = grid.row_y(self.token_id)
        self.outline = grid.row_outline(self.token_id, self.theme.id_line)
        # Unseen since the terms, it waits at the chip's home and shows as the chip arrives
        # (built when it starts: manim would show a fade's mobject whole as the play begins).
        self.heading.move_to(self.heading_home)
        heading = self.heading
        headed = Succession(
            Wait(run_time=0.6),
            make_deferred_animation(
                lambda: FadeIn(heading, run_time=0.4), run_time=0.4, touches=lambda: [heading]
            ),
        )
        carry, ride = self._ride(row_y)
        # A second at least, as the walk and the carry it replaces took (at a quarter of
        # its phrase, 0.4 s, the copy crossed the panel too fast to follow).
        back = at_least(AnimationGroup(carry, ride, headed, run_time=2.0), RIDE_SECONDS)
        # The worked column left as the next column was taken (ProductPart.beat_columns);
        # with no other column, it leaves as the lookup's row comes (with the first phrase).
        leaving = [FadeOut(m) for m in shown_on(self.host)(self.product.showing.pieces())]
        fetched = Succession(
            AnimationGroup(*leaving, FadeIn(self.lookup)),
            OutlineIn(self.outline),
            back,
            FadeIn(self.title),
        )
        # Row i stays outlined to the beat's end; the next beat's first motion fades it.
        self.kept.hold(self.token_id, self.outline)
        return Steps(
            fetched,
            Succession(LaggedStart(*[FadeIn(m) for m in self.equals]), FadeIn(self.formula)),
        )

    def before_beat(self, beat: Beat) -> None:
        """Hand the row the beat before kept outlined to this beat's first motion.

        The costs (what the lookup copies) keep it for good: faded as they came, nothing
        tied E[3] and its chip back to row i of E for the scene's last 17 s (a 720p review).
        """
        self.kept.before_beat()
        if beat.action in COSTS:
            self.kept.carry_on(self.token_id)

    def release(self) -> list[Animation]:
        """Fade the row the beat before kept outlined (see :mod:`~embedviz.render.parts.kept`)."""
        return self.kept.release(shown_on(self.host))
