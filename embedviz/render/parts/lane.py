"""The token IDs waiting over E (SequenceLookup), and their walks down to its rows.

The chips stand in a row over E in the sentence's order, ``token IDs`` left
of them (:func:`~embedviz.render.parts.chips.stand_in_lane`; the solver's
:class:`~embedviz.render.solver_lane.Lane`). A chip steps down into the
travel band under the row, goes along it to the walking column and down that
to its row of E (:class:`LaneMotion`): it never crosses the output block, a
chip or a number. From its row it rides home with the strip to its tag's
place, as in :class:`~embedviz.render.parts.motion.LookupMotion`. Waiting
chips stand still while the blocks glide; a chip moves with the output block
once it has landed as its row's tag.
"""

from __future__ import annotations

import numpy as np
from manim import Mobject

from embedviz.render.metrics import xyz
from embedviz.render.parts.chips import Chip, curve_points
from embedviz.render.parts.motion import LookupMotion

__all__ = ["LaneMotion"]


class LaneMotion(LookupMotion):
    """:class:`LookupMotion` for chips that wait over E: down, along the band, down the column."""

    def landed_chips(self) -> set[int]:
        """Return the ids of the chips that stand as their rows' tags (their strips landed)."""
        return {id(carry.chip) for carry in self.carries if carry.landed}

    def output_side(self, shown: bool = False) -> list[Mobject]:
        """Return what moves with the output block: not the waiting chips, nor their label."""
        landed = self.landed_chips()
        waiting = {id(c) for c in self.chips.chips if id(c) not in landed}
        waiting.add(id(self.chips.heading))
        return [m for m in super().output_side(shown) if id(m) not in waiting]

    def chip_paths(
        self, row_index: int, chip: Chip, park: np.ndarray, lift: float = 0.0
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return a chip's way from the lane to its row (``park``), and back to its tag.

        Down into the travel band, along it to the walking column, down that
        to the row's right end; back as :meth:`LookupMotion.chip_paths` (riding
        its strip, or leading it home), to its tag's place beside the output row.
        """
        _, back = super().chip_paths(row_index, chip, park, lift)
        lane = self.plan.lane
        assert lane is not None
        start = chip.get_center()
        band = [xyz(start[0], lane.travel_y), xyz(park[0], lane.travel_y)]
        return curve_points([start, *band, park], self.radius), back
