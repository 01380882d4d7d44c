"""BatchLookup: the stack spreads down the frame once every row is in (a short stack).

With the block of chips gone, a short stack (the 3 x 2 batch in the default
6 x 3 table) and E left full-width bands empty above and under everything
(16.8 % and 17.2 % of the frame at the last lookup's and the shape's ends). Once
every row is in, the slices then move apart by ``gap`` each (the B edge grows
with them) and the stack by ``up`` (centred in the band), while E rises into
the block's place: :func:`choose_spread` picks them where the largest empty
area is smallest, :func:`spread_stack` plays them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from manim import Animation, Mobject, Transform

from embedviz.render.boxes import mobject_boxes
from embedviz.render.parts.batch import SliceStack
from embedviz.render.parts.batch_motion import BatchMotion
from embedviz.render.parts.motion import Glide
from embedviz.render.space import Box, best_drop

__all__ = ["choose_spread", "spread_stack"]

# Twentieths of the room, as E's rise.
STEPS = 20


def _shifted(boxes: Sequence[Box], dy: float) -> list[Box]:
    return [(b[0], b[1] + dy, b[2], b[3] + dy) for b in boxes]


def choose_spread(
    stack: SliceStack,
    fixed: Sequence[Box],
    moving: Sequence[Box],
    band: Box,
    drops: Sequence[float],
    frame: float,
    clear: Callable[[float, float], bool] | None = None,
) -> tuple[float, float, float, float] | None:
    """Return ``(area, rise, up, gap)``: E's rise, the stack's rise, the slices' gap.

    ``fixed`` is what stays (the legend), ``moving`` E's boxes; every gap that
    still lets the stack stand in the band is tried (in twentieths), the
    stack centred in the band, E at its best rise (:func:`best_drop`). With
    ``clear``, only the ``(up, gap)`` it accepts are tried, the stack off the
    band's centre by as little as it must be (None: none was).
    """
    count = len(stack.slices)
    parts = [mobject_boxes(stack.slice_parts(b)) for b in range(count)]
    parts[0] += mobject_boxes([stack.edge_d, stack.edge_t])
    top = max(b[3] for boxes in parts for b in boxes)
    bottom = min(b[1] for boxes in parts for b in boxes)
    edge = mobject_boxes([stack.edge_b])
    most = (band[3] - band[1] - (top - bottom)) / max(count - 1, 1)
    best: tuple[float, float, float, float] | None = None
    for step in range(STEPS + 1):
        gap = most * step / STEPS
        low = bottom - gap * (count - 1)
        up = (band[3] + band[1]) / 2 - (top + low) / 2
        if clear is not None:
            # Off the centre, as little as lets every strip by (the band's room either way).
            room = (band[3] - band[1] - (top - low)) / 2
            ups = [up + room * k / STEPS * sign for k in range(STEPS + 1) for sign in (1, -1)]
            up = next((u for u in ups if clear(u, gap)), float("nan"))
            if up != up:
                continue
        boxes = [box for b in range(count) for box in _shifted(parts[b], up - gap * b)]
        boxes += [(b[0], b[1] + up - gap * (count - 1), b[2], b[3] + up) for b in edge]
        drop, empty = best_drop([*fixed, *boxes], moving, band, drops, frame)
        if best is None or empty.area < best[0] - 1e-9:
            best = (float(empty.area), -float(drop), float(up), float(gap))
    return best


def spread_stack(motion: BatchMotion, stack: SliceStack, up: float, gap: float) -> list[Animation]:
    """Return the glides that move slice ``b`` (with its rows, tags and marks) by ``up - gap * b``.

    The d and T edges go with slice 0, and the B edge grows to span the slices.
    """
    length = len(stack.positions) // len(stack.slices)
    moves: list[Animation] = []
    edge = stack.edge_b
    for b in range(len(stack.slices)):

        def gather(b: int = b) -> list[Mobject]:
            side: list[Mobject] = [*stack.slice_parts(b)]
            side += [stack.edge_d, stack.edge_t, stack.notes] if b == 0 else []
            for carry in motion.carries:
                chip = carry.chip
                if chip is None or not carry.landed:
                    continue
                index = next(i for i, c in enumerate(motion.chips.chips) if c is chip)
                if index // length == b:
                    side += [chip, *carry.targets, *carry.strip[2].submobjects]
            shown = {id(m) for top in motion.host.mobjects for m in top.get_family()}
            return [m for m in side if any(id(f) in shown for f in m.get_family())]

        moves.append(Glide(gather, up - gap * b))
    first, last = stack.slices[0].body[0], stack.slices[-1].body[0]
    top = float(first.get_top()[1]) + up
    bottom = float(last.get_bottom()[1]) + up - gap * (len(stack.slices) - 1)
    target = stack.b_edge_spanning(top, bottom)
    moves.append(Transform(edge, target, run_time=moves[0].run_time))
    return moves
