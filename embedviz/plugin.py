"""embedviz as a Manim plugin: the table, its chips and its lookup in your own scenes.

A small, stable facade over :mod:`embedviz.render`. Every number these
mobjects draw comes from a core table (:class:`embedviz.core.table.Table`):
an author passes the table and token IDs, never a value, so a scene built
from them is as true as embedviz's own.

Examples
--------
.. code-block:: python

    from manim import Scene
    from embedviz.core.table import EmbeddingTable
    from embedviz.plugin import EmbeddingGrid, OutputBlock, TokenChip, copy_row, walk_to_row

    class MyLookup(Scene):
        def construct(self):
            table = EmbeddingTable.from_seed(6, 3, seed=123)  # nn.Embedding(6, 3)
            grid = EmbeddingGrid(table).to_edge(LEFT)
            block = OutputBlock((1, table.dim), grid).to_edge(RIGHT)
            chip = TokenChip(3).next_to(block, UP)
            self.add(grid, block, chip)
            self.play(walk_to_row(chip, grid))
            self.play(copy_row(grid, 3, block, 0))

The package registers this module as the ``embedviz`` entry point of the
``manim.plugins`` group, so ``manim plugins -l`` lists it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from manim import Animation, AnimationGroup, Create, FadeOut, Succession

from embedviz.core.table import Table
from embedviz.render.animations import (
    make_copy_row_animation,
    make_return_animation,
    make_walk_animation,
)
from embedviz.render.glyphs import NumberText
from embedviz.render.layout import CHIP_FONT, MAX_NUMBER_FONT
from embedviz.render.mobjects import GAP_ROW_PITCH, GridMetrics, MatrixGrid
from embedviz.render.mobjects import TokenChip as _TokenChip
from embedviz.render.output_block import OutputBlock as _OutputBlock
from embedviz.render.theme import DARK, LIGHT, Theme
from embedviz.story.model import NumberCell, Window
from embedviz.story.screen import Screen, int_cell, value_cell
from embedviz.story.window import choose_window, hidden_ranges

__all__ = [
    "DARK",
    "LIGHT",
    "EmbeddingGrid",
    "OutputBlock",
    "Theme",
    "TokenChip",
    "Window",
    "copy_row",
    "lookup",
    "walk_to_row",
]


def _window_for(table: Table, window: Window | Iterable[int] | None) -> Window:
    """Turn ``None``, a few focus rows or a full window into a checked window."""
    if window is None:
        return choose_window(table.vocab_size, table.dim, ())
    if not isinstance(window, Window):
        rows = [_check_index(row, table.vocab_size, "row") for row in window]
        return choose_window(table.vocab_size, table.dim, rows)
    for row in window.rows:
        _check_index(row, table.vocab_size, "row")
    for col in window.cols:
        _check_index(col, table.dim, "column")
    if list(window.rows) != sorted(set(window.rows)) or not window.rows:
        raise ValueError("a window's rows must be distinct, ascending and not empty")
    if list(window.cols) != sorted(set(window.cols)) or not window.cols:
        raise ValueError("a window's columns must be distinct, ascending and not empty")
    # The gap labels are derived here, so they are always exact.
    return Window(
        rows=tuple(window.rows),
        cols=tuple(window.cols),
        row_gaps=hidden_ranges(list(window.rows), table.vocab_size, "row"),
        col_gaps=hidden_ranges(list(window.cols), table.dim, "column"),
    )


def _check_index(value: object, size: int, noun: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"a {noun} index must be a whole number, not {value!r}")
    if not 0 <= int(value) < size:
        raise ValueError(f"{noun} {value} is out of range (valid: 0 to {size - 1})")
    return int(value)


class EmbeddingGrid(MatrixGrid):
    """The embedding matrix of a core table, drawn as embedviz draws it.

    Only a window of the table is drawn: every row and column of a small
    table, or for a large one the leading rows, the rows you name, the last
    row and a few columns, with each hidden range labelled exactly
    (``rows 6–50255 hidden``). The top-left corner of the grid's body is
    at the origin until you move the grid.

    Parameters
    ----------
    table
        A core table, e.g. ``EmbeddingTable.from_seed(6, 3, seed=123)``;
        every value drawn is read from it.
    window
        ``None`` for the default window; a few rows that must be drawn
        (e.g. the IDs your scene looks up); or a
        :class:`~embedviz.story.model.Window` naming exactly the rows and
        columns to draw (its gap labels are recomputed).
    width, height
        The region the grid may fill, in scene units; the font size is the
        largest that fits.
    theme
        Colours (:data:`DARK` or :data:`LIGHT`).
    max_font_size
        Never larger than this (the layout kit's size for table numbers).

    Attributes
    ----------
    table
        The table.
    window
        The drawn window.
    numbers
        Every number drawn (values, row and column numbers) as storyboard
        cells: the exact string and the float behind it.
    value_scale
        The magnitude that gets the strongest value colour.
    theme
        Colours.

    Raises
    ------
    ValueError
        If a row or column is outside the table, or a value drawn is not finite.
    """

    def __init__(
        self,
        table: Table,
        window: Window | Iterable[int] | None = None,
        *,
        width: float = 6.0,
        height: float = 4.5,
        theme: Theme = DARK,
        max_font_size: float = MAX_NUMBER_FONT,
    ) -> None:
        chosen = _window_for(table, window)
        screen = Screen()
        try:
            scale = screen.add_grid(table, chosen, title_size=False, legend=False)
        except Exception as error:  # EmbedvizError: a value that cannot be drawn
            raise ValueError(str(error)) from None
        numbers = screen.frozen_numbers()
        values = [c.text for c in numbers if c.kind == "weight"]
        labels = [c.text for c in numbers if c.kind == "row_label"]
        metrics = GridMetrics.fit(
            value_chars=max(len(text) for text in values),
            columns=len(chosen.cols),
            column_gaps=len(chosen.col_gaps),
            label_chars=max(max(len(text) for text in labels), 2),
            rows=len(chosen.rows) + GAP_ROW_PITCH * len(chosen.row_gaps) + 1,
            width=width,
            height=height,
            max_font_size=max_font_size,
        )
        super().__init__(chosen, numbers, metrics, theme, scale)
        self.table = table
        self.numbers: tuple[NumberCell, ...] = numbers
        self.value_scale = scale
        self.theme = theme

    def value(self, row: int, col: int) -> NumberText:
        """Return the drawn number at ``(row, col)``.

        Parameters
        ----------
        row, col
            A drawn row and column.

        Returns
        -------
        NumberText
            The mobject; its ``cell`` holds the string and the table value.
        """
        return self.cell(row, col)


class TokenChip(_TokenChip):
    """A token ID in a chip, with its text piece above it when given.

    Parameters
    ----------
    token_id
        The token ID, a whole number ≥ 0. Which row it selects is decided by
        :func:`walk_to_row`, against the grid's table.
    piece
        The token's text (e.g. ``"##bed"``), drawn above the ID.
    position
        Its position in the input sequence (labels the number's cell).
    font_size
        Font size of the ID (the layout kit's chip size).
    theme
        Colours.

    Attributes
    ----------
    token_id
        The ID.
    """

    def __init__(
        self,
        token_id: int,
        piece: str | None = None,
        *,
        position: int = 0,
        font_size: float = CHIP_FONT,
        theme: Theme = DARK,
    ) -> None:
        if isinstance(token_id, bool) or not isinstance(token_id, int | np.integer):
            raise TypeError(f"a token ID must be a whole number, not {token_id!r}")
        if token_id < 0:
            raise ValueError(f"token ID {token_id} is negative")
        super().__init__(int_cell("token_id", (position,), int(token_id)), font_size, theme, piece)
        self.token_id = int(token_id)


class OutputBlock(_OutputBlock):
    """The lookup's output: one row per slot, the grid's columns.

    Parameters
    ----------
    shape
        ``(slots, d)``; ``d`` must be the grid's table's ``dim``.
    grid
        The grid whose rows will be copied in: the block shares its columns,
        sizes and colours.

    Attributes
    ----------
    shape
        ``(slots, d)``.
    filled
        Which table row each slot received, by slot.

    Raises
    ------
    ValueError
        If ``d`` is not the table's dimension or there are no slots.
    """

    def __init__(self, shape: Sequence[int], grid: EmbeddingGrid) -> None:
        if len(shape) != 2:
            raise ValueError(f"an output block is 2-D (slots, d), not {tuple(shape)}")
        slots, dim = (int(n) for n in shape)
        if dim != grid.table.dim:
            raise ValueError(f"the table's rows have {grid.table.dim} values, not {dim}")
        if slots < 1:
            raise ValueError("an output block needs at least one slot")
        positions = [(slot,) for slot in range(slots)]
        labels = [int_cell("position", (slot,), slot) for slot in range(slots)]
        super().__init__(positions, grid.window, labels, grid.metrics, grid.theme, grid.value_scale)
        self.shape = (slots, dim)
        self.filled: dict[int, int] = {}


def _drawn_row(grid: EmbeddingGrid, row: int) -> int:
    row = _check_index(row, grid.table.vocab_size, "row")
    if row not in grid.row_labels:
        raise ValueError(
            f"row {row} is not drawn in this grid; pass it in the window, "
            f"e.g. EmbeddingGrid(table, window=[{row}])"
        )
    return row


def walk_to_row(chip: TokenChip, grid: EmbeddingGrid, row: int | None = None) -> Animation:
    """Walk a token chip to the row its ID selects, parking left of the row number.

    Parameters
    ----------
    chip
        The token.
    grid
        The table's grid.
    row
        The row; by default (and necessarily) the chip's ID, since row indices
        count from 0 exactly as IDs do.

    Returns
    -------
    Animation
        A rise, a travel and a descent, about 1 s.

    Raises
    ------
    ValueError
        If ``row`` is not the chip's ID, the ID is outside the table, or the
        row is not drawn.
    """
    if row is not None and row != chip.token_id:
        raise ValueError(f"ID {chip.token_id} selects row {chip.token_id}, not row {row}")
    return make_walk_animation(chip, grid, _drawn_row(grid, chip.token_id))


def copy_row(grid: EmbeddingGrid, row: int, block: OutputBlock, slot: int) -> Animation:
    """Fly a copy of a table row's numbers into one slot of the output block.

    The numbers that land are built from the table's own row, so they are
    the lookup's exact result.

    Parameters
    ----------
    grid
        The table's grid.
    row
        A drawn row.
    block
        The output block, built from the same grid.
    slot
        Which output row receives the copy.

    Returns
    -------
    Animation
        One flight per drawn number, about 1.2 s.

    Raises
    ------
    ValueError
        If the row is not drawn, the slot is outside the block, or the block
        belongs to another grid's columns.
    """
    row = _drawn_row(grid, row)
    slot = _check_index(slot, block.shape[0], "slot")
    if block.window.cols != grid.window.cols or block.shape[1] != grid.table.dim:
        raise ValueError("the output block was built for another grid")
    values = grid.table.rows(np.asarray([row]))[0]
    targets = [
        block.make_cell(value_cell("output", (slot, col), values[col])) for col in grid.window.cols
    ]
    block.filled[slot] = row
    return make_copy_row_animation(grid, row, targets)


def lookup(chip: TokenChip, grid: EmbeddingGrid, block: OutputBlock, slot: int) -> Animation:
    """Walk a chip to its row, highlight it, copy it into a slot, and send the chip home.

    Parameters
    ----------
    chip
        The token, where it rests before the lookup.
    grid
        The table's grid.
    block
        The output block.
    slot
        The output row that receives the copy.

    Returns
    -------
    Animation
        A succession of about 3.2 s; the chip ends dimmed at its start.
    """
    row = _drawn_row(grid, chip.token_id)
    home = chip.get_center().copy()
    box = grid.row_box(row, grid.theme)
    return Succession(
        AnimationGroup(walk_to_row(chip, grid), Create(box)),
        copy_row(grid, row, block, slot),
        AnimationGroup(
            make_return_animation(chip, grid.row_anchor(row, chip.width), home), FadeOut(box)
        ),
    )
