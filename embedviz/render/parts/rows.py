"""A block's rows drawn apart from its body, and a block's heading.

Shared by the position layout's blocks (:mod:`.positions`), the training
layout's (:mod:`.training`) and the scatter's: :class:`Rows` (each row's
numbers and elision marks, filled when its beat comes) and :func:`heading`
(a block's words, then its symbol as maths).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from manim import RIGHT, VGroup, VMobject

from embedviz.render.design import SPACE, Theme, maths, value_colour
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.metrics import xyz
from embedviz.render.parts.clear_outline import clear_row_outline
from embedviz.render.parts.grid import CellGrid
from embedviz.story.model import NumberCell

__all__ = ["Cells", "Position", "Rows", "heading"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]
Position = tuple[int, ...]


def heading(word: str, symbol: str, font: float, word_colour: str, symbol_colour: str) -> VGroup:
    """Return a block's heading: its words, then its symbol as maths (the one maths voice)."""
    parts: list[VMobject] = [SansText(word, font, word_colour)]
    if symbol:
        parts.append(maths(symbol, symbol_colour, font))
    return VGroup(*parts).arrange(RIGHT, buff=SPACE * 1.5)


class Rows:
    """A block's rows drawn apart from its body: numbers and elision marks per position.

    The body (a :class:`~embedviz.render.parts.grid.CellGrid` without entries)
    can be shown empty, and each row filled when its beat comes.

    Parameters
    ----------
    grid
        The body, in place.
    positions
        The positions, in row order.
    cells
        Every cell, by (kind, index).
    kind
        The cells this block shows.
    font
        The data size.
    theme, value_scale
        Colours.
    first
        The grid row the first position fills (the rest follow).
    keys
        Instead, the grid row (its key) each position fills.

    The numbers and marks are also the grid's entries and marks (read by its
    getters and by a :class:`~embedviz.render.parts.strip.Carry`), without
    being drawn with it.
    """

    def __init__(
        self,
        grid: CellGrid,
        positions: Sequence[Position],
        cells: Cells,
        kind: str,
        font: float,
        theme: Theme,
        value_scale: float,
        first: int = 0,
        keys: Sequence[int] | None = None,
    ) -> None:
        self.grid = grid
        self.positions = list(positions)
        self.keys = list(range(first, first + len(self.positions)) if keys is None else keys)
        self.numbers: dict[Position, list[NumberText]] = {}
        self.marks: dict[Position, list[LabelText]] = {}
        gaps = [slot.key for slot in grid.col_slots if slot.gap]
        for row, position in zip(self.keys, self.positions, strict=True):
            found = sorted(
                (c for (k, i), c in cells.items() if k == kind and i[:-1] == position),
                key=lambda c: c.index,
            )
            self.numbers[position] = [
                grid.put(
                    row, c.index[-1], NumberText(c, font, value_colour(c.value, value_scale, theme))
                )
                for c in found
            ]
            self.marks[position] = [
                LabelText("\u2026", font, theme.muted).move_to(
                    xyz(grid.col_x(g, True), grid.row_y(row))
                )
                for g in gaps
            ]
            grid.entries.update({(row, n.cell.index[-1]): n for n in self.numbers[position]})
            grid.marks[row] = VGroup(*self.marks[position])

    def row(self, position: Position) -> list[VMobject]:
        """Return one row's numbers and marks."""
        return [*self.numbers[position], *self.marks[position]]

    def all(self) -> list[VMobject]:
        """Return every row's numbers and marks."""
        return [m for position in self.positions for m in self.row(position)]

    def index(self, position: Position) -> int:
        """Return the grid row that holds a position."""
        return self.keys[self.positions.index(position)]

    def outline(self, position: Position, colour: str, beside: Sequence[Position] = ()) -> VMobject:
        """Return an outline around one row, clear of the block's frame (not yet added).

        ``beside``: the positions whose rows are outlined at the same time.
        """
        keys = [self.index(p) for p in beside]
        return clear_row_outline(self.grid, self.index(position), colour, beside=keys)

    def y(self, position: Position) -> float:
        """Return one row's centre line."""
        return self.grid.row_y(self.index(position))
