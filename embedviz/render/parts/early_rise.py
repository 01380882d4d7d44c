"""The block rises for its lookups as its rows are revealed, not as the first ID is named.

The toy SequenceLookup (a 6 × 3 E, IDs 2, 3, 5, 1) rests its output block
level with E's rows 0 to 3: the frame is fullest there (12.2 % empty, under
the issue's eighth). From there the first strip (E's row 2, bound for output
row 0) would slide out level with output row 2, not its own
(:func:`~embedviz.render.parts.level.strips_over`), so the block has to stand
at the solver's place, 1.75 rows up, for the whole run of lookups
(:func:`~embedviz.render.parts.resting.hold_lookups`). It glided up as
``lookup-0``'s caption said "ID 2 is a row number, not a quantity" and back
down in ``lookup-rest``: a teacher read both glides as jitter (issue 18).

Where the beat right before the run's first lookup is the ``reveal`` (the
block's rows and tags are drawn: the block itself is what the frame is about)
and that first lookup's strips come in under the raised block (the room left
there at the reveal's end is their road), the block glides up in the reveal
instead, and stands still through every lookup until it goes home once after
the last strip has landed.
"""

from __future__ import annotations

from collections.abc import Callable

from manim import Animation
from manim.utils.rate_functions import smooth

from embedviz.render.metrics import xyz
from embedviz.render.pace import at_least
from embedviz.render.parts.glide import Glide, glide_floor
from embedviz.render.parts.motion import LookupMotion
from embedviz.render.parts.resting import under_block
from embedviz.story.model import Storyboard

__all__ = ["rise", "rise_beat"]

_LOOKUPS = ("lookup", "lookup_many")


def rise_beat(motion: LookupMotion, board: Storyboard) -> str | None:
    """Return the reveal beat in which the block glides up for the lookups, or None.

    Call it once the lookups are held (:func:`~embedviz.render.parts.resting.
    hold_lookups`). None where the first lookup beat is not held at the
    solver's place from its start (it plays at rest, or at a level place of
    its own), where the blocks rest apart across (the corridor's glide is
    the lookups' own), where the beat before it is not the reveal, or where
    none of its strips comes in under the raised block (the room under it at
    the reveal's end would be empty, not a road).
    """
    if motion.plan.mode == "corridor" or motion.lift <= 1e-9:
        return None
    if motion.slide or motion.matrix_slide or motion.late_shift:
        return None
    beats = list(board.beats)
    lookups = [k for k, b in enumerate(beats) if b.action in _LOOKUPS and b.output is not None]
    if not lookups or lookups[0] == 0:
        return None
    first, before = beats[lookups[0]], beats[lookups[0] - 1]
    if first.name not in motion.held or first.name in motion.places:
        return None
    if before.action != "reveal" or not under_block(motion, board)[0]:
        return None
    return before.name


def rise(motion: LookupMotion, build: Callable[[], Animation]) -> tuple[Animation, Animation]:
    """Return the block's glide up to the solver's place, and what ``build`` builds there.

    ``build`` (the reveal) is built with the block already raised: what it
    makes (the shape beside the heading) or aims at (the rules' stroke) stands
    where the block will. Everything that moves with the block, on screen or
    not yet, and what the build brings, is then set back and glides up with
    it (the question the build takes away as well: it fades after the glide).
    The motion is left parted and rebased, as a held lookup beat that stays
    parted leaves it: the held lookups play where it stands, and the last one
    glides it home.
    """
    lift = motion.lift
    offset = xyz(0.0, lift)
    moving = motion.output_side()
    for mobject in moving:
        mobject.shift(offset)
    built = build()
    moving += [m for m in motion.output_side() if not any(m is o for o in moving)]
    for mobject in moving:
        mobject.shift(-offset)
    motion.opened = (lift, 0.0, 0.0)
    motion.chips.homes = [h + motion.parted_homes(lift, 0.0, 0.0) for h in motion.chips.homes]
    motion.lift = 0.0
    motion.rebased = True
    glide = Glide(lambda: list(moving), lift, rate_func=smooth)
    return at_least(glide, glide_floor(0.0, lift)), built
