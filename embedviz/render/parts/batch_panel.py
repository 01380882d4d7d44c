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

from manim import Rectangle, RoundedRectangle, SurroundingRectangle, VGroup, VMobject

from embedviz.render.batch_plan import PANEL_STROKE
from embedviz.render.design import SPACE
from embedviz.render.metrics import xyz

if TYPE_CHECKING:
    from embedviz.render.parts.batch import SliceStack

__all__ = ["GHOST_OPACITY", "ask", "output_panel"]

# How strongly the outline of the slices to come is drawn: a third of their own rules
# (it says where they go; the slices that come are the ones read).
GHOST_OPACITY = 0.35


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
    """Return a faint copy of each slice's frame and rules, where the slice will stand."""
    ghost = VGroup()
    for grid in stack.slices:
        body = grid.body.copy()
        for member in body.get_family():
            member.set_fill(opacity=0.0)
            # The rules are thin (0.8 against the frame's 1.5): at the frame's share they
            # vanished at 720p, and the outline read as two empty boxes.
            thin = float(member.get_stroke_width()) < 1.0
            share = min(1.0, 2.5 * GHOST_OPACITY) if thin else GHOST_OPACITY
            member.set_stroke(opacity=float(member.get_stroke_opacity()) * share)
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
            slot = RoundedRectangle(corner_radius=tall * 0.22, width=plan.chip_width, height=tall)
            slot.set_fill(opacity=0.0).set_stroke(stack.theme.cell_stroke, width=1.5)
            slot.set_stroke(opacity=GHOST_OPACITY)
            ghost.add(slot.move_to(xyz(x, grid.row_y(t))))
    # And the T and B edges' braces (their symbols are named with the batch's): GPT-2's
    # panel, wide with its edges' place, stood blank right of the tags (x 1039-1260). Only
    # inside the panel: outside it they would float beside it, named by nothing.
    for edge in (stack.edge_t, stack.edge_b):
        if float(edge[0].get_right()[0]) > float(stack.placeholder.get_right()[0]):
            continue
        brace = edge[0].copy()
        brace.set_fill(opacity=float(brace.get_fill_opacity()) * GHOST_OPACITY)
        brace.set_stroke(opacity=float(brace.get_stroke_opacity()) * GHOST_OPACITY)
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
    stack.question.move_to(panel)
    patch = SurroundingRectangle(stack.question, buff=SPACE / 2, stroke_width=0)
    patch.set_fill(stack.theme.cell_fill, opacity=1.0)
    stack.ghost = VGroup(_ghost(stack), patch)
    return [panel, stack.ghost, stack.question]
