"""The batch output's place before the reveal: one plain panel asking "output shape?".

Until ``reveal`` the output's place is held by one panel, filled and framed,
with the question centred in it. Nothing in it shows B, T or d: the
predict beat asks "what shape will the whole output have?", and the answer
must not stand on screen while it is asked. (An outline of the slices to
come, their frames, rows, tag places and T and B braces, once filled the
panel; a teacher's frame review read it as the answer, two 4-row slices,
given away before the question, issue 18.) The slices with their edges
come at the reveal, and the question goes as they come.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from manim import Rectangle, VMobject

from embedviz.render.batch_plan import PANEL_STROKE
from embedviz.render.metrics import xyz

if TYPE_CHECKING:
    from embedviz.render.parts.batch import SliceStack

__all__ = ["ask", "output_panel"]


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


def ask(stack: SliceStack) -> list[VMobject]:
    """Return what the output's place shows from the intro: the panel and its question.

    The question stands at the panel's centre (it asks about the whole
    output, and no slice is drawn yet for it to stand over); the stack fades
    it out as the slices come (:meth:`SliceStack.beat_reveal`).
    """
    panel = stack.placeholder
    if stack.question is None:
        return [panel]
    stack.question.move_to(panel.get_center())
    return [panel, stack.question]
