"""The token IDs waiting in a lane under the raised output block (PositionBlindness; issue 18).

Where the block stands raised from the intro for the strips' road
(:func:`~embedviz.render.parts.first_level.stand_for_lookups`), the chips
waiting beside its rows left the room under it empty: 20.7 % of the frame at
the intro's end, over the eighth issue 18 allows. They wait instead in a row
under the block, clear of the strips' road, in the sentence's order, ``token
IDs`` left of them (as SequenceLookup's wait over E, :mod:`.lane`). A chip
steps down into a band under the lane, goes along it to the walking column
and up that to its row of E: under the block, never through its still-empty
rows. It rides home with its strip as before. The heading fades as the last
chip leaves the lane (:func:`~embedviz.render.parts.lane_close.fade_as_they_leave`)
and a copy comes back over the tags' column, riding home with the block.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from manim import Animation, AnimationGroup, Mobject, Succession, VGroup

from embedviz.render.animations import make_deferred_animation
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import SPACE
from embedviz.render.fades import FadeInRiding
from embedviz.render.metrics import xyz
from embedviz.render.parts.chips import Chip, curve_points, stand_in_lane
from embedviz.render.parts.glide import Glide
from embedviz.render.parts.lane_close import fade_as_they_leave
from embedviz.render.parts.motion import LookupMotion
from embedviz.render.space import largest_empty_rectangle
from embedviz.story.model import Beat

if TYPE_CHECKING:
    from embedviz.render.parts.lookup import ChipColumn

__all__ = ["WaitingMotion", "lane_steps", "wait_under"]

# Lane heights tried between the strips' road and the caption band.
_TRIES = 24


class WaitingMotion(LookupMotion):
    """:class:`LookupMotion` whose chips may wait in a lane under the block (:func:`wait_under`)."""

    line: float | None = None  # the lane's centre line, once the chips wait there
    home: np.ndarray | None = None  # the heading's place over the tags of the raised block
    drop = 0.0  # how far the block glides down, home, once the lookups are over
    apart = False  # the heading stands apart from the block (in the lane, or faded)

    def waiting(self) -> set[int]:
        """Return the ids of the chips standing on the lane's line (not yet walked)."""
        if self.line is None:
            return set()
        landed = {id(carry.chip) for carry in self.carries if carry.landed}
        return {
            id(c)
            for c in self.chips.chips
            if id(c) not in landed and abs(float(c.get_center()[1]) - self.line) < 1e-3
        }

    def output_side(self, shown: bool = False) -> list[Mobject]:
        """Return what moves with the output block: not the waiting chips, nor their heading."""
        apart = self.waiting() | ({id(self.chips.heading)} if self.apart else set())
        return [m for m in super().output_side(shown) if id(m) not in apart]

    def before_beat(self, beat: Beat) -> None:
        """Once the lookups are over, the heading moves with the block again."""
        super().before_beat(beat)
        if beat.action not in ("intro", "lookup_all"):
            self.apart = False

    def chip_paths(
        self, row_index: int, chip: Chip, park: np.ndarray, lift: float = 0.0
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return a waiting chip's way along the lane, then up the walking column to ``park``."""
        there, back = super().chip_paths(row_index, chip, park, lift)
        if self.line is None or id(chip) not in self.waiting():
            return there, back
        start = chip.get_center()
        # Down into a band under the lane (clear of the heading and the other chips), along it.
        y = self.line - float(chip.height) - SPACE
        legs = [start, xyz(start[0], y), xyz(park[0], y), park]
        return curve_points(legs, self.radius), back


def wait_under(motion: WaitingMotion, title: Mobject, intro: Sequence[Mobject]) -> bool:
    """Stand the chips in a lane under the raised block where that leaves the least empty.

    Between the strips' road (the lowest source row of E, a ``SPACE`` clear)
    and the caption band (a chip's height and a ``SPACE`` clear, for a band
    under the lane), right-aligned with the tags. Returns whether they stand so.
    """
    chips: ChipColumn = motion.chips
    if motion.opened is None or len(chips.chips) < 2:
        return False
    grid = motion.matrix.grid
    sources = [int(motion.cells[("token_id", p)].value) for p in motion.output.positions]
    road = min(float(grid.row_y(r)) for r in sources) - motion.plan.sizes.row_height / 2
    block = float(motion.output.grid.body.get_bottom()[1])
    band = content_band(title)
    h = float(chips.chips[0].height)
    top = min(road, block) - SPACE - h / 2
    bottom = band[1] + SPACE * 2 + h * 1.5
    if top < bottom:
        return False
    right = float(VGroup(*chips.chips).get_right()[0])
    # Where the heading stands over the tags of the raised block.
    home = chips.heading.get_center().copy()
    moved = [*chips.chips, chips.heading]
    still = mobject_boxes([m for m in intro if all(m is not n for n in moved)])
    best: tuple[float, float] | None = None
    for k in range(_TRIES + 1):
        y = top - (top - bottom) * k / _TRIES
        stand_in_lane(chips.chips, chips.heading, y, right)
        area = largest_empty_rectangle([*still, *mobject_boxes(moved)], band).area
        if best is None or area < best[0] - 1e-9:
            best = (area, y)
    assert best is not None
    stand_in_lane(chips.chips, chips.heading, best[1], right)
    motion.line, motion.home, motion.apart = best[1], home, True
    motion.drop = float(motion.opened[0])
    return True


def lane_steps(motion: WaitingMotion, first: Animation, rest: Animation) -> list[Animation]:
    """Return the lookups' two steps, the heading leaving with the last chip, back with the block.

    It fades as the last chip leaves the lane
    (:func:`~embedviz.render.parts.lane_close.fade_as_they_leave`) and fades in
    over the tags' column as the block glides home (the rest's last part).
    """
    if motion.line is None or motion.home is None:
        return [first, rest]
    parts = [list(s.animations) if isinstance(s, Succession) else [s] for s in (first, rest)]
    heading = motion.chips.heading
    steps = fade_as_they_leave(
        motion.host, heading, motion.chips.chips, motion.line, [*parts[0], *parts[1]]
    )
    head, tail = steps[: len(parts[0])], steps[len(parts[0]) :]
    # A copy comes back: the faded one leaves the scene as the beat's play ends.
    back_heading = motion.chips.heading = heading.copy().move_to(motion.home)

    def placed() -> Animation:
        # Over the tags it rides down with the block (standing still, the tags passed it).
        run = float(last.get_run_time())
        down = Glide(lambda: [back_heading], -motion.drop, run_time=run)
        return AnimationGroup(FadeInRiding(back_heading, run_time=run), down)

    last = tail[-1]
    back = make_deferred_animation(
        placed, float(last.get_run_time()), touches=lambda: [back_heading]
    )
    return [Succession(*head), Succession(*tail[:-1], AnimationGroup(last, back))]
