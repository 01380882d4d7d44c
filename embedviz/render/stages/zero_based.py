"""The zero-based layout (ZeroBasedIndexing): the counts, the slip and the trace beside E.

A thin composition of parts, placed by the solver
(:func:`embedviz.render.solve_zero_based.solve_zero_based`):

- :class:`~embedviz.render.parts.lookup.MatrixPart`: E, its heading and legend;
- :class:`~embedviz.render.parts.trace.SlipCard`: the one-based slip;
- :class:`~embedviz.render.parts.trace.TraceCard`: the debugging trace (beats
  ``check`` and ``diagnose``);
- :class:`~embedviz.render.parts.counting.CountingMotion`: the chip and the
  rows it fetches (beats ``wrong_count``, ``right_count`` and ``trace``).
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import LEFT, Animation, VGroup

from embedviz.render.animations import make_reveal_animation
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.metrics import xyz
from embedviz.render.parts.counting import CountingMotion
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.trace import SlipCard, TraceCard, check_mark
from embedviz.render.solve_zero_based import ZeroPlan, ZeroSpec, solve_zero_based
from embedviz.render.stage import Stage, register_stage
from embedviz.story.model import Beat, NumberCell

__all__ = ["ZeroBasedStage", "check_mark", "mono_line"]


def mono_line(
    pieces: Sequence[str | NumberCell], font_size: float, colours: Sequence[str]
) -> VGroup:
    """Set labels and checked numbers side by side, as one monospace line.

    Parameters
    ----------
    pieces
        Plain strings (drawn as :class:`LabelText`) and storyboard cells
        (drawn as :class:`NumberText`), in reading order.
    font_size
        Font size of every piece.
    colours
        One colour per piece.

    Returns
    -------
    VGroup
        The pieces, each starting where the previous one's advance ends, so
        the line reads as one string while every number stays checkable.
    """
    line = VGroup()
    x = 0.0
    for piece, colour in zip(pieces, colours, strict=True):
        text = LabelText(piece, font_size, colour) if isinstance(piece, str) else None
        mobject = text if text is not None else NumberText(piece, font_size, colour)
        mobject.place([x, 0, 0], align="left")
        x += mobject.slot_width
        line.add(mobject)
    return line


@register_stage
class ZeroBasedStage(Stage):
    """E with the counts beside its row numbers, the slip and the trace in the panel."""

    layout = "zero_based"

    plan: ZeroPlan
    matrix: MatrixPart
    slip: SlipCard
    trace: TraceCard
    motion: CountingMotion

    def build(self) -> None:
        """Solve the layout and build every part in its place."""
        plan = solve_zero_based(ZeroSpec.from_board(self.board))
        self.plan = plan
        bands = plan.bands
        self.title = SansText(self.board.title, bands.title_font, self.theme.text)
        self.title.move_to(xyz(bands.title_x, bands.title_y))
        args = (self.scene, self.board, self.cells, plan, self.theme)
        self.matrix = self.add_part(MatrixPart(*args))
        self.slip = self.add_part(SlipCard(*args))
        self.trace = self.add_part(TraceCard(*args, self.matrix, self.slip))
        self.motion = self.add_part(CountingMotion(*args, self.matrix, self.slip, self.trace))
        # The chip's heading, over the place where it waits (and stays, as the vector's tag).
        token_id = self.board.single_id()
        self.chips_heading = SansText(self.word("token_ids"), plan.scale.label, self.theme.muted)
        self.chips_heading.move_to(xyz(0, plan.line_y(5, token_id)))
        self.chips_heading.align_to(xyz(plan.tag_left, 0), LEFT)

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the matrix with its heading and legend, and the chip."""
        return make_reveal_animation([*self.intro_mobjects(), self.chips_heading])
