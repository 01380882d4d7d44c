"""BatchLookup's equality marks under E, led to their repeats, their rows ringed.

The stage (:meth:`~embedviz.render.stages.batch.BatchStage.build`) asks
:func:`plan_under` where the marks stand once E has risen as far as it would
with no band kept over it for them; where they fit there
(:func:`~embedviz.render.parts.mark_under.under_plan`), E rises so and
:func:`write_under` writes them in the repeats beat, each with its leader,
with a ring round every row they name; :func:`rings_off` takes the rings
away with the next beat's first phrase, when the caption has moved on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from manim import (
    RIGHT,
    Animation,
    AnimationGroup,
    Create,
    LaggedStart,
    Succession,
    VGroup,
    VMobject,
)

from embedviz.render.animations import Steps, beat_steps
from embedviz.render.fades import FadeIn, FadeOut
from embedviz.render.glyphs import NumberText
from embedviz.render.metrics import xyz
from embedviz.render.parts.mark_under import UnderPlan, equal_rings, under_leaders, under_plan
from embedviz.story.model import Beat, NumberCell

if TYPE_CHECKING:
    from embedviz.render.parts.batch import SliceStack

__all__ = ["plan_under", "rings_off", "write_under"]


def _first_copy(stack: SliceStack, position: tuple[int, ...]) -> tuple[int, int]:
    """Return the first position (sequence by sequence) whose ID is this row's."""
    ids = {i: c.value for (k, i), c in stack.cells.items() if k == "output_id"}
    b, t = min(i for i, v in ids.items() if v == ids[position])
    return b, t


def plan_under(
    stack: SliceStack,
    marks: Sequence[NumberCell],
    matrix: tuple[float, float, float, float],
    floor: float,
) -> UnderPlan | None:
    """Return where the marks stand under E's ink ``matrix`` (left, bottom, right, top), or None.

    ``floor`` is the lowest they may reach; the marks in their index order.
    """
    cells = sorted(marks, key=lambda c: c.index)
    texts = [NumberText(c, stack.mark_font, stack.theme.wrong) for c in cells]
    sizes = [(float(t.width), float(t.height)) for t in texts]
    rows = [stack.slices[c.index[0]].row_y(c.index[1]) for c in cells]
    body = min(grid.body_left() for grid in stack.slices)
    return under_plan(sizes, rows, stack.plan.sizes.row_height, matrix, floor, body)


def write_under(stack: SliceStack, beat: Beat, plan: UnderPlan) -> Animation:
    """Write each mark under E with its leader to its repeat, and ring every row they name."""
    cells = sorted((c for c in beat.numbers if c.kind == "equal_to"), key=lambda c: c.index)
    colour = stack.theme.wrong
    marks = VGroup(*[NumberText(c, stack.mark_font, colour) for c in cells])
    for mark, y in zip(marks, plan.ys, strict=True):
        mark.place(xyz(plan.left, y), "left")
    stack.links = under_leaders(list(marks), plan, colour)
    named = []
    for cell in cells:
        for b, t in (cell.index, _first_copy(stack, cell.index)):
            named.append((stack.slices[b], t))
    stack.rings = equal_rings(named, colour)
    stack.notes.add(*marks, stack.links)
    shown = [
        AnimationGroup(
            FadeIn(mark, shift=0.1 * RIGHT),
            Succession(
                *[Create(run) for run in leader[:-1] if isinstance(run, VMobject)],
                FadeIn(leader[-1]),
            ),
        )
        for mark, leader in zip(marks, stack.links, strict=True)
    ]
    return AnimationGroup(Create(stack.rings), LaggedStart(*shown, lag_ratio=0.3))


def rings_off(stack: SliceStack, played: Animation, beat: Beat) -> Animation:
    """Fade the rings out with the first phrase of the beat after the repeats beat."""
    rings = stack.rings
    if not len(rings) or beat.action == "repeats":
        return played
    stack.rings = VGroup()
    first, *rest = beat_steps(played)
    gone = AnimationGroup(first, FadeOut(rings, run_time=min(0.5, first.get_run_time())))
    return Steps(gone, *rest) if rest else gone
