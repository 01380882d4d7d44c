"""A window on a real-sized table that scrolls like a spreadsheet (LargeVocabLookup's matrix).

A GPT-2-sized E cannot be drawn: :class:`ScrollingMatrix` shows a window of
it (a :class:`~embedviz.render.parts.grid.CellGrid` whose hidden ranges are
thin bands, each labelled), and scrolls to another window between beats:
the rows that leave fade out together into the bands, the rows that stay
glide, and the rows that come fade in together, every hidden range labelled
all the while (:class:`~embedviz.render.parts.scroll_gaps.GapScroll`). A
scroll bar beside the grid (:class:`ScrollBar`) shows where the window is
among all V rows. A row the window hides is fetched from its band:
:meth:`source` gives the band's place for it (no outline is drawn round a
band: it holds a label, not the ID's row).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np
from manim import Animation, Line, Rectangle, Transform, VGroup, VMobject

from embedviz.render.design import APART, SPACE, Theme, maths
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import digit_height, xyz
from embedviz.render.parts.chips import Follow
from embedviz.render.parts.grid import CellGrid, GridSizes, row_slots
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.matrix_grid import matrix_grid
from embedviz.render.parts.scroll_gaps import plan_scroll
from embedviz.render.solver import LookupPlan
from embedviz.render.stage import StageHost
from embedviz.story.model import NumberCell, Storyboard, Window
from embedviz.story.window import hidden_ranges
from embedviz.story.words import Words

__all__ = ["ScrollBar", "ScrollingMatrix", "body_height"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]


def body_height(window: Window, sizes: GridSizes) -> float:
    """Return the height of a window's grid body (rows and thin bands)."""
    return float(sum(slot.size for slot in row_slots(window, sizes)))


def _beside_rows(count: VMobject, plan: LookupPlan) -> bool:
    """Whether ``count`` stands level with the output block's rows, beside them (left).

    Within :data:`~embedviz.render.design.SPACE` of the block's rows across, and
    :data:`~embedviz.render.design.APART` left of the block: on its heading's line
    it then stands apart from the heading.
    """
    top = plan.output_top
    bottom = top - len(plan.order) * plan.sizes.row_height
    level = count.get_bottom()[1] < top + SPACE and count.get_top()[1] > bottom - SPACE
    return bool(level and count.get_right()[0] + APART <= plan.output_left)


class ScrollBar(VGroup):
    """A scroll bar for all V rows: a tick per row the window shows, a thumb on the row looked at.

    Parameters
    ----------
    x, top, height
        The bar's centre line, top and length (it stands for rows 0 to V-1, top down).
    vocab
        V.
    theme
        Colours: the track and ticks muted, the thumb in the text colour.
    window, row
        The first window, and the row the thumb starts on.
    """

    def __init__(
        self, x: float, top: float, height: float, vocab: int, theme: Theme, window: Window
    ) -> None:
        super().__init__()
        self.x, self.top, self.length, self.vocab, self.theme = x, top, height, vocab, theme
        self.track = Line(xyz(x, top), xyz(x, top - height), stroke_width=3)
        self.track.set_stroke(theme.muted, opacity=0.7)
        self.ticks = self.ticks_for(window)
        self.thumb = Rectangle(width=0.18, height=max(0.08, height * 0.03))
        self.thumb.set_fill(theme.text, opacity=1.0).set_stroke(width=0)
        self.thumb.move_to(xyz(x, self.row_y(window.rows[0])))
        self.add(self.track, self.ticks, self.thumb)

    def row_y(self, row: int) -> float:
        """Return the height on the bar that stands for a row of the table."""
        return float(self.top - self.length * (row + 0.5) / self.vocab)

    def ticks_for(self, window: Window) -> VGroup:
        """Return a tick for each row a window shows (on the track, where it stands now)."""
        x = float(self.track.get_center()[0])
        ticks = VGroup(
            *[
                Line(xyz(x - 0.07, y), xyz(x + 0.07, y), stroke_width=2)
                for y in (self.row_y(row) for row in window.rows)
            ]
        )
        return ticks.set_stroke(self.theme.muted, opacity=0.9)

    def follow(self, window: Window, row: int | None) -> list[Animation]:
        """Move the ticks to a window's rows and the thumb to ``row`` (a pure shift)."""
        moves: list[Animation] = [Transform(self.ticks, self.ticks_for(window))]
        if row is not None:
            dy = self.row_y(row) - self.thumb.get_center()[1]
            moves.append(Follow(self.thumb, np.array([xyz(0, 0), xyz(0, dy)])))
        return moves


class ScrollingMatrix(MatrixPart):
    """E as a window that scrolls, with its scroll bar and its count of parameters.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard (its beats' windows are the windows scrolled through).
    cells
        Every cell of the storyboard, by (kind, index): the weights of every window.
    plan
        Where things go (the plan keeps a column for the bar right of the matrix).
    theme
        Colours.
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: LookupPlan, theme: Theme
    ) -> None:
        super().__init__(host, board, cells, plan, theme)
        self.board, self.cells, self.plan = board, cells, plan
        self.window = board.beats[0].window
        # How far right of the solver's place the matrix stands now (it may rest there
        # between lookups): a window scrolled to is built where the one shown stands.
        self.across = 0.0
        tallest = max(body_height(beat.window, plan.sizes) for beat in board.beats)
        bar_x = plan.matrix_left + plan.body_width + plan.bar_width / 2
        self.bar = ScrollBar(bar_x, plan.matrix_top, tallest, board.vocab_size, theme, self.window)
        label = plan.scale.label
        count = cells.get(("param_count", (0,)))
        self.count: VGroup | None = None
        # How far over E's heading the count would stand; not 0: it stands on the raised
        # block's heading line instead, to the end (the block never settles level with E).
        self.count_home = 0.0
        if count is not None:
            self.count = VGroup(
                maths("V times d =", theme.text, label),
                NumberText(count, label, theme.text),
                SansText(board.word("parameters"), label, theme.muted),
            ).arrange(buff=SPACE)
            # Over the heading, in the band the solver keeps for it (``note_above``): the
            # raised output block leaves it free, where under E it would add height. Two
            # SPACEs over the heading (one left it 12 px over, reading as its first line).
            heading_top = plan.heading_y + digit_height(label) * 0.8
            y = heading_top + 2 * SPACE + digit_height(label) / 2
            self.count.move_to(xyz(0, y)).align_to(self.heading, np.array([-1.0, 0.0, 0.0]))
            if _beside_rows(self.count, plan):
                # Level with the raised block's rows it stood on output row 1's bottom edge
                # (a 720p review: the landing copy's frame ran on along the label's baseline,
                # reading as one line). On the block's heading line it is clear of them.
                self.count_home = y - plan.output_heading_y
                self.count.set_y(plan.output_heading_y)

    def intro(self) -> list[VMobject]:
        """Return the grid, its heading, the legend and the scroll bar."""
        return [*super().intro(), self.bar]

    def _grid(self, window: Window) -> CellGrid:
        """Build a window's grid at the matrix's place."""
        gaps = {n: gap.label for n, gap in enumerate(window.row_gaps)}
        grid = matrix_grid(
            window, self.cells, self.plan.sizes, self.theme, self.board.value_scale, gaps
        )
        grid.shift(
            xyz(
                self.plan.matrix_left + self.across - grid.body_left(),
                self.plan.matrix_top - grid.body_top(),
            )
        )
        return grid

    def scroll_to(self, window: Window) -> Animation | None:
        """Scroll to another window; the grid's bookkeeping is the new window's at once.

        Animations built after this call (a chip walking to a row that is
        arriving) find rows where they will be.

        Returns
        -------
        Animation or None
            The scroll, or None when the window is the one shown.
        """
        if window == self.window:
            return None
        self.across = self.grid.body_left() - self.plan.matrix_left
        old, new = self.grid, self._grid(window)
        scroll = plan_scroll(old, new, (self.window, window), self._middle)
        self.grid, self.window = new, window
        return scroll

    def _middle(self, rows: list[int]) -> tuple[Window, CellGrid]:
        """Return the window of ``rows`` (those two windows share) and its grid, for its labels."""
        window = replace(
            self.window,
            rows=tuple(rows),
            row_gaps=hidden_ranges(rows, self.board.vocab_size, "row", Words(self.board.words)),
        )
        return window, self._grid(window)

    # -- a row, or the band that hides it ------------------------------------------------
    def _band(self, row: int) -> tuple[float, float]:
        """Return the centre line and height of the band that hides ``row`` in this window."""
        for number, gap in enumerate(self.window.row_gaps):
            if gap.first <= row <= gap.last:
                slot = next(s for s in self.grid.row_slots if s.gap and s.key == number)
                return self.grid.row_y(number, gap=True), slot.size
        raise ValueError(f"row {row} is neither shown nor hidden in this window")

    def source(self, row: int) -> tuple[float, float, float]:
        """Return the left and right ends and the centre line a row's strip leaves from."""
        left, right = self.grid.body_left(), self.grid.body_right()
        if row in self.window.rows:
            return left, right, self.grid.row_y(row)
        return left, right, self._band(row)[0]
