"""The colour legend: one place, one meaning per swatch (a value's sign and size)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from manim import DOWN, LEFT, RIGHT, UP, Rectangle, VGroup

from embedviz.render.design import SPACE, Theme, value_colour
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import digit_height, xyz
from embedviz.story.model import NumberCell, Storyboard

__all__ = ["SWATCHES", "Legend", "band_legend"]

# Swatches from -s through 0 to +s.
SWATCHES = 11


class Legend(VGroup):
    """The value colour scale: its title, a strip of swatches, and the values at -s, 0 and +s.

    Parameters
    ----------
    cells
        The three ``legend`` cells (``-s``, ``0``, ``+s``), in order.
    font_size
        The legend's font size (the frame's legend size).
    theme
        Colours.
    title
        The storyboard's word for it (``value colour``).
    upright
        Swatches stacked from -s (bottom) to +s (top), their values at their
        right and the title above (a colour bar beside a table); else in a row.
        Both have the same parts in the same order, so one morphs into the other.
    stacked
        In a row, the title over the swatches (narrower, a line taller): a
        legend in the title band that lets the title stand centred in the frame.
    length
        An upright bar's height (by default, square swatches).
    level
        In a row, its values on the swatches' line (``-s`` left of them, ``+s``
        right, ``0`` knocked out of the zero swatch in the cells' fill): a
        legend in the title band no taller than the title's line, which leaves
        the rows under the band its strip (PositionBlindness).
    """

    def __init__(
        self,
        cells: Sequence[NumberCell],
        font_size: float,
        theme: Theme,
        title: str,
        upright: bool = False,
        length: float | None = None,
        stacked: bool = False,
        level: bool = False,
    ) -> None:
        super().__init__()
        scale = abs(cells[-1].value)
        side = digit_height(font_size) * 1.3
        swatches = VGroup()
        for step in range(SWATCHES):
            value = scale * (2 * step / (SWATCHES - 1) - 1)
            tall = length / SWATCHES if upright and length is not None else side
            swatch = Rectangle(width=side, height=tall)
            swatch.set_stroke(width=0).set_fill(value_colour(value, scale, theme), opacity=1.0)
            swatches.add(swatch)
        swatches.arrange(UP if upright else RIGHT, buff=0.0)
        ends = (swatches[0], swatches[SWATCHES // 2], swatches[-1])
        self.ticks = [NumberText(cell, font_size, theme.muted) for cell in cells]
        for tick, end in zip(self.ticks, ends, strict=True):
            tick.next_to(end, RIGHT if upright else DOWN, buff=SPACE * 0.6)
        self.title = SansText(title, font_size, theme.muted)
        if level and not upright:
            _level_ticks(self.ticks, swatches, theme)
            self.title.next_to(self.ticks[0], LEFT, buff=2 * SPACE)
        elif upright or stacked:
            self.title.next_to(swatches, UP, buff=SPACE).align_to(swatches, LEFT)
        else:
            self.title.next_to(swatches, LEFT, buff=2 * SPACE)
        self.add(self.title, swatches, *self.ticks)
        self.swatches = swatches


def _level_ticks(ticks: Sequence[NumberText], swatches: VGroup, theme: Theme) -> None:
    """Set the values on the swatches' line: ``-s`` and ``+s`` at the ends, ``0`` in the middle.

    The zero swatch is the colour a cell's zero is drawn in, which keeps
    4.5:1 on the cells' fill (test_legend_zero): a ``0`` in that fill on it
    reads as well as a zero in a cell.
    """
    low, zero, high = ticks
    low.next_to(swatches, LEFT, buff=SPACE * 0.6)
    high.next_to(swatches, RIGHT, buff=SPACE * 0.6)
    zero.move_to(swatches[SWATCHES // 2]).set_fill(theme.cell_fill)


def band_legend(
    cells: Mapping[tuple[str, tuple[int, ...]], NumberCell],
    board: Storyboard,
    theme: Theme,
    font_size: float,
    stacked: bool,
    right_at: tuple[float, float] | None = None,
) -> Legend | None:
    """Return a legend in a row (or ``stacked``) for a title band; None without one.

    Parameters
    ----------
    cells
        The scene's cells by (kind, index): the ``legend`` cells are its values.
    board
        The storyboard (its word for the legend's title).
    theme
        Colours.
    font_size
        The legend's font size.
    stacked
        Whether its title stands over its swatches.
    right_at
        Where its right edge and centre line stand (x, y); unplaced without it.

    Returns
    -------
    Legend or None
        The legend, or None where the scene has no legend cells.
    """
    ticks = [cells[key] for key in sorted(cells) if key[0] == "legend"]
    if not ticks:
        return None
    legend = Legend(ticks, font_size, theme, board.word("value_colour"), stacked=stacked)
    if right_at is not None:
        legend.move_to(xyz(0, right_at[1])).align_to(xyz(right_at[0], 0), RIGHT)
    return legend
