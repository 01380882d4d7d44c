"""Stage components: the parts a stage is composed of, each with its own beat handlers.

A stage (:class:`~embedviz.render.stage.Stage`) no longer inherits another
stage to reuse its beats. It builds the parts it needs, places them, and
lists them with :meth:`~embedviz.render.stage.Stage.add_part`; a beat that the
stage does not handle itself goes to the one part with a ``beat_<action>``
method for it (two parts handling the same action is an error: handle that
beat on the stage and call the parts from there). A part touches the scene
only through the :class:`~embedviz.render.stage.StageHost` it is given.

The parts:

- :class:`GridPanel`: the matrix grid with its title (``embedding matrix E``
  and its shape), the colour legend (in its one fixed place) and the dtype
  note. Beats: ``count_rows``, ``dim``.
- :class:`ChipLane`: the input token chips, their label and their homes, on
  one lane or wrapped onto two. No beats of its own; motions walk its chips.
- :class:`OutputPanel`: the one output block, with its title, shape label and
  each row's provenance tag. Beats: ``predict``, ``reveal``, ``shape``.
- :class:`PrintPanel`: the PyTorch call and its printed tensor. Beats:
  ``print``, ``grad_fn``.
- :class:`RowCopy`: the lookup motion. It walks a chip from a
  :class:`ChipLane` to its row of a :class:`GridPanel`, copies the row as
  one strip through the corridor into an :class:`OutputPanel` and sends the
  chip home. Beat: ``lookup``.

A new stage composes parts like this (see
:class:`~embedviz.render.stages.zero_based.ZeroBasedStage` for a whole one)::

    @register_stage
    class MyStage(Stage):
        layout = "my_layout"

        def build(self) -> None:
            # 1. Sizes from the frame: fit_font over what must fit.
            font = fit_font(lambda f: ..., largest=MAX_NUMBER_FONT)
            metrics = grid_metrics_at(font, value_chars)
            # 2. Build each part, place it, and compose it into the stage.
            grid = GridPanel.from_board(self.scene, self.board, self.cells, metrics, self.theme)
            grid.place(body_left, body_top, heading_y=heading_y)  # title, note, legend too
            self.grid_panel = self.add_part(grid)
            chips = ChipLane(self.scene, self.theme)
            chips.set_chips([self.make_chip(c) for c in id_cells], SansText("token IDs", ...))
            chips.arrange(top, frame.left, frame.right, lanes=1)  # or 2: see lanes_needed
            self.chip_lane = self.add_part(chips)
            # An output block, a print or the row-copy motion are parts too:
            # OutputPanel (predict/reveal/shape), PrintPanel (print/grad_fn),
            # RowCopy(self.scene, self.theme, grid, chips, output, self.cells) (lookup).

        # 3. Only beats that use several parts, or the stage's own mobjects, go here.
        def beat_intro(self, beat: Beat) -> Animation:
            return make_reveal_animation(self.intro_mobjects())  # title + parts' intro()

        def beat_my_action(self, beat: Beat) -> Animation: ...

    # count_rows and dim need no code on the stage: Stage.animate finds
    # GridPanel.beat_count_rows / beat_dim among the parts.

Only beats that need several parts at once belong on the stage; everything
else is a part's handler, found by :meth:`~embedviz.render.stage.Stage.animate`.

Converting a stage that still subclasses
:class:`~embedviz.render.stages.lookup.LookupStage`: inherit
:class:`~embedviz.render.stage.Stage` instead; build the parts you used
through the old names (``self.grid``, ``self.chips``, ``self.output``,
``self.tags``, ...: on ``LookupStage`` they are aliases of ``grid_panel.grid``,
``chip_lane.chips``, ``output_panel.output``, ``output_panel.tags``, ...) and
``add_part`` them; delete the beat handlers the parts now play (``count_rows``,
``dim``, ``predict``, ``reveal``, ``shape``, ``print``, ``grad_fn``, and
``lookup`` when ``RowCopy`` fits) and write ``beat_intro`` on the stage. The
older shared arrangement (grid left, chips and output right) is
:func:`~embedviz.render.stages.lookup.classic_layout`. Layout numbers come from
:mod:`embedviz.render.layout` (``frame_regions``, ``fit_font``, named sizes).
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
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    Rectangle,
    RoundedRectangle,
    Succession,
    SurroundingRectangle,
    VGroup,
    VMobject,
)

from embedviz.render.animations import (
    Steps,
    make_count_rows_animation,
    make_dim_rows_animation,
    make_lookup_animation,
    make_reveal_animation,
)
from embedviz.render.glyphs import GlyphString, LabelText, NumberText, SansText
from embedviz.render.layout import HEADING_FONT, NOTE_FONT, frame_regions, place_legend
from embedviz.render.mobjects import (
    ColourLegend,
    GridMetrics,
    MatrixGrid,
    OutputBlock,
    PrintedTensor,
    ShapeLabel,
    TokenChip,
    xyz,
)
from embedviz.render.stage import Component, StageHost
from embedviz.render.theme import Theme
from embedviz.story.model import Beat, NumberCell, Storyboard
from embedviz.story.printed import split_printed

__all__ = [
    "ChipLane",
    "GridPanel",
    "OutputPanel",
    "PrintPanel",
    "RowCopy",
    "char_span_box",
    "dtype_note_text",
]

Cells = dict[tuple[str, tuple[int, ...]], NumberCell]

# Between chips, and between the lane's label and its first chip.
_CHIP_BUFF = 0.18
_LABEL_BUFF = 0.3


def char_span_box(
    text: GlyphString, start: int, stop: int, colour: str, buff: float = 0.03
) -> Rectangle:
    """Outline characters ``start`` to ``stop`` (exclusive) of a monospace string, where it is now.

    Parameters
    ----------
    text
        A monospace string (a :class:`~embedviz.render.glyphs.LabelText`).
    start, stop
        The characters, as in ``text.text[start:stop]``.
    colour
        Stroke colour.
    buff
        Space between the characters and the outline.

    Returns
    -------
    Rectangle
        The outline, not yet added; tall enough for brackets.
    """
    low, high = text.slot_corners()
    advance = (high[0] - low[0]) / max(len(text.text), 1)
    height = (high[1] - low[1]) * 1.7 + 2 * buff
    box = Rectangle(width=(stop - start) * advance + 2 * buff, height=height)
    box.move_to(xyz(low[0] + (start + stop) / 2 * advance, (low[1] + high[1]) / 2))
    return box.set_stroke(colour, width=2.5).set_fill(opacity=0.0)


def dtype_note_text(board: Storyboard) -> str | None:
    """Return the storyboard's dtype note (the first beat that has one), if any."""
    return next((b.labels["dtype_note"] for b in board.beats if "dtype_note" in b.labels), None)


class GridPanel(Component):
    """The matrix grid with its title, colour legend and dtype note.

    Build one with :meth:`from_board` and put it in place with :meth:`place`.

    Attributes
    ----------
    grid
        The visible window of the embedding matrix.
    title
        ``embedding matrix E`` and the table's shape (V × d).
    legend
        The colour legend, or None; it sits in its one fixed place.
    dtype_note
        The note on the table's dtype, or None.
    metrics
        The grid's sizes, shared with the output block.
    """

    def __init__(self, host: StageHost, theme: Theme) -> None:
        super().__init__(host, theme)
        self.grid: MatrixGrid | None = None
        self.title: VGroup | None = None
        self.legend: ColourLegend | None = None
        self.dtype_note: LabelText | None = None
        self.metrics: GridMetrics | None = None

    @classmethod
    def from_board(
        cls,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        metrics: GridMetrics,
        theme: Theme,
        heading_font: float = HEADING_FONT,
        note_font: float = NOTE_FONT,
    ) -> GridPanel:
        """Build the grid, its title, legend and dtype note (not yet placed).

        Parameters
        ----------
        host
            The scene.
        board
            The storyboard: its first beat's window is the grid's.
        cells
            Every cell of the storyboard, by (kind, index).
        metrics
            The grid's sizes.
        theme
            Colours.
        heading_font, note_font
            Font sizes of the title and of the note and legend.

        Returns
        -------
        GridPanel
            The panel.
        """
        panel = cls(host, theme)
        panel.metrics = metrics
        window = board.beats[0].window
        panel.grid = MatrixGrid(window, list(cells.values()), metrics, theme, board.value_scale)
        size_cells = [cells[("table_size", (axis,))] for axis in (0, 1)]
        panel.title = VGroup(
            SansText(board.word("embedding_matrix"), heading_font, theme.muted),
            ShapeLabel(size_cells, heading_font, theme.muted),
        ).arrange(RIGHT, buff=0.25)
        note = dtype_note_text(board)
        panel.dtype_note = LabelText(note, note_font, theme.muted) if note else None
        legend_cells = [cells[key] for key in sorted(cells) if key[0] == "legend"]
        panel.legend = (
            ColourLegend(legend_cells, note_font, theme, board.word("value_colour"))
            if legend_cells
            else None
        )
        return panel

    def place(
        self,
        body_left: float,
        body_top: float,
        heading_y: float | None = None,
        note_below: bool = True,
    ) -> None:
        """Put the grid's body at a corner, its title above and the legend in its place.

        Parameters
        ----------
        body_left, body_top
            The top-left corner of the grid's body (its cells, not its labels).
        heading_y
            The title's centre line; by default just above the column numbers.
        note_below
            The dtype note goes under the grid's body; otherwise above the title.
        """
        grid, title = self.grid, self.title
        assert grid is not None
        assert title is not None
        grid.shift(xyz(body_left, body_top) - grid.body.get_corner(UP + LEFT))
        if heading_y is None:
            title.next_to(grid.col_labels, UP, buff=0.15)
            title.align_to(grid.body, LEFT)
        else:
            # Over the whole grid, row numbers included: a narrow table's
            # title then keeps clear of whatever stands right of the grid.
            title.move_to(xyz(0, heading_y))
            title.align_to(xyz(min(grid.body.get_left()[0], grid.get_left()[0]), 0), LEFT)
        if self.dtype_note is not None:
            if note_below:
                self.dtype_note.next_to(grid.body, DOWN, buff=0.12)
            else:
                self.dtype_note.next_to(title, UP, buff=0.1)
            self.dtype_note.align_to(grid.body, LEFT)
        if self.legend is not None:
            place_legend(self.legend)

    def intro(self) -> list[VMobject]:
        """Return the grid, its title, the legend and the note."""
        shown: list[VMobject] = [m for m in (self.grid, self.title) if m is not None]
        shown += [m for m in (self.legend, self.dtype_note) if m is not None]
        return shown

    def beat_count_rows(self, beat: Beat) -> Animation:
        """Point at row number 0, then pulse the row numbers up to the highlighted row.

        Two steps, for the two phrases: "Rows are numbered from 0, ..." and
        "... counting from zero, row 3 is the 4th row."
        """
        assert beat.highlight is not None
        assert self.grid is not None
        first = self.grid.row_labels[min(self.grid.row_labels)]
        return Steps(
            Indicate(first, color=self.theme.highlight, scale_factor=1.6),
            make_count_rows_animation(self.grid, beat.highlight.row),
        )

    def beat_dim(self, beat: Beat) -> Animation:
        """Dim the rows no ID selected."""
        assert self.grid is not None
        return make_dim_rows_animation(self.grid, beat.dimmed_rows)


class ChipLane(Component):
    """The input token chips, their label and the homes they return to.

    Attributes
    ----------
    chips
        One chip per input position, in order.
    homes
        Where each chip rests (its centre).
    label
        ``token IDs``, left of the first lane.
    lane_y
        The height of the free lane a walking chip travels along, or None.
    """

    def __init__(self, host: StageHost, theme: Theme) -> None:
        super().__init__(host, theme)
        self.chips: list[TokenChip] = []
        self.homes: list[np.ndarray] = []
        self.label: SansText | None = None
        self.lane_y: float | None = None
        # The chips of each lane, top lane first.
        self.lanes: list[list[TokenChip]] = []

    def set_chips(self, chips: Sequence[TokenChip], label: SansText | None = None) -> None:
        """Use these chips (and label), not yet placed."""
        self.chips = list(chips)
        self.label = label

    def mark_homes(self) -> None:
        """Record where every chip now is as its home."""
        self.homes = [chip.get_center().copy() for chip in self.chips]

    @staticmethod
    def lanes_needed(
        chips: Sequence[TokenChip], label: VMobject, width: float, min_scale: float
    ) -> int:
        """Return 1 when the label and every chip fit one lane at ``min_scale``, else 2.

        Parameters
        ----------
        chips
            The chips, at their natural size.
        label
            The lane's label (it sits left of the first lane).
        width
            The room across.
        min_scale
            The smallest scale at which the chips stay readable.
        """
        row = sum(chip.width for chip in chips) + _CHIP_BUFF * (len(chips) - 1)
        return 1 if row * min_scale + label.width + _LABEL_BUFF <= width else 2

    def arrange(
        self,
        top: float,
        left: float,
        right: float,
        lanes: int = 1,
        align_left: float | None = None,
        clear_left: float | None = None,
        space: float = 0.12,
    ) -> float:
        """Place the chips on one lane, or two with the travel lane between them.

        With one lane, the chips sit under ``top`` with the travel lane below
        them. With two, the first half sits under ``top``, the travel lane
        below it, and the second half below that, right-aligned and starting
        right of ``clear_left`` (the column down which a walking chip comes),
        so a chip from either lane reaches the travel lane without crossing
        another and comes down beside the grid without crossing any.

        Parameters
        ----------
        top
            The top of the band the chips take.
        left, right
            The room across.
        lanes
            1 or 2.
        align_left
            With one lane: start the label here when everything fits right of
            it (above the output block), else right-align to ``right``.
        clear_left
            With two lanes: the second lane starts right of this.
        space
            The gap between the bands.

        Returns
        -------
        float
            The bottom of the band the chips take (the lowest lane's bottom).
        """
        assert self.label is not None
        label = self.label
        half = len(self.chips) if lanes == 1 else -(-len(self.chips) // 2)
        self.lanes = [list(self.chips[:half])] + ([list(self.chips[half:])] if lanes == 2 else [])
        groups = [VGroup(*lane).arrange(RIGHT, buff=_CHIP_BUFF) for lane in self.lanes]
        room = right - left - label.width - _LABEL_BUFF
        start = left if clear_left is None else clear_left + space
        rooms = [room] + ([right - start] if lanes == 2 else [])
        # Every lane at one scale, so all chips read alike.
        scale = min([1.0, *(r / g.width for r, g in zip(rooms, groups, strict=True))])
        for group in groups:
            group.scale(scale)
        chip_h = max(chip.height for chip in self.chips)
        y = top - chip_h / 2
        first = groups[0]
        fits_above = align_left is not None and first.width <= right - align_left - (
            label.width + _LABEL_BUFF
        )
        if lanes == 1 and fits_above:
            assert align_left is not None
            first.move_to(xyz(0, y)).align_to(xyz(align_left + label.width + _LABEL_BUFF, 0), LEFT)
        else:
            first.move_to(xyz(0, y)).align_to(xyz(right, 0), RIGHT)
        label.next_to(first, LEFT, buff=_LABEL_BUFF)
        self.lane_y = y - chip_h - space
        bottom = y - chip_h / 2
        if lanes == 2:
            second_y = self.lane_y - chip_h - space
            groups[1].move_to(xyz(0, second_y)).align_to(xyz(right, 0), RIGHT)
            bottom = second_y - chip_h / 2
        self.mark_homes()
        return bottom

    def intro(self) -> list[VMobject]:
        """Return the chips and their label."""
        return [*self.chips, *([self.label] if self.label is not None else [])]


class OutputPanel(Component):
    """The one output block: rows, title, shape label and provenance tags.

    Attributes
    ----------
    output
        The block, or None when the layout has no output.
    title
        ``output``.
    shape_label
        The output's shape, once a beat has written it.
    tags
        Each output row's provenance: the ID in the chip's colour, its word
        piece and a mark when it equals an earlier row.
    """

    def __init__(self, host: StageHost, theme: Theme) -> None:
        super().__init__(host, theme)
        self.output: OutputBlock | None = None
        self.title: SansText | None = None
        self.shape_label: ShapeLabel | None = None
        self.tags: dict[tuple[int, ...], VGroup] = {}
        self.question: LabelText | None = None
        self.question_marks: list[Line | None] = []

    def build_tags(
        self,
        positions: Sequence[tuple[int, ...]],
        cells: Cells,
        font: float,
        pieces: Sequence[str] | None,
    ) -> None:
        """Build each output row's provenance: its ID in the chip colour, piece, equality.

        Parameters
        ----------
        positions
            The output rows, in the block's order.
        cells
            Every cell of the storyboard (``output_id`` and ``equal_to`` ones are drawn).
        font
            Font size of the tags.
        pieces
            The word pieces behind the IDs, when the input was text.
        """
        assert self.output is not None
        theme = self.theme
        self.tags = {}
        order = list(positions)
        for position in order:
            cell = cells.get(("output_id", position))
            if cell is None:
                continue
            number = NumberText(cell, font, theme.chip_text)
            box = RoundedRectangle(
                corner_radius=0.06, width=number.width + 0.12, height=number.height * 1.8
            )
            box.set_fill(theme.chip, opacity=1.0).set_stroke(theme.chip, width=1)
            label = self.output.labels[order.index(position)]
            if self.output.labels_right:
                box.next_to(label, RIGHT, buff=0.1)
            else:
                # Row labels on the left: the tag goes right of the block, on the row.
                box.move_to(xyz(0, label.get_center()[1]))
                box.align_to(xyz(self.output.body.get_right()[0] + 0.12, 0), LEFT)
            number.move_to(box)
            tag = VGroup(box, number)
            if pieces and position[-1] < len(pieces):
                piece = LabelText(pieces[position[-1]], font, theme.chip)
                piece.next_to(box, RIGHT, buff=0.08)
                tag.add(piece)
            mark = cells.get(("equal_to", position))
            if mark is not None:
                text = NumberText(mark, font, theme.accent)
                text.next_to(tag, RIGHT, buff=0.1)
                tag.add(text)
            self.tags[position] = tag

    def output_cells(self, position: tuple[int, ...], cells: Cells) -> list[NumberText]:
        """Create (without adding) one output row's numbers, each in its slot."""
        assert self.output is not None
        row = sorted(
            (c for c in cells.values() if c.kind == "output" and c.index[:-1] == position),
            key=lambda c: c.index,
        )
        return [self.output.make_cell(cell) for cell in row]

    def beat_predict(self, beat: Beat) -> Animation:
        """Ask for the output shape before revealing it, one axis per phrase.

        The question (``output shape?  rows × values``) comes in with its
        ``rows`` underlined, then ``values`` is underlined: the narration asks
        how many rows, then how many values in each row. A stage puts a step
        before these for the phrase about the input (see
        :meth:`~embedviz.render.stages.lookup.LookupStage.beat_predict`).
        """
        assert self.output is not None
        self.question = LabelText(beat.label("question"), 24, self.theme.output)
        self.question.move_to(self.output.body)
        # A translated question may be longer than the English one: it shrinks to stay
        # inside the frame, centred on the output block.
        safe = frame_regions()
        x = float(self.question.get_center()[0])
        room = 2 * min(x - safe.left, safe.right - x)
        if self.question.width > room:
            self.question.scale(room / self.question.width)
        self.question_marks = [self._underline(word) for word in ("rows", "values")]
        marks = [m for m in self.question_marks if m is not None]
        if len(marks) < 2:
            return FadeIn(self.question, shift=0.2 * DOWN)
        return Steps(
            Succession(FadeIn(self.question, shift=0.2 * DOWN), Create(marks[0])),
            Create(marks[1]),
        )

    def _underline(self, word: str) -> Line | None:
        """Underline ``word`` in the question (None when the question lacks it)."""
        assert self.question is not None
        start = self.question.text.find(word)
        if start < 0:
            return None
        box = char_span_box(self.question, start, start + len(word), self.theme.output)
        line = Line(box.get_corner(DOWN + LEFT), box.get_corner(DOWN + RIGHT))
        return line.set_stroke(self.theme.output, width=3)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Reveal the empty output block, with its shape written when the story has it.

        With the shape written, a second step points at its last size (the
        embedding dimension), for the phrase that names it.
        """
        assert self.output is not None
        assert self.title is not None
        leaving: list[VMobject] = [self.question] if self.question is not None else []
        leaving += [m for m in self.question_marks if m is not None]
        appearing: list[VMobject] = [self.output, self.title]
        sizes = sorted((c for c in beat.numbers if c.kind == "output_size"), key=lambda c: c.index)
        if sizes:
            self.shape_label = ShapeLabel(sizes, HEADING_FONT, self.theme.output)
            self.shape_label.next_to(self.title, RIGHT, buff=0.3)
            appearing.append(self.shape_label)
        shown = make_reveal_animation(appearing)
        if leaving:
            # The question leaves before the block arrives where it stood.
            shown = Succession(make_reveal_animation([], leaving), shown)
        if self.shape_label is None or len(beat.phrases) < 2:
            return shown
        return Steps(shown, Indicate(self.shape_label[-1], color=self.theme.highlight))

    def beat_shape(self, beat: Beat) -> Animation:
        """Label the output's shape (or point at it, when the reveal wrote it).

        Two steps, for "the rows come from the input IDs," and "the columns
        from the embedding dimension": the block is framed and its row count
        and row tags flash, then the column count flashes.
        """
        assert self.output is not None
        assert self.title is not None
        frame = Create(SurroundingRectangle(self.output.body, color=self.theme.output, buff=0.06))
        if self.shape_label is not None:
            shown: Animation = AnimationGroup(
                Indicate(self.shape_label, color=self.theme.output), frame
            )
        else:
            sizes = [c for c in beat.numbers if c.kind == "output_size"]
            label = ShapeLabel(sorted(sizes, key=lambda c: c.index), 26, self.theme.output)
            label.next_to(self.title, RIGHT, buff=0.35)
            self.shape_label = label
            shown = AnimationGroup(FadeIn(label, scale=1.3), frame)
        if len(beat.phrases) < 2 or len(self.shape_label) < 3:
            return shown
        accent = self.theme.highlight
        # The rows' provenance: each row's ID tag (or its row numbers, untagged).
        rows = VGroup(*self.tags.values()) if self.tags else self.output.labels
        return Steps(
            Succession(
                shown,
                AnimationGroup(
                    Indicate(self.shape_label[0], color=accent),
                    Circumscribe(rows, color=accent, buff=0.06),
                ),
            ),
            Indicate(self.shape_label[-1], color=accent),
        )


class PrintPanel(Component):
    """The PyTorch call and the tensor it prints.

    Attributes
    ----------
    code
        The call, e.g. ``E(torch.tensor([3]))``.
    printed
        The print, every number a checked number.
    """

    def __init__(self, host: StageHost, theme: Theme) -> None:
        super().__init__(host, theme)
        self.code: LabelText | None = None
        self.printed: PrintedTensor | None = None
        self.bracket_boxes: list[Rectangle] = []
        self.numbers_box: SurroundingRectangle | None = None

    @classmethod
    def from_board(
        cls, host: StageHost, board: Storyboard, theme: Theme, font_size: float
    ) -> PrintPanel:
        """Build the call and its print from the storyboard's last beat (not yet placed).

        Parameters
        ----------
        host
            The scene.
        board
            The storyboard; it must have a ``printed`` tensor.
        theme
            Colours.
        font_size
            Font size of the call and the print.

        Returns
        -------
        PrintPanel
            The panel.
        """
        assert board.printed is not None
        final = board.beats[-1]
        assert final.output is not None
        lines, omitted = split_printed(board.printed, final.output.shape)
        panel = cls(host, theme)
        panel.code = LabelText(final.label("code"), font_size, theme.chip)
        panel.printed = PrintedTensor(
            lines,
            final.numbers,
            final.labels,
            final.labels.get("printed_omitted") if omitted else None,
            font_size,
            theme,
        )
        return panel

    def place(self, left: float, code_y: float, buff: float = 0.3) -> None:
        """Put the call's left end at ``(left, code_y)`` and the print under it."""
        assert self.code is not None
        assert self.printed is not None
        self.code.move_to(xyz(0, code_y)).align_to(xyz(left, 0), LEFT)
        self.printed.next_to(self.code, DOWN, buff=buff, aligned_edge=LEFT)

    def beat_print(self, beat: Beat) -> Animation:
        """Show the PyTorch call and its print, then its outer brackets, then its numbers.

        Three steps, for "PyTorch prints the result inside double brackets.",
        "The outer pair means a 2-D tensor ..." and "the 3 numbers inside are
        row 3.": the outer ``[`` and ``]`` are outlined, then the numbers.
        """
        assert self.code is not None
        assert self.printed is not None
        shown = LaggedStart(FadeIn(self.code), FadeIn(self.printed), lag_ratio=0.4)
        outer = self.outer_brackets()
        numbers = [p for p in self.printed.pieces if isinstance(p, NumberText)]
        if len(beat.phrases) < 3 or not outer or not numbers:
            return shown
        self.bracket_boxes = outer
        self.numbers_box = SurroundingRectangle(
            VGroup(*numbers), color=self.theme.highlight, buff=0.06
        )
        return Steps(shown, AnimationGroup(*[Create(b) for b in outer]), Create(self.numbers_box))

    def outer_brackets(self) -> list[Rectangle]:
        """Outline the print's first ``[`` and last ``]`` (none if it has no brackets)."""
        assert self.printed is not None
        pieces = self.printed.text_pieces
        opening = [(p, p.text.find("[")) for p in pieces if "[" in p.text]
        closing = [(p, p.text.rfind("]")) for p in pieces if "]" in p.text]
        if not opening or not closing:
            return []
        colour = self.theme.chip
        return [char_span_box(piece, at, at + 1, colour) for piece, at in (opening[0], closing[-1])]

    def beat_grad_fn(self, beat: Beat) -> Animation:
        """Point at the grad_fn label, then at the numbers (one step per phrase)."""
        assert self.printed is not None
        piece = self.printed.last_text_piece()
        boxed: Animation = Create(SurroundingRectangle(piece, color=self.theme.chip, buff=0.05))
        if self.bracket_boxes:
            # The brackets have been read: their outlines make way for this one.
            boxed = AnimationGroup(boxed, *[FadeOut(b) for b in self.bracket_boxes])
        numbers = [p for p in self.printed.pieces if isinstance(p, NumberText)]
        if len(beat.phrases) < 2 or not numbers:
            return boxed
        return Steps(
            boxed,
            Indicate(VGroup(*numbers), color=self.theme.highlight, scale_factor=1.0),
        )


class RowCopy(Component):
    """The lookup motion: a chip walks to its row, the row travels to its output row.

    The row leaves the grid to the right, moves up or down inside the empty
    corridor at :attr:`route_x` and slides into its output row from the left,
    so it never crosses a number; then the chip goes home along the chip lane.

    Parameters
    ----------
    host
        The scene.
    theme
        Colours.
    grid, chips, output
        The parts it moves between.
    cells
        Every cell of the storyboard.
    """

    def __init__(
        self,
        host: StageHost,
        theme: Theme,
        grid: GridPanel,
        chips: ChipLane,
        output: OutputPanel,
        cells: Cells,
    ) -> None:
        super().__init__(host, theme)
        self.grid_panel = grid
        self.chip_lane = chips
        self.output_panel = output
        self.cells = cells
        # The corridor's left edge (the strip's body-left passes here), or None.
        self.route_x: float | None = None

    def copy_route(self, row: int, targets: Sequence[NumberText]) -> list[np.ndarray]:
        """Waypoints for a copied row: out to the right, through the corridor, in.

        Parameters
        ----------
        row
            The grid row being copied.
        targets
            Its output numbers (the first one is the strip's reference point).

        Returns
        -------
        list of arrays
            Where the strip's first number passes, in order; empty (a straight
            move) when this layout has no corridor.
        """
        grid = self.grid_panel.grid
        if self.route_x is None or grid is None:
            return []
        start = grid.row_cells(row)[0].get_center()
        # The strip's first number sits this far right of the body's left edge.
        inset = start[0] - grid.body.get_left()[0]
        x = self.route_x + inset
        return [xyz(x, start[1]), xyz(x, targets[0].get_center()[1])]

    def beat_lookup(self, beat: Beat) -> Animation:
        """Walk a chip to its row and copy the row out."""
        assert beat.highlight is not None
        out = self.output_panel
        grid = self.grid_panel.grid
        assert out.output is not None
        assert out.title is not None
        assert grid is not None
        if beat.output is not None and not any(m is out.output for m in self.host.mobjects):
            self.host.add(out.output, out.title)
        position = beat.highlight.position
        lane = self.chip_lane
        chip_index = position[-1] if len(lane.chips) > 1 else 0
        targets = out.output_cells(position, self.cells)
        row = beat.highlight.row
        tag = out.tags.get(position)
        return make_lookup_animation(
            lane.chips[chip_index],
            lane.homes[chip_index],
            grid,
            row,
            targets,
            self.theme,
            route=self.copy_route(row, targets),
            lane_y=lane.lane_y,
            provenance=[tag] if tag is not None else [],
        )
