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
- :class:`~embedviz.render.parts.motion.LookupMotion` (in
  :mod:`~embedviz.render.parts.motion`): one thread of motion. Beats ``lookup``
  (one ID at teaching pace) and ``lookup_many`` (the rest, together).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Protocol

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Animation,
    AnimationGroup,
    Create,
    Line,
    Succession,
    SurroundingRectangle,
    VGroup,
    VMobject,
    config,
)
from manim.animation.animation import prepare_animation

from embedviz.render.animations import Steps, make_reveal_animation, point_at
from embedviz.render.design import (
    MARGIN,
    SPACE,
    Theme,
    TypeScale,
    at_least,
    maths,
    value_colour,
)
from embedviz.render.fades import FadeIn, OutlineIn, RingFlash
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.metrics import text_width, xyz
from embedviz.render.mobjects import ShapeLabel
from embedviz.render.parts.chips import Chip, chip_height, piece_font, stand_in_lane
from embedviz.render.parts.grid import GridSizes, output_grid
from embedviz.render.parts.legend import Legend
from embedviz.render.parts.matrix_grid import matrix_grid
from embedviz.render.parts.row_count import count_rows
from embedviz.render.parts.symbols import equality_mark
from embedviz.render.sans_lines import SansLines
from embedviz.render.solver import LookupPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["ChipColumn", "MatrixPart", "MatrixPlace", "OutputPart", "fit_width", "heading_words"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]


class MatrixPlace(Protocol):
    """Where a plan puts the matrix, its heading and legend (a :class:`LookupPlan` is one).

    Other layouts' plans (the zero-based one, the one-hot one) give the same
    places, so :class:`MatrixPart` serves them too.
    """

    @property
    def scale(self) -> TypeScale:
        """The frame's type scale."""

    @property
    def sizes(self) -> GridSizes:
        """The grid's slot sizes."""

    @property
    def matrix_left(self) -> float:
        """The matrix body's left edge."""

    @property
    def matrix_top(self) -> float:
        """The matrix body's top edge."""

    @property
    def heading_y(self) -> float:
        """The heading's centre line."""

    @property
    def legend_x(self) -> float:
        """The legend's left (``legend_left``) or right edge."""

    @property
    def legend_y(self) -> float:
        """The legend's centre line."""

    @property
    def legend_left(self) -> bool:
        """Whether ``legend_x`` is the legend's left edge."""


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
    sizes: list[float] = [
        float(size)
        for m in mobject.get_family()
        if isinstance(size := getattr(m, "font_size", None), float | int)
    ]
    least = at_least(0) / min(sizes) if sizes else 0.0
    mobject.scale(max(width / mobject.width, least))


# How far the row numbers swell when the narration names them all.
SWELL = 1.25


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
        self, host: StageHost, board: Storyboard, cells: Cells, plan: MatrixPlace, theme: Theme
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
        self.note: LabelText | None = None
        note = next((b.labels["dtype_note"] for b in board.beats if "dtype_note" in b.labels), None)
        if note:
            self.note = LabelText(note, plan.scale.legend, theme.muted)
            y = self.grid.body_top() - self.grid.height_of_body - SPACE
            self.note.place(xyz(left, y - self.note.height / 2), align="left")
        self.legend: Legend | None = None
        # The amber outlines a beat has left standing round rows of E, by row.
        self.marked: dict[int, VMobject] = {}
        legend_cells = [cells[key] for key in sorted(cells) if key[0] == "legend"]
        if legend_cells:
            # A still plan stands it upright under the output's tags (solver_still).
            length = plan.legend_upright if isinstance(plan, LookupPlan) else 0.0
            self.legend = Legend(
                legend_cells,
                plan.scale.legend,
                theme,
                board.word("value_colour"),
                upright=length > 0,
                length=length or None,
                stacked=getattr(plan, "legend_stacked", False) and not plan.legend_left,
                level=getattr(plan, "legend_level", False) and not plan.legend_left,
            )
            self.legend.move_to(xyz(0, plan.legend_y))
            edge = LEFT if plan.legend_left else RIGHT
            self.legend.align_to(xyz(plan.legend_x, 0), edge)

    def intro(self) -> list[VMobject]:
        """Return the grid, its heading and the legend."""
        extras = [m for m in (self.legend, self.note) if m is not None]
        return [self.grid, self.heading, *extras]

    def outline(self, row: int, beside: Collection[int] = ()) -> VMobject:
        """Return the amber outline of the row an ID selects (not yet added).

        ``beside``: the rows outlined with it (a side next to one stays inside the row).
        """
        return self.grid.row_outline(row, self.theme.id_line, beside=beside)

    def beat_count_rows(self, beat: Beat) -> Animation:
        """Ring row 0, then each row up to the ID's row; outline that row in amber, and keep it.

        The outline stays in :attr:`marked` until the lookup fetches the row
        (:func:`~embedviz.render.parts.row_count.count_rows`).
        """
        assert beat.highlight is not None
        steps, outline = count_rows(self.grid, beat.highlight.row, self.theme)
        self.marked[beat.highlight.row] = outline
        return steps

    def beat_dim(self, beat: Beat) -> Animation:
        """Dim the rows no ID selected, keeping them 3:1 against their ground."""
        rows = [r for r in beat.dimmed_rows if r in self.grid.rows_group]
        if not rows and self.grid.gap_labels:
            # A ring round the row numbers would run through the hidden ranges' labels
            # beside or among them (a 720p review: 1.8 px from their ends): each number
            # swells in its place instead.
            labels = self.grid.row_labels.values()
            return AnimationGroup(
                *(point_at(n, self.theme.highlight, scale=SWELL, ring=False) for n in labels)
            )
        if not rows:
            return point_at(self.grid.get_row_labels(), self.theme.highlight)
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
        self.positions = positions = board.output_positions()  # from its shape
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
            if ("position", position) in cells:  # a 1 × d output's one row has none
                number = NumberText(cells[("position", position)], label, theme.muted)
                number.place(xyz(plan.position_left, plan.output_row_y(order)), align="left")
                self.numbers.add(number)
        self.shape: ShapeLabel | None = None
        # The equality marks' size (a layout whose marks name both rows sets them as notes).
        self.mark_font = plan.scale.label
        self.question: VMobject | None = None
        self.underlines: list[VMobject] = []
        # The block is on screen from the start, where its rows will be: a scene
        # that asks for its shape first shows it blank (no rules, no row numbers),
        # and draws its rows and columns when it reveals them.
        self.revealed = not any(b.action == "reveal" for b in board.beats)
        self.rules = VGroup(*self.grid.body.submobjects[1:])
        if not self.revealed:
            self.rules.set_stroke(opacity=0.0)
        # Its row numbers come when the storyboard shows them.
        self.numbered = any(c.kind == "position" for c in board.beats[0].numbers)

    def intro(self) -> list[VMobject]:
        """Return the block (blank until its reveal), its heading, and its row numbers if shown."""
        shown: list[VMobject] = [self.grid, self.heading]
        return [*shown, self.numbers] if self.numbered else shown

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
        """Return a row's equality mark (``out[2] = out[0]``), placed, if the storyboard has one."""
        cell = self.cells.get(("equal_to", position))
        if cell is None:
            return None
        mark = equality_mark(cell, self.mark_font, self.theme.wrong)
        # Where the row is now (the block may rest below the solver's place).
        y = self.grid.row_y(self.row_of(position))
        # In the corridor (a lane's late marks) each ends a gap left of the row it names.
        mark.place(xyz(self.plan.mark_left, y), align="right" if self.plan.marks_inside else "left")
        return mark

    def beat_predict(self, beat: Beat) -> Animation:
        """Ask for the output's shape inside the blank block, underlining each axis in turn.

        The question (``output shape?  rows × values``) goes on two lines, split
        at its double space, when one line would not fit the block and the block
        has room for two; it is set smaller if it must, never under the floor.
        """
        text, inner = beat.label("question"), self.grid.width_of_body - 2 * SPACE
        font = self.plan.scale.label
        lines = [text]
        # A prompt is words, not code: measured and set in sans (SansLines).
        if text_width(text, font, mono=False) > inner and "  " in text and len(self.positions) > 1:
            lines = [part.strip() for part in text.split("  ", 1)]
        widest = max(text_width(line, font, mono=False) for line in lines)
        font = max(min(font, font * inner / widest), at_least(0))
        # One mobject whose text is the whole label, however many lines it takes.
        question = SansLines(text, lines, font, self.theme.text, SPACE * 2)
        self.question = question.move_to(self.grid.body)
        # The axes are the words either side of the "×" (in any language).
        last = len(lines) - 1
        line = lines[last]
        times = line.find("\u00d7")
        before, after = line[:times].split()[-1:], line[times + 1 :].split()[:1]
        spans = [(line.rfind(w, 0, times), w) for w in before]
        spans += [(line.find(w, times), w) for w in after]
        self.underlines = [self._underline(last, at, w) for at, w in spans] if times >= 0 else []
        shown = FadeIn(self.question, shift=0.2 * DOWN)
        if len(self.underlines) < 2:
            return shown
        return Steps(Succession(shown, Create(self.underlines[0])), Create(self.underlines[1]))

    def _underline(self, index: int, start: int, word: str) -> Line:
        """Underline ``word``, at character ``start`` of the question's line ``index``."""
        assert isinstance(self.question, SansLines)
        low, high = self.question.line_corners(index)
        left, right = self.question.word_span(index, start, word)
        y = low[1] - (high[1] - low[1]) * 0.5
        mark = Line(xyz(left, y), xyz(right, y))
        return mark.set_stroke(self.theme.highlight, width=3)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Draw the block's rows and columns, its row numbers and its shape (then point at d)."""
        leaving: list[VMobject] = [m for m in (self.question, *self.underlines) if m is not None]
        self.question, self.underlines = None, []
        appearing: list[VMobject] = [self.numbers]
        sizes = sorted((c for c in beat.numbers if c.kind == "output_size"), key=lambda c: c.index)
        if sizes:
            self.shape = ShapeLabel(sizes, self.plan.scale.label, self.theme.output)
            self.shape.next_to(self.heading, RIGHT, buff=SPACE * 2)
            appearing.append(self.shape)
        shown: Animation = make_reveal_animation(appearing)
        if not self.revealed:
            self.revealed = True
            rules = prepare_animation(self.rules.animate.set_stroke(opacity=1.0))  # type: ignore[arg-type]
            shown = AnimationGroup(shown, rules)
        if leaving:
            shown = Succession(make_reveal_animation([], leaving), shown)
        if self.shape is None or len(beat.phrases) < 2:
            return shown
        return Steps(shown, _point_at_part(self.shape, -1, self.theme.highlight))

    def frame_and_shape(self, tags: VMobject, phrases: int) -> Animation:
        """Frame the block and its shape; then flash its rows and tags, then its width.

        One step per phrase: "The result is 4 × 3." / "Each input ID gives one
        row." / "Each embedding dimension gives one column." (with fewer
        phrases, the steps run together).
        """
        # On the block's own edge: a second frame 0.06 outside it stood 3 px from the
        # token chips beside the rows (issue 18); on the edge its ink keeps 8.6 px clear.
        box = SurroundingRectangle(self.grid.body, color=self.theme.output, buff=0.0)
        accent = self.theme.highlight
        if self.shape is None:
            return OutlineIn(box)
        framed = AnimationGroup(OutlineIn(box), point_at(self.shape, accent))
        rows = AnimationGroup(
            _point_at_part(self.shape, 0, accent), RingFlash(tags, color=accent, buff=0.06)
        )
        width = _point_at_part(self.shape, -1, accent)
        if phrases >= 3:
            return Steps(framed, rows, width)
        return (
            Steps(Succession(framed, rows), width)
            if phrases == 2
            else Succession(framed, rows, width)
        )


def _point_at_part(label: VMobject, part: int, colour: str) -> Animation:
    """Point at one part of a label (the 4 of ``4 × 3``): a ring round the label, the part swells.

    The ring goes round the whole label, never between its parts, where it
    would run through the label (its parts stand a space apart); the part
    named swells in its own colour.
    """
    return AnimationGroup(
        point_at(label, colour), point_at(label[part], colour, scale=1.2, ring=False)
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
        # Chips stand apart even beside tight rows (a twelve-token sentence).
        height = chip_height(label, plan.sizes.row_height)
        for order, (index, cell) in enumerate(ids):
            chip = Chip(cell, label, theme, height=height)
            chip.move_to(xyz(plan.tag_x(chip.width), plan.output_row_y(order)))
            self.chips.append(chip)
            if index[-1] < len(pieces):
                piece = LabelText(pieces[index[-1]], piece_font(plan.scale), theme.text)
                piece.place(xyz(plan.piece_left, plan.output_row_y(order)), align="left")
                self.pieces.add(piece)
        self.homes = [chip.get_center().copy() for chip in self.chips]
        self.heading = SansText(board.word("token_ids"), label, theme.muted)
        fit_width(self.heading, config.frame_width / 2 - MARGIN - plan.tag_left)
        self.heading.move_to(xyz(0, plan.output_heading_y)).align_to(xyz(plan.tag_left, 0), LEFT)
        if plan.lane is not None:  # they wait over E (homes stay their tags' places)
            stand_in_lane(self.chips, self.heading, plan.lane.chip_y, plan.lane.right)

    def intro(self) -> list[VMobject]:
        """Return the heading, the chips and their pieces."""
        return [self.heading, *self.chips, *self.pieces]
