"""Hidden ranges' labels on two lines, for a margin that many of them would widen.

A lookup of a long sentence draws many looked-up rows of E, each with a
hidden range above it, and every range's label (``rows 102–1995 hidden``)
stands in the left margin: one line each, they took a sixth of the frame's
width and left the table's numbers small. Set on two lines (``rows
102–1995`` over ``hidden``) the same exact label takes about two thirds
of the width; it then needs the height of two lines, which the rows of such
a table have. The column gap's note then goes over the column numbers
(:attr:`~embedviz.render.parts.grid.GridSizes.gaps_wrapped`), out of the
margin. :func:`~embedviz.render.solver.solve_lookup` takes this arrangement
for many bands unless its numbers come out smaller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from manim import config

from embedviz.render.design import MIN_DATA_PX, font_for_px
from embedviz.render.metrics import digit_height, text_width
from embedviz.render.parts.grid import GridSizes
from embedviz.render.spec import LookupSpec

if TYPE_CHECKING:
    from embedviz.render.solver import LookupPlan

__all__ = [
    "GAP_LABEL_CLEARANCE_PX",
    "LINE_GAP_DIGITS",
    "NEAR_CLEARANCE_PX",
    "TEXT_INK_DIGITS",
    "gap_label_lines",
    "gap_labels_crowd",
    "line_gap",
    "margin_gap_width",
    "near_if_apart_misses",
    "wrapped_labels_collide",
]

# Clear space (pixels at 720p) a hidden range's label keeps from the row numbers above
# and below its band; closer, the two read as one text (a lecture-hall review read
# "rows 102-1009 not shown" over "1010", 6 px apart, as one column of text), so the
# labels take a column of their own. Where that column would take the numbers under
# their floor, the labels stay among the numbers while they keep NEAR_CLEARANCE_PX.
GAP_LABEL_CLEARANCE_PX = 8.0
NEAR_CLEARANCE_PX = 4.0
# A label's ink, in digit heights (an ascender reaches a little over a digit).
TEXT_INK_DIGITS = 1.15
# Between a two-line label's lines (their slot boxes), in the legend's digit heights.
LINE_GAP_DIGITS = 0.45


def gap_label_lines(text: str) -> list[str]:
    """Split a label at the space that leaves its longer line shortest (any language).

    ``rows 102–1995 hidden`` becomes ``rows 102–1995`` and ``hidden``;
    a label without a space stays whole.
    """
    cuts = [i for i, char in enumerate(text) if char == " "]
    if not cuts:
        return [text]
    cut = min(cuts, key=lambda i: (max(i, len(text) - i - 1), i))
    return [text[:cut], text[cut + 1 :]]


def _lines(sizes: GridSizes) -> int:
    return 2 if sizes.gaps_wrapped else 1


def _ink(sizes: GridSizes) -> float:
    """Return a hidden range's label's ink height: one line, or two and the gap between."""
    lines = _lines(sizes)
    return digit_height(sizes.scale.note) * (
        TEXT_INK_DIGITS * lines + LINE_GAP_DIGITS * (lines - 1)
    )


def _clearance(near: bool = False) -> float:
    px = NEAR_CLEARANCE_PX if near else GAP_LABEL_CLEARANCE_PX
    return px * float(config.frame_height) / 720


def gap_labels_crowd(sizes: GridSizes, near: bool = False) -> bool:
    """Whether a band's label, right-aligned with the row numbers, would crowd them.

    The label is centred on its thin band and the numbers on the rows either
    side: with tight rows their inks come within :data:`GAP_LABEL_CLEARANCE_PX`
    (``near``: :data:`NEAR_CLEARANCE_PX`) of each other, so the label goes
    into a column of its own.
    """
    room = (sizes.row_height + sizes.band_height) / 2
    inks = (TEXT_INK_DIGITS * digit_height(sizes.scale.index) + _ink(sizes)) / 2
    return room - inks < _clearance(near)


def wrapped_labels_collide(sizes: GridSizes) -> bool:
    """Whether two-line labels of bands one row apart would come too close to each other.

    Two labels of the same kind one over the other read apart at the nearer clearance.
    """
    room = sizes.row_height + sizes.band_height - _ink(sizes)
    return sizes.gaps_wrapped and room < _clearance(near=True)


def margin_gap_width(
    row_labels: Iterable[str],
    col_notes: Iterable[str],
    sizes: GridSizes,
    body_width: float,
    problems: list[str],
) -> tuple[float, float]:
    """Return the widths the hidden ranges' labels take in the margin: all, and the rows' alone.

    Two-line row labels take their longer line's width, and the columns' note
    goes over the column numbers (noted in ``problems`` if wider than the table).
    """
    note = sizes.scale.note

    def width(text: str) -> float:
        return text_width(text, note, mono=False)  # in sans (a GapLabel)

    if sizes.gaps_wrapped:
        rows = [line for text in row_labels for line in gap_label_lines(text)]
        row_w = max([width(t) for t in rows] or [0.0])
        if any(width(t) > body_width for t in col_notes):
            problems.append("column note wider than the table")
        return row_w, row_w
    row_w = max([width(t) for t in row_labels] or [0.0])
    col_w = max([width(t) for t in col_notes] or [0.0])
    return max(row_w, col_w), row_w


def line_gap(sizes: GridSizes) -> float:
    """Return the space between a two-line label's lines (their slot boxes)."""
    return digit_height(sizes.scale.note) * LINE_GAP_DIGITS


def near_if_apart_misses(solve: Callable[[LookupSpec], LookupPlan], spec: LookupSpec) -> LookupPlan:
    """Solve with the labels kept clear of the row numbers, or among them where that is better.

    The search keeps :data:`GAP_LABEL_CLEARANCE_PX` at every row pitch it
    tries, but the rows of its plan then grow into spare height: among the
    numbers (:attr:`~embedviz.render.spec.LookupSpec.gaps_near`) a plan with
    larger numbers wins where its grown rows keep the labels that clear
    anyway, or where the labels' own column takes the numbers under their floor.
    """
    plan = solve(spec)
    if not spec.gap_labels or spec.gaps_inside:
        return plan
    near = solve(replace(spec, gaps_near=True))
    if near.scale.data <= plan.scale.data:
        return plan
    if not gap_labels_crowd(near.sizes) or plan.scale.data < font_for_px(MIN_DATA_PX):
        return near
    return plan
