"""A title glides to its new place while one legend gives way to another, never unkeyed.

Used by PositionStage at ``arrange``: the first arrangement's legend (over E,
or where it rested) leaves, and the second arrangement's, in the title band
right of the title, comes. The rows stay coloured by value throughout, so one
legend stands at every moment: the two cross-fade (the one fading in is at
least half drawn when the other is at most half). The second may only come
where the gliding title has left: a longer translated title, centred in the
first arrangement, reached into its place (test_words: «THE LOOKUP KNOWS
WHICH TOKEN, NOT WHERE» over «VALUE COLOUR»), so the cross-fade starts once
the title is clear of it, and the rows set off only once the first legend,
if in their way, has gone. Where the two legends overlap, the first becomes
the second rather than fading over it. Where the first stands in the title
band already (GPT-2 size: both at the top right), there is no second
(:func:`sums_key`): the first stays where it stood. Nor where the first can
stay over E with the second arrangement laid out under it (the default:
:mod:`~embedviz.render.parts.legend_home`); the title then stays too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Mobject,
    ReplacementTransform,
    Succession,
    Transform,
    UpdateFromAlphaFunc,
    Wait,
)
from manim.utils.rate_functions import smooth

from embedviz.render.fades import FadeIn, FadeOut
from embedviz.render.metrics import xyz
from embedviz.render.parts.glide import glide_floor
from embedviz.render.parts.legend import Legend, band_legend

if TYPE_CHECKING:
    from embedviz.render.design import Theme
    from embedviz.render.solver import LookupPlan
    from embedviz.render.solver_positions import PositionPlan
    from embedviz.story.model import NumberCell, Storyboard

__all__ = ["SWAP_SECONDS", "cleared_at", "met_at", "sums_key", "swap_keys"]

# Seconds the two legends take to cross-fade (the matrix's fade).
SWAP_SECONDS = 0.5
# Samples of a glide when finding where it clears a place.
_SAMPLES = 40


def _corners(mobject: Mobject) -> tuple[np.ndarray, np.ndarray]:
    """Return a mobject's lower left and upper right corners (x, y)."""
    return mobject.get_corner(xyz(-1, -1))[:2], mobject.get_corner(xyz(1, 1))[:2]


def cleared_at(start: Mobject, end: Mobject, place: Mobject) -> float:
    """Return the share of a smooth glide after which it stays clear of ``place``.

    The glide goes from ``start``'s box to ``end``'s (the title band's rule
    keeps a title clear of its legend, if only just), its corners moving as
    a :class:`~manim.ReplacementTransform` moves them; sampled every
    fortieth. 0 when it never meets ``place``, 1 when it ends on it.

    Examples
    --------
    >>> from manim import Square
    >>> a, b, c = Square(0.2).shift(xyz(-1, 0)), Square(0.2).shift(xyz(1, 0)), Square(0.2)
    >>> 0.5 < cleared_at(a, b, c) < 1.0, cleared_at(a, a.copy(), c)
    (True, 0.0)
    """
    (low0, high0), (low1, high1) = _corners(start), _corners(end)
    low, high = _corners(place)
    last = -1
    for k in range(_SAMPLES + 1):
        s = smooth(k / _SAMPLES)
        a, b = low0 + (low1 - low0) * s, high0 + (high1 - high0) * s
        if np.all(a < high) and np.all(b > low):
            last = k
    return 0.0 if last < 0 else min(1.0, (last + 1) / _SAMPLES)


def met_at(movers: Sequence[Mobject], offset: np.ndarray, still: Mobject) -> float:
    """Return the share of a smooth glide at which what it moves first meets ``still``.

    ``movers`` (as they stand) go by ``offset``; 1 when they never meet it.
    Sampled every fortieth.
    """
    low, high = _corners(still)
    for k in range(_SAMPLES + 1):
        moved = np.asarray(offset)[:2] * smooth(k / _SAMPLES)
        for mover in movers:
            a, b = _corners(mover)
            if np.all(a + moved < high) and np.all(b + moved > low):
                return k / _SAMPLES
    return 1.0


def sums_key(
    cells: Mapping[tuple[str, tuple[int, ...]], NumberCell],
    board: Storyboard,
    theme: Theme,
    first: LookupPlan,
    second: PositionPlan,
) -> Legend | None:
    """Return the second arrangement's legend, in its title band's right; None if E's stays.

    The token vectors, P and the sums stay coloured by value, so their key
    stands as long as they do (a 720p review: it left with E). Where E's
    own legend stands in the title band already (GPT-2 size), that one
    stays where it first stood: the second, a size bigger, took its place at
    ``arrange`` (test_legend_place). None, too, without legend cells.
    """
    if not first.legend_left:
        return None
    place = (second.legend_x, second.legend_y)
    scale = second.scale.legend
    return band_legend(cells, board, theme, scale, second.legend_stacked, place)


def _titled(legend: Legend, opacity: float, shown: bool) -> Animation:
    """Fade a legend's title in (``shown``) or out, in place; the legend is what plays."""

    def fade(_: Mobject, alpha: float) -> None:
        legend.title.set_fill(opacity=opacity * (alpha if shown else 1 - alpha))

    return UpdateFromAlphaFunc(legend, fade, run_time=SWAP_SECONDS / 2)


def _become(leaving: Legend, coming: Legend) -> Animation:
    """Turn one legend into the other where they overlap: its title goes, then comes again.

    Moved whole, a legend's title passed over its own swatches (beside them
    in one, over them in the other): the bar and ticks glide and the title
    fades out before and in after. ``leaving`` takes ``coming``'s shape and
    place and stays (``coming`` never shows).
    """
    shown = float(coming.title.get_fill_opacity())
    target = coming.copy()
    target.title.set_fill(opacity=0.0)
    return Succession(
        _titled(leaving, float(leaving.title.get_fill_opacity()), False),
        Transform(leaving, target, run_time=SWAP_SECONDS),
        _titled(leaving, shown, True),
    )


def swap_keys(
    titles: tuple[Mobject, Mobject],
    keys: tuple[Legend | None, Legend | None],
    rows: Animation,
    movers: tuple[Sequence[Mobject], np.ndarray],
    lead: float,
) -> Animation:
    """Glide the title and cross-fade the legends while the rows glide to their new place.

    Parameters
    ----------
    titles
        The title as it stands and as it ends: it glides for
        :func:`~embedviz.render.parts.glide.glide_floor` of its way.
    keys
        The legend that leaves and the one that comes: they cross-fade over
        :data:`SWAP_SECONDS` from the moment the title has left the coming
        one's place (at once when it never stood there); where the two
        overlap, the leaving one becomes the coming one instead.
    rows
        The rows' glide, with what rides on it.
    movers
        What that glide moves (as it stands) and by how much.
    lead
        When the rows set off, in seconds, or later: the leaving legend must
        have gone before anything they move reaches it.
    """
    (old, title), (leaving, coming) = titles, keys
    way = title.get_center() - old.get_center()
    seconds = glide_floor(float(way[0]), float(way[1]))
    retitle = ReplacementTransform(old, title, run_time=seconds)
    if coming is None:
        return AnimationGroup(retitle, Succession(Wait(run_time=lead), rows))
    clear = cleared_at(old, title, coming) * seconds
    fades = [FadeIn(coming), *([FadeOut(leaving)] if leaving is not None else [])]
    change: Animation = AnimationGroup(*fades, run_time=SWAP_SECONDS)
    if leaving is not None and met_at([leaving], np.zeros(2), coming) < 1:
        # Where they overlap, cross-fading drew two keys over each other: one becomes the other.
        change = _become(leaving, coming)
    swap = Succession(Wait(run_time=clear), change)
    if leaving is not None:
        met = met_at(movers[0], movers[1], leaving) * float(rows.get_run_time())
        lead = max(lead, clear + float(change.get_run_time()) - met)
    return AnimationGroup(retitle, swap, Succession(Wait(run_time=lead), rows))
