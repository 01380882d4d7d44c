"""BatchLookup: the rule's card in the room under GPT-2's short slices, giving way to strips.

Where the legend stands upright beside the tags (GPT-2's short slices,
``4821,0,50256,17;33000,2,4821,0`` and ``4821,33000,4821,17;33000,2,50256,0``:
:func:`~embedviz.render.parts.batch_rule.stand_legend_upright`), the card
stands in the room under the slices, as at 76227a2, set as a headline: at the
labels' largest size, the data's (it stood at 14.9 px there, the data at
18.7 px, in a room that read mostly dark). Every height there is crossed by
some strip, so it fades out as the beats whose strips cross it begin and back
as they end (:func:`~embedviz.render.batch_legend.give_way`), and until the
reveal the output's panel reaches down over that room (:func:`room_opening`).
In a corner instead (f8fb225) it left 18.3 % of the frame empty there at
nearly every beat's end. Elsewhere the card stands in a top corner
(:mod:`embedviz.render.parts.batch_rule`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from manim import LEFT, UP, VGroup, config

from embedviz.render.batch_legend import crosses, lookup_rows
from embedviz.render.batch_opening import Opening
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import APART, SPACE
from embedviz.render.metrics import xyz
from embedviz.render.parts.batch_rule import BatchRule
from embedviz.render.parts.batch_spread import STEPS
from embedviz.render.parts.legend import Legend
from embedviz.render.parts.rule_card import rule_card
from embedviz.render.space import EMPTY_SHARE, largest_empty_rectangle

if TYPE_CHECKING:
    from embedviz.render.stages.batch import BatchStage

__all__ = ["room_opening", "room_place", "room_rule"]

# The card's sizes tried, from the headline's (the data's) down to the labels': this many steps.
_SIZES = 12


def room_rule(stage: BatchStage) -> BatchRule | None:
    """Return the rule's card in the room under short slices, where the legend stood upright.

    At GPT-2's size (``4821,0,50256,17;33000,2,4821,0``) a card in the
    corner left that room empty at nearly every beat's end (18.3 % of the
    frame): the slices cannot take it, as some strip crosses every height
    there. The card stands in it, as at 76227a2, at the height crossed by
    the fewest beats' strips that keeps the frame full (:func:`room_place`),
    and gives way to those strips
    (:func:`~embedviz.render.batch_legend.give_way`). It takes the largest
    size from the headline's (the labels' largest: the data's, as the type
    scale data >= labels >= legend allows a headline formula) down to the
    labels' at which some height keeps the frame full. None where the story
    records no rule, the legend did not stand upright, or no height keeps
    the frame full (then the corner: :func:`~embedviz.render.parts.batch_rule.place_rule`).
    """
    shown = [beat for beat in stage.board.beats if "rule" in beat.labels]
    legend = stage.matrix.legend
    if not shown or not stage.upright or legend is None:
        return None
    scale = stage.plan.scale
    # From the headline's size (the labels' largest: the data's) down to the labels'.
    for k in range(_SIZES + 1):
        font = scale.data - (scale.data - scale.label) * k / _SIZES
        card = rule_card(shown[0].label("rule"), stage.theme, font)
        place = room_place(stage, card, legend)
        if place is not None:
            card.move_to(xyz(*place))
            return BatchRule(stage.scene, stage.theme, card, shown[0].name, room=True)
    return None


def _lookup_rows(stage: BatchStage) -> list[set[int]]:
    """Return, per lookup beat, the rows of E its strips leave from."""
    filled: list[Any] = []
    found = []
    for beat in stage.board.beats:
        if beat.action in ("lookup", "lookup_many") and beat.output is not None:
            found.append(lookup_rows(stage, filled, beat))
            filled += [p for p in beat.output.filled if p not in filled]
    return found


def room_place(stage: BatchStage, card: VGroup, legend: Legend) -> tuple[float, float] | None:
    """Return the card's centre under the slices: the fullest frame, then the fewest crossings.

    Heights from the caption's band up to APART under the stack, in
    twentieths (:data:`~embedviz.render.parts.batch_spread.STEPS`, as E's
    rise), centred under the slices; only where the largest empty area once
    the slices show, with the card and the upright ``legend``, is at most
    :data:`~embedviz.render.space.EMPTY_SHARE` of the frame. None where none is.
    """
    stack, matrix, chips = stage.stack, stage.matrix, stage.chips
    shown = [m for m in (matrix.grid, matrix.heading, matrix.note) if m is not None]
    shown += [chips.slots, *chips.chips, chips.batch_label, chips.length_label]
    shown += [*stack.slices, *stack.headers, *stack.row_numbers, legend]
    shown += [stack.edge_d, stack.edge_t, stack.edge_b]
    boxes, band = mobject_boxes(shown), content_band(stage.title)
    frame = float(config.frame_width * config.frame_height)
    x = sum(float(grid.body.get_center()[0]) for grid in stack.slices) / len(stack.slices)
    half = float(card.height) / 2
    low = band[1] + SPACE + half
    high = min(float(grid.get_bottom()[1]) for grid in stack.slices) - APART - half
    rows = _lookup_rows(stage)
    best: tuple[float, int, float] | None = None
    for step in range(STEPS + 1):
        y = low + (high - low) * step / STEPS
        card.move_to(xyz(x, y))
        crossed = sum(1 for r in rows if crosses(stage, r, card))
        empty = largest_empty_rectangle([*boxes, *mobject_boxes([card])], band).area
        if empty <= EMPTY_SHARE * frame and (best is None or (empty, crossed) < best[:2]):
            best = (float(empty), crossed, y)
    return None if best is None else (x, best[2])


def room_opening(stage: BatchStage) -> Opening:
    """Return the opening with the output's panel reaching down over the card's room.

    Until the reveal the storyboard records no rule, so the card is not
    drawn there yet, and GPT-2's room under the panel stood empty (18.3 %
    of the frame at the ends of ``intro``, ``batch`` and ``predict``). The
    panel, which holds the output's place until the slices come, reaches
    down to the card's bottom, as wide as it stands; the reveal brings it
    back home as it splits into the slices
    (:func:`~embedviz.render.batch_opening.reveal`). The opening as it
    stands where the card is not in the room or the panel already leaves
    its home.
    """
    rule, opening, panel = stage.rule, stage.opening, stage.stack.placeholder
    if rule is None or not rule.room or opening.panel_home is not None:
        return opening
    home = panel.points.copy()
    top, bottom = float(panel.get_top()[1]), float(rule.card.get_bottom()[1])
    left, right = float(panel.get_left()[0]), float(panel.get_right()[0])
    # Left of the upright legend, which stands beside the tags under the edges.
    legend = stage.matrix.legend
    if legend is not None and float(legend.get_top()[1]) > bottom:
        right = min(right, float(legend.get_left()[0]) - SPACE)
    panel.stretch_to_fit_height(top - bottom).stretch_to_fit_width(right - left)
    panel.align_to(xyz(left, top), UP + LEFT)
    return Opening(opening.places, home)
