"""BatchLookup: a legend under the slices gives way while a strip runs through it.

The solver stands the legend under raised slices, from their left
(:func:`~embedviz.render.batch_notes.legend_under`), where it fills the
frame's corner. In the ``beside`` arrangement a strip goes out at its row's
height into the slices' column and up it, its chip at its right end: a row of
E level with the legend or under it runs its strip through the legend's
texts (at GPT-2's size ``4821`` crossed ``value colour``, and on the old
layout ``33000`` too). While a beat lands such a row, the legend fades out
as its first step begins and back in as its last step ends, as the hidden
ranges' labels give way while E's rows scroll: every beat ends with it in
place, even where the next beat crosses it too. Where it can, the solver
keeps it under E's source rows instead (:func:`~embedviz.render.batch_notes.legend_floor`:
the default batch), and it never gives way; at GPT-2's size that place left
the room over it empty. There the legend stands upright under the slices'
edges, still (:func:`~embedviz.render.parts.batch_rule.stand_legend_upright`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from manim import Animation, AnimationGroup, VMobject, config

from embedviz.render.animations import Steps, beat_steps
from embedviz.render.batch_plan import MARK_LINE
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import APART, MARGIN, SPACE
from embedviz.render.fades import Looks, hidden_looks, looks_of, set_looks
from embedviz.render.metrics import digit_height, xyz
from embedviz.render.parts.legend import Legend
from embedviz.render.solver_still import MIN_BAR
from embedviz.render.space import largest_empty_rectangle
from embedviz.render.type_search import swatch_size
from embedviz.story.model import Beat

if TYPE_CHECKING:
    from embedviz.render.stages.batch import BatchStage

__all__ = [
    "Recede",
    "crosses",
    "give_way",
    "legend_beside",
    "legend_crossed",
    "lookup_rows",
]

# The share of a step the legend takes to fade out (first step) or back in (last step).
FADE_SHARE = 0.15


class Recede(Animation):
    """Fade a mobject's members out as a beat begins (``leave``) and back as it ends (``back``).

    They leave from their looks ``starts`` and come back at ``ends`` (a slice's
    dimmed looks, where the beat dims it; the legend's own looks): only colours
    change (:mod:`embedviz.render.fades`); between the two they stay hidden.
    """

    def __init__(
        self,
        mobject: VMobject,
        members: Sequence[VMobject],
        looks: tuple[Sequence[Looks], Sequence[Looks]],
        leave: bool,
        back: bool,
        share: float = FADE_SHARE,
        gate: list[bool] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(mobject, remover=False, introducer=False, **kwargs)
        self.members, (self.starts, self.ends) = list(members), looks
        self.leave, self.back, self.share = leave, back, share
        # Shared by one part's recessions in a beat: set once its way back has begun, after
        # which the earlier ones (which may still be finishing, where steps overlap) keep off.
        self.gate = [False] if gate is None else gate

    def begin(self) -> None:
        """Start without Manim's starting copy (only colours change)."""
        self.starting_mobject = self.mobject
        if self.back:
            self.gate[0] = True
        self.interpolate(0)

    def get_all_mobjects(self) -> Any:
        """Return the mobject alone (no copies were made)."""
        return [self.mobject]

    def interpolate_mobject(self, alpha: float) -> None:
        """Hide the members as far as the step has come: out, hidden, back."""
        if self.gate[0] and not self.back:
            return
        out = min(1.0, alpha / self.share) if self.leave else 1.0
        back = min(1.0, (1.0 - alpha) / self.share) if self.back else 1.0
        hidden = max(0.0, min(out, back))
        leaving = self.leave and (not self.back or alpha < 0.5)
        for member, start, end in zip(self.members, self.starts, self.ends, strict=True):
            looks = start if leaving else end
            set_looks(member, looks, hidden_looks(looks), hidden)


def legend_crossed(stage: BatchStage, legend: VMobject) -> bool:
    """Whether some lookup beat's strips run through ``legend``, under the slices."""
    filled: list[Any] = []
    for beat in stage.board.beats:
        if beat.action in ("lookup", "lookup_many") and beat.output is not None:
            if _crossed(stage, _rows(stage, filled, beat), legend):
                return True
            filled += [p for p in beat.output.filled if p not in filled]
    return False


def _crossed(stage: BatchStage, rows: Collection[int], under: VMobject | None = None) -> bool:
    """Whether a strip from one of these rows of E runs through the legend under the slices.

    ``under``: the legend to read (by default the stage's).

    Not a legend the stage stood upright beside the slices' edges
    (:func:`legend_beside`): right
    of the tags, where the strips and their chips never go. (Three pairs in
    a 4 × 2 table: it gave way for every lookup beat, and staying out
    between them left 21.5 % of the frame empty.)
    """
    legend, plan = stage.matrix.legend if under is None else under, stage.plan
    if legend is None or not plan.legend_left or plan.mode != "beside" or not rows:
        return False
    width = stage.chips.chips[0].width
    if float(legend.get_left()[0]) > plan.tag_x(width) + width / 2:
        return False
    grid = stage.matrix.grid
    lowest = min(grid.row_y(row) for row in rows) - plan.sizes.row_height / 2
    return lowest < float(legend.get_top()[1]) + SPACE


def _rows(stage: BatchStage, filled: Collection[Any], beat: Beat) -> set[int]:
    """Return the rows of E a lookup beat's strips leave from (``filled``: landed before it)."""
    fresh = [p for p in beat.output.filled if p not in filled] if beat.output else []
    return {int(stage.cells[("token_id", p)].value) for p in fresh}


def give_way(
    stage: BatchStage, filled: Collection[Any], played: Animation, beat: Beat
) -> Animation:
    """Return a lookup beat's animation with the legend out of its strips' way, if they cross it.

    ``filled`` are the positions landed before the beat. It fades out as the
    beat's first step begins and back as its last step ends, in every beat
    whose strips cross it: every beat ends with it in place. (At GPT-2's size,
    ``4821,0,50256,17;33000,2,4821,0``, it once stayed out from the last beat
    of sequence 0 to the end of sequence 1's, which both cross it: a 720p
    teacher's review saw 21.4 % of the frame empty under the slices at the
    first of those beat ends.)
    Where the rule's card stands under the slices in the legend's stead
    (:func:`~embedviz.render.parts.batch_room.room_rule`), the card gives way so.
    """
    rule = stage.rule
    legend = rule.card if rule is not None and rule.room else stage.matrix.legend
    if legend is None or not _crossed(stage, _rows(stage, filled, beat), legend):
        return played
    steps = beat_steps(played)
    back = len(steps) - 1
    members = [m for m in legend.family_members_with_points() if isinstance(m, VMobject)]
    shown = [looks_of(member) for member in members]
    gate = [False]
    return Steps(
        *[
            AnimationGroup(
                step,
                Recede(
                    legend,
                    members,
                    (shown, shown),
                    k == 0,
                    k == back,
                    gate=gate,
                    run_time=step.run_time,
                ),
            )
            for k, step in enumerate(steps)
        ]
    )


def legend_beside(self: BatchStage) -> bool:
    """Stand the legend upright right of the slices' edges, where that column stays free.

    A stack bound by the height (four sequences of two IDs in a 4 × 2
    table) leaves the column its solver kept for the list of marks right
    of the edges empty from the title to the caption once the marks go to
    the block's place over E (28.3 % of the frame before the reveal,
    21.9 % after): the legend, which reads the slices' colours, stands
    there as a colour bar as tall as the stack (under the shape's line,
    which comes there last), centred in the column, and the empty panel
    spans the edges' place until the reveal. A legend the solver stood
    under short slices comes there too (three sequences of two IDs in
    the same table: 28.0 % to 11.9 %). Nothing moves where the column is
    too narrow for it (every batch as wide as the frame), the notes stand
    there, the stack spreads (the legend spans it as it stands), or the
    revealed frame would not be fuller so. Return whether it moved.
    """
    plan, stack = self.plan, self.stack
    notes_right = self.notes_h > 0 or (plan.marks == "right" and stack.marks_box is None)
    if self.matrix.legend is None or (notes_right and self._marks()):
        return False
    if self.early is not None or self.spread != (0.0, 0.0):
        return False
    left = max(float(edge.get_right()[0]) for edge in (stack.edge_t, stack.edge_b))
    left += 2 * SPACE
    right = float(config.frame_width) / 2 - MARGIN
    top = float(stack.headers[0].get_top()[1])
    if plan.marks == "right":
        # The shape's line comes at the column's top (SliceStack.beat_shape), a group
        # of its own: at a SPACE, a frame read ``output 4 × 2 × 2 value colour``.
        top = plan.marks_top - digit_height(plan.scale.label) * MARK_LINE - APART
    bottom = float(stack.slices[-1].body.get_bottom()[1])
    font = plan.scale.legend
    length = top - bottom - digit_height(font) * 1.6 - SPACE
    if length < MIN_BAR * swatch_size(font):
        return False
    cells = [self.cells[key] for key in sorted(self.cells) if key[0] == "legend"]
    title = self.board.word("value_colour")
    legend = Legend(cells, font, self.theme, title, upright=True, length=length)
    legend.move_to(xyz((left + right) / 2, (top + bottom) / 2))
    if legend.width > right - left or _emptiest(self, legend) >= _emptiest(self, None):
        return False
    self.matrix.legend = legend
    stack.span_edges()
    return True


def _emptiest(self: BatchStage, legend: Legend | None) -> float:
    """Return the largest empty area once the slices are revealed, with this legend.

    ``None``: the legend where it stands now (in the title band or under the slices).
    """
    stack, chips, matrix = self.stack, self.chips, self.matrix
    shown = [m for m in (matrix.grid, matrix.heading, matrix.note) if m is not None]
    shown += [chips.slots, *chips.chips, chips.batch_label, chips.length_label]
    shown += [*stack.slices, *stack.headers, *stack.row_numbers]
    shown += [stack.edge_d, stack.edge_t, stack.edge_b]
    shown += [m for m in (legend or matrix.legend,) if m is not None]
    return largest_empty_rectangle(mobject_boxes(shown), content_band(self.title)).area


def crosses(stage: BatchStage, rows: Collection[int], under: VMobject) -> bool:
    """Whether a strip from one of these rows of E runs through ``under``, under the slices."""
    return _crossed(stage, rows, under)


def lookup_rows(stage: BatchStage, filled: Collection[Any], beat: Beat) -> set[int]:
    """Return the rows of E a lookup beat's strips leave from (``filled``: landed before it)."""
    return _rows(stage, filled, beat)
