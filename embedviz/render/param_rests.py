"""Where ParameterCount's pieces rest at each beat's end, away from the solved layout.

The solver (:mod:`embedviz.render.solve_parameter_count`) lays out the last
beat's frame. Before it, the pieces shown rest where they fill the frame
(:mod:`embedviz.render.rests` moves them): while the block is introduced and
counted, it stands large at the left, at one size for both beats, with its
heading, its sizes and the count in a column beside it. Then E's column
recedes, once, as float32 starts, to the top left, and holds there to the
lookup (issue 18). What the dtype and compare beats add spreads down the room
right of and under E, grown as far as it allows; the memory table stands
where its whole fits from its first row on, and leaves as ``compare`` starts
(:mod:`embedviz.render.stages.parameter_count`): the table of widths takes the
panel. The lookup brings everything home, E large (the widths table leaves there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from embedviz.render.design import (
    APART,
    BOTTOM_GAP,
    JOINED_GAP,
    MAX_DATA_PX,
    SPACE,
    TOP_GAP,
    px_for_font,
)
from embedviz.render.param_labels import receded_labels
from embedviz.render.rest_fill import (
    INTRO_ENDS,
    PANEL_ENDS,
    first_full_enough,
    least_empty,
    rested_boxes,
    spread,
)
from embedviz.render.rests import Place
from embedviz.render.solve_parameter_count import ParamPlan
from embedviz.render.space import Box, largest_empty_rectangle

__all__ = ["rest_places"]


def _size(box: Box) -> tuple[float, float]:
    return box[2] - box[0], box[3] - box[1]


def _intro_places(
    boxes: Mapping[str, Box], plan: ParamPlan, end: float = 0.5, later: Box | None = None
) -> dict[str, Place]:
    """Return places for E large at the left, its heading, sizes and count in a column beside it.

    The hidden columns' label joins the column (under E it would take E's height);
    ``end`` weighs the gaps above and under the column (a full gap between is 1).
    ``later`` is the box of the count's wider half, which joins the column at the
    count beat: E is sized to leave it room from the first beat, so that it keeps
    one size while it is introduced and counted (issue 18: E changes size once).
    """
    bands = plan.bands
    block_w, block_h = _size(boxes["block"])
    names = ("heading", "rows", "columns", "hidden", "product", "count")
    column = [name for name in names if name in boxes]
    # The count, home at the panel's size, joins E's column at E's.
    ratio = {name: _e_to_panel(plan) if name in ("product", "count") else 1.0 for name in column}
    widest = max(_size(boxes[name])[0] * ratio[name] for name in column)
    beside = max(widest, _size(later)[0] * _e_to_panel(plan)) if later else widest
    largest = MAX_DATA_PX / px_for_font(plan.scale.data)
    scale = min(largest, bands.height / block_h, (bands.width - APART) / (block_w + beside))
    places = {
        "block": (scale, bands.left + block_w * scale / 2, (bands.top + bands.bottom) / 2),
    }
    left = bands.left + block_w * scale + APART
    middle = (left + bands.right) / 2
    # The column's lines as large as its width allows, but never larger than E's numbers.
    lines = min(scale, (bands.right - left) / widest)
    heights = [_size(boxes[name])[1] * lines * ratio[name] for name in column]
    # Half gaps (by default) above and under the column: E, as tall as its numbers allow, may end
    # short of the frame's height, and the column's ends then close the bands beside it.
    gaps = [end, *[1.0] * (len(column) - 1), end]
    for name, y in zip(column, spread(heights, bands.top, bands.bottom, gaps), strict=True):
        places[name] = (lines * ratio[name], middle, y)
    return places


def _e_to_panel(plan: ParamPlan) -> float:
    """Return E's numbers' size over the panel's (1 unless E stands receded home)."""
    return plan.scale.data / plan.panel.data


# The panel's pieces read together with the next: the count's two lines, a header's rows.
_JOINED = ("product", "memory_header", "widths_header")


def _panel_places(
    boxes: Mapping[str, Box],
    plan: ParamPlan,
    ends: tuple[float, float] = (TOP_GAP, BOTTOM_GAP),
    left: float | None = None,
    close: bool = False,
    under: float | None = None,
) -> dict[str, Place]:
    """Return places that spread the panel's shown pieces down its height, grown alike.

    ``ends`` weighs the gaps above and under them all; ``left`` is the panel's left
    edge (right of E's column home; the solved one by default); ``close`` joins the
    count to the memory table under it (a joined gap, not a full one). The pieces
    grow together, their numbers up to :data:`MAX_DATA_PX`, as far as the room right
    of ``left`` and the height (a SPACE at least between any two) allow: they are
    what the beat is about (a 720p review found the memory and widths tables at E's
    size beside it, their headers small, the frame under-used). ``under`` is the top of
    the room (the band's top by default): the count's line stands home over it.
    """
    bands = plan.bands
    left = plan.panel_left if left is None else left
    top = bands.top if under is None else under
    names = ("product", "count", "memory_header", "memory", "widths_header", "widths")
    order = [name for name in names if name in boxes]
    joined = (*_JOINED, "count") if close else _JOINED
    between = [JOINED_GAP if name in joined else 1.0 for name in order[:-1]]
    gaps = [ends[0], *between, ends[1]]
    widest = max(_size(boxes[name])[0] for name in order)
    tall = sum(_size(boxes[name])[1] for name in order)
    room = top - bands.bottom - SPACE * (len(order) + 1)
    largest = MAX_DATA_PX / px_for_font(plan.panel.data)
    grown = max(1.0, min(largest, (bands.right - left) / widest, room / tall))
    # A piece wider than the room (the count's line) shrinks to it, the others grow alike.
    scales = {name: min(grown, (bands.right - left) / _size(boxes[name])[0]) for name in order}
    heights = [_size(boxes[name])[1] * scales[name] for name in order]
    places = {}
    for name, y in zip(order, spread(heights, top, bands.bottom, gaps), strict=True):
        width = _size(boxes[name])[0] * scales[name]
        x = left + width / 2
        if name in ("product", "count"):
            x = (left + bands.right) / 2  # the count's lines stand in the middle
        places[name] = (scales[name], x, y)
    return places


# E's column: its heading, its sizes, its block and the hidden columns' label (home, as solved).
_COLUMN = ("heading", "rows", "columns", "block", "grid", "bands", "hidden")
# Its labels at the notes' size, which recede no further than :attr:`ParamPlan.notes`.
_NOTES = ("bands", "hidden")


def _column_home(boxes: Mapping[str, Box]) -> Box | None:
    """Return the box round E's column where it stands home (None when none of it is shown)."""
    shown = [boxes[name] for name in _COLUMN if name in boxes]
    if not shown:
        return None
    return (
        min(box[0] for box in shown),
        min(box[1] for box in shown),
        max(box[2] for box in shown),
        max(box[3] for box in shown),
    )


def _receded(boxes: Mapping[str, Box], plan: ParamPlan) -> tuple[dict[str, Place], Box | None]:
    """Return places for E's column receded while the tables stand, and its box there.

    The column scales by :attr:`ParamPlan.receded` about its top-left corner: its
    heading keeps the top left of the frame, and the room it leaves is the tables'. Its
    labels recede less (:func:`~embedviz.render.param_labels.receded_labels`): each row
    number keeps its right edge by the grid, each hidden range's label its centre, the
    hidden columns' label its right edge; the column moves right as far as its row
    numbers grow past its left edge.
    """
    column = _column_home(boxes)
    if column is None:
        return {}, None
    # About its top-left corner, its top where E's heading stands under the band's top
    # (home, E's column may stand lower: :attr:`ParamPlan.drop`).
    scale, left, home = plan.receded, column[0], column[3]
    top = home + plan.drop
    bands = [name for name in boxes if name.startswith("band:")]
    widest = max((boxes[name][2] - boxes[name][0] for name in bands), default=0.0)
    tallest = max((boxes[name][3] - boxes[name][1] for name in bands), default=0.0)
    notes, rows = receded_labels(plan, widest, tallest)

    def at(box: Box, grown: float, right: bool) -> Place:
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        y = top + (y - home) * scale
        if right:  # its right edge where the column's scale puts it
            return grown, left + (box[2] - left) * scale - (box[2] - box[0]) * grown / 2, y
        return grown, left + (x - left) * scale, y

    places: dict[str, Place] = {}
    for name in boxes:  # first: a label goes with its own piece, not with the grid's
        if name.startswith(("label:", "band:")):
            places[name] = at(boxes[name], *((rows, True) if name[0] == "l" else (notes, False)))
    for name in _COLUMN:
        if name in boxes:
            grown = max(scale, plan.notes)
            places[name] = (
                at(boxes[name], notes, True)
                if name == "hidden"
                else (at(boxes[name], grown if name in _NOTES else scale, False))
            )
    # Row numbers grown past the column's left edge: the column moves right by as much.
    out = max([left - (x - s * (boxes[n][2] - boxes[n][0]) / 2) for n, (s, x, _) in places.items()])
    shift = max(0.0, out)
    places = {name: (s, x + shift, y) for name, (s, x, y) in places.items()}
    moved = (left, top - (home - column[1]) * scale, left + (column[2] - left) * scale + shift, top)
    return places, moved


def _dtype_places(
    boxes: Mapping[str, Box],
    plan: ParamPlan,
    ends: tuple[float, float],
    full: Box | None = None,
    column: Box | None = None,
) -> dict[str, Place]:
    """Return places for the memory table across the frame under E's column and the count.

    E's column stands home at the top left, the count's two lines beside it; the
    memory table, what the dtype beats are about, spans the frame's width under
    them, its numbers up to :data:`MAX_DATA_PX`. Beside E (the panel's width, at
    E's size) its numbers stood at E's size and its grey headers small, the frame's
    lower band empty (a 720p review). ``ends`` weighs the gaps above and under the
    table. ``full`` is the box of all the table's rows, which the beats show one by
    one: the table keeps one size through them, and stands here only if it fits
    whole (else it glided across E to the panel when its next row came). Nothing
    when the table would stand smaller than at home. ``column`` is the box of E's
    column where it stands.
    """
    bands = plan.bands
    names = [name for name in ("memory_header", "memory") if name in boxes]
    if column is None or not names:
        return {}
    under = column[1]
    largest = MAX_DATA_PX / px_for_font(plan.panel.data)
    whole = [boxes[name] for name in names] + ([full] if full else [])
    widest = max(_size(box)[0] for box in whole)
    tall = _size(boxes[names[0]])[1] + _size(full or boxes[names[-1]])[1]
    gaps = [ends[0], JOINED_GAP, ends[1]][: len(names) + 1]
    room = under - bands.bottom - SPACE * 2 * sum(gaps)
    scale = min(largest, (bands.right - bands.left) / widest, room / tall)
    if scale < 1.0:
        return {}
    heights = [_size(boxes[name])[1] * scale for name in names]
    left = bands.right - widest * scale  # right-aligned: the count stands over its right
    places = {}
    centres = spread(heights, under, bands.bottom, gaps)
    for name, y in zip(names, centres, strict=True):
        box = boxes[name]
        places[name] = (scale, left + ((box[0] + box[2]) / 2 - plan.panel_left) * scale, y)
    # The count's two lines beside E's column, down to the table, as large as its numbers.
    count = [name for name in ("product", "count") if name in boxes]
    if count:
        start = column[2] + APART
        lines = min(scale, (bands.right - start) / max(_size(boxes[n])[0] for n in count))
        table = centres[0] + heights[0] / 2
        heights = [_size(boxes[name])[1] * lines for name in count]
        weights = [ends[0], *[1.0] * (len(count) - 1), 1.0]
        for name, y in zip(count, spread(heights, bands.top, table, weights), strict=True):
            places[name] = (lines, (start + bands.right) / 2, y)
    return places


def rest_places(
    action: str, boxes: Mapping[str, Box], plan: ParamPlan, band: tuple[float, float] | None = None
) -> dict[str, Place]:
    """Return where the pieces shown at the end of a beat rest, away from the solved layout.

    Parameters
    ----------
    action
        The beat's action: ``table`` and ``count`` (E large, with a column of
        its heading, its sizes and the count), ``dtype`` and ``compare`` (E's
        column home, the panel's shown pieces spread down its height); any
        other: every piece home.
    boxes
        The solved boxes of the pieces shown at the beat's end, by name:
        ``block`` (E's rows), ``heading``, ``rows`` and ``columns`` (the
        sizes' halves), ``hidden`` (the hidden columns' label), ``product``
        and ``count`` (the count's halves), ``line`` (the count as solved),
        ``memory_header`` and ``memory`` (its rows as far as shown; at the dtype
        beats its place is the whole table's, ``memory_all``: the piece is all of it),
        ``widths_header`` and ``widths``; and ``memory_all``, the box of all the
        memory table's rows (not a piece: it sizes the table while it fills), and
        ``count_all``, the box of the count's wider half (not a piece: it sizes E
        while it is introduced, before the count joins its column); ``memory_first``,
        its first row's box (the float32 beat's rows, judged with the bfloat16 beat's).
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
    boxes = dict(boxes)
    full = boxes.pop("memory_all", None)
    first = boxes.pop("memory_first", None)
    later = boxes.pop("count_all", None)
    if action in ("table", "count"):
        intro = [partial(_intro_places, boxes, plan, end, later) for end in INTRO_ENDS]
        return least_empty(boxes, band, intro)
    if action in ("dtype", "compare"):
        return _table_places(action, boxes, plan, band, full, first)
    return {}


def _rows_at(found: dict[str, Place], full: Box | None, rows: Box | None) -> dict[str, Place]:
    """Return places with the memory table's rows shown where the whole table's puts them.

    ``full`` is the whole table's rows' box (which the places were found for), ``rows``
    the box of the rows shown.
    """
    if "memory" not in found or full is None or rows is None:
        return found
    scale, x, y = found["memory"]
    dx = (rows[0] + rows[2] - full[0] - full[2]) / 2
    dy = (rows[1] + rows[3] - full[1] - full[3]) / 2
    return {**found, "memory": (scale, x + dx * scale, y + dy * scale)}


def _least_empty_all(
    states: Sequence[tuple[Mapping[str, Box], Box | None]],
    full: Box | None,
    band: tuple[float, float],
    candidates: Sequence[Callable[[], dict[str, Place]]],
) -> dict[str, Place]:
    """Return the places, for the whole memory table, that leave least empty in every state.

    As :func:`~embedviz.render.rest_fill.least_empty`, each candidate judged by its
    emptiest state: each dtype beat's end, with its memory rows (``states``: the pieces'
    boxes, and the rows'), so that one choice serves them all.
    """
    from manim import config

    width, height = float(config.frame_width), float(config.frame_height)
    region = (-width / 2, band[0], width / 2, band[1])
    scored = (
        (
            max(
                largest_empty_rectangle(
                    rested_boxes(boxes, _rows_at(places, full, rows)), region
                ).area
                for boxes, rows in states
            )
            / (width * height),
            places,
        )
        for places in (candidate() for candidate in candidates)
        if places
    )
    return first_full_enough(scored)


def _table_places(
    action: str,
    boxes: Mapping[str, Box],
    plan: ParamPlan,
    band: tuple[float, float],
    full: Box | None,
    first: Box | None = None,
) -> dict[str, Place]:
    """Return the places at a dtype or compare beat's end: E receded, the tables beside it.

    E's column recedes as float32 starts and holds to the lookup (:func:`_receded`); the
    panel grows into the room right of and under it. At the compare beat the count's line
    stands home, where it stays through the lookup as the frame's summary. At the dtype
    beats the pieces stand where the whole memory table puts them (``full``, its rows'
    box), so that its first row and the count keep their places as its second comes
    (issue 18: they moved up for it); ``first`` is its first row's box.
    """
    shown = boxes.get("memory")
    states = [({**boxes, "memory": rows}, rows) for rows in (first, full) if rows and shown]
    if full is not None and shown is not None:
        boxes = {**boxes, "memory": full}
    e, column = _receded(boxes, plan)
    left = plan.panel_left if column is None else min(plan.panel_left, column[2] + APART)
    under = None
    if "line" in boxes:
        under = boxes["line"][1] - SPACE

    def with_e(found: dict[str, Place]) -> dict[str, Place]:
        return {**e, **found} if found else {}

    def panel(ends: tuple[float, float], close: bool = False) -> dict[str, Place]:
        return with_e(_panel_places(boxes, plan, ends, left, close, under))

    tried = [partial(panel, ends) for ends in PANEL_ENDS]
    if action == "dtype":

        def across(ends: tuple[float, float]) -> dict[str, Place]:
            return with_e(_dtype_places(boxes, plan, ends, full, column))

        fits = [partial(across, ends) for ends in PANEL_ENDS]
        # The count closer to the memory table: with E receded, the panel beside it is
        # narrow, and the 256000 x 16384 table's full gap between them left 12.504 %
        # of the frame empty across it at float32's end.
        close = [partial(panel, ends, True) for ends in PANEL_ENDS]
        tried = [*(c for c in fits if c()), *tried, *close]
        if states:
            # For the whole table (its piece): its rows not yet shown stand in their places.
            return _least_empty_all(states, full, band, tried)
    return least_empty(boxes, band, tried)
