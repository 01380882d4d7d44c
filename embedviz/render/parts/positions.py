"""The position layout's second arrangement: token vectors + position vectors = sums.

Placed by :func:`~embedviz.render.solver_positions.solve_positions`:

- :class:`TokenBlock`: the lookup's output rows, now the token vectors
  ``E[id]``, each with its tag (the chip that fetched it) and its position.
  It arrives from the lookup layout (:meth:`TokenBlock.arrive`).
- :class:`PositionBlocks`: the position vectors ``P`` (with their column
  numbers and their definition), the sums, the ``+`` and ``=`` between them,
  and the verdict that ends the scene. Beats ``positions``, ``add``, ``differ``.

Helpers shared by both arrangements: :func:`verdict` (a bracket joining two
rows, the sign ``=`` or ``≠`` in the neutral verdict colour, and its word).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UL,
    Animation,
    AnimationGroup,
    LaggedStart,
    Line,
    Mobject,
    ReplacementTransform,
    Succession,
    VGroup,
    VMobject,
    config,
)

from embedviz.render.animations import Steps, make_fade_out_later, point_at
from embedviz.render.design import MARGIN, SPACE, Theme, maths
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn, RingFlash
from embedviz.render.gap_text import GapLabel
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import xyz
from embedviz.render.mobjects import ShapeLabel
from embedviz.render.parts.chips import Chip
from embedviz.render.parts.clear_outline import (
    FRAME_WIDTH,
    OUTLINE_WIDTH,
)
from embedviz.render.parts.compare_focus import dim_others, rest_of
from embedviz.render.parts.grid import CellGrid, output_grid
from embedviz.render.parts.lookup import OutputPart
from embedviz.render.parts.rows import Cells, Position, Rows, heading
from embedviz.render.parts.sum_note import beside_sums, place_sum_note
from embedviz.render.position_definition import GAP_APART, POS_SYMBOL
from embedviz.render.sans_lines import SansLines
from embedviz.render.solver_positions import (
    BRACKET_WIDTH,
    DEFINITION_GAP,
    POSITION_SYMBOL,
    TOKEN_SYMBOL,
    PositionPlan,
)
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["PositionBlocks", "Rows", "TokenBlock", "verdict"]

# How far words swell as the narration points at them.
SWELL = 1.08
# How many sums are worked one at a time before the rest go together.
TAUGHT = 2


def verdict(
    tops: tuple[float, float], left: float, sign: str, word: str, font: float, theme: Theme
) -> VGroup:
    """Join two rows with a bracket, and say how they compare: ``=`` or ``≠``, then a word.

    A verdict is shown by its shape (the sign) in the neutral verdict colour,
    never by a colour of its own.

    Parameters
    ----------
    tops
        The centre lines of the two rows.
    left
        Where the bracket starts (right of the rows).
    sign
        Typst maths: ``=`` or ``!=``.
    word
        ``identical``, ``different``, ... (empty for none).
    font
        The label size.
    theme
        Colours.
    """
    first, second = tops
    x = left + BRACKET_WIDTH
    bracket = VGroup(
        Line(xyz(left, first), xyz(x, first)),
        Line(xyz(x, first), xyz(x, second)),
        Line(xyz(left, second), xyz(x, second)),
    ).set_stroke(theme.wrong, width=3)
    middle = (first + second) / 2
    shape = maths(sign, theme.wrong, font)
    shape.move_to(xyz(0, middle)).align_to(xyz(x + SPACE, 0), LEFT)
    parts: list[VMobject] = [bracket, shape]
    if word:
        text = SansText(word, font, theme.wrong)
        text.move_to(xyz(0, middle)).align_to(xyz(shape.get_right()[0] + SPACE, 0), LEFT)
        parts.append(text)
    return VGroup(*parts)


def pos_heading(left: float, y: float, font: float, theme: Theme) -> VMobject:
    """Return the ``pos`` heading of a column of position numbers that starts at ``left``."""
    word = maths(POS_SYMBOL, theme.muted, font)
    return word.move_to(xyz(0, y)).align_to(xyz(left, 0), LEFT)


def _block(
    plan: PositionPlan, board: Storyboard, left: float, top: float, theme: Theme, frame: str
) -> CellGrid:
    positions = sorted(
        {c.index for beat in board.beats for c in beat.numbers if c.kind == "position"}
    )
    grid = output_grid(positions, board.beats[0].window, plan.sizes, theme)
    grid.body[0].set_stroke(frame, width=FRAME_WIDTH)
    return grid.shift(xyz(left - grid.body_left(), top - grid.body_top()))


class TokenBlock(Component):
    """``E[id]``: the lookup's output rows as token vectors, with their tags and positions.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell, by (kind, index).
    plan
        The second arrangement.
    theme
        Colours.
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: PositionPlan, theme: Theme
    ) -> None:
        super().__init__(host, theme)
        self.plan = plan
        self.grid = _block(plan, board, plan.token_left, plan.top, theme, theme.output)
        positions = sorted(i for (k, i) in cells if k == "position")
        self.rows = Rows(
            self.grid, positions, cells, "output", plan.scale.data, theme, board.value_scale
        )
        label = plan.scale.label
        self.tags: list[Chip] = []
        self.numbers: list[NumberText] = []
        for position in positions:
            y = self.rows.y(position)
            chip = Chip(cells[("output_id", position)], label, theme)
            self.tags.append(chip.move_to(xyz(plan.tag_left + chip.width / 2, y)))
            number = NumberText(cells[("position", position)], label, theme.muted)
            number.place(xyz(plan.position_left, y), align="left")
            self.numbers.append(number)
        self.heading = heading(
            board.word("token_vector"), TOKEN_SYMBOL, label, theme.muted, theme.text
        )
        self.heading.move_to(xyz(0, plan.heading_y)).align_to(xyz(plan.token_left, 0), LEFT)
        self.pos_heading = pos_heading(plan.position_left, plan.col_label_y, label, theme)

    def arrive(
        self,
        grid: VMobject,
        numbers: Mapping[tuple[int, ...], VMobject],
        marks: Mapping[Position, Sequence[VMobject]],
        tags: Sequence[VMobject],
        positions: Sequence[VMobject],
    ) -> Animation:
        """Turn the lookup's output block (body, numbers, marks, tags, row numbers) into this one.

        Each old object becomes its new one in place (the same cell, the same
        ID), so a row, its tag and its position travel together.
        """
        pairs: list[tuple[VMobject, VMobject]] = [(grid, self.grid)]
        for position in self.rows.positions:
            new = self.rows.numbers[position]
            pairs += [(numbers[n.cell.index], n) for n in new]
            pairs += list(zip(marks.get(position, []), self.rows.marks[position], strict=False))
        pairs += list(zip(tags, self.tags, strict=True))
        pairs += list(zip(positions, self.numbers, strict=True))
        return AnimationGroup(*[ReplacementTransform(old, new) for old, new in pairs])

    def ways(self, output: OutputPart, beside: Sequence[Mobject]) -> dict[int, np.ndarray]:
        """Return how far this block's riders go as the lookup's ``output`` block becomes it.

        Each rides with its own point of the block, whose shape changes as it
        goes (:meth:`arrive`): the heading with its top-left corner, ``pos`` and
        what stands ``beside`` the positions (P) with the first position. Riding
        with its centre, they faded in at one place and settled at another
        (issue 18, 23.9 s).
        """
        column = self.numbers[0].get_corner(UL) - output.numbers[0].get_corner(UL)
        ways = {id(self.heading): self.grid.get_corner(UL) - output.grid.get_corner(UL)}
        return ways | {id(m): column for m in (self.pos_heading, *beside)}

    def outline(self, position: Position) -> VMobject:
        """Return the amber outline of a token row: the row its ID selected."""
        return self.rows.outline(position, self.theme.id_line)


class PositionBlocks(Component):
    """The position vectors ``P`` and the sums, with ``+``, ``=``, P's definition and the verdict.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell, by (kind, index).
    plan
        The second arrangement.
    theme
        Colours.
    pe_kind, sum_kind
        The cell kinds of P and of the sums (sinusoidal or learned).
    tokens
        The token vectors, whose rows the sums add.
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: PositionPlan,
        theme: Theme,
        pe_kind: str,
        sum_kind: str,
        tokens: TokenBlock,
    ) -> None:
        super().__init__(host, theme)
        self.plan, self.tokens, self.cells = plan, tokens, cells
        self.board = board
        data, label, scale = plan.scale.data, plan.scale.label, board.value_scale
        positions = sorted(i for (k, i) in cells if k == "position")
        self.positions = positions
        self.pe_grid = _block(plan, board, plan.pe_left, plan.top, theme, theme.accent)
        self.pe = Rows(self.pe_grid, positions, cells, pe_kind, data, theme, scale)
        self.sum_grid = _block(plan, board, plan.sum_left, plan.sum_top, theme, theme.output)
        self.sums = Rows(self.sum_grid, positions, cells, sum_kind, data, theme, scale)
        # Each sum row's position, from the storyboard, right of the row as E[id]'s (issue 18).
        self.sum_labels = VGroup(*[self._label(cells[("position", p)], p) for p in positions])
        # P's rows' positions too, headed ``pos`` as E[id]'s, where the plan has room: a
        # 720p review could not tell which row was position 0, 1, 2 (issue 18).
        left = plan.pe_label_left
        self.pe_labels = VGroup(
            *[self._label(cells[("position", p)], p, self.pe, left) for p in positions if left]
        )
        self.pe_pos_heading = pos_heading(left, plan.col_label_y, label, theme)
        self.pe_heading = heading(
            board.word("position_vector"), POSITION_SYMBOL, label, theme.muted, theme.accent
        )
        self.pe_heading.move_to(xyz(0, plan.heading_y)).align_to(xyz(plan.pe_left, 0), LEFT)
        self.sum_heading = heading(board.word("sum"), "", label, theme.muted, theme.text)
        self.sum_heading.move_to(xyz(0, plan.sum_heading_y)).align_to(xyz(plan.sum_left, 0), LEFT)
        self.col_labels = VGroup(
            *[
                NumberText(cells[("pe_col", (slot.key,))], label, theme.muted).move_to(
                    xyz(self.pe_grid.col_x(slot.key), plan.col_label_y)
                )
                for slot in self.pe_grid.col_slots
                if not slot.gap and ("pe_col", (slot.key,)) in cells
            ]
        )
        middle = (self.pe_grid.body_top() + self.pe_grid.body_top() - plan.body_height) / 2
        self.plus = maths("+", theme.text, data).move_to(xyz(plan.plus_x, middle))
        middle = plan.sum_top - plan.body_height / 2
        self.equals = maths("=", theme.text, data).move_to(xyz(plan.equals_x, middle))
        self.formula = self._definition(cells)
        note = board.beats[-1].labels.get("sum_note")
        self.sum_note = self._sum_note(note) if note else None
        self.first_row_box: VMobject | None = None

    def _label(
        self, cell: NumberCell, position: Position, rows: Rows | None = None, left: float = 0.0
    ) -> VMobject:
        """Return one sum row's position number (or P's: ``rows``, from ``left``).

        Drawn again: E[id]'s shows it too.
        """
        number = NumberText(cell, self.plan.scale.label, self.theme.muted).echoed()
        y = (rows or self.sums).y(position)
        return number.place(xyz(left if rows else self.plan.sum_label_left, y), align="left")

    def _sum_note(self, text: str) -> SansLines:
        """Place the note that the sums add the unrounded values (:mod:`.sum_note`)."""
        inner = min(self.equals.get_left()[0], self.sum_heading.get_left()[0])
        band = (self.plan.token_left, inner - 2 * SPACE)
        right = float(config.frame_width) / 2 - MARGIN
        taken: list[VMobject] = [self.pe_grid.body, self.formula]
        args = (self.plan.scale.note, self.theme, self.sum_heading, taken, band, right)
        beside = beside_sums(self, self.pair(self.board.beats[-1]))
        return place_sum_note(text, *args, beside, not self.plan.note_beside)

    def _definition(self, cells: Cells) -> VGroup:
        """P's definition (Typst lines, at the plan's note font) or a learned P's size and gap."""
        plan, theme = self.plan, self.theme
        font = plan.note_font
        lines = self.board.beats[-1].labels_with("formula_")
        parts: list[VMobject]
        if lines:
            parts = [maths(line, theme.accent, font) for line in lines]
        else:
            sizes = [cells[key] for key in sorted(cells) if key[0] == "pe_size"]
            # Its hidden rows' label first, right under the rows it follows.
            gap = self.board.beats[-1].labels.get("pe_gap")
            # (Words, not code: sans, at the notes' size, as the size note beside it.)
            words = SansText(self.board.word("learned_table"), font, theme.muted)
            size = VGroup(words, ShapeLabel(sizes, font, theme.muted)).arrange(
                RIGHT, buff=SPACE * 2
            )
            hidden = [GapLabel(gap, font, theme.muted)] if gap else []
            parts = [*hidden, size]
            if plan.gap_inline and hidden:  # on one line: the rows keep its height (issue 18)
                group = VGroup(*parts).arrange(RIGHT, buff=GAP_APART)
                hidden[0].shift(xyz(0, words.digit_line() - hidden[0].digit_line()))
                group.next_to(xyz(plan.formula_left, plan.formula_top), DOWN, buff=0)
                return group.align_to(xyz(plan.formula_left, 0), LEFT)
        buff = DEFINITION_GAP if lines else SPACE
        group = VGroup(*parts).arrange(DOWN, buff=buff, aligned_edge=LEFT)
        group.next_to(xyz(plan.formula_left, plan.formula_top), DOWN, buff=0)
        return group.align_to(xyz(plan.formula_left, 0), LEFT)

    def skeleton(self) -> list[VMobject]:
        """Return what stands before any value: the empty bodies, their headings and signs.

        They come as the rows land; P's definition (or its size, :attr:`formula`)
        comes after them, with "one vector per position, whatever token sits
        there", which is what it says.
        """
        return [
            self.pe_grid,
            self.pe_heading,
            self.plus,
            self.sum_grid,
            self.sum_labels,
            self.sum_heading,
            self.equals,
        ]

    def position_column(self) -> list[VMobject]:
        """Return P's position numbers and their ``pos`` heading (none where no room).

        They come with "one vector per position", after the block has opened out
        (riding in with it, they stood in its edge as it opened).
        """
        return [self.pe_labels, self.pe_pos_heading] if self.plan.pe_label_left else []

    def beat_positions(self, beat: Beat) -> Animation:
        """Fill in P and its column numbers, pointing at its definition (one step per phrase).

        The definition stands since ``arrange``. Sinusoidal: "Here P is
        sinusoidal." points at the block, "Column 2i holds sin(...) ..." points
        at the definition and brings the column numbers and the values, "so
        row 0 is 0, 1, 0." outlines row 0. Learned: "Here P is learned: ..."
        points at the block's size note, "starting random like E ..." brings
        its values.
        """
        values = AnimationGroup(
            FadeIn(self.col_labels),
            LaggedStart(*[FadeIn(m) for m in self.pe.all()], lag_ratio=0.05),
        )
        colour = self.theme.highlight
        pointed, defined = self._ring(self.pe_heading), self._ring(self.formula)
        if len(beat.phrases) < 2:
            return AnimationGroup(pointed, values, defined)
        if len(beat.phrases) < 3:
            return Steps(AnimationGroup(pointed, defined), values)
        self.first_row_box = self.pe.outline(self.positions[0], colour)
        return Steps(pointed, AnimationGroup(values, defined), OutlineIn(self.first_row_box))

    def _ring(self, words: VMobject) -> Animation:
        """Point at words: they swell there and back, each member in its own colour.

        Never violet: the highlight means one thing, a passing outline
        (design.COLOUR_MEANINGS: the rows' outlines and the sums' ring here). A
        720p review saw ``position vector``, P's size note and the sums' note
        turn violet as those outlines were; a ring round words stood under
        RING_CLEAR_PX from them or from their neighbours.
        """
        return point_at(words, self.theme.highlight, scale=SWELL, ring=False)

    def verdict(self, rows: tuple[Position, Position]) -> VGroup:
        """Return the closing verdict beside two sum rows: ``≠`` and its word."""
        tops = (self.sums.y(rows[0]), self.sums.y(rows[1]))
        word = self.board.word("different")
        return verdict(tops, self.plan.verdict_left, "!=", word, self.plan.scale.label, self.theme)

    def pair(self, beat: Beat) -> tuple[Position, Position]:
        """Return the first two positions that hold the highlighted (repeated) ID."""
        assert beat.highlight is not None
        ids = {i: int(c.value) for (k, i), c in self.cells.items() if k == "output_id"}
        matches = sorted(p for p, value in ids.items() if value == beat.highlight.row)
        return matches[0], matches[1]

    def beat_add(self, beat: Beat) -> Animation:
        """Add row by row: the token row and the position row are outlined, their sum appears.

        The first rows are worked one at a time, the rest together; then
        "these sums are what the model's next layers receive." circles the sums.
        The note that they add the unrounded values comes with the first sum,
        and "Each sum adds the unrounded values ..." points at it.
        """
        note = [self.sum_note] if self.sum_note is not None else []
        worked = [self._add(p, note if i == 0 else []) for i, p in enumerate(self.positions)]
        if self.first_row_box is not None:
            worked[0] = AnimationGroup(FadeOut(self.first_row_box, run_time=0.3), worked[0])
        rest = worked[TAUGHT:]
        added = Succession(
            *worked[:TAUGHT], *([LaggedStart(*rest, lag_ratio=0.25)] if rest else [])
        )
        if len(beat.phrases) < 2:
            return added
        # On the block's frame, as a row's ring (design.RING_APART): Manim's 0.1 buff put it
        # 10.8 px out, 0.5 px from ``=``; 3.5 px off the frame read as a double line.
        circled = RingFlash(
            self.sum_grid.body, color=self.theme.highlight, buff=0.0, stroke_width=OUTLINE_WIDTH
        )
        if len(beat.phrases) < 3 or not note:
            return Steps(added, circled)
        return Steps(added, circled, self._swell_note(note[0]))

    def _swell_note(self, note: VMobject) -> Animation:
        """Point at the sums' note: it swells from its left edge, within the safe area.

        So it never runs into what stands left of it (``sum``, or the sum rows'
        position numbers). Swelling about its centre, a 720p review read
        "sumadded unrounded" and "3added unrounded" (0.20 units of a 0.24
        gap gone at its largest; issue 18).
        """
        right = float(config.frame_width) / 2 - MARGIN
        room = (right - float(note.get_left()[0])) / float(note.width)
        scale = max(1.01, min(SWELL, room))  # 1 would be a ring (point_at), never round words
        return point_at(note, self.theme.highlight, scale=scale, ring=False, about_edge=LEFT)

    def _add(self, position: Position, also: Sequence[VMobject] = ()) -> Animation:
        """One sum: its two addends outlined, the sum's row filled in (with ``also``)."""
        outlines = [self.tokens.outline(position), self.pe.outline(position, self.theme.highlight)]
        arriving = [FadeIn(m, shift=0.1 * DOWN) for m in self.sums.row(position)]
        return Succession(
            AnimationGroup(*[OutlineIn(m) for m in outlines]),
            AnimationGroup(*arriving, *[FadeIn(m) for m in also]),
            make_fade_out_later(outlines, run_time=0.5),
        )

    def beat_differ(self, beat: Beat) -> Animation:
        """Outline the two rows in every block; then say the sums differ: ``≠``.

        "... same token row, different position rows." outlines them (P's and the sums' in the
        verdict's colour), the others receding; "The two copies ..." brings the verdict.
        """
        pair, colour, blocks = self.pair(beat), self.theme.wrong, (self.pe, self.sums)
        outlines = [self.tokens.outline(p) for p in pair]
        outlines += [rows.outline(p, colour) for rows in blocks for p in pair]
        rest = dim_others(rest_of([self.tokens.rows, *blocks], pair), self.theme.cell_fill)
        outlined = AnimationGroup(*[OutlineIn(m) for m in outlines], *rest)
        both = (outlined, FadeIn(self.verdict(pair)))
        return Steps(*both) if len(beat.phrases) > 1 else AnimationGroup(*both)
