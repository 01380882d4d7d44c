"""The layout solver: one place that decides where everything of a lookup frame goes.

Given a storyboard's window (which rows and columns of E are drawn, with
their hidden ranges), its token IDs, its output shape and its labels, and the
frame (manim's ``config``), :func:`solve_lookup` returns a
:class:`LookupPlan`: the type scale and the places of the title, the legend,
the matrix, the walking column, the output block, the chips (which wait
beside the output rows they will fill, and become their tags), the row
numbers and marks, and the PyTorch print. It maximises the table's font (up
to :data:`~embedviz.render.design.MAX_DATA_PX`) subject to everything
fitting, then gives spare height to taller rows.

Across the frame::

    row numbers | matrix E | walking column | output | chips | pieces | t | marks

Hidden ranges of rows are thin bands whose labels sit in the left margin. A
chip walks left through its own (still empty) output row into the walking
column, along it to the right end of its matrix row, and back; the row's
strip follows it out to the right. Two arrangements keep the strip's path
clear, and the one with the larger numbers wins:

``beside``
    The walking column is one chip wide. The output block is raised just
    enough that every output row sits level with or above the row it copies,
    so a strip goes out to the right at its own height, into the output
    block's still-empty rows (or the space under the block), and up into its
    row. A single row's output sits level with its source.
``corridor``
    The walking column is only as wide as a strip (a chip parks inside it):
    the output is top-aligned, and a strip goes out, along the corridor, and in.
    Between lookups the two rest together (:attr:`LookupPlan.rest_slide`) and
    glide apart for a beat's strips. For long sentences whose rows come in an
    order the first cannot raise for, when no still plan (below) fits. With the
    chips waiting over E (a lane), equality marks that come last stand in the
    corridor, left of their rows, once it is empty (:attr:`LookupPlan.marks_inside`):
    it stays open after the lookups, and the blocks never slide across for them.
    Where nothing may cross the output block off its own row (``spec.clear_block``:
    LargeVocabLookup) only the corridor is tried, wide enough for a strip and the
    chip riding at its right end (:attr:`LookupPlan.holds_rider`).
still ``beside``
    When a raised block would leave too much empty under it (a stage would
    rest it lower and glide it up and back for strips), the legend stands
    upright under the output's tags and the block stays put, at numbers a
    little smaller (:mod:`embedviz.render.solver_still`); so too instead of a
    corridor whose blocks would slide apart and back at every lookup. A block
    raised far leaves the top left empty: the title then stands left, over
    the matrix, and the output side rises beside it, on the title's line.
``stack``
    For one row and a print (SingleTokenLookup): ``beside``, with the legend
    and the PyTorch call and print in the column above and below the output
    row rather than under the blocks (:mod:`embedviz.render.column`), the
    print's ``grad_fn`` on a line of its own when it would be too wide.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from embedviz.render.column import call_depth, column_plan, print_band
from embedviz.render.design import (
    MAX_DATA_PX,
    MIN_DATA_PX,
    MIN_DEFAULT_DATA_PX,
    MIN_TEXT_PX,
    SPACE,
    TypeScale,
    font_for_px,
)
from embedviz.render.gap_lines import gap_labels_crowd, near_if_apart_misses, wrapped_labels_collide
from embedviz.render.layout import fit_font
from embedviz.render.memo import per_frame
from embedviz.render.metrics import digit_height, xyz
from embedviz.render.parts.grid import GridSizes
from embedviz.render.routes import clear_paths, curved_route, rising_route, source_centres
from embedviz.render.solver_across import RIDE_TURN, TAG_GAP, Mode, lay_across
from embedviz.render.solver_across import frame as _frame
from embedviz.render.solver_bands import legend_by_marks, legend_place, legend_x, title_band
from embedviz.render.solver_bands import stand_content as _stand
from embedviz.render.solver_fill import filled_pitch, title_band_share
from embedviz.render.solver_lane import Lane, lane_bounds
from embedviz.render.solver_pieces import lecture_pieces
from embedviz.render.solver_still import caption_top as caption_top_of
from embedviz.render.solver_still import prefer_still, still_legend
from embedviz.render.spec import LookupSpec
from embedviz.render.type_search import largest_fitting, legend_height, raised_text

__all__ = ["MAX_PITCH", "PITCHES", "TAG_GAP", "LookupPlan", "LookupSpec", "solve_lookup"]

# Row heights tried, in digit heights, loosest first; spare height grows them up to MAX_PITCH.
PITCHES = (2.0, 1.85, 1.7, 1.55, 1.45)
MAX_PITCH = 2.4
# The caption band at the bottom: its centre line above the frame's bottom edge.
CAPTION_CENTRE = 0.62
# A title is this much larger than a label, but never larger than the table's numbers.
TITLE_RATIO = 1.15
# A near tie between two plans goes to the looser rows (and the narrow column).
TIE = 0.94
# A ``beside`` output block raised more rows than this above the matrix loses a near
# tie to the ``corridor`` (its rest would glide far up and back).
MAX_RAISE_ROWS = 4.0
# Two-line labels of the hidden ranges are tried from this many bands (a stack of long
# labels that widens the margin), and taken when the table's numbers come out at least
# this large against one line's: the narrower margin then costs nothing.
WRAP_GAPS, WRAP_GAIN = 5, 1.0


@dataclass(frozen=True)
class LookupPlan:
    """Where everything of a lookup frame goes (scene units; y grows upwards).

    Attributes
    ----------
    scale, sizes
        The type scale and the grid's slot sizes.
    mode
        ``beside`` or ``corridor`` (see the module's description).
    matrix_left, matrix_top
        The matrix body's top-left corner.
    output_left, output_top
        The output body's top-left corner (the chips wait on its rows' lines).
    body_width
        The width of either body (they show the same columns).
    chip_width
        The widest chip.
    tag_left, piece_left, position_left, mark_left
        Where the chips, their word pieces, the output row numbers and the
        equality marks start, right of the output block.
    heading_y, output_heading_y
        The centre lines of the matrix's heading, and of the output's and
        the chips' headings.
    title_x, title_y, title_font
        The title's centre and size (centred, unless the legend beside it needs the room).
    legend_x, legend_y, legend_left
        The legend's centre line, and its left edge (above the matrix or the
        output, where raising or lowering the output left room, or under the
        output and the matrix) or its right edge (in the title band).
    print_top, print_font
        Where the PyTorch call starts and its size (0 without a print).
    print_left
        Where the call starts across (None: under the matrix's heading).
    print_wrap
        Whether the print's ``grad_fn`` goes on a line of its own.
    caption_y
        The caption's centre line.
    order
        The order the output rows are filled in: the first two in input
        order, the rest in an order whose strips all have a clear path.
    content_top, content_bottom
        The top of the highest heading and the bottom of the lowest block.
    bar_width
        A scroll bar's column between the matrix and the walking column (0: none).
    marks_overflow
        How far the equality marks' column reaches past the safe area's right
        edge with the blocks apart (0: it fits). Only late marks in the
        ``corridor`` arrangement may: the block rests at least this far left
        (within :attr:`rest_slide`), and they fade in once it has closed up.
    marks_inside
        The late marks stand in the corridor, their right ends at ``mark_left``
        (a lane's plan, where they fit): the blocks then stand still across.
    legend_upright
        The length of an upright legend's bar, under the output's tags (a
        still plan: :mod:`~embedviz.render.solver_still`); 0: in a row.
    legend_stacked
        A title band legend's title stands over its swatches (``place_title``).
    legend_level
        A title band legend's values stand on its swatches' line (``spec.legend_level``).
    lane
        Where the chips wait over E (:mod:`~embedviz.render.solver_lane`); None: beside the block.
    """

    scale: TypeScale
    sizes: GridSizes
    mode: Mode
    matrix_left: float
    matrix_top: float
    output_left: float
    output_top: float
    body_width: float
    chip_width: float
    tag_left: float
    piece_left: float
    position_left: float
    mark_left: float
    heading_y: float
    output_heading_y: float
    title_x: float
    title_y: float
    title_font: float
    legend_x: float
    legend_y: float
    legend_left: bool
    print_top: float
    print_font: float
    caption_y: float
    order: tuple[int, ...] = ()
    content_top: float = 0.0
    content_bottom: float = 0.0
    bar_width: float = 0.0
    print_left: float | None = None
    print_wrap: bool = False
    marks_overflow: float = 0.0
    marks_inside: bool = False
    legend_upright: float = 0.0
    legend_stacked: bool = False
    lane: Lane | None = None
    legend_level: bool = False

    @property
    def column_left(self) -> float:
        """The left edge of the walking column (the matrix body's right edge, or the bar's)."""
        return self.matrix_left + self.body_width + self.bar_width

    @property
    def rest_slide(self) -> float:
        """How far the matrix and the block close up between lookups (corridor, legend in the band).

        Nothing travels down the corridor then: they rest a chip's column apart, as ``beside``.
        """
        if self.mode != "corridor" or self.legend_left:
            return 0.0
        return max(0.0, self.output_left - (self.column_left + 2 * TAG_GAP + self.chip_width))

    @property
    def holds_rider(self) -> bool:
        """Whether the corridor holds a strip and its chip riding at its right end.

        (``LookupSpec.clear_block``: the chip rides down it a TAG_GAP short of the
        block, and into the block only level with its own row.)
        """
        room = self.output_left - self.column_left
        return (
            self.mode == "corridor"
            and room >= self.body_width + self.chip_width + 3 * TAG_GAP - 1e-9
        )

    def park_x(self, chip_width: float) -> float:
        """Return the centre x of a chip of this width waiting at the right end of its row."""
        return self.column_left + TAG_GAP + chip_width / 2

    def tag_x(self, chip_width: float) -> float:
        """Return the centre x of a chip of this width beside its output row."""
        return self.tag_left + chip_width / 2

    def output_row_y(self, row: int) -> float:
        """Return the centre line of output row ``row``."""
        return self.output_top - (row + 0.5) * self.sizes.row_height

    def strip_path(self, source_y: float, target_y: float) -> list[np.ndarray]:
        """Points along a strip centre's way from its matrix row to its output row.

        Out of its row until clear of the matrix, then one curve into its output row: beside,
        up or down at once, into it at its height (:func:`rising_route`), turning by at most
        ``RIDE_TURN``; in the corridor, down it and into the row from the left.
        """
        half = self.body_width / 2
        landing = self.output_left + half
        clear = self.column_left + half
        if abs(target_y - source_y) <= 1e-9:
            return [xyz(landing, source_y)]
        if self.mode != "corridor":
            turn = min(self.sizes.row_height / 2, RIDE_TURN)
            return rising_route(clear, landing, source_y, target_y, turn)
        corridor = self.column_left + TAG_GAP + half
        room = max(0.0, landing - half - (corridor + half))  # the gap before the block
        if self.holds_rider:
            # Its chip rides a TAG_GAP short of the block: it turns in within half a row of
            # its output row's line, so the chip enters the block level with its own row.
            room = min(room, self.sizes.row_height / 2)
        bends = [(corridor, source_y, float("inf")), (corridor, target_y, room)]
        return curved_route(clear, bends, (landing, target_y))


def _measure(
    spec: LookupSpec, data: float, pitch: float, mode: Mode, text_px: float = 0.0
) -> tuple[LookupPlan, list[str]]:
    """Lay out at one font size, pitch and labels' floor; return the plan and what does not fit."""
    problems: list[str] = []
    scale = replace(TypeScale.from_data(data, text_px), piece_px=spec.piece_px)
    sizes, (left, right, top, bottom) = GridSizes(scale, spec.value_chars, pitch), _frame()
    if spec.gaps_inside:
        sizes = replace(sizes, gaps_inside=True, col_note_air=spec.col_note_air)
    elif spec.gap_labels:
        sizes = replace(sizes, gaps_wrapped=spec.gaps_wrapped)
        sizes = replace(sizes, gaps_apart=gap_labels_crowd(sizes, spec.gaps_near))
        if wrapped_labels_collide(sizes):
            problems.append("two-line gap labels too close")
    across = lay_across(spec, sizes, mode, problems)
    (keys, centres, matrix_h), row_h = source_centres(spec, sizes), sizes.row_height
    outputs = [(t + 0.5) * row_h for t in range(len(spec.sources))]
    raise_d, order = clear_paths(mode, (keys, centres, matrix_h), row_h, len(outputs), problems)
    heading_h = digit_height(scale.label) * 1.6
    col_labels_h = digit_height(scale.label) + 0.8 * SPACE
    col_labels_h += sizes.col_note_height if spec.window.col_gaps else 0.0
    # Notes: a half-precision table's under the matrix; a count over its heading (+SPACE air).
    note_h = digit_height(getattr(scale, spec.note_role)) + 2 * SPACE if spec.note else 0.0
    above_h, under_h = (note_h + SPACE, 0.0) if spec.note_above else (0.0, note_h)
    tops = (-(col_labels_h + SPACE + heading_h + above_h), -raise_d - SPACE - heading_h)
    bounds, lane = lane_bounds(spec, (scale, sizes, across), tops, problems)
    content_bottom = max(matrix_h + under_h, -raise_d + len(outputs) * row_h)
    legend_h = legend_height(scale.legend) if spec.legend else 0.0
    output_bottom_d = -raise_d + len(outputs) * row_h
    print_font, print_h = print_band(spec, scale, right - left, problems)
    call_d = call_depth(print_font)
    legend_at, legend_d = legend_place(spec, legend_h, bounds, output_bottom_d, matrix_h, call_d)
    content_bottom = max(content_bottom, legend_d + legend_h / 2)
    in_band = legend_at == "band"
    title_font, title_x, band_h, stacked = _title_band(spec, scale, problems, in_band)
    caption_y = bottom + CAPTION_CENTRE
    depth = (caption_top_of(caption_y), content_bottom + print_h)
    heights = (band_h, heading_h, *bounds)
    title_x, matrix_top = _stand(spec, (title_font, title_x), across, heights, depth, problems)
    plan = LookupPlan(
        scale=scale,
        sizes=sizes,
        mode=mode,
        matrix_left=across.matrix_left,
        matrix_top=matrix_top,
        output_left=across.output_left,
        output_top=matrix_top + raise_d,
        body_width=across.body_w,
        chip_width=across.chip_w,
        tag_left=across.tag_left,
        piece_left=across.piece_left,
        position_left=across.position_left,
        mark_left=across.mark_left,
        heading_y=matrix_top + col_labels_h + SPACE + heading_h / 2,
        output_heading_y=matrix_top + raise_d + SPACE + heading_h / 2,
        title_x=title_x,
        title_y=top - band_h / 2,
        title_font=title_font,
        legend_x=legend_x(legend_at, (left, right), across.output_left),
        legend_y=top - band_h / 2 if in_band else matrix_top - legend_d,
        legend_left=not in_band,
        legend_stacked=stacked,
        print_top=matrix_top - content_bottom - 2 * SPACE,
        print_font=print_font,
        caption_y=caption_y,
        order=order,
        content_top=matrix_top - bounds[2],
        content_bottom=matrix_top - content_bottom,
        marks_overflow=overflow if (overflow := across.marks_right - right) > 1e-9 else 0.0,
        marks_inside=across.marks_inside,
        lane=None if lane is None else lane.at(matrix_top),
        legend_level=in_band and spec.legend_level and not stacked,
    )
    if spec.still and mode == "beside":
        plan = still_legend(plan, spec, right, problems)
    if spec.marks_from and spec.legend:
        plan = legend_by_marks(plan, spec, right, problems)
    if plan.marks_overflow > plan.rest_slide:
        problems.append("marks too wide")
    return plan, problems


def _title_band(
    spec: LookupSpec, scale: TypeScale, problems: list[str], legend: bool
) -> tuple[float, float, float, bool]:
    """:func:`~embedviz.render.solver_bands.title_band` here: font, x, band, legend stacked."""
    left, right, _, _ = _frame()
    font = min(scale.data, scale.label * TITLE_RATIO)
    return title_band(spec, scale, font, (left, right), problems, legend)


def _measure_stack(spec: LookupSpec, data: float, pitch: float) -> tuple[LookupPlan, list[str]]:
    """Lay out ``beside`` with the legend, call and print in the column around the one row."""
    plan, problems = _measure(replace(spec, print_lines=0, legend=False), data, pitch, "beside")
    legend_h = legend_height(plan.scale.legend) if spec.legend else 0.0
    return column_plan(plan, spec, _frame(), legend_h, problems), problems


@per_frame
def solve_lookup(spec: LookupSpec) -> LookupPlan:
    """Return the plan with the largest table numbers at which everything fits.

    Both arrangements are tried at every pitch of :data:`PITCHES`; the largest
    font wins (a looser pitch, then the ``beside`` arrangement, win near
    ties), then spare height grows the rows up to :data:`MAX_PITCH`.

    Parameters
    ----------
    spec
        What the frame holds.

    Returns
    -------
    LookupPlan
        The plan. When nothing fits even at the smallest size, the smallest
        one is returned (the moment tests then report what is too small).
        Many hidden ranges' labels go on two lines (:mod:`~embedviz.render.gap_lines`)
        unless the numbers come out smaller (:data:`WRAP_GAIN`). A still plan wins a near
        tie where the block could not stay (:func:`~embedviz.render.solver_still.prefer_still`);
        word pieces rise to MIN_PIECE_PX where the numbers keep their floors (solver_pieces).
    """
    return lecture_pieces(spec, lambda s: prefer_still(s, _solve_print(s), _solve_print))


def _solve_print(spec: LookupSpec) -> LookupPlan:
    """:func:`_solve_labels`, with the print under the blocks as large as a table's numbers.

    The print's numbers are the beat's data: under the blocks they are drawn
    at least :data:`MIN_DATA_PX` tall, unless that would take the table's
    own numbers under that floor (a taller window of E, such as row 4821's);
    then the print takes the labels' size. (A size between the two, as large
    as the table allows, brings the rows closer, and the close-up before the
    print then leaves more than an eighth of the frame empty: 12.6 %.)
    """
    if not spec.print_lines:
        return _solve_labels(spec)
    plan = _solve_labels(replace(spec, print_px=MIN_DATA_PX))
    if plan.mode == "stack" or plan.scale.data >= font_for_px(MIN_DATA_PX):
        return plan
    return _solve_labels(spec)


def _solve_labels(spec: LookupSpec) -> LookupPlan:
    """:func:`solve_lookup` before a still plan: labels on one line or two, the larger."""
    plan = near_if_apart_misses(_solve, spec)
    if spec.gaps_inside or spec.source_windows or len(spec.gap_labels) < WRAP_GAPS:
        return plan
    wrapped = near_if_apart_misses(_solve, replace(spec, gaps_wrapped=True))
    return wrapped if wrapped.scale.data >= plan.scale.data * WRAP_GAIN else plan


def _solve(spec: LookupSpec) -> LookupPlan:
    """:func:`solve_lookup` with the hidden ranges' labels as the spec sets them."""
    largest, smallest = font_for_px(MAX_DATA_PX), font_for_px(MIN_TEXT_PX)
    found: list[tuple[float, float, Mode]] = []
    # A still block stands beside the matrix (the corridor's blocks close up between lookups).
    modes: tuple[Mode, ...] = ("beside",) if spec.still else ("beside", "corridor")
    if spec.clear_block:  # beside, a strip rises across the block's empty rows
        modes = ("corridor",)
    if len(spec.sources) == 1 and spec.print_lines:
        modes = ("stack", *modes)
    for mode in modes:
        for pitch in PITCHES:

            def fits(font: float, pitch: float = pitch, mode: Mode = mode) -> bool:
                return not _measured(spec, font, pitch, mode)[1]

            font = largest_fitting(fits, largest, smallest)
            if font is not None:
                found.append((font, pitch, mode))
    if not found:
        return replace(
            _measured(spec, smallest, PITCHES[-1], "corridor")[0], bar_width=spec.bar_width
        )
    top_font = max(font for font, _, _ in found)
    # A near tie goes to the looser rows, unless that would drop under a floor the best reaches.
    floors = [font_for_px(px) for px in (MIN_DATA_PX, MIN_DEFAULT_DATA_PX)]
    enough = max([top_font * TIE, *(f for f in floors if f <= top_font)])
    # Found in order of preference: beside before corridor, looser pitches first. But a
    # block raised far above the matrix (a long sentence whose strips must not cross)
    # rests lower and glides up for the rest: there the corridor, which needs no raise,
    # wins a near tie.
    near = [f for f in found if f[0] >= enough]
    font, pitch, mode = next((f for f in near if not _far_raised(spec, *f)), near[0])
    # Small labels rise toward a lecture hall's size where the rows leave room (the data fixed).
    text = raised_text(lambda px: not _measured(spec, font, pitch, mode, px)[1], font)
    grown = fit_font(
        lambda p: not _measured(spec, font, p, mode, text)[1],
        largest=MAX_PITCH,
        smallest=pitch,
        precision=0.01,
    )
    if spec.fill_height and grown >= MAX_PITCH - 0.01:
        grown = filled_pitch(
            lambda trial: _measured(spec, font, trial, mode, text), grown, title_band_share
        )
    # The walking column starts right of a scroll bar, when there is one.
    return replace(_measured(spec, font, grown, mode, text)[0], bar_width=spec.bar_width)


def _far_raised(spec: LookupSpec, font: float, pitch: float, mode: Mode) -> bool:
    """Whether a ``beside`` plan raises the output more than :data:`MAX_RAISE_ROWS` rows."""
    if mode != "beside":
        return False
    plan = _measured(spec, font, pitch, mode)[0]
    return plan.output_top - plan.matrix_top > MAX_RAISE_ROWS * plan.sizes.row_height + 1e-9


def _measured(
    spec: LookupSpec, data: float, pitch: float, mode: Mode, text_px: float = 0.0
) -> tuple[LookupPlan, list[str]]:
    """:func:`_measure`, or :func:`_measure_stack` for the ``stack`` arrangement."""
    if mode == "stack":
        return _measure_stack(spec, data, pitch)
    return _measure(spec, data, pitch, mode, text_px)
