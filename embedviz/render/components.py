"""Stage components of the older stages: grid panel, chip lane and output panel.

BatchLookup, LargeVocabLookup, OneHotEquivalence, ZeroBasedIndexing and
PositionBlindness still build on these; the lookup family is built from
:mod:`embedviz.render.parts` (``CellGrid``, chips that become tags, strips) and
placed by :mod:`embedviz.render.solver`, and phase 2 of issue 18 moves the
other stages onto those too (see ``docs/render.md``).

A part touches the scene only through the
:class:`~embedviz.render.stage.StageHost` it is given; a beat that a stage
does not handle itself goes to the one part with a ``beat_<action>`` method
for it (see :meth:`~embedviz.render.stage.Stage.animate`).

- :class:`GridPanel`: the matrix grid with its title, the colour legend and
  the dtype note. Beats: ``count_rows``, ``dim``.
- :class:`ChipLane`: the input token chips, their label and their homes, on
  one lane or wrapped onto two.
- :class:`OutputPanel`: the one output block, with its title, shape label and
  each row's provenance tag. Beats: ``predict``, ``reveal``, ``shape``.
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
    VGroup,
    VMobject,
)

from embedviz.render.animations import (
    Steps,
    make_count_rows_animation,
    make_dim_rows_animation,
    point_at,
)
from embedviz.render.glyphs import LabelText, SansText
from embedviz.render.layout import HEADING_FONT, NOTE_FONT, place_legend
from embedviz.render.mobjects import (
    ColourLegend,
    GridMetrics,
    MatrixGrid,
    ShapeLabel,
    TokenChip,
    xyz,
)
from embedviz.render.output_panel import OutputPanel, char_span_box
from embedviz.render.stage import Component, StageHost
from embedviz.render.theme import Theme
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = [
    "ChipLane",
    "GridPanel",
    "OutputPanel",
    "char_span_box",
    "dtype_note_text",
]

Cells = dict[tuple[str, tuple[int, ...]], NumberCell]

# Between chips, and between the lane's label and its first chip.
_CHIP_BUFF = 0.18
_LABEL_BUFF = 0.3


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
            point_at(first, self.theme.highlight, scale=1.6),
            make_count_rows_animation(self.grid, beat.highlight.row, self.theme),
        )

    def beat_dim(self, beat: Beat) -> Animation:
        """Dim the rows no ID selected."""
        assert self.grid is not None
        return make_dim_rows_animation(self.grid, beat.dimmed_rows, self.theme)


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
