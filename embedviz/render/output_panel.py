"""The older stages' output block panel: the block, its title, shape label and row tags.

Split from :mod:`embedviz.render.components` (which re-exports it). The lookup
family uses :class:`embedviz.render.parts.lookup.OutputPart`; phase 2 of issue
18 moves the other stages over.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Animation,
    AnimationGroup,
    Circumscribe,
    Create,
    Line,
    Rectangle,
    RoundedRectangle,
    Succession,
    SurroundingRectangle,
    VGroup,
    VMobject,
)

from embedviz.render.animations import Steps, make_reveal_animation, point_at
from embedviz.render.fades import FadeIn
from embedviz.render.glyphs import GlyphString, LabelText, NumberText, SansText
from embedviz.render.layout import HEADING_FONT, frame_regions
from embedviz.render.mobjects import ShapeLabel, xyz
from embedviz.render.output_block import OutputBlock
from embedviz.render.stage import Component, StageHost
from embedviz.render.theme import Theme
from embedviz.story.model import Beat, NumberCell

__all__ = ["OutputPanel", "char_span_box"]

Cells = dict[tuple[str, tuple[int, ...]], NumberCell]


def char_span_box(
    text: GlyphString, start: int, stop: int, colour: str, buff: float = 0.03
) -> Rectangle:
    """Outline characters ``start`` to ``stop`` (exclusive) of a monospace string, where it is now.

    Parameters
    ----------
    text
        A monospace string (a :class:`~embedviz.render.glyphs.LabelText`).
    start, stop
        The characters, as in ``text.text[start:stop]``.
    colour
        Stroke colour.
    buff
        Space between the characters and the outline.

    Returns
    -------
    Rectangle
        The outline, not yet added; tall enough for brackets.
    """
    low, high = text.slot_corners()
    advance = (high[0] - low[0]) / max(len(text.text), 1)
    height = (high[1] - low[1]) * 1.7 + 2 * buff
    box = Rectangle(width=(stop - start) * advance + 2 * buff, height=height)
    box.move_to(xyz(low[0] + (start + stop) / 2 * advance, (low[1] + high[1]) / 2))
    return box.set_stroke(colour, width=2.5).set_fill(opacity=0.0)


class OutputPanel(Component):
    """The one output block: rows, title, shape label and provenance tags.

    Attributes
    ----------
    output
        The block, or None when the layout has no output.
    title
        ``output``.
    shape_label
        The output's shape, once a beat has written it.
    tags
        Each output row's provenance: the ID in the chip's colour, its word
        piece and a mark when it equals an earlier row.
    """

    def __init__(self, host: StageHost, theme: Theme) -> None:
        super().__init__(host, theme)
        self.output: OutputBlock | None = None
        self.title: SansText | None = None
        self.shape_label: ShapeLabel | None = None
        self.tags: dict[tuple[int, ...], VGroup] = {}
        self.question: LabelText | None = None
        self.question_marks: list[Line | None] = []

    def build_tags(
        self,
        positions: Sequence[tuple[int, ...]],
        cells: Cells,
        font: float,
        pieces: Sequence[str] | None,
    ) -> None:
        """Build each output row's provenance: its ID in the chip colour, piece, equality.

        Parameters
        ----------
        positions
            The output rows, in the block's order.
        cells
            Every cell of the storyboard (``output_id`` and ``equal_to`` ones are drawn).
        font
            Font size of the tags.
        pieces
            The word pieces behind the IDs, when the input was text.
        """
        assert self.output is not None
        theme = self.theme
        self.tags = {}
        order = list(positions)
        for position in order:
            cell = cells.get(("output_id", position))
            if cell is None:
                continue
            number = NumberText(cell, font, theme.chip_text)
            box = RoundedRectangle(
                corner_radius=0.06, width=number.width + 0.12, height=number.height * 1.8
            )
            box.set_fill(theme.chip, opacity=1.0).set_stroke(theme.id_line, width=1)
            label = self.output.labels[order.index(position)]
            if self.output.labels_right:
                box.next_to(label, RIGHT, buff=0.1)
            else:
                # Row labels on the left: the tag goes right of the block, on the row.
                box.move_to(xyz(0, label.get_center()[1]))
                box.align_to(xyz(self.output.body.get_right()[0] + 0.12, 0), LEFT)
            number.move_to(box)
            tag = VGroup(box, number)
            if pieces and position[-1] < len(pieces):
                piece = LabelText(pieces[position[-1]], font, theme.id_ink)
                piece.next_to(box, RIGHT, buff=0.08)
                tag.add(piece)
            mark = cells.get(("equal_to", position))
            if mark is not None:
                # A verdict (out[2] = out[0]): the neutral accent, shown by its shape.
                text = NumberText(mark, font, theme.wrong)
                text.next_to(tag, RIGHT, buff=0.1)
                tag.add(text)
            self.tags[position] = tag

    def output_cells(self, position: tuple[int, ...], cells: Cells) -> list[NumberText]:
        """Create (without adding) one output row's numbers, each in its slot."""
        assert self.output is not None
        row = sorted(
            (c for c in cells.values() if c.kind == "output" and c.index[:-1] == position),
            key=lambda c: c.index,
        )
        return [self.output.make_cell(cell) for cell in row]

    def beat_predict(self, beat: Beat) -> Animation:
        """Ask for the output shape before revealing it, one axis per phrase.

        The question (``output shape?  rows × values``) comes in with its
        ``rows`` underlined, then ``values`` is underlined: the narration asks
        how many rows, then how many values in each row. A stage puts a step
        before these for the phrase about the input (see
        :meth:`~embedviz.render.stages.lookup.LookupStage.beat_predict`).
        """
        assert self.output is not None
        self.question = LabelText(beat.label("question"), 24, self.theme.output)
        self.question.move_to(self.output.body)
        # A translated question may be longer than the English one: it shrinks to stay
        # inside the frame, centred on the output block.
        safe = frame_regions()
        x = float(self.question.get_center()[0])
        room = 2 * min(x - safe.left, safe.right - x)
        if self.question.width > room:
            self.question.scale(room / self.question.width)
        self.question_marks = [self._underline(word) for word in ("rows", "values")]
        marks = [m for m in self.question_marks if m is not None]
        if len(marks) < 2:
            return FadeIn(self.question, shift=0.2 * DOWN)
        return Steps(
            Succession(FadeIn(self.question, shift=0.2 * DOWN), Create(marks[0])),
            Create(marks[1]),
        )

    def _underline(self, word: str) -> Line | None:
        """Underline ``word`` in the question (None when the question lacks it)."""
        assert self.question is not None
        start = self.question.text.find(word)
        if start < 0:
            return None
        box = char_span_box(self.question, start, start + len(word), self.theme.output)
        line = Line(box.get_corner(DOWN + LEFT), box.get_corner(DOWN + RIGHT))
        return line.set_stroke(self.theme.output, width=3)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Reveal the empty output block, with its shape written when the story has it.

        With the shape written, a second step points at its last size (the
        embedding dimension), for the phrase that names it.
        """
        assert self.output is not None
        assert self.title is not None
        leaving: list[VMobject] = [self.question] if self.question is not None else []
        leaving += [m for m in self.question_marks if m is not None]
        appearing: list[VMobject] = [self.output, self.title]
        sizes = sorted((c for c in beat.numbers if c.kind == "output_size"), key=lambda c: c.index)
        if sizes:
            self.shape_label = ShapeLabel(sizes, HEADING_FONT, self.theme.output)
            self.shape_label.next_to(self.title, RIGHT, buff=0.3)
            appearing.append(self.shape_label)
        shown = make_reveal_animation(appearing)
        if leaving:
            # The question leaves before the block arrives where it stood.
            shown = Succession(make_reveal_animation([], leaving), shown)
        if self.shape_label is None or len(beat.phrases) < 2:
            return shown
        return Steps(shown, point_at(self.shape_label[-1], self.theme.highlight, scale=1.2))

    def beat_shape(self, beat: Beat) -> Animation:
        """Label the output's shape (or point at it, when the reveal wrote it).

        Two steps, for "the rows come from the input IDs," and "the columns
        from the embedding dimension": the block is framed and its row count
        and row tags flash, then the column count flashes.
        """
        assert self.output is not None
        assert self.title is not None
        frame = Create(SurroundingRectangle(self.output.body, color=self.theme.output, buff=0.06))
        if self.shape_label is not None:
            shown: Animation = AnimationGroup(
                point_at(self.shape_label, self.theme.highlight), frame
            )
        else:
            sizes = [c for c in beat.numbers if c.kind == "output_size"]
            label = ShapeLabel(sorted(sizes, key=lambda c: c.index), 26, self.theme.output)
            label.next_to(self.title, RIGHT, buff=0.35)
            self.shape_label = label
            shown = AnimationGroup(FadeIn(label, scale=1.3), frame)
        if len(beat.phrases) < 2 or len(self.shape_label) < 3:
            return shown
        accent = self.theme.highlight
        # The rows' provenance: each row's ID tag (or its row numbers, untagged).
        rows = VGroup(*self.tags.values()) if self.tags else self.output.labels
        return Steps(
            Succession(
                shown,
                AnimationGroup(
                    point_at(self.shape_label[0], accent, scale=1.2),
                    Circumscribe(rows, color=accent, buff=0.06),
                ),
            ),
            point_at(self.shape_label[-1], accent, scale=1.2),
        )
