"""The PyTorch call and the tensor it prints, in monospace (code is the only monospace text)."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
from manim import (
    DOWN,
    LEFT,
    Animation,
    AnimationGroup,
    Create,
    LaggedStart,
    Line,
    Polygon,
    Rectangle,
    ShowPassingFlash,
    SurroundingRectangle,
    VGroup,
    VMobject,
    config,
)

from embedviz.render.animations import Steps
from embedviz.render.design import MARGIN, OUTLINE_REACH, SPACE, Theme
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
# The box round the grad_fn label: its margin.
GRAD_FN_BUFF = 0.05


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
        # A long print starts further left, so that it ends inside the safe area, with
        # the box the grad_fn beat draws round its last piece (its buff and its ink).
        right = config.frame_width / 2 - MARGIN
        boxed = self.printed.last_text_piece().get_right()[0] + GRAD_FN_BUFF + OUTLINE_REACH
        over = max(VGroup(self.code, self.printed).get_right()[0], boxed) - right
        if over > 0:
            self.code.shift(xyz(-over, 0))
            self.printed.shift(xyz(-over, 0))
        # The underlines of the outer brackets and the box round the numbers, once the
        # print beat has made them (the grad_fn beat clears them).
        self.bracket_marks: list[Line] = []
        self.numbers_box: VMobject | None = None
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

    def numbers_frame(self) -> VMobject:
        """Return a box round the print's numbers, its sides clear of the brackets beside them.

        The numbers' neighbours (``[[`` before, ``]]`` after) sit one character
        from their digits, closer than a box's usual margin: each side of the
        box goes midway between the numbers' ink and the nearest ink beside
        it, so that its stroke crosses neither while the brackets are explained.
        A print of several lines whose last line is shorter (768 numbers, five
        a line) ends ``]], grad_fn=...`` under the longer lines' numbers: there
        the right side steps in to that line's own numbers, so that the box
        neither runs through the label nor takes it in with the numbers.
        """
        stroke = NUMBERS_BOX_STROKE / 200  # half the line, in frame units
        buff = NUMBERS_BOX_BUFF + stroke
        inks = [n.ink_corners() for n in self.numbers]
        low = np.min([lo for lo, _ in inks], axis=0)
        high = np.max([hi for _, hi in inks], axis=0)
        beside = [p.ink_corners() for p in self.printed.text_pieces if p.text.strip()]
        # Ink on the numbers' lines, left of them.
        level = [(lo, hi) for lo, hi in beside if lo[1] < high[1] and hi[1] > low[1]]
        lefts = [hi[0] for lo, hi in level if hi[0] <= low[0]]
        left = max([low[0] - buff, *[(x + low[0]) / 2 for x in lefts]])
        lines = self._number_lines(beside, high[0] + buff)
        top, bottom = lines[0][1] + buff, lines[-1][0] - buff
        if all(np.isclose(right, lines[0][2]) for _, _, right in lines):
            box = Rectangle(width=lines[0][2] - left, height=top - bottom)
            box.move_to(xyz((left + lines[0][2]) / 2, (top + bottom) / 2))
            return box.set_stroke(self.theme.highlight, width=NUMBERS_BOX_STROKE)
        corners = [xyz(left, top), xyz(lines[0][2], top)]
        for upper, lower in pairwise(lines):
            if not np.isclose(upper[2], lower[2]):
                # The step goes midway between the two lines' slots.
                y = (upper[0] + lower[1]) / 2
                corners += [xyz(upper[2], y), xyz(lower[2], y)]
        corners += [xyz(lines[-1][2], bottom), xyz(left, bottom)]
        return Polygon(*corners).set_stroke(self.theme.highlight, width=NUMBERS_BOX_STROKE)

    def _number_lines(
        self, beside: list[tuple[np.ndarray, np.ndarray]], widest: float
    ) -> list[tuple[float, float, float]]:
        """Return each line of numbers, top first: its slots' bottom and top, and the box's right.

        A line's right side goes midway between its last number's ink and the
        next ink on that line, and never past ``widest`` (the longest line's
        numbers plus the box's margin).
        """
        rows: dict[float, list[NumberText]] = {}
        for number in self.printed.pieces:
            if not isinstance(number, NumberText):
                continue
            corner_low, corner_high = number.slot_corners()
            rows.setdefault(round(float(corner_low[1] + corner_high[1]) / 2, 4), []).append(number)
        lines: list[tuple[float, float, float]] = []
        for _, numbers in sorted(rows.items(), reverse=True):
            slot_low = float(min(n.slot_corners()[0][1] for n in numbers))
            slot_high = float(max(n.slot_corners()[1][1] for n in numbers))
            ink_low = min(n.ink_corners()[0][1] for n in numbers)
            ink_high = max(n.ink_corners()[1][1] for n in numbers)
            end = max(n.ink_corners()[1][0] for n in numbers)
            after = [
                lo[0] for lo, hi in beside if lo[1] < ink_high and hi[1] > ink_low and lo[0] >= end
            ]
            right = float(min([widest, *[(x + end) / 2 for x in after]]))
            lines.append((slot_low, slot_high, right))
        return lines

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
            SurroundingRectangle(piece, color=self.theme.highlight, buff=GRAD_FN_BUFF)
        )
        if self.marks:
            boxed = AnimationGroup(boxed, *[FadeOut(m) for m in self.marks])
            self.marks = []
        return boxed
