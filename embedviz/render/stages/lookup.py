"""The lookup layout: the matrix grid, input chips and the output block.

Used by SingleTokenLookup and SequenceLookup. :class:`LookupStage` is composed
of parts (:mod:`embedviz.render.components`): a :class:`GridPanel`, a
:class:`ChipLane`, an :class:`OutputPanel`, a :class:`PrintPanel` and the
:class:`RowCopy` motion, each with its own beat handlers. Its old attribute
names (``grid``, ``chips``, ``output``, ...) are aliases of the parts' ones,
kept while other stages still subclass it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from manim import LEFT, RIGHT, UP, Animation, Circumscribe, VGroup

from embedviz.render.animations import Steps, make_reveal_animation
from embedviz.render.components import (
    ChipLane,
    GridPanel,
    OutputPanel,
    PrintPanel,
    RowCopy,
)
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.layout import (
    CHIP_FONT,
    CORRIDOR_MARGIN,
    HEADING_FONT,
    LABEL_RATIO,
    MAX_NUMBER_FONT,
    MIN_LABEL_PX,
    MIN_NUMBER_PX,
    NOTE_FONT,
    SPACE,
    fit_font,
    frame_regions,
)
from embedviz.render.mobjects import (
    GAP_ROW_PITCH,
    GridMetrics,
    TokenChip,
    char_advance,
    digit_height,
    font_for_px,
    gap_band_height,
    grid_metrics_at,
    grid_width_per_font,
    xyz,
)
from embedviz.render.stage import Component, Stage, StageHost, register_stage
from embedviz.render.theme import Theme
from embedviz.story.model import Beat, Storyboard

__all__ = ["ClassicLayout", "LookupStage", "classic_layout", "readable_scale"]

# A cell's height in digit heights: the default, the tightest a tall table
# may pack before its numbers shrink, and the tallest a short one grows to.
_PITCHES = (2.0, 1.9, 1.8, 1.7, 1.6)
_MAX_PITCH = 2.6
# Between the PyTorch call and its print.
_PRINT_BUFF = 0.25
# Between the titles' centre line and the column numbers' row.
_HEADING_GAP = 0.15

# Regions of the frame used by the classic arrangement, in scene units.
_CHIPS_Y = 2.72
_REGION_TOP = 2.05
# The grid's column ends left of the centre line, the output's starts right of
# it; both keep this inset inside the frame's safe area.
_GRID_RIGHT, _OUTPUT_LEFT = -0.6, 0.9
_COLUMN_INSET = 0.2111111  # -6.7 and 6.7 in a 16:9 frame 8 units high
_CHIP_LANE = 0.7  # a chip parks left of the row numbers


@dataclass
class ClassicLayout:
    """The shared arrangement: grid on the left, chips and output block on the right.

    Attributes
    ----------
    metrics
        The grid's sizes.
    grid
        The grid panel, placed.
    chips
        The chip lane, placed.
    output
        The output panel (its block is None when the story has no output rows).
    """

    metrics: GridMetrics
    grid: GridPanel
    chips: ChipLane
    output: OutputPanel


def classic_layout(
    host: StageHost,
    board: Storyboard,
    cells: dict[tuple[str, tuple[int, ...]], Any],
    theme: Theme,
    chips: list[TokenChip],
) -> ClassicLayout:
    """Lay out the grid in the left half and the chips and output block in the right.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard.
    cells
        Every cell of the storyboard, by (kind, index).
    theme
        Colours.
    chips
        The input chips (not yet placed).

    Returns
    -------
    ClassicLayout
        The placed parts.
    """
    from embedviz.render.mobjects import OutputBlock

    frame = frame_regions()
    grid_left, output_right = frame.left + _COLUMN_INSET, frame.right - _COLUMN_INSET
    window = board.beats[0].window
    weight_texts = [c.text for c in cells.values() if c.kind in ("weight", "output")]
    row_labels = [c.text for c in cells.values() if c.kind == "row_label"]
    positions = sorted({c.index for c in cells.values() if c.kind == "position"})
    grid_rows = len(window.rows) + GAP_ROW_PITCH * len(window.row_gaps) + 1
    # A parked chip sits in a lane left of the row numbers; text pieces widen it.
    lane = max([_CHIP_LANE, *(chip.width + 0.15 for chip in chips)])
    bottom = -1.05 if board.printed is not None else -2.55
    metrics = GridMetrics.fit(
        value_chars=max(len(t) for t in weight_texts),
        columns=len(window.cols),
        column_gaps=len(window.col_gaps),
        label_chars=max(max(len(t) for t in row_labels), 2),
        rows=max(grid_rows, len(positions) + 1),
        width=min(_GRID_RIGHT - grid_left - lane, output_right - _OUTPUT_LEFT),
        height=_REGION_TOP - bottom,
    )
    panel = GridPanel.from_board(host, board, cells, metrics, theme, 22, 16)
    # Leave room on the left for the row numbers and a parked chip.
    label_width = char_advance(metrics.font_size * 0.8) * max(len(t) for t in row_labels)
    panel.place(
        grid_left + lane + label_width + 0.2,
        _REGION_TOP - metrics.cell_height,
        note_below=False,
    )

    lane_part = ChipLane(host, theme)
    chip_row = VGroup(*chips).arrange(RIGHT, buff=0.18)
    if chip_row.width > output_right - _OUTPUT_LEFT:
        chip_row.scale_to_fit_width(output_right - _OUTPUT_LEFT)
    chip_row.move_to(xyz((_OUTPUT_LEFT + output_right) / 2, _CHIPS_Y))
    label = SansText(board.word("token_ids"), 20, theme.muted)
    label.next_to(chip_row, LEFT, buff=0.3)
    lane_part.set_chips(chips, label)
    lane_part.mark_homes()

    out = OutputPanel(host, theme)
    if positions:
        out.output = OutputBlock(
            positions, window, list(cells.values()), metrics, theme, board.value_scale
        )
        out_top_left = np.array([_OUTPUT_LEFT + 0.6, _REGION_TOP - metrics.cell_height, 0])
        out.output.shift(out_top_left - out.output.body.get_corner(UP + LEFT))
        out.title = SansText(board.word("output"), 22, theme.output)
        out.title.next_to(out.output.body, UP, buff=0.2).align_to(out.output.body, LEFT)
    return ClassicLayout(metrics, panel, lane_part, out)


def readable_scale(chips: list[TokenChip]) -> float:
    """Return the smallest scale at which every chip's ID and piece stay readable at 720p."""
    from manim import config

    per_unit = 720 / float(config.frame_height)
    heights = [
        text.height * per_unit
        for chip in chips
        for text in (chip.number, chip.piece)
        if text is not None
    ]
    return max(MIN_LABEL_PX * 1.03 / h for h in heights)


def _alias(part: str, name: str) -> Any:
    """Return a stage property that reads and writes one of its parts' attributes."""

    def get(stage: LookupStage) -> Any:
        return getattr(stage.part(part), name)

    def put(stage: LookupStage, value: Any) -> None:
        setattr(stage.part(part), name, value)

    return property(get, put, doc=f"Alias of ``self.{part}.{name}``.")


@register_stage
class LookupStage(Stage):
    """A grid of the visible window, token chips, and an output block.

    Composed of a :class:`GridPanel`, a :class:`ChipLane`, an
    :class:`OutputPanel`, a :class:`PrintPanel` (when the story prints) and
    the :class:`RowCopy` motion. Parts are created on first use, so stages
    that still subclass this one and assign ``self.grid`` and friends in their
    own ``build`` get the same parts and handlers.
    """

    layout = "lookup"

    # Whether this stage lays the grid, a clear corridor and the output block
    # side by side (rows travel through the corridor), or in the older shared
    # arrangement that other stages still build on.
    corridor: bool = True

    # Aliases of the parts' attributes (for stages that still subclass this one).
    grid = _alias("grid_panel", "grid")
    grid_title = _alias("grid_panel", "title")
    legend = _alias("grid_panel", "legend")
    dtype_note = _alias("grid_panel", "dtype_note")
    chips = _alias("chip_lane", "chips")
    chip_homes = _alias("chip_lane", "homes")
    chips_label = _alias("chip_lane", "label")
    travel_lane_y = _alias("chip_lane", "lane_y")
    output = _alias("output_panel", "output")
    output_title = _alias("output_panel", "title")
    shape_label = _alias("output_panel", "shape_label")
    tags = _alias("output_panel", "tags")
    code = _alias("print_panel", "code")
    printed = _alias("print_panel", "printed")
    route_x = _alias("row_copy", "route_x")

    grid_panel: GridPanel
    chip_lane: ChipLane
    output_panel: OutputPanel
    print_panel: PrintPanel
    row_copy: RowCopy

    def part(self, name: str) -> Any:
        """Return the named part, composing an empty one into the stage on first use.

        Parameters
        ----------
        name
            ``grid_panel``, ``chip_lane``, ``output_panel``, ``print_panel`` or ``row_copy``.

        Returns
        -------
        Component
            The part.
        """
        found: Component | None = self.__dict__.get(name)
        if found is None:
            if name == "row_copy":
                found = RowCopy(
                    self.scene,
                    self.theme,
                    self.part("grid_panel"),
                    self.part("chip_lane"),
                    self.part("output_panel"),
                    self.cells,
                )
            else:
                kinds: dict[str, type[Component]] = {
                    "grid_panel": GridPanel,
                    "chip_lane": ChipLane,
                    "output_panel": OutputPanel,
                    "print_panel": PrintPanel,
                }
                found = kinds[name](self.scene, self.theme)
            self._set_part(name, found)
        return found

    def _set_part(self, name: str, part: Component) -> None:
        old = self.__dict__.get(name)
        if old is not None:
            self.parts.remove(old)
        self.__dict__[name] = part
        self.add_part(part)

    def build(self) -> None:
        """Lay out the grid, the input chips and the output block."""
        for name in ("grid_panel", "chip_lane", "output_panel", "row_copy"):
            self.part(name)
        if type(self).layout == "lookup" and self.corridor:
            self._build_corridor()
        else:
            self._build_classic()

    def _build_classic(self) -> None:
        chip_cells = sorted(
            (c for c in self.cells.values() if c.kind == "token_id"), key=lambda c: c.index
        )
        chips = [self.make_chip(cell, 24) for cell in chip_cells]
        layout = classic_layout(self.scene, self.board, self.cells, self.theme, chips)
        self.metrics = layout.metrics
        self._set_part("grid_panel", layout.grid)
        self._set_part("chip_lane", layout.chips)
        self._set_part("output_panel", layout.output)
        self.row_copy.grid_panel = layout.grid
        self.row_copy.chip_lane = layout.chips
        self.row_copy.output_panel = layout.output
        if self.board.printed is not None:
            self._layout_print(self.board, self.board.beats[-1])

    def _build_corridor(self) -> None:
        """Grid | corridor | output, sized from the frame so numbers stay readable.

        Every size comes from the frame and the strings to show: the largest
        font (:func:`fit_font`) at which three grid-wide blocks (grid,
        corridor, output) and the labels fit across, and the grid's rows fit
        down. A tall table packs its rows closer (down to
        :data:`_PITCHES`, in digit heights a row) and draws each hidden range as
        a thin band before its numbers drop under the readable size; a short
        one gets taller cells, up to :data:`_MAX_PITCH`, to use the screen.
        A copied row leaves its grid row to the right, moves up or down inside
        the empty corridor and slides into its output row from the left, so
        it never crosses a number; output labels sit right of the block for
        the same reason.
        """
        from embedviz.render.mobjects import OutputBlock

        board, theme, cells = self.board, self.theme, self.cells
        window = board.beats[0].window
        frame = frame_regions()
        value_chars = max(len(c.text) for c in cells.values() if c.kind in ("weight", "output"))
        row_chars = max(2, *(len(c.text) for c in cells.values() if c.kind == "row_label"))
        positions = sorted({c.index for c in cells.values() if c.kind == "position"})
        chip_cells = sorted(
            (c for c in cells.values() if c.kind == "token_id"), key=lambda c: c.index
        )
        chips = [self.make_chip(cell, CHIP_FONT) for cell in chip_cells]
        lane = max(chip.width for chip in chips) + 0.12
        chip_label = SansText(self.word("token_ids"), HEADING_FONT, theme.muted)

        # Vertical bands, top down: title, chips (one lane, or two around the
        # travel lane), the chips' travel lane, titles, grid.
        self.title.move_to(xyz(0, frame.title_y))
        chips_top = self.title.get_bottom()[1] - SPACE
        lanes = ChipLane.lanes_needed(
            chips, chip_label, frame.right - frame.left, readable_scale(chips)
        )
        chip_lane = self.chip_lane
        chip_lane.set_chips(chips, chip_label)
        chips_bottom = chip_lane.arrange(chips_top, frame.left, frame.right, lanes)
        assert chip_lane.lane_y is not None
        chip_h = max(chip.height for chip in chips)
        band_bottom = min(chips_bottom, chip_lane.lane_y - chip_h / 2)
        heading_y = band_bottom - SPACE - HEADING_FONT * 0.006
        bottom = -1.05 if board.printed is not None else frame.legend_top - SPACE

        # Output labels: the position, then the ID tag, its piece and an equality mark.
        def widest(kind: str) -> int:
            return max([len(c.text) for c in cells.values() if c.kind == kind] or [0])

        marks = [c.text for c in cells.values() if c.kind == "equal_to"]
        label_chars = (
            widest("position")
            + widest("output_id")
            + max([len(p) for p in self.pieces or ()] or [0])
            + max([len(t) for t in marks] or [0])
        )
        # Gaps between the block, the position, the tag (and its padding), piece and mark.
        labels_fixed = 0.15 + 0.1 + 0.12 + 0.08 + 0.1
        per_font_w = grid_width_per_font(value_chars, len(window.cols), len(window.col_gaps))
        label_per_font = char_advance(1.0) * LABEL_RATIO
        fixed = lane + 0.2 + 2 * CORRIDOR_MARGIN + labels_fixed
        region = heading_y - _HEADING_GAP - bottom
        compact = bool(window.row_gaps)
        gap_chars = max([len(gap.label) for gap in window.row_gaps] or [0])
        min_label_font = font_for_px(MIN_LABEL_PX) * 1.03

        def gap_font(font: float) -> float:
            # Readable, but never above the row numbers: a table too big for
            # the frame shrinks its bands' labels along with its numbers.
            return min(max(min_label_font, 0.55 * font), font * LABEL_RATIO)

        def left_labels(font: float) -> float:
            # Row numbers; a thin band's label may run over them, not into the chips' lane.
            row_label_w = char_advance(font * LABEL_RATIO) * row_chars
            if not compact:
                return row_label_w
            overflow = char_advance(gap_font(font)) * gap_chars - per_font_w * font
            return max(row_label_w, overflow - 0.2)

        def across(font: float) -> float:
            rest = font * (3 * per_font_w + label_per_font * label_chars)
            return fixed + left_labels(font) + rest

        def down(font: float, pitch: float) -> float:
            cell = digit_height(font) * pitch
            band = gap_band_height(gap_font(font)) if compact else cell * GAP_ROW_PITCH
            grid = len(window.rows) * cell + len(window.row_gaps) * band
            return 0.75 * cell + max(grid, len(positions) * cell)

        def fits(font: float, pitch: float) -> bool:
            return across(font) <= frame.right - frame.left and down(font, pitch) <= region

        readable = font_for_px(MIN_NUMBER_PX) * 1.005

        def fit_at(pitch: float) -> float:
            return fit_font(lambda f: fits(f, pitch), largest=MAX_NUMBER_FONT, precision=1e-3)

        choices = [(fit_at(p), p) for p in _PITCHES]
        font, pitch = next(((f, p) for f, p in choices if f >= readable), max(choices))
        if pitch == _PITCHES[0]:
            # Room to spare below: taller cells fill it.
            pitch = fit_font(
                lambda p: fits(font, p), largest=_MAX_PITCH, smallest=pitch, precision=0.01
            )
        metrics = grid_metrics_at(
            font, value_chars, pitch, gap_label_font=gap_font(font) if compact else None
        )
        self.metrics = metrics
        panel = GridPanel.from_board(self.scene, board, cells, metrics, theme)
        assert panel.grid is not None
        body_w = panel.grid.width_of_body
        corridor_w = body_w + 2 * CORRIDOR_MARGIN
        slack = max(0.0, frame.right - frame.left - across(font))
        body_left = frame.left + slack / 2 + lane + left_labels(font) + 0.2
        body_top = heading_y - _HEADING_GAP - metrics.cell_height * 0.75
        panel.place(body_left, body_top, heading_y=heading_y)
        self._set_part("grid_panel", panel)
        self.row_copy.grid_panel = panel
        self.route_x = body_left + body_w + CORRIDOR_MARGIN

        out = self.output_panel
        out.output = None
        out_left = body_left + body_w + corridor_w
        if positions:
            out.output = OutputBlock(
                positions,
                window,
                list(cells.values()),
                metrics,
                theme,
                board.value_scale,
                labels_right=True,
            )
            out.output.shift(xyz(out_left, body_top) - out.output.body.get_corner(UP + LEFT))
            out.title = SansText(self.word("output"), HEADING_FONT, theme.output)
            out.title.move_to(xyz(0, heading_y)).align_to(out.output.body, LEFT)
            self._build_tags(positions)
            # A grid narrower than its title: the title gives way before the output's.
            assert panel.title is not None
            room = out.title.get_left()[0] - 2 * SPACE - panel.title.get_left()[0]
            if panel.title.width > room:
                left = panel.title.get_left()[0]
                panel.title.scale_to_fit_width(room).align_to(xyz(left, 0), LEFT)

        # The column a walking chip comes down, left of the row numbers.
        clear_left = body_left - 0.18 - panel.grid.label_width - 0.12
        chip_lane.arrange(
            chips_top,
            frame.left,
            frame.right,
            lanes,
            align_left=out_left,
            clear_left=clear_left,
        )
        if board.printed is not None:
            self._layout_print_below(board)

    def _build_tags(self, positions: list[tuple[int, ...]], font: float | None = None) -> None:
        """Build each output row's provenance: its ID in the chip colour, piece, equality."""
        font = self.metrics.font_size * LABEL_RATIO if font is None else font
        self.output_panel.build_tags(positions, self.cells, font, self.pieces)

    def _layout_print_below(self, board: Storyboard) -> None:
        """Put the call and its print under the grid, clear of the legend's row.

        The font is the largest (:func:`fit_font`, up to 22) at which the
        print's widest line fits across the frame and its last line (with the
        outline the ``grad_fn`` beat draws) stays above the legend.
        """
        assert board.printed is not None
        frame = frame_regions()
        panel = self.grid_panel
        lowest = [m.get_bottom()[1] for m in (panel.grid, panel.dtype_note) if m is not None]
        top = min(lowest) - 2 * SPACE
        floor = frame.legend_top + SPACE
        width = max(len(t) for t in board.printed.split("\n"))
        probe_font = 20.0
        probe = PrintPanel.from_board(self.scene, board, self.theme, probe_font)
        assert probe.code is not None
        assert probe.printed is not None
        # Heights grow with the font; the buff between the call and the print does not.
        per_font = (probe.code.height + probe.printed.height) / probe_font

        def fits(font: float) -> bool:
            across = char_advance(font) * (width + 1) <= frame.right - frame.left
            return across and top - per_font * font - _PRINT_BUFF - 0.1 >= floor

        font = fit_font(fits, largest=22.0, smallest=NOTE_FONT)
        printed = PrintPanel.from_board(self.scene, board, self.theme, font)
        assert printed.code is not None
        printed.place(frame.left, top - printed.code.height / 2, buff=_PRINT_BUFF)
        self._set_part("print_panel", printed)

    def _layout_print(self, board: Storyboard, final: Beat) -> None:
        assert board.printed is not None
        width = max(len(t) for t in board.printed.split("\n"))
        per_unit = char_advance(1.0)
        grid_left = frame_regions().left + _COLUMN_INSET
        font_size = min(22.0, (_GRID_RIGHT - grid_left + 7.0) / (per_unit * (width + 1)))
        panel = PrintPanel.from_board(self.scene, board, self.theme, font_size)
        panel.place(grid_left, -1.55)
        self._set_part("print_panel", panel)

    # -- beat handlers (aliases of the parts' ones, for subclasses) -------------
    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the grid and the input chips."""
        parts = [
            self.title,
            self.grid,
            self.grid_title,
            *self.chips,
            self.chips_label,
            *([self.legend] if self.legend is not None else []),
            *([self.dtype_note] if self.dtype_note is not None else []),
        ]
        return make_reveal_animation(parts)

    def beat_count_rows(self, beat: Beat) -> Animation:
        """Pulse the row numbers up to the highlighted row (the grid panel's beat)."""
        return self.grid_panel.beat_count_rows(beat)

    def beat_dim(self, beat: Beat) -> Animation:
        """Dim the rows no ID selected (the grid panel's beat)."""
        return self.grid_panel.beat_dim(beat)

    def beat_predict(self, beat: Beat) -> Animation:
        """Ask for the output shape before revealing it (the output panel's beat).

        With three phrases ("4 token IDs go in, ...", "... how many rows ...,"
        "and how many values ...?") the input chips are circled first, then
        the output panel asks, one axis per phrase.
        """
        asked = self.output_panel.beat_predict(beat)
        if len(beat.phrases) < 3 or not self.chips:
            return asked
        inputs = Circumscribe(VGroup(*self.chips), color=self.theme.highlight, buff=0.08)
        return Steps(inputs, asked)

    def beat_reveal(self, beat: Beat) -> Animation:
        """Reveal the output block (the output panel's beat)."""
        return self.output_panel.beat_reveal(beat)

    def beat_shape(self, beat: Beat) -> Animation:
        """Label the output's shape (the output panel's beat)."""
        return self.output_panel.beat_shape(beat)

    def beat_print(self, beat: Beat) -> Animation:
        """Show the PyTorch call and its print (the print panel's beat)."""
        return self.print_panel.beat_print(beat)

    def beat_grad_fn(self, beat: Beat) -> Animation:
        """Point at the grad_fn label (the print panel's beat)."""
        return self.print_panel.beat_grad_fn(beat)

    def beat_lookup(self, beat: Beat) -> Animation:
        """Walk a chip to its row and copy the row out (the row copy's beat)."""
        return self.row_copy.beat_lookup(beat)

    def _output_cells(self, position: tuple[int, ...]) -> list[NumberText]:
        return self.output_panel.output_cells(position, self.cells)

    def copy_route(self, row: int, targets: list[NumberText]) -> list[np.ndarray]:
        """Waypoints for a copied row (see :meth:`RowCopy.copy_route`)."""
        return self.row_copy.copy_route(row, targets)
