"""The batch layout's thread of motion: :class:`BatchMotion` (BatchLookup).

The lookup family's :class:`~embedviz.render.parts.motion.LookupMotion` with
the chips' ways out of the block of chips over E
(:class:`~embedviz.render.parts.batch.BatchChips`) and into the stack of
slices (:class:`~embedviz.render.parts.batch.SliceStack`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from manim import Animation, AnimationGroup, Mobject, VMobject, Wait

from embedviz.render.animations import make_deferred_animation
from embedviz.render.batch_plan import BatchPlan
from embedviz.render.metrics import xyz
from embedviz.render.pace import at_least
from embedviz.render.parts.batch import BatchChips, SliceStack
from embedviz.render.parts.chips import Chip, curve_points
from embedviz.render.parts.glide import Glide, glide_floor
from embedviz.render.parts.motion import LookupMotion

__all__ = ["BatchMotion"]


class BatchMotion(LookupMotion):
    """The lookups of a batch: a chip leaves its row of the block by its lane, walks to its row.

    On its way back it rides at the right end of its row's strip, into its
    slice's row, where the chip stays as the row's tag.

    In the corridor arrangement the slices may rest beside E, as the lookup's
    block does (:meth:`rest`, :meth:`rest_matrix`): the stack (with the tags
    that landed) glides out for a beat's strips and back; E glides with the
    chips still waiting over it, and the block of chips keeps its shape.
    """

    # How far :meth:`close_left` glides E and the stack (0 until it is built).
    matrix_slide_closed = 0.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The chips that have left the block (their lookups are built).
        self.gone: set[int] = set()
        # How far right of E's side the stack stands once every row is in, E at its place
        # (:meth:`close_for_good`): it closes that far with the notes (:meth:`close_left`).
        self.apart = 0.0

    def _stack(self) -> SliceStack:
        assert isinstance(self.output, SliceStack)
        return self.output

    def _batch_chips(self) -> BatchChips:
        assert isinstance(self.chips, BatchChips)
        return self.chips

    def _waiting(self) -> list[int]:
        """Return the chips still over E: their place shown, their walk not yet begun.

        A chip has left from the start of the play its walk begins in
        (:meth:`leaving`), not before: the glide that opens its beat moves it
        with E; all have once the block has given way to E (their places are
        off screen).
        """
        shown = {id(m) for top in self.host.mobjects for m in top.get_family()}
        chips = self._batch_chips()
        return [i for i, slot in enumerate(chips.slots) if id(slot) in shown and i not in self.gone]

    def output_side(self, shown: bool = False) -> list[Mobject]:
        """Return the stack: slices, headers, row numbers, edges, notes, the tags that landed."""
        stack = self._stack()
        side: list[Mobject] = [*stack.slices, *stack.headers, *stack.row_numbers]
        side += [stack.edge_d, stack.edge_t, stack.edge_b, stack.placeholder, stack.notes]
        side += [m for m in (stack.shape, stack.question) if m is not None]
        side += stack.underlines
        if shown:
            waiting = set(self._waiting())
            side += [c for i, c in enumerate(self.chips.chips) if i not in waiting]
        for carry in self.carries:
            if carry.landed or not shown:
                side += [*carry.targets, *carry.strip[2].submobjects]
        return self._on_screen(side) if shown else side

    def matrix_side(self, shown: bool = False) -> list[Mobject]:
        """Return E (grid, heading, note) and the block: its edges, places, chips waiting."""
        chips = self._batch_chips()
        side = super().matrix_side()
        side += [chips.batch_label, chips.length_label]
        waiting = self._waiting() if shown else range(len(chips.chips))
        side += [chips.chips[i] for i in waiting]
        side += [*chips.slots]
        return self._on_screen(side) if shown else side

    def rest_matrix(self, slide: float) -> None:
        """Rest E and the block of chips ``slide`` right of their places (the chips' homes too)."""
        super().rest_matrix(slide)
        chips = self._batch_chips()
        chips.homes = [home + xyz(slide, 0) for home in chips.homes]

    def rest(self, drop: float, slide: float = 0.0) -> None:
        """Rest the stack ``slide`` left of its place (the chips wait over E: homes stay)."""
        for mobject in self.output_side():
            mobject.shift(xyz(-slide, -drop))
        self.lift += drop
        self.slide += slide

    def parted_homes(self, lift: float, slide: float, matrix_slide: float) -> np.ndarray:
        """Return how far the chips' homes stand from their rest while parted: left, with E."""
        return xyz(-matrix_slide, 0)

    def parted(self, mobjects: list[VMobject]) -> list[VMobject]:
        """Stand what the stack shows next (built where it rests) where it stands parted, if so.

        A new slice's header comes with its sequence's first lookup beat: by
        then the run may have kept the stack parted since an earlier beat.
        """
        if self.rebased and self.opened is not None:
            lift, slide, _ = self.opened
            for mobject in mobjects:
                mobject.shift(xyz(slide, lift))
        return mobjects

    def close_for_good(self) -> float:
        """Return how far the stack closes left once every row is in, where the run kept it parted.

        The last lookup beat leaves E and the stack parted (at the solver's
        places): E stays at its place (it rises there), and the stack glides
        back to its rest beside E's rest; the rest of the way, to E where it
        stands, it goes with the notes (:meth:`close_left`). Closing all the
        way at once left the frame's right side empty until the notes came
        (19.3 % of it at GPT-2's size, 3 × 6).
        """
        if self.opened is None:
            return 0.0
        assert self.rebased, "the last lookup beat stays parted"
        _, slide, matrix_slide = self.opened
        self.opened, self.rebased = None, False
        self.slide += slide
        self.apart += matrix_slide
        return slide

    def close_left(self) -> Animation | None:
        """Glide E and the stack left together until E stands at its place (no strip travels).

        The notes come right of the stack then, where E's rest left room. E
        that stands at its place already (:meth:`close_for_good`) stays; the
        stack glides on to it alone. Slowly enough to follow: the beat gives it
        at least :func:`glide_floor`.
        """
        slide = self.matrix_slide_closed = self.matrix_slide + self.apart
        if slide <= 0:
            return None
        glides = [Glide(lambda: self.output_side(shown=True), 0.0, -slide)]
        if self.matrix_slide > 0:
            glides.append(Glide(lambda: self.matrix_side(shown=True), 0.0, -self.matrix_slide))
        self.matrix_slide, self.apart, self.slide = 0.0, 0.0, self.slide + slide
        return at_least(AnimationGroup(*glides), glide_floor(slide, 0.0))

    def leaving(self, row_index: int) -> list[Animation]:
        """Return the chip's leaving (nothing drawn): it leaves its place's outline behind.

        The chip travels (the one object for its ID, digits and all) and
        becomes its output row's tag; its place keeps its outline, dimmed to
        3:1 against the ground (drawn under the chip from the start), so the
        block keeps the input's B × T shape with its B and T edges until
        every row is in and E rises into the block's place
        (:func:`~embedviz.render.batch_close.all_in`). A lecture-hall review
        (issue 18) saw the places and edges go with their chips; a later one
        counted each used ID twice while its digits stayed written, dimmed,
        in its place too: one ID, one object, one place.
        """

        def left() -> Animation:
            self.gone.add(row_index)
            return Wait()

        # Noted as the walk begins (built then), changing nothing on screen: a glide
        # earlier in the beat still moves the chip with E.
        return [make_deferred_animation(left, run_time=1e-3, touches=list)]

    def output_row_y(self, row_index: int) -> float:
        """Return the centre line of an output row: row ``t`` of its slice (slices never rise)."""
        return self.plan.output_row_y(row_index)

    def clear_here(self, targets: Sequence[int]) -> tuple[int, ...] | None:
        """Return None: strips go where the solver put the slices (its order keeps paths clear)."""
        return None

    def chip_paths(
        self, row_index: int, chip: Chip, park: np.ndarray, lift: float = 0.0
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return the way out of the block (to its lane, along it) and back to the row's tag.

        The chip leaves once E (and the chip with it) has glided to its place,
        and docks at its row's right end. Its way back rides at its strip's
        right end, where it docked (:meth:`strip_lag` is 0): out of the row
        level with it, up or down beside the strip, and into the output row
        ahead of it to its tag. So from its row to its tag the chip stands
        against the row it fetched, in E and then travelling: one glance
        reads chip and row together (a 720p review of lookup-0-0, where the
        chip led the strip home by its own way, read it as waiting 130 to
        400 px right of its row, in empty space). The tags' column it rides
        in holds only tags that landed, above the rows a strip passes.
        """
        plan = self.plan
        assert isinstance(plan, BatchPlan)
        home = self.chips.homes[row_index] + xyz(-self.matrix_slide, lift)
        lane = plan.lane_y(row_index // plan.length) + lift
        there = curve_points([home, xyz(home[0], lane), xyz(park[0], lane), park], self.radius)
        target = plan.output_row_y(row_index) + lift
        tag = xyz(plan.tag_x(chip.width), target)
        # The strip leaves from E's row (its right edge at the walking column's left).
        ahead = xyz(park[0] - (plan.column_left - plan.body_width / 2), 0)
        ride = [p + ahead for p in plan.strip_path(float(park[1]), target)]
        return there, np.array([park, *ride, tag])

    def strip_lag(self, row_index: int, source_y: float, lift: float) -> float:
        """Return 0: the chip rides with its strip (see :meth:`chip_paths`)."""
        return 0.0
