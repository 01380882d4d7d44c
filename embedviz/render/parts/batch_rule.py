"""BatchLookup: the lookup's rule on a card, in a top corner (or GPT-2's room: batch_room.py).

The storyboard records the rule ``out[b, t] = E[ids[b, t]]`` (the label
``rule``, the story's :data:`~embedviz.story.scenes.batch.RULE`) from the
reveal on, for every batch: the reveal's narration says it in words (slice
b holds sequence b, its row t the vector of the ID at position t), and a
description reads the card. The card stands in one place from then to the
end, whole at every beat's end.

Where the legend stands upright beside the tags (:func:`stand_legend_upright`:
GPT-2's short slices), the card stands in the room under the slices and gives
way to the strips that cross it (:mod:`embedviz.render.parts.batch_room`).

Elsewhere the top left corner, under the title and left of the block of
chips, exists in every batch layout: the chips walk from their block down to
E and the strips go from E right to the slices, so nothing that moves goes
there, and the card never fades. It takes the highest place there a clear
gap from everything drawn, at the labels' size as SequenceLookup's card, on
one line; where the corner is too narrow for that line (the toy's: 198 px
for 284), it stands under E, its left edge at the margin, where nothing
moves either (issue 18: the toy's corner card broke over two lines at 21
px, or held one line at 13.4 px, under the legend's 16.8); else it is
broken before its "=" onto two lines, else smaller, never under the labels'
floor; where the block's labels and the marks fill the left (four sequences
of two IDs), the top right corner (:func:`corner_place`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from manim import Animation, AnimationGroup, VGroup, config

from embedviz.render.animations import Steps, beat_steps
from embedviz.render.batch_legend import legend_crossed
from embedviz.render.batch_plan import MARK_LINE
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import APART, MARGIN, SPACE, Theme
from embedviz.render.fades import FadeIn
from embedviz.render.metrics import digit_height, text_width, xyz
from embedviz.render.parts.legend import Legend
from embedviz.render.parts.rule_card import card_size, rule_card
from embedviz.render.space import Box
from embedviz.render.stage import Component, StageHost
from embedviz.render.type_units import font_for_px
from embedviz.story.model import Beat

if TYPE_CHECKING:
    from embedviz.render.stages.batch import BatchStage

__all__ = [
    "BatchRule",
    "corner_place",
    "place_rule",
    "rule_card",
    "stand_legend_upright",
]

# The card's heights tried, from the highest down: in steps of this share of SPACE.
_STEP = 0.5
# The card's sizes tried, from the headline's size down to the labels' floor: in this many steps.
_SIZES = 12
# The card's frame (its stroke and round corners outside its points) keeps inside the margin.
_INSET = MARGIN + SPACE / 2
# A corner's card keeps this clear of its neighbours (21.6 px at 720p), where that costs no size.
_GAP = 2 * SPACE


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
        Whether it stands in the room under short slices, where it gives way
        to the strips that cross it, rather than in a corner
        (:func:`~embedviz.render.parts.batch_room.room_rule`).
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
        (:func:`~embedviz.render.parts.batch_room.room_opening`): later, the
        room stood empty while the panel drew back (18.3 % of the frame).
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
    # Where E and the block rest right of their places (3 x 6), they glide back left for
    # the lookups: at the labels' size the card just missed "sequence length" there.
    parted = float(stage.motion.matrix_slide)
    if parted > 0:
        side = [m for m in (matrix.grid, matrix.heading, matrix.note) if m is not None]
        side += [chips.slots, *chips.chips, chips.batch_label, chips.length_label]
        boxes += [(b[0] - parted, b[1], b[2] - parted, b[3]) for b in mobject_boxes(side)]
    e_left, e_bottom, e_right, e_top = _bounds(mobject_boxes([matrix.grid]))
    block = _bounds(mobject_boxes([chips.slots, *chips.chips]))
    width = float(chips.chips[0].width)
    # The chips' walk, from their block down to E's rows and right of E to the tags.
    slices = _bounds(mobject_boxes(stack.slices))
    walk = (block[0] - SPACE - parted, e_bottom, max(e_right, slices[2]) + width + SPACE, block[3])
    boxes.append(walk)
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


def _clear(box: Box, boxes: list[Box], gap: float = SPACE) -> bool:
    """Whether ``box``, ``gap`` round it, touches none of ``boxes``."""
    left, bottom, right, top = box[0] - gap, box[1] - gap, box[2] + gap, box[3] + gap
    return not any(left < b[2] and b[0] < right and bottom < b[3] and b[1] < top for b in boxes)


def corner_place(
    stage: BatchStage, cards: list[VGroup], more: list[Box]
) -> tuple[int, float, tuple[float, float]]:
    """Return which card, its scale and its top left corner: in the top left corner, or right.

    ``cards``: the rule on one line and on two, at the headline's size (the
    labels' largest, the data's). At the labels' size, the one-line card at
    some height from the title's band down to E's top, its left edge at the
    frame's left margin, :data:`_GAP` clear of everything drawn and of every
    way a chip or strip goes (:func:`_in_motion`), at the highest such
    height; else the same a SPACE clear; else under E, a SPACE clear, at the
    highest height; else the two-line card over E; else, a SPACE clear, from
    the labels' size down to their floor
    (:attr:`~embedviz.render.design.TypeScale.text_px`), one line before two
    at each size, in the top left corner, then in the top right one, its
    right edge at the right margin (four sequences of two IDs: the block's
    labels and the marks fill the left, 61 px wide beside the T edge's
    name); else at the floor, top left. ``more``: other boxes to keep clear
    of (the marks'). Measure it with E and the block of chips home, where
    they stand from the reveal on (until then they may stand larger or
    further left: batch_opening.py).
    """
    band = content_band(stage.title)
    boxes = [*_in_motion(stage), *more]
    scale = stage.plan.scale
    floor = min(1.0, font_for_px(scale.text_px) * 1.001 / scale.data)
    label = min(1.0, scale.label / scale.data)
    one, both = [(0, cards[0])], list(enumerate(cards))
    # One line at the labels' size, as SequenceLookup's card: over E, a clear gap round it,
    # then SPACE; else under E (issue 18: the toy's corner held it on two lines at 21 px,
    # or on one at 13.4 px, under the legend's 16.8); only then broken before its "=".
    tries = [(_GAP, one, "over", label), (SPACE, one, "over", label)]
    tries += [(SPACE, one, "under", label), (_GAP, both, "over", label)]
    # Then smaller, over E, then right: with its whole padding (card_size) a light 8 x 2
    # batch's card missed the left at the labels' size and stood right, where the output's
    # shape is written later, over it.
    tries += [(SPACE, both, "over", floor), (SPACE, both, "right", floor)]
    for gap, pairs, side, least in tries:
        found = _corner_search(stage, pairs, boxes, (gap, least, label), side)
        if found is not None:
            return found
    return 0, floor, (band[0] + _INSET, band[3] - SPACE)


def _corner_search(
    stage: BatchStage,
    cards: list[tuple[int, VGroup]],
    boxes: list[Box],
    limits: tuple[float, float, float],
    side: str,
) -> tuple[int, float, tuple[float, float]] | None:
    """Return the largest card in a top corner or under E (:func:`corner_place`), or None.

    ``cards``: each with its index; ``limits``: the gap it keeps clear, its least and
    largest scale (one scale where they are equal); ``side``: ``over`` E (the top left
    corner), ``under`` E (its left edge at the margin) or the top ``right`` corner.
    """
    band = content_band(stage.title)
    gap, least, most = limits
    grid = stage.matrix.grid
    # Over E, at the left; right, in the right margin's column, right of the slices, lower.
    lowest = max(band[1], float(grid.get_top()[1]) + gap) if side == "over" else band[1]
    tops = []
    top = band[3] - SPACE if side != "under" else float(grid.get_bottom()[1]) - gap
    while top >= band[1]:
        tops.append(top)
        top -= SPACE * _STEP
    for k in range(_SIZES + 1 if most > least else 1):
        scale = most - (most - least) * k / _SIZES
        for index, card in cards:
            width, height = card_size(card, scale)
            left = band[2] - _INSET - width if side == "right" else band[0] + _INSET
            for top in tops:
                box = (left, top - height, left + width, top)
                if box[1] >= lowest and _clear(box, boxes, gap):
                    return index, scale, (left, top)
    return None


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
    text = shown[0].label("rule")
    # The rule on one line, and broken before its "=" for a narrow corner (the toy's).
    lines = list(dict.fromkeys([text, text.replace(" = ", " \\ = ", 1)]))
    cards = [rule_card(t, stage.theme, stage.plan.scale.data) for t in lines]
    card = _place(stage, cards, lines)
    return BatchRule(stage.scene, stage.theme, card, shown[0].name)


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


def _place(stage: BatchStage, cards: list[VGroup], lines: list[str]) -> VGroup:
    """Return the card that fits best, in the corner; the marks stand low where they would meet.

    The marks are centred in the block's room over E once every chip has
    gone: four sequences of two IDs wrote them over the card. The card is
    set anew at its scale (``lines``: each card's rule), its padding whole
    (:func:`~embedviz.render.parts.rule_card.card_size`).
    """
    for low in (False, True):
        marks = _marks_room(stage, low)
        with stage.block_rest.building({}):
            index, scale, (left, top) = corner_place(stage, cards, [] if marks is None else [marks])
        width, height = card_size(cards[index], scale)
        if marks is None or _clear((left, top - height, left + width, top), [marks]):
            break
    if low and stage.stack.marks_box is not None and marks is not None:
        left_m, right_m, bottom, _ = stage.stack.marks_box
        stage.stack.marks_box = (left_m, right_m, bottom, marks[3] - SPACE)
    card = rule_card(lines[index], stage.theme, stage.plan.scale.data * scale)
    return card.move_to(xyz(left + float(card.width) / 2, top - float(card.height) / 2))


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
