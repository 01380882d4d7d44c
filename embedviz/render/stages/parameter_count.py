"""The parameter-count layout: a schematic V x d block and the sums beside it.

The table is never drawn cell by cell (it may hold billions of values). It is
one block, labelled with its row and column counts, with a 2 x 3 corner of
real values to show what it is made of. The right half holds the product
``V x d``, the memory per dtype, the comparison of widths d, and the note that
a lookup copies one row without arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Create,
    FadeIn,
    GrowFromEdge,
    Indicate,
    LaggedStart,
    Line,
    Rectangle,
    Succession,
    VGroup,
    VMobject,
)

from embedviz.render.animations import (
    Steps,
    make_carry_numbers_animation,
    make_reveal_animation,
)
from embedviz.render.glyphs import LabelText, NumberText, SansText, WordText
from embedviz.render.layout import fit_font, frame_regions
from embedviz.render.mobjects import char_advance, digit_height, xyz
from embedviz.render.stage import Stage, register_stage
from embedviz.render.stages.zero_based import mono_line
from embedviz.render.theme import value_colour
from embedviz.story.model import Beat, NumberCell

__all__ = ["ParameterCountStage"]

# The schematic block, in scene units.
_BLOCK_LEFT, _BLOCK_RIGHT = -5.25, -1.2
_BLOCK_TOP, _BLOCK_BOTTOM = 1.6, -2.45
_ROW_PITCH = 0.42
# The right-hand panel and its column anchors (left edge, then right edges);
# its right edge is the frame's safe edge (see ``_panel_right``).
_PANEL_LEFT = -0.6
_BYTES_RIGHT, _TOTAL_RIGHT = 1.85, 4.45
_BAR_LEFT, _BAR_MAX = 1.3, 1.05
_COUNT_Y = 2.35
_ROWS_LABEL_Y = -0.95
_BOTTOM_SLOT = int((_BLOCK_TOP - _BLOCK_BOTTOM) / _ROW_PITCH) - 1
_TABLE_HEADER_Y = 1.6
_COMPARE_HEADER_Y = 0.05
_LINE_PITCH = 0.44
_COLUMN_GAP = 0.3
_LOOKUP_Y = -1.75
_HEADER_SIZE = 18
_TEXT_SIZE = 20
_NUMBER_SIZE = 22
_COUNT_SIZE = 26
_CORNER_SIZE = 16
_LABEL_SIZE = 16


def _panel_right() -> float:
    """Return the right edge of the right-hand panel: the frame's safe edge, less a hair."""
    return frame_regions(margin=0.26).right


def _line_font(width_at: float, largest: float, width: float) -> float:
    """Return the font size at which a line ``width_at`` wide at ``largest`` fits ``width``.

    Lines grow in proportion to their font size; the one font fitter picks the size.
    """
    return fit_font(lambda size: width_at * size / largest <= width, largest)


@register_stage
class ParameterCountStage(Stage):
    """A labelled schematic block, the parameter count, memory and the d trade-off."""

    layout = "parameter_count"

    def build(self) -> None:
        """Create and place every piece; beats only fade or move them."""
        self._build_block()
        self._build_count()
        self._build_memory()
        self._build_compare()
        self._build_lookup()

    def _cell(self, kind: str, *index: int) -> NumberCell:
        return self.cells[(kind, tuple(index))]

    def _compare_dtype(self) -> str:
        return next(
            beat.labels["compare_dtype"]
            for beat in self.board.beats
            if "compare_dtype" in beat.labels
        )

    def _count(self, kind: str) -> int:
        return sum(1 for key in self.cells if key[0] == kind)

    # -- layout ----------------------------------------------------------------
    def _build_block(self) -> None:
        theme = self.theme
        width, height = _BLOCK_RIGHT - _BLOCK_LEFT, _BLOCK_TOP - _BLOCK_BOTTOM
        body = Rectangle(width=width, height=height)
        body.set_fill(theme.cell_fill, opacity=1.0).set_stroke(theme.cell_stroke, width=1.5)
        body.move_to(xyz((_BLOCK_LEFT + _BLOCK_RIGHT) / 2, (_BLOCK_TOP + _BLOCK_BOTTOM) / 2))
        # Faint row rules: the block reads as a stack of rows without drawing V of them.
        rules = VGroup(
            *[
                Line(
                    xyz(_BLOCK_LEFT, y),
                    xyz(_BLOCK_RIGHT, y),
                    stroke_width=0.8,
                    color=theme.cell_stroke,
                )
                for y in _frange(_BLOCK_TOP - _ROW_PITCH, _BLOCK_BOTTOM + 0.05, _ROW_PITCH)
            ]
        )
        self.block = VGroup(body, rules)
        self.block_body = body

        cols = sorted({key[1][1] for key in self.cells if key[0] == "corner"})
        rows = sorted({key[1][0] for key in self.cells if key[0] == "corner"})
        token_id = self.board.single_id()
        self.band_slot = _band_slot(token_id, self.board.vocab_size, len(rows))
        # A slot one and a half characters wider than a value: cells never run together.
        slot = char_advance(_CORNER_SIZE) * 8.3
        label_right = _BLOCK_LEFT + char_advance(_LABEL_SIZE) * _label_chars(self.cells) + 0.1
        values_left = label_right + 0.15
        self.corner = VGroup()
        for r in rows:
            y = _slot_y(r)
            label = NumberText(self._cell("row_label", r), _LABEL_SIZE, theme.muted)
            label.place([label_right, y, 0], align="right")
            self.corner.add(label)
            for c in cols:
                cell = self._cell("corner", r, c)
                number = NumberText(
                    cell, _CORNER_SIZE, value_colour(cell.value, self.board.value_scale, theme)
                )
                number.place([values_left + (c + 1) * slot, y, 0], align="right")
                self.corner.add(number)
            if self.board.dim > len(cols):
                dots = LabelText("\u2026", _CORNER_SIZE, theme.muted)
                dots.place([values_left + len(cols) * slot + 0.12, y, 0], align="left")
                self.corner.add(dots)
        # Thin column rules, as in the grid, between the corner's values.
        for c in range(1, len(cols) + (1 if self.board.dim > len(cols) else 0)):
            x = values_left + c * slot + char_advance(_CORNER_SIZE) * 0.5
            self.block.add(
                Line(xyz(x, _BLOCK_TOP), xyz(x, _BLOCK_BOTTOM), stroke_width=0.8).set_stroke(
                    theme.cell_stroke, opacity=0.8
                )
            )
        self.slot_x = [values_left + (c + 1) * slot for c in cols]
        if self.board.vocab_size > len(rows):
            # Hidden rows sit between the corner and the looked-up row (or after both).
            dots_slot = len(rows) if self.band_slot != len(rows) else len(rows) + 1
            dots = LabelText("\u22ee", _CORNER_SIZE, theme.muted)
            dots.move_to(xyz(values_left + slot * 0.6, _slot_y(dots_slot)))
            self.corner.add(dots)
        self.heading = SansText(self.word("embedding_matrix"), 22, theme.muted)
        self.heading.move_to(xyz((_BLOCK_LEFT + _BLOCK_RIGHT) / 2, 2.35))
        self.cols_number = NumberText(self._cell("block_size", 1), _NUMBER_SIZE, theme.text)
        cols_word = SansText(self.word("columns"), _TEXT_SIZE, theme.muted)
        self.cols_label = VGroup(self.cols_number, cols_word).arrange(RIGHT, buff=0.15)
        self.cols_label.move_to(xyz((_BLOCK_LEFT + _BLOCK_RIGHT) / 2, _BLOCK_TOP + 0.3))
        room = _BLOCK_LEFT - 0.2 - frame_regions().left
        rows_cell = self._cell("block_size", 0)
        width_at = max(
            NumberText(rows_cell, _NUMBER_SIZE, theme.text).width,
            SansText(self.word("rows"), _TEXT_SIZE, theme.muted).width,
        )
        size = _line_font(width_at, _NUMBER_SIZE, room)
        self.rows_number = NumberText(rows_cell, size, theme.text)
        rows_word = SansText(self.word("rows"), _TEXT_SIZE * size / _NUMBER_SIZE, theme.muted)
        self.rows_label = VGroup(self.rows_number, rows_word).arrange(DOWN, buff=0.15)
        self.rows_label.move_to(xyz(0, _ROWS_LABEL_Y))
        self.rows_label.align_to(xyz(_BLOCK_LEFT - 0.2, 0), RIGHT)
        # Braces of a kind: thin rules along the two sides that the counts measure.
        self.measures = VGroup(
            Line(xyz(_BLOCK_LEFT - 0.1, _BLOCK_TOP), xyz(_BLOCK_LEFT - 0.1, _BLOCK_BOTTOM)),
            Line(xyz(_BLOCK_LEFT, _BLOCK_TOP + 0.1), xyz(_BLOCK_RIGHT, _BLOCK_TOP + 0.1)),
        ).set_stroke(theme.muted, width=2)

    def _count_line(self, size: float) -> VGroup:
        theme = self.theme
        product = mono_line(
            [
                self._cell("factor", 0),
                " \u00d7 ",
                self._cell("factor", 1),
                " = ",
                self._cell("param_count", 0),
            ],
            size,
            [theme.text, theme.muted, theme.text, theme.muted, theme.accent],
        )
        word = SansText(self.word("parameters"), size * _NUMBER_SIZE / _COUNT_SIZE, theme.accent)
        word.next_to(product, RIGHT, buff=0.25 * size / _COUNT_SIZE)
        return VGroup(product, word)

    def _build_count(self) -> None:
        width_at = self._count_line(_COUNT_SIZE).width
        size = _line_font(width_at, _COUNT_SIZE, _panel_right() - _PANEL_LEFT)
        self.count_line = self._count_line(size)
        self.count_line.move_to(xyz(0, _COUNT_Y)).align_to(xyz(_PANEL_LEFT, 0), LEFT)
        product = self.count_line[0]
        self.factors = (product[0], product[2])

    def _build_memory(self) -> None:
        theme = self.theme
        panel_right = _panel_right()
        header = _header_row(
            [
                (self.word("dtype"), _PANEL_LEFT, LEFT),
                (self.word("bytes_each"), _BYTES_RIGHT, RIGHT),
                (self.word("total_bytes"), _TOTAL_RIGHT, RIGHT),
                (self.word("memory"), panel_right, RIGHT),
            ],
            theme.muted,
        )
        header.shift(UP * _TABLE_HEADER_Y)
        self.memory_header = header
        self.memory_rows: list[VGroup] = []
        final = self.board.beats[-1]
        dtypes = [final.labels[f"dtype_{number}"] for number in range(self._count("dtype_memory"))]
        rows = range(self._count("dtype_memory"))
        # Totals of many gigabytes get a smaller font rather than crowd "bytes each".
        total_size = _font_to_fit(
            [self._cell("dtype_total", n).text for n in rows],
            _TOTAL_RIGHT - _BYTES_RIGHT - _COLUMN_GAP,
            _NUMBER_SIZE,
        )
        for number in rows:
            y = _TABLE_HEADER_Y - (number + 1) * _LINE_PITCH
            name = LabelText(dtypes[number], _NUMBER_SIZE, theme.text)
            name.place([_PANEL_LEFT, y, 0], align="left")
            each = NumberText(self._cell("dtype_bytes", number), _NUMBER_SIZE, theme.text)
            each.place([_BYTES_RIGHT, y, 0], align="right")
            total = NumberText(self._cell("dtype_total", number), total_size, theme.muted)
            total.place([_TOTAL_RIGHT, y, 0], align="right")
            memory = NumberText(self._cell("dtype_memory", number), _NUMBER_SIZE, theme.output)
            memory.place([panel_right, y, 0], align="right")
            self.memory_rows.append(VGroup(name, each, total, memory))

    def _build_compare(self) -> None:
        theme = self.theme
        panel_right = _panel_right()
        header = _header_row(
            [
                (self.word("width"), _PANEL_LEFT, LEFT),
                (self.word("parameters"), _TOTAL_RIGHT, RIGHT),
                # The comparison prices every width in float32 (the label is recorded).
                (self._compare_dtype(), panel_right, RIGHT),
            ],
            theme.muted,
            mono_last=True,
        )
        header.shift(UP * _COMPARE_HEADER_Y)
        self.compare_header = header
        count = self._count("compare_dim")
        largest = max(self._cell("compare_count", k).value for k in range(count))
        count_size = _font_to_fit(
            [self._cell("compare_count", k).text for k in range(count)],
            _TOTAL_RIGHT - _BAR_LEFT - _BAR_MAX - _COLUMN_GAP,
            _TEXT_SIZE,
        )
        self.compare_rows: list[tuple[VGroup, Rectangle]] = []
        for k in range(count):
            y = _COMPARE_HEADER_Y - (k + 1) * _LINE_PITCH
            current = self._cell("compare_dim", k).value == self.board.dim
            colour = theme.text if current else theme.muted
            width_line = mono_line(["d = ", self._cell("compare_dim", k)], _TEXT_SIZE, [colour] * 2)
            width_line.move_to(xyz(0, y)).align_to(xyz(_PANEL_LEFT, 0), LEFT)
            params = NumberText(self._cell("compare_count", k), count_size, colour)
            params.place([_TOTAL_RIGHT, y, 0], align="right")
            memory = NumberText(
                self._cell("compare_memory", k), _TEXT_SIZE, theme.output if current else colour
            )
            memory.place([panel_right, y, 0], align="right")
            share = self._cell("compare_count", k).value / largest
            bar = Rectangle(width=max(_BAR_MAX * share, 0.02), height=digit_height(_TEXT_SIZE))
            bar.set_fill(theme.accent if current else theme.muted, opacity=1.0).set_stroke(width=0)
            bar.move_to(xyz(0, y)).align_to(xyz(_BAR_LEFT, 0), LEFT)
            self.compare_rows.append((VGroup(width_line, params, memory), bar))

    def _build_lookup(self) -> None:
        theme = self.theme
        # The row the token selects, picked out across the block.
        row_y = _slot_y(self.band_slot)
        self.band = Rectangle(width=_BLOCK_RIGHT - _BLOCK_LEFT, height=_ROW_PITCH)
        # Amber outlines this ID's row; no tint behind its numbers (it would cut their contrast).
        self.band.set_fill(opacity=0.0).set_stroke(theme.chip, width=3)
        self.band.move_to(xyz((_BLOCK_LEFT + _BLOCK_RIGHT) / 2, row_y))
        # Its real leading values, in the corner's columns.
        self.band_values = VGroup()
        values_cells = sorted(
            (c for c in self.cells.values() if c.kind == "lookup_value"), key=lambda c: c.index
        )
        for cell, x in zip(values_cells, self.slot_x, strict=False):
            number = NumberText(
                cell, _CORNER_SIZE, value_colour(cell.value, self.board.value_scale, theme)
            )
            number.place([x, row_y, 0], align="right")
            self.band_values.add(number)
        if values_cells and self.board.dim > len(values_cells):
            dots = LabelText("\u2026", _CORNER_SIZE, theme.muted)
            dots.place([self.slot_x[len(values_cells) - 1] + 0.12, row_y, 0], align="left")
            self.band_values.add(dots)
        self.chip = self.make_chip(self._cell("token_id", 0), 22)
        self.chip.move_to(xyz(0, row_y)).align_to(xyz(_BLOCK_LEFT - 0.25, 0), RIGHT)
        # In the panel: E[id], then the copied values at the block's spacing.
        self.strip_label = mono_line(
            ["E[", self._cell("lookup_row", 0), "] ="], _CORNER_SIZE, [theme.text] * 3
        )
        self.strip_label.move_to(xyz(0, _LOOKUP_Y)).align_to(xyz(_PANEL_LEFT, 0), LEFT)
        values_left = self.strip_label.get_right()[0] + 0.3
        shift = xyz(values_left - self.band_values.get_left()[0], _LOOKUP_Y - row_y)
        self.copied_values = [piece.copy().shift(shift) for piece in self.band_values]
        landed = VGroup(*self.copied_values)
        self.strip = Rectangle(width=landed.width + 0.3, height=_ROW_PITCH)
        self.strip.set_fill(theme.cell_fill, opacity=1.0).set_stroke(theme.chip, width=3)
        self.strip.move_to(landed).set_z_index(-1)
        values = NumberText(self._cell("row_values", 0), _TEXT_SIZE, theme.text)
        values_word = SansText(self.word("values_copied"), _TEXT_SIZE, theme.muted)
        nbytes = NumberText(self._cell("row_bytes", 0), _TEXT_SIZE, theme.text)
        bytes_word = SansText(self.word("bytes"), _TEXT_SIZE, theme.muted)
        facts = VGroup(values, values_word, nbytes, bytes_word).arrange(RIGHT, buff=0.14)
        room = _panel_right() - _PANEL_LEFT
        if facts.width > room:
            size = _line_font(facts.width, _TEXT_SIZE, room)
            facts = VGroup(
                NumberText(self._cell("row_values", 0), size, theme.text),
                SansText(self.word("values_copied"), size, theme.muted),
                NumberText(self._cell("row_bytes", 0), size, theme.text),
                SansText(self.word("bytes"), size, theme.muted),
            ).arrange(RIGHT, buff=0.14 * size / _TEXT_SIZE)
        facts.next_to(self.strip, DOWN, buff=0.16).align_to(xyz(_PANEL_LEFT, 0), LEFT)
        note = WordText(self.word("no_arithmetic"), _TEXT_SIZE, theme.accent, room)
        note.next_to(facts, DOWN, buff=0.16).align_to(facts, LEFT)
        self.lookup_facts = VGroup(facts, note)

    # -- beat handlers -----------------------------------------------------------
    def beat_table(self, beat: Beat) -> Animation:
        """Show the block, its sizes and its corner of real values.

        Three steps, one per phrase: the block with its rows ("one row per
        vocabulary entry"), its columns ("one column per dimension"), then
        the corner's real numbers as both counts are named.
        """
        rows_measure, cols_measure = self.measures
        rows = [self.title, self.heading, self.block, rows_measure, self.rows_label]
        # Each part gets a share of the beat long enough to see.
        return Steps(
            AnimationGroup(make_reveal_animation(rows), run_time=2.0),
            AnimationGroup(make_reveal_animation([cols_measure, self.cols_label]), run_time=2.0),
            Succession(
                LaggedStart(*[FadeIn(m) for m in self.corner], lag_ratio=0.15),
                AnimationGroup(Indicate(self.rows_number), Indicate(self.cols_number)),
            ),
        )

    def beat_count(self, beat: Beat) -> Animation:
        """Carry V, then d, over into the product; then reveal the count.

        Each number travels in its own highlight strip, in a clear lane between
        the block's heading and the title, and drops onto its place in the
        product, so it never passes over another number or label. Two steps:
        the corner's entries are pointed at ("Every entry is a trainable
        parameter"), then the product is built as the narration states it.
        """
        product, word = self.count_line
        lane = (self.heading.get_top()[1] + self.title.get_bottom()[1]) / 2
        rows_at = self.rows_number.get_center()
        # V rises up the left margin, beside the block's rows label.
        rows_route = [xyz(rows_at[0], lane), xyz(product[0].get_center()[0], lane)]
        # d steps left, clear of "columns" and of the heading, before it rises.
        cols_at = self.cols_number.get_center()
        aside = min(
            self.heading.get_left()[0] - self.cols_number.width / 2 - 0.25,
            cols_at[0],
        )
        cols_route = [
            xyz(aside, cols_at[1]),
            xyz(aside, lane),
            xyz(product[2].get_center()[0], lane),
        ]
        theme = self.theme
        entries = [m for m in self.corner if isinstance(m, NumberText)]
        count = Succession(
            make_carry_numbers_animation([self.rows_number], [product[0]], rows_route, theme),
            make_carry_numbers_animation([self.cols_number], [product[2]], cols_route, theme),
            FadeIn(product[1]),
            FadeIn(product[3]),
            AnimationGroup(FadeIn(product[4], scale=1.2), FadeIn(word)),
        )
        if not entries:
            return count
        pulse = Indicate(VGroup(*entries), scale_factor=1.0, color=theme.accent, run_time=2.0)
        return Steps(pulse, count)

    def beat_dtype(self, beat: Beat) -> Animation:
        """Add the next dtype's row to the memory table (with the header, the first time).

        Two steps, as the narration names them: the first dtype's name, bytes
        and total, then its memory ("or 147.2 MiB"); a later dtype's name
        ("In bfloat16, ...") and then its bytes, total and memory.
        """
        number = sum(1 for cell in beat.numbers if cell.kind == "dtype_memory") - 1
        row = self.memory_rows[number]
        split = 3 if number == 0 else 1

        def reveal(pieces: Sequence[VMobject]) -> Animation:
            # A lone piece still gets a share of the beat long enough to see.
            run_time = max(1.0 + 0.3 * (len(pieces) - 1), 1.5)
            fades = [FadeIn(p, shift=0.1 * RIGHT) for p in pieces]
            return LaggedStart(*fades, lag_ratio=0.3, run_time=run_time)

        first, then = reveal(list(row[:split])), reveal(list(row[split:]))
        if number == 0:
            return Steps(Succession(FadeIn(self.memory_header), first), then)
        return Steps(first, then)

    def beat_compare(self, beat: Beat) -> Animation:
        """Compare a narrower and a wider d: bars grow with the parameter count.

        Two steps, one per phrase: the widths d ("A larger d ..."), then the
        bars, parameter counts and memory growing with them ("but the
        parameters, memory and compute grow in step with it").
        """
        widths = [FadeIn(texts[0], shift=0.1 * RIGHT) for texts, _ in self.compare_rows]
        rows = [
            AnimationGroup(FadeIn(texts[1]), FadeIn(texts[2]), GrowFromEdge(bar, LEFT))
            for texts, bar in self.compare_rows
        ]
        return Steps(
            Succession(FadeIn(self.compare_header), LaggedStart(*widths, lag_ratio=0.3)),
            LaggedStart(*rows, lag_ratio=0.5),
        )

    def beat_lookup(self, beat: Beat) -> Animation:
        """Pick out the chip's row and copy it: values move, nothing is computed.

        The row's values travel as one strip: down the block's empty rows to
        the panel's lookup line, then right onto it, landing at the same spacing
        beside ``E[id] =``. Three steps, one per phrase: the chip arrives ("A
        lookup itself ..."), its row is copied out with its size ("ID 3 just
        copies row 3, ..."), and the note that nothing is computed appears
        ("Nothing is multiplied or summed").
        """
        start = self.band_values[0].get_center()
        end = self.copied_values[0].get_center()
        route = [xyz(start[0], end[1])]
        facts, note = self.lookup_facts
        return Steps(
            FadeIn(self.chip, shift=0.3 * RIGHT),
            Succession(
                AnimationGroup(Create(self.band), FadeIn(self.band_values)),
                # The values themselves travel (each is drawn once): the band
                # stays outlined in the block, where they came from.
                make_carry_numbers_animation(
                    list(self.band_values), self.copied_values, route, self.theme, take=True
                ),
                AnimationGroup(FadeIn(self.strip), FadeIn(self.strip_label), FadeIn(facts)),
            ),
            FadeIn(note),
        )


def _font_to_fit(texts: Sequence[str], width: float, largest: float) -> float:
    """Return the largest monospace font size (up to ``largest``) at which every text fits."""
    widest = max(len(text) for text in texts)
    return fit_font(lambda size: widest * char_advance(size) <= width, largest)


def _slot_y(slot: int) -> float:
    """Return the centre height of the block's row slot ``slot`` (0 at the top)."""
    return _BLOCK_TOP - (slot + 0.5) * _ROW_PITCH


def _band_slot(token_id: int, vocab_size: int, corner_rows: int) -> int:
    """Place the looked-up row: in the corner if it is drawn there, else after it.

    The last row of a table with hidden rows goes to the bottom slot, so the
    block keeps its top-to-bottom order.
    """
    if token_id < corner_rows:
        return token_id
    if token_id == vocab_size - 1 and vocab_size > corner_rows + 2:
        return _BOTTOM_SLOT
    return (
        corner_rows + 1 if vocab_size > corner_rows + 1 and token_id > corner_rows else corner_rows
    )


def _label_chars(cells: dict[tuple[str, tuple[int, ...]], NumberCell]) -> int:
    """Return the width, in characters, of the corner's widest row number."""
    return max(len(cell.text) for key, cell in cells.items() if key[0] == "row_label")


def _header_row(
    columns: Sequence[tuple[str, float, np.ndarray]], colour: str, mono_last: bool = False
) -> VGroup:
    """Set a table's header words at their column edges, at one size for all.

    A longer (translated) word that would run into its neighbour or off the
    frame shrinks the row (:func:`fit_font`); the last header is monospace
    when ``mono_last`` (a recorded dtype label).
    """

    def build(size: float) -> VGroup:
        row = VGroup()
        for number, (text, x, edge) in enumerate(columns):
            mono = mono_last and number == len(columns) - 1
            row.add(_at((LabelText if mono else SansText)(text, size, colour), x, edge))
        return row

    def fits(size: float) -> bool:
        row = build(size)
        return row.get_left()[0] >= frame_regions().left and all(
            a.get_right()[0] + _COLUMN_GAP / 2 <= b.get_left()[0] for a, b in pairwise(row)
        )

    return build(fit_font(fits, _HEADER_SIZE))


def _at(mobject: VMobject, x: float, edge: np.ndarray) -> VMobject:
    """Put a header's left or right edge at ``x`` (its centre at height 0)."""
    mobject.move_to(xyz(0, 0))
    return mobject.align_to(xyz(x, 0), edge)


def _frange(start: float, stop: float, step: float) -> list[float]:
    """Descending values from ``start`` while above ``stop``."""
    values = []
    value = start
    while value > stop:
        values.append(value)
        value -= step
    return values
