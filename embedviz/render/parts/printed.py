"""The PyTorch call and the tensor it prints, in monospace (code is the only monospace text)."""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    Animation,
    AnimationGroup,
    Create,
    LaggedStart,
    Succession,
    VGroup,
    VMobject,
    Wait,
    config,
)

from embedviz.render.animations import Steps
from embedviz.render.design import MARGIN, SPACE, Theme
from embedviz.render.fades import FadeIn, FadeOut, OutlineIn
from embedviz.render.glyphs import LabelText, NumberText
from embedviz.render.metrics import char_advance, digit_height, xyz
from embedviz.render.mobjects import PrintedTensor
from embedviz.render.parts.print_rings import Ink, mark_row, print_inks, ring_glyphs, underline
from embedviz.render.spec import SUFFIX_INDENT
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import Beat, Storyboard
from embedviz.story.printed import split_printed

__all__ = ["PrintPart"]

# How far right of the print's last piece its highlights may reach (a ring's
# margin and half its line), kept inside the safe area.
HIGHLIGHT_REACH = 0.08
# Where one highlight gives way to the next, the share of the step the old one takes to
# fade out before the new one comes in: one highlight at a time (a 720p review saw the
# numbers' mark and grad_fn's underline cross-fade, two violet lines at once).
HANDOVER = 0.4


def _hand_over(gone: list[VMobject], coming: Animation) -> Animation:
    """Fade ``gone`` out, then play ``coming``: never two highlights at once.

    The two together take ``coming``'s run time, so the beat keeps its timing.
    """
    if not gone:
        return coming
    total = coming.get_run_time()
    coming.set_run_time(total * (1 - HANDOVER))
    out = AnimationGroup(*[FadeOut(m) for m in gone], run_time=total * HANDOVER)
    return Succession(out, coming)


class PrintPart(Component):
    """The call (``embedding_layer(torch.tensor([3]))``) and its print, under the blocks.

    Beats: ``print`` (the call and print appear; a ring goes round each of
    the outer pair's ``[`` and ``]`` while the narration explains the outer
    pair; then the row, the inner pair with its numbers, is marked with "The
    3 numbers inside ...") and ``grad_fn`` (its label is underlined; then the
    row is marked again). One highlight at a time: each fades out before the
    next comes in. No highlight crosses a glyph of the print
    (:mod:`~embedviz.render.parts.print_rings`).

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
        # the highlights the beats draw round it.
        right = config.frame_width / 2 - MARGIN
        over = VGroup(self.code, self.printed).get_right()[0] + HIGHLIGHT_REACH - right
        if over > 0:
            self.code.shift(xyz(-over, 0))
            self.printed.shift(xyz(-over, 0))
        # The rings round the outer brackets (one group) and the row's mark, once the
        # print beat has made them; what stands marked now (the next highlight clears it).
        self.bracket_marks: list[VMobject] = []
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

    def inks(self) -> list[Ink]:
        """Return every inked character of the print where it is now, in reading order."""
        return print_inks(self.printed)

    def bracket_spans(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """Return where the outer pair and the inner pair start and end, in :meth:`inks`.

        None when the print has not two pairs of brackets (a 2-D tensor has).
        """
        inks = self.inks()
        opening = [n for n, k in enumerate(inks) if k.index >= 0 and k.char == "["]
        closing = [n for n, k in enumerate(inks) if k.index >= 0 and k.char == "]"]
        if len(opening) < 2 or len(closing) < 2:
            return None
        return (opening[0], closing[-1]), (opening[1], closing[-2])

    def point_at_numbers(self) -> Animation:
        """Ring the row again (its numbers inside the inner brackets); the ring stays.

        What stood marked (the ``grad_fn`` label's underline) goes.

        The inner pair's sides stand midway between two brackets, where there
        is room to stand clear of both (between the inner ``[`` and the first
        number there is not).
        """
        spans = self.bracket_spans()
        if spans is None:
            return Wait(run_time=1.0)
        ring = mark_row(self.inks(), *spans[1], self.theme.highlight)
        gone = self.marks
        self.numbers_box, self.marks = ring, [ring]
        return _hand_over(gone, OutlineIn(ring, run_time=1.0))

    def beat_print(self, beat: Beat) -> Animation:
        """Show the call and its print; ring its outer ``[`` and ``]``, then mark the row."""
        shown: Animation = (
            FadeIn(self.printed)
            if self.early
            else LaggedStart(FadeIn(self.code), FadeIn(self.printed), lag_ratio=0.4)
        )
        spans = self.bracket_spans()
        if len(beat.phrases) < 3 or spans is None or not len(self.numbers):
            return shown
        # "The outer pair means ...": a ring round each outer bracket alone (a ring
        # round [[ ... ]] marked the numbers too); "The 3 numbers inside ...": the row
        # (the inner pair with its numbers), once the outer rings have gone.
        inks = self.inks()
        outer = ring_glyphs(inks, list(spans[0]), self.theme.highlight)
        inner = mark_row(inks, *spans[1], self.theme.highlight)
        self.bracket_marks, self.numbers_box = [outer], inner
        self.marks = [inner]
        return Steps(shown, OutlineIn(outer), _hand_over([outer], OutlineIn(inner)))

    def grad_fn_box(self) -> Animation:
        """Underline the ``grad_fn`` label (not ``tensor(``'s ``)``) once the row's mark goes.

        ``>)`` stand too close for a ring's side between them: the line goes
        under the label's descenders instead, from its ``g`` to its ``>``.
        """
        inks = self.inks()
        suffix = self.printed.text_pieces[-1]  # PyTorch ends a print with its grad_fn
        text = suffix.text
        first = text.find("grad_fn") if "grad_fn" in text else 0
        last = text.rfind(">") if ">" in text else len(text) - 1
        label = [n for n, k in enumerate(inks) if k.piece is suffix and first <= k.index <= last]
        line = underline(inks, label[0], label[-1], self.theme.highlight)
        gone = self.marks
        self.marks = [line]
        return _hand_over(gone, Create(line))
