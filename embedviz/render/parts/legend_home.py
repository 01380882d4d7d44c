"""Where a lookup's legend stays for a scene that keys a second arrangement with it.

Used by PositionStage: E's legend, over E, stays where it first stood through
both arrangements (issue 18, lecture-hall frames: it glided to the top centre
at ``same`` and left with E at ``arrange``, a second one coming at the top
right). So that the second arrangement can stand under it and still fill the
frame, it stands as high as it may (:func:`~.resting.legend_room`: a
``SPACE`` under the title), and as far right as it stays :data:`APART` from
the output block where the strips need it (the solver's place, which the
block glides up to while they travel): over E's right part and the corridor
it leaves less of the frame empty over the block beside it (the default's
``same``: 17.0 % over E's right edge, 11.6 % here).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from manim import RIGHT, Mobject, config

from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import APART, MIN_DATA_PX, MIN_DEFAULT_DATA_PX, SPACE, font_for_px
from embedviz.render.metrics import digit_height, xyz
from embedviz.render.parts.motion import LookupMotion
from embedviz.render.parts.resting import legend_across, legend_room
from embedviz.render.solver import LookupPlan, solve_lookup
from embedviz.render.solver_bands import band_legend_height
from embedviz.render.solver_fill import FILL_AIM
from embedviz.render.solver_positions import PositionPlan, PositionSpec, solve_positions
from embedviz.render.space import EMPTY_SHARE, Box, box_union, largest_empty_rectangle
from embedviz.render.spec import LookupSpec
from embedviz.render.type_search import legend_height

__all__ = [
    "band_pays",
    "first_plan",
    "heading_in_room",
    "keep_band_legend",
    "keep_legend",
    "legend_home",
]


def legend_home(motion: LookupMotion, title: Mobject, shown: Sequence[Mobject]) -> Box | None:
    """Return the legend's box where it stays: up and right as far as it may; None if none.

    None without a legend, or where that place leaves more of the intro's
    frame empty than :data:`~embedviz.render.space.EMPTY_SHARE` and than
    where the legend rests (``{"ids": "3,3"}``: over a short output block
    it fills the corridor's middle; at the top it left 22.7 % empty).

    Parameters
    ----------
    motion
        The lookup's motion: its matrix holds the legend; the output block
        rests ``motion.lift`` under, and ``motion.slide`` left of, its place.
    title
        The title: the legend keeps under it.
    shown
        What stands at the intro (the legend and the title may be among them).
    """
    legend = motion.matrix.legend
    box = box_union(mobject_boxes([legend])) if legend is not None else None
    if legend is None or box is None:
        return None
    band = content_band(title)
    drawn = mobject_boxes(shown, [legend, title])
    _, up = legend_room(box, drawn, band)
    home = (box[0], box[1] + up, box[2], box[3] + up)
    # The block where the strips need it: the legend keeps apart from it there too.
    placed = [
        (b[0] + motion.slide, b[1] + motion.lift, b[2] + motion.slide, b[3] + motion.lift)
        for b in mobject_boxes(motion.output_side())
    ]
    level = [b for b in placed if b[1] < home[3] + SPACE and b[3] > home[1] - SPACE]
    right = min([b[0] - APART for b in level if b[0] >= home[2]], default=float("inf"))
    across = max(0.0, min(legend_across(home, drawn, band)[1], right - home[2]))
    home = (home[0] + across, home[1], home[2] + across, home[3])
    now = largest_empty_rectangle([*drawn, box], band).area
    then = largest_empty_rectangle([*drawn, home], band).area
    limit = EMPTY_SHARE * float(config.frame_width * config.frame_height)
    return home if then <= max(limit, now) + 1e-9 else None


def keep_legend(
    motion: LookupMotion,
    title: Mobject,
    shown: Sequence[Mobject],
    sums: PositionSpec,
    second: PositionPlan,
) -> PositionPlan | None:
    """Move the legend to its home and return the second arrangement laid out under it.

    None, the legend where it was, for a legend in the title band (it stays
    there: GPT-2 size), without a home (:func:`legend_home`), or where the
    second arrangement's numbers would come out under their floor under it
    (24 px, or 18 px where, under a legend of its own in its title band,
    ``second``, they stand under 24 px; else no smaller than there): eight
    tokens' rows. The default's come out 26.4 px tall, not 28.0: the
    arrangement is bound by its height and the legend reaches 0.27 units
    lower than a stacked one in the band.

    Parameters
    ----------
    motion, title, shown
        As for :func:`legend_home`.
    sums
        What the second arrangement holds.
    second
        Its plan with a legend of its own.
    """
    legend = motion.matrix.legend
    home = legend_home(motion, title, shown) if motion.plan.legend_left else None
    if legend is None or home is None:
        return None
    depth = float(config.frame_height) / 2 - home[1]
    kept = solve_positions(replace(sums, legend_title="", legend_depth=depth))
    # Smaller, but no smaller than their floor (24 px, or 18 where they were under 24).
    toy = second.scale.data >= font_for_px(MIN_DEFAULT_DATA_PX)
    floor = font_for_px(MIN_DEFAULT_DATA_PX if toy else MIN_DATA_PX)
    if kept.scale.data < min(floor, second.scale.data) - 1e-9:
        return None
    low = legend.get_corner(xyz(-1, -1))
    legend.shift(xyz(home[0] - float(low[0]), home[1] - float(low[1])))
    # Nothing in the title band changes, so the title stays as it stood: smaller numbers
    # set it smaller (a learned P's: 23.8 px, not 25.7; test_titles).
    first = motion.plan
    return replace(kept, title_font=first.title_font, title_x=first.title_x, title_y=first.title_y)


def keep_band_legend(
    motion: LookupMotion, title: Mobject, sums: PositionSpec, numbered: bool
) -> PositionPlan | None:
    """Return the second arrangement laid out under a legend that stands in the title band.

    The legend stands right of the title from the intro on and stays there
    (issue 18: a legend over E took the strip under the title that the
    second arrangement's rows could use; one that glides there mid-scene
    was rejected). The second arrangement keeps the title where it stood
    and the bands a ``SPACE`` under the legend's bottom. None where the
    legend does not stand in the band (or there is none).

    Parameters
    ----------
    motion
        The lookup's motion: its matrix holds the legend.
    title
        The title as the first arrangement sets it.
    sums
        What the second arrangement holds.
    numbered
        Whether P's rows keep their positions beside them, as under a legend
        over E (a larger font would drop them: the default's numbers 27.8 px
        tall without, 26.9 px with), where that keeps the numbers over their
        floor (24 px, or 18 px for numbers under 24 px without).
    """
    legend, first = motion.matrix.legend, motion.plan
    if legend is None or first.legend_left:
        return None
    bottom = min(float(legend.get_bottom()[1]), float(title.get_bottom()[1]))
    depth = float(config.frame_height) / 2 - bottom
    kept = _band_sums(sums, depth, numbered)
    return replace(kept, title_font=first.title_font, title_x=first.title_x, title_y=first.title_y)


def heading_in_room(motion: LookupMotion, title: Mobject) -> None:
    """Raise E's heading into the room over E, over E's right edge, for a legend in the band.

    The output block stands raised over E while the strips travel (their
    paths need it) and rests lower: the room over E, under the title band,
    then stood empty (a legend over E stood there; with it in the band, the
    lookup's and ``same``'s ends left 14.4 % and 14.6 % of the frame empty,
    across the frame over E and the block). E's heading stands in that room,
    its right edge over E's (left-aligned, the room right of it over the
    block still left 12.7 % at ``same``'s end), only as high as the strip
    across the frame over it needs to stay under the rule (as
    :func:`~embedviz.render.solver_fill.filled_pitch` aims), and no higher
    than the room's middle: a review read it, in the middle, as apart from
    its table (0.79 units over E's column numbers; now 0.52).
    """
    matrix = motion.matrix
    if matrix.legend is None or motion.plan.legend_left:
        return
    band = min(float(matrix.legend.get_bottom()[1]), float(title.get_bottom()[1]))
    heading = matrix.heading
    bottom, tall = float(heading.get_bottom()[1]), float(heading.height)
    strip = FILL_AIM * EMPTY_SHARE * float(config.frame_height)
    y = max(bottom + tall / 2, min((band + bottom) / 2, band - strip - tall / 2))
    heading.move_to(xyz(0, y)).align_to(xyz(matrix.grid.body_right(), 0), RIGHT)


def band_pays(banded: LookupPlan, over: LookupPlan, sums: PositionSpec) -> bool:
    """Return whether the legend stands in the title band from the start (``banded``).

    Where the second arrangement is bound by the frame's height, the strip
    under the title that a legend over E takes (a ``SPACE`` under the title,
    :func:`legend_home`) is its rows' room: in the band, the default's rows
    stand 0.485 units apart, not 0.425 (issue 18, lecture-hall frames). Not
    where its rows come out no looser for it (two tokens: ``{"ids": "3,3"}``,
    whose legend fills the room over a short output block), nor where its
    numbers would come out under 24 px and smaller than under a legend of its
    own (eight tokens: 15.9 px, not 16.7). A legend the lookup sets in the
    band anyway stays there.

    Parameters
    ----------
    banded, over
        The lookup's plan with the legend asked into the title band, and as it solves alone.
    sums
        What the second arrangement holds (with a legend of its own).
    """
    if not banded.scale.legend or banded.legend_left:
        return False
    if not over.legend_left:
        return True
    top = float(config.frame_height) / 2
    tall = band_legend_height(banded.scale, banded.legend_stacked, banded.legend_level)
    band = banded.legend_y - tall / 2
    title = over.title_y - digit_height(over.title_font) / 2
    strip = top - title + SPACE + legend_height(over.scale.legend)
    under, beside = (_band_sums(sums, depth, True) for depth in (top - band, strip))
    least = min(font_for_px(MIN_DEFAULT_DATA_PX), solve_positions(sums).scale.data)
    looser = under.sizes.row_height > beside.sizes.row_height + 1e-3
    return looser and under.scale.data >= least - 1e-9


def _band_sums(sums: PositionSpec, depth: float, numbered: bool) -> PositionPlan:
    """Return the second arrangement under a legend reaching ``depth`` under the frame's top.

    ``numbered``: P's rows keep their positions beside them where that keeps
    the numbers over their floor (:func:`keep_band_legend`).
    """
    kept = solve_positions(replace(sums, legend_title="", legend_depth=depth))
    if numbered and not kept.pe_label_left:
        toy = kept.scale.data >= font_for_px(MIN_DEFAULT_DATA_PX)
        floor = font_for_px(MIN_DEFAULT_DATA_PX if toy else MIN_DATA_PX)
        both = solve_positions(replace(sums, legend_title="", legend_depth=depth, pe_numbers=True))
        kept = both if both.scale.data >= floor - 1e-9 else kept
    return kept


def first_plan(spec: LookupSpec, sums: PositionSpec) -> tuple[LookupPlan, bool]:
    """Return the lookup's plan, the legend in the title band where that pays (:func:`band_pays`).

    Also whether the legend would stand over E otherwise: the second
    arrangement then keeps P's rows' positions (:func:`keep_band_legend`).
    """
    banded = solve_lookup(
        replace(spec, legend_in_band=True, legend_stacks=False, legend_level=True)
    )
    over = solve_lookup(spec)
    sums = replace(sums, title_font=banded.title_font)
    return (banded if band_pays(banded, over, sums) else over), over.legend_left
