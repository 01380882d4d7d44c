"""The parameter-count layout's solver: the block of E, and the sums beside it.

Across the frame::

    row numbers | block E | walking column | count, memory, widths, the lookup | chip

The block is E's window (its first six rows and the looked-up row, a few
columns) as a grid whose hidden ranges of rows are thin bands with their
labels inside, as LargeVocabLookup draws them, however many rows they hide:
the frame's height goes to rows of numbers, not to an empty box. Under it,
the hidden columns' label.

The panel's sections (the count, the memory table, the table of widths) flow
down from the top; the lookup's line is level with the looked-up row, so
its strip goes straight out to the right into it, and no section crosses
that line or the two under it (the copy's size and the note).

That layout is the last beat's. Before it, the pieces shown rest where they
fill the frame (:func:`rest_places`; :mod:`embedviz.render.rests` moves
them): while the block is introduced and counted, it stands large at the
left with its heading, its sizes and the count in a column beside it; while
the memory table fills, E's column stands midway down the frame and the count
(on two lines) and the table's rows spread down the panel; with the widths
table, the sections spread apart. The lookup brings everything home.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

from embedviz.render.design import (
    APART,
    BOTTOM_GAP,
    JOINED_GAP,
    MAX_DATA_PX,
    SPACE,
    TOP_GAP,
    TypeScale,
    px_for_font,
)
from embedviz.render.frame_fit import Bands, frame_bands, solve_fit
from embedviz.render.metrics import char_advance, digit_height, text_width
from embedviz.render.parts.chips import chip_size
from embedviz.render.parts.grid import CLEAR_LABEL_DIGITS, GridSizes, Slot, col_slots
from embedviz.render.rest_fill import COLUMN_LIFTS, INTRO_ENDS, PANEL_ENDS, least_empty, spread
from embedviz.render.rests import Place
from embedviz.render.space import Box
from embedviz.story.model import Storyboard, Window

__all__ = ["SECTIONS", "ParamPlan", "ParamSpec", "rest_places", "solve_parameter_count"]

# The panel's sections, top to bottom: (name, header lines, data lines).
SECTIONS = (("count", 0, 1), ("memory", 1, 2), ("widths", 1, 3))
# Between the panel's columns, in label advances.
COLUMN_GAP_CHARS = 2.0
TAG_GAP = SPACE


@dataclass(frozen=True)
class ParamSpec:
    """What a parameter-count frame must hold, read from its storyboard.

    Attributes
    ----------
    window
        The block's rows and columns (the first rows and the looked-up one).
    token_id
        The looked-up ID.
    value_chars, row_label_chars
        The longest value and row number in the block.
    gap_counts
        How many rows each hidden range of rows hides.
    col_gap_label
        The hidden columns' label ("" for none).
    title, heading, sizes
        The title, the block's heading and its sizes line (widths matter).
    columns
        The panel's four columns: for each, the widest header (label size) and
        the widest entry (data size), in characters of each.
    count_chars, lookup_chars
        The count line's and the lookup's facts line's widths, in characters.
    note
        The lookup's note.
    id_chars
        The chip's ID, in characters.
    """

    window: Window
    token_id: int
    value_chars: int
    row_label_chars: int
    gap_counts: tuple[int, ...]
    col_gap_label: str
    title: str
    heading: str
    sizes: str
    columns: tuple[tuple[str, int], ...]
    count_chars: int
    lookup_chars: int
    note: str
    id_chars: int

    @classmethod
    def from_board(cls, board: Storyboard) -> ParamSpec:
        """Read what a parameter-count storyboard shows (every beat's cells and labels)."""
        cells = {(c.kind, c.index): c for beat in board.beats for c in beat.numbers}
        labels = {role: text for beat in board.beats for role, text in beat.labels.items()}

        def widest(*kinds: str) -> int:
            return max([len(c.text) for (k, _), c in cells.items() if k in kinds] or [0])

        window = board.beats[0].window
        word = board.word
        dtypes = [text for role, text in labels.items() if role.startswith("dtype_")]
        columns = (
            (
                max(word("dtype"), word("width"), key=len),
                max([*map(len, dtypes), 4 + widest("compare_dim")]),
            ),
            (max(word("bytes_each"), word("table_size"), key=len), widest("dtype_bytes") + 6),
            (
                max(word("total_bytes"), word("parameters"), key=len),
                widest("dtype_total", "compare_count"),
            ),
            (
                max(word("memory"), labels.get("compare_dtype", ""), key=len),
                widest("dtype_memory", "compare_memory"),
            ),
        )
        block = [cells[("block_size", (axis,))].text for axis in (0, 1)]
        return cls(
            window=window,
            token_id=board.single_id(),
            value_chars=widest("corner", "lookup_value"),
            row_label_chars=max(widest("row_label"), 1),
            gap_counts=tuple(g.last - g.first + 1 for g in window.row_gaps),
            col_gap_label=window.col_gaps[0].label if window.col_gaps else "",
            title=board.title,
            heading=word("embedding_matrix"),
            sizes=f"{block[0]} {word('rows')} \u00d7 {block[1]} {word('columns')}",
            columns=columns,
            count_chars=widest("factor") * 2 + widest("param_count") + 6 + len(word("parameters")),
            lookup_chars=widest("row_values")
            + widest("row_bytes")
            + len(word("values_copied"))
            + len(word("bytes"))
            + 3,
            note=word("no_arithmetic"),
            id_chars=widest("token_id"),
        )


@dataclass(frozen=True)
class ParamPlan:
    """Where everything of a parameter-count frame goes (scene units; y grows upwards).

    Attributes
    ----------
    scale, sizes, bands
        The type scale, the grid's slot sizes and the frame's bands.
    rows
        The block's row slots, top to bottom (hidden ranges as bands of their own height).
    matrix_left, matrix_top, body_width
        The block body's top-left corner and width.
    heading_y, sizes_y, col_gap_y
        The heading's and the sizes line's centre lines (over the block), and
        the hidden columns' label's (under it).
    panel_left, column_right
        The panel's left edge, and the right edges of its four columns.
    lines
        Each section's line centres, by name (its header first).
    lookup_y, strip_left, tag_left, facts_y, note_y
        The lookup's line (level with the looked-up row), where its strip
        lands and its chip waits, and the two lines under it.
    chip_width
        The chip's width.
    """

    scale: TypeScale
    sizes: GridSizes
    bands: Bands
    rows: tuple[Slot, ...]
    matrix_left: float
    matrix_top: float
    body_width: float
    heading_y: float
    sizes_y: float
    col_gap_y: float
    panel_left: float
    column_right: tuple[float, ...]
    lines: dict[str, tuple[float, ...]]
    lookup_y: float
    strip_left: float
    tag_left: float
    facts_y: float
    note_y: float
    chip_width: float

    def park_x(self) -> float:
        """Return the centre x of the chip waiting at the right end of its row."""
        return self.matrix_left + self.body_width + TAG_GAP + self.chip_width / 2

    def tag_x(self) -> float:
        """Return the centre x of the chip beside the copied row (its tag)."""
        return self.tag_left + self.chip_width / 2


@dataclass(frozen=True)
class _Down:
    """The vertical part of a layout."""

    rows: tuple[Slot, ...]
    matrix_top: float
    lookup_y: float
    lines: dict[str, tuple[float, ...]]


def _block_rows(spec: ParamSpec, row_h: float, band: float) -> list[Slot]:
    """Cut the block into rows and thin bands, one per hidden range, in the table's order.

    Every band is as thin as LargeVocabLookup's, however many rows it hides: a
    720p review found the tall band that GPT-2's hidden rows once shared the
    spare height in (585 x 308 px, a framed box round one dim label) an empty
    fifth of the frame, while the rows shown filled 15 % of it.
    """
    items = [(row, Slot(row, row_h)) for row in spec.window.rows]
    items += [(gap.first, Slot(n, band, True)) for n, gap in enumerate(spec.window.row_gaps)]
    return [slot for _, slot in sorted(items, key=lambda item: item[0])]


def _down(
    spec: ParamSpec, sizes: GridSizes, bands: Bands, heads: tuple[float, float], problems: list[str]
) -> _Down:
    """Lay the block and the panel's sections out from the top; note what does not fit."""
    scale, row_h = sizes.scale, sizes.row_height
    head_h, under_h = heads
    line_h = digit_height(scale.label) * 2.0
    top = bands.top - head_h
    # A band holds its label's ink (CLEAR_LABEL_DIGITS) and a little over half a SPACE
    # either side: the label keeps half a SPACE off the band's edges and off the
    # looked-up row's outline, which stays inside its row beside a band.
    band = digit_height(scale.note) * CLEAR_LABEL_DIGITS + 1.2 * SPACE
    slots = _block_rows(spec, row_h, band)
    depth = 0.0
    for slot in slots:
        if not slot.gap and slot.key == spec.token_id:
            lookup_y = top - depth - slot.size / 2
        depth += slot.size
    if top - depth - under_h < bands.bottom - 1e-9:
        problems.append("block too tall")
    # The copy's size and the note, a SPACE under the copy (a 720p review found the
    # facts 8 px under it, reading as part of it), and a SPACE under them.
    reserved = (lookup_y + row_h / 2 + SPACE, lookup_y - row_h / 2 - 2 * line_h - 2 * SPACE)
    if reserved[1] < bands.bottom - 1e-9:
        problems.append("no room under the lookup")
    cursor, lines = bands.top, {}
    for name, headers, rows in SECTIONS:
        height = headers * line_h + rows * row_h
        if cursor - height < reserved[0] and cursor > reserved[1]:
            cursor = min(cursor, reserved[1])
        ys = [cursor - (k + 0.5) * line_h for k in range(headers)]
        ys += [cursor - headers * line_h - (k + 0.5) * row_h for k in range(rows)]
        lines[name] = tuple(ys)
        cursor -= height + 2 * SPACE
    if cursor + 2 * SPACE < bands.bottom - 1e-9:
        problems.append("panel too tall")
    return _Down(tuple(slots), top, lookup_y, lines)


def _measure(spec: ParamSpec, data: float, pitch: float) -> tuple[ParamPlan, list[str]]:
    """Lay the frame out at one font size and row pitch; note what does not fit."""
    problems: list[str] = []
    scale = TypeScale.from_data(data)
    sizes = GridSizes(scale, spec.value_chars, pitch)
    bands = frame_bands(spec.title, scale, None, problems)
    label, note = scale.label, scale.note  # the hidden ranges' labels: sans, at note
    body_w = sum(s.size for s in col_slots(spec.window, sizes))
    chip_w = chip_size(spec.id_chars, 0, label)[0]
    margin_w = char_advance(label) * spec.row_label_chars + 1.5 * SPACE
    walk_w = chip_w + 2 * TAG_GAP
    gap = char_advance(label) * COLUMN_GAP_CHARS
    widths = [
        max(text_width(head, label, mono=False), char_advance(data) * chars)
        for head, chars in spec.columns
    ]
    symbol_w = char_advance(label) * (spec.id_chars + 5)
    panel_w = max(
        sum(widths) + gap * (len(widths) - 1),
        symbol_w + body_w + 2 * TAG_GAP + chip_w,
        char_advance(data) * spec.count_chars,
        char_advance(label) * spec.lookup_chars,
        text_width(spec.note, label, mono=False),
    )
    total_w = margin_w + body_w + walk_w + panel_w
    if total_w > bands.width:
        problems.append("too wide")
    over = max(text_width(t, label, mono=False) for t in (spec.heading, spec.sizes))
    if over > margin_w + body_w + walk_w:
        problems.append("heading too wide")
    left = bands.left + max(0.0, (bands.width - total_w) / 2) + margin_w
    heading_h = digit_height(label) * 1.6
    col_labels_h = digit_height(label) + 0.8 * SPACE
    head_h = 2 * heading_h + 2 * SPACE + col_labels_h
    under_h = digit_height(note) + 2 * SPACE if spec.col_gap_label else 0.0
    down = _down(spec, sizes, bands, (head_h, under_h), problems)
    panel_left = left + body_w + walk_w
    right, edges = panel_left, []
    for width in widths:
        right += width
        edges.append(right)
        right += gap
    strip_left = panel_left + symbol_w
    line_h = digit_height(label) * 2.0
    facts_y = down.lookup_y - sizes.row_height / 2 - SPACE - line_h / 2
    depth = sum(slot.size for slot in down.rows)
    plan = ParamPlan(
        scale=scale,
        sizes=sizes,
        bands=bands,
        rows=down.rows,
        matrix_left=left,
        matrix_top=down.matrix_top,
        body_width=body_w,
        heading_y=bands.top - heading_h / 2,
        sizes_y=bands.top - heading_h - SPACE - heading_h / 2,
        col_gap_y=down.matrix_top - depth - SPACE - digit_height(note) / 2,
        panel_left=panel_left,
        column_right=tuple(edges),
        lines=down.lines,
        lookup_y=down.lookup_y,
        strip_left=strip_left,
        tag_left=strip_left + body_w + TAG_GAP,
        facts_y=facts_y,
        note_y=facts_y - line_h,
        chip_width=chip_w,
    )
    return plan, problems


def solve_parameter_count(spec: ParamSpec) -> ParamPlan:
    """Return the plan with the largest table numbers at which everything fits.

    Parameters
    ----------
    spec
        What the frame holds.

    Returns
    -------
    ParamPlan
        The plan.
    """
    measure: Callable[[float, float], tuple[ParamPlan, list[str]]] = lambda font, pitch: (  # noqa: E731
        _measure(spec, font, pitch)
    )
    return solve_fit(measure)


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
