"""Where ParameterCount's pieces rest at each beat's end, away from the solved layout.

The solver (:mod:`embedviz.render.solve_parameter_count`) lays out the last
beat's frame. Before it, the pieces shown rest where they fill the frame
(:mod:`embedviz.render.rests` moves them): while the block is introduced and
counted, it stands large at the left with its heading, its sizes and the count
in a column beside it; while the memory table fills, E's column stands midway
down the frame and the count (on two lines) and the table's rows spread down
the panel; with the widths table, the sections spread apart. The lookup brings
everything home.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from embedviz.render.design import APART, BOTTOM_GAP, JOINED_GAP, MAX_DATA_PX, TOP_GAP, px_for_font
from embedviz.render.rest_fill import COLUMN_LIFTS, INTRO_ENDS, PANEL_ENDS, least_empty, spread
from embedviz.render.rests import Place
from embedviz.render.solve_parameter_count import ParamPlan
from embedviz.render.space import Box

__all__ = ["rest_places"]


def _size(box: Box) -> tuple[float, float]:
    return box[2] - box[0], box[3] - box[1]


def _intro_places(boxes: Mapping[str, Box], plan: ParamPlan, end: float = 0.5) -> dict[str, Place]:
    """Return places for E large at the left, its heading, sizes and count in a column beside it.

    The hidden columns' label joins the column (under E it would take E's height);
    ``end`` weighs the gaps above and under the column (a full gap between is 1).
    """
    bands = plan.bands
    block_w, block_h = _size(boxes["block"])
    names = ("heading", "rows", "columns", "hidden", "product", "count")
    column = [name for name in names if name in boxes]
    widest = max(_size(boxes[name])[0] for name in column)
    largest = MAX_DATA_PX / px_for_font(plan.scale.data)
    scale = min(largest, bands.height / block_h, (bands.width - APART) / (block_w + widest))
    places = {
        "block": (scale, bands.left + block_w * scale / 2, (bands.top + bands.bottom) / 2),
    }
    left = bands.left + block_w * scale + APART
    middle = (left + bands.right) / 2
    # The column's lines as large as its width allows, but never larger than E's numbers.
    lines = min(scale, (bands.right - left) / widest)
    heights = [_size(boxes[name])[1] * lines for name in column]
    # Half gaps (by default) above and under the column: E, as tall as its numbers allow, may end
    # short of the frame's height, and the column's ends then close the bands beside it.
    gaps = [end, *[1.0] * (len(column) - 1), end]
    for name, y in zip(column, spread(heights, bands.top, bands.bottom, gaps), strict=True):
        places[name] = (lines, middle, y)
    return places


# The panel's pieces read together with the next: the count's two lines, a header's rows.
_JOINED = ("product", "memory_header", "widths_header")


def _panel_places(
    boxes: Mapping[str, Box], plan: ParamPlan, ends: tuple[float, float] = (TOP_GAP, BOTTOM_GAP)
) -> dict[str, Place]:
    """Return places that spread the panel's shown pieces down its height (none larger).

    ``ends`` weighs the gaps above and under them all.
    """
    bands = plan.bands
    room = bands.right - plan.panel_left
    names = ("product", "count", "line", "memory_header", "memory", "widths_header", "widths")
    order = [name for name in names if name in boxes]
    # Nothing is drawn larger than E's numbers, which are home (as solved) here.
    scales = {name: min(1.0, room / _size(boxes[name])[0]) for name in order}
    heights = [_size(boxes[name])[1] * scales[name] for name in order]
    between = [JOINED_GAP if name in _JOINED else 1.0 for name in order[:-1]]
    gaps = [ends[0], *between, ends[1]]
    places = {}
    for name, y in zip(order, spread(heights, bands.top, bands.bottom, gaps), strict=True):
        width = _size(boxes[name])[0] * scales[name]
        x = plan.panel_left + width / 2
        if name in ("product", "count"):
            x = (plan.panel_left + bands.right) / 2  # the count's lines stand in the middle
        places[name] = (scales[name], x, y)
    return places


# E's column: its heading, its sizes, its block and the hidden columns' label (home, as solved).
_COLUMN = ("heading", "rows", "columns", "block", "hidden")


def _column_places(
    boxes: Mapping[str, Box], plan: ParamPlan, lift: float = 0.0
) -> dict[str, Place]:
    """Return places that stand E's column, as solved, midway down the frame's height.

    ``lift`` raises it by that share of the room above it (1: to the top, -1: to the bottom).

    Its thin bands leave the block shorter than the frame: solved at the top for
    the lookup (whose line is level with the looked-up row), it would leave a band
    under it across the frame while the panel spreads down its height (16.6 % of
    the frame at float32's end).
    """
    bands = plan.bands
    shown = [name for name in _COLUMN if name in boxes]
    if not shown:
        return {}
    top = max(boxes[name][3] for name in shown)
    bottom = min(boxes[name][1] for name in shown)
    slack = max(bands.top - bands.bottom - (top - bottom), 0.0) / 2
    shift = (bands.top + bands.bottom) / 2 - (top + bottom) / 2 + lift * slack
    places = {}
    for name in shown:
        left, low, right, high = boxes[name]
        places[name] = (1.0, (left + right) / 2, (low + high) / 2 + shift)
    return places


def rest_places(
    action: str, boxes: Mapping[str, Box], plan: ParamPlan, band: tuple[float, float] | None = None
) -> dict[str, Place]:
    """Return where the pieces shown at the end of a beat rest, away from the solved layout.

    Parameters
    ----------
    action
        The beat's action: ``table`` and ``count`` (E large, with a column of
        its heading, its sizes and the count), ``dtype`` and ``compare`` (the
        panel's shown pieces spread down its height); any other: every piece
        home.
    boxes
        The solved boxes of the pieces shown at the beat's end, by name:
        ``block`` (E's rows), ``heading``, ``rows`` and ``columns`` (the
        sizes' halves), ``hidden`` (the hidden columns' label), ``product``
        and ``count`` (the count's halves), ``line`` (the count as solved),
        ``memory_header`` and ``memory`` (its rows as far as shown),
        ``widths_header`` and ``widths``.
    plan
        The solved layout.
    band
        The bottom and top of the band where empty space counts (issue 18's: under
        the title, over two lines of caption); the plan's content band by default.

    Returns
    -------
    dict
        Each resting piece's scale and centre; a piece not named rests home.
    """
    # The usual gaps first; where they leave over an eighth of the frame empty (a small
    # table's short column), the candidate that leaves the least (:mod:`rest_fill`).
    band = band or (plan.bands.bottom, plan.bands.top)
    if action in ("table", "count"):
        intro = [partial(_intro_places, boxes, plan, end) for end in INTRO_ENDS]
        return least_empty(boxes, band, intro)
    if action in ("dtype", "compare"):

        def both(lift: float, ends: tuple[float, float]) -> dict[str, Place]:
            return _column_places(boxes, plan, lift) | _panel_places(boxes, plan, ends)

        tried = [partial(both, lift, ends) for lift in COLUMN_LIFTS for ends in PANEL_ENDS]
        return least_empty(boxes, band, tried)
    return {}
