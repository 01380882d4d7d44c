"""The older shared arrangement: grid on the left, chips and output block on the right.

ZeroBasedIndexing and PositionBlindness still build on it; phase 2 of issue 18
moves them onto :mod:`embedviz.render.solver` and :mod:`embedviz.render.parts`,
and this module goes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from manim import LEFT, RIGHT, UP, VGroup

from embedviz.render.components import ChipLane, GridPanel, OutputPanel
from embedviz.render.glyphs import SansText
from embedviz.render.layout import frame_regions
from embedviz.render.metrics import char_advance, xyz
from embedviz.render.mobjects import GAP_ROW_PITCH, GridMetrics, TokenChip
from embedviz.render.output_block import OutputBlock
from embedviz.render.stage import StageHost
from embedviz.render.theme import Theme
from embedviz.story.model import Storyboard

__all__ = ["ClassicLayout", "classic_layout"]

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
