"""Small nouns of the older stages: the colour legend, shape labels, token chips, printed tensors.

Split from :mod:`embedviz.render.mobjects` (which re-exports them); the lookup
family uses :mod:`embedviz.render.parts` instead, and phase 2 of issue 18
moves the other stages over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from manim import RIGHT, UP, RoundedRectangle, VGroup, VMobject

from embedviz.render.design import chip_edge_width
from embedviz.render.glyphs import LabelText, NumberText
from embedviz.render.metrics import char_advance, digit_height
from embedviz.render.theme import DARK, Theme
from embedviz.story.model import NumberCell
from embedviz.story.printed import PrintedLine

__all__ = ["SHAPE_BUFF", "PrintedTensor", "ShapeLabel", "TokenChip", "shape_label_width"]

# Between a shape's sizes and its ×.
SHAPE_BUFF = 0.12


class ShapeLabel(VGroup):
    """A shape such as ``4 × 3``, its sizes drawn as checked numbers.

    Parameters
    ----------
    cells
        The size cells, one per axis, in order.
    font_size
        Font size.
    color
        Colour.
    """

    def __init__(self, cells: Sequence[NumberCell], font_size: float, color: str) -> None:
        parts: list[VMobject] = []
        for axis, cell in enumerate(cells):
            if axis:
                parts.append(LabelText("\u00d7", font_size, color))
            parts.append(NumberText(cell, font_size, color))
        super().__init__(*parts)
        self.arrange(RIGHT, buff=SHAPE_BUFF)


def shape_label_width(digits: int, font_size: float) -> float:
    """Return the width of a two-axis :class:`ShapeLabel` whose sizes have ``digits`` digits.

    Its sizes and its × are monospace, a :data:`SHAPE_BUFF` apart: solvers
    measure it before it is drawn.
    """
    return char_advance(font_size) * (digits + 1) + 2 * SHAPE_BUFF


class TokenChip(VGroup):
    """A token ID in a rounded chip, with its text piece above the ID when known.

    Parameters
    ----------
    cell
        The ``token_id`` cell.
    font_size
        Font size of the ID.
    theme
        Colours.
    piece
        The token's text (e.g. ``##bed``) when the IDs came from text.
    """

    def __init__(
        self, cell: NumberCell, font_size: float, theme: Theme = DARK, piece: str | None = None
    ) -> None:
        number = NumberText(cell, font_size, theme.chip_text)
        parts: list[VMobject] = [number]
        self.piece: LabelText | None = None
        if piece is not None:
            self.piece = LabelText(piece, font_size * 0.7, theme.chip_text)
            self.piece.next_to(number, UP, buff=0.08)
            parts.insert(0, self.piece)
        content = VGroup(*parts)
        box = RoundedRectangle(
            corner_radius=0.08,
            width=max(content.width + 0.3, 0.55),
            height=content.height + number.height * 0.9,
        )
        box.set_fill(theme.chip, opacity=1.0).set_stroke(
            theme.chip_edge, width=chip_edge_width(theme)
        )
        box.move_to(content)
        super().__init__(box, *parts)
        self.number = number


class PrintedTensor(VGroup):
    """A PyTorch-style print laid out in monospace, numbers drawn as cells.

    Parameters
    ----------
    lines
        The print, split by :func:`embedviz.story.printed.split_printed`.
    numbers
        The storyboard's ``printed`` cells.
    labels
        The beat's labels: the text of each piece that is not a number is the
        label with role ``printed_<line>_<piece>`` (three-digit piece).
    omitted_label
        The elision line's text when lines were left out.
    font_size
        Font size.
    theme
        Colours.
    """

    def __init__(
        self,
        lines: Sequence[PrintedLine],
        numbers: Sequence[NumberCell],
        labels: Mapping[str, str],
        omitted_label: str | None,
        font_size: float,
        theme: Theme = DARK,
    ) -> None:
        super().__init__()
        advance = char_advance(font_size)
        line_height = digit_height(font_size) * 2.1
        by_index = {cell.index: cell for cell in numbers if cell.kind == "printed"}
        rows: list[list[tuple[int, LabelText | NumberText]]] = []
        self.pieces: list[LabelText | NumberText] = []
        self.text_pieces: list[LabelText] = []
        for line_number, line in enumerate(lines):
            row: list[tuple[int, LabelText | NumberText]] = []
            for piece_number, (column, _, element) in enumerate(line.pieces):
                piece: LabelText | NumberText
                if element is None:
                    role = f"printed_{line_number}_{piece_number:03d}"
                    piece = LabelText(labels[role], font_size, theme.muted)
                    self.text_pieces.append(piece)
                else:
                    piece = NumberText(by_index[element], font_size, theme.text)
                row.append((column, piece))
                self.pieces.append(piece)
            rows.append(row)
        if omitted_label is not None:
            elision = LabelText(omitted_label, font_size, theme.muted)
            # Over the numbers' first column (``tensor([[`` is 9 wide), inside the row's
            # brackets: the lines it stands for are numbers of the row.
            rows.insert(len(rows) - 2, [(9, elision)])
        for line_number, row in enumerate(rows):
            for column, piece in row:
                # Every piece starts at its character column, as in a terminal.
                piece.place([column * advance, -line_number * line_height, 0], align="left")
                self.add(piece)

    def last_text_piece(self) -> VMobject:
        """Return the print's last text piece (PyTorch ends a print with its ``grad_fn``)."""
        return self.text_pieces[-1]
