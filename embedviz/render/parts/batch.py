"""The batch layout's components: the B × T block of chips, the stack of slices, the motion.

Placed by :func:`~embedviz.render.solve_batch.solve_batch`:

- :class:`BatchChips`: B rows of T chips over E, with the B and T edges of
  the input; each row leaves by the lane it shares with its neighbour. A
  chip's place is outlined, and stays: as the chip leaves (it becomes its
  output row's tag, the one object that travels for its ID, digits and
  all) its place keeps only its outline, dimmed (3:1), so the block keeps
  the B × T shape with its B and T edges through the lookups (issue 18: a
  lecture-hall review saw it go chip by chip), and each ID stands in one
  place only (a review counted every used ID twice while its digits stayed
  written in its place too); the block gives way as E rises into its
  place. Beat ``axes``.
- :class:`SliceStack`: the output as B slices, one under the other, as
  PyTorch prints a B × T × d tensor; every slice's values stay in view.
  Each slice is a :class:`~embedviz.render.parts.grid.CellGrid` with its
  header (``slice b``), its row numbers and its tags (the chips that fetched
  its rows); the d, T and B edges; the shape and the equality marks
  (``out[1,2] = out[0,0]``, each tied to the row it names) once every row
  is in. Beats ``predict``,
  ``reveal``, ``repeats``, ``shape``.
- :class:`~embedviz.render.parts.batch_motion.BatchMotion` (its own module):
  the lookup family's thread of motion with the chips' ways out of the block.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Brace,
    LaggedStart,
    Line,
    Rectangle,
    Succession,
    Transform,
    VGroup,
    VMobject,
    Wait,
)

from embedviz.render.animations import Steps, make_reveal_animation, point_at
from embedviz.render.batch_plan import BRACE, MARK_LINE, BatchPlan
from embedviz.render.batch_under import write_under
from embedviz.render.design import SPACE, Theme, dimmed, maths, value_colour
from embedviz.render.fades import FadeIn, FadeOut
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import digit_height, xyz
from embedviz.render.mobjects import ShapeLabel
from embedviz.render.parts.batch_axes import axis_label, sized_symbol
from embedviz.render.parts.batch_panel import ask, output_panel
from embedviz.render.parts.batch_shape import shape_font, shape_line
from embedviz.render.parts.chips import Chip
from embedviz.render.parts.grid import CellGrid, output_grid
from embedviz.render.parts.lookup import ChipColumn, OutputPart
from embedviz.render.parts.mark_under import UnderPlan, equal_rings
from embedviz.render.parts.pair_marks import badge_room, lettered_marks, pair_badges
from embedviz.render.parts.symbols import equality_mark
from embedviz.render.rounded import rounded_box
from embedviz.render.sans_lines import SansLines
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["BatchChips", "SliceStack"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]


def _brace(target: VMobject, direction: np.ndarray, colour: str) -> Brace:
    """Return a brace along one side of ``target``, :data:`BRACE` deep."""
    brace = Brace(target, direction=direction, buff=SPACE / 2, color=colour)
    if direction[0]:
        return brace.stretch_to_fit_width(BRACE).next_to(target, direction, buff=SPACE / 2)
    return brace.stretch_to_fit_height(BRACE).next_to(target, direction, buff=SPACE / 2)


def _label(board: Storyboard, role: str) -> str:
    """Return a label's text from the first beat that shows it."""
    return next(b.labels[role] for b in board.beats if role in b.labels)


class BatchChips(ChipColumn):
    """The input batch: B rows of T chips over E, with its B and T edges. Beat: ``axes``.

    Parameters
    ----------
    host, board, cells, plan, theme
        As the lookup family's parts (``plan`` is a :class:`BatchPlan`).

    Attributes
    ----------
    slots
        Each chip's place, an empty outline in the neutral ``muted`` (the block's
        edges' colour) dimmed to 3:1 against the ground:
        under its chip until the chip leaves, then the block's B × T shape
        without the ID (its digits travel with the chip, which becomes the tag).
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: BatchPlan, theme: Theme
    ) -> None:
        Component.__init__(self, host, theme)
        label = plan.scale.label
        ids = sorted((i, c) for (k, i), c in cells.items() if k == "token_id")
        step = plan.chip_width + digit_height(label) * 0.6
        self.chips: list[Chip] = []
        self.slots = VGroup()
        for (b, t), cell in ids:
            chip = Chip(cell, label, theme, height=plan.tag_height(theme))
            x = plan.block_right - (plan.length - 1 - t) * step - plan.chip_width / 2
            chip.move_to(xyz(x, plan.chip_row_y(b)))
            self.chips.append(chip)
            slot = rounded_box(chip.width, chip.height, chip.height * 0.22)
            # Neutral: amber means "this token ID" only, and the place holds none once
            # its chip has left (issue 18: eight hollow amber outlines read as IDs).
            edge = dimmed(theme.muted, theme.background)
            slot.set_fill(opacity=0.0).set_stroke(edge, width=1.5)
            # Which ID's place it is (the moment tests look for places left behind).
            slot.id_place = (b, t)  # type: ignore[attr-defined]
            self.slots.add(slot.move_to(chip))
        self.homes = [chip.get_center().copy() for chip in self.chips]
        self.pieces = VGroup()
        # The block has no heading (its edges name it); ChipColumn's is empty.
        self.heading = SansText("", label, theme.muted)
        block = VGroup(*self.chips)
        sizes = [cells[("batch_dim", (axis,))] for axis in (0, 1)]
        # ``batch B = 2``: B, = and 2 typeset as the braces' symbols are (batch_axes).
        brace_b = _brace(block, LEFT, theme.muted)
        text_b = axis_label(_label(board, "batch_axis"), sizes[0], label, theme)
        self.batch_label = VGroup(brace_b, text_b.next_to(brace_b, LEFT, buff=SPACE))
        brace_t = _brace(block, UP, theme.muted)
        text_t = axis_label(_label(board, "length_axis"), sizes[1], label, theme)
        text_t.next_to(brace_t, UP, buff=SPACE / 2).align_to(brace_t, RIGHT)
        self.length_label = VGroup(brace_t, text_t)

    def intro(self) -> list[VMobject]:
        """Return the chips over their places (the edges are named in their own beat)."""
        return [self.slots, *self.chips]

    def beat_axes(self, beat: Beat) -> Animation:
        """Name the batch's axes: B sequences (rows) of T IDs (columns)."""
        return LaggedStart(
            FadeIn(self.batch_label, shift=0.2 * RIGHT),
            FadeIn(self.length_label, shift=0.2 * UP),
            lag_ratio=0.5,
        )


class SliceStack(OutputPart):
    """The output as B slices one under the other, each with its header, row numbers and tags.

    Beats: ``predict`` (the question, where the slices will be), ``reveal``
    (slice 0 and the d, T and B edges) and ``shape`` (the output's shape;
    d's size stays on its edge); :meth:`write_marks` writes the equality marks.

    Parameters
    ----------
    host, board, cells, plan, theme
        As the lookup family's parts (``plan`` is a :class:`BatchPlan`).
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: BatchPlan, theme: Theme
    ) -> None:
        Component.__init__(self, host, theme)
        self.cells, self.plan, self.batch_plan, self.board = cells, plan, plan, board
        self.value_scale = board.value_scale
        # Marks name rows of the output: a label's size, as the row numbers they name.
        self.mark_font = plan.scale.label
        self.positions = sorted({i for (k, i) in cells if k == "output_id"})
        window = board.beats[0].window
        label = plan.scale.label
        self.slices: list[CellGrid] = []
        self.headers: list[VGroup] = []
        self.row_numbers: list[VGroup] = []
        self.words: list[SansText] = []
        for b, top in enumerate(plan.slice_tops):
            grid = output_grid([(b, t) for t in range(plan.length)], window, plan.sizes, theme)
            grid.shift(xyz(plan.output_left - grid.body_left(), top - grid.body_top()))
            self.slices.append(grid)
            word = SansText(_label(board, "slice_title"), label, theme.output)
            self.words.append(word)
            header = VGroup(word, NumberText(cells[("slice", (b,))], label, theme.output))
            header.arrange(RIGHT, buff=SPACE)
            header.move_to(xyz(0, top + plan.header_h / 2))
            self.headers.append(header.align_to(xyz(plan.output_left + SPACE / 4, 0), LEFT))
            numbers = VGroup()
            for t in range(plan.length):
                number = NumberText(cells[("position", (b, t))], label, theme.muted)
                numbers.add(
                    number.place(
                        xyz(plan.position_left, top - (t + 0.5) * plan.sizes.row_height), "left"
                    )
                )
            self.row_numbers.append(numbers)
        self.grid, self.numbers = self.slices[0], self.row_numbers[0]
        self.heading = self.words[0]
        self._edges(board, cells)
        self.placeholder = output_panel(self)
        self.shape: ShapeLabel | None = None
        # The question the panel asks from the start (one line, a group as the lookup
        # block's two-line question is); the predict beat points at it. Words: sans.
        label = plan.scale.label
        asked = next((b.labels["question"] for b in board.beats if "question" in b.labels), None)
        self.question = None
        if asked is not None:
            self.question = VGroup(SansLines(asked, [asked], label, theme.text, 0.0))
        self.underlines: list[VMobject] = []
        self.notes = VGroup()
        # Where the notes (the shape, the marks) start, when not at the solver's place.
        self.notes_at: np.ndarray | None = None
        # How far the notes' solved place under the slices has moved (the stack spread down).
        self.notes_drop = 0.0
        # The place the block of chips gives way to E (left, right, bottom, top), where the
        # marks stand once every row is in, if the stage finds they fit there.
        self.marks_box: tuple[float, float, float, float] | None = None
        # How high over the box a mark may stand level with its first copy's row.
        self.marks_ceiling: float | None = None
        # Where the marks stand under E (batch_under.plan_under), and their rows' rings.
        self.marks_under: UnderPlan | None = None
        self.rings = VGroup()
        # The letters on the marked rows (parts.pair_marks), which stay to the end.
        self.row_badges = VGroup()
        # The empty slices dimmed while another sequence is looked up: each part, its members
        # and their full looks (parts/batch_focus.py).
        self.dimmed: dict[int, list[tuple[VMobject, list[VMobject], list[Any]]]] = {}

    def _edges(self, board: Storyboard, cells: Cells) -> None:
        """Build the d edge (in slice 0's header band), the T (slice 0) and the B (all) edges."""
        plan, theme, label = self.batch_plan, self.theme, self.batch_plan.scale.label
        right = plan.output_left + plan.body_width
        # ``d = 3`` as one formula (its 3 a checked cell), as the T and B edges' symbols.
        size = cells[("batch_dim", (2,))]
        self.edge_d = sized_symbol(_label(board, "edge_d"), size, label, theme)
        self.edge_d.move_to(xyz(0, plan.edge_d_y)).align_to(xyz(right, 0), RIGHT)
        first, last = self.slices[0].body[0], self.slices[-1].body[0]
        span_t = VGroup(first)
        span_b = VGroup(first, last)
        self.edge_t = self._side_edge(span_t, plan.edge_t_left, _label(board, "edge_t"))
        self.edge_b = self._side_edge(span_b, plan.edge_b_left, _label(board, "edge_b"))

    def b_edge_spanning(self, top: float, bottom: float) -> VGroup:
        """Return a B edge (where it stands across now) spanning ``top`` to ``bottom``."""
        span = Line(xyz(0, top), xyz(0, bottom))
        left = float(self.edge_b[0].get_left()[0])
        return self._side_edge(span, left, _label(self.board, "edge_b"))

    def _side_edge(self, span: VMobject, left: float, symbol: str) -> VGroup:
        brace = Brace(span, direction=RIGHT, color=self.theme.muted)
        brace.stretch_to_fit_width(BRACE).move_to(xyz(left + BRACE / 2, span.get_center()[1]))
        text = maths(symbol, self.theme.muted, self.batch_plan.scale.label)
        return VGroup(brace, text.next_to(brace, RIGHT, buff=SPACE / 2))

    def span_edges(self) -> None:
        """Widen the empty panel over the T and B edges too (they come with the slices)."""
        right = max(float(edge.get_right()[0]) for edge in (self.edge_t, self.edge_b))
        left = float(self.placeholder.get_left()[0])
        self.placeholder.stretch_to_fit_width(right - left).align_to(xyz(left, 0), LEFT)

    def intro(self) -> list[VMobject]:
        """Return the panel where the slices will stand, with the question it asks.

        It asks for the output's shape from the start (a 720p review saw it
        stand blank and dark for the first beats) and shows nothing of the
        answer: no slice, row, tag place or edge until the reveal
        (:func:`~embedviz.render.parts.batch_panel.ask`).
        """
        return ask(self)

    def row_of(self, position: tuple[int, ...]) -> int:
        """Return the output row of a position: row t of slice b is ``b * T + t``."""
        return position[0] * self.batch_plan.length + position[1]

    def targets(self, position: tuple[int, ...]) -> list[NumberText]:
        """Create (without adding) one output row's numbers, each in its slot of its slice."""
        grid = self.slices[position[0]]
        found = sorted(
            (c for (k, i), c in self.cells.items() if k == "output" and i[:-1] == position),
            key=lambda c: c.index,
        )
        font, scale = self.plan.scale.data, self.value_scale
        return [
            grid.put(
                position[1],
                c.index[-1],
                NumberText(c, font, value_colour(c.value, scale, self.theme)),
            )
            for c in found
        ]

    def mark(self, position: tuple[int, ...]) -> NumberText | None:
        """Return None: the marks come in their own beat, once every row is in."""
        return None

    def slice_parts(self, b: int) -> list[VMobject]:
        """Return what slice ``b`` shows before its rows land: its body, header, row numbers."""
        return [self.slices[b], self.headers[b], self.row_numbers[b]]

    def beat_predict(self, beat: Beat) -> Animation:
        """Point at the question the panel asks ("what shape will the whole output have?")."""
        assert self.question is not None
        pointed = point_at(self.question, self.theme.highlight)
        if len(beat.phrases) < 2:
            return pointed
        # With the phrase that asks it ("Predict before we look: what shape ...?").
        return Steps(Wait(run_time=0.5), pointed)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Reveal every slice's body, still empty, and the three edges, in the panel's place.

        The whole B × T × d block stands from here on, and each row lands in
        it. A later slice's header comes with its first lookup: until then the
        strips of the slices before it may pass where it will stand.
        """
        later = [m for b in range(1, len(self.slices)) for m in self.slice_parts(b)]
        bodies = [m for m in later if not any(m is h for h in self.headers)]
        shown = make_reveal_animation(
            [*self.slice_parts(0), *bodies, self.edge_d, self.edge_t, self.edge_b]
        )
        # The slices come in over the panel, and the panel then shrinks into their frames
        # (where they stand drawn already, it goes): one motion, and the output's place is
        # never empty between the question and the slices.
        frames = VMobject().set_points(
            np.concatenate([grid.body[0].points for grid in self.slices])
        )
        frames.match_style(self.slices[0].body[0])
        # The panel as B panels stacked (the same place), so each shrinks into its slice.
        panel = self.placeholder
        left, bottom = panel.get_corner(DOWN + LEFT)[:2]
        right, top = panel.get_corner(UP + RIGHT)[:2]
        share = (top - bottom) / len(self.slices)
        parts = [
            Rectangle(width=right - left, height=share).move_to(
                xyz((left + right) / 2, top - (b + 0.5) * share)
            )
            for b in range(len(self.slices))
        ]
        panel.set_points(np.concatenate([part.points for part in parts]))
        gives_way = Transform(self.placeholder, frames, remover=True, run_time=0.6)
        motions: list[Animation] = [shown.set_run_time(0.6), Succession(Wait(0.4), gives_way)]
        if self.question is not None:
            motions.append(FadeOut(self.question, run_time=0.3))
        return AnimationGroup(*motions)

    def _notes_place(self) -> np.ndarray:
        if self.notes_at is not None:
            return self.notes_at
        plan = self.batch_plan
        return xyz(plan.marks_left, plan.marks_top + self.notes_drop)

    def notes_right(self, height: float) -> np.ndarray:
        """Return where notes ``height`` tall start right of the stack's edges, centred on it."""
        top = float(self.headers[0].get_top()[1])
        bottom = float(self.slices[-1].body.get_bottom()[1])
        right = max(float(edge.get_right()[0]) for edge in (self.edge_t, self.edge_b))
        return xyz(right + 2 * SPACE, (top + bottom + height) / 2)

    def write_marks(self, beat: Beat) -> Animation:
        """Write each equality mark, ``out[1,2] = out[0,0]``, tied to the row it names.

        In the block's empty place (:attr:`marks_box`), centred in it; right of
        the slices each stands level with its row; else they stand in the notes
        under the shape's line. Each starts with its pair's letter, which its
        rows carry too (:func:`~embedviz.render.parts.pair_marks.pair_badges`).
        """
        if self.marks_under is not None:
            return write_under(self, beat, self.marks_under)
        cells = lettered_marks(beat)
        line = digit_height(self.mark_font) * MARK_LINE
        marks = VGroup(*[equality_mark(c, self.mark_font, self.theme.wrong) for c in cells])
        box = self.marks_box
        corner = self._notes_place() - xyz(0, digit_height(self.plan.scale.label) * MARK_LINE)
        if box is not None:
            width = max(mark.width for mark in marks)
            middle = xyz((box[0] + box[1]) / 2, (box[2] + box[3]) / 2)
            corner = middle + xyz(-width / 2, len(cells) * line / 2)
        # Each starts with its pair's letter, as its rows do (parts.pair_marks).
        room = badge_room(self.plan.scale.label, self.plan.sizes.row_height)
        if box is not None:
            corner = corner - xyz(room / 2, 0)
        corner = corner + xyz(room, 0)
        for number, mark in enumerate(marks):
            mark.place(corner - xyz(0, (number + 0.5) * line), "left")
        if box is None and self._beside():
            # Right of the edges, level with its row; the shape then goes over the slices.
            for mark, cell in zip(marks, cells, strict=True):
                mark.place(xyz(corner[0], self.slices[cell.index[0]].row_y(cell.index[1])), "left")
        self.notes.add(*marks)
        # Every row a mark names stands ringed until the next beat (as under E), and
        # lettered with its pair to the end: no line leads from a mark to its rows.
        named = [
            (self.slices[b], t) for c in cells for b, t in (c.index, self._first_copy(c.index))
        ]
        self.rings = equal_rings(named, self.theme.wrong)
        badges = pair_badges(self, beat, list(marks))
        shown: list[Animation] = [FadeIn(m, shift=0.1 * RIGHT) for m in marks]
        rings = FadeIn(VGroup(self.rings, badges[0]))
        return AnimationGroup(rings, FadeIn(badges[1]), LaggedStart(*shown, lag_ratio=0.3))

    def _first_copy(self, position: tuple[int, ...]) -> tuple[int, int]:
        """Return the first position (sequence by sequence) whose ID is this row's."""
        ids = {i: c.value for (k, i), c in self.cells.items() if k == "output_id"}
        b, t = min(i for i, v in ids.items() if v == ids[position])
        return b, t

    def _beside(self) -> bool:
        """Whether the notes stand right of the slices (the marks then beside their rows)."""
        return self.notes_at is not None or self.batch_plan.marks == "right"

    def beat_shape(self, beat: Beat) -> Animation:
        """Write the output's shape B × T × d under the edges that name it (``d = 3`` stays).

        At the labels' size (:func:`~embedviz.render.parts.batch_shape.shape_font`),
        as the stack's other labels (issue 18: from the data's size down, it
        read larger than every label); the d edge keeps its value.
        """
        sizes = sorted((c for c in beat.numbers if c.kind == "output_size"), key=lambda c: c.index)
        top = self._notes_place()
        if self.marks_box is None and self._beside():
            top = xyz(top[0], self.headers[0].get_top()[1])
        font = shape_font(self.plan.scale)
        written = shape_line(sizes, beat.label("output_title"), top, font, self.theme)
        self.shape = written.shape
        return FadeIn(written, shift=0.15 * UP)
