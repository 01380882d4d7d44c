"""Animation factories: each returns one Animation for one kind of beat.

They move small things (a chip, a row's few numbers, a caption) rather than
fading whole grids in and out, because manim's cost per animation grows with
the size of the mobjects it copies and interpolates.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    ReplacementTransform,
    Scene,
    Succession,
    Transform,
    VGroup,
    VMobject,
)
from manim.animation.animation import prepare_animation

from embedviz.render.glyphs import NumberText
from embedviz.render.mobjects import MatrixGrid, TokenChip
from embedviz.render.theme import DARK, Theme

__all__ = [
    "make_caption_animation",
    "make_copy_row_animation",
    "make_count_rows_animation",
    "make_dim_rows_animation",
    "make_lookup_animation",
    "make_return_animation",
    "make_reveal_animation",
    "make_walk_animation",
]


def make_caption_animation(old: VMobject | None, new: VMobject) -> Animation:
    """Swap the narration line: the old one fades out as the new one fades in."""
    if old is None:
        return FadeIn(new, run_time=0.5)
    # One after the other: two sentences overlapping for a moment are unreadable.
    return Succession(_FadeOutAndVanish(old, run_time=0.25), FadeIn(new, run_time=0.35))


class _FadeOutAndVanish(FadeOut):
    """Fade out, then drop the outline at once.

    manim removes a faded mobject only when the whole play ends; until then it
    would be drawn, invisibly, on every remaining frame of the beat.
    """

    def interpolate(self, alpha: float) -> None:
        super().interpolate(alpha)
        if alpha >= 1:
            for part in self.mobject.family_members_with_points():
                part.set_points(np.zeros((0, 3)))

    def clean_up_from_scene(self, scene: Scene) -> None:
        # FadeOut would restore the mobject for reuse; a caption is never reused.
        scene.remove(self.mobject)  # type: ignore[arg-type]  # a Mobject under Cairo


def make_reveal_animation(
    appearing: Sequence[VMobject], leaving: Sequence[VMobject] = ()
) -> Animation:
    """Fade small pieces in (and others out) together."""
    animations: list[Animation] = [FadeIn(mobject) for mobject in appearing]
    animations += [FadeOut(mobject) for mobject in leaving]
    return AnimationGroup(*animations)


def _move(
    mobject: VMobject, point: np.ndarray, run_time: float, opacity: float | None = None
) -> Animation:
    """Move to an absolute point (and fade), safe to chain on one mobject.

    Chained ``mobject.animate`` calls would share ``mobject.target``, so every
    step of a path built in advance would head for the last point.
    """
    target = mobject.copy().move_to(point)
    if opacity is not None:
        target.set_opacity(opacity)
    return Transform(mobject, target, run_time=run_time)


# How far above the input line chips travel, clear of the labels beside it.
_LANE_RISE = 0.5


def make_walk_animation(chip: TokenChip, grid: MatrixGrid, row: int) -> Animation:
    """Walk a token chip to park beside its zero-based row.

    It rises out of the input line, travels above everything, and comes down
    the lane left of the row numbers, so it never passes over a cell or label.
    """
    start = chip.get_center()
    anchor = grid.row_anchor(row, chip.width)
    lane = start[1] + _LANE_RISE
    return Succession(
        _move(chip, np.array([start[0], lane, 0.0]), 0.2),
        _move(chip, np.array([anchor[0], lane, 0.0]), 0.4),
        _move(chip, anchor, 0.4),
    )


def make_return_animation(
    chip: TokenChip, start: np.ndarray, home: Sequence[float] | np.ndarray
) -> Animation:
    """Send a chip from ``start`` back to its place in the input line, dimmed.

    Targets are absolute, so this can be built before the chip has moved.
    """
    lane = home[1] + _LANE_RISE
    return Succession(
        _move(chip, np.array([start[0], lane, 0.0]), 0.3),
        _move(chip, np.array([home[0], lane, 0.0]), 0.3),
        _move(chip, np.asarray(home), 0.2, opacity=0.55),
    )


def make_copy_row_animation(grid: MatrixGrid, row: int, targets: Sequence[NumberText]) -> Animation:
    """Fly copies of a row's numbers into their output cells.

    Parameters
    ----------
    grid
        The matrix.
    row
        The row being copied.
    targets
        The output numbers, one per drawn column, already positioned; each
        replaces its flying copy at the end.

    Returns
    -------
    Animation
        One transform per number (a handful of glyphs each).
    """
    sources = grid.row_cells(row)
    return AnimationGroup(
        *[
            ReplacementTransform(source.copy(), target)
            for source, target in zip(sources, targets, strict=True)
        ],
        lag_ratio=0.08,
        run_time=1.2,
    )


def make_lookup_animation(
    chip: TokenChip,
    home: Sequence[float] | np.ndarray,
    grid: MatrixGrid,
    row: int,
    targets: Sequence[NumberText],
    theme: Theme = DARK,
) -> Animation:
    """Walk a chip to its row, copy the row out, send the chip back dimmed.

    Parameters
    ----------
    chip
        The token's chip.
    home
        Where the chip rests in the input line.
    grid
        The matrix.
    row
        The zero-based row the ID selects.
    targets
        The output numbers the row's copy becomes.
    theme
        Colours.

    Returns
    -------
    Animation
        A succession: walk and highlight, copy, return.
    """
    box = grid.row_box(row, theme)
    return Succession(
        AnimationGroup(make_walk_animation(chip, grid, row), Create(box)),
        make_copy_row_animation(grid, row, targets),
        AnimationGroup(
            make_return_animation(chip, grid.row_anchor(row, chip.width), home), FadeOut(box)
        ),
    )


def make_count_rows_animation(grid: MatrixGrid, row: int) -> Animation:
    """Pulse the row numbers from 0 up to ``row``, counting from zero."""
    labels = [grid.row_labels[r] for r in sorted(grid.row_labels) if r <= row]
    return LaggedStart(*[Indicate(label, scale_factor=1.6) for label in labels], lag_ratio=0.5)


def make_dim_rows_animation(grid: MatrixGrid, rows: Sequence[int]) -> Animation:
    """Fade the rows that no ID selected."""
    if not rows:
        return Indicate(VGroup(*grid.row_labels.values()), scale_factor=1.0)
    animations = [
        # manim types `.animate` as `_AnimationBuilder | Self` so that chained calls
        # type-check; at runtime it is the builder, built here as AnimationGroup would.
        prepare_animation(grid.row_group(r).animate.set_opacity(0.28))  # type: ignore[arg-type]
        for r in rows
    ]
    return AnimationGroup(*animations)
