"""The lookup solver's horizontal part: the columns across the frame, and the frame's safe area.

:func:`~embedviz.render.solver.solve_lookup` lays the columns out with
:func:`lay_across` (row numbers, matrix, walking column, output, chips,
pieces, row numbers, marks) and reads the safe area from :func:`frame`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from embedviz.render.design import MARGIN, MIN_TEXT_PX, SPACE, TypeScale, font_for_px
from embedviz.render.gap_lines import margin_gap_width
from embedviz.render.metrics import char_advance, text_width
from embedviz.render.parts.chips import chip_size, number_gap, piece_font
from embedviz.render.parts.grid import GridSizes, col_slots
from embedviz.render.parts.row_count import count_reach
from embedviz.render.spec import LookupSpec

__all__ = [
    "MARK_GAP",
    "MARK_WORDS",
    "RIDE_TURN",
    "TAG_GAP",
    "Across",
    "Mode",
    "frame",
    "lay_across",
    "mark_font",
    "mark_gap",
    "marks_fit_inside",
]

# Between the output block and the chips beside it (and a parked chip and its row).
TAG_GAP = SPACE
# Beside, a strip's turns are rounded by at most this: the chip riding a TAG_GAP right of
# its right end (parts.ride) then passes the chips waiting in the tags' column (a TAG_GAP
# right of the block, the strip's end turning a walking column short of it) at least a
# TAG_GAP clear, as far as they stand from the rows they tag.
RIDE_TURN = TAG_GAP
# Between a row's number and an equality mark that comes last (LargeVocabLookup): a
# SPACE (10.8 px at 720p) is narrower than the mark's own word spaces (the space's
# advance and the glyphs' bearings: 21 px beside 18 px labels), and a frame review read
# ``8 out[8] = out[0]`` as one line. The gap is a quarter wider than those word spaces
# (MARK_WORDS advances), at least MARK_GAP.
MARK_GAP = 2.5 * SPACE
MARK_WORDS = 1.8
# Between the marks that come last and the safe area's right edge, where the layout
# affords it (``LookupSpec.mark_air``): a layout bound by the width set ``out[8] = out[0]``
# flush on the margin's line, 18 px from the frame's edge (a teacher's review: a text on
# the safe margin). It costs GPT-2's numbers 0.2 px.
MARK_EDGE_AIR = SPACE
Mode = Literal["beside", "corridor", "stack"]


def frame() -> tuple[float, float, float, float]:
    """Return the safe area's left, right and top, and the frame's bottom edge."""
    from manim import config

    half_w, half_h = float(config.frame_width) / 2, float(config.frame_height) / 2
    return -half_w + MARGIN, half_w - MARGIN, half_h - MARGIN, -half_h


@dataclass(frozen=True)
class Across:
    """The horizontal part of a layout."""

    body_w: float
    chip_w: float
    matrix_left: float
    output_left: float
    tag_left: float
    piece_left: float
    position_left: float
    mark_left: float
    # Where the marks' room ends: their right end, and the air after marks that come last.
    marks_right: float
    # The late marks stand in the corridor, right-aligned at ``mark_left`` (see lay_across).
    marks_inside: bool = False


def mark_gap(spec: LookupSpec, scale: TypeScale) -> float:
    """Return the gap between an output row's number and its equality mark."""
    if not (spec.marks_last and spec.mark_chars):
        return SPACE
    return max(MARK_GAP, MARK_WORDS * char_advance(mark_font(spec, scale)))


def mark_font(spec: LookupSpec, scale: TypeScale) -> float:
    """Return the equality marks' font size (label-sized, or notes at the legend's size)."""
    return scale.legend if spec.mark_role == "legend" else scale.label


def _margin_width(spec: LookupSpec, sizes: GridSizes, body_w: float, problems: list[str]) -> float:
    """Return the left margin's width: row numbers, and the hidden ranges' labels.

    The labels may run over the row numbers or, with tight rows, stand in a
    column of their own left of them.
    """
    notes = [gap.label for gap in spec.window.col_gaps]
    gap_w, row_gap_w = margin_gap_width(spec.gap_labels.values(), notes, sizes, body_w, problems)
    numbers_w = char_advance(sizes.scale.index) * spec.row_label_chars  # E's row numbers
    if sizes.gaps_inside:
        # The labels are written across the table: it must be wide enough, the margin not.
        # A longer one runs left over the row numbers' column (a band has no row number).
        if gap_w > body_w - 2 * SPACE + numbers_w:
            problems.append("gap labels wider than the table")
        gap_w = 0.0
    margin_w = max(numbers_w, gap_w) + 1.5 * SPACE
    if sizes.gaps_apart:
        margin_w = max(margin_w, numbers_w + SPACE + row_gap_w + 1.5 * SPACE)
    if spec.counted:
        # The count rings each row round its swollen number: room for the ring's left side.
        margin_w = max(margin_w, count_reach(numbers_w) + numbers_w + 1.5 * SPACE)
    return margin_w


def marks_fit_inside(spec: LookupSpec, late: bool, mark_w: float, column_w: float) -> bool:
    """Whether late equality marks stand in the corridor, left of the rows they name.

    With the chips waiting over E (a lane), the corridor is empty once the last
    strip has landed: marks that fit there (a MARK_GAP either side) stand in it,
    and the blocks never glide left to make room for them past the row numbers
    (a 720p review of MiniLM's sentence: the block slid 14 % of the frame's
    width at 62 s, after the last lookup, for its marks). So too in a corridor as
    wide as a strip and its riding chip (``spec.clear_block``: LargeVocabLookup),
    where a marks' column right of the tags would cost the numbers 3.5 px at 720p.
    """
    room = column_w - spec.bar_width
    return late and (spec.lane or spec.clear_block) and mark_w + 2 * MARK_GAP <= room


def lay_across(spec: LookupSpec, sizes: GridSizes, mode: Mode, problems: list[str]) -> Across:
    """Lay the columns out across the frame, centred; note what does not fit."""
    scale = sizes.scale
    left, right, _, _ = frame()
    label = scale.label
    body_w = sum(s.size for s in col_slots(spec.window, sizes))
    margin_w = _margin_width(spec, sizes, body_w, problems)
    chip_w = max(chip_size(len(i), 0, label)[0] for i, _ in spec.chips)
    # The walking column holds a parked chip; the corridor, a strip (wider than any chip),
    # and, where nothing may cross the block (``spec.clear_block``), its chip riding beside it.
    lane_w = max(body_w, chip_w) if mode == "corridor" else chip_w
    if mode == "corridor" and spec.clear_block:
        lane_w = body_w + TAG_GAP + chip_w
    column_w = 2 * TAG_GAP + lane_w + spec.bar_width
    piece_w = max(char_advance(piece_font(scale)) * len(p) for _, p in spec.chips)
    position_w = char_advance(label) * spec.position_chars
    mark_w = char_advance(mark_font(spec, scale)) * spec.mark_chars
    # Right of the block: chip, piece, row number, mark; the chips' heading over them.
    heading_w = text_width(spec.chips_label, label, False)
    # The mark's gap counts after the row numbers; without them, a SPACE after the piece.
    gap = mark_gap(spec, scale) if position_w else SPACE
    air = spec.mark_air if spec.marks_last else 0.0
    mark_room = gap + mark_w + air if mark_w else 0.0
    # Chip, piece, row number: right after the chip a digit's column clear of it
    # (chips.number_gap: at a SPACE, ID and row number read as one number), else a SPACE.
    after = number_gap(label) if spec.wide_number_gap and not piece_w else SPACE
    row_w = chip_w + (SPACE + piece_w if piece_w else 0.0)
    row_w += after + position_w if position_w else 0.0
    tags_w = max(row_w + mark_room, heading_w)
    # Marks that come only in the last lookup beat, in the corridor arrangement, show once
    # the blocks rest together (the corridor closed): there they need the room, not while
    # the strips travel (the motion fades them in after the blocks close up).
    late = mode == "corridor" and spec.late_marks and bool(mark_w)
    travel_w = max(row_w, heading_w) if late else tags_w
    inside = marks_fit_inside(spec, late, mark_w, column_w)
    tags_w = travel_w if inside else tags_w  # nor where the blocks rest
    total_w = margin_w + 2 * body_w + column_w + TAG_GAP + travel_w
    rest_w = total_w - (lane_w - chip_w) + tags_w - travel_w
    if max(total_w, rest_w) > right - left:
        problems.append("too wide")
    # Headings must not reach into the walking column, nor over the chips' heading:
    # a long (translated) one is set smaller, down to the floor.
    floor = font_for_px(MIN_TEXT_PX)
    for text, room in ((spec.matrix_heading, margin_w + body_w), (spec.output_heading, body_w)):
        if label * room / text_width(text, label, mono=False) < floor:
            problems.append(f"heading {text!r} too wide")
    slack = right - left - total_w
    offset = max(0.0, slack / 2)
    if spec.marks_last and mark_w and not inside:
        # An empty column for most of the video would leave a wide strip empty: centre
        # what stands from the start, as far as the marks still fit.
        offset = max(0.0, min(slack, (slack + mark_room) / 2))
    matrix_left = left + offset + margin_w
    output_left = matrix_left + body_w + column_w
    tag_left = output_left + body_w + TAG_GAP
    piece_left = tag_left + chip_w + SPACE
    position_left = (piece_left + piece_w if piece_w else tag_left + chip_w) + after
    mark_left = position_left + (position_w + gap if position_w else 0.0)
    marks_right = mark_left + mark_w + air
    if inside:  # right-aligned a MARK_GAP short of the block
        mark_left = marks_right = output_left - MARK_GAP
    return Across(
        body_w=body_w,
        chip_w=chip_w,
        matrix_left=matrix_left,
        output_left=output_left,
        tag_left=tag_left,
        piece_left=piece_left,
        position_left=position_left,
        mark_left=mark_left,
        marks_right=marks_right,
        marks_inside=inside,
    )
