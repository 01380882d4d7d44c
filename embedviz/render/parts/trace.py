"""ZeroBasedIndexing's panel: the one-based slip and the debugging trace.

- :class:`SlipCard`: ``counting from one``, the slip's line (``ID 3 → row
  index 2``) and what it fetches (the wrong row, level with the row it came
  from and named ``= E[2]`` under it, or ``no such row`` for ID 0), a cross
  beside it; once the count from zero corrects it, its header and line are
  struck out (:meth:`SlipCard.refute`).
- :class:`TraceCard`: ``debugging trace``, its steps (input ID, zero-based row
  index, returned vector), the returned vector level with the ID's row, and
  the check ``= E[3]`` under it. Beats ``check`` and ``diagnose``.

Every line sits where the plan puts it (:mod:`embedviz.render.solve_zero_based`):
above the rows that move, so no strip crosses a text.
"""

from __future__ import annotations

from collections.abc import Mapping

from manim import (
    LEFT,
    RIGHT,
    Animation,
    AnimationGroup,
    Create,
    Line,
    Succession,
    VGroup,
    VMobject,
)

from embedviz.render.animations import Steps, point_at
from embedviz.render.design import SPACE, TEXT_CONTRAST, Theme, dimmed, value_colour
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn, RingFlash
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import xyz
from embedviz.render.parts.chips import chip_size
from embedviz.render.parts.grid import CellGrid, output_grid
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.symbols import IndexedSymbol, word_line
from embedviz.render.solve_zero_based import CROSS_WIDTH, TAG_GAP, ZeroPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["SlipCard", "TraceCard", "check_mark", "cross_mark", "vector_targets"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]


def check_mark(height: float, colour: str) -> VMobject:
    """Draw a tick as a stroked path (a verdict shown by its shape, not a colour)."""
    mark = VMobject()
    mark.set_points_as_corners([xyz(0, 0.45 * height), xyz(0.35 * height, 0), xyz(height, height)])
    mark.set_stroke(colour, width=6).set_fill(opacity=0)
    return mark


def cross_mark(size: float, colour: str) -> VMobject:
    """Draw an X, ``size`` wide and high, as two stroked lines (not added; the tick's pair)."""
    mark = VMobject()
    mark.set_points_as_corners([xyz(0, 0), xyz(size, size)])
    mark.start_new_path(xyz(0, size))
    mark.add_line_to(xyz(size, 0))
    mark.set_stroke(colour, width=CROSS_WIDTH).set_fill(opacity=0)
    return mark


# A ring round a line of the panel: its stroke (2.7 px at 720p), and how far it stands
# from the line (5.2 px): 3 px clear of the line's glyphs past half its stroke, and 3 px
# clear of the line above's descenders where the lines stand closest (GPT-2's size: 11.6
# px between them, 4 px left there).
RING_WIDTH = 3.0
MARK_CLEAR = 0.058
# How far an index pointed at swells.
SWELL = 1.2
# A strike's stroke width (3.6 px at 720p), and how far it reaches past the text each side.
STRIKE_WIDTH = 4
STRIKE_REACH = SPACE / 2


def strike_out(text: VMobject, colour: str) -> Line:
    """Draw a line through a text's whole width, at its middle (not added).

    A line of words and numbers is set on its digits' centre line: through
    its lower-case letters and its digits alike.
    """
    left, right = text.get_left()[0] - STRIKE_REACH, text.get_right()[0] + STRIKE_REACH
    y = float(text.get_center()[1])
    line = Line(xyz(left, y), xyz(right, y), stroke_width=STRIKE_WIDTH, color=colour)
    # It crosses its text on purpose: the stroke rule (tests) leaves strike-throughs out.
    setattr(line, "strikes_out", True)  # noqa: B010 (Line declares no such field)
    return line


def vector_targets(
    grid: CellGrid, cells: list[NumberCell], plan: ZeroPlan, value_scale: float, theme: Theme
) -> list[NumberText]:
    """Create (without adding) a vector's numbers, each in its slot of a one-row grid."""
    font = plan.scale.data
    return [
        grid.put(0, c.index[-1], NumberText(c, font, value_colour(c.value, value_scale, theme)))
        for c in sorted(cells, key=lambda c: c.index)
    ]


def _vector(board: Storyboard, plan: ZeroPlan, theme: Theme, y: float, frame: str) -> CellGrid:
    """Build an empty one-row vector in the matrix's columns, at the panel's left, centred on y."""
    grid = output_grid([(0,)], board.beats[0].window, plan.sizes, theme)
    grid.body[0].set_stroke(frame, width=2)
    top = y + plan.sizes.row_height / 2
    grid.shift(xyz(plan.panel_left - grid.body_left(), top - grid.body_top()))
    return grid


def _under_vector(vector: CellGrid, plan: ZeroPlan) -> float:
    """Return the centre line of the label under a panel vector (``= E[3]``)."""
    return float(vector.body.get_bottom()[1]) - SPACE - plan.line_height / 2


def _row_label(
    cell: NumberCell, vector: CellGrid, plan: ZeroPlan, theme: Theme, centred: bool = False
) -> IndexedSymbol:
    """Name a vector the row it is, ``= E[2]``, under it at the panel's left (not added).

    ``centred``: under its middle instead, clear of the chips at both its ends
    (the chip counting at E's right end, the chip waiting right of the vector).
    """
    label = IndexedSymbol("= E[", cell, "]", theme.text, plan.scale.label)
    label.move_to(xyz(0, _under_vector(vector, plan)))
    if centred:
        return label.set_x(float(vector.body.get_center()[0]))
    return label.align_to(xyz(plan.panel_left, 0), LEFT)


class SlipCard(Component):
    """The one-based slip: its header, its line and what it fetches, crossed out.

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

    Attributes
    ----------
    header, line
        ``counting from one`` and ``ID 3 → row index 2``.
    wrong_index
        The slip's row index in the line (the diagnosis points at it).
    vector, targets
        The wrong row's empty vector (level with that row) and its numbers;
        None and [] for ID 0.
    nothing
        ``no such row`` for ID 0 (where row -1 would be), else None.
    label
        ``= E[2]`` under the wrong vector, as ``= E[3]`` under the returned
        one (None for ID 0): unnamed, a 720p review could not tell what the
        crossed-out vector was.
    cross
        The cross beside what the slip fetched: right of its end, level with
        it, a chip high (the chip's tag column keeps its room).
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: ZeroPlan, theme: Theme
    ) -> None:
        super().__init__(host, theme)
        token_id, label = board.single_id(), plan.scale.label
        self.header = SansText(board.word("counting_from_one"), label, theme.wrong)
        self.header.move_to(xyz(0, plan.line_y(0, token_id))).align_to(
            xyz(plan.panel_left, 0), LEFT
        )
        pieces: list[str | NumberCell] = [
            board.word("slip_id"),
            cells[("wrong_id", (0,))],
            "\u2192",
            board.word("slip_row_index"),
            cells[("wrong_index", (0,))],
        ]
        colours = [theme.text, theme.id_ink, theme.muted, theme.text, theme.wrong]
        self.line = word_line(pieces, label, colours)
        self.line.shift(xyz(plan.panel_left, plan.line_y(1, token_id)))
        self.wrong_index = self.line[-1]
        values = [c for (k, _), c in cells.items() if k == "wrong_value"]
        self.vector: CellGrid | None = None
        self.targets: list[NumberText] = []
        self.nothing: SansText | None = None
        self.label: IndexedSymbol | None = None
        crossed: VMobject
        if values:
            self.vector = _vector(board, plan, theme, plan.row_y(token_id - 1), theme.wrong)
            self.targets = vector_targets(self.vector, values, plan, board.value_scale, theme)
            crossed = self.vector.body
            # Under its middle: at the panel's left, "= E[2]" stood beside the chip that
            # had counted to row 3 at E's right end, and read "3 = E[2]".
            wrong = cells[("wrong_index", (0,))]
            self.label = _row_label(wrong, self.vector, plan, theme, centred=True)
            # The slip's line already shows this row number; the name repeats it.
            self.label.number.echo = True
        else:
            self.nothing = SansText(board.word("no_such_row"), plan.scale.data, theme.wrong)
            self.nothing.move_to(xyz(0, plan.row_y(-1))).align_to(xyz(plan.panel_left, 0), LEFT)
            crossed = self.nothing
        # Beside it, not over it: an X across the whole strip ran through its digits (issue
        # 18, a 720p review), which the count from zero is about to be compared with.
        self.cross = cross_mark(chip_size(0, 0, label)[1], theme.wrong)
        self.cross.next_to(crossed, RIGHT, buff=TAG_GAP)
        # Once refuted, the rule stays (the diagnosis points at it) struck out: dimmed
        # alone, the last frame showed a false statement that looked valid.
        # In the struck text's own dimmed ink: in full ``wrong`` the strikes outshone the
        # grey text they cross (issue 18, a 720p review).
        ink = dimmed(theme.wrong, theme.background, TEXT_CONTRAST + 0.2)
        self.strikes = VGroup(*[strike_out(m, ink) for m in (self.header, self.line)])
        # Over their lines whatever comes back or swells after them (the diagnosis).
        self.strikes.set_z_index(1)

    def fetched(self) -> list[VMobject]:
        """Return what the slip fetched (the wrong vector and its numbers, or "no such row")."""
        if self.vector is not None:
            return [self.vector, *self.targets, *[m for m in (self.label,) if m is not None]]
        return [m for m in (self.nothing,) if m is not None]

    def leave(self) -> Animation:
        """Fade the struck lines out with their strikes, as one: never a strike alone.

        Strikes fading after their text stood alone, bright, over the trace
        for half a second (issue 18, a 720p review).
        """
        return FadeOut(self.struck())

    def come_back(self) -> Animation:
        """Fade the struck lines back in with their strikes, as one (as :meth:`leave`)."""
        # As long as the strikes-then-lines it replaces: the beat keeps its timing.
        return FadeIn(self.struck(), run_time=0.55)

    def struck(self) -> VGroup:
        """Return the slip's header and line with their strikes: they come and go together."""
        return VGroup(self.header, self.line, self.strikes)

    def refute(self) -> Animation:
        """Strike out the slip's header and line, and fade them, still readable (4.5:1).

        It is corrected: a verdict shown by a shape (a line through each), in
        the neutral ``wrong``, not by a colour.
        """
        ground = self.theme.background
        fades = [
            m.animate.set_fill(dimmed(m.get_fill_color().to_hex(), ground, TEXT_CONTRAST + 0.2))
            for m in [self.header, *self.line]
        ]
        return AnimationGroup(*fades, *[Create(strike) for strike in self.strikes])


class TraceCard(Component):
    """The debugging trace: heading, steps, the returned vector and its check.

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
    matrix, slip
        The parts the check and the diagnosis point at.
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: ZeroPlan,
        theme: Theme,
        matrix: MatrixPart,
        slip: SlipCard,
    ) -> None:
        super().__init__(host, theme)
        self.matrix, self.slip, self.plan = matrix, slip, plan
        self.token_id = token_id = board.single_id()
        label = plan.scale.label
        self.heading = SansText(board.word("debugging_trace"), label, theme.text)
        self.heading.move_to(xyz(0, plan.line_y(2, token_id))).align_to(
            xyz(plan.panel_left, 0), LEFT
        )
        steps = (
            ("input_id", cells[("trace_id", (0,))], theme.id_ink),
            ("zero_based_row_index", cells[("trace_index", (0,))], theme.text),
        )
        self.steps: list[VGroup] = []
        for line, (word, cell, colour) in enumerate(steps, start=3):
            pieces: list[str | NumberCell] = ["\u2193", board.word(word), " ", cell]
            step = word_line(pieces, label, [theme.muted] * 3 + [colour])
            self.steps.append(step.shift(xyz(plan.panel_left, plan.line_y(line, token_id))))
        self.index = self.steps[1][-1]
        self.vector_label = word_line(
            ["\u2193", board.word("returned_vector")], label, [theme.muted] * 2
        ).shift(xyz(plan.panel_left, plan.line_y(5, token_id)))
        self.vector = _vector(board, plan, theme, plan.row_y(token_id), theme.output)
        outputs = [c for (k, _), c in cells.items() if k == "output"]
        self.targets = vector_targets(self.vector, outputs, plan, board.value_scale, theme)
        self.check = _row_label(cells[("check_row", (0,))], self.vector, plan, theme)
        self.tick = check_mark(self.check.height * 1.1, theme.wrong)
        self.tick.next_to(self.check, buff=SPACE * 2)

    def beat_check(self, beat: Beat) -> Animation:
        """Outline the ID's row and the returned vector and write ``= E[3]``; then tick it."""
        self.row_outline = self.matrix.outline(self.token_id)
        # The narration points at the vector now: a passing circle, not a lasting frame,
        # on the vector's own edge: 0.05 outside it, it passed 3.5 px from "returned
        # vector" above (issue 18); on the edge it keeps about 8 px from every text.
        pointed = RingFlash(self.vector.body, color=self.theme.highlight, buff=0)
        return Steps(
            AnimationGroup(OutlineIn(self.row_outline), pointed, FadeIn(self.check)),
            Create(self.tick),
        )

    def beat_diagnose(self, beat: Beat) -> Animation:
        """Bring the slip back and point at its row index; then at the trace's index and E's row.

        Each index swells in its line while a ring passes round the whole line
        (round the index alone it ran into the word beside it: a word space is
        too narrow for a ring clear of both); the ring round the row passes along
        its amber outline, as clear of the digits as that is (round the row's
        texts it ran under the digits). A ring keeps :data:`MARK_CLEAR` from its line.
        """
        colour = self.theme.highlight
        outline = self.matrix.outline(self.token_id)

        def pointed(index: VMobject, line: VMobject, *marks: VMobject) -> Animation:
            swell = point_at(index, colour, scale=SWELL, ring=False)
            # The ring goes round the line as it stands at the swell's largest (and
            # round its strike, which reaches past its ends).
            rest = [m for m in line if m is not index]
            largest = VGroup(*rest, index.copy().scale(SWELL), *[m.copy() for m in marks])
            ring = RingFlash(largest, color=colour, buff=MARK_CLEAR, stroke_width=RING_WIDTH)
            return AnimationGroup(swell, ring)

        # The slip's struck lines left with the trace's first motion: they come back,
        # struck out, to be pointed at. Outlines pass round them: the row's values keep
        # their sign colours.
        return Steps(
            Succession(
                self.slip.come_back(),
                pointed(self.slip.wrong_index, self.slip.line, self.slip.strikes[1]),
            ),
            AnimationGroup(pointed(self.index, self.steps[1]), _ring_beside(outline, colour)),
        )

    def labels(self) -> list[VMobject]:
        """Return the trace's label lines that are not its vector (for the trace beat)."""
        return [self.heading, *self.steps, self.vector_label]


def _ring_beside(outline: VMobject, colour: str) -> RingFlash:
    """Return a ring that passes just inside an outline, touching it, never over it.

    Laid on the ID's amber outline, the violet ring blended with it as it
    faded: half way the row's outline read salmon, the vermillion of negative
    values (a 720p review of ``diagnose``). Beside it, it fades against the
    row's cells alone, half a pixel clear of it (a stroke width of 1 is 0.01
    units); inside, as the outline keeps as far from its own row's digits as
    from the next row's (outside, ID 0's ring touched the column numbers).
    """
    reach = (float(outline.get_stroke_width()) + RING_WIDTH) / 200 + 0.005
    return RingFlash(outline, color=colour, buff=-reach, stroke_width=RING_WIDTH)
