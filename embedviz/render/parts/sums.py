"""ParameterCount's parts: the block of E, the count, the memory and widths tables, the lookup.

- :class:`BlockPart`: E's window as a grid (its first rows and the looked-up
  row), hidden ranges as thin bands labelled inside, its heading and sizes line.
  Beat ``table``.
- :class:`CountLine`: ``50,257 × 768 = 38,597,376 parameters``. Beat ``count``.
- :class:`MemoryTable`: bytes per dtype. Beat ``dtype``.
- :class:`~embedviz.render.parts.widths_table.WidthsTable`, in its own module:
  other widths d, with bars. Beat ``compare``.
- :class:`LookupLine`: the chip fetches its row, which lands level with
  itself beside ``E[3] =``; the copy's size and the note. Beat ``lookup``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    Animation,
    AnimationGroup,
    LaggedStart,
    Succession,
    VGroup,
    VMobject,
)
from manim.animation.animation import prepare_animation

from embedviz.render.animations import Steps, make_reveal_animation, point_at
from embedviz.render.baseline import put_on_line
from embedviz.render.design import SPACE, Theme
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn
from embedviz.render.gap_text import GapLabel
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.metrics import char_advance, xyz
from embedviz.render.parts.chips import Chip, Follow, curve_points
from embedviz.render.parts.grid import CELL_PAD_CHARS, CellGrid, Slot, col_slots
from embedviz.render.parts.lift import LiftCarry
from embedviz.render.parts.lookup import heading_words
from embedviz.render.parts.memory_summary import memory_summary
from embedviz.render.parts.symbols import IndexedSymbol, word_line
from embedviz.render.solve_parameter_count import ParamPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["BlockPart", "CountLine", "LookupLine", "MemoryTable"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]
# Drawn above the panel it walks across, below a travelling strip.
CHIP_Z = 10


def _labels(board: Storyboard) -> dict[str, str]:
    return {role: text for beat in board.beats for role, text in beat.labels.items()}


def _at(mobject: VMobject, x: float, y: float, edge: np.ndarray) -> VMobject:
    """Put a mobject's left or right edge at x, its centre at height y."""
    return mobject.move_to(xyz(x, y)).align_to(xyz(x, 0), edge)


class BlockPart(Component):
    """E's window as a grid: its first rows and the looked-up one, the rest as labelled bands.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell, by (kind, index).
    plan
        Where things go.
    theme
        Colours.
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: ParamPlan, theme: Theme
    ) -> None:
        super().__init__(host, theme)
        scale, window, labels = plan.scale, board.beats[0].window, _labels(board)

        def element(row: Slot, col: Slot) -> VMobject | None:
            if col.gap:
                return LabelText("\u2026", scale.data, theme.muted)
            # In the text colour: this scene counts the numbers and shows no colour legend,
            # and a colour with no key reads as a meaning the viewer cannot look up.
            return NumberText(cells[("corner", (row.key, col.key))], scale.data, theme.text)

        pad = char_advance(scale.data) * CELL_PAD_CHARS / 2
        self.grid = CellGrid(plan.rows, col_slots(window, plan.sizes), element, theme, pad=pad)
        self.grid.shift(
            xyz(plan.matrix_left - self.grid.body_left(), plan.matrix_top - self.grid.body_top())
        )
        self.grid.add_row_labels(
            lambda s: (
                None
                if s.gap
                else NumberText(cells[("row_label", (s.key,))], scale.index, theme.index)
            ),
            buff=1.5 * SPACE,
        )
        middle = (self.grid.body_left() + self.grid.body_right()) / 2
        # A hidden range's label sits inside its band: the block's margin is its row numbers'.
        # Words (rows 4–50255 hidden): sans, at the notes' size, as the columns' note.
        self.bands = VGroup(
            *[
                GapLabel(labels[f"row_gap_{n}"], scale.note, theme.muted).move_to(
                    xyz(middle, self.grid.row_y(n, gap=True))
                )
                for n in range(len(window.row_gaps))
            ]
        )
        # The grid knows them: a row's outline keeps off a band whose label it holds.
        self.grid.gap_labels.update(enumerate(self.bands))
        right, gaps = self.grid.body_right(), range(len(window.col_gaps))
        notes = [GapLabel(labels[f"col_gap_{n}"], scale.note, theme.muted) for n in gaps]
        self.col_gap = VGroup(*[_at(m, right, plan.col_gap_y, RIGHT) for m in notes])
        left = min(m.get_left()[0] for m in self.grid.row_labels.values())
        self.heading = VGroup(*heading_words(board.word("embedding_matrix"), scale.label, theme))
        _at(self.heading.arrange(RIGHT, buff=SPACE * 1.5), left, plan.heading_y, LEFT)
        pieces: list[str | NumberCell] = [
            cells[("block_size", (0,))],
            board.word("rows"),
            "\u00d7",
            cells[("block_size", (1,))],
            board.word("columns"),
        ]
        colours = [theme.text, theme.muted, theme.muted, theme.text, theme.muted]
        self.sizes = word_line(pieces, scale.label, colours).shift(xyz(left, plan.sizes_y))
        self.rows_size, self.cols_size = self.sizes[0], self.sizes[3]
        # The sizes' two lines (``50,257 rows`` / ``× 768 columns``, as they rest in a
        # column beside E while the narration names them).
        self.rows_line, self.cols_line = VGroup(*self.sizes[:2]), VGroup(*self.sizes[2:])

    def name_size(self, line: VGroup) -> Animation:
        """Point at one of the sizes: its whole line swells, its words with its number.

        A number that swelled alone would close up the space to its words.
        """
        return point_at(line, self.theme.highlight, scale=1.2)

    def entries(self) -> list[VMobject]:
        """Return the block's values and its elision marks, row by row."""
        marks = [m for row in sorted(self.grid.marks) for m in self.grid.marks[row]]
        return [*self.grid.get_entries(), *marks]

    def beat_table(self, beat: Beat) -> Animation:
        """Show the block with its rows; then its columns; then its real values.

        One step per phrase: "... one row per vocabulary entry" / "and one
        column per dimension." / "That makes 50,257 rows of 768 numbers each."
        """
        labels = list(self.grid.row_labels.values())
        rows = [self.grid.body, *labels, *self.bands, self.heading, *self.sizes[:2]]
        columns = [*self.sizes[2:], *self.col_gap]
        values = LaggedStart(*[FadeIn(m) for m in self.entries()], lag_ratio=0.1)
        named = AnimationGroup(self.name_size(self.rows_line), self.name_size(self.cols_line))
        return Steps(
            AnimationGroup(make_reveal_animation(rows), run_time=2.0),
            AnimationGroup(make_reveal_animation(columns), run_time=2.0),
            Succession(values, named),
        )


class CountLine(Component):
    """``50,257 × 768 = 38,597,376 parameters``: the block's sizes multiplied.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell, by (kind, index).
    plan
        Where things go.
    theme
        Colours.
    block
        The block whose sizes and values the count points at.
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: ParamPlan,
        theme: Theme,
        block: BlockPart,
    ) -> None:
        super().__init__(host, theme)
        self.block = block
        pieces: list[str | NumberCell] = [
            cells[("factor", (0,))],
            "\u00d7",
            cells[("factor", (1,))],
            "=",
            cells[("param_count", (0,))],
        ]
        colours = [theme.text, theme.muted, theme.text, theme.muted, theme.text]
        y = plan.lines["count"][0]
        self.product = word_line(pieces, plan.panel.data, colours).shift(xyz(plan.panel_left, y))
        self.word = SansText(board.word("parameters"), plan.panel.label, theme.muted)
        self.word.next_to(self.product, RIGHT, buff=char_advance(plan.panel.label))
        self.word.shift(xyz(0, y - self.word.get_y()))

    def beat_count(self, beat: Beat) -> Animation:
        """Point at the block's entries; then multiply its sizes into the count.

        "Every entry is a trainable parameter:" / "E holds V × d of them: ... = N."
        """
        colour = self.theme.highlight
        entries = VGroup(*[m for m in self.block.entries() if isinstance(m, NumberText)])
        first, times, second, equals, count = self.product
        built = Succession(
            AnimationGroup(self.block.name_size(self.block.rows_line), FadeIn(first)),
            FadeIn(times),
            AnimationGroup(self.block.name_size(self.block.cols_line), FadeIn(second)),
            FadeIn(equals),
            AnimationGroup(FadeIn(count, scale=1.2), FadeIn(self.word)),
        )
        if not len(entries):
            return built
        point = point_at(entries, colour, run_time=2.0)
        if len(beat.phrases) < 2:
            # Told in one phrase (a small table's), it is one step: the count is built
            # as the entries are pointed at. A step of its own, the pointing ended with
            # the panel under E's sizes empty, 19.6 % of the frame (issue 18).
            return AnimationGroup(point, built)
        return Steps(point, built)


def _header(words: Sequence[str | None], plan: ParamPlan, y: float, theme: Theme) -> VGroup:
    """Set a table's header words: the first left-aligned, the others at their columns' right.

    On one baseline: centred by their ink, "memory" and "parameters" (no ascender)
    stood 2-3 px higher than "dtype" and "total bytes" at 720p.
    """
    row = VGroup()
    for number, text in enumerate(words):
        if text is None:
            continue
        word = SansText(text, plan.panel.label, theme.muted)
        if number == 0:
            _at(word, plan.panel_left, y, LEFT)
        else:
            _at(word, plan.column_right[number], y, RIGHT)
        row.add(put_on_line(word, y))
    return row


def _entry(mobject: VMobject, plan: ParamPlan, column: int, y: float) -> VMobject:
    """Put a table entry in its column: the first left-aligned, the others right-aligned."""
    if column == 0:
        return _at(mobject, plan.panel_left, y, LEFT)
    return _at(mobject, plan.column_right[column], y, RIGHT)


class MemoryTable(Component):
    """The memory the table takes in each dtype: bytes each, in all, and in binary units.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell, by (kind, index).
    plan
        Where things go.
    theme
        Colours.
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: ParamPlan, theme: Theme
    ) -> None:
        super().__init__(host, theme)
        lines, labels = plan.lines["memory"], _labels(board)
        words = [board.word(w) for w in ("dtype", "bytes_each", "total_bytes", "memory")]
        self.header = _header(words, plan, lines[0], theme)
        data = plan.panel.data
        self.rows: list[VGroup] = []
        for number, y in enumerate(lines[1:]):
            if ("dtype_memory", (number,)) not in cells:
                break
            name = LabelText(labels[f"dtype_{number}"], plan.panel.label, theme.text)
            kinds = ("dtype_bytes", "dtype_total", "dtype_memory")
            colours = (theme.text, theme.text, theme.output)
            numbers = [
                NumberText(cells[(kind, (number,))], data, colour)
                for kind, colour in zip(kinds, colours, strict=True)
            ]
            placed = [_entry(m, plan, column, y) for column, m in enumerate([name, *numbers])]
            # A byte count of one digit stands under the middle of its header: at its
            # right edge it read as one run of digits with the total beside it ("4
            # 154,389,504", 30 px apart at 720p).
            placed[1].set_x(self.header[1].get_x())
            self.rows.append(VGroup(*placed))

    def beat_dtype(self, beat: Beat) -> Animation:
        """Add the next dtype's row (with the header, the first time), in two steps.

        The first dtype's name, bytes and total, then its memory ("or 147.2
        MiB"); a later dtype's name ("In bfloat16, ..."), then the rest.
        """
        number = sum(1 for cell in beat.numbers if cell.kind == "dtype_memory") - 1
        row = self.rows[number]
        split = 3 if number == 0 else 1

        def reveal(pieces: Sequence[VMobject]) -> Animation:
            run_time = max(1.0 + 0.3 * (len(pieces) - 1), 1.5)
            fades = [FadeIn(p, shift=0.1 * RIGHT) for p in pieces]
            return LaggedStart(*fades, lag_ratio=0.3, run_time=run_time)

        first, then = reveal(list(row[:split])), reveal(list(row[split:]))
        if number == 0:
            return Steps(Succession(FadeIn(self.header), first), then)
        return Steps(first, then)


class LookupLine(Component):
    """The lookup: the chip fetches its row, which lands level with itself beside ``E[3] =``.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell, by (kind, index).
    plan
        Where things go.
    theme
        Colours.
    block
        The block the row leaves.
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Cells,
        plan: ParamPlan,
        theme: Theme,
        block: BlockPart,
    ) -> None:
        super().__init__(host, theme)
        self.plan, self.block, self.token_id = plan, block, board.single_id()
        label, y = plan.scale.label, plan.lookup_y
        self.chip = Chip(cells[("token_id", (0,))], label, theme)
        self.home = xyz(plan.tag_x(), y)
        self.chip.move_to(self.home).set_z_index(CHIP_Z)
        self.symbol = IndexedSymbol("E[", cells[("lookup_row", (0,))], "] =", theme.text, label)
        _at(self.symbol, plan.panel_left, y, LEFT)
        slots = col_slots(board.beats[0].window, plan.sizes)
        row = [Slot(0, plan.sizes.row_height)]
        self.copy = CellGrid(row, slots, lambda r, c: None, theme, theme.output, block.grid.pad)
        self.copy.shift(xyz(plan.strip_left, y + plan.sizes.row_height / 2))
        values = sorted(
            (c for (k, _), c in cells.items() if k == "lookup_value"), key=lambda c: c.index
        )
        self.targets = [
            self.copy.put(
                0,
                c.index[-1],
                NumberText(c, plan.scale.data, theme.text),  # no legend: no value colours
            )
            for c in values
        ]
        pieces: list[str | NumberCell] = [
            cells[("row_values", (0,))],
            board.word("values_copied"),
            cells[("row_bytes", (0,))],
            board.word("bytes"),
        ]
        colours = [theme.text, theme.muted, theme.text, theme.muted]
        # At the data's size: the final frame's numbers read as large as its caption.
        facts = word_line(pieces, plan.panel.data, colours)
        self.facts = facts.shift(xyz(plan.panel_left, plan.facts_y))
        # Shown muted with "A lookup itself does no arithmetic", which it says: the panel
        # under the copy's frame stood empty until the last phrase (20-32 % of the frame at
        # 720p, 44.7 s and 45.6 s; issue 18). It comes forward with "Nothing is multiplied".
        self.note = SansText(board.word("no_arithmetic"), plan.panel.label, theme.muted)
        _at(self.note, plan.panel_left, plan.note_y, LEFT)
        self.summary = memory_summary(board, cells, plan, theme)
        self.outline: VMobject | None = None

    def beat_lookup(self, beat: Beat) -> Animation:
        """Show the chip beside its outlined row; bring the row home beside ``E[3] =``; the note.

        "A lookup itself does no arithmetic." / "ID 3 just copies row 3, 768
        values or 3,072 bytes in float32." / "Nothing is multiplied or summed."
        """
        plan, chip = self.plan, self.chip
        park = xyz(plan.park_x(), plan.lookup_y)
        radius = plan.sizes.row_height * 0.45
        self.outline = self.block.grid.row_outline(self.token_id, self.theme.id_line)
        # Faded in at its home, it stood alone mid-panel with no label for 2.5 s (720p review).
        # A stand-in for the copy's frame waits empty where the row will land, as the lookup
        # family's output block waits for its rows, and the note says what the phrase says.
        # The stand-in leaves before the strip sets off (tests/test_strip_drawer.py).
        frame = self.copy.body.copy()
        waiting = [FadeIn(frame), FadeIn(self.note)]
        arrive = AnimationGroup(FadeIn(chip.move_to(park)), OutlineIn(self.outline), *waiting)
        landing = xyz(plan.strip_left + plan.body_width / 2, plan.lookup_y)
        # The copy's frame comes as the strip lands in it (the carry's ``place``):
        # standing there empty, it showed as a second frame beside the strip. The row
        # lifts out of E drawn whole, as the lookup family's does (LiftCarry): sliding out
        # from under E, its numbers showed a column clear of it, so the chip rode beside
        # a strip not yet drawn (a 720p review, 44.8-45.05 s). Row 3's own numbers stay,
        # faint under the copy, whole once it is clear: it is copied, not moved.
        carry = LiftCarry(
            self.block.grid,
            self.token_id,
            chip,
            None,
            self.targets,
            [landing],
            self.theme,
            place=self.copy,
        )
        carry.rides = True
        # The chip rides at the strip's right end (it docks and lands as far past the row's
        # and the copy's ends): setting off ahead, it crossed the panel alone (720p review).
        back = Follow(chip, curve_points([park, self.home], radius), run_time=1.0)
        copied = Succession(
            FadeOut(frame, run_time=0.2),
            AnimationGroup(back, carry),
            # Its symbol and facts take a third of the step, the carry two: at half, its row's
            # numbers in E rose 0.26 in a frame as the copy passed (tests/test_numbers_fade.py).
            AnimationGroup(FadeIn(self.symbol), FadeIn(self.facts), run_time=0.5),
        )
        forward = prepare_animation(self.note.animate.set_fill(self.theme.text))  # type: ignore[arg-type]
        return Steps(arrive, copied, forward)
