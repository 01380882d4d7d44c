"""The batch layout: the matrix, a B x T block of chips, and B output slices.

Used by BatchLookup. The stage is composed of parts, each with its own beats:
a :class:`~embedviz.render.components.GridPanel` on the left (the matrix, its
title, the legend and the dtype note; ``dim``), the :class:`BatchChips` top
right (B rows of T chips; ``axes``) and the :class:`SliceStack` below them
(the B slice cards with their B, T and d edges, one
:class:`~embedviz.render.components.OutputPanel` per slice for its rows and
provenance tags; ``predict``, ``reveal``, ``shape``). The stage plays the
beats that use several parts (``intro`` and the lookups). Grid and slices
share one font size, the largest at which everything fits
(:func:`~embedviz.render.layout.fit_font`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Brace,
    FadeIn,
    FadeOut,
    Line,
    Mobject,
    Rectangle,
    ReplacementTransform,
    Succession,
    Transform,
    VGroup,
    VMobject,
    config,
)

from embedviz.render.animations import (
    make_copy_row_animation,
    make_reveal_animation,
)
from embedviz.render.components import GridPanel, OutputPanel
from embedviz.render.design import USED_CHIP_OPACITY
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.layout import (
    CORRIDOR_MARGIN,
    HEADING_FONT,
    LABEL_RATIO,
    MAX_NUMBER_FONT,
    MIN_FIT_FONT,
    MIN_LABEL_PX,
    MIN_NUMBER_PX,
    SPACE,
    fit_font,
    frame_regions,
)
from embedviz.render.mobjects import (
    GridMetrics,
    MatrixGrid,
    ShapeLabel,
    TokenChip,
    char_advance,
    digit_height,
    font_for_px,
    grid_metrics_at,
    xyz,
)
from embedviz.render.output_block import OutputBlock
from embedviz.render.stage import Component, Stage, StageHost, register_stage
from embedviz.render.theme import Theme
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["BatchChips", "BatchStage", "SliceStack", "make_batch_lookup_animation"]

# Chips shrink for three or more sequences (and scale down for long ones), to leave
# the slices more height and the corridor its width.
_CHIP_FONT = 20
_SMALL_CHIP_FONT = 16
_SMALL_CHIP_SCALE = 0.85
_CHIP_GAP = 0.12  # between chips, both ways
_LABEL_FONT = 18
_BRACE_DEPTH = 0.18
# Each card stands this far right of the card in front of it (and one header band up).
_CARD_DX = 0.18
# The corridor's margins when the numbers would otherwise go under their minimum.
_TIGHT_MARGIN = 0.08
# The provenance tags right of each card, relative to its numbers (they widen every card).
_TAG_RATIO = 0.7
# The opacity of the numbers on cards behind the front one.
_BEHIND = 0.3


def _move(
    mobject: VMobject, point: np.ndarray, run_time: float, opacity: float | None = None
) -> Animation:
    """Move to an absolute point (and fade); safe to chain on one mobject."""
    target = mobject.copy().move_to(point)
    if opacity is not None:
        target.set_opacity(opacity)
    return Transform(mobject, target, run_time=run_time)


def _changed(mobject: Mobject, change: Callable[[Mobject], object]) -> Animation:
    """Animate ``mobject`` into a copy of itself that ``change`` altered."""
    target = mobject.copy()
    change(target)
    return Transform(mobject, target)


def make_batch_lookup_animation(
    chip: TokenChip,
    home: np.ndarray,
    lane_y: float,
    grid: MatrixGrid,
    row: int,
    targets: Sequence[NumberText],
    theme: Theme,
    route: Sequence[np.ndarray] = (),
    provenance: Sequence[VMobject] = (),
) -> Animation:
    """Send a chip's copy from the batch block to its row, copy the row, and back.

    The chip stays in the block, outlined, while its copy rises out of the
    lane above its column (so it crosses neither the chips above it nor the
    block's T label), crosses to the lane left of the row numbers, and comes
    down beside its row; then the row's numbers travel to their output cells
    and the copy returns the same way and sinks into the chip, which dims.

    Parameters
    ----------
    chip
        The token's chip.
    home
        Where the chip rests in the batch block.
    lane_y
        The height at which chips travel, above the block and its labels.
    grid
        The matrix.
    row
        The zero-based row the ID selects.
    targets
        The output numbers the row's copy becomes, already placed.
    theme
        Colours.
    route
        Waypoints of the copied strip (see :func:`make_copy_row_animation`).
    provenance
        Tags that fade in beside the landed row as the chip goes home.

    Returns
    -------
    Animation
        A succession: walk and highlight, copy, return.
    """
    anchor = grid.row_anchor(row, chip.width)
    # A Succession puts every part's mobject on screen when it starts, so a
    # later lookup's outline (and the travelling copy) starts transparent and
    # fades in on its turn.
    box = grid.row_box(row, theme)
    shown = box.copy()
    box.set_stroke(opacity=0.0)
    lane_home = xyz(home[0], lane_y)
    traveller = chip.copy().move_to(lane_home).set_opacity(0.0)
    # The chip whose copy is away keeps an outline in the text colour meanwhile.
    outline = chip[0].copy().set_fill(opacity=0.0).set_stroke(theme.text, width=3, opacity=0.0)
    # Each move's target is a copy made now, while the copy is still transparent.
    walk = Succession(
        _move(traveller, lane_home, 0.25, opacity=1.0),
        _move(traveller, xyz(anchor[0], lane_y), 0.4, opacity=1.0),
        _move(traveller, anchor, 0.35, opacity=1.0),
    )
    back = Succession(
        _move(traveller, xyz(anchor[0], lane_y), 0.3, opacity=1.0),
        _move(traveller, lane_home, 0.3, opacity=1.0),
        FadeOut(traveller, run_time=0.2),
    )
    return Succession(
        AnimationGroup(
            walk,
            Transform(box, shown, run_time=0.6),
            _changed(outline, lambda o: o.set_stroke(opacity=1.0)),
        ),
        make_copy_row_animation(grid, row, targets, route, theme, keep_marks=bool(route)),
        AnimationGroup(
            back,
            FadeOut(box),
            FadeOut(outline),
            _changed(chip, lambda c: c.set_opacity(USED_CHIP_OPACITY)),
            *[FadeIn(tag) for tag in provenance],
        ),
    )


@register_stage
class BatchStage(Stage):
    """The matrix, the batch as B rows of chips, and B output slices as stacked cards.

    Composed of a :class:`~embedviz.render.components.GridPanel` (beats
    ``count_rows`` and ``dim``), :class:`BatchChips` (``axes``) and a
    :class:`SliceStack` (``predict``, ``reveal`` and ``shape``); the stage
    lays them out and plays the beats that use several parts: ``intro`` and
    the lookups. A copied row leaves its grid row to the right, moves up or down
    in an empty corridor and slides into the front card from the left, so it
    crosses nothing.
    """

    layout = "batch"

    def build(self) -> None:
        """Lay out the batch block, the grid, the corridor and the stack of slices.

        Bands, top down: the title, the chips' travel lane, then the grid panel on
        the left and the batch of chips on the right, the stack of cards below the
        chips. One font size serves the grid and the cards: the largest at which
        grid | corridor | stack fit across the frame and the grid and the stack fit
        down to the legend (:func:`~embedviz.render.layout.fit_font`). Where
        that leaves the numbers under their minimum height, a tight layout packs
        the tags, margins and lanes closer; where even that does not, the rows'
        equality marks move to lines under their cards.
        """
        board, theme, cells = self.board, self.theme, self.cells
        final = board.beats[-1]
        assert final.output is not None
        self.batch, self.length, self.dim = final.output.shape
        frame = frame_regions()
        self.route_x: float | None = None

        # The chips' lane runs just below the title, above everything else.
        wide = max(len(c.text) for c in cells.values() if c.kind == "token_id") > 3
        self.chips = BatchChips.build(self, font_scale=self.batch > 2 or self.length > 6 or wide)
        self.batch_chips, self.chip_block = self.chips.chips, self.chips.block
        self.batch_label, self.length_label = self.chips.batch_label, self.chips.length_label
        self.chip_half, self.lane_y = self.chips.chip_half, self.chips.lane_y
        self.value_chars = max(
            len(c.text) for c in cells.values() if c.kind in ("weight", "output")
        )
        self.row_chars = max(2, *(len(c.text) for c in cells.values() if c.kind == "row_label"))
        self.stack_top = self.chip_block.get_bottom()[1] - 2 * SPACE
        # The grid's title sits just below the chips' lane, the batch of chips right
        # of the corridor; or, when the chips need the corridor's width, the grid
        # starts below them, its title level with their lowest row.
        self.grid_panel = GridPanel.from_board(
            self.scene, board, cells, grid_metrics_at(16.0, self.value_chars), theme
        )
        self.tight = False
        self.marks_below = False
        font = self._fit()
        if font < font_for_px(MIN_NUMBER_PX) * 1.005:
            # Too tight for readable numbers: the tags drop to the smallest readable
            # size, the corridor's margins and the chips' lane narrow, and the fit
            # is redone.
            self.tight = True
            font = self._fit()
        if font < font_for_px(MIN_NUMBER_PX) * 1.005:
            # Still too tight (long IDs widen the chips' lane and the tags, and
            # equality marks every card): the marks leave their rows for lines under
            # the card ("2 = out[0,0]"), so the cards are only as wide as their tags.
            self.marks_below = True
            font = self._fit()
        # What the widest font leaves over is shared out on both sides.
        slack = frame.right - self._right_edge()
        if slack > 0.01:
            self._layout_at(font, offset=slack / 2)
        # And what it leaves below goes half above the layout, half below.
        self._shift_down(self._vertical_slack() / 2)
        self._place_batch_block(frame.right)
        # The grid panel plays the dim beat; the stage plays the rest (they use
        # the chips, the grid and the stack at once).
        self.add_part(self.grid_panel)
        self.add_part(self.chips)
        self.add_part(self.stack)
        self.landed: set[tuple[int, ...]] = set()
        self._landed_texts: list[NumberText] = []

    def _fit(self) -> float:
        """Return the largest font at which everything fits, the layout built at it.

        The grid's title goes just below the chips' lane or level with the
        chips' lowest row, whichever lets the numbers be larger.
        """
        high = self.lane_y - self.chip_half - SPACE - self.grid_title.height / 2
        low = float(self.chip_block.get_bottom()[1]) + 0.05
        fonts = {y: self._model_fit(y) for y in (high, low)}
        self.grid_title_y = max(fonts, key=lambda y: (fonts[y], y))
        font = fonts[self.grid_title_y]
        # The model is checked on a real build; only if it was off is the last
        # point searched with real builds.
        if font > MIN_FIT_FONT and not self._fits(font):
            font = fit_font(self._fits, largest=font, smallest=font - 1.0, precision=0.1)
            self._layout_at(font)
        return font

    @property
    def _margin(self) -> float:
        """The corridor's margin on each side."""
        return _TIGHT_MARGIN if self.tight else CORRIDOR_MARGIN

    @property
    def grid(self) -> MatrixGrid:
        """The matrix grid (of the grid panel)."""
        assert self.grid_panel.grid is not None
        return self.grid_panel.grid

    @property
    def grid_title(self) -> VGroup:
        """``embedding matrix E`` and the table's shape."""
        assert self.grid_panel.title is not None
        return self.grid_panel.title

    def _grid_bottom(self) -> float:
        """Return the bottom of the grid, its column gap label or its dtype note."""
        note = self.grid_panel.dtype_note
        bottom = float(self.grid.get_bottom()[1])
        return min(bottom, float(note.get_bottom()[1])) if note is not None else bottom

    def story_label(self, role: str) -> str:
        """Return the text of a label role from the first beat that shows it.

        Parameters
        ----------
        role
            The label's role in the storyboard (e.g. ``slice_title``).

        Returns
        -------
        str
            Its text: every word this stage draws comes from the story.
        """
        for beat in self.board.beats:
            if role in beat.labels:
                return beat.labels[role]
        raise KeyError(f"no beat of {self.board.scene} has a label with role {role!r}")

    def _right_edge(self) -> float:
        """Return the rightmost point of the stack, its tags and edge labels."""
        stack = self.stack
        return float(max(stack.output_group.get_right()[0], stack.edge_d.get_right()[0]))

    def _model_fit(self, title_y: float) -> float:
        """Return the largest font at which the layout fits, with the grid's title at ``title_y``.

        Every extent of the layout is an affine function of the font size (the
        sizes scale with it, the paddings do not), so it is measured at two
        sizes and :func:`~embedviz.render.layout.fit_font` searches that model.
        """
        self.grid_title_y = title_y
        low, high = 14.0, 18.0
        at_low, at_high = self._extents(low), self._extents(high)

        def model(font: float) -> bool:
            extents = at_low + (at_high - at_low) * (font - low) / (high - low)
            return self._fits_extents(extents)

        return fit_font(model, largest=MAX_NUMBER_FONT, precision=0.05)

    def _fits(self, font: float) -> bool:
        """Whether the grid and the stack, built at ``font``, fit the frame."""
        return self._fits_extents(self._extents(font))

    def _extents(self, font: float) -> np.ndarray:
        """Build at ``font`` and measure what must fit.

        Returns the right edge, the room the batch block leaves, the grid's
        bottom, and the (right, bottom) of each of the stack's low parts.
        """
        frame = frame_regions()
        self._layout_at(font)
        # The batch of chips stands over the stack: right of the corridor when the
        # grid reaches up to the chips' level, else right of the grid's title.
        assert self.route_x is not None
        block = VGroup(self.chip_block, self.batch_label, self.length_label)
        block_left = self.grid_title.get_right()[0] + 0.3
        if self.grid.get_top()[1] > self.chip_block.get_bottom()[1] - SPACE:
            block_left = max(block_left, self.route_x + self.grid.width_of_body + self._margin)
        parts = [value for part in self._stack_parts() for value in part]
        return np.array(
            [
                self._right_edge(),
                frame.right - block_left - block.width,
                self._grid_bottom(),
                *parts,
            ]
        )

    def _fits_extents(self, extents: np.ndarray) -> bool:
        """Whether measured (or modelled) extents lie inside the frame's regions."""
        frame = frame_regions()
        right, block_room, grid_bottom, *parts = (float(v) for v in extents)
        return (
            right <= frame.right
            and block_room >= 0
            and grid_bottom >= frame.legend_top - SPACE
            and all(
                self._clear_of_legend((parts[i], parts[i + 1])) for i in range(0, len(parts), 2)
            )
        )

    def _vertical_slack(self) -> float:
        """Return how far everything could move down and still fit."""
        frame = frame_regions()
        slack = self._grid_bottom() - (frame.legend_top - SPACE)
        legend = self.grid_panel.legend
        for right, bottom in self._stack_parts():
            over = legend is not None and right >= legend.get_left()[0] - SPACE
            slack = min(slack, bottom - (frame.legend_top + (SPACE if over else -SPACE)))
        return max(0.0, slack)

    def _shift_down(self, distance: float) -> None:
        """Move the whole layout (lane, chips, grid, stack) down by ``distance``."""
        if distance <= 0:
            return
        step = xyz(0, -distance)
        parts: list[VMobject] = [self.chip_block, self.batch_label, self.length_label, self.grid]
        stack = self.stack
        parts += [self.grid_title, stack.output_group, stack.edge_t, stack.edge_d, stack.edge_b]
        if self.grid_panel.dtype_note is not None:
            parts.append(self.grid_panel.dtype_note)
        for part in [*parts, *stack.tags.values()]:
            part.shift(step)
        self.lane_y -= distance
        self.stack_top -= distance
        self.grid_title_y -= distance

    def _stack_parts(self) -> list[tuple[float, float]]:
        """Return (right, bottom) of the front card and of its T and d edges.

        The edges are built beside the back card and move forward with each
        card; these are where they end.
        """
        stack = self.stack
        step = stack.card_step * (self.batch - 1)
        card = stack.cards[-1][0]
        parts = [(float(card.get_right()[0]), float(card.get_bottom()[1]))]
        for part in [*stack.edge_t, *stack.edge_d]:
            parts.append(
                (float(part.get_right()[0] + step[0]), float(part.get_bottom()[1] + step[1]))
            )
        # The equality marks under the front card (when they leave their rows).
        lines = stack.mark_lines.get(self.batch - 1)
        if lines is not None:
            parts.append((float(lines.get_right()[0]), float(lines.get_bottom()[1])))
        return parts

    def _clear_of_legend(self, part: tuple[float, float]) -> bool:
        """Whether a part ends above the caption, and above the legend where over it."""
        frame = frame_regions()
        right, bottom = part
        if bottom < frame.legend_top - SPACE:
            return False
        legend = self.grid_panel.legend
        if legend is None or right < legend.get_left()[0] - SPACE:
            return True
        return bottom >= frame.legend_top + SPACE

    def _layout_at(self, font: float, offset: float = 0.0) -> None:
        """Build the grid and the stack of cards at one font size.

        Parameters
        ----------
        font
            The numbers' font size.
        offset
            How far right of the frame's left edge the layout starts.
        """
        board, theme, cells = self.board, self.theme, self.cells
        frame = frame_regions()
        metrics = grid_metrics_at(font, self.value_chars)
        self.metrics = metrics
        self.grid_panel = GridPanel.from_board(self.scene, board, cells, metrics, theme)
        body_w = self.grid.width_of_body
        row_label_w = char_advance(font * LABEL_RATIO) * self.row_chars
        body_left = frame.left + offset + self._chip_lane_width() + row_label_w + 0.2
        grid_top = self.grid_title_y - self.grid_title.height / 2 - SPACE
        self.grid_panel.place(
            body_left, grid_top - metrics.cell_height * 0.75, heading_y=self.grid_title_y
        )
        self.route_x = body_left + body_w + self._margin
        # The T brace stands in the corridor's margin: a strip passes over it.
        front_left = self.route_x + body_w + self._margin
        self.stack = SliceStack(self.scene, theme, board, cells, self.story_label, self.pieces)
        self.stack.corridor_left = float(self.grid.get_right()[0])
        # A narrow margin brings the back card's corner over the corridor: B goes above it.
        self.stack.b_above = self.tight
        self.stack.marks_below = self.marks_below
        self.stack.build(front_left, self.stack_top, self._header(), metrics, self._tag_font())

    def _tag_font(self) -> float:
        """Return the font of the rows' provenance tags: small, never under a label's minimum."""
        # A digit's height at 720p per point of font size.
        px_per_point = digit_height(1.0) * 720 / float(config.frame_height)
        smallest = MIN_LABEL_PX / px_per_point + 0.1
        return smallest if self.tight else max(self.metrics.font_size * _TAG_RATIO, smallest)

    def _header(self) -> float:
        """Return the height of a card's header band (its "slice b" title)."""
        return float(digit_height(_LABEL_FONT) + 0.16)

    # -- layout ------------------------------------------------------------------
    def _chip_lane_width(self) -> float:
        """Return the room a parked chip needs left of the row numbers' column."""
        # MatrixGrid.row_anchor parks a chip with its right edge 0.12 left of it.
        widest = max(chip.width for chip in self.batch_chips.values())
        return 0.12 + widest + (0.0 if self.tight else 0.05)

    def _place_batch_block(self, right: float) -> None:
        """Centre the chips over the stack, right of the grid title and the corridor."""
        assert self.route_x is not None
        centre = self.stack.output_group.get_center()[0]
        block = VGroup(self.chip_block, self.batch_label, self.length_label)
        shift = centre - self.chip_block.get_center()[0]
        # Nothing stands in the corridor: copied rows go up and down in it.
        corridor_right = self.route_x + self.grid.width_of_body + self._margin
        min_left = max(self.grid_title.get_right()[0] + 0.3, corridor_right)
        shift = max(shift, min_left - self.batch_label.get_left()[0])
        shift = min(
            shift, right - max(self.chip_block.get_right()[0], self.length_label.get_right()[0])
        )
        block.shift(xyz(shift, 0))
        self.batch_homes = {
            index: chip.get_center().copy() for index, chip in self.batch_chips.items()
        }

    # -- beat handlers -----------------------------------------------------------
    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the grid panel and the batch of chips."""
        return make_reveal_animation(self.intro_mobjects())

    def _lookup(self, position: tuple[int, ...]) -> Animation:
        b = position[0]
        chip = self.batch_chips[position]
        row = int(chip.number.cell.value)
        targets = self.stack.slice_panels[b].output_cells(position, self.cells)
        for target in targets:
            target.set_z_index(2 * b + 2)
        self.landed.add(position)
        self.scene.bring_to_front(chip)
        first = self.grid.row_cells(row)[0]
        start = first.get_center()
        x = self.route_x + (start[0] - self.grid.body.get_left()[0])
        route = [xyz(x, start[1]), xyz(x, targets[0].get_center()[1])] if self.route_x else []
        tag = self.stack.tags.get(position)
        lookup = make_batch_lookup_animation(
            chip,
            self.batch_homes[position],
            self.lane_y,
            self.grid,
            row,
            targets,
            self.theme,
            route=route,
            provenance=[tag] if tag is not None else [],
        )
        self._landed_texts.extend(targets)
        if b > 0 and position[1] == 0:
            return Succession(self.stack.next_card(b, self._landed_texts), lookup)
        return lookup

    def beat_lookup(self, beat: Beat) -> Animation:
        """Walk one chip to its row and copy the row into its slice."""
        assert beat.highlight is not None
        return self._lookup(beat.highlight.position)

    def beat_lookup_many(self, beat: Beat) -> Animation:
        """Look up every newly filled position, one after another."""
        assert beat.output is not None
        fresh = [p for p in beat.output.filled if p not in self.landed]
        return Succession(*[self._lookup(position) for position in fresh])


class BatchChips(Component):
    """The input batch: B rows of T chips, with braces naming B and T. Beat: ``axes``.

    Parameters
    ----------
    host
        The scene.
    theme
        Colours.
    chips
        The chips by (sequence, position), already sized.
    lane_y
        The height at which chips travel; the block hangs just below it.
    axis_words
        The words before B's and T's sizes (``batch B =``, ``sequence length T =``).
    axis_cells
        The two ``batch_dim`` cells: B and T.
    """

    def __init__(
        self,
        host: StageHost,
        theme: Theme,
        chips: dict[tuple[int, ...], TokenChip],
        lane_y: float,
        axis_words: tuple[str, str],
        axis_cells: tuple[NumberCell, NumberCell],
    ) -> None:
        super().__init__(host, theme)
        self.chips = chips
        pitch_x = max(chip.width for chip in chips.values()) + _CHIP_GAP
        pitch_y = max(chip.height for chip in chips.values()) + _CHIP_GAP * 0.7
        for (b, t), chip in chips.items():
            chip.move_to(xyz(t * pitch_x, -b * pitch_y))
        self.block = VGroup(*chips.values())
        self.chip_half = max(chip.height for chip in chips.values()) / 2
        self.lane_y = lane_y
        label_top = lane_y - self.chip_half - 0.04
        top = label_top - digit_height(_LABEL_FONT) - 0.05 - _BRACE_DEPTH - 0.06
        self.block.shift(xyz(0, top - self.block.get_top()[1]))
        block = self.block
        brace_b = Brace(block, direction=LEFT, buff=0.1, color=theme.muted)
        brace_b.stretch_to_fit_width(_BRACE_DEPTH).next_to(block, LEFT, buff=0.1)
        text_b = VGroup(
            LabelText(axis_words[0], _LABEL_FONT, theme.muted),
            NumberText(axis_cells[0], _LABEL_FONT, theme.text),
        ).arrange(RIGHT, buff=0.14)
        text_b.next_to(brace_b, LEFT, buff=0.1)
        brace_t = Brace(block, direction=UP, buff=0.06, color=theme.muted)
        brace_t.stretch_to_fit_height(_BRACE_DEPTH).next_to(block, UP, buff=0.06)
        text_t = VGroup(
            LabelText(axis_words[1], _LABEL_FONT, theme.muted),
            NumberText(axis_cells[1], _LABEL_FONT, theme.text),
        ).arrange(RIGHT, buff=0.14)
        text_t.next_to(brace_t, UP, buff=0.05)
        self.batch_label = VGroup(brace_b, text_b)
        self.length_label = VGroup(brace_t, text_t)

    @classmethod
    def build(cls, stage: BatchStage, font_scale: bool) -> BatchChips:
        """Build a stage's batch of chips under the lane just below its title.

        Parameters
        ----------
        stage
            The stage: its cells, chips maker, title and story labels.
        font_scale
            Whether the chips are drawn smaller (three or more sequences, or
            long ones), to leave the slices height and the corridor width.

        Returns
        -------
        BatchChips
            The part.
        """
        chip_cells = sorted(
            (c for c in stage.cells.values() if c.kind == "token_id"), key=lambda c: c.index
        )
        font = _SMALL_CHIP_FONT if font_scale else _CHIP_FONT
        chips = {c.index: stage.make_chip(c, font) for c in chip_cells}
        if font_scale:
            for chip in chips.values():
                chip.scale(_SMALL_CHIP_SCALE)
        chip_half = max(chip.height for chip in chips.values()) / 2
        lane_y = float(stage.title.get_bottom()[1]) - SPACE - chip_half
        words = (stage.story_label("batch_axis"), stage.story_label("length_axis"))
        sizes = (stage.cells[("batch_dim", (0,))], stage.cells[("batch_dim", (1,))])
        return cls(stage.scene, stage.theme, chips, lane_y, words, sizes)

    def intro(self) -> list[VMobject]:
        """Return the chips (their axes are named in their own beat)."""
        return list(self.chips.values())

    def beat_axes(self, beat: Beat) -> Animation:
        """Name the batch's two axes: B sequences (rows) of T IDs (columns)."""
        return AnimationGroup(
            FadeIn(self.batch_label, shift=0.2 * RIGHT),
            FadeIn(self.length_label, shift=0.2 * UP),
            lag_ratio=0.5,
        )


class SliceStack(Component):
    """The output as B slice cards stacked with depth, with its B, T and d edges.

    Slice ``b`` is a card; later slices stand in front of earlier ones, each
    offset down and left by one header band: B runs along the diagonal, T
    down the front card's left edge, d along its bottom. One
    :class:`~embedviz.render.components.OutputPanel` per slice builds the
    card's rows and provenance tags. Beats: ``predict``, ``reveal``, ``shape``.

    Parameters
    ----------
    host
        The scene.
    theme
        Colours.
    board
        The storyboard (its first beat's window is the cards' columns).
    cells
        Every cell of the storyboard, by (kind, index).
    story_label
        Returns a label's text from its role.
    pieces
        The word pieces behind the IDs, when the input was text.
    """

    def __init__(
        self,
        host: StageHost,
        theme: Theme,
        board: Storyboard,
        cells: dict[tuple[str, tuple[int, ...]], NumberCell],
        story_label: Callable[[str], str],
        pieces: Sequence[str] | None,
    ) -> None:
        super().__init__(host, theme)
        self.board = board
        self.cells = cells
        self.story_label = story_label
        self.pieces = pieces
        final = board.beats[-1]
        assert final.output is not None
        self.batch, self.length = final.output.shape[:2]
        self.tags: dict[tuple[int, ...], VGroup] = {}
        self.question: LabelText | None = None
        # Where the corridor left of the front card begins (the grid's right edge).
        self.corridor_left = 0.0
        # Whether B's name stands above the back card's corner (not left of it).
        self.b_above = False
        # Whether a row's equality mark stands on a line under its card (not on the row).
        self.marks_below = False
        # Those lines, by slice: a row label and its mark, under the card's right end.
        self.mark_lines: dict[int, VGroup] = {}

    def build(
        self,
        front_left: float,
        stack_top: float,
        header: float,
        metrics: GridMetrics,
        tag_font: float,
    ) -> None:
        """Build the B cards: slice 0 at the back (top right), slice B-1 in front.

        Parameters
        ----------
        front_left
            The left edge of the front card's body.
        stack_top
            The top of the back card.
        header
            The height of a card's header band.
        metrics
            The grid's sizes, shared by the cards' rows.
        tag_font
            The font size of the rows' provenance tags.
        """
        theme, by_key = self.theme, self.cells
        cells = list(by_key.values())
        window = self.board.beats[0].window
        self.slices: list[OutputBlock] = []
        # One output panel per slice builds its block's rows and provenance tags.
        self.slice_panels: list[OutputPanel] = []
        self.cards: list[VGroup] = []
        self.card_texts: list[VGroup] = []
        depth = self.batch - 1
        all_tags: dict[tuple[int, ...], VGroup] = {}
        for b in range(self.batch):
            positions: list[tuple[int, ...]] = [(b, t) for t in range(self.length)]
            block = OutputBlock(
                positions,
                window,
                cells,
                metrics,
                theme,
                self.board.value_scale,
                labels_right=True,
            )
            back = depth - b
            top = stack_top - b * header - header
            block.shift(xyz(front_left + back * _CARD_DX, top) - block.body.get_corner(UP + LEFT))
            panel = OutputPanel(self.host, theme)
            panel.output = block
            panel.build_tags(positions, by_key, tag_font, self.pieces)
            all_tags.update(panel.tags)
            self.slice_panels.append(panel)
            self.slices.append(block)
            title = VGroup(
                SansText(self.story_label("slice_title"), _LABEL_FONT, theme.output),
                NumberText(by_key[("slice", (b,))], _LABEL_FONT, theme.output),
            ).arrange(RIGHT, buff=0.1)
            title.next_to(block.body, UP, buff=0.08).align_to(block.body, LEFT).shift(0.08 * RIGHT)
            self.card_texts.append(VGroup(title, block.labels))
            self.cards.append(VGroup(block, title))
        self.tags = all_tags
        # Marks that leave their rows: each becomes a line under its card.
        moved: dict[int, list[tuple[int, VGroup, NumberText]]] = {}
        for (b, t), tag in all_tags.items() if self.marks_below else ():
            mark = tag[-1]
            if isinstance(mark, NumberText) and mark.cell.kind == "equal_to":
                tag.remove(mark)
                moved.setdefault(b, []).append((t, tag, mark))
        # Every card has the width of the widest (labels, tags and marks included).
        card_w = max(
            max([block.get_right()[0], *(t.get_right()[0] for t in self.card_tags(b))])
            - block.body.get_left()[0]
            for b, block in enumerate(self.slices)
        )
        for block, group in zip(self.slices, self.cards, strict=True):
            card = Rectangle(width=card_w + 0.1, height=block.body.height + header)
            card.set_fill(theme.background, opacity=1.0)
            card.set_stroke(theme.output, width=1.5, opacity=0.8)
            card.move_to(
                block.body.get_corner(UP + LEFT) + xyz(-0.06, header), aligned_edge=UP + LEFT
            )
            group.add_to_back(card)
        # Later cards stand in front: each card and what lands on it get their own depth.
        for b, group in enumerate(self.cards):
            group.set_z_index(2 * b + 1)
            for tag in self.card_tags(b):
                tag.set_z_index(2 * b + 2)
        front, back_card = self.cards[-1][0], self.cards[0][0]
        self.output_group = VGroup(*self.cards)
        # T down the front card's left edge, d along its bottom, B along the diagonal.
        body = self.slices[-1].body
        brace_t = Brace(body, direction=LEFT, buff=0.08, color=theme.muted)
        brace_t.stretch_to_fit_width(_BRACE_DEPTH).next_to(body, LEFT, buff=0.1)
        # B and T keep their numbers on the batch of chips; the block's edges name them.
        text_t = VGroup(LabelText(self.story_label("edge_t"), _LABEL_FONT, theme.muted))
        # The text sits below the card's corner, where no copied row passes.
        text_t.next_to(front, DOWN, buff=0.1).align_to(brace_t, RIGHT)
        brace_d = Brace(body, direction=DOWN, buff=0.06, color=theme.muted)
        brace_d.stretch_to_fit_height(_BRACE_DEPTH).next_to(front, DOWN, buff=0.06)
        brace_d.align_to(body, LEFT)
        text_d = VGroup(
            LabelText(self.story_label("edge_d"), _LABEL_FONT, theme.muted),
            NumberText(by_key[("batch_dim", (2,))], _LABEL_FONT, theme.text),
        ).arrange(RIGHT, buff=0.1)
        text_d.next_to(brace_d, DOWN, buff=0.04)
        self.edge_t = VGroup(brace_t, text_t)
        self.edge_d = VGroup(brace_d, text_d)
        # Shown with the first card, at the back; they move forward with each new card.
        offset = xyz(depth * _CARD_DX, depth * header)
        self.edge_t.shift(offset)
        self.edge_d.shift(offset)
        self.card_step = xyz(-_CARD_DX, -header)
        for b, marks in moved.items():
            self.mark_lines[b] = self._mark_lines(b, marks, VGroup(brace_d, text_d))
        start = front.get_corner(UP + LEFT) + xyz(-0.05, 0.05)
        end = back_card.get_corner(UP + LEFT) + xyz(-0.05, 0.05)
        diagonal = Line(start, end, color=theme.muted, stroke_width=2)
        text_b = VGroup(LabelText(self.story_label("edge_b"), _LABEL_FONT, theme.muted))
        if self.b_above:
            text_b.next_to(end, UP, buff=0.04).align_to(end, RIGHT)
        else:
            text_b.next_to(end, LEFT, buff=0.12)
        self.edge_b = VGroup(diagonal, text_b)
        if self.batch == 1:
            self.edge_b = VGroup()
        self.dim_label = text_d

    def _mark_lines(
        self, b: int, marks: Sequence[tuple[int, VGroup, NumberText]], edge_d: VGroup
    ) -> VGroup:
        """Set slice ``b``'s equality marks on lines under its card's right end.

        Each line is the row's label and its mark (``2 = out[0,0]``); it joins
        the row's tag, so it comes and goes with it. The lines hang from the
        card where the d edge leaves room: just under the card, else under the
        edge's brace (beside its text), else under its text.
        """
        block, card = self.slices[b], self.cards[b][0]
        lines = VGroup()
        for t, tag, mark in marks:
            line = VGroup(block.labels[t].echoed(), mark).arrange(RIGHT, buff=0.1)
            lines.add(line)
            tag.add(line)
        lines.arrange(DOWN, buff=0.08, aligned_edge=LEFT)
        # The d edge stands under the back card now; it moves forward with each card.
        brace, text = (part.copy().shift(b * self.card_step) for part in edge_d)
        tops = [
            (card.get_bottom()[1], brace.get_right()[0]),
            (brace.get_bottom()[1], text.get_right()[0]),
            (text.get_bottom()[1], -np.inf),
        ]
        for top, left_of in tops:
            lines.move_to(xyz(0, top - 0.08), aligned_edge=UP)
            lines.align_to(card, RIGHT).shift(0.06 * LEFT)
            if lines.get_left()[0] >= left_of + SPACE:
                break
        lines.set_z_index(2 * b + 2)
        return lines

    def card_tags(self, b: int) -> list[VGroup]:
        """Return the provenance tags of slice ``b``'s rows (those the story gives)."""
        return [self.tags[(b, t)] for t in range(self.length) if (b, t) in self.tags]

    def beat_predict(self, beat: Beat) -> Animation:
        """Ask for the output's shape where the stack will appear."""
        question = beat.label("question")
        self.question = LabelText(question, 24, self.theme.output)
        self.question.move_to(self.cards[-1])
        return FadeIn(self.question, shift=0.2 * DOWN)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Reveal the first card (slice 0, at the back) and the block's three edges."""
        leaving = [self.question] if self.question is not None else []
        appearing = [self.cards[0], self.edge_t, self.edge_d, *self.edge_b]
        if leaving:
            return Succession(make_reveal_animation([], leaving), make_reveal_animation(appearing))
        return make_reveal_animation(appearing)

    def next_card(self, b: int, landed: Sequence[NumberText]) -> Animation:
        """Set slice ``b``'s card in front of the stack; the rows it hides leave.

        Parameters
        ----------
        b
            The slice whose card comes forward.
        landed
            Every output number landed so far (those of slice ``b - 1`` leave).

        Returns
        -------
        Animation
            The rows behind fade out, the card behind dims, the new card comes
            forward and the T and d edges move with it.
        """
        # The card in front hides the rows of the one behind it; its header still shows.
        behind: list[Mobject] = [self.slices[b - 1].labels, *self.card_tags(b - 1)]
        behind += [t for t in landed if t.cell.index[0] == b - 1]
        # The elision marks its strips left behind rest at that card's depth.
        depth = 2 * (b - 1) + 2
        behind += [m for m in self.host.mobjects if isinstance(m, LabelText) and m.z_index == depth]
        step = self.card_step
        return AnimationGroup(
            *[FadeOut(m) for m in behind],
            _changed(self.cards[b - 1][2], lambda t: t.set_opacity(_BEHIND)),
            FadeIn(self.cards[b], shift=-step),
            _changed(self.edge_t, lambda t: t.shift(step)),
            _changed(self.edge_d, lambda t: t.shift(step)),
        )

    def beat_shape(self, beat: Beat) -> Animation:
        """Write the output's shape, B × T × d, beside the stack; d leaves its edge."""
        theme = self.theme
        sizes = sorted((c for c in beat.numbers if c.kind == "output_size"), key=lambda c: c.index)
        shape = ShapeLabel(sizes, HEADING_FONT, theme.output)
        title = SansText(beat.label("output_title"), HEADING_FONT, theme.output)
        label = VGroup(title, shape).arrange(RIGHT, buff=0.2)
        # Left of the front card, in the corridor, which no row travels any more
        # (under the card, the d edge and the legend leave it little room).
        label.next_to(self.edge_t[0], LEFT, buff=0.2)
        room = label.get_right()[0] - self.corridor_left - SPACE
        if label.width > room:  # a one- or two-column table leaves a narrow corridor
            label.next_to(self.edge_d, DOWN, buff=SPACE).align_to(self.edge_d[0], LEFT)
        # d's number leaves the edge as the shape is written; the edges stay named.
        d_equals, d_number = self.edge_d[1]
        d_name = LabelText(beat.label("edge_d"), _LABEL_FONT, theme.muted)
        d_name.move_to(d_equals, aligned_edge=LEFT)
        return AnimationGroup(
            Succession(FadeOut(d_number, run_time=0.4), FadeIn(label, shift=0.15 * UP)),
            ReplacementTransform(d_equals, d_name),
        )
