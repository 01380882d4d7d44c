"""The large-vocabulary layout: a scrolling grid, a line of chips, an output block.

A GPT-2-sized table cannot be drawn, so the grid shows a window of it with
labelled gaps, and the window scrolls between beats: rows that leave slide
out, the few that arrive slide in, rows in both move to their new slots, and
gap labels turn into their new text. Every window is laid out by MatrixGrid
itself, and only those few rows and labels move, so a scroll costs the same
whatever V is.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    ReplacementTransform,
    Scene,
    Succession,
    Transform,
    VGroup,
    VMobject,
)

from embedviz.render.animations import (
    make_copy_row_animation,
    make_lookup_animation,
    make_return_animation,
    make_reveal_animation,
    make_walk_animation,
)
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.layout import LABEL_RATIO, frame_regions, place_legend
from embedviz.render.mobjects import (
    CELL_PAD_CHARS,
    GAP_CHARS,
    ColourLegend,
    GridMetrics,
    MatrixGrid,
    OutputBlock,
    ShapeLabel,
    char_advance,
    digit_height,
    xyz,
)
from embedviz.render.stage import FRAME_HALF_WIDTH, register_stage
from embedviz.render.stages.lookup import LookupStage
from embedviz.render.theme import Theme
from embedviz.story.model import Beat, NumberCell, Window

__all__ = ["LargeVocabStage", "ScrollingGrid"]

# Regions of the frame, in scene units.
_MARGIN = 0.22
_REGION_TOP = 2.05  # top of the column-number row
_CHIPS_GAP = 0.12  # between the chips and the titles under them
_CONTENT_BOTTOM = -2.45  # above the colour legend and the caption
_SEPARATION = 0.55  # between the grid and the output block's row numbers
_BELOW_GRID = 1.3  # the column-gap label, the parameter count and the legend
_MAX_FONT = 22.0
_CHIP_FONT = 20.0
# As MatrixGrid: padding around a cell's number, in character slots; the
# gap between a row's number and the grid; the row numbers' relative size.
_LABEL_GAP = 0.18
_LABEL_SCALE = 0.8
_GAP_TEXT_SCALE = 0.75  # gap labels, relative to the numbers
_LANE_GAP = 0.12  # between a parked chip and the row numbers
_SCROLL_TIME = 0.8
_BODY_Z = -1  # the grid's outline and background
_LANDED_Z = 1  # numbers copied into the output block
_DONE_OPACITY = 0.55  # a chip whose row has landed, as make_return_animation leaves it


def _gap_groups(grid: MatrixGrid) -> list[VGroup]:
    """Return a grid's elision rows (dots and label), top to bottom."""
    return [group for group in grid.gap_labels if isinstance(group, VGroup)]


def _enlarge_gap_labels(grid: MatrixGrid) -> None:
    """Scale a grid's gap labels up to a size that reads at 480p.

    MatrixGrid sizes them for dense grids; this layout has room to spare.
    """
    wanted = grid.metrics.font_size * _GAP_TEXT_SCALE
    for item in grid.gap_labels:
        label = item if isinstance(item, LabelText) else item[1]
        assert isinstance(label, LabelText)
        factor = min(wanted / label.font_size, grid.width_of_body * 0.9 / label.width)
        if factor <= 1:
            continue
        if isinstance(item, LabelText):
            # A column-gap label hangs from the grid's bottom edge.
            item.scale(factor, about_edge=UP)
        else:
            label.scale(factor)
            item[0].next_to(label, LEFT, buff=0.15)


class _FadeOutAndDrop(FadeOut):
    """Fade out, then cost nothing for the rest of the play.

    Manim redraws every animated object on every frame of a play, faded or
    not. Emptying the points of a row that has left lets the frames after its
    fade skip it; the row is discarded, so nothing restores them.
    """

    def finish(self) -> None:
        super().finish()
        for part in self.mobject.get_family():
            part.clear_points()

    def clean_up_from_scene(self, scene: Scene) -> None:
        # Leave the scene without FadeOut's restoring step: the row is never shown again.
        Transform.clean_up_from_scene(self, scene)


class ScrollingGrid(MatrixGrid):
    """A :class:`MatrixGrid` whose window can scroll to another set of rows.

    Each window is laid out by MatrixGrid itself, so a scroll lands every
    row, gap and separator exactly where a grid of that window puts it.

    Parameters
    ----------
    window
        The first window.
    numbers
        Every cell that any window shows (``weight``, ``row_label``,
        ``col_label``).
    metrics
        Shared sizes.
    theme
        Colours.
    value_scale
        The magnitude that gets the strongest value colour.
    """

    def __init__(
        self,
        window: Window,
        numbers: Sequence[NumberCell],
        metrics: GridMetrics,
        theme: Theme,
        value_scale: float,
    ) -> None:
        super().__init__(window, numbers, metrics, theme, value_scale)
        self.numbers = list(numbers)
        self.theme = theme
        self.value_scale = value_scale
        _enlarge_gap_labels(self)
        # Always behind the numbers, whatever order manim's scene list ends up in.
        self.body.set_z_index(_BODY_Z)
        self.gap_rows = _gap_groups(self)
        self.col_gap_labels = [item for item in self.gap_labels if isinstance(item, LabelText)]

    def _layout(self, window: Window) -> MatrixGrid:
        """Lay a window out as a grid placed over this one (not added to anything)."""
        grid = MatrixGrid(window, self.numbers, self.metrics, self.theme, self.value_scale)
        _enlarge_gap_labels(grid)
        grid.body.set_z_index(_BODY_Z)
        grid.shift(self.body.get_corner(UP + LEFT) - grid.body.get_corner(UP + LEFT))
        return grid

    def body_height(self, window: Window) -> float:
        """Return how tall the grid's outline is for a window."""
        return float(self._layout(window).body.height)

    def current_gap_labels(self) -> list[LabelText]:
        """Return the gap labels on screen now: hidden rows, then hidden columns."""
        rows = [group[1] for group in self.gap_rows]
        return [label for label in [*rows, *self.col_gap_labels] if isinstance(label, LabelText)]

    def scroll_to(self, window: Window) -> Animation | None:
        """Scroll to another window of the same columns.

        The grid's bookkeeping (cells, row numbers, gap rows, outline) is
        updated at once, so animations built after this call (a chip
        walking to a row that just arrived) find rows where they will be.

        Parameters
        ----------
        window
            The window to show; it must have the same columns.

        Returns
        -------
        Animation or None
            Leaving rows slide out, arriving rows slide in, shared rows move
            to their new places and gap labels turn into their new text (the
            outline's separators take the new gap pattern at once); ``None``
            when the window is unchanged.
        """
        old = self.window
        if window == old:
            return None
        if window.cols != old.cols:
            raise ValueError("a scroll keeps the columns; only the rows change")
        target = self._layout(window)
        leaving = [row for row in old.rows if row not in window.rows]
        arriving = [row for row in window.rows if row not in old.rows]
        # Scrolling down the table moves the content up, and the other way round.
        down = not leaving or not arriving or min(arriving) > min(leaving)
        step = (UP if down else DOWN) * self.metrics.cell_height * 1.5
        animations: list[Animation] = []
        for row in leaving:
            group = self.rows_by_index.pop(row)
            # Rows of the first window are the grid's own children: take them
            # out so that only this row (not the whole grid) leaves the scene.
            self.remove(*group.submobjects)
            del self.row_labels[row]
            for col in old.cols:
                del self.cells[(row, col)]
            animations.append(_FadeOutAndDrop(group, shift=step))
        for row in window.rows:
            if row in arriving:
                group = target.rows_by_index[row]
                self.rows_by_index[row] = group
                self.row_labels[row] = target.row_labels[row]
                for col in window.cols:
                    self.cells[(row, col)] = target.cells[(row, col)]
                animations.append(FadeIn(group, shift=step))
                continue
            group = self.rows_by_index[row]
            moved = target.row_labels[row].get_center()[1] - self.row_labels[row].get_center()[1]
            if abs(moved) > 1e-9:
                animations.append(Transform(group, group.copy().shift(UP * moved)))
        animations += self._scroll_gaps(_gap_groups(target), step)
        if not np.allclose(target.body.get_all_points(), self.body.get_all_points()):
            # The gaps moved, so the separators move with them. The outline
            # changes at once rather than animating: a moving outline would be
            # redrawn over every unmoving row, so all of them would have to be
            # redrawn every frame too.
            self.body.become(target.body)
            self.body.set_z_index(_BODY_Z)
        self.label_width = max(self.label_width, target.label_width)
        self.window = window
        return AnimationGroup(*animations, run_time=_SCROLL_TIME)

    def _scroll_gaps(self, arriving: list[VGroup], step: np.ndarray) -> list[Animation]:
        """Turn each gap label into the new one nearest it; fade the rest."""
        animations: list[Animation] = []
        unmatched = list(self.gap_rows)
        height = self.metrics.cell_height
        shown: list[VGroup] = []
        for new in arriving:
            y = new.get_center()[1]
            near = [old for old in unmatched if abs(old.get_center()[1] - y) < height]
            if not near:
                animations.append(FadeIn(new, shift=step))
                shown.append(new)
                continue
            old = min(near, key=lambda group: abs(group.get_center()[1] - y))
            unmatched.remove(old)
            if old[1].text == new[1].text and abs(old.get_center()[1] - y) < 1e-9:
                shown.append(old)  # the same gap in the same place
            else:
                animations.append(ReplacementTransform(old, new))
                shown.append(new)
        animations += [_FadeOutAndDrop(old, shift=step) for old in unmatched]
        self.gap_rows = shown
        return animations


@register_stage
class LargeVocabStage(LookupStage):
    """A scrolling grid, the sentence's chips in one line, and its output block."""

    layout = "large_vocab"

    def build(self) -> None:
        """Lay out the chips, the grid, the output block and the labels under the grid."""
        board, theme, cells = self.board, self.theme, self.cells
        window = board.beats[0].window
        self._layout_chips()
        lane = max(chip.width for chip in self.chips)
        metrics = self._fit_metrics(window, lane)
        self.metrics = metrics
        scale = board.value_scale
        self.grid = ScrollingGrid(window, list(cells.values()), metrics, theme, scale)
        label_width = self.grid.label_width
        body_left = -FRAME_HALF_WIDTH + _MARGIN + lane + _LANE_GAP + label_width + _LABEL_GAP
        self.grid.shift(
            xyz(body_left, _REGION_TOP - metrics.cell_height) - self.grid.body.get_corner(UP + LEFT)
        )
        size_cells = [cells[("table_size", (axis,))] for axis in (0, 1)]
        self.grid_title = VGroup(
            SansText("embedding matrix E", 22, theme.muted),
            ShapeLabel(size_cells, 22, theme.muted),
        ).arrange(RIGHT, buff=0.25)
        self.grid_title.next_to(self.grid.col_labels, UP, buff=0.15)
        self.grid_title.align_to(self.grid.body, LEFT)

        # The column-gap labels hang under the tallest window, clear of every scroll.
        windows = {beat.window for beat in board.beats}
        tallest = max(self.grid.body_height(w) for w in windows)
        for label in self.grid.col_gap_labels:
            label.shift(DOWN * (tallest - self.grid.body.height))
        self.params = VGroup(
            SansText("V \u00d7 d =", 20, theme.muted),
            NumberText(cells[("param_count", (0,))], 20, theme.text),
            SansText("parameters", 20, theme.muted),
        ).arrange(RIGHT, buff=0.15)
        bottom = self.grid.body.get_top()[1] - tallest
        lowest = min([bottom, *(label.get_bottom()[1] for label in self.grid.col_gap_labels)])
        self.params.next_to(xyz(0, lowest), DOWN, buff=0.3).align_to(self.grid.body, LEFT)
        legend_cells = [cells[key] for key in sorted(cells) if key[0] == "legend"]
        self.legend: ColourLegend | None = None
        if legend_cells:
            self.legend = ColourLegend(legend_cells, 16, theme)
            place_legend(self.legend)

        positions = sorted(index for kind, index in cells if kind == "position")
        self.output = OutputBlock(positions, window, list(cells.values()), metrics, theme, scale)
        out_left = (
            self.grid.body.get_right()[0]
            + _SEPARATION
            + _LABEL_GAP
            + max(label.width for label in self.output.labels)
        )
        self.output.shift(
            xyz(out_left, _REGION_TOP - metrics.cell_height)
            - self.output.body.get_corner(UP + LEFT)
        )
        self.output_title = SansText("output", 22, theme.output)
        self.output_title.next_to(self.output.body, UP, buff=0.2).align_to(self.output.body, LEFT)
        # Provenance right of the block, as large as fits before the frame's edge.
        room = frame_regions().right - self.output.body.get_right()[0] - 0.12
        tag_font = metrics.font_size * LABEL_RATIO
        self._build_tags(positions, tag_font)
        widest = max([tag.width for tag in self.tags.values()] or [0.0])
        if widest > room:
            self._build_tags(positions, tag_font * room / widest)
        # The chips sit just above the two titles (taller when they show text pieces).
        titles_top = max(self.grid_title.get_top()[1], self.output_title.get_top()[1])
        self.chip_line.shift(UP * (titles_top + _CHIPS_GAP - self.chip_line.get_bottom()[1]))
        self.chip_homes = [chip.get_center().copy() for chip in self.chips]
        # Output positions that have landed, in landing order.
        self.filled: list[tuple[int, ...]] = []

    def _layout_chips(self) -> None:
        """Put the sentence's chips in one line under the title, as large as fits."""
        theme = self.theme
        chip_cells = sorted(
            (c for c in self.cells.values() if c.kind == "token_id"), key=lambda c: c.index
        )
        self.chips = [self.make_chip(cell, _CHIP_FONT) for cell in chip_cells]
        chip_row = VGroup(*self.chips).arrange(RIGHT, buff=0.16)
        self.chips_label = SansText("token IDs", 20, theme.muted)
        room = 2 * (FRAME_HALF_WIDTH - _MARGIN) - self.chips_label.width - 0.3
        if chip_row.width > room:
            chip_row.scale_to_fit_width(room)
        self.chip_line = VGroup(self.chips_label, chip_row).arrange(RIGHT, buff=0.3)
        self.chip_line.move_to(xyz(0, 0))

    def _fit_metrics(self, window: Window, lane: float) -> GridMetrics:
        """Choose the largest font at which grid, output and labels fit side by side."""
        cells = self.cells.values()
        value_chars = max(len(c.text) for c in cells if c.kind in ("weight", "output"))
        label_chars = max(len(c.text) for c in cells if c.kind == "row_label")
        position_chars = max(len(c.text) for c in cells if c.kind == "position")
        count = len([c for c in cells if c.kind == "position"])
        slots = max(len(beat.window.rows) + len(beat.window.row_gaps) for beat in self.board.beats)
        # Widths grow linearly with the font size; solve for the size that fills the frame.
        per_char = char_advance(1.0)
        body = len(window.cols) * (value_chars + CELL_PAD_CHARS) + len(window.col_gaps) * GAP_CHARS
        scalable = per_char * (2 * body + _LABEL_SCALE * (label_chars + position_chars))
        fixed = lane + _LANE_GAP + 2 * _LABEL_GAP + _SEPARATION
        by_width = (2 * (FRAME_HALF_WIDTH - _MARGIN) - fixed) / scalable
        pitch = 2.0 * digit_height(1.0)  # a cell is two digits high
        room = _REGION_TOP - _CONTENT_BOTTOM
        by_grid = (room - _BELOW_GRID) / (pitch * (slots + 1))
        by_output = room / (pitch * (count + 1))
        font_size = min(_MAX_FONT, by_width, by_grid, by_output)
        return GridMetrics.fit(
            value_chars=value_chars,
            columns=len(window.cols),
            column_gaps=len(window.col_gaps),
            label_chars=label_chars,
            rows=1,
            width=1e3,
            height=1e3,
            max_font_size=font_size,
        )

    # -- beat handlers ---------------------------------------------------------
    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the grid with its gaps, and the sentence's chips."""
        parts = [
            self.title,
            self.grid,
            self.grid_title,
            *self.chips,
            self.chips_label,
            *([self.legend] if self.legend is not None else []),
        ]
        return make_reveal_animation(parts)

    def beat_size(self, beat: Beat) -> Animation:
        """Show the parameter count and point at the gap labels."""
        gaps = self.grid.current_gap_labels()
        pointing = [
            Indicate(label, scale_factor=1.08, color=self.theme.highlight) for label in gaps
        ]
        return AnimationGroup(FadeIn(self.params, shift=0.2 * UP), *pointing)

    def beat_scroll(self, beat: Beat) -> Animation:
        """Scroll the grid until the featured row is on screen."""
        assert beat.highlight is not None
        chip = Circumscribe(self.chips[0], color=self.theme.highlight, buff=0.06)
        scroll = self.grid.scroll_to(beat.window)
        if scroll is None:
            label = self.grid.row_labels[beat.highlight.row]
            return AnimationGroup(chip, Indicate(label, scale_factor=1.6))
        return AnimationGroup(chip, scroll)

    def _output_cells(self, position: tuple[int, ...]) -> list[NumberText]:
        cells = super()._output_cells(position)
        # Landed numbers are drawn above the output block's background, whenever
        # each was added to manim's scene list.
        for cell in cells:
            cell.set_z_index(_LANDED_Z)
        return cells

    def _to_front(self, chip: VMobject) -> None:
        """Draw a chip that is about to move above everything it passes over."""
        self.scene.bring_to_front(chip)

    def _lookup_animation(self, beat: Beat) -> Animation:
        assert beat.highlight is not None
        assert beat.output is not None
        self.filled = list(beat.output.filled)
        position = beat.highlight.position[-1]
        self._to_front(self.chips[position])
        tag = self.tags.get(beat.highlight.position)
        return make_lookup_animation(
            self.chips[position],
            self.chip_homes[position],
            self.grid,
            beat.highlight.row,
            self._output_cells(beat.highlight.position),
            self.theme,
            provenance=[tag] if tag is not None else [],
        )

    def beat_fill_rest(self, beat: Beat) -> Animation:
        """Land the rest of the sentence: each chip dims as its row fills in, in order."""
        assert beat.output is not None
        landing = []
        for position in beat.output.filled[len(self.filled) :]:
            chip = self.chips[position[-1]]
            self._to_front(chip)
            cells = VGroup(*self._output_cells(position))
            tag = self.tags.get(position)
            landing.append(
                AnimationGroup(
                    Transform(chip, chip.copy().set_opacity(_DONE_OPACITY)),
                    FadeIn(cells, shift=0.4 * RIGHT),
                    *([FadeIn(tag)] if tag is not None else []),
                )
            )
        self.filled = list(beat.output.filled)
        return LaggedStart(*landing, lag_ratio=0.35)

    def beat_lookup(self, beat: Beat) -> Animation:
        """Reveal the output block while the first chip walks to its row and copies it."""
        assert self.output is not None
        reveal = make_reveal_animation([self.output, self.output_title])
        return AnimationGroup(reveal, self._lookup_animation(beat))

    def beat_sentence(self, beat: Beat) -> Animation:
        """Point at the rest of the sentence and the output rows waiting for it."""
        assert self.output is not None
        return AnimationGroup(
            Circumscribe(VGroup(*self.chips[1:]), color=self.theme.chip, buff=0.08),
            *[
                Indicate(label, scale_factor=1.3, color=self.theme.output)
                for label in self.output.labels
            ],
        )

    def beat_scroll_lookup(self, beat: Beat) -> Animation:
        """Scroll to the row if it is off screen while the chip sets off; copy; return.

        The chip rises and crosses above everything while the rows slide, and
        comes down beside its row once the row has arrived, so a scroll adds
        no time of its own.
        """
        assert beat.highlight is not None
        assert beat.output is not None
        scroll = self.grid.scroll_to(beat.window)
        if scroll is None:
            return self._lookup_animation(beat)
        self.filled = list(beat.output.filled)
        position, row = beat.highlight.position[-1], beat.highlight.row
        chip, home = self.chips[position], self.chip_homes[position]
        self._to_front(chip)
        box = self.grid.row_box(row, self.theme)
        return Succession(
            AnimationGroup(scroll, make_walk_animation(chip, self.grid, row), Create(box)),
            make_copy_row_animation(self.grid, row, self._output_cells(beat.highlight.position)),
            AnimationGroup(
                make_return_animation(chip, self.grid.row_anchor(row, chip.width), home),
                *[FadeIn(t) for t in [self.tags.get(beat.highlight.position)] if t is not None],
                FadeOut(box),
            ),
        )
