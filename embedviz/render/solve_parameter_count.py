"""The parameter-count layout's solver: the block of E, and the sums beside it.

Across the frame::

    row numbers | block E | walking column | count, memory, widths, the lookup | chip

The block is E's window (its first six rows and the looked-up row, a few
columns) as a grid whose hidden ranges of rows are thin bands with their
labels inside, as LargeVocabLookup draws them, however many rows they hide:
the frame's height goes to rows of numbers, not to an empty box. Under it,
the hidden columns' label.

The panel's sections (the count, the memory table, the table of widths) flow
down from the top; the lookup's line is level with the looked-up row, so its strip
goes straight out into it, and no section crosses it or the copy's size and note.

That layout is the lookup's: the memory and widths tables leave as it starts
(issue 18), so E stands in it large, with its copied row. From float32 to compare E
recedes beside the tables (:func:`receded_scale`); before it, the pieces shown rest
where they fill the frame (:func:`embedviz.render.param_rests.rest_places`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from embedviz.render.design import (
    LABEL_RATIO,
    MIN_DATA_PX,
    MIN_DEFAULT_DATA_PX,
    MIN_TEXT_PX,
    SPACE,
    TypeScale,
    px_for_font,
)
from embedviz.render.formula import formula_width
from embedviz.render.frame_fit import Bands, frame_bands, solve_fit
from embedviz.render.memo import per_frame
from embedviz.render.metrics import char_advance, digit_height, text_width
from embedviz.render.parts.chips import chip_size
from embedviz.render.parts.grid import CLEAR_LABEL_DIGITS, GridSizes, Slot, col_slots
from embedviz.render.solve_param_lookup import (
    COLUMN_GAP_CHARS,
    lookup_extras,
    receded_scale,
    summary_width,
    tables_fit,
)
from embedviz.story.model import Storyboard, Window

__all__ = [
    "COLUMN_GAP_CHARS",
    "SECTIONS",
    "SYMBOL_GAP",
    "Column",
    "ParamPlan",
    "ParamSpec",
    "solve_parameter_count",
]

# The panel's sections, top to bottom: (name, header lines, data lines).
SECTIONS = (("count", 0, 1), ("memory", 1, 2), ("widths", 1, 3))
TAG_GAP = SPACE
# Kept clear inside the safe area's right edge: the memory column's "147.2 MiB" ended on
# it, its ink 20 px from the frame's edge at 720p (a 720p review); with it, about 42 px.
# Not where it would cost the numbers a floor (a toy table's 24 px): see solve_parameter_count.
EDGE_AIR = 2 * SPACE
# Between a column's symbol ("d =") and its number, in the numbers' advances.
SYMBOL_GAP = 0.5


@dataclass(frozen=True)
class Column:
    """What one of the panel's columns holds, for its width.

    Attributes
    ----------
    words
        Its header words (sans, label size).
    labels
        Its monospace labels (label size): the dtypes' names.
    data_chars
        Its widest number, in the numbers' advances.
    symbol
        The maths symbol set at label size before its numbers ("d ="; "" for
        none), :data:`SYMBOL_GAP` before them.
    """

    words: tuple[str, ...]
    labels: tuple[str, ...]
    data_chars: int
    symbol: str = ""

    def width(self, scale: TypeScale) -> float:
        """Return the column's width at a type scale: its widest header, label or entry."""
        label, data = scale.label, scale.data
        entry = char_advance(data) * self.data_chars
        if self.symbol:
            entry += formula_width(self.symbol, label) + char_advance(data) * SYMBOL_GAP
        return max(
            entry,
            *(text_width(word, label, mono=False) for word in self.words),
            *(text_width(text, label) for text in self.labels),
        )


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
        The panel's four columns: what each holds (:class:`Column`).
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
    columns: tuple[Column, ...]
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
        compare = (labels["compare_dtype"],) if "compare_dtype" in labels else ()
        totals = widest("dtype_total", "compare_count")
        columns = (
            Column((word("dtype"), word("width")), tuple(dtypes), widest("compare_dim"), "d ="),
            Column((word("bytes_each"), word("table_size")), (), widest("dtype_bytes") + 6),
            Column((word("total_bytes"), word("parameters")), (), totals),
            Column((word("memory"), *compare), (), widest("dtype_memory", "compare_memory")),
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
    panel
        The panel's type scale (the count, the tables, the copy's size and the note).
    summary_y
        The centre line of the table's memory, which stays with the count's line as the
        tables leave (the lookup): midway between that line and the copy where the copy
        stands under it, else a line under it.
    notes
        The least scale of E's labels at the notes' size (its hidden ranges') where it
        recedes: the type scale's minimum, :data:`~embedviz.render.design.MIN_TEXT_PX`.
    drop
        How far E's column stands under the band's top (in the middle of the height).
    receded
        E's scale about its column's top-left corner while the memory and widths
        tables stand beside it (beats ``dtype`` and ``compare``; :func:`receded_scale`).
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
    panel: TypeScale
    summary_y: float = 0.0
    receded: float = 1.0
    drop: float = 0.0
    notes: float = 1.0

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
    drop: float = 0.0


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


# The copy's size's line, in its digits' heights: as tall as a label's line (two label
# digits), so setting it as data costs the frame no height.
FACTS_PITCH = 2.0 * LABEL_RATIO


def _facts_depth(scale: TypeScale) -> float:
    """Return the depth under the copied row: a SPACE, the copy's size, the note, a SPACE.

    The copy's size is set as data (its numbers are the frame's data: a 720p review
    read the final frame's 17 px facts as dense small type beside 21 px captions).
    """
    return digit_height(scale.data) * FACTS_PITCH + digit_height(scale.label) * 2.0 + 2 * SPACE


def _down(
    spec: ParamSpec,
    sizes: GridSizes,
    bands: Bands,
    heads: tuple[float, float],
    panel: TypeScale,
    problems: list[str],
    tables: bool = True,
) -> _Down:
    """Lay the block and the panel's sections (at ``panel``) out from the top; note misfits.

    Without ``tables`` the memory and widths tables are laid out but not fitted: they
    stand elsewhere (:mod:`embedviz.render.param_rests`) and leave before the lookup.
    """
    scale, row_h = sizes.scale, sizes.row_height
    head_h, under_h = heads
    line_h = digit_height(panel.label) * 2.0
    line_pitch = row_h * panel.data / scale.data
    top = bands.top - head_h
    # A band holds its label's ink (CLEAR_LABEL_DIGITS) and a little over half a SPACE
    # either side: the label keeps half a SPACE off the band's edges and off the
    # looked-up row's outline, which stays inside its row beside a band; so too where E
    # recedes (:func:`receded_scale`), to its numbers' floor at the least.
    px = px_for_font(scale.data)
    recede = max(1.0, px / (MIN_DEFAULT_DATA_PX if px >= MIN_DEFAULT_DATA_PX else MIN_DATA_PX))
    band = digit_height(scale.note) * CLEAR_LABEL_DIGITS + 1.2 * SPACE * recede
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
    reserved = (lookup_y + row_h / 2 + SPACE, lookup_y - row_h / 2 - _facts_depth(panel))
    if reserved[1] < bands.bottom - 1e-9:
        problems.append("no room under the lookup")
    cursor, lines = bands.top, {}
    for name, headers, rows in SECTIONS:
        height = headers * line_h + rows * line_pitch
        if cursor - height < reserved[0] and cursor > reserved[1]:
            cursor = min(cursor, reserved[1])
        ys = [cursor - (k + 0.5) * line_h for k in range(headers)]
        ys += [cursor - headers * line_h - (k + 0.5) * line_pitch for k in range(rows)]
        lines[name] = tuple(ys)
        cursor -= height + 2 * SPACE
    if tables and cursor + 2 * SPACE < bands.bottom - 1e-9:
        problems.append("panel too tall")
    # E's column stands a quarter of the height it leaves under the band's top (the copy's
    # facts still over the band's bottom): at the lookup, the tables gone, a 6 x 3 block
    # left the band under it empty across the frame (15.4 %); halving it left 14.3 % over
    # it. Only under the count's line at the top.
    room = reserved[1] - bands.bottom
    drop = max(0.0, min((top - depth - under_h - bands.bottom) / 4, room))
    if lines["count"][0] < reserved[1]:
        drop = 0.0
    return _Down(tuple(slots), top - drop, lookup_y - drop, lines, drop)


def _panel_width(spec: ParamSpec, panel: TypeScale, tables_w: float, strip_w: float) -> float:
    """Return the panel's width: its widest piece (tables, copied strip, lines, summary)."""
    return max(
        tables_w,
        strip_w,
        char_advance(panel.data) * spec.count_chars,
        char_advance(panel.data) * spec.lookup_chars,
        text_width(spec.note, panel.label, mono=False),
        summary_width(
            spec.columns[0].labels, spec.columns[3].words[0], spec.columns[3].data_chars, panel
        ),
    )


def _measure(
    spec: ParamSpec,
    data: float,
    pitch: float,
    air: float = EDGE_AIR,
    panel_data: float = 0.0,
    tables: bool = True,
) -> tuple[ParamPlan, list[str]]:
    """Lay the frame out at one font size and row pitch, ``air`` clear of the right edge.

    The panel is set at ``panel_data`` where given (E's size by default). Without
    ``tables``, the memory and widths tables do not size the frame (:func:`_down`).
    """
    problems: list[str] = []
    scale = TypeScale.from_data(data)
    panel = TypeScale.from_data(panel_data or data)
    sizes = GridSizes(scale, spec.value_chars, pitch)
    bands = frame_bands(spec.title, scale, None, problems)
    bands = replace(bands, right=bands.right - air)
    label, note = scale.label, scale.note  # the hidden ranges' labels: sans, at note
    body_w = sum(s.size for s in col_slots(spec.window, sizes))
    chip_w = chip_size(spec.id_chars, 0, label)[0]
    margin_w = char_advance(scale.index) * spec.row_label_chars + 1.5 * SPACE  # E's row numbers
    walk_w = chip_w + 2 * TAG_GAP
    gap = char_advance(panel.label) * COLUMN_GAP_CHARS
    widths = [column.width(panel) for column in spec.columns]
    symbol_w = char_advance(label) * (spec.id_chars + 5)
    tables_w = sum(widths) + gap * (len(widths) - 1) if tables else 0.0
    panel_w = _panel_width(spec, panel, tables_w, symbol_w + body_w + 2 * TAG_GAP + chip_w)
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
    down = _down(spec, sizes, bands, (head_h, under_h), panel, problems, tables)
    panel_left = left + body_w + walk_w
    right, edges = panel_left, []
    for width in widths:
        right += width
        edges.append(right)
        right += gap
    strip_left = panel_left + symbol_w
    line_h = digit_height(panel.label) * 2.0
    facts_h = digit_height(panel.data) * FACTS_PITCH
    depth = sum(slot.size for slot in down.rows)
    summary_y, facts_y, note_y = lookup_extras(
        (down.lines["count"][0], down.lookup_y, sizes.row_height), (facts_h, line_h), bands.bottom
    )
    plan = ParamPlan(
        scale=scale,
        sizes=sizes,
        bands=bands,
        rows=down.rows,
        matrix_left=left,
        matrix_top=down.matrix_top,
        body_width=body_w,
        heading_y=bands.top - down.drop - heading_h / 2,
        sizes_y=bands.top - down.drop - heading_h - SPACE - heading_h / 2,
        col_gap_y=down.matrix_top - depth - SPACE - digit_height(note) / 2,
        panel_left=panel_left,
        column_right=tuple(edges),
        lines=down.lines,
        lookup_y=down.lookup_y,
        strip_left=strip_left,
        tag_left=strip_left + body_w + TAG_GAP,
        facts_y=facts_y,
        note_y=note_y,
        chip_width=chip_w,
        panel=panel,
        summary_y=summary_y,
        drop=down.drop,
    )
    return plan, problems


@per_frame
def solve_parameter_count(spec: ParamSpec) -> ParamPlan:
    """Return the lookup's plan with the largest table numbers at which everything fits.

    The lookup's frame holds E, the count's line, the copied row and its facts: the
    memory and widths tables leave as it starts (issue 18: a 720p review found E a
    thumbnail beside two tables in the closing frame), so they do not size it. Everything
    keeps :data:`EDGE_AIR` clear of the safe area's right edge, unless that costs the
    table's numbers a floor they reach without it.

    Parameters
    ----------
    spec
        What the frame holds.

    Returns
    -------
    ParamPlan
        The plan, with E's scale while the tables stand beside it (:func:`receded_scale`).
    """
    plan = _solve(spec, tables=False)
    if not tables_fit(spec, plan):
        # Beside E receded, the tables would stand smaller than the panel (a toy's E,
        # at its 24 px floor, hardly recedes): their width sizes the frame too.
        plan = _solve(spec, tables=True)
    return plan


def _solve(spec: ParamSpec, tables: bool) -> ParamPlan:
    """Return the largest plan that fits, with or without the tables sizing the frame."""
    airs = (EDGE_AIR, 0.0)
    plans = [solve_fit(partial(_measure, spec, air=air, tables=tables)) for air in airs]
    # The air, unless it costs the numbers a floor they reach without it (a toy's 24 px).
    aired, full = (px_for_font(plan.scale.data) for plan in plans)
    floors = (MIN_DEFAULT_DATA_PX, MIN_DATA_PX)
    chosen = 1 if any(aired < floor <= full for floor in floors) else 0
    # The hidden ranges' labels recede no further than the type scale's minimum.
    notes = min(1.0, MIN_TEXT_PX / px_for_font(plans[chosen].scale.note) * 1.005)
    return replace(plans[chosen], receded=receded_scale(plans[chosen]), notes=notes)
