"""The batch's opening: E and its input block drawn large while the output is only a question.

Until ``reveal`` the output is one panel asking "output shape?". Solved for
the whole lookup, E and the block of chips took the left of the frame at the
lookups' size and the panel the right half (issue 18's review of the default
6 x 3 table: "E is drawn as small as the 50257 x 768 excerpt, and the
'output shape?' box is the right half of the frame"). For the first beats
the block and E rest together (:mod:`embedviz.render.rests`) at a larger
scale, as far as the frame's height, the type scale's ceiling and a compact
panel right of them allow; the panel takes only the room its question needs
(as large as keeps every empty area well within an eighth of the frame). At the
reveal they settle home, and the panel grows into the slices.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from manim import Animation, AnimationGroup, Succession, config

from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import APART, MARGIN, SPACE, px_for_font
from embedviz.render.design import MAX_OPENING_DATA_PX as OPENING_PX
from embedviz.render.metrics import xyz
from embedviz.render.rest_fill import EMPTY_SHARE
from embedviz.render.rests import Place, Settle
from embedviz.render.space import largest_empty_rectangle

if TYPE_CHECKING:
    from manim import VMobject

    from embedviz.render.stages.batch import BatchStage
    from embedviz.story.model import Beat

__all__ = ["OPENING_GAIN", "OPENING_PX", "Opening", "opening_members", "plan_opening", "reveal"]

# The least growth worth a settle at the reveal (a smaller one reads as a jitter).
OPENING_GAIN = 1.08
# The largest empty area the opening may leave, as a share of the frame: issue 18's eighth
# with a margin (the moment tests read finer boxes than the stage does).
OPENING_EMPTY = 0.9 * EMPTY_SHARE
# The panel's sizes tried, as shares of the way from its compact size to its column's.
PANEL_STEPS = 8


@dataclass(frozen=True)
class Opening:
    """Where E and the block rest until the reveal, and the panel's home.

    Attributes
    ----------
    places
        The opening piece's place (empty where it stands home throughout).
    panel_home
        The panel's solved points (the output's whole place), where it grows
        back to as E settles home; None where it stays there.
    """

    places: dict[str, Place] = field(default_factory=dict)
    panel_home: np.ndarray | None = None


def opening_members(stage: BatchStage) -> list[VMobject]:
    """Return what rests large in the opening: E (grid, heading, note) and the input block."""
    matrix, chips = stage.matrix, stage.chips
    members: list[VMobject] = [matrix.grid, matrix.heading]
    members += [m for m in (matrix.note,) if m is not None]
    members += [chips.slots, *chips.chips, chips.batch_label, chips.length_label]
    return members


def plan_opening(stage: BatchStage) -> Opening:
    """Return where the opening piece rests until the reveal; none where it would not gain.

    The piece keeps its left edge, centred in the band between the title and
    the caption; its scale is the least of the type scale's ceiling, the
    band's height and the width a compact panel leaves. The panel is sized
    and placed here (its home is no longer needed: the slices replace it).
    Only a table shown whole (no hidden rows or columns) and a block at home
    through the intro rest so.
    """
    stack, rests = stage.stack, stage.block_rest
    window = stage.board.beats[0].window
    if stack.question is None or rests.places or window.row_gaps or window.col_gaps:
        return Opening()
    left, bottom, right, top = rests.box("opening")
    _, band_bottom, _, band_top = content_band(stage.title)
    low, high = band_bottom + SPACE, band_top - SPACE
    edge = float(config.frame_width) / 2 - MARGIN
    panel_w = float(stack.question.width) + 2 * APART
    scale = min(
        OPENING_PX / px_for_font(stage.plan.scale.data),
        (high - low) / (top - bottom),
        (edge - panel_w - APART - left) / (right - left),
    )
    if scale < OPENING_GAIN:
        return Opening()
    place = (scale, left + (right - left) * scale / 2, (low + high) / 2)
    column = (left + (right - left) * scale + APART, edge)
    legend = stage.matrix.legend
    if legend is not None and float(legend.get_left()[0]) < column[1]:
        low = max(low, float(legend.get_top()[1]) + SPACE)
    panel = stack.placeholder
    home = panel.points.copy()
    compact = panel_w * float(panel.height) / float(panel.width)
    rests.put({"opening": place})
    frame = float(config.frame_width * config.frame_height)
    for step in range(PANEL_STEPS + 1):
        share = step / PANEL_STEPS
        wide = panel_w + (column[1] - column[0] - panel_w) * share
        tall = compact + (high - low - compact) * share
        panel.stretch_to_fit_width(wide).stretch_to_fit_height(tall)
        panel.move_to(xyz(sum(column) / 2, (low + high) / 2))
        if _intro_empty(stage) <= OPENING_EMPTY * frame:
            return Opening({"opening": place}, home)
    rests.put({})
    panel.points = home
    return Opening()


def _intro_empty(stage: BatchStage) -> float:
    """Return the largest empty area at the intro's end, as things stand now."""
    shown = [m for m in stage.intro_mobjects() if m is not stage.title]
    boxes = mobject_boxes(shown)
    return float(largest_empty_rectangle(boxes, content_band(stage.title)).area)


def reveal(stage: BatchStage, beat: Beat) -> Animation:
    """Reveal the slices; from the opening, E settles home as the panel grows back first.

    The panel grows into the output's whole place while E and the block
    shrink home beside it (one motion: the frame is never emptier than at
    either end), and the slices then come over it as from the start.
    """
    panel, home = stage.stack.placeholder, stage.opening.panel_home
    settle = stage.block_rest.settle({})
    if home is None:
        return stage.stack.beat_reveal(beat)
    low, high = panel.get_corner(np.array([-1, -1, 0])), panel.get_corner(np.array([1, 1, 0]))
    panel.points = home.copy()
    shown = stage.stack.beat_reveal(beat)  # Splits the panel (at home) into its slices' parts.
    parts = panel.points.copy()
    home_low = panel.get_corner(np.array([-1, -1, 0]))
    home_high = panel.get_corner(np.array([1, 1, 0]))
    # The same parts in the compact panel, where it stands until the growth: the last
    # slice's part fills it, the others lie flat along its top, so that no line between
    # parts crosses the question as the panel grows.
    span = np.where(home_high - home_low == 0, 1.0, home_high - home_low)
    bottom_part = (home_high[1] - home_low[1]) / len(stage.stack.slices)
    span[1] = bottom_part or 1.0
    squeezed = low + (parts - home_low) * (high - low) / span
    squeezed[:, 1] = np.minimum(squeezed[:, 1], high[1])
    panel.points = squeezed
    # (A panel that only reached down over GPT-2's room has no E to settle with it.)
    grow = Settle([(panel, parts)])
    return Succession(grow if settle is None else AnimationGroup(settle, grow), shown)
