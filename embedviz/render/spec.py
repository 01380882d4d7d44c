"""What a lookup frame must hold, read from its storyboard: the solver's input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from embedviz.story.model import Storyboard, Window
from embedviz.story.printed import split_printed

__all__ = ["SUFFIX_INDENT", "LookupSpec", "late_marks", "wrap_suffix"]

# PyTorch indents a suffix on a line of its own by the width of ``tensor(``.
SUFFIX_INDENT = len("tensor(")


def wrap_suffix(line: str) -> list[str]:
    """Split a print's last line before its ``grad_fn``, as PyTorch does when it is too long.

    ``tensor([[0.1, 0.2]], grad_fn=<E>)`` becomes ``tensor([[0.1, 0.2]],`` and
    ``       grad_fn=<E>)`` (PyTorch's ``_add_suffixes``: the comma stays, the
    suffix starts a new line indented by ``len("tensor(")``). A line without
    one is returned whole.
    """
    at = line.find("grad_fn=")
    if at <= 0:
        return [line]
    return [line[:at].rstrip(), " " * SUFFIX_INDENT + line[at:]]


@dataclass(frozen=True)
class LookupSpec:
    """What a lookup frame must hold, read from a storyboard (see :meth:`from_board`).

    Attributes
    ----------
    window
        The drawn part of E.
    value_chars, row_label_chars
        The longest table value and row number, in characters.
    gap_labels
        The labels of the hidden row ranges, by gap number.
    sources
        For output row *t*, the matrix row it copies.
    chips
        Per input position: the ID's text and its word piece (or "").
    position_chars, mark_chars
        The longest output row number and equality mark (0: none).
    title, matrix_heading, output_heading, chips_label, legend_title
        Texts whose widths matter.
    print_chars, print_lines
        The widest line of the PyTorch call and its print, and their count (0: no print).
    wrapped_chars
        The widest line when the print's ``grad_fn`` goes on a line of its own
        (as PyTorch does when a line would be too long); 0 when it has none.
    print_px
        The least height of the print's digits at 720p under the blocks,
        where the width allows (0: the labels' size).
    piece_px
        The least height of the word pieces' letters at 720p (0: the labels'
        floor); :mod:`~embedviz.render.solver_pieces` sets it.
    legend
        Whether the colour legend is drawn.
    note
        The note on a half-precision table (e.g. ``bfloat16 values shown as
        float32``), drawn under the matrix; empty for none.
    note_role
        The note's size: ``legend`` (a remark) or ``label`` (a count, such as
        a table's number of parameters).
    note_above
        Whether the note stands over the matrix's heading rather than under
        the matrix: where the output block rises above the matrix, the band
        over the heading is free, and the note there adds no height.
    source_windows
        For a layout whose window scrolls between lookups (LargeVocabLookup):
        the window each output row's source is looked up in, in output order
        (a row that is hidden there is fetched from its hidden range's band);
        empty when every row comes from ``window``.
    bar_width
        The width of a scroll bar between the matrix and the walking column
        (0: none).
    mark_role
        The equality marks' size: ``label``, or ``legend`` for marks that name
        both rows (``out[8] = out[0]``), which are notes beside the row.
    marks_last
        Whether the marks' column stays empty until the last beats (as in
        LargeVocabLookup): what stands from the start is then centred, and the
        marks keep their room inside the frame.
    mark_air
        Air kept between marks that come last and the safe area's right edge.
    wide_number_gap
        Whether a row number right after a chip stands a digit's column clear
        of it (:func:`~embedviz.render.parts.chips.number_gap`) rather than a
        SPACE. A solver may narrow it where the wide gap costs the layout
        (``solve_large_vocab``).
    gaps_inside
        Whether the hidden ranges' labels are written inside the table (each
        row range's in its band, the columns' note over the column numbers)
        rather than in the left margin (see
        :attr:`~embedviz.render.parts.grid.GridSizes.gaps_inside`).
    col_note_air
        With ``gaps_inside``: the air between the hidden columns' note and the
        column numbers under it, in SPACEs (BatchLookup's is
        :data:`~embedviz.render.batch_plan.COL_NOTE_AIR`).
    legend_under_output
        Whether the legend goes under the output block when a raised block
        leaves room there (it then rides with the block when it settles).
    legend_in_column
        Whether the legend stands in the column of a single output row, above
        or under it, where it best splits the room the row leaves empty
        (:func:`~embedviz.render.solver_bands.column_legend`): a row near
        the window's top or bottom leaves most of the column on one side.
    marks_from
        The first output row with an equality mark, when the legend stands
        upright in the marks' column beside the rows above it (0: it does
        not): a column that stays empty until the last beats, as tall as the
        block, would otherwise be the frame's largest empty area.
    gaps_wrapped
        Whether the hidden ranges' labels stand on two lines in the margin
        (see :attr:`~embedviz.render.parts.grid.GridSizes.gaps_wrapped`); the
        solver tries it for a margin of many bands.
    gaps_near
        Whether the hidden ranges' labels stay right-aligned among the row
        numbers though they come closer to them than
        :data:`~embedviz.render.gap_lines.GAP_LABEL_CLEARANCE_PX` (only
        :data:`~embedviz.render.gap_lines.NEAR_CLEARANCE_PX`): the solver's
        fallback where a column of their own would take the numbers under
        their floor.
    still
        Whether the output block must stay where the solver puts it through
        every lookup: a ``beside`` block raised for its strips' paths then
        keeps the legend (upright) under its tags, and the room left empty
        under it must stay under an eighth of the frame (the solver tries it
        when the block would otherwise rest lower and glide up to every beat
        whose strips need it).
    title_left
        Whether the title is set at the left of its band, over the matrix, so
        that the output side (its heading, block and tags) may rise into the
        band beside it: a still block raised far above the matrix otherwise
        leaves the frame's top left empty, above the matrix.
    fill_height
        Whether the rows may grow looser than
        :data:`~embedviz.render.solver.MAX_PITCH` (up to
        :data:`~embedviz.render.solver_fill.FILL_PITCH`), only as far as the
        empty band the content leaves under the title requires: a frame bound
        by its width (PositionBlindness's E shows three columns) otherwise
        leaves a band across the frame over an eighth of it.
    counted
        Whether a beat counts E's rows (``count_rows``): the row numbers'
        column then keeps room on its left for the count's ring round a
        swollen row number (:func:`~embedviz.render.parts.row_count.count_reach`),
        so the ring stays inside the safe margin.
    legend_stacks
        Whether a legend in the title band may stand with its title over its
        swatches to let the title stand centred (its band is a line taller).
    legend_in_band
        Whether the legend stands in the title band from the start, right of
        the title, wherever else there would be room for it: a scene whose
        second arrangement keeps the legend (PositionBlindness) then gives that
        arrangement's tables the strip under the title that a legend over the
        matrix would take (issue 18: the rows 0.425 units apart, not 0.50).
    legend_level
        Whether a legend in the title band beside its swatches sets its values
        on their line, so the band is no taller than the title's line
        (PositionBlindness: its second arrangement's rows take the height).
    legend_chars
        The widest legend value's characters (``+3``: 2).
    lane
        Whether the chips wait in a row over E rather than beside the output
        rows they fill (:mod:`~embedviz.render.solver_lane`).
    clear_block
        Whether a travelling strip or chip may overlap the output block only
        level with its own output row: only the ``corridor`` arrangement is
        tried, its walking column as wide as a strip and the chip riding at its
        right end (a TAG_GAP either side), so the copy goes down the corridor
        and slides level into its row (LargeVocabLookup, issue 18: beside, a
        strip wider than the walking column rose across the block's empty rows,
        its chip standing inside the block level with another row's tag).
    """

    window: Window
    value_chars: int
    row_label_chars: int
    gap_labels: dict[int, str]
    sources: tuple[int, ...]
    chips: tuple[tuple[str, str], ...]
    position_chars: int
    mark_chars: int
    title: str
    matrix_heading: str
    output_heading: str
    chips_label: str
    legend_title: str
    print_chars: int = 0
    print_lines: int = 0
    wrapped_chars: int = 0
    print_px: float = 0.0
    piece_px: float = 0.0
    legend: bool = True
    note: str = ""
    note_role: Literal["legend", "label"] = "legend"
    note_above: bool = False
    source_windows: tuple[Window, ...] = ()
    bar_width: float = 0.0
    mark_role: Literal["legend", "label"] = "label"
    marks_last: bool = False
    mark_air: float = 0.0
    wide_number_gap: bool = True
    late_marks: bool = False
    gaps_inside: bool = False
    col_note_air: float = 0.5
    legend_under_output: bool = False
    legend_in_column: bool = False
    marks_from: int = 0
    gaps_wrapped: bool = False
    gaps_near: bool = False
    still: bool = False
    title_left: bool = False
    fill_height: bool = False
    counted: bool = False
    legend_stacks: bool = True
    lane: bool = False
    legend_in_band: bool = False
    legend_level: bool = False
    legend_chars: int = 2
    clear_block: bool = False

    @classmethod
    def from_board(cls, board: Storyboard) -> LookupSpec:
        """Read what a lookup storyboard shows (every beat's cells and labels)."""
        cells = {(c.kind, c.index): c for beat in board.beats for c in beat.numbers}
        window = board.beats[0].window

        def widest(kind: str) -> int:
            return max([len(c.text) for (k, _), c in cells.items() if k == kind] or [0])

        ids = sorted((i, c.text) for (k, i), c in cells.items() if k == "token_id")
        pieces = board.options.pieces or ()
        sizes = sorted((i, c.text) for (k, i), c in cells.items() if k == "table_size")
        printed: list[str] = []
        final = board.beats[-1]
        if board.printed and final.output is not None:
            # The lines drawn: a long print is cut, with one elision line.
            lines, omitted = split_printed(board.printed, final.output.shape)
            printed = ["".join(text for _, text, _ in line.pieces) for line in lines]
            printed += ["\u22ee"] if omitted else []
        code = final.labels.get("code", "")
        wrapped = [*printed[:-1], *wrap_suffix(printed[-1])] if printed else []
        sources = tuple(_sources(board))
        return cls(
            window=window,
            value_chars=max(widest("weight"), widest("output")),
            row_label_chars=max(widest("row_label"), 1),
            gap_labels={n: gap.label for n, gap in enumerate(window.row_gaps)},
            sources=sources,
            chips=tuple((text, pieces[i[-1]] if i[-1] < len(pieces) else "") for i, text in ids),
            position_chars=widest("position"),
            mark_chars=widest("equal_to"),
            title=board.title,
            matrix_heading=f"{board.word('embedding_matrix')} E  "
            + " \u00d7 ".join(t for _, t in sizes),
            output_heading=f"{board.word('output')}  {len(sources)} \u00d7 {board.dim}",
            # A layout whose chips have no heading (the batch's block) has no such word.
            chips_label=board.word("token_ids") if "token_ids" in board.words else "",
            legend_title=board.word("value_colour"),
            print_chars=max([len(line) for line in [*printed, code]] or [0]),
            print_lines=len(printed) + (1 if printed else 0),
            wrapped_chars=max([len(line) for line in [*wrapped, code]] or [0])
            if len(wrapped) > len(printed)
            else 0,
            legend=any(k == "legend" for k, _ in cells),
            legend_chars=widest("legend"),
            # One row with its print (SingleTokenLookup): the legend shares its column.
            legend_in_column=len(sources) == 1 and bool(printed),
            note=next(
                (b.labels["dtype_note"] for b in board.beats if "dtype_note" in b.labels), ""
            ),
            counted=any(b.action == "count_rows" for b in board.beats),
        )


def late_marks(board: Storyboard, actions: tuple[str, ...] = ("lookup", "lookup_many")) -> bool:
    """Whether the board has equality marks and each first shows in its last lookup beat.

    A stage whose blocks rest together between lookups (LookupStage) sets
    :attr:`LookupSpec.late_marks` from it; ``actions`` are its beats that look rows up.
    """
    lookups = [b for b in board.beats if b.action in actions]
    first: dict[tuple[int, ...], int] = {}
    for number, beat in enumerate(lookups):
        for cell in beat.numbers:
            if cell.kind == "equal_to":
                first.setdefault(cell.index, number)
    return bool(first) and set(first.values()) == {len(lookups) - 1}


def _sources(board: Storyboard) -> list[int]:
    """Return the matrix row each input position selects (its ID), in input order."""
    ids = {
        c.index: int(c.value) for beat in board.beats for c in beat.numbers if c.kind == "token_id"
    }
    return [ids[p] for p in sorted(ids)]
