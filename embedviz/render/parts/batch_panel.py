"""The batch output's place before the reveal: a panel, a faint outline of the slices, a question.

Until ``reveal`` the output's place is held by one panel, asking "output
shape?". A 720p review measured the panel as 560 x 380 px of blank holding
only the question (about 212k px, more than an eighth of the frame) at the
intro, batch and predict beats' ends. The panel now holds a faint outline of
the slices to come, their frames and their cells' rules where each slice will
stand, so the frame shows where the output goes and how it is laid out, and
the question stands over it on a patch of the panel's own fill (no rule runs
through its words). The outline and the question go as the slices come.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from manim import Line, Rectangle, SurroundingRectangle, VGroup, VMobject

from embedviz.render.batch_plan import PANEL_STROKE
from embedviz.render.design import DIM_CONTRAST, SPACE, dimmed
from embedviz.render.metrics import xyz
from embedviz.render.rounded import rounded_box

if TYPE_CHECKING:
    from embedviz.render.parts.batch import SliceStack

__all__ = ["GHOST_CONTRAST", "ask", "output_panel"]

# How far the outline of the slices to come recedes: to dimmed content's floor (3:1 against
# the panel's fill, WCAG 1.4.11), with room for the anti-aliasing of a line about 1.5 px
# wide. Drawn as a third of the slices' own frame (opacity 0.12 of the output's colour)
# and their tag places at a third of the grid lines' grey, it measured 1.3:1 in the light
# theme's pixels: a teacher read the light intro's empty slices as barely there.
GHOST_CONTRAST = DIM_CONTRAST + 1.5


def output_panel(stack: SliceStack) -> Rectangle:
    """Return one panel where the slices will stand.

    It spans the slices' headers, tags and row numbers too: all of the
    output's place (and the edges', where the cells took the width to spare).
    """
    plan = stack.batch_plan
    top = plan.slice_tops[0] + plan.header_h
    bottom = plan.slice_tops[-1] - plan.length * plan.sizes.row_height
    right = max(float(numbers.get_right()[0]) for numbers in stack.row_numbers)
    if plan.sizes.cell_extra:
        right = max(right, *(float(e.get_right()[0]) for e in (stack.edge_t, stack.edge_b)))
    panel = Rectangle(width=right - plan.output_left, height=top - bottom)
    panel.set_fill(stack.theme.cell_fill, opacity=1.0)
    panel.set_stroke(stack.theme.cell_stroke, width=PANEL_STROKE)
    return panel.move_to(xyz((plan.output_left + right) / 2, (top + bottom) / 2))


def _ghost(stack: SliceStack) -> VGroup:
    """Return an outline of each slice's frame, rules and tag places, where the slice will stand.

    The frames, the tag places and the T and B braces are drawn in the
    output's colour dimmed to :data:`GHOST_CONTRAST` against the panel; the
    cells' rules as a table draws its grid lines.
    """
    theme = stack.theme
    line = dimmed(theme.output, theme.cell_fill, GHOST_CONTRAST)
    ghost = VGroup()
    for grid in stack.slices:
        body = grid.body.copy()
        # The frame over the rules (under the hidden ranges' bands, the table's breaks): a
        # rule's end painted its light grey over the frame's ink, which then measured 2.7:1
        # where the frame's line fell in a rule's last pixel (the default batch, 720p).
        frame, *rest = body.submobjects
        rules = [m for m in rest if isinstance(m, Line)]
        body.submobjects = [*rules, frame, *(m for m in rest if not isinstance(m, Line))]
        for member in body.family_members_with_points():
            member.set_fill(opacity=0.0)
            # The rules are thin (0.8 against the frame's 1.5): they keep the grid's grey.
            if float(member.get_stroke_width()) < 1.0:
                member.set_stroke(theme.cell_stroke, opacity=1.0)
            else:
                member.set_stroke(line, opacity=1.0)
        ghost.add(body)
        # Each row's tag place too, drawn as a chip's place waits over E: the column right
        # of the slices stood blank inside the panel (GPT-2's wide IDs: 200 px).
        plan = stack.batch_plan
        tall = min(plan.chip_h, plan.sizes.row_height * 0.8)  # Apart where the rows are close.
        # Where the tags will stand beside this slice as it stands now: the corridor's stack
        # waits right of its solved place (the plan's tag_left put the slots 128 px right
        # of the slices, across the panel's right edge, in the 3 x 6 batch at GPT-2 size).
        x = grid.body_left() + plan.tag_left - plan.output_left + plan.chip_width / 2
        for t in range(plan.length):
            slot = rounded_box(plan.chip_width, tall, tall * 0.22)
            slot.set_fill(opacity=0.0).set_stroke(line, width=2.0, opacity=1.0)
            ghost.add(slot.move_to(xyz(x, grid.row_y(t))))
    # And the T and B edges' braces (their symbols are named with the batch's): GPT-2's
    # panel, wide with its edges' place, stood blank right of the tags (x 1039-1260). Only
    # inside the panel: outside it they would float beside it, named by nothing.
    for edge in (stack.edge_t, stack.edge_b):
        if float(edge[0].get_right()[0]) > float(stack.placeholder.get_right()[0]):
            continue
        brace = edge[0].copy()
        brace.set_fill(line, opacity=float(brace.get_fill_opacity()))
        brace.set_stroke(line, opacity=float(brace.get_stroke_opacity()))
        ghost.add(brace)
    return ghost


def ask(stack: SliceStack) -> list[VMobject]:
    """Return what the output's place shows from the intro: panel, outline, question.

    The outline (:attr:`SliceStack.ghost`) and the question's patch are kept
    on the stack, which fades them out with the question at the reveal.
    """
    panel = stack.placeholder
    if stack.question is None:
        return [panel]
    # Over the slices' bodies (a panel that spans the edges too centred it across a slice's
    # right edge and its tag places), between the first two where the gap holds it: at the
    # panel's centre its patch cut slice 0's bottom edge, which the outline's 3:1 made plain.
    x, y = float(stack.slices[0].body.get_center()[0]), float(panel.get_center()[1])
    if len(stack.slices) > 1:
        high = float(stack.slices[0].body.get_bottom()[1])
        low = float(stack.slices[1].body.get_top()[1])
        if high - low >= float(stack.question.height) + SPACE:
            y = (low + high) / 2
    stack.question.move_to(xyz(x, y))
    patch = SurroundingRectangle(stack.question, buff=SPACE / 2, stroke_width=0)
    patch.set_fill(stack.theme.cell_fill, opacity=1.0)
    stack.ghost = VGroup(_ghost(stack), patch)
    return [panel, stack.ghost, stack.question]
