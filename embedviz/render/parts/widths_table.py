"""ParameterCount's table of widths: other widths d at the same V, with bars that grow with them.

Each width's row holds ``d = 384``, its parameters and its memory on one line, and
its bar on a line of its own under them, the widest bar across the table. In a
column of their own beside the numbers the bars were 35-140 px long at 720p, beside
a memory table that took half the panel (issue 18: a teacher's review of the
compare beat found "the width bars are small"); the memory table now leaves as
this beat starts (:mod:`embedviz.render.stages.parameter_count`), and the table of
widths, what the narration is about, takes the panel.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    Animation,
    AnimationGroup,
    GrowFromEdge,
    LaggedStart,
    Rectangle,
    Succession,
    VGroup,
    VMobject,
)

from embedviz.render.animations import Steps
from embedviz.render.baseline import put_on_line
from embedviz.render.design import SPACE, Theme, maths
from embedviz.render.fades import FadeIn
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import char_advance, digit_height, xyz
from embedviz.render.sans_lines import SansLines
from embedviz.render.solve_parameter_count import COLUMN_GAP_CHARS, SYMBOL_GAP, ParamPlan
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["BAR_AIR", "BAR_HEIGHT", "PARAMS_AIR", "ROW_AIR", "TRACK_OPACITY", "WidthsTable"]

# A bar's height, in its row's digit heights (a bar as tall as the digits outweighed them).
BAR_HEIGHT = 0.8
# The air over a bar (to its row's numbers) and under it (to the next row), in SPACEs:
# the bar reads as its row's, not the next one's.
BAR_AIR = 0.8
ROW_AIR = 3.6
# Between the widest width ("d = 1,536") and its row's parameters, in the numbers' advances:
# as far as "bytes each" stands off the total beside it (tests/test_parameter_count_frames.py).
PARAMS_AIR = 4.0
# A bar's track: the grid's rule colour at this opacity, over the frame's background.
TRACK_OPACITY = 0.5


def _at(mobject: VMobject, x: float, y: float, edge: np.ndarray) -> VMobject:
    """Put a mobject's left or right edge at x, its centre at height y."""
    return mobject.move_to(xyz(x, y)).align_to(xyz(x, 0), edge)


def _column_spans(
    heads: list[VMobject],
    texts: list[list[VMobject]],
    room: tuple[float, float, float],
    data: float,
) -> list[tuple[float, float]]:
    """Return the table's three columns' spans (left, right): widths, parameters, memory.

    ``room`` is the widths' column's left edge, the column gap and the bars' name's width.
    Room is left of the parameters for that name and two column gaps, as when it stood
    in the header row: narrower, the toy's table took under a quarter of the frame. That
    room stood between "width" and "parameters", 303 px apart at 720p, with "float32
    memory" 29 px on (a 720p review at 37.6 s): the header read as two groups. The
    parameters' column moves left until the headers' two gaps are even (its header centred
    over it, the others at the table's edges), its numbers kept :data:`PARAMS_AIR`
    advances of the numbers (``data``, a font size) off the widest width's; the table
    keeps its width.
    """
    left, gap, name = room
    widths = [max(head.width, *(row[n].width for row in texts)) for n, head in enumerate(heads)]
    first = left + widths[0]
    second = first + gap + max(widths[1] + gap, name + 2 * gap + heads[1].width)
    third = second + gap + widths[2]
    # The parameters' header's centre, midway between the other two headers' facing ends.
    middle = (left + heads[0].width + third - heads[2].width) / 2
    floor = first + PARAMS_AIR * char_advance(data) + widths[1]
    second = max(floor, min(second, middle + widths[1] / 2))
    return [(left, first), (second - widths[1], second), (third - widths[2], third)]


class WidthsTable(Component):
    """Other widths d at the same V: parameters and memory, with bars that grow with them.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell, by (kind, index).
    plan
        Where things go: the panel's left edge, its first column's right edge, the
        table's header line and first row's line (``plan.lines["widths"]``).
    theme
        Colours.
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        cells: Mapping[tuple[str, tuple[int, ...]], NumberCell],
        plan: ParamPlan,
        theme: Theme,
    ) -> None:
        super().__init__(host, theme)
        self.plan, table = plan, cells
        labels = {role: text for beat in board.beats for role, text in beat.labels.items()}
        lines, label, data = plan.lines["widths"], plan.panel.label, plan.panel.data
        gap = char_advance(label) * COLUMN_GAP_CHARS
        # A header in the headers' voice: in monospace its inner space (a full advance)
        # read as wide as the gap to "parameters" beside it, one run of words. A label
        # (SansLines), not a plain text: it names a dtype, float32, with digits that the
        # storyboard holds.
        dtype = labels["compare_dtype"]
        words: list[VMobject] = [
            SansText(board.word(word), label, theme.muted)
            for word in ("width", "table_size", "parameters")
        ]
        words.append(SansLines(dtype, [dtype], label, theme.muted, gap=0.0))
        counts = sorted(
            (c for (k, _), c in table.items() if k == "compare_count"), key=lambda c: c.index
        )
        texts: list[list[VMobject]] = []
        colours = []
        for number, count in enumerate(counts):
            width = table[("compare_dim", (number,))]
            current = width.value == board.dim
            colour = theme.text if current else theme.muted
            colours.append(colour)
            # The symbol is maths; the width, a number with its thousands separator.
            symbol = VGroup(maths("d =", colour, label), NumberText(width, data, colour))
            symbol.arrange(RIGHT, buff=char_advance(data) * SYMBOL_GAP)
            memory = table[("compare_memory", (number,))]
            texts.append(
                [
                    symbol,
                    NumberText(count, data, colour),
                    NumberText(memory, data, theme.output if current else colour),
                ]
            )
        # The header row names the number line's columns: width, parameters, memory. Each
        # bar lies on a line of its own under its row, from the row's left edge, the widest
        # across the table: the row's, in no column. Under "table size" in the header row,
        # a column of its own, the bars ran on under "parameters" and "float32 memory" (a
        # 720p review at 42.0 s: the bars under the wrong columns), and "table size" stood
        # over no entry on the number lines. The bars' name stands after the first bar.
        self.bar_label = SansText(board.word("table_size"), label, theme.muted)
        heads = [words[0], words[2], words[3]]
        room = (plan.panel_left, gap, self.bar_label.width)
        spans = _column_spans(heads, texts, room, data)
        # The header spans the table, as its rows do (it rests beside them by its left edge):
        # "width" at its left, "float32 memory" at its right, "parameters" centred over its
        # column between them.
        edges = (spans[0][0], spans[1][1], spans[2][1])
        _at(heads[0], edges[0], lines[0], LEFT)
        heads[1].move_to(xyz(sum(spans[1]) / 2, lines[0]))
        _at(heads[2], edges[2], lines[0], RIGHT)
        self.header = VGroup(*[put_on_line(word, lines[0]) for word in heads])
        self.rows: list[tuple[VGroup, Rectangle]] = []
        self.tracks: list[Rectangle] = []
        sizes = [(float(c.value), colour) for c, colour in zip(counts, colours, strict=True)]
        self._set_rows(texts, sizes, edges)

    def _set_rows(
        self,
        texts: list[list[VMobject]],
        sizes: list[tuple[float, str]],
        edges: tuple[float, float, float],
    ) -> None:
        """Set each row's texts on its line at ``edges``, its bar (its size, its colour) under it.

        The bars' name stands after the first (:attr:`bar_label`).
        """
        lines, label, data = self.plan.lines["widths"], self.plan.panel.label, self.plan.panel.data
        left, second, third = edges
        largest = max(size for size, _ in sizes)
        digit = digit_height(data)
        height = BAR_HEIGHT * digit
        pitch = digit + BAR_AIR * SPACE + height + ROW_AIR * SPACE
        for number, (row, (size, colour)) in enumerate(zip(texts, sizes, strict=True)):
            y = lines[1] - number * pitch
            _at(row[0], left, y, LEFT)
            _at(row[1], second, y, RIGHT)
            _at(row[2], third, y, RIGHT)
            bar = Rectangle(width=max((third - left) * size / largest, 0.02))
            bar.stretch_to_fit_height(height)
            bar.set_fill(colour, opacity=1.0).set_stroke(width=0)
            bar_y = y - digit / 2 - BAR_AIR * SPACE - height / 2
            _at(bar, left, bar_y, LEFT)
            # The bar's track: the widest bar's length. It stands with its
            # width d, an empty frame the bar grows into (as the lookup's output block waits
            # for its rows): without it the panel under "parameters" stood empty until the
            # numbers came (29 % of the frame at 720p, 37.6 s; issue 18).
            track = Rectangle(width=third - left, height=height)
            # Filled, unstroked: a stroke ran into the margin past the toy's table's edge,
            # and touched the bars' name (tests/test_moments.py). A cell's fill was white on
            # the light theme's near-white: a rule's colour, half seen, shows on both.
            track.set_fill(self.theme.cell_stroke, opacity=TRACK_OPACITY).set_stroke(width=0)
            _at(track, left, bar_y, LEFT)
            self.tracks.append(track)
            if number == 0:
                end = bar.get_right()[0] + char_advance(label)
                put_on_line(_at(self.bar_label, end, bar_y, LEFT), bar_y)
            self.rows.append((VGroup(*row), bar))

    def beat_compare(self, beat: Beat) -> Animation:
        """Show the widths d and their bars' tracks; then bars, counts, memory."""
        widths = [
            AnimationGroup(FadeIn(texts[0], shift=0.1 * RIGHT), FadeIn(track))
            for (texts, _), track in zip(self.rows, self.tracks, strict=True)
        ]
        rows = [
            AnimationGroup(
                FadeIn(texts[1]),
                FadeIn(texts[2]),
                GrowFromEdge(bar, LEFT),
                *([FadeIn(self.bar_label)] if number == 0 else []),
            )
            for number, (texts, bar) in enumerate(self.rows)
        ]
        return Steps(
            Succession(FadeIn(self.header), LaggedStart(*widths, lag_ratio=0.3)),
            LaggedStart(*rows, lag_ratio=0.5),
        )
