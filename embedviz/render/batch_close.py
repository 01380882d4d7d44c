"""BatchLookup in the corridor: E and the stack part once per run of lookups, and close once.

Between lookups E and the stack rest beside each other, the corridor closed
(:meth:`~embedviz.render.stages.batch.BatchStage._rest`); a lookup beat's
strips need it open. At GPT-2's size with a 3 × 6 batch they parted and
closed around every lookup beat, eleven glides of 128 px in 0.4 s each (800
px/s at 720p). They now part as the first lookup beat begins and stay parted
through the run (:func:`keep_parted`, the lookup family's
:func:`~embedviz.render.parts.resting.parted_through`, and the last lookup
beat too): while they stand parted the chips leave from where E stands then
(:meth:`~embedviz.render.parts.batch_motion.BatchMotion.parted_homes`) and
land at the tags' places beside the stack as the solver put it.

Once every row is in (:func:`all_in`), one glide ends the run: E rises into
the block's place as the block gives way (:attr:`BatchStage.rise`) where it stands, and the
stack glides back to its rest (a short stack spreads down the frame in the
same glide: :func:`~embedviz.render.parts.batch_spread.spread_stack`). The
rest of the way to E it goes with the notes, which come right of it
(:meth:`~embedviz.render.parts.batch_motion.BatchMotion.close_left`): all the
way at once left the frame's right side empty until then. E no longer glides
right to its rest only to glide left again with the notes. Every glide is
slow enough to follow (:func:`~embedviz.render.parts.glide.glide_floor`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from manim import Animation, AnimationGroup, Mobject, Succession, Transform, VGroup

from embedviz.render.animations import Steps
from embedviz.render.fades import FadeOut
from embedviz.render.metrics import xyz
from embedviz.render.pace import at_least
from embedviz.render.parts.batch_spread import spread_stack
from embedviz.render.parts.glide import GLIDE_SECONDS, Glide, glide_floor
from embedviz.render.parts.resting import parted_through

if TYPE_CHECKING:
    from embedviz.render.stages.batch import BatchStage

__all__ = ["all_in", "keep_parted", "rise_more"]

LOOKUPS = ("lookup", "lookup_many")


def keep_parted(stage: BatchStage) -> None:
    """Keep E and the stack parted from the first lookup beat's start to the last one's end."""
    motion = stage.motion
    lookups = [beat.name for beat in stage.board.beats if beat.action in LOOKUPS]
    if stage.plan.mode != "corridor" or not lookups:
        return
    motion.stays_open = parted_through(motion, stage.board) | {lookups[-1]}


def _matrix(stage: BatchStage) -> Callable[[], list[Mobject]]:
    """Return what E's rise moves: E as it stands (the block, which gives way, stays)."""
    chips = stage.chips
    family = {
        id(m) for m in VGroup(chips.slots, chips.batch_label, chips.length_label).get_family()
    }

    def matrix() -> list[Mobject]:
        return [m for m in stage.motion.matrix_side(True) if id(m) not in family]

    return matrix


def rise_more(stage: BatchStage, then: Animation) -> Animation:
    """Return E's further rise for the marks under it (``BatchStage.under_rise``), then ``then``.

    :func:`all_in` raises E only as far as the stage's own rise: the marks'
    place under it, risen further as the last lookup ended, stood empty then
    (GPT-2's batch: 12.2 % of the frame). The rest of the way it glides as
    the marks come, at the same pace as any glide.
    """
    rise = stage.under_rise
    if not rise:
        return then
    glide = at_least(Glide(_matrix(stage), rise), glide_floor(0.0, rise))
    return Succession(glide, then)


def _block_gives_way(stage: BatchStage) -> list[Animation]:
    """Return the block's fade (its places' outlines, its edges) as the last row lands.

    Until every row is in, the block keeps the input's B × T shape (each
    place's outline, dimmed, once its chip has left:
    :meth:`~embedviz.render.parts.batch_motion.BatchMotion.leaving`); the
    tags beside the slices' rows hold the IDs, in the same order. It goes in
    every layout, as the storyboard's block empties with its last chip
    (``story.scenes.batch._empty_block``): E's rise or the marks may take its
    place, and the screen must say what the storyboard says.
    """
    chips = stage.chips
    if stage.keeps_input:
        # The input stays to the end (batch_finale.keep_input), as the storyboard keeps it.
        return []
    # Each on its own: each stands on screen by itself (a fade of a group they are not
    # on screen through would leave them there). Gone before E's top reaches the block.
    # As long as the glides (GLIDE_SECONDS): the group the fades join lasts as long as its
    # longest member, and the glides' floor is the group's; a fade of manim's default
    # second squeezed the glides into half of it (128 px in 0.4 s at 720p, 767 px/s).
    return [
        FadeOut(part, rate_func=lambda t: min(1.0, t * 5.0), run_time=GLIDE_SECONDS)
        for part in (chips.slots, chips.batch_label, chips.length_label)
    ]


def all_in(stage: BatchStage, played: Animation) -> Animation:
    """Return the beat that lands the last rows, then E's rise and the corridor's closing.

    One glide, each table at once: E up into the block's place (the block
    gives way: :func:`_block_gives_way`), the stack (with its tags and rows)
    left to its rest and, where it spreads, its slices down the frame.
    """
    motion, stack = stage.motion, stage.stack
    across = motion.close_for_good()
    up, gap = stage.spread
    gives_way = _block_gives_way(stage)
    if not (stage.rise or across or up or gap or gives_way):
        return played
    glides: list[Animation] = [*gives_way]
    floors = [glide_floor(0.0, stage.rise)]
    if stage.rise:
        glides.append(Glide(_matrix(stage), stage.rise))
    if across:
        glides.append(Glide(lambda: motion.output_side(shown=True), 0.0, -across))
    slices = len(stack.slices)
    if up or gap:
        # The notes come under the last slice where it stands then.
        stack.notes_drop += up - gap * (slices - 1)
        spread = spread_stack(motion, stack, up, gap)
        for grow in spread:
            if isinstance(grow, Transform):
                # The B edge grows to span the slices where the stack glides to.
                grow.target_mobject.shift(xyz(-across, 0))
        glides += spread
    floors += [glide_floor(across, up - gap * b) for b in range(slices)]
    return Steps(played, at_least(AnimationGroup(*glides), max(floors)))
