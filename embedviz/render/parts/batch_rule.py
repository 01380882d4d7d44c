"""BatchLookup: the lookup's rule on a card, under GPT-2's short slices or in a top corner.

The storyboard records the rule ``out[b, t] = E[ids[b, t]]`` (the label
``rule``, the story's :data:`~embedviz.story.scenes.batch.RULE`) from the
reveal on, for every batch: the reveal's narration says it in words (slice
b holds sequence b, its row t the vector of the ID at position t), and a
description reads the card. The card stands in one place from then to the
end, whole at every beat's end.

Where the legend stands upright beside the tags (GPT-2's short slices,
``4821,0,50256,17;33000,2,4821,0`` and ``4821,33000,4821,17;33000,2,50256,0``),
the card stands in the room under the slices (:func:`room_rule`), as at
76227a2: every height there is crossed by some strip, so it fades out as the
beats whose strips cross it begin and back as they end
(:func:`~embedviz.render.batch_legend.give_way`), and until the reveal the
output's panel reaches down over that room (:func:`room_opening`). In a
corner instead (f8fb225) it left 18.3 % of the frame empty there at nearly
every beat's end.

Elsewhere the top left corner, under the title and left of the block of
chips, exists in every batch layout: the chips walk from their block down to
E and the strips go from E right to the slices, so nothing that moves goes
there, and the card never fades. It takes the highest place there clear of
everything drawn, at the labels' size where it fits, smaller where it must,
never under the labels' floor; where the block's labels and the marks fill
the left (four sequences of two IDs), the top right corner
(:func:`corner_place`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from manim import LEFT, UP, Animation, AnimationGroup, VGroup, config

from embedviz.render.animations import Steps, beat_steps
from embedviz.render.batch_legend import crosses, legend_crossed, lookup_rows
from embedviz.render.batch_opening import Opening
from embedviz.render.batch_plan import MARK_LINE
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import APART, MARGIN, SPACE, Theme
from embedviz.render.fades import FadeIn
from embedviz.render.metrics import digit_height, text_width, xyz
from embedviz.render.parts.batch_spread import STEPS
from embedviz.render.parts.legend import Legend
from embedviz.render.parts.rule_card import rule_card
from embedviz.render.space import EMPTY_SHARE, Box, largest_empty_rectangle
from embedviz.render.stage import Component, StageHost
from embedviz.render.type_units import font_for_px
from embedviz.story.model import Beat

if TYPE_CHECKING:
    from embedviz.render.stages.batch import BatchStage

__all__ = [
    "BatchRule",
    "corner_place",
    "place_rule",
    "room_opening",
    "room_rule",
    "rule_card",
    "stand_legend_upright",
]

# The card's heights tried, from the highest down: in steps of this share of SPACE.
_STEP = 0.5
# The card's sizes tried, from the labels' size down to their floor: in this many steps.
_SIZES = 12
# The card's frame (its stroke and round corners outside its points) keeps inside the margin.
_INSET = MARGIN + SPACE / 2


class BatchRule(Component):
    """The rule's card: it comes with the reveal's last step and stands to the end.

    Parameters
    ----------
    host
        The scene.
    theme
        Colours.
    card
        The card, in its place (:func:`corner_place`).
    first
        The name of the first beat that records the rule (the reveal).
    room
        Whether it stands in the room under short slices (:func:`room_rule`),
        where it gives way to the strips that cross it, rather than in a corner.
    """

    def __init__(
        self, host: StageHost, theme: Theme, card: VGroup, first: str, room: bool = False
    ) -> None:
        super().__init__(host, theme)
        self.card, self.first, self.room = card, first, room

    def wrap(self, beat: Beat, animation: Animation) -> Animation:
        """Return the beat's animation, the card fading in with one of its steps where it comes.

        In a corner, with its last step; in GPT-2's room, in the first tenth
        of its first, as the output's panel draws back home off the room
        (:func:`room_opening`): later, the room stood empty while the panel
        drew back (18.3 % of the frame).
        """
        if beat.name != self.first:
            return animation
        steps = list(beat_steps(animation))
        k = 0 if self.room else -1
        quick = {"rate_func": _early} if self.room else {}
        steps[k] = AnimationGroup(steps[k], FadeIn(self.card, run_time=steps[k].run_time, **quick))
        return Steps(*steps)


def _early(t: float) -> float:
    """Run a fade in the first tenth of its step."""
    return min(1.0, 10.0 * t)


def _in_motion(stage: BatchStage) -> list[Box]:
    """Return the boxes what moves passes through, and what stands drawn at any time.

    The chips walk down from their block to E's rows (and ride back with
    their strips, right of E); the strips go from E to the slices; E rises
    into the block's place once every row is in.
    """
    matrix, chips, stack = stage.matrix, stage.chips, stage.stack
    drawn = [stage.title, chips.slots, *chips.chips, chips.batch_label, chips.length_label]
    drawn += [m for m in (matrix.grid, matrix.heading, matrix.note, matrix.legend) if m]
    drawn += [*stack.slices, *stack.headers, *stack.row_numbers]
    drawn += [stack.edge_d, stack.edge_t, stack.edge_b]
    boxes = list(mobject_boxes(drawn))
    e_left, e_bottom, e_right, e_top = _bounds(mobject_boxes([matrix.grid]))
    block = _bounds(mobject_boxes([chips.slots, *chips.chips]))
    width = float(chips.chips[0].width)
    # The chips' walk, from their block down to E's rows and right of E to the tags.
    slices = _bounds(mobject_boxes(stack.slices))
    boxes.append((block[0] - SPACE, e_bottom, max(e_right, slices[2]) + width + SPACE, block[3]))
    # E risen into the block's place (its heading and note with it).
    risen = [m for m in (matrix.grid, matrix.heading, matrix.note) if m is not None]
    boxes += [(b[0], b[1], b[2], b[3] + max(0.0, stage.rise)) for b in mobject_boxes(risen)]
    # The strips: from E's rows right and up or down to the slices.
    boxes.append((e_left, e_bottom, e_right + width, e_top))
    boxes.append((min(e_right, slices[0]), e_bottom, slices[2] + width, slices[3]))
    # The output's shape, written last from the notes' place (SliceStack.beat_shape): at
    # the top of the column right of the edges, it once ran under a card in the top right.
    top = stack._notes_place()
    if stack.marks_box is None and stack._beside():
        top = xyz(top[0], float(stack.headers[0].get_top()[1]))
    line = digit_height(stage.plan.scale.data) * MARK_LINE
    boxes.append((float(top[0]), float(top[1]) - line, float(config.frame_width), float(top[1])))
    return boxes


def _bounds(boxes: list[Box]) -> Box:
    """Return the box round all of ``boxes``."""
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _clear(box: Box, boxes: list[Box]) -> bool:
    """Whether ``box``, a SPACE round it, touches none of ``boxes``."""
    left, bottom, right, top = box[0] - SPACE, box[1] - SPACE, box[2] + SPACE, box[3] + SPACE
    return not any(left < b[2] and b[0] < right and bottom < b[3] and b[1] < top for b in boxes)


def corner_place(
    stage: BatchStage, card: VGroup, more: list[Box]
) -> tuple[float, tuple[float, float]]:
    """Return the card's scale and its top left corner: in the frame's top left corner, or right.

    The largest scale from 1 (the labels' size) down to the labels' floor
    (:attr:`~embedviz.render.design.TypeScale.text_px`) at which some height
    from the title's band down to E's top keeps the card, its left edge at
    the frame's left margin, clear of everything drawn and of every way a
    chip or strip goes (:func:`_in_motion`), at the highest such height;
    else the same with its right edge at the right margin (four sequences
    of two IDs: the block's labels and the marks fill the left, 61 px wide
    beside the T edge's name); else at the floor, top left. ``more``: other
    boxes to keep clear of (the marks'). Measure it with E and the block of
    chips home, where they stand from the reveal on (until then they may
    stand larger or further left: batch_opening.py).
    """
    band = content_band(stage.title)
    boxes = [*_in_motion(stage), *more]
    width, height = float(card.width), float(card.height)
    floor = min(1.0, font_for_px(stage.plan.scale.text_px) * 1.001 / stage.plan.scale.label)
    # Over E: a top corner (under E, the bottom left, is no place a glance looks for it).
    lowest = max(band[1], float(stage.matrix.grid.get_top()[1]) + SPACE)
    tops = []
    top = band[3] - SPACE
    while top - height * floor >= band[1]:
        tops.append(top)
        top -= SPACE * _STEP
    for k in range(_SIZES + 1):
        scale = 1.0 - (1.0 - floor) * k / _SIZES
        for right in (False, True):
            left = band[2] - _INSET - width * scale if right else band[0] + _INSET
            for top in tops:
                box = (left, top - height * scale, left + width * scale, top)
                # The right margin's column, right of the slices, may hold it lower.
                if box[1] >= (band[1] if right else lowest) and _clear(box, boxes):
                    return scale, (left, top)
    return floor, (band[0] + _INSET, band[3] - SPACE)


def stand_legend_upright(stage: BatchStage) -> bool:
    """Stand the legend upright beside the tags where, under the slices, strips would cross it.

    At GPT-2's size (``4821,0,50256,17;33000,2,4821,0``) every height under
    the short slices is crossed by some strip: a legend there faded out of
    their way in three lookup beats (issue 18: a teacher saw the key blink).
    It stands upright in the column under the slices' edges, right of the
    tags, where no strip or chip goes, where it fits. Return whether it moved.
    """
    legend = stage.matrix.legend
    if legend is None or not legend_crossed(stage, legend):
        return False
    upright = _upright(stage)
    if upright is None or not _clear(_bounds(mobject_boxes([upright])), _notes(stage)):
        return False
    stage.matrix.legend = upright
    return True


def _notes(stage: BatchStage) -> list[Box]:
    """Return where the marks stand in the notes, from the notes' place (their letters first).

    At GPT-2's size with the default IDs (``2,3,5,1;4,0,3,2``) they ran into
    a legend upright beside the tags.
    """
    marks = stage._marks()
    if not marks:
        return []
    font, plan = stage.stack.mark_font, stage.plan
    line = digit_height(font) * MARK_LINE
    width = max(text_width(c.text, font) for c in marks) + 2 * line
    top = plan.marks_top + stage.stack.notes_drop
    return [(plan.marks_left, top - len(marks) * line, plan.marks_left + width, top)]


def place_rule(stage: BatchStage) -> BatchRule | None:
    """Return the rule's card in a top corner, or None where the story records none."""
    shown = [beat for beat in stage.board.beats if "rule" in beat.labels]
    if not shown:
        return None
    card = rule_card(shown[0].label("rule"), stage.theme, stage.plan.scale.label)
    _place(stage, card)
    return BatchRule(stage.scene, stage.theme, card, shown[0].name)


def room_rule(stage: BatchStage) -> BatchRule | None:
    """Return the rule's card in the room under short slices, where the legend stood upright.

    At GPT-2's size (``4821,0,50256,17;33000,2,4821,0``) a card in the
    corner left that room empty at nearly every beat's end (18.3 % of the
    frame): the slices cannot take it, as some strip crosses every height
    there. The card stands in it, as at 76227a2, at the height crossed by
    the fewest beats' strips that keeps the frame full (:func:`room_place`),
    and gives way to those strips
    (:func:`~embedviz.render.batch_legend.give_way`). None where the story
    records no rule, the legend did not stand upright, or no height keeps
    the frame full (then the corner: :func:`place_rule`).
    """
    shown = [beat for beat in stage.board.beats if "rule" in beat.labels]
    legend = stage.matrix.legend
    if not shown or not stage.upright or legend is None:
        return None
    card = rule_card(shown[0].label("rule"), stage.theme, stage.plan.scale.label)
    place = room_place(stage, card, legend)
    if place is None:
        return None
    card.move_to(xyz(*place))
    return BatchRule(stage.scene, stage.theme, card, shown[0].name, room=True)


def _marks_room(stage: BatchStage, low: bool) -> Box | None:
    """Return where the marks (``out[1,2] = out[0,0]``) stand in the block's room over E.

    They stand centred in it (``marks_box``), or ``low`` at its bottom; None
    where they stand elsewhere.
    """
    box = stage.stack.marks_box
    if box is None or stage.stack.marks_under is not None:
        return None
    left, right, bottom, top = box
    marks = stage._marks()
    height = len(marks) * digit_height(stage.stack.mark_font) * MARK_LINE
    middle = bottom + height / 2 if low else (bottom + top) / 2
    return (left, middle - height / 2 - SPACE, right, middle + height / 2 + SPACE)


def _place(stage: BatchStage, card: VGroup) -> None:
    """Stand the card in the corner; where it would meet the marks, they stand low in their room.

    The marks are centred in the block's room over E once every chip has
    gone: four sequences of two IDs wrote them over the card.
    """
    natural = (float(card.width), float(card.height))
    for low in (False, True):
        marks = _marks_room(stage, low)
        with stage.block_rest.building({}):
            scale, (left, top) = corner_place(stage, card, [] if marks is None else [marks])
        box = (left, top - natural[1] * scale, left + natural[0] * scale, top)
        if marks is None or _clear(box, [marks]):
            break
    if low and stage.stack.marks_box is not None and marks is not None:
        left_m, right_m, bottom, _ = stage.stack.marks_box
        stage.stack.marks_box = (left_m, right_m, bottom, marks[3] - SPACE)
    card.scale(scale)
    card.move_to(xyz(left + float(card.width) / 2, top - float(card.height) / 2))


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
