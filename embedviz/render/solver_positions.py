"""The position layout's solver: token vectors + position vectors = sums, in two bands.

PositionBlindness opens as a lookup (placed by :func:`~embedviz.render.solver.solve_lookup`);
once the matrix has gone, its output rows become the token vectors ``E[id]``
and two tables join them. Three tables of ``T`` rows side by side would need
small numbers, so they stand in two bands, read as one equation::

    E[id] block | tags | positions |  +  | P block
    formula of P (or its size) |  =  | sum block | verdict (≠ different)

The sum block follows P's definition, so that no wide part of the band
stands empty. A learned ``P`` has no definition, only its size (``a learned
table 16 × 3``): that note stands under P's block, the table it describes,
and the sums' band is centred under the top band. :func:`solve_positions`
maximises the table font (up to :data:`~embedviz.render.design.MAX_DATA_PX`)
subject to both bands fitting across and everything fitting between the title
and the caption, then gives spare height to taller rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from embedviz.render.design import (
    CAPTION_FONT,
    MARGIN,
    OUTLINE_REACH,
    SPACE,
    TypeScale,
)
from embedviz.render.formula import formula_width
from embedviz.render.frame_fit import solve_largest
from embedviz.render.memo import per_frame
from embedviz.render.metrics import char_advance, digit_height, text_width
from embedviz.render.parts.chips import chip_size, number_gap
from embedviz.render.parts.clear_outline import clear_reach
from embedviz.render.parts.grid import GridSizes, col_slots
from embedviz.render.position_definition import (
    DEFINITION_GAP,
    GAP_LINE,
    definition_font,
    gap_line,
    note_beside_width,
    note_fit,
    position_column_width,
)
from embedviz.render.solver import CAPTION_CENTRE, TITLE_RATIO
from embedviz.render.solver_bands import TitlePlace, place_title
from embedviz.story.model import Storyboard, Window

__all__ = [
    "DEFINITION_GAP",
    "GAP_LINE",
    "NARROW_PAD",
    "VERDICT_CHARS",
    "VERDICT_EDGE",
    "PositionPlan",
    "PositionSpec",
    "definition_font",
    "heading_width",
    "note_beside_width",
    "position_column_width",
    "ring_clear",
    "sign_width",
    "solve_positions",
    "sum_labels_width",
]

# Typst sources of the three blocks' symbols, set after their words.
TOKEN_SYMBOL = 'E["id"]'
POSITION_SYMBOL = 'P["pos"]'
# A bracket joining two rows of the sum block, and the least space a sign takes.
BRACKET_WIDTH = 0.15
SIGN_CHARS = 2.2
# Between a row's outline (a ring) and a sign or a text beside it, in pixels at 720p: a
# 720p review found the rings 2-4 px from ``+`` and ``=``, which read as part of them.
RING_CLEAR_PX = 8.0
# The lookup layout keeps a mark column this many characters wide for a bracket and ``=``.
VERDICT_CHARS = 2
# How far a verdict's word (``= identical``, ``≠ different``) keeps from the frame's right
# edge: twice the margin. At the margin (18 px at 720p), a 720p review saw ``= identical``
# run to the frame's edge; ``≠ different`` stood 37 px off it.
VERDICT_EDGE = 2 * MARGIN
# Where beat ``same`` narrows the tables past their numbers' floor, the numbers keep the
# floor and their cells narrow on; each keeps at least this much of its cell free on
# either side (SPACE / 2: 5.4 px at 720p).
NARROW_PAD = SPACE / 2
# Between the sums and the caption's two lines: the lookup family's one SPACE over the
# caption band left the caption's ink 12 px under the sums' block (a 720p review).
CAPTION_AIR = 2 * SPACE


@dataclass(frozen=True)
class PositionSpec:
    """What the second arrangement must hold, read from a position storyboard.

    Attributes
    ----------
    window
        The drawn columns (the rows are the positions).
    count
        The number of positions ``T``.
    value_chars
        The longest value of the three blocks, in characters.
    id_chars, position_chars
        The longest ID (on a tag) and position number.
    headings
        The token, position and sum blocks' words.
    formulas
        The definition of a sinusoidal ``P``, one Typst line each (empty for a learned one).
    note
        For a learned ``P``: its word and its size, e.g. ``a learned table``, ``16 × 3``.
    gap
        For a learned ``P``: its hidden rows' label (``rows 4–15 hidden``), or empty.
    sum_note
        The note by the sums (``added unrounded, shown to 4 decimals``), or empty.
    verdict
        The word beside the ``≠`` that ends the scene.
    title
        The scene's title.
    legend_title, legend_depth
        The band legend's title (empty: none); how far under the frame's top the first
        arrangement's legend, which stays, reaches: the bands keep a ``SPACE`` under it.
    title_font
        The first arrangement's title size, which the title keeps (0: none).
    pe_numbers
        Whether P's position numbers must stand beside it (else dropped where there is no room).
    """

    window: Window
    count: int
    value_chars: int
    id_chars: int
    position_chars: int
    headings: tuple[str, str, str]
    formulas: tuple[str, ...]
    note: tuple[str, str]
    verdict: str
    title: str
    gap: str = ""
    sum_note: str = ""
    legend_title: str = ""
    title_font: float = 0.0
    legend_depth: float = 0.0
    pe_numbers: bool = False

    @classmethod
    def from_board(cls, board: Storyboard) -> PositionSpec:
        """Read what the second arrangement shows (every beat's cells and labels)."""
        cells = {(c.kind, c.index): c for beat in board.beats for c in beat.numbers}
        kinds = {"output", "sinusoid", "learned_position", "sum_sinusoid", "sum_learned"}

        def widest(*names: str) -> int:
            return max([len(c.text) for (k, _), c in cells.items() if k in names] or [1])

        sizes = sorted((i, c.text) for (k, i), c in cells.items() if k == "pe_size")
        return cls(
            window=board.beats[0].window,
            count=len([1 for (k, _) in cells if k == "position"]),
            value_chars=widest(*kinds),
            id_chars=widest("token_id"),
            position_chars=widest("position"),
            headings=(board.word("token_vector"), board.word("position_vector"), board.word("sum")),
            formulas=tuple(board.beats[-1].labels_with("formula_")),
            note=(board.word("learned_table"), " \u00d7 ".join(t for _, t in sizes))
            if sizes
            else ("", ""),
            verdict=board.word("different"),
            title=board.title,
            gap=board.beats[-1].labels.get("pe_gap", ""),
            sum_note=board.beats[-1].labels.get("sum_note", ""),
            # The numbers stay coloured by value: their key goes on standing.
            legend_title=board.word("value_colour") if any(k == "legend" for k, _ in cells) else "",
        )


@dataclass(frozen=True)
class PositionPlan:
    """Where the second arrangement goes (scene units; y grows upwards).

    Attributes
    ----------
    scale, sizes
        The type scale and the blocks' slot sizes.
    token_left, pe_left, sum_left
        The three bodies' left edges.
    top, sum_top
        The top band's bodies' top edge, and the sum block's.
    body_width, body_height
        Each body's size (the three show the same columns and ``T`` rows).
    tag_left, position_left
        Where the tags (the chips, now the rows' IDs) and the position numbers start.
    plus_x, equals_x
        The centres of ``+`` (between the top band's blocks) and ``=`` (left of the sums).
    heading_y, sum_heading_y
        The centre lines of the top band's headings and of the sum block's.
    col_label_y
        The centre line of P's column numbers.
    formula_left, formula_top, note_font
        Where P's definition starts (under E[id], left of the sums), or a learned
        P's size note (under P), and its font.
    verdict_left
        Where the bracket beside the sum block starts.
    sum_label_left
        Where the sums' position numbers start, right of their block (as E[id]'s).
    pe_label_left
        Where P's position numbers start, right of its block (0: none, no room).
    gap_inline
        Whether a learned P's hidden-rows label stands on its size note's line.
    note_beside
        Whether the sums' note stands beside the block, not on its heading's line
        (the band, moved to stand centred on it, freed that line: :mod:`.sum_note`).
    title_x, title_y, title_font
        The title.
    legend_x, legend_y, legend_stacked
        The colour legend's right edge and centre line, in the title band
        right of the title, and whether its title stands over its swatches.
    """

    scale: TypeScale
    sizes: GridSizes
    token_left: float
    pe_left: float
    sum_left: float
    top: float
    sum_top: float
    body_width: float
    body_height: float
    tag_left: float
    position_left: float
    plus_x: float
    equals_x: float
    heading_y: float
    sum_heading_y: float
    col_label_y: float
    formula_left: float
    formula_top: float
    note_font: float
    verdict_left: float
    title_x: float
    title_y: float
    title_font: float
    legend_x: float = 0.0
    legend_y: float = 0.0
    legend_stacked: bool = False
    sum_label_left: float = 0.0
    note_beside: bool = False
    pe_label_left: float = 0.0
    gap_inline: bool = False

    def row_y(self, top: float, row: int) -> float:
        """Return the centre line of row ``row`` of a body whose top is ``top``."""
        return top - (row + 0.5) * self.sizes.row_height


def _frame() -> tuple[float, float, float, float]:
    from manim import config

    half_w, half_h = float(config.frame_width) / 2, float(config.frame_height) / 2
    # Rows' outlines reach past the blocks' frames: their ink stays inside the margin too.
    edge = MARGIN + clear_reach()
    return -half_w + edge, half_w - edge, half_h - MARGIN, -half_h


def _beside() -> float:
    """Return the gap from a block's body to a tag or a bracket beside it.

    Their SPACE from the body, widened by as much as a row's outline reaches past
    :data:`~embedviz.render.design.OUTLINE_REACH` to stand clear of the block's frame
    (:mod:`~embedviz.render.parts.clear_outline`): they keep their room from its ink.
    """
    return SPACE + clear_reach() - OUTLINE_REACH


def ring_clear() -> float:
    """Return :data:`RING_CLEAR_PX` in scene units."""
    from manim import config

    return RING_CLEAR_PX * float(config.frame_height) / 720


def sign_width(data: float) -> float:
    """Return the width kept for ``+`` or ``=`` between two blocks at a data font.

    :data:`SIGN_CHARS` characters, or more where the sign (centred in it) would
    stand under :func:`ring_clear` from a ring round the next block's row,
    whose ink reaches :func:`~embedviz.render.parts.clear_outline.clear_reach`
    past the body.
    """
    sign = max(formula_width("+", data), formula_width("=", data))
    return max(char_advance(data) * SIGN_CHARS, sign + 2 * (clear_reach() + ring_clear()))


def heading_width(word: str, symbol: str, font: float) -> float:
    """Return the width of a heading: its words, then its symbol as maths."""
    width = text_width(word, font, mono=False)
    return width + (SPACE * 1.5 + formula_width(symbol, font) if symbol else 0.0)


def sum_labels_width(label: float, chars: int) -> float:
    """Return the width the sums' position numbers take right of their block, gap included.

    Issue 18 (a 720p review): the sum rows had no position numbers, so a viewer could
    not tell which position a sum was; they stand as E[id]'s do, right of the rows.
    """
    return _beside() + char_advance(label) * chars


def _verdict_width(word: str, label: float) -> float:
    """Return the width of the closing verdict (bracket, ``≠`` and its word) past the body."""
    sign = SPACE * 2 + _beside() + BRACKET_WIDTH + char_advance(label) * 1.5
    return sign + text_width(word, label, mono=False)


def _centred_sums(
    spec: PositionSpec, note: float, room: float, sign: float, verdict: float, labels: float
) -> float:
    """Return where a learned P's sums start: their band centred under the top band.

    Nothing stands left of ``=`` then: the band (``=``, the block, and the verdict or
    the sums' note beside it, on two lines as :mod:`~embedviz.render.parts.sum_note`
    sets it) is centred in ``room`` (the top band's width less the block's). At P's
    definition's place it left the frame under E[id] empty (a 720p review: the
    lower-left quarter).
    """
    beside = verdict
    if spec.sum_note:
        beside = max(beside, labels + 2 * SPACE + note_beside_width(spec.sum_note, note))
    return max(sign, (room - sign - beside) / 2 + sign)


def _title_band(
    spec: PositionSpec, scale: TypeScale, safe: tuple[float, float], problems: list[str]
) -> TitlePlace:
    """Place the title, and a legend of its own in its band at the right (``place_title``).

    No larger than the first arrangement's title: one scene, one title size (a review
    found it grow from 24.3 to 26.2 px at ``arrange``, the sums' numbers being larger).
    """
    font = min(scale.data, scale.label * TITLE_RATIO, spec.title_font or math.inf)
    return place_title(spec.title, spec.legend_title or None, scale, font, safe, problems)


def _pe_heading(spec: PositionSpec, label: float, room: float, problems: list[str]) -> float:
    """Return P's heading's width; note E[id]'s if it reaches past ``room`` (over ``+``).

    A heading may reach over the tags (E[id]'s) or past its block (P's).
    """
    if heading_width(spec.headings[0], TOKEN_SYMBOL, label) > room:
        problems.append(f"heading {spec.headings[0]!r} too wide")
    return heading_width(spec.headings[1], POSITION_SYMBOL, label)


def _sums_widths(spec: PositionSpec, label: float) -> tuple[float, float]:
    """Return the width of the sums' position numbers, and the closing verdict's with them."""
    labels_w = sum_labels_width(label, spec.position_chars)
    return labels_w, _verdict_width(spec.verdict, label) + labels_w


def _pe_numbers_width(
    spec: PositionSpec, label: float, top_w: float, span: float, problems: list[str]
) -> float:
    """Return P's position numbers' width right of its block (0 where ``span`` has no room).

    Two tokens' top band has none: its numbers are as large as P's definition needs.
    """
    width = _beside() + position_column_width(label, spec.position_chars)
    if spec.pe_numbers and top_w + width > span:
        problems.append("no room for P's position numbers")
    return width if top_w + width <= span else 0.0


def _heights(spec: PositionSpec, label: float, note: float, inline: bool) -> tuple[float, ...]:
    """Return the heights of a heading, P's column numbers and a learned P's gap label."""
    digit = digit_height(label)
    columns = digit + 0.4 * SPACE + ring_clear() + clear_reach()
    return digit * 1.6, columns, gap_line(spec, note, inline)


def _measure(spec: PositionSpec, data: float, pitch: float) -> tuple[PositionPlan, list[str]]:
    """Lay out at one font size and pitch; return the plan and what does not fit."""
    problems: list[str] = []
    scale = TypeScale.from_data(data)
    sizes = GridSizes(scale, spec.value_chars, pitch)
    left, right, top, bottom = _frame()
    label, span = scale.label, right - left
    body_w = sum(slot.size for slot in col_slots(spec.window, sizes))
    body_h = spec.count * sizes.row_height
    chip_w = chip_size(spec.id_chars, 0, label)[0]
    sign_w = sign_width(scale.data)
    # The row number a digit's column clear of its chip (chips.number_gap), as in the lookup.
    tags_w = _beside() + chip_w + number_gap(label) + char_advance(label) * spec.position_chars
    top_w = body_w + tags_w + sign_w + body_w
    labels_w, verdict_w = _sums_widths(spec, label)
    # A sinusoid's definition is read as a label; a learned P's size note is a note.
    note_font = definition_font(label) if spec.formulas else scale.note
    # The sums right after P's definition; a learned P's size note stands under P itself
    # (under E[id] it read as E's), its sums centred under the top band (_centred_sums).
    pe_left = body_w + tags_w + sign_w
    numbers_w = _pe_numbers_width(spec, label, top_w, span, problems)
    note_w, note_h, inline = note_fit(spec, note_font, body_w + numbers_w)
    centred = _centred_sums(spec, scale.note, top_w - body_w, sign_w, verdict_w, labels_w)
    sum_left = note_w + SPACE + sign_w if spec.formulas else centred
    note_left = 0.0 if spec.formulas else pe_left
    if note_left and sum_left + text_width(spec.headings[2], label, mono=False) + SPACE > pe_left:
        problems.append("the size note of P meets the sum's heading")
    pe_heading = _pe_heading(spec, label, pe_left - sign_w / 2, problems)
    width = max(top_w + numbers_w, pe_left + pe_heading, note_left + note_w)
    width = max(width, sum_left + body_w + verdict_w)
    if width > span:
        problems.append("too wide")
    title_font, title_x, band_h, stacked = _title_band(spec, scale, (left, right), problems)
    heading_h, col_labels_h, gap_h = _heights(spec, label, note_font, inline)
    needed = 2 * (heading_h + SPACE + body_h) + col_labels_h + 2 * SPACE + gap_h
    caption_top = bottom + CAPTION_CENTRE + digit_height(CAPTION_FONT) * 2.1
    head = max(band_h, spec.legend_depth)  # the first arrangement's legend stays over E[id]
    room = top - head - SPACE - (caption_top + CAPTION_AIR)
    if needed > room:
        problems.append("too tall")
    if note_h > body_h + heading_h:
        problems.append("the definition of P is too tall")
    offset = left + max(0.0, (right - left - width) / 2)
    body_top = top - head - 2 * SPACE - max(0.0, room - needed) / 2 - heading_h - col_labels_h
    sum_top = body_top - body_h - 2 * SPACE - heading_h - SPACE - gap_h
    sum_x = offset + sum_left
    return (
        PositionPlan(
            scale=scale,
            sizes=sizes,
            token_left=offset,
            pe_left=offset + pe_left,
            sum_left=sum_x,
            top=body_top,
            sum_top=sum_top,
            body_width=body_w,
            body_height=body_h,
            tag_left=offset + body_w + _beside(),
            position_left=offset + body_w + _beside() + chip_w + number_gap(label),
            plus_x=offset + pe_left - sign_w / 2,
            equals_x=sum_x - sign_w / 2,
            heading_y=body_top + col_labels_h + SPACE + heading_h / 2,
            sum_heading_y=sum_top + SPACE + heading_h / 2,
            col_label_y=body_top + clear_reach() + ring_clear() + digit_height(label) / 2,
            formula_left=offset + note_left,
            formula_top=sum_top + SPACE + heading_h + gap_h,
            note_font=note_font,
            verdict_left=sum_x + body_w + labels_w + _beside(),
            title_x=title_x,
            title_y=top - band_h / 2,
            title_font=title_font,
            legend_x=right,
            legend_y=top - band_h / 2,
            legend_stacked=stacked,
            sum_label_left=sum_x + body_w + _beside(),
            pe_label_left=offset + pe_left + body_w + _beside() if numbers_w else 0.0,
            gap_inline=inline,
        ),
        problems,
    )


@per_frame
def solve_positions(spec: PositionSpec) -> PositionPlan:
    """Return the plan with the largest table numbers at which both bands fit.

    Every pitch of :data:`~embedviz.render.solver.PITCHES` is tried; the
    largest font wins (the looser pitch on a tie), then spare height grows
    the rows up to :data:`~embedviz.render.solver.MAX_PITCH`.

    Parameters
    ----------
    spec
        What the arrangement holds.

    Returns
    -------
    PositionPlan
        The plan; the smallest one when nothing fits (the moment tests then
        report what is too small).
    """
    return solve_largest(lambda font, pitch: _measure(spec, font, pitch))
