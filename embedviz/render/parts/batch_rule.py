"""BatchLookup: the lookup's rule on a card under short slices, the legend still beside them.

At GPT-2's size (``4821,0,50256,17;33000,2,4821,0``) the slices stand raised
over E's source rows (their strips' clear paths set that), and the legend
under them, which kept the frame's corner there full, stood where strips
pass: it faded out and back in three lookup beats (33.7-40.5, 54.1-55.6 and
60.3-66.4 s), and a 720p review (issue 18) saw the key to the value colours
blink. Every height under the slices, from E to the tags, is crossed by some
strip; the places no strip crosses (the column under the slices' edges, the
title band) left 18.0-21.6 % of the frame empty under the short slices.

Where the legend under the slices would give way so, it stands upright in
the column under the edges, right of the tags, where no strip or chip goes:
still and visible from the intro to the end. The room under the slices takes
the rule the lookups play, ``out[b, t] = E[ids[b, t]]`` (the story's
:data:`~embedviz.story.scenes.batch.RULE`), set in the one maths voice at a
label's size on a neutral card, at the height crossed by the fewest beats'
strips that keeps the frame full (its largest empty area at most
:data:`~embedviz.render.space.EMPTY_SHARE`); in those beats the card
gives way as the legend did (:func:`~embedviz.render.batch_legend.give_way`).

Whether the card is drawn stays a layout question, decided here and not
recorded in the storyboard (whose labels are all drawn): the same 2 x 4 IDs
draw it with a vocabulary of 100 or 50,257 and not of 1,000, and GPT-2's 2 x 3
batch, the toy default and two of the scene's examples not at all (the
strips, the upright legend's column and the frame's emptiness decide,
measured in the solved plan), so no count the story holds predicts it. Its
text is the story's, so the two never differ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from manim import VGroup, VMobject, config

from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import APART, MARGIN, SPACE, Theme
from embedviz.render.metrics import digit_height, xyz
from embedviz.render.parts.batch_spread import STEPS
from embedviz.render.parts.legend import Legend
from embedviz.render.parts.rule_card import rule_card
from embedviz.render.space import EMPTY_SHARE, largest_empty_rectangle
from embedviz.render.stage import Component, StageHost
from embedviz.story.scenes.batch import RULE

if TYPE_CHECKING:
    from embedviz.render.stages.batch import BatchStage

__all__ = ["BatchRule", "rule_card", "stand_rule"]


class BatchRule(Component):
    """The rule's card under the slices: shown with the intro, standing to the end.

    Parameters
    ----------
    host
        The scene.
    theme
        Colours.
    card
        The card, in its place (:func:`rule_card`).
    """

    def __init__(self, host: StageHost, theme: Theme, card: VGroup) -> None:
        super().__init__(host, theme)
        self.card = card

    def intro(self) -> list[VMobject]:
        """Return the card."""
        return [self.card]


def _upright(stage: BatchStage) -> Legend | None:
    """Return the legend upright in the column under the slices' edges, right of the tags.

    Its top stands under the room the notes take (the marks at the table
    digits' size, under the slices), so that they never move it. None where
    it is wider than the column or too short to read.
    """
    plan, stack = stage.plan, stage.stack
    width = stage.chips.chips[0].width
    left = plan.tag_x(width) + width / 2 + 2 * SPACE
    right = float(config.frame_width) / 2 - MARGIN
    under = min(float(m.get_bottom()[1]) for m in (*stack.slices, stack.edge_b))
    marks = sum(1 for c in stage.board.beats[-1].numbers if c.kind == "equal_to")
    top = under - SPACE - marks * digit_height(plan.scale.data) * 1.6 - APART
    bottom = content_band(stage.title)[1] + SPACE
    font = plan.scale.legend
    length = top - bottom - digit_height(font) * 1.6 - SPACE
    if length < 4 * digit_height(font) * 1.3:
        return None
    cells = [stage.cells[key] for key in sorted(stage.cells) if key[0] == "legend"]
    legend = Legend(cells, font, stage.theme, stage.board.word("value_colour"), True, length)
    if float(legend.width) > right - left:
        return None
    return legend.move_to(xyz((left + right) / 2, (top + bottom) / 2))


def _lookup_rows(stage: BatchStage) -> list[set[int]]:
    """Return, per lookup beat, the rows of E its strips leave from."""
    from embedviz.render.batch_legend import _rows

    filled: list[Any] = []
    found = []
    for beat in stage.board.beats:
        if beat.action in ("lookup", "lookup_many") and beat.output is not None:
            found.append(_rows(stage, filled, beat))
            filled += [p for p in beat.output.filled if p not in filled]
    return found


def _card_place(stage: BatchStage, card: VGroup, legend: Legend) -> tuple[float, float] | None:
    """Return the card's centre under the slices: the fewest beats crossing it, then the fullest.

    Heights from the caption's band up to APART under the stack, in
    twentieths (:data:`~embedviz.render.parts.batch_spread.STEPS`, as E's
    rise), centred under the slices; only where the largest empty area once
    the slices show, with the card and the upright legend, is at most
    :data:`EMPTY_SHARE` of the frame. None where none is.
    """
    from embedviz.render.batch_legend import _crossed

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
        crossed = sum(1 for r in rows if _crossed(stage, r, card))
        empty = largest_empty_rectangle([*boxes, *mobject_boxes([card])], band).area
        if empty <= EMPTY_SHARE * frame and (best is None or (empty, crossed) < best[:2]):
            best = (float(empty), crossed, y)
    return None if best is None else (x, best[2])


def stand_rule(stage: BatchStage) -> bool:
    """Stand the legend upright beside the tags and the rule under the slices, where it helps.

    Only where a legend under the slices would give way to some beat's
    strips (:func:`~embedviz.render.batch_legend._crossed`), the upright
    legend fits the column under the edges and a place for the card keeps
    the frame full. Return whether they moved.
    """
    from embedviz.render.batch_legend import _crossed

    legend = stage.matrix.legend
    if legend is None or not any(_crossed(stage, rows, legend) for rows in _lookup_rows(stage)):
        return False
    upright = _upright(stage)
    if upright is None:
        return False
    card = rule_card(RULE, stage.theme, stage.plan.scale.label)
    place = _card_place(stage, card, upright)
    if place is None:
        return False
    card.move_to(xyz(*place))
    stage.matrix.legend = upright
    stage.rule = stage.add_part(BatchRule(stage.scene, stage.theme, card))
    return True
