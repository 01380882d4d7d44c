"""BatchLookup's equality marks under E, their rows ringed and lettered.

The stage (:meth:`~embedviz.render.stages.batch.BatchStage.build`) calls
:func:`marks_under`: where the marks fit under E once it has risen (no
further than leaves no larger empty area with their place still empty,
:func:`plan_under`, :func:`~embedviz.render.parts.mark_under.under_plan`),
E rises so as they come and :func:`write_under` writes them in the repeats
beat, each with its pair's letter, with a ring round every row they name;
:func:`rings_off` takes the rings away with the next beat's first phrase, when
the caption has moved on (the marks and the letters stay).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from manim import (
    RIGHT,
    Animation,
    AnimationGroup,
    Group,
    LaggedStart,
    VGroup,
    config,
)

from embedviz.render.animations import Steps, beat_steps
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import SPACE
from embedviz.render.fades import FadeIn, FadeOut
from embedviz.render.metrics import xyz
from embedviz.render.parts.mark_under import UnderPlan, equal_rings, under_plan
from embedviz.render.parts.pair_marks import badge_room, lettered_marks, pair_badges
from embedviz.render.parts.symbols import equality_mark
from embedviz.render.space import EMPTY_SHARE, best_drop
from embedviz.story.model import Beat, NumberCell

if TYPE_CHECKING:
    from embedviz.render.parts.batch import SliceStack

__all__ = ["marks_under", "plan_under", "rings_off", "write_under"]


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
    texts = [equality_mark(c, stack.mark_font, stack.theme.wrong) for c in cells]
    sizes = [(float(t.width), float(t.height)) for t in texts]
    return under_plan(sizes, matrix, floor)


def marks_under(stage: Any) -> bool:
    """Stand a BatchStage's marks under E, E risen as far as they need, where they fit there.

    Issue 18's review read the marks over E as standing in its headings'
    column. Only a stack that does not spread, with the marks in the block's
    place over E (``marks_box``). E rises from where the stage would raise it
    (keeping the marks' band over it) towards the block's top, as far as
    leaves no larger empty area with the marks' place under it still empty
    than that rise did, or an eighth of the frame (``_rise``'s measure), and
    the marks fit under it. The stage's own rise (:attr:`BatchStage.rise`)
    plays as the last lookup ends; the rest (:attr:`BatchStage.under_rise`)
    only as the marks come (:func:`~embedviz.render.batch_close.rise_more`):
    played at once, the marks' place stood empty as GPT-2's batch's last
    lookup ended (12.2 % of the frame).

    Return whether the marks stand under E with the stage's own rise leaving
    no more than an eighth of the frame empty as the last lookup ends.
    """
    stack, matrix = stage.stack, stage.matrix
    stage.under_rise = 0.0
    if stack.marks_box is None or stage.early is not None or stage.spread != (0.0, 0.0):
        return False
    parts = [m for m in (matrix.grid, matrix.heading, matrix.note) if m is not None]
    ink = Group(*parts)
    full = max(stage.rise, float(stage._block().get_top()[1] - ink.get_top()[1]))
    fixed = [*stack.slices, *stack.headers, *stack.row_numbers]
    fixed += [stack.edge_d, stack.edge_t, stack.edge_b]
    fixed += [m for m in (matrix.legend,) if m is not None]
    frame = float(config.frame_width * config.frame_height)
    band = content_band(stage.title)
    still, moving = mobject_boxes(fixed), mobject_boxes(parts)

    def empty(rise: float) -> float:
        return best_drop(still, moving, band, [-rise], frame)[1].area

    bar = max(EMPTY_SHARE * frame, empty(stage.rise)) + 1e-9
    left, right = float(ink.get_left()[0]), float(matrix.grid.get_right()[0])
    bottom, top = float(ink.get_bottom()[1]), float(ink.get_top()[1])
    for step in range(20, -1, -1):
        rise = stage.rise + (full - stage.rise) * step / 20
        if empty(rise) > bar:
            continue
        box = (left, bottom + rise, right, top + rise)
        plan = plan_under(stack, stage._marks(), box, band[1] + SPACE)
        if plan is not None:
            stage.under_rise, stack.marks_under = rise - stage.rise, plan
            return bar <= EMPTY_SHARE * frame + 2e-9
    return False


def write_under(stack: SliceStack, beat: Beat, plan: UnderPlan) -> Animation:
    """Write each mark under E with its pair's letter, and ring and letter every row they name."""
    cells = lettered_marks(beat)
    colour = stack.theme.wrong
    marks = VGroup(*[equality_mark(c, stack.mark_font, colour) for c in cells])
    # Each starts with its pair's letter, as its rows do (parts.pair_marks): no line
    # leads from it to its rows.
    room = badge_room(stack.plan.scale.label, stack.plan.sizes.row_height)
    for mark, y in zip(marks, plan.ys, strict=True):
        mark.place(xyz(plan.left + room, y), "left")
    named = []
    for cell in cells:
        for b, t in (cell.index, _first_copy(stack, cell.index)):
            named.append((stack.slices[b], t))
    stack.rings = equal_rings(named, colour)
    stack.notes.add(*marks)
    badges = pair_badges(stack, beat, list(marks))
    shown = [FadeIn(mark, shift=0.1 * RIGHT) for mark in marks]
    rings = FadeIn(VGroup(stack.rings, badges[0]))
    return AnimationGroup(rings, FadeIn(badges[1]), LaggedStart(*shown, lag_ratio=0.3))


def rings_off(stack: SliceStack, played: Animation, beat: Beat) -> Animation:
    """Fade the rings out with the first phrase of the beat after repeats.

    The marks and their letters stay, naming their rows (``out[1,2] =
    out[0,0]``). A lecture-hall review (issue 18) saw the marks' lines point
    at slice 1's rows through the ``dim`` and ``shape`` beats, long after the
    caption had moved on from the repeats; the rings go as the lines did.
    """
    rings = stack.rings
    if not len(rings) or beat.action == "repeats":
        return played
    stack.rings = VGroup()
    first, *rest = beat_steps(played)
    fade = min(0.5, first.get_run_time())
    gone = AnimationGroup(first, FadeOut(rings, run_time=fade))
    return Steps(gone, *rest) if rest else gone
