"""A chip's copy walks to its row, the row is copied, the copy goes home: the older stages' lookup.

BatchLookup used this before issue 18's port; PositionBlindness still does
(until its own port), so it lives here rather than in the batch stage.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import Animation, AnimationGroup, FadeIn, FadeOut, Mobject, Succession, Transform

from embedviz.render.animations import make_copy_row_animation
from embedviz.render.design import USED_CHIP_OPACITY
from embedviz.render.glyphs import NumberText
from embedviz.render.metrics import xyz
from embedviz.render.mobjects import MatrixGrid, TokenChip
from embedviz.render.theme import Theme

__all__ = ["make_batch_lookup_animation"]


def _move(
    mobject: Mobject, point: np.ndarray, run_time: float, opacity: float | None = None
) -> Animation:
    """Move to an absolute point (and fade); safe to chain on one mobject."""
    target = mobject.copy().move_to(point)
    if opacity is not None:
        target.set_opacity(opacity)
    return Transform(mobject, target, run_time=run_time)


def _changed(mobject: Mobject, change: Callable[[Mobject], object]) -> Animation:
    """Animate ``mobject`` into a copy of itself that ``change`` altered."""
    target = mobject.copy()
    change(target)
    return Transform(mobject, target)


def make_batch_lookup_animation(
    chip: TokenChip,
    home: np.ndarray,
    lane_y: float,
    grid: MatrixGrid,
    row: int,
    targets: Sequence[NumberText],
    theme: Theme,
    route: Sequence[np.ndarray] = (),
    provenance: Sequence[Mobject] = (),
) -> Animation:
    """Send a chip's copy from its place to its row, copy the row, and back.

    The chip stays in place, outlined, while its copy rises to the lane at
    ``lane_y``, crosses to the lane left of the row numbers, and comes down
    beside its row; then the row's numbers travel to their output cells and
    the copy returns the same way and sinks into the chip, which dims.

    Parameters
    ----------
    chip
        The token's chip.
    home
        Where the chip rests.
    lane_y
        The height at which chips travel.
    grid
        The matrix.
    row
        The zero-based row the ID selects.
    targets
        The output numbers the row's copy becomes, already placed.
    theme
        Colours.
    route
        Waypoints of the copied strip (see :func:`make_copy_row_animation`).
    provenance
        Tags that fade in beside the landed row as the chip goes home.

    Returns
    -------
    Animation
        A succession: walk and highlight, copy, return.
    """
    anchor = grid.row_anchor(row, chip.width)
    # A Succession puts every part's mobject on screen when it starts, so a
    # later lookup's outline (and the travelling copy) starts transparent.
    box = grid.row_box(row, theme)
    shown = box.copy()
    box.set_stroke(opacity=0.0)
    lane_home = xyz(home[0], lane_y)
    traveller = chip.copy().move_to(lane_home).set_opacity(0.0)
    outline = chip[0].copy().set_fill(opacity=0.0).set_stroke(theme.text, width=3, opacity=0.0)
    walk = Succession(
        _move(traveller, lane_home, 0.25, opacity=1.0),
        _move(traveller, xyz(anchor[0], lane_y), 0.4, opacity=1.0),
        _move(traveller, anchor, 0.35, opacity=1.0),
    )
    back = Succession(
        _move(traveller, xyz(anchor[0], lane_y), 0.3, opacity=1.0),
        _move(traveller, lane_home, 0.3, opacity=1.0),
        FadeOut(traveller, run_time=0.2),
    )
    return Succession(
        AnimationGroup(
            walk,
            Transform(box, shown, run_time=0.6),
            _changed(outline, lambda o: o.set_stroke(opacity=1.0)),
        ),
        make_copy_row_animation(grid, row, targets, route, theme, keep_marks=bool(route)),
        AnimationGroup(
            back,
            FadeOut(box),
            FadeOut(outline),
            _changed(chip, lambda c: c.set_opacity(USED_CHIP_OPACITY)),
            *[FadeIn(tag) for tag in provenance],
        ),
    )
