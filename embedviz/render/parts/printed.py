"""The PyTorch call and the tensor it prints, in monospace (code is the only monospace text)."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    Animation,
    AnimationGroup,
    Create,
    LaggedStart,
    Line,
    Rectangle,
    ShowPassingFlash,
    SurroundingRectangle,
    VGroup,
    VMobject,
    config,
)

from embedviz.render.animations import Steps
from embedviz.render.design import MARGIN, SPACE, Theme
from embedviz.render.fades import FadeIn, FadeOut
from embedviz.render.glyphs import GlyphString, LabelText, NumberText
from embedviz.render.metrics import char_advance, digit_height, xyz
from embedviz.render.mobjects import PrintedTensor
from embedviz.render.spec import SUFFIX_INDENT
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, Storyboard
from embedviz.story.printed import split_printed

__all__ = ["PrintPart", "char_underline"]

# The numbers' box: its margin where there is room, and its line (a little
# thinner than manim's 4, so that it fits between the digits and the brackets).
NUMBERS_BOX_BUFF = 0.06
NUMBERS_BOX_STROKE = 3


def char_underline(text: GlyphString, index: int, colour: str) -> Line:
    """Underline one character of a monospace string, where it is now (leaving it visible)."""
    low, high = text.slot_corners()
    advance = (high[0] - low[0]) / max(len(text.text), 1)
    # Under the bracket's descender, as wide as its slot: it marks, never covers.
    y = low[1] - (high[1] - low[1]) * 0.5
    start = xyz(low[0] + index * advance, y)
    end = xyz(low[0] + (index + 1) * advance, y)
    return Line(start, end).set_stroke(colour, width=6)


class PrintPart(Component):
    """The call (``embedding_layer(torch.tensor([3]))``) and its print, under the blocks.

    Beats: ``print`` (the call and print appear; the outer brackets are
    underlined, never covered, while the narration explains them; then the
    numbers are circled) and ``grad_fn`` (its label is circled).

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard (its last beat holds the print's cells and labels).
    theme
        Colours.
    font_size
        The print's size, from the solver.
    left, top
        Where the call starts.
    wrap
        Put the print's ``grad_fn`` on a line of its own, as PyTorch does
        when the line would be too long.
    """

    def __init__(
        self,
        host: StageHost,
        board: Storyboard,
        theme: Theme,
        font_size: float,
        left: float,
        top: float,
        wrap: bool = False,
    ) -> None:
        super().__init__(host, theme)
        assert board.printed is not None
        final = board.beats[-1]
        assert final.output is not None
        lines, omitted = split_printed(board.printed, final.output.shape)
        self.code = LabelText(final.label("code"), font_size, theme.text)
        self.printed = PrintedTensor(
            lines,
            final.numbers,
            final.labels,
            final.labels.get("printed_omitted") if omitted else None,
            font_size,
            theme,
        )
        if wrap:
            self._wrap_suffix(font_size)
        # The call is on screen from the start when the storyboard shows it there.
        self.early = "code" in board.beats[0].labels
        self.code.move_to(xyz(0, top - self.code.height / 2)).align_to(xyz(left, 0), LEFT)
        self.printed.next_to(self.code, DOWN, buff=SPACE * 2, aligned_edge=LEFT)
        # A long print starts further left, so that it ends inside the safe area.
        over = VGroup(self.code, self.printed).get_right()[0] - (config.frame_width / 2 - MARGIN)
        if over > 0:
            self.code.shift(xyz(-over, 0))
            self.printed.shift(xyz(-over, 0))
        # The underlines of the outer brackets and the box round the numbers, once the
        # print beat has made them (the grad_fn beat clears them).
        self.bracket_marks: list[Line] = []
        self.numbers_box: Rectangle | None = None
        self.marks: list[VMobject] = []
        self.numbers = VGroup(*[p for p in self.printed.pieces if isinstance(p, NumberText)])

    def _wrap_suffix(self, font_size: float) -> None:
        """Move the last text piece (``grad_fn=...``) to a line of its own, indented."""
        suffix = self.printed.last_text_piece()
        first = self.printed.pieces[0]
        low, high = suffix.slot_corners()
        x = first.slot_corners()[0][0] + SUFFIX_INDENT * char_advance(font_size)
        y = (low[1] + high[1]) / 2 - digit_height(font_size) * 2.1
        suffix.place(xyz(x, y), align="left")

    def intro(self) -> list[VMobject]:
        """Return the call, when the storyboard shows it from the start."""
        return [self.code] if self.early else []

    def outer_brackets(self) -> list[Line]:
        """Underline the print's first ``[`` and last ``]`` (none if it has no brackets)."""
        pieces = self.printed.text_pieces
        opening = [(p, p.text.find("[")) for p in pieces if "[" in p.text]
        closing = [(p, p.text.rfind("]")) for p in pieces if "]" in p.text]
        if not opening or not closing:
            return []
        return [char_underline(p, at, self.theme.highlight) for p, at in (opening[0], closing[-1])]

    def numbers_frame(self) -> Rectangle:
        """Return a box round the print's numbers, its sides clear of the brackets beside them.

        The numbers' neighbours (``[[`` before, ``]]`` after) sit one character
        from their digits, closer than a box's usual margin: each side of the
        box goes midway between the numbers' ink and the nearest ink beside
        it, so that its stroke crosses neither while the brackets are explained.
        """
        stroke = NUMBERS_BOX_STROKE / 200  # half the line, in frame units
        inks = [n.ink_corners() for n in self.numbers]
        low = np.min([lo for lo, _ in inks], axis=0)
        high = np.max([hi for _, hi in inks], axis=0)
        beside = [p.ink_corners() for p in self.printed.text_pieces if p.text.strip()]
        # Ink on the numbers' lines, left and right of them.
        level = [(lo, hi) for lo, hi in beside if lo[1] < high[1] and hi[1] > low[1]]
        lefts = [hi[0] for lo, hi in level if hi[0] <= low[0]]
        rights = [lo[0] for lo, hi in level if lo[0] >= high[0]]
        buff = NUMBERS_BOX_BUFF + stroke
        left = max([low[0] - buff, *[(x + low[0]) / 2 for x in lefts]])
        right = min([high[0] + buff, *[(x + high[0]) / 2 for x in rights]])
        slot_low = min(n.slot_corners()[0][1] for n in self.numbers)
        slot_high = max(n.slot_corners()[1][1] for n in self.numbers)
        box = Rectangle(width=right - left, height=slot_high - slot_low + 2 * buff)
        box.move_to(xyz((left + right) / 2, (slot_low + slot_high) / 2))
        return box.set_stroke(self.theme.highlight, width=NUMBERS_BOX_STROKE)

    def point_at_numbers(self) -> Animation:
        """Pass an outline round the numbers, clear of the brackets; they keep their colours."""
        return ShowPassingFlash(self.numbers_frame(), time_width=0.3, run_time=1.0)

    def beat_print(self, beat: Beat) -> Animation:
        """Show the call and its print, underline its outer brackets, then circle its numbers."""
        shown: Animation = (
            FadeIn(self.printed)
            if self.early
            else LaggedStart(FadeIn(self.code), FadeIn(self.printed), lag_ratio=0.4)
        )
        outer = self.outer_brackets()
        if len(beat.phrases) < 3 or not outer or not len(self.numbers):
            return shown
        box = self.numbers_frame()
        self.bracket_marks, self.numbers_box = outer, box
        self.marks = [*outer, box]
        return Steps(shown, AnimationGroup(*[Create(u) for u in outer]), Create(box))

    def grad_fn_box(self) -> Animation:
        """Circle the ``grad_fn`` label; the bracket marks make way."""
        piece = self.printed.last_text_piece()
        boxed: Animation = Create(
            SurroundingRectangle(piece, color=self.theme.highlight, buff=0.05)
        )
        if self.marks:
            boxed = AnimationGroup(boxed, *[FadeOut(m) for m in self.marks])
            self.marks = []
        return boxed
