"""What a batch frame holds and where it goes: E, B × T chips, and B slices as PyTorch prints them.

:class:`BatchSpec` is read from the storyboard; :class:`BatchPlan` is what
:func:`~embedviz.render.solve_batch.solve_batch` returns (its solver), and
:mod:`embedviz.render.batch_routes` finds the strips' clear paths. Across the
frame::

    row numbers | matrix E | walking column | slices | tags | t | T | B | (marks)

Down the left: the title band, the chips (B rows of T, each row with a free
lane under it that its chips leave by), E's heading and E. Down the right:
the d edge, then each slice's header (``slice b``) and its T rows, every
slice in view at every moment. The equality marks (``out[1,2] =
out[0,0]``) come once every row has landed, in a list right of the slices,
under them, under E or in the emptied corridor, wherever it fits (nothing
moves any more by then).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

import numpy as np

from embedviz.render.design import TAG_AIR_PX, Theme, TypeScale, chip_edge_width, units_for_px
from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import GridSizes
from embedviz.render.routes import rising_route
from embedviz.render.solver import LookupPlan, LookupSpec
from embedviz.render.solver_across import RIDE_TURN, TAG_GAP
from embedviz.story.model import Storyboard

__all__ = [
    "BRACE",
    "COL_NOTE_AIR",
    "LANE_CHIPS",
    "MARK_LINE",
    "PANEL_REACH",
    "PANEL_STROKE",
    "RISE_AIR",
    "ROW_GAP_CHIPS",
    "BatchPlan",
    "BatchSpec",
    "Marks",
    "Mode",
    "batch_spec",
]

Mode = Literal["beside", "corridor"]
Marks = Literal["right", "below", "under", "corridor"]
# A brace's depth (the B, T and d edges).
BRACE = 0.18
# A lane between two rows of chips (or under a last, odd one) is this many chip heights tall.
LANE_CHIPS = 1.0
# Between two rows of chips that share no lane, in chip heights.
ROW_GAP_CHIPS = 0.3
# A line of the list of marks, in digit heights.
MARK_LINE = 1.7
# The air between the hidden columns' note and the column numbers under it, in SPACEs: half
# a SPACE left "columns 1-766 hidden" 0.67 SPACE (6 px at 720p) over "0 ... 767", read as
# one stack with them (issue 18); one keeps more than a SPACE between their boxes.
COL_NOTE_AIR = 1.0
# The stroke of the output's panel (before the reveal), which spans the slices' edges; its
# ink reaches half its width past the edges' right end (manim draws a width of 1 as 1/100
# of a scene unit), and the layout keeps it inside the safe area.
PANEL_STROKE = 1.5
PANEL_REACH = 0.01 * PANEL_STROKE / 2
# How far right of E's side a strip rising beside E keeps its left end: two TAG_GAPs (21.6
# px at 720p) clear of the chips still waiting over E, whose block ends at E's right end.
RISE_AIR = 2 * TAG_GAP + units_for_px(1)


@dataclass(frozen=True)
class BatchSpec(LookupSpec):
    """What a batch frame must hold: a lookup spec, with the batch's shape and words.

    Attributes
    ----------
    batch, length
        B and T.
    axis_texts
        The B and T labels, each as its storyboard label and its size's text
        (``("batch B =", "2")``): the solver measures them as drawn
        (:func:`~embedviz.render.parts.batch_axes.axis_label_width`).
    slice_word
        The header of a slice, without its number (``slice``).
    marks
        How many rows carry an equality mark.
    shape_text
        The output's shape as the last beat writes it (``output 2 × 4 × 3``).
    edge_texts
        The T and B edges' symbols, as typeset right of the slices.
    header_clear
        Whether the slices' headers get their clear ground over and under
        them (:data:`~embedviz.render.batch_headers.HEADER_CLEAR`), or the old,
        shorter band (where the taller one costs the numbers their floor).
    legend_clear
        Whether a legend under the slices keeps under E's source rows, clear of
        every strip (:func:`~embedviz.render.batch_notes.legend_floor`), or
        stands where it fills the frame best and gives way (where keeping clear
        costs the numbers a floor).
    tight_rows
        Whether the solver may take rows tighter than the lookup's for larger
        numbers (:func:`~embedviz.render.solve_batch.solve_batch`).
    """

    batch: int = 0
    length: int = 0
    axis_texts: tuple[tuple[str, str], tuple[str, str]] = (("", ""), ("", ""))
    slice_word: str = ""
    marks: int = 0
    shape_text: str = ""
    edge_texts: tuple[str, str] = ("", "")
    header_clear: bool = True
    legend_clear: bool = True
    tight_rows: bool = False

    def grid_sizes(self, scale: TypeScale, pitch: float, extra: float = 0.0) -> GridSizes:
        """Return E's and the slices' sizes at one type scale, pitch and cell widening."""
        return GridSizes(
            scale,
            self.value_chars,
            pitch,
            gaps_inside=self.gaps_inside,
            cell_extra=extra,
            col_note_air=self.col_note_air,
        )


def batch_spec(board: Storyboard) -> BatchSpec:
    """Read what a BatchLookup frame must hold from its storyboard."""
    base = LookupSpec.from_board(board)
    final = board.beats[-1]
    assert final.output is not None
    batch, length = final.output.shape[:2]
    cells = {(c.kind, c.index): c for beat in board.beats for c in beat.numbers}
    labels = {k: v for beat in board.beats for k, v in beat.labels.items()}
    sizes = [cells[("batch_dim", (axis,))].text for axis in (0, 1)]
    return BatchSpec(
        **{f.name: getattr(base, f.name) for f in fields(LookupSpec) if f.name != "col_note_air"},
        col_note_air=COL_NOTE_AIR,
        batch=batch,
        length=length,
        axis_texts=((labels["batch_axis"], sizes[0]), (labels["length_axis"], sizes[1])),
        slice_word=labels["slice_title"],
        marks=sum(1 for kind, _ in cells if kind == "equal_to"),
        shape_text=f"{labels.get('output_title', '')}  "
        + " \u00d7 ".join(cells[("output_size", (a,))].text for a in range(3)),
        edge_texts=(labels["edge_t"], labels["edge_b"]),
    )


@dataclass(frozen=True)
class BatchPlan(LookupPlan):
    """Where everything of a batch frame goes: a :class:`LookupPlan`, and the batch's places.

    Output row ``b * T + t`` is row t of slice b (:meth:`output_row_y`).

    Attributes
    ----------
    slice_tops
        The top of each slice's body.
    header_h
        A slice's header band.
    edge_d_y
        The centre line of the d edge's label (its brace under it).
    edge_t_left, edge_b_left
        Where the T and the B edges' braces start.
    block_right, block_top
        The right end of the chips' rows, and the top of the first row.
    chip_h, lane_h
        A row of chips' height, and a lane's. Rows 0 and 1 share the lane
        between them (row 0 leaves down into it, row 1 up), as rows 2 and 3
        do; an odd last row has its lane under it.
    marks
        Where the list of marks stands: ``right`` of the slices' edges,
        ``below`` the slices, or ``under`` E.
    marks_over
        Whether the list fits the block of chips' place over E, where the stage
        stands it (``below``: the notes under the slices keep room for the
        shape's line alone).
    marks_left, marks_top
        Where the list starts (its top-left corner).
    length
        T, the rows of a slice.
    col_gap_y
        The top of the hidden columns' label when it stands under E (None:
        in the margin, on the column numbers' line).
    """

    slice_tops: tuple[float, ...] = ()
    header_h: float = 0.0
    edge_d_y: float = 0.0
    edge_t_left: float = 0.0
    edge_b_left: float = 0.0
    block_right: float = 0.0
    block_top: float = 0.0
    chip_h: float = 0.0
    lane_h: float = 0.0
    marks: Marks = "right"
    marks_over: bool = False
    marks_left: float = 0.0
    marks_top: float = 0.0
    length: int = 1
    col_gap_y: float | None = None

    def tag_height(self, theme: Theme) -> float:
        """Return a chip's most height: its ink keeps :data:`TAG_AIR_PX` from its neighbours'.

        Each edge's stroke reaches half its width past the box (manim draws a
        width of 1 as 1/100 of a unit). The block's rows and lanes keep the
        chips' own height.
        """
        return self.sizes.row_height - units_for_px(TAG_AIR_PX) - chip_edge_width(theme) / 100

    def chip_row_y(self, b: int) -> float:
        """Return the centre line of row ``b`` of chips."""
        gap = self.chip_h * ROW_GAP_CHIPS
        lanes, gaps = (b + 1) // 2, b // 2
        return self.block_top - (b + 0.5) * self.chip_h - lanes * self.lane_h - gaps * gap

    def lane_y(self, b: int) -> float:
        """Return the centre line of the lane that row ``b`` of chips leaves by."""
        pair, gap = b // 2, self.chip_h * ROW_GAP_CHIPS
        depth = (2 * pair + 1) * self.chip_h + pair * (self.lane_h + gap) + self.lane_h / 2
        return self.block_top - depth

    def strip_path(self, source_y: float, target_y: float) -> list[np.ndarray]:
        """Points along a strip centre's way from its matrix row to its output row.

        Beside E, a strip goes on out at its row's height into the walking
        column, rises or falls there, and only at its output row's height
        slides into its row (:func:`rising_route`). A strip is far wider than
        the column (the default batch: 5.4 units in a column of 0.63), so on
        its way it crosses the still-empty rows between (the solver's slices
        and order keep them empty): it rises with its left end
        :data:`RISE_AIR` right of E's side, nearer E than the slices, so its
        numbers stand that much short of the cells of each row it passes and
        it reads as travelling beside them, not as standing in one. It rose at
        the column's middle, as near the slices as E, and a 720p review of the
        default batch read it as lying level in slice 1's row 0 on its way to
        slice 0 (issue 18). At least :data:`RISE_AIR` from E's side it passes
        the chips still waiting over E clear: rising a turn's width (10.8 px at
        720p) past them read as touching sequence 1's chips (54.4 s). The
        corridor's way, and a level or all but level one, are the lookup's.
        """
        way = super().strip_path(source_y, target_y)
        if self.mode == "corridor" or len(way) <= 2:
            return way
        half = self.body_width / 2
        clear, landing = self.column_left + half, self.output_left + half
        turn = min(self.sizes.row_height / 2, RIDE_TURN)
        # The rising run's left end stands RISE_AIR right of E (rising_route turns a turn on).
        out = max(clear, clear + min(RISE_AIR, (landing - clear) / 2) - turn)
        if out <= clear + 1e-9:
            return way
        return [xyz(clear, source_y), *rising_route(out, landing, source_y, target_y, turn)]

    def output_row_y(self, row: int) -> float:
        """Return the centre line of output row ``row`` (row ``row % T`` of its slice)."""
        b, t = divmod(row, self.length)
        return self.slice_tops[b] - (t + 0.5) * self.sizes.row_height
