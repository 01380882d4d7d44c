"""BatchLookup's close: the input and E stay where they stand; the answers come under the slices.

Issue 18's teacher review of GPT-2's batch at 720p saw the input block and
its B and T edges fade at 66.0 s as E rose into their place, and E rise
again at 72.1 s for the equality marks under it: two jumps, and no input on
screen while the marks spoke of repeated IDs. The answer,
``output 2 × 4 × 768``, stood at a label's size under the slices.

Where the stage would have raised E for the marks under it
(:func:`~embedviz.render.batch_under.marks_under` found them a place), it
now keeps E and the block, IDs and edges, where they stand to the end
(:func:`keep_input`): nothing takes the block's place, and E does not move
once the lookups are done. The marks come under the slices instead
(:func:`write_below`) at the table digits' size, each row they name ringed,
and the shape, the stack's label at the labels' size, under the stack at its
right (:func:`shape_below`), clear of every number drawn.

The output stays as the solver sized it: beside E and the block, the stack
already spans from E's right to the frame's margin (its row numbers and its
T and B edges on the right), so it cannot grow by more than a few pixels
without E moving again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from manim import (
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Group,
    LaggedStart,
    Mobject,
    VGroup,
    config,
)

from embedviz.render.animations import Steps
from embedviz.render.batch_close import rise_more
from embedviz.render.batch_plan import MARK_LINE
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import MARGIN, SPACE
from embedviz.render.fades import FadeIn
from embedviz.render.metrics import digit_height, xyz
from embedviz.render.pace import at_least
from embedviz.render.parts.batch_focus import TagRing
from embedviz.render.parts.batch_shape import (
    STEPS,
    clear_of,
    shape_font,
    shape_line,
    under_stack_right,
)
from embedviz.render.parts.glide import Glide, glide_floor
from embedviz.render.parts.mark_under import equal_rings
from embedviz.render.parts.pair_marks import lettered_marks, pair_badges
from embedviz.render.parts.symbols import equality_mark
from embedviz.render.space import Box, largest_empty_rectangle
from embedviz.story.model import Beat

if TYPE_CHECKING:
    from embedviz.render.stages.batch import BatchStage

__all__ = ["keep_input", "repeats", "shape_below", "write_below"]


def keep_input(stage: BatchStage) -> None:
    """Keep E and the input block where they stand to the end, where the storyboard keeps it.

    The storyboard keeps the block's B and T edges (its ``batch_axis`` and
    ``length_axis`` labels) on screen to its last beat for a batch of a few
    sequences (``story.scenes.batch.KEPT_BLOCK``); the screen says what it
    says. E's rises (the stage's and the marks') are then none
    and the marks stand under the slices (:func:`write_below`).
    """
    stack = stage.stack
    stage.keeps_input = "batch_axis" in stage.board.beats[-1].labels
    if not stage.keeps_input:
        return
    stage.rise = stage.under_rise = 0.0
    stack.marks_under = None
    stack.marks_box = stack.marks_ceiling = None


def _under_stack(stage: BatchStage) -> tuple[float, float]:
    """Return the left of the slices' bodies and the bottom of the stack with its edges."""
    stack = stage.stack
    left = min(grid.body_left() for grid in stack.slices)
    parts: list[Mobject] = [*stack.slices, *stack.headers, *stack.row_numbers, stack.edge_b]
    return left, float(Group(*parts).get_bottom()[1])


def write_below(stage: BatchStage, beat: Beat) -> Animation:
    """Write each mark, ``out[1,2] = out[0,0]``, under the slices; ring every row it names.

    At the table digits' size (a label's read as a footnote), one under the
    other from the slices' left edge; a legend there glides out of their way
    (:func:`_legend_way`). Where it finds no room, the marks are smaller, down
    to a label's size (GPT-2's size with the default IDs: its legend as wide
    as the narrow slices).
    """
    stack = stage.stack
    cells = lettered_marks(beat)
    data, label = stack.plan.scale.data, stack.plan.scale.label
    for step in range(STEPS + 1):
        font = data + (label - data) * step / STEPS
        marks = VGroup(*[equality_mark(c, font, stack.theme.wrong) for c in cells])
        fits = _in_columns(stage, marks, font)
        clear, way = _legend_way(stage, marks, font) if fits else (False, None)
        if clear and fits:
            break
    else:
        # No room under the slices nor under E (slices spread down the frame): the marks
        # stand in their solver's place, as before.
        return stack.write_marks(beat)
    stack.notes.add(*marks)
    stage.marks_below = marks
    named = [(stack.slices[b], t) for c in cells for b, t in (c.index, stack._first_copy(c.index))]
    stack.rings = equal_rings(named, stack.theme.wrong)
    # Each mark's letter in the rows' letters' column, left of the slices (where the
    # marks stand under them): the marks keep their place and size.
    badges = pair_badges(stack, beat, list(marks), under=True)
    shown = [FadeIn(m, shift=0.1 * RIGHT) for m in marks]
    rings = FadeIn(VGroup(stack.rings, badges[0]))
    played = AnimationGroup(rings, FadeIn(badges[1]), LaggedStart(*shown, lag_ratio=0.3))
    return played if way is None else AnimationGroup(way, played)


def _in_columns(stage: BatchStage, marks: VGroup, font: float) -> bool:
    """Stand the marks in columns where they run long: under the slices, else under E.

    A column holds as many as fit over the caption, a shape's line (at its
    least size) left under them. Under the slices they must end in the frame's
    margin; under E (two sequences of eight IDs: the stack fills the height),
    left of the slices. Return whether they fit one of the two.
    """
    line = digit_height(font) * MARK_LINE
    shape = digit_height(shape_font(stage.plan.scale)) * MARK_LINE
    floor = content_band(stage.title)[1] + 2 * SPACE + shape
    step = max(float(m.width) for m in marks) + 3 * SPACE
    left, bottom = _under_stack(stage)
    grid = stage.matrix.grid
    e_bottom = float(
        Group(grid, *[m for m in (stage.matrix.note,) if m is not None]).get_bottom()[1]
    )
    places = [
        (left, bottom, float(config.frame_width) / 2 - MARGIN),
        (float(grid.get_left()[0]), e_bottom, left - 2 * SPACE),
    ]
    for x0, top, right in places:
        rows = int((top - SPACE - floor) // line)
        if rows < 1:
            continue
        for number, mark in enumerate(marks):
            x = x0 + (number // rows) * step
            mark.place(xyz(x, top - SPACE - (number % rows + 0.5) * line), "left")
        if float(marks.get_right()[0]) <= right:
            return True
    return False


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _legend_way(stage: BatchStage, marks: VGroup, font: float) -> tuple[bool, Animation | None]:
    """Return whether the legend finds a place clear of the notes, and its glide there (or None).

    The notes' place runs from the slices' left under the stack, over the
    marks (at ``font``) and the shape's line beside them, or under them where
    it does not fit beside; the shape's own place, under the stack at its
    right, is kept clear too (both at the labels' size: :func:`shape_font`).
    Of the legend's places clear of it and of everything drawn (where
    it stands, lowered under the notes, at the frame's right margin level with
    the marks or over the caption), the one that leaves the least empty area
    wins: the legend under GPT-2's slices stood where the notes come; at the
    right margin it left 16.1 % of the frame empty under them.
    """
    legend = stage.matrix.legend
    if legend is None:
        return True, None
    shape = next(b for b in stage.board.beats if b.action == "shape")
    sizes = sorted((c for c in shape.numbers if c.kind == "output_size"), key=lambda c: c.index)
    size = shape_font(stage.plan.scale)
    line = digit_height(size) * MARK_LINE
    written = shape_line(sizes, shape.label("output_title"), xyz(0, 0), size, stage.theme)
    left, top = _under_stack(stage)
    # Its own place first, under the stack at its right (shape_below).
    home = mobject_boxes([under_stack_right(written, _stack_right(stage), top)])[0]
    # The shape's line comes right of the marks where it fits there (shape_below), else under.
    beside = float(marks.get_right()[0]) + 4 * SPACE + float(written.width)
    if beside <= float(config.frame_width) / 2 - MARGIN:
        low = float(marks.get_bottom()[1]) - SPACE
        place = (left - SPACE, low, beside + SPACE, top)
    else:
        width = max(float(marks.width), float(written.width))
        low = float(marks.get_bottom()[1]) - 2 * SPACE - line
        place = (left - SPACE, low, left + width + SPACE, top)
    drawn = [*mobject_boxes(stage.scene.mobjects, leave_out=[legend]), place]
    drawn += [(home[0] - SPACE, home[1] - SPACE, home[2] + SPACE, home[3])]
    band = content_band(stage.title)
    half_w, half_h = float(legend.width) / 2, float(legend.height) / 2
    here = legend.get_center()
    right = float(config.frame_width) / 2 - MARGIN - half_w
    floor = band[1] + SPACE + half_h
    goals = [here, xyz(here[0], low - SPACE - half_h)]
    goals += [xyz(right, float(marks.get_center()[1])), xyz(right, floor)]
    # Upright beside the tags it stands still, under the notes' room (parts/batch_rule.py).
    goals = goals[:1] if stage.upright else goals
    best: tuple[float, np.ndarray] | None = None
    for goal in goals:
        moved = (goal[0] - half_w, goal[1] - half_h, goal[0] + half_w, goal[1] + half_h)
        if moved[1] < band[1] or any(_overlaps(moved, box) for box in drawn):
            continue
        empty = largest_empty_rectangle([*drawn, moved], band).area
        if best is None or empty < best[0] - 1e-9:
            best = (empty, goal)
    if best is None:
        return False, None
    shift = best[1] - here
    if float(np.hypot(shift[0], shift[1])) < 1e-6:
        return True, None
    glide = Glide(lambda: [legend], float(shift[1]), float(shift[0]))
    return True, at_least(glide, glide_floor(float(shift[0]), float(shift[1])))


def shape_below(stage: BatchStage, beat: Beat) -> Animation:
    """Write the output's shape, the stack's label, at the labels' size (:func:`shape_font`).

    Under the stack, its right edge at the stack's (the B edge's), where it
    stands clear of everything drawn (issue 18: right of the marks, larger
    than every label, it floated away from the slices); else right of the
    marks, level with them; else under them.
    """
    sizes = sorted((c for c in beat.numbers if c.kind == "output_size"), key=lambda c: c.index)
    font = shape_font(stage.plan.scale)
    written = shape_line(sizes, beat.label("output_title"), xyz(0, 0), font, stage.theme)
    left, bottom = _under_stack(stage)
    drawn = mobject_boxes(stage.scene.mobjects, background=stage.theme.background)
    half = float(written.height) / 2
    places = [under_stack_right(written.copy(), _stack_right(stage), bottom).get_center()]
    marks = stage.marks_below
    if len(marks):
        middle = float(marks.get_center()[1])
        places.append(xyz(float(marks.get_right()[0]) + 4 * SPACE + written.width / 2, middle))
        # Under the marks, from their left (under the slices, or under E).
        left, bottom = float(marks.get_left()[0]), float(marks.get_bottom()[1])
    places.append(xyz(left + written.width / 2, bottom - SPACE - half))
    for place in places:
        written.move_to(place)
        if clear_of(written, float(written.get_top()[1]), drawn):
            break
    stage.stack.shape = written.shape
    return FadeIn(written, shift=0.15 * UP)


def _stack_right(stage: BatchStage) -> float:
    """Return the right edge of the stack with its tags and its T and B edges."""
    stack = stage.stack
    parts: list[Mobject] = [*stack.slices, *stack.row_numbers, stack.edge_t, stack.edge_b]
    return float(Group(*parts).get_right()[0])


def repeats(stage: BatchStage, beat: Beat) -> Animation:
    """Point at every repeated ID's tags; then write the marks of the rows they made equal."""
    marked = [c.index for c in beat.numbers if c.kind == "equal_to"]
    ids = {i: c.value for (k, i), c in stage.cells.items() if k == "token_id"}
    repeated = {ids[p] for p in marked}
    # An outline on each tag's own edge, whole (the highlight means "now"): the IDs stay
    # readable, where recolouring the chips would paint their digits in their own fill.
    chips = zip(stage.stack.positions, stage.chips.chips, strict=True)
    pointed = TagRing([c for p, c in chips if ids[p] in repeated], stage.theme.highlight)
    # Where the input stays, the marks come under the slices; else the block has given
    # way and E risen into its place: they take the band over E (or their solver's place,
    # where they do not fit there).
    if stage.keeps_input:
        return Steps(pointed, write_below(stage, beat))
    return Steps(pointed, rise_more(stage, stage.stack.write_marks(beat)))
