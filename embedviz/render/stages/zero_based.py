"""The zero-based layout (ZeroBasedIndexing): the counts, the slip and the trace beside E.

A thin composition of parts, placed by the solver
(:func:`embedviz.render.solve_zero_based.solve_zero_based`):

- :class:`~embedviz.render.parts.lookup.MatrixPart`: E, its heading and legend;
- :class:`~embedviz.render.parts.trace.SlipCard`: the one-based slip;
- :class:`~embedviz.render.parts.trace.TraceCard`: the debugging trace (beats
  ``check`` and ``diagnose``);
- :class:`~embedviz.render.parts.counting.CountingMotion`: the chip and the
  rows it fetches (beats ``wrong_count``, ``right_count`` and ``trace``).

The intro shows E with the chip and its heading right of it, above its rows
(level with a row, the chip would give away which one the ID selects), and
the legend as an upright colour bar right of them, in a
close-up (:mod:`embedviz.render.zoom`) at most at the type scale's ceiling:
the frame's width is filled (E alone, or the legend in a row, left a fifth
of it empty). The next beat pulls back in one motion, the bar turning into
the legend under the panel and the chip's heading fading where it stands
(it labels the waiting chip only); the chip then walks from where it waited
straight down to row 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext

from manim import (
    LEFT,
    Animation,
    AnimationGroup,
    ReplacementTransform,
    Succession,
    VGroup,
)

from embedviz.render.animations import Steps, beat_steps, make_reveal_animation
from embedviz.render.design import SPACE
from embedviz.render.fades import FadeOut
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.metrics import xyz
from embedviz.render.parts.counting import CountingMotion
from embedviz.render.parts.legend import Legend
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.trace import SlipCard, TraceCard, check_mark
from embedviz.render.solve_zero_based import ZeroPlan, ZeroSpec, solve_zero_based
from embedviz.render.stage import Stage, register_stage
from embedviz.render.zoom import Zoom, moved_by, stage_close_up
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


# Seconds of the pull-back (the close-up's), and of what moves with it.
_PULL = 1.0


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
        # The chip's heading, over the place where the chip waits in the intro.
        self.chips_heading = SansText(self.word("token_ids"), plan.scale.label, self.theme.muted)
        self._rest_beside_e()
        # Whether the close-up has been pulled back (the beat after the intro does it).
        self.pulled = False
        self.bar = self._colour_bar()
        self.zoom = self._close_up()

    def _rest_beside_e(self) -> None:
        """Stand the chip and its heading beside E for the intro.

        They wait at the panel's right, which the intro leaves empty (a third of
        the frame), above E's rows (the heading on E's heading line, the chip on
        the column numbers' line), so that E and they can be drawn larger
        together (:meth:`_close_up`). Level with a row, the chip would answer the
        intro's question ("Which of its rows does the ID select?") before the
        count does: it walks from there straight down to row 0
        (:attr:`CountingMotion.start`). The heading labels the chip only there:
        it fades with the pull-back and does not come back (a frame review found
        it left alone under the chip's home, heading nothing, while the chip
        counted rows or stood as the returned vector's tag).
        """
        plan, chip, heading = self.plan, self.motion.chip, self.chips_heading
        grid = self.matrix.grid
        left = plan.park_x() - plan.chip_width / 2
        # The column numbers' line (where there are none, a row's pitch above the rows).
        line = next(iter(grid.col_labels.values()), None)
        y = plan.row_y(-1) if line is None else line.get_center()[1]
        chip.move_to(xyz(left + chip.width / 2, y))
        self.motion.start = chip.get_center()
        heading_left = max(left, self.matrix.heading.get_right()[0] + 2 * SPACE)
        heading.move_to(xyz(heading_left + heading.width / 2, plan.heading_y))

    def _colour_bar(self) -> Legend | None:
        """Return the legend as an upright bar right of the chip, as tall as E's rows.

        The intro shows it there (in a row under the panel, the legend left the
        column beside E empty above it); the next beat turns it into the legend.
        """
        legend, plan = self.matrix.legend, self.plan
        if legend is None:
            return None
        rows = self.matrix.grid.body
        bar = Legend(
            [tick.cell for tick in legend.ticks],
            plan.scale.legend,
            self.theme,
            self.word("value_colour"),
            upright=True,
            length=rows.height * 0.8,
        )
        left = max(self.chips_heading.get_right()[0], self.motion.chip.get_right()[0])
        bar.move_to(rows.get_center()).align_to(xyz(left + 3 * SPACE, 0), LEFT)
        return bar

    def _close_up(self) -> Zoom | None:
        """Return a close-up of E and the column beside it, until the chip first walks."""
        grid = [m for m in self.matrix.intro() if m is not self.matrix.legend]
        bar = [self.bar] if self.bar is not None else []
        shown = [*grid, *bar, self.chips_heading, *self.motion.intro()]
        return stage_close_up(self.scene, self.title, shown, self.plan.scale.data)

    def animate(self, beat: Beat) -> Animation:
        """Play the beat; the intro under the close-up, which the next beat pulls back first.

        The next beat pulls back as, in the same motion, the chip's heading
        fades where it stands and the colour bar turns into the legend; then
        its own steps (the chip's first walk starts where it waited).
        """
        zoom = self.zoom
        if beat.action == "intro" and zoom is not None:
            built: list[Animation] = []
            with zoom.solved(lambda: [m for a in built for m in moved_by(a)]):
                built.append(super().animate(beat))
            return zoom.wrap(built[0])
        if beat.action == "intro" or self.pulled:
            return super().animate(beat)
        self.pulled = True
        with zoom.solved() if zoom is not None else nullcontext():
            first, *rest = beat_steps(super().animate(beat))
        home: list[Animation] = []
        if self.bar is not None and self.matrix.legend is not None:
            home.append(ReplacementTransform(self.bar, self.matrix.legend, run_time=_PULL))
        # One motion: the close-up pulls back as the bar becomes the legend (in the solved
        # layout's coordinates, under the close-up) and the heading fades where it stands.
        moved: Animation = AnimationGroup(*home)
        together = [zoom.pull_back(), zoom.wrap(moved)] if zoom is not None else [moved]
        faded = FadeOut(self.chips_heading, run_time=_PULL)
        return Steps(Succession(AnimationGroup(*together, faded), first), *rest)

    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the matrix with its heading and legend (as a bar), and the chip."""
        if self.bar is None:
            return make_reveal_animation([*self.intro_mobjects(), self.chips_heading])
        shown = [m for m in self.intro_mobjects() if m is not self.matrix.legend]
        return make_reveal_animation([*shown, self.bar, self.chips_heading])
