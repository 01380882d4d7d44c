"""The zero-based layout's solver: the matrix, the counts beside it, the slip and the trace.

Across the frame::

    counts | row numbers | matrix E | walking column | slip and trace | chip

The one-based tallies (``1, 2, 3``), and then the ordinal (``4th``), stand
left of the zero-based row numbers, so the two counts read side by side,
:data:`~embedviz.render.design.COLUMNS_APART` from them (closer, ``1 0``
read as 10 on a projector). The
chip waits right of the panel, level with the row its ID selects, and walks
to the rows through the walking column. Every row that moves goes straight
out to the right at its own height: the slip's wrong vector lands level with
the row it came from, the returned vector level with the ID's row (the chip
stays beside it as its tag), and every line of text in the panel sits above
those two rows, so no strip ever crosses a text. The colour legend stands at
the panel's right under the returned vector (right of the check line, its
title over its swatches, a group apart from the check), where the panel's
lower half would otherwise stand empty.
"""

from __future__ import annotations

from dataclasses import dataclass

from embedviz.render.design import APART, COLUMNS_APART, SPACE, TypeScale
from embedviz.render.frame_fit import Bands, frame_bands, solve_fit
from embedviz.render.memo import per_frame
from embedviz.render.metrics import char_advance, digit_height, text_width
from embedviz.render.parts.chips import chip_size
from embedviz.render.parts.grid import GridSizes, col_slots, row_slots
from embedviz.render.solver_bands import band_legend_height
from embedviz.story.model import Storyboard, Window

__all__ = [
    "CROSS_WIDTH",
    "PANEL_LINES",
    "SLIP_LINES",
    "ZeroPlan",
    "ZeroSpec",
    "solve_zero_based",
]

# Lines of text the panel stacks above the ID's row: the slip's header and its
# line, the trace's heading, its two steps and the returned vector's label.
PANEL_LINES = 6
# The first of them are the slip's (header and line); :data:`APART` stands between them
# and the trace's heading: a line's pitch apart, the struck-out slip crowded the heading
# under it from the trace beat to the last frame (a 720p review), read as one block.
SLIP_LINES = 2
# A panel line's height, in label digit heights.
LINE_DIGITS = 2.0
# Between the chip and its row's end, and the returned vector and the chip.
TAG_GAP = SPACE
# The cross's stroke (4.5 px at 720p, as the whole-strip X it replaced), beside the slip's
# vector where the tag stands beside the returned one.
CROSS_WIDTH = 5


@dataclass(frozen=True)
class ZeroSpec:
    """What a zero-based frame must hold, read from its storyboard.

    Attributes
    ----------
    window
        The drawn part of E.
    token_id
        The ID being traced (its row is always drawn).
    value_chars, row_label_chars, count_chars, id_chars
        The longest table value, row number, tally or ordinal, and ID, in characters.
    gap_labels
        The hidden ranges' labels (rows and columns), drawn in the left margin.
    title, heading, legend_title
        Texts whose widths matter (``legend_title`` is None without a legend).
    panel_texts
        Every line of the panel, as (words, characters of numbers) pairs.
    chips_label
        The chip's heading.
    note
        A half-precision table's note under the matrix ("" for none).
    """

    window: Window
    token_id: int
    value_chars: int
    row_label_chars: int
    count_chars: int
    id_chars: int
    gap_labels: tuple[str, ...]
    title: str
    heading: str
    legend_title: str | None
    panel_texts: tuple[tuple[str, int], ...]
    chips_label: str
    note: str = ""

    @classmethod
    def from_board(cls, board: Storyboard) -> ZeroSpec:
        """Read what a zero-based storyboard shows."""
        cells = {(c.kind, c.index): c for beat in board.beats for c in beat.numbers}

        def widest(*kinds: str) -> int:
            return max([len(c.text) for (k, _), c in cells.items() if k in kinds] or [0])

        window = board.beats[0].window
        word = board.word
        id_chars = widest("token_id")
        sizes = " \u00d7 ".join(cells[("table_size", (axis,))].text for axis in (0, 1))
        panel = (
            (word("counting_from_one"), 0),
            (f"{word('slip_id')}  \u2192 {word('slip_row_index')} ", id_chars + 2),
            (word("no_such_row"), 0),
            (word("debugging_trace"), 0),
            (f"\u2193 {word('input_id')}  ", id_chars),
            (f"\u2193 {word('zero_based_row_index')}  ", id_chars),
            (f"\u2193 {word('returned_vector')}", 0),
        )
        legend = any(k == "legend" for k, _ in cells)
        return cls(
            window=window,
            token_id=board.single_id(),
            value_chars=widest("weight", "output", "wrong_value"),
            row_label_chars=max(widest("row_label"), 1),
            count_chars=widest("one_based_count", "ordinal"),
            id_chars=id_chars,
            gap_labels=tuple(g.label for g in (*window.row_gaps, *window.col_gaps)),
            title=board.title,
            heading=f"{word('embedding_matrix')}  {sizes}",
            legend_title=word("value_colour") if legend else None,
            panel_texts=panel,
            chips_label=word("token_ids"),
            note=next(
                (b.labels["dtype_note"] for b in board.beats if "dtype_note" in b.labels), ""
            ),
        )


@dataclass(frozen=True)
class ZeroPlan:
    """Where everything of a zero-based frame goes (scene units; y grows upwards).

    Attributes
    ----------
    scale, sizes
        The type scale and the grid's slot sizes.
    bands
        The frame's title, content and caption bands.
    matrix_left, matrix_top
        The matrix body's top-left corner.
    body_width, chip_width
        The width of the matrix body (and of each vector), and of the chip.
    count_right
        The right edge of the tallies' column.
    panel_left, tag_left
        Where the panel's lines and vectors start, and where the chip waits.
    line_height
        The pitch of the panel's lines.
    heading_y
        The matrix heading's centre line.
    row_centres
        Each drawn row's centre line.
    legend_x, legend_y, legend_left
        The legend's right edge and centre line (the lookup layout's names).
    """

    scale: TypeScale
    sizes: GridSizes
    bands: Bands
    matrix_left: float
    matrix_top: float
    body_width: float
    chip_width: float
    count_right: float
    panel_left: float
    tag_left: float
    line_height: float
    heading_y: float
    row_centres: dict[int, float]
    legend_centre: float = 0.0

    @property
    def legend_x(self) -> float:
        """The legend's right edge (the safe area's, under the panel)."""
        return self.bands.right

    @property
    def legend_y(self) -> float:
        """The legend's centre line."""
        return self.legend_centre

    @property
    def legend_stacked(self) -> bool:
        """Whether the legend's title stands over its swatches (always: see :func:`_measure`)."""
        return True

    @property
    def legend_left(self) -> bool:
        """Whether the legend is aligned by its left edge (never: it is in the title band)."""
        return False

    def row_y(self, row: int) -> float:
        """Return the centre line of a drawn row (or, for row -1, of where it would be)."""
        if row in self.row_centres:
            return self.row_centres[row]
        return self.row_centres[min(self.row_centres)] + self.sizes.row_height

    def line_y(self, line: int, row: int) -> float:
        """Return the centre of the panel's line ``line`` (0 at the top) above ``row``'s vector."""
        above = self.row_y(row) + self.sizes.row_height / 2
        apart = APART if line < SLIP_LINES else 0.0
        return above + (PANEL_LINES - line - 0.5) * self.line_height + apart

    def tag_x(self) -> float:
        """Return the centre x of the chip waiting beside the returned vector (its tag)."""
        return self.tag_left + self.chip_width / 2

    def park_x(self) -> float:
        """Return the centre x of the chip waiting at the right end of a row."""
        return self.matrix_left + self.body_width + TAG_GAP + self.chip_width / 2


def _measure(spec: ZeroSpec, data: float, pitch: float) -> tuple[ZeroPlan, list[str]]:
    """Lay the frame out at one font size and row pitch; note what does not fit."""
    problems: list[str] = []
    scale = TypeScale.from_data(data)
    sizes = GridSizes(scale, spec.value_chars, pitch)
    bands = frame_bands(spec.title, scale, None, problems)
    label, legend = scale.label, scale.legend
    body_w = sum(s.size for s in col_slots(spec.window, sizes))
    chip_w = chip_size(spec.id_chars, 0, label)[0]
    index_w = char_advance(scale.index) * spec.row_label_chars  # E's row numbers
    numbers_w = index_w + char_advance(label) * spec.count_chars + COLUMNS_APART
    gaps_w = max([text_width(t, scale.note, mono=False) for t in spec.gap_labels] or [0.0])
    margin_w = max(numbers_w, gaps_w) + 1.5 * SPACE
    walk_w = chip_w + 2 * TAG_GAP
    # Right of the vectors: the returned one's tag (the chip) or the slip's cross (a
    # chip's height square), their strokes' ink. Not the chip's heading: it labels the
    # chip only in the intro's close-up, beside E's heading, and fades with the
    # pull-back. Its width reserved here left 90 px empty right of the tag and E's
    # digits at 24.4 px, the table in the frame's left third after the intro (a review).
    tag_w = max(chip_w, chip_size(spec.id_chars, 0, label)[1]) + CROSS_WIDTH / 100
    texts_w = max(
        text_width(words, label, mono=False) + char_advance(label) * chars
        for words, chars in spec.panel_texts
    )
    panel_w = max(body_w + TAG_GAP + tag_w, texts_w)
    total_w = margin_w + body_w + walk_w + panel_w
    if total_w > bands.width:
        problems.append("too wide")
    if text_width(spec.heading, label, mono=False) > margin_w + body_w + walk_w:
        problems.append("heading too wide")
    left = bands.left + max(0.0, (bands.width - total_w) / 2)
    matrix_left = left + margin_w
    line_h = digit_height(label) * LINE_DIGITS
    row_h = sizes.row_height
    depth, centres = 0.0, {}
    for slot in row_slots(spec.window, sizes):
        if not slot.gap:
            centres[slot.key] = depth + slot.size / 2
        depth += slot.size
    head_h = digit_height(label) * 1.6 + SPACE + digit_height(label) + 0.8 * SPACE
    note_h = digit_height(legend) + 2 * SPACE if spec.note else 0.0
    # Under the returned vector: the check line at the panel's left; the chip's heading
    # under the chip, on that line, and the legend under it at the panel's right.
    # Stacked, its title over its swatches: in a row, its title began where the check's
    # tick ends, under it, as if "= E[3] ✓" went on (a 720p review); stacked, it is a
    # swatch strip wide, a group apart from the check at the panel's right.
    legend_h = band_legend_height(scale, stacked=True) if spec.legend_title is not None else 0.0
    below = row_h / 2 + SPACE + line_h + (legend_h + 2 * SPACE if legend_h else 0.0)
    # The matrix's top: its heading under the content band's top, the panel's
    # lines above the ID's row likewise; its bottom (and the check line under
    # the returned vector) over the caption band.
    offset = centres[spec.token_id]
    panel_h = PANEL_LINES * line_h + APART
    highest = min(bands.top - head_h, bands.top - panel_h - row_h / 2 + offset)
    lowest = max(bands.bottom + depth + note_h, bands.bottom + offset + below)
    if lowest > highest:
        problems.append("too tall")
    top = (highest + lowest) / 2 if lowest <= highest else highest
    panel_left = matrix_left + body_w + walk_w
    plan = ZeroPlan(
        scale=scale,
        sizes=sizes,
        bands=bands,
        matrix_left=matrix_left,
        matrix_top=top,
        body_width=body_w,
        chip_width=chip_w,
        count_right=matrix_left - 1.5 * SPACE - index_w - COLUMNS_APART,
        panel_left=panel_left,
        tag_left=panel_left + body_w + TAG_GAP,
        line_height=line_h,
        heading_y=top + head_h - digit_height(label) * 0.8,
        row_centres={row: top - depth for row, depth in centres.items()},
        legend_centre=_legend_centre(
            bands.bottom, top - offset - row_h / 2 - SPACE - line_h, legend_h
        ),
    )
    return plan, problems


def _legend_centre(bottom: float, vector_bottom: float, height: float) -> float:
    """Return the legend's centre line: midway between the chip's heading and the captions.

    The legend stands at the panel's right under the returned vector (its
    place in the title band left the panel's lower half empty until the check),
    and under the chip's heading (``vector_bottom`` is that line's bottom).
    """
    middle = (bottom + vector_bottom - SPACE) / 2
    return min(max(middle, bottom + height / 2), vector_bottom - SPACE - height / 2)


@per_frame
def solve_zero_based(spec: ZeroSpec) -> ZeroPlan:
    """Return the plan with the largest table numbers at which everything fits.

    Parameters
    ----------
    spec
        What the frame holds.

    Returns
    -------
    ZeroPlan
        The plan.
    """
    return solve_fit(lambda font, pitch: _measure(spec, font, pitch))
