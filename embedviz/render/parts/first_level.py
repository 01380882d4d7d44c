"""A beat's first lookup with its strip sliding level into output row 0.

PositionBlindness's ``lookup_all`` plays its first ID alone ("As before, ID 2
selects its row of E"), then the rest together. With the toy's layout the
block rests where E's row 2 stands level with output rows 2 and 3, and the
corridor between the blocks is narrower than a strip
(:func:`~embedviz.render.parts.level.strips_over`): that strip slid out beside
rows 2 and 3 and rose past row 1 into row 0 (issue 18). Here the block first
glides down to where row 0 is level with the strip's row
(:func:`~embedviz.render.parts.resting.level_up`), the strip slides straight
in, and the rest glide on to the solver's place together, then home: the
beat's end stands where it stood. Where those are three glides (the toy's
IDs 2, 3, 2, 1), the block stands at the solver's place from the intro
instead and glides home once (:func:`stand_for_lookups`).
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import Animation, Mobject, Succession, config

from embedviz.render.animations import Steps, beat_steps
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.metrics import xyz
from embedviz.render.pace import needed_seconds
from embedviz.render.parts.level import strips_over
from embedviz.render.parts.motion import LookupMotion
from embedviz.render.parts.resting import level_up, rest_blocks
from embedviz.render.space import EMPTY_SHARE, best_drop
from embedviz.story.model import Beat, Storyboard

__all__ = ["first_lookup", "lookup_all", "rest_level", "stand_for_lookups"]


def rest_level(motion: LookupMotion, board: Storyboard, title: Mobject) -> None:
    """Rest the blocks (:func:`rest_blocks`); then the block level for the first strip, if it may.

    The first lookup (one ID, one strip, under a caption that names it) used to
    glide the block down from its rest for that strip to slide level into
    output row 0 (:func:`first_lookup`), then on up for the rest and home: three
    glides in one beat, two of them in a few seconds (a 720p review, issue 18).
    Where that level place leaves no empty area over an eighth of the frame
    (between the title and the caption, with what the intro shows), the block
    rests there from the start: the first strip slides straight in with no
    glide at all.
    """
    rest_blocks(motion, board, title)
    if motion.plan.mode == "corridor" or not strips_over(motion.plan):
        return
    played = 0.0 if motion.clear_here([0]) is not None else motion.lift
    up = level_up(motion, [], 0)
    if up is None or up >= played - 1e-6:
        return  # level already, or no level place (the first lookup plays as before)
    still = mobject_boxes(motion.matrix.intro())
    moving = mobject_boxes(motion.output_side())
    area = float(config.frame_width * config.frame_height)
    drop, empty = best_drop(still, moving, content_band(title), [-up], area)
    if abs(drop + up) < 1e-9 and empty.area <= EMPTY_SHARE * area:
        motion.rest(-up)


def stand_for_lookups(motion: LookupMotion) -> bool:
    """Stand the block where the solver keeps every path clear, for a run that would glide thrice.

    Where the first strip would have the block glide down to slide level into
    output row 0 (:func:`first_lookup`), the others need it at the solver's
    place: the block glided down, up and home within the one beat, and a
    teacher's 720p review (issue 18, PositionBlindness 7.7 to 14.2 s) read
    the output box changing place as jitter. It stands at the solver's place
    from the intro instead (the room left under it is the strips' road, as
    :func:`~embedviz.render.parts.resting.hold_lookups` leaves it), holds
    still while every row fills in, and glides home once, after the last
    has landed. The motion is left parted and rebased, as
    :func:`~embedviz.render.parts.early_rise.rise` leaves it. Returns whether
    it stands so. Call it once the blocks and the legend rest.
    """
    if motion.plan.mode == "corridor" or not strips_over(motion.plan) or motion.lift <= 1e-9:
        return False
    if len(motion.output.positions) < 2 or _level_place(motion) is None:
        return False
    lift = motion.lift
    for mobject in motion.output_side():
        mobject.shift(xyz(0.0, lift))
    motion.chips.homes = [h + motion.parted_homes(lift, 0.0, 0.0) for h in motion.chips.homes]
    motion.opened, motion.lift, motion.rebased = (lift, 0.0, 0.0), 0.0, True
    return True


def _level_place(motion: LookupMotion) -> float | None:
    """How far up (< 0: down) the block would glide for the first strip to slide in level.

    None where it need not (the strip comes down into row 0 from where it
    plays, or no place is level and clear).
    """
    # Where it would play: at rest if its path is clear there, else at the solver's place.
    played = 0.0 if motion.clear_here([0]) is not None else motion.lift
    up = level_up(motion, [], 0)
    # From a row above row 0 there (up > played) it comes down beside no other row;
    # from below, it rises past them.
    return up if up is not None and up < played - 1e-6 else None


def lookup_all(motion: LookupMotion, beat: Beat) -> tuple[Animation, Animation]:
    """Return the beat's first lookup (:func:`first_lookup`) and the rest's, one step each.

    Both are built before either plays: where the first stands the block level
    for its strip, the rest are built with the block where it will stand then
    (their rows' places, their strips' paths and their glide on to the
    solver's place count from there), as a later beat's would be; and each
    step's glides get their floors within its phrase (:func:`_fitted`).
    """
    # Standing raised (:func:`stand_for_lookups`), the rest glide it home: a floor to fit.
    held = motion.opened is not None
    first = first_lookup(motion, beat.name)
    place = motion.places.get(beat.name)
    alone = len(motion.output.positions) < 2  # alone, it glided home
    if (place is None and not held) or alone:
        return Succession(*first.steps), Succession(*beat_steps(motion.beat_lookup_many(beat)))
    # The rows' places are read from the grid (the chips' homes already count from there).
    grid = motion.output.grid
    grid.shift(xyz(0, place or 0.0))
    try:
        rest = motion.beat_lookup_many(beat)
    finally:
        grid.shift(xyz(0, -(place or 0.0)))
    if len(beat.phrases) < 2:
        return Succession(*first.steps), Succession(*beat_steps(rest))
    # The first ends as the second phrase starts; the rest may run into the beat's hold.
    split = beat.phrases[1].start
    return _fitted(first.steps, split), _fitted(beat_steps(rest), beat.duration - split)


def _fitted(steps: Sequence[Animation], seconds: float) -> Animation:
    """Return ``steps`` in succession, each glide in them built long enough for its floor.

    A step plays its parts in proportion to their run times (:mod:`~embedviz.
    render.pace`): a glide built at :data:`~embedviz.render.parts.glide.
    GLIDE_SECONDS` among a lookup's walks got a fifth of its phrase and moved
    247 px in 0.4 s (PositionBlindness's glide on, four rows up). Each part
    with a floor is built so that, played in ``seconds``, it lasts its floor;
    the rest share what is left.
    """
    parts = [p for step in steps for p in (step.animations if type(step) is Succession else [step])]
    floors = [needed_seconds(p) for p in parts]
    free = sum(float(p.get_run_time()) for p, f in zip(parts, floors, strict=True) if f <= 0)
    if free > 0 and sum(floors) < seconds - 1e-6:
        scale = free / (seconds - sum(floors))  # seconds built for each second played
        for part, floor in zip(parts, floors, strict=True):
            if floor > 0:
                part.run_time = max(float(part.get_run_time()), floor * scale)
    return Succession(*parts)


def first_lookup(motion: LookupMotion, name: str) -> Steps:
    """Return beat ``name``'s first lookup (output row 0), level where it would not be.

    Where the block (at rest, or at the solver's place if its path needs that)
    has that strip come up from under row 0 over the block's columns, and a
    place lets it slide straight in, the block glides
    there first (``motion.places``), stays there for the beat's other lookups
    to glide on from (``motion.held``: to the solver's place), and goes home
    with their end (alone, with its own). Elsewhere it is the lookup as before.
    """
    place = None
    # Standing raised for the run (:func:`stand_for_lookups`), the block holds still.
    held = motion.opened is not None
    if not held and motion.plan.mode != "corridor" and strips_over(motion.plan):
        place = _level_place(motion)
        if place is not None:
            motion.places[name] = place
            motion.held.add(name)
    positions = motion.output.positions
    # For the others to glide on from, or to land beside the raised block as well.
    stay = (place is not None or held) and len(positions) > 1
    return motion.lookup_one(positions[0], stay, paced=False, place=place)
