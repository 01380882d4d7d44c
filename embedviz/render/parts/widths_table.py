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

__all__ = ["BAR_AIR", "BAR_HEIGHT", "ROW_AIR", "WidthsTable"]

# A bar's height, in its row's digit heights (a bar as tall as the digits outweighed them).
BAR_HEIGHT = 0.8
# The air over a bar (to its row's numbers) and under it (to the next row), in SPACEs:
# the bar reads as its row's, not the next one's.
BAR_AIR = 0.8
ROW_AIR = 3.6


def _at(mobject: VMobject, x: float, y: float, edge: np.ndarray) -> VMobject:
    """Put a mobject's left or right edge at x, its centre at height y."""
    return mobject.move_to(xyz(x, y)).align_to(xyz(x, 0), edge)


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
        table = cells
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
        # The columns, each as wide as it needs: the widths'; the bars', a column gap after
        # it, under their header; the parameters'; the memory's.
        left = plan.panel_left
        first = left + max(words[0].width, *(row[0].width for row in texts))
        bar_left = first + gap
        params = max(row[1].width for row in texts)
        # Two column gaps between the bars' header and "parameters": at one, "table size
        # parameters" read as one run of words (they share no column of numbers to part them).
        second = max(first + gap + params, bar_left + words[1].width + 2 * gap + words[2].width)
        third = second + gap + max(words[3].width, *(row[2].width for row in texts))
        edges = (left, bar_left, second, third)
        self.header = VGroup(
            *[
                put_on_line(_at(word, x, lines[0], RIGHT if n > 1 else LEFT), lines[0])
                for n, (word, x) in enumerate(zip(words, edges, strict=True))
            ]
        )
        largest = max(c.value for c in counts)
        digit = digit_height(data)
        height = BAR_HEIGHT * digit
        pitch = digit + BAR_AIR * SPACE + height + ROW_AIR * SPACE
        self.rows: list[tuple[VGroup, Rectangle]] = []
        for number, (row, count, colour) in enumerate(zip(texts, counts, colours, strict=True)):
            y = lines[1] - number * pitch
            _at(row[0], left, y, LEFT)
            _at(row[1], second, y, RIGHT)
            _at(row[2], third, y, RIGHT)
            bar = Rectangle(width=max((third - bar_left) * count.value / largest, 0.02))
            bar.stretch_to_fit_height(height)
            bar.set_fill(colour, opacity=1.0).set_stroke(width=0)
            _at(bar, bar_left, y - digit / 2 - BAR_AIR * SPACE - height / 2, LEFT)
            self.rows.append((VGroup(*row), bar))

    def beat_compare(self, beat: Beat) -> Animation:
        """Show the widths d ("A larger d ..."); then bars, counts and memory growing with them."""
        widths = [FadeIn(texts[0], shift=0.1 * RIGHT) for texts, _ in self.rows]
        rows = [
            AnimationGroup(FadeIn(texts[1]), FadeIn(texts[2]), GrowFromEdge(bar, LEFT))
            for texts, bar in self.rows
        ]
        return Steps(
            Succession(FadeIn(self.header), LaggedStart(*widths, lag_ratio=0.3)),
            LaggedStart(*rows, lag_ratio=0.5),
        )
