"""The batch layout's solver: :func:`solve_batch` lays out a :class:`BatchSpec`.

It extends the lookup solver (:mod:`embedviz.render.solver`) to BatchLookup;
the spec and the plan (and the layout across and down the frame they describe)
are in :mod:`embedviz.render.batch_plan`.

A chip leaves its place along its lane, walks down the walking column to
the right end of its row, and rides at the right end of the row's strip home
into its slice's row, where it stays as the row's tag. As in the lookup solver, two
arrangements keep the strips' paths clear, and the one with the larger
numbers wins:

``beside``
    The walking column is one chip wide. The slices are placed (searched in
    quarter rows) so that, slice by slice, every strip goes out at its row's
    height and up or down the slices' column through rows that are still
    empty (:mod:`embedviz.render.batch_routes`).
``corridor``
    The walking column is as wide as a strip: a strip goes out, along it and in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from embedviz.render.batch_fit import (
    BATCH_PITCHES,
    COMFORT_PX,
    TIGHT_GAIN,
    Found,
    in_preference_order,
    search_pitches,
    tighter,
)
from embedviz.render.batch_headers import header_height, keep_floor
from embedviz.render.batch_notes import (
    clear_or_free,
    legend_floor,
    legend_place,
    legend_under_x,
    marks_over_e,
    marks_place,
    notes_size,
)
from embedviz.render.batch_plan import (
    BRACE,
    LANE_CHIPS,
    PANEL_REACH,
    ROW_GAP_CHIPS,
    BatchPlan,
    BatchSpec,
    Marks,
    Mode,
)
from embedviz.render.batch_routes import place_slices
from embedviz.render.design import (
    MIN_DATA_PX,
    MIN_DEFAULT_DATA_PX,
    MIN_TEXT_PX,
    SPACE,
    TypeScale,
    font_for_px,
    px_for_font,
)
from embedviz.render.formula import formula_width
from embedviz.render.layout import fit_font
from embedviz.render.memo import per_frame
from embedviz.render.metrics import char_advance, digit_height, text_width
from embedviz.render.parts.batch_axes import axis_label_width
from embedviz.render.parts.chips import chip_size
from embedviz.render.parts.grid import GridSizes, col_slots, row_slots
from embedviz.render.parts.pair_marks import badge_column
from embedviz.render.routes import source_centres
from embedviz.render.solver import (
    CAPTION_CENTRE,
    MAX_PITCH,
    PITCHES,
    TAG_GAP,
    TIE,
    _title_band,
)
from embedviz.render.solver_across import frame as _frame
from embedviz.render.solver_bands import TitlePlace, band_legend_width

__all__ = ["notes_size", "solve_batch"]

# The most characters a number cell widens by into width to spare (:func:`_widen`): two
# keep a seven-character number's cell a quarter wider than it, still read as one table.
MAX_CELL_EXTRA = 2.0


@dataclass(frozen=True)
class _Across:
    """The horizontal part of a batch layout."""

    matrix_left: float
    stack_left: float
    chip_w: float
    tag_left: float
    position_left: float
    mark_left: float
    edge_t_left: float
    edge_b_left: float
    right_end: float
    col_gap_below: bool
    column_w: float


def _across(
    spec: BatchSpec, sizes: GridSizes, mode: Mode, marks: Marks, problems: list[str]
) -> _Across:
    # (A list of marks right of the slices adds its width.)
    """Lay the columns out across the frame, centred; note what does not fit."""
    scale = sizes.scale
    left, right, _, _ = _frame()
    label = scale.label
    body_w = sum(s.size for s in col_slots(spec.window, sizes))
    note = scale.note  # the hidden ranges' labels, in sans
    gap_w = max([text_width(t, note, False) for t in spec.gap_labels.values()] or [0.0])
    col_w = max([text_width(g.label, note, False) for g in spec.window.col_gaps] or [0.0])
    numbers_w = char_advance(scale.index) * spec.row_label_chars  # E's row numbers
    if sizes.gaps_inside:
        # Each hidden range's label stands in its band, across the table, and the hidden
        # columns' note over the column numbers: the margin keeps only the row numbers.
        if gap_w > body_w - 2 * SPACE + numbers_w or col_w > body_w:
            problems.append("gap labels wider than the table")
        gap_w = col_w = 0.0
    margin_w = max(numbers_w, gap_w) + 1.5 * SPACE
    chip_w = max(chip_size(len(i), 0, label)[0] for i, _ in spec.chips)
    # The repeats' letters stand left of their rows, in the column beside E.
    letters = badge_column(label, sizes.row_height) if spec.marks else 0.0
    column_w = max(2 * TAG_GAP + chip_w, letters) + (body_w if mode == "corridor" else 0.0)
    position_w = char_advance(label) * spec.position_chars
    mark_w = notes_size(spec, scale)[0] if marks == "right" else 0.0
    # An edge: its brace, then its symbol as typeset (an italic B is wider than a digit).
    symbol_w = max([formula_width(t, label) for t in spec.edge_texts if t] or [char_advance(label)])
    edge_w = BRACE + SPACE / 2 + symbol_w
    after = TAG_GAP + chip_w + SPACE + position_w + SPACE
    # Widened cells: the output's panel spans the edges, its stroke's ink past them.
    total = margin_w + 2 * body_w + column_w + after + 2 * edge_w + SPACE
    total += PANEL_REACH if sizes.cell_extra else 0.0
    total += SPACE * 2 + mark_w if mark_w else 0.0
    # The hidden columns' label goes in the margin (as in the lookup layout) when
    # there is room, else under E.
    col_gap_below = not sizes.gaps_inside and (
        total - margin_w + max(margin_w, col_w + 1.5 * SPACE) > right - left
    )
    if not col_gap_below:
        total, margin_w = (
            total - margin_w + max(margin_w, col_w + 1.5 * SPACE),
            max(margin_w, col_w + 1.5 * SPACE),
        )
    if total > right - left:
        problems.append("too wide")
    # The chips stand over E, left of the walking column, their B label left of them.
    gap_x = digit_height(label) * 0.6
    block_w = spec.length * chip_w + (spec.length - 1) * gap_x
    b_label = BRACE + 2 * SPACE + axis_label_width(*spec.axis_texts[0], label)
    # E's heading shrinks to its room, never under the floor.
    floor = font_for_px(MIN_TEXT_PX)
    if label * (margin_w + body_w) / text_width(spec.matrix_heading, label, mono=False) < floor:
        problems.append("heading too wide")
    offset = max(0.0, (right - left - total) / 2)
    matrix_left = left + offset + margin_w
    # The chips stand over E, ending where its body does, their B label left of them.
    if matrix_left + body_w - block_w - b_label < left:
        problems.append("chips too wide")
    stack_left = matrix_left + body_w + column_w
    tag_left = stack_left + body_w + TAG_GAP
    position_left = tag_left + chip_w + SPACE
    edge_t = position_left + position_w + SPACE
    edge_b = edge_t + edge_w + SPACE
    mark_left = edge_b + edge_w + 2 * SPACE
    return _Across(
        matrix_left,
        stack_left,
        chip_w,
        tag_left,
        position_left,
        mark_left,
        edge_t,
        edge_b,
        edge_b + edge_w,
        col_gap_below,
        column_w,
    )


@dataclass(frozen=True)
class _Down:
    """The vertical sizes of a batch layout (scene units)."""

    row_h: float
    header_h: float
    d_band: float
    chip_h: float
    t_label: float
    block_h: float
    heading_h: float
    col_labels_h: float

    def slice_top(self, b: int, length: int) -> float:
        """Return the depth of slice ``b``'s body top below the stack's top."""
        return self.d_band + b * (self.header_h + length * self.row_h) + self.header_h


def _down(spec: BatchSpec, sizes: GridSizes) -> _Down:
    label = sizes.scale.label
    chip_h = chip_size(1, 0, label)[1]
    band = digit_height(label) * 1.6
    t_label = band + BRACE + SPACE
    return _Down(
        row_h=sizes.row_height,
        header_h=header_height(spec, label),
        # The d edge is written in slice 0's header band, right of its title.
        d_band=0.0,
        chip_h=chip_h,
        t_label=t_label,
        block_h=t_label
        + chip_h
        * (spec.batch + (spec.batch + 1) // 2 * LANE_CHIPS + (spec.batch - 1) // 2 * ROW_GAP_CHIPS),
        heading_h=band,
        col_labels_h=digit_height(label) + 0.8 * SPACE + sizes.col_note_height,
    )


def _stack_place(
    spec: BatchSpec, sizes: GridSizes, down: _Down, mode: Mode, left_top: float, problems: list[str]
) -> tuple[float, tuple[int, ...]]:
    """Return the depth of the stack's top below E's top, and the order the rows fill in.

    Where no place keeps every strip's path clear, say so (the stack then stands at
    ``left_top``, its rows in order).
    """
    count = spec.batch * spec.length
    if mode == "corridor":
        # Nothing to keep clear: the stack's top is as high as it may stand (``left_top``:
        # level with the chips' top, or under the legend in the title band).
        return left_top, tuple(range(count))
    keys, centres, matrix_h = source_centres(spec, sizes)
    row = down.row_h
    units = tuple(round(centres[k] / row, 4) for k in keys)
    found = place_slices(
        units,
        round(matrix_h / row, 4),
        round(down.header_h / row, 4),
        round(down.d_band / row, 4),
        spec.batch,
        spec.length,
    )
    if found is None:
        problems.append("no clear path")
        return left_top, tuple(range(count))
    return found[0] * row, found[1]


def _rise(spec: BatchSpec, scale: TypeScale, left_end: float) -> float:
    """Return how much higher than the slices E and its chips may stand, up to the title.

    A legend in the title band makes the band taller than the title; it
    stands at the band's right end, over the slices. What stands left of it
    (E and the block of chips, which end at ``left_end``) need only clear the
    title, centred on the same line: it rises by half the difference (when
    the legend stands there, not under the slices).
    """
    _, right, _, _ = _frame()
    _, _, band_h, stacked = _title_band(spec, scale, [], True)
    if right - band_legend_width(spec.legend_title, scale, stacked) < left_end + SPACE:
        return 0.0
    return (band_h - _title_band(spec, scale, [], False)[2]) / 2


def _bands(
    spec: BatchSpec, scale: TypeScale, content_h: float, problems: list[str], legend: bool
) -> tuple[TitlePlace, float, float]:
    """Return the title's place, the caption's centre line, and spare height.

    The spare height is what is left between the title band and the caption
    once the content stands there (negative: it is too tall). ``legend``: the
    legend stands in the title band, beside the title.
    """
    _, _, top, bottom = _frame()
    placed = TitlePlace(*_title_band(spec, scale, problems, legend))
    caption_y = bottom + CAPTION_CENTRE
    caption_top = caption_y + digit_height(scale.caption) * 2.1
    spare = top - placed.band - SPACE - (caption_top + SPACE) - content_h
    if spare < 0:
        problems.append("too tall")
    return placed, caption_y, spare


def _measure(
    spec: BatchSpec, data: float, pitch: float, mode: Mode, marks: Marks, extra: float = 0.0
) -> tuple[BatchPlan, list[str]]:
    """Lay out at one font size, pitch and cell width; return the plan and what does not fit."""
    problems: list[str] = []
    scale = TypeScale.from_data(data)
    sizes, (_, right, top, _) = spec.grid_sizes(scale, pitch, extra), _frame()
    body_w = sum(s.size for s in col_slots(spec.window, sizes))
    across = _across(spec, sizes, mode, marks, problems)
    down = _down(spec, sizes)
    matrix_h = sum(slot.size for slot in row_slots(spec.window, sizes))
    note_h = digit_height(scale.legend) + 2 * SPACE if spec.note else 0.0
    heading_top = -(down.col_labels_h + SPACE + down.heading_h)
    left_top = heading_top - SPACE - down.block_h
    # E and the chips may stand higher than the slices, under a legend in the title band.
    rise = _rise(spec, scale, across.matrix_left + body_w)
    stack_top, order = _stack_place(spec, sizes, down, mode, left_top + rise, problems)
    stack_bottom = stack_top + down.slice_top(spec.batch, spec.length) - down.header_h
    below = across.col_gap_below
    under_e = matrix_h + note_h + (digit_height(scale.legend) + 2 * SPACE if below else 0.0)
    depths = (stack_top + down.d_band, stack_bottom, under_e)
    # Marks that will stand in the block's place over E take no room under the slices.
    away = marks == "below" and marks_over_e(spec, scale, across, body_w, down.block_h)
    marks_at, marks_h = marks_place(spec, scale, (across, marks, away), depths, problems, mode)
    content_bottom = max(under_e, stack_bottom, marks_at[1] + marks_h if marks_h else 0.0)
    floor = legend_floor(spec, sizes, mode, marks)
    ends = (stack_bottom, marks_at[1] + marks_h, content_bottom, floor)
    legend_d, content_bottom = legend_place(spec, scale, across, marks, ends)
    content_top = min(left_top + (rise if legend_d is None else 0.0), stack_top)
    (title_font, title_x, band_h, stacked), caption_y, spare = _bands(
        spec, scale, content_bottom - content_top, problems, legend_d is None
    )
    matrix_top = top - band_h - SPACE - max(spare, 0.0) / 2 + content_top
    stack_y = matrix_top - stack_top
    plan = BatchPlan(
        scale=scale,
        sizes=sizes,
        mode=mode,
        matrix_left=across.matrix_left,
        matrix_top=matrix_top,
        output_left=across.stack_left,
        output_top=stack_y - down.slice_top(0, spec.length),
        body_width=body_w,
        chip_width=across.chip_w,
        tag_left=across.tag_left,
        piece_left=across.position_left,
        position_left=across.position_left,
        mark_left=across.mark_left,
        heading_y=matrix_top - heading_top - down.heading_h / 2,
        output_heading_y=stack_y - down.d_band - down.header_h / 2,
        title_x=title_x,
        title_y=top - band_h / 2,
        title_font=title_font,
        legend_x=right if legend_d is None else legend_under_x(spec, scale, across),
        legend_y=top - band_h / 2 if legend_d is None else matrix_top - legend_d,
        legend_left=legend_d is not None,
        legend_stacked=stacked and legend_d is None,
        print_top=0.0,
        print_font=0.0,
        caption_y=caption_y,
        order=order,
        content_top=matrix_top - content_top,
        content_bottom=matrix_top - content_bottom,
        slice_tops=tuple(stack_y - down.slice_top(b, spec.length) for b in range(spec.batch)),
        header_h=down.header_h,
        edge_d_y=stack_y - down.header_h / 2,
        edge_t_left=across.edge_t_left,
        edge_b_left=across.edge_b_left,
        block_right=across.matrix_left + body_w,
        block_top=matrix_top - left_top - down.t_label,
        chip_h=down.chip_h,
        lane_h=down.chip_h * LANE_CHIPS,
        marks=marks,
        marks_over=away,
        marks_left=marks_at[0],
        marks_top=matrix_top - marks_at[1],
        col_gap_y=matrix_top - matrix_h - note_h - SPACE if below else None,
        length=spec.length,
    )
    return plan, problems


@per_frame
def solve_batch(spec: BatchSpec) -> BatchPlan:
    """Return the batch plan with the largest table numbers at which everything fits.

    Each hidden range's label stands in its band, across the table, where the
    numbers stay at least :data:`MIN_DATA_PX` so: in the margin, centred on a
    thin band, it stood 4 px over the next row number at GPT-2's size (a
    lecture-hall review read ``rows 3–16 hidden`` and ``17`` as one text).
    Else (the 3 × 6 batch at GPT-2 size, bound by the height) it stays there.

    A legend stacked in the title band (the title centred) makes the band a
    line taller: where that puts the numbers under the default table's floor
    (short batches, bound by the height), the legend stands beside its title
    if that draws them larger (the title then centred left of it).

    The slices' headers keep their old, shorter band where the taller one
    would cost the numbers a floor (:func:`~embedviz.render.batch_headers.keep_floor`).

    Numbers under :data:`COMFORT_PX` take rows tighter than the lookup's
    (:data:`BATCH_PITCHES`, ``spec.tight_rows``) where that draws them
    :data:`TIGHT_GAIN` larger: the default batch 24.6 -> 25.5 px at 720p,
    GPT-2's 18.7 -> 19.7 (:func:`~embedviz.render.batch_fit.tighter`). Both
    tries share one search of every pitch (:func:`_found`).

    Parameters
    ----------
    spec
        What the frame holds.

    Returns
    -------
    BatchPlan
        The plan.
    """
    plan = keep_floor(lambda fixed: clear_or_free(_solve_spec, fixed), spec)
    if spec.tight_rows or px_for_font(plan.scale.data) >= COMFORT_PX:
        return plan
    tight = solve_batch(replace(spec, tight_rows=True))
    return tight if tight.scale.data >= plan.scale.data * TIGHT_GAIN else plan


def _solve_spec(spec: BatchSpec) -> BatchPlan:
    """Return :func:`solve_batch`'s plan for one header band (``spec.header_clear``)."""
    if spec.window.row_gaps and not spec.gaps_inside:
        inside = _solve_spec(replace(spec, gaps_inside=True))
        if px_for_font(inside.scale.data) >= MIN_DATA_PX - 1e-6:
            return inside
    plan = _solve(spec)
    if plan.legend_stacked and px_for_font(plan.scale.data) < MIN_DEFAULT_DATA_PX - 1e-6:
        flat = _solve(replace(spec, legend_stacks=False))
        if flat.scale.data > plan.scale.data:
            return flat
    return plan


def _solve(spec: BatchSpec) -> BatchPlan:
    """Return the batch plan with the largest table numbers at which everything fits.

    Both arrangements, and the three places for the list of marks, are tried
    at every pitch; the largest font wins (a near tie goes to the looser rows,
    then ``beside``, then the list right of the slices), and spare height grows the rows.

    Parameters
    ----------
    spec
        What the frame holds.

    Returns
    -------
    BatchPlan
        The plan (the smallest one when nothing fits: the moment tests then
        report what is too small).
    """
    found = list(_found(spec))
    if not found:
        smallest = font_for_px(MIN_TEXT_PX)
        return _measure(spec, smallest, BATCH_PITCHES[-1], "corridor", "corridor")[0]
    top_font = max(f[0] for f in found)
    floors = [font_for_px(px) for px in (MIN_DATA_PX, MIN_DEFAULT_DATA_PX)]
    enough = max([top_font * TIE, *(f for f in floors if f <= top_font)])
    font, pitch, mode, marks = next(f for f in found if f[0] >= enough)
    if spec.tight_rows:
        font, pitch = tighter(found, font, pitch, (mode, marks))
    grown = fit_font(
        lambda p: not _measure(spec, font, p, mode, marks)[1],
        largest=MAX_PITCH,
        smallest=pitch,
        precision=0.01,
    )
    plan = _measure(spec, font, grown, mode, marks)[0]
    return _widen(spec, plan, (font, grown, mode, marks)) if plan.legend_left else plan


@per_frame
def _found(spec: BatchSpec) -> tuple[Found, ...]:
    """Return :func:`~embedviz.render.batch_fit.search_pitches` for ``spec`` (kept per spec).

    With ``spec.tight_rows`` (which no measure reads): the first try's search, and the rest.
    """
    loose = replace(spec, tight_rows=False)

    def fits(font: float, pitch: float, mode: Mode, marks: Marks) -> bool:
        return not _measure(loose, font, pitch, mode, marks)[1]

    if not spec.tight_rows:
        return search_pitches(fits, PITCHES)
    return in_preference_order(_found(loose) + search_pitches(fits, BATCH_PITCHES[len(PITCHES) :]))


def _widen(spec: BatchSpec, plan: BatchPlan, at: tuple[float, float, Mode, Marks]) -> BatchPlan:
    """Widen E's and the slices' cells into the width a stack raised over E leaves.

    Slices raised by their strips' clear paths (the legend under them) are
    bound by the height of E's column: at GPT-2's size (a 2 x 4 batch of
    five-digit IDs) the frame kept an empty column 2.0 units wide right of the
    slices until the last lookup, and one as wide left of E after it (11.5 %
    of the frame). The cells widen (up to :data:`MAX_CELL_EXTRA` characters
    each, the numbers centred in them) as far as everything still fits, the
    legend still under the slices. ``at``: the font size, pitch, arrangement and marks' place.
    """

    def fits(extra: float) -> bool:
        wide, problems = _measure(spec, *at, extra)
        return not problems and wide.legend_left

    extra = fit_font(fits, largest=MAX_CELL_EXTRA, smallest=0.0, precision=0.05)
    return _measure(spec, *at, extra)[0] if fits(extra) else plan
