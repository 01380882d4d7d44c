"""PositionBlindness's legend stands in the title band from the start, and the rows gain its strip.

Issue 18 (lecture-hall frames): from ``arrange`` on, the rows stood 0.425
units apart (38 px at 720p) against the lookup scenes' 0.686: the legend,
kept where it first stood over E, took the strip under the title that the
second arrangement could use. A legend that glides into the title band
mid-scene was rejected ("the legend stays where it first stood"). It now
stands right of the title, on its line, from the intro to the last beat,
and the second arrangement's rows take the freed height (0.485 units).
Its values then stood under its swatches, so the band was taller than the
title's line; set on the swatches' line (the 0 inside the middle swatch),
the legend is no taller than the title and the rows stand 0.50 apart.
E's heading, raised into the room over E where that legend stood, stood in
the room's middle, 0.76 units over its column numbers, and read as apart
from its table; it now stands only as high as the empty-area rule needs
(0.45). Read from the mobjects at every beat end of a dry run.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from boards import shared_board

CASES = {"sinusoid": {}, "learned": {"positions": "learned"}}
SECOND = ("arrange", "positions", "add", "differ")
# The rows' pitch from ``arrange`` on, in scene units: 0.425 under a legend over E,
# 0.485 under a legend with its values under its swatches.
LEAST_PITCH = 0.50
# How far E's heading may stand over its column numbers while E stands (0.76 in the
# middle of the room over E).
HEADING_AIR = 0.6
FIRST = ("intro", "lookup", "same")

Box = tuple[float, float, float, float]


def _box(mobject: Any) -> Box:
    low, high = mobject.get_corner([-1, -1, 0]), mobject.get_corner([1, 1, 0])
    return (float(low[0]), float(low[1]), float(high[0]), float(high[1]))


@functools.cache
def _ends(name: str) -> dict[str, tuple[Box | None, Box, float, float]]:
    """Per beat end: the drawn legend's box (None: none drawn), the title's, the rows' pitch,
    and how far E's heading stands over E's column numbers (its grid's top)."""
    from manim import VMobject

    from embedviz.render.moments import play_moments

    ends: dict[str, tuple[Box | None, Box, float, float]] = {}

    def read(scene: Any, moment: Any) -> None:
        stage = scene.stage
        family = {id(m) for top in scene.mobjects for m in top.get_family()}
        legends = [stage.matrix.legend, getattr(stage, "sums_legend", None)]
        drawn = [
            legend
            for legend in legends
            if legend is not None
            and id(legend) in family
            and any(
                isinstance(m, VMobject) and m.get_fill_opacity() > 0.05 for m in legend.get_family()
            )
        ]
        assert len(drawn) <= 1, moment.beat.name  # one key at a time
        second = moment.beat.name in SECOND
        pitch = (stage.sums_plan if second else stage.plan).sizes.row_height
        air = _box(stage.matrix.heading)[1] - _box(stage.matrix.grid)[3]
        legend = _box(drawn[0]) if drawn else None
        ends[moment.beat.name] = (legend, _box(stage.title), pitch, air)

    board = shared_board("PositionBlindness", CASES[name])
    play_moments(board, read, alphas=(), pixel_width=192, pixel_height=108)
    return ends


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_legend_stands_in_the_title_band_at_every_beat_end(name: str) -> None:
    """One legend, in one place at every beat end: right of the title, level with its line."""
    ends = _ends(name)
    places = {legend for legend, _, _, _ in ends.values()}
    assert len(places) == 1, places
    (legend,) = places
    assert legend is not None
    for beat, (_, title, _, _) in ends.items():
        assert legend[0] > title[2], beat  # right of the title
        # On the title's line: it spans the title's middle height.
        assert legend[1] < (title[1] + title[3]) / 2 < legend[3], (beat, legend, title)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_rows_take_the_legends_strip_from_arrange_on(name: str) -> None:
    """The second arrangement's rows stand at least 0.50 units apart (45 px at 720p)."""
    ends = _ends(name)
    for beat in SECOND:
        assert ends[beat][2] >= LEAST_PITCH, (beat, ends[beat][2])


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_band_legend_is_no_taller_than_the_title(name: str) -> None:
    """Its values on its swatches' line: the band is the title's line (0.52 units against 0.35)."""
    for beat, (legend, title, _, _) in _ends(name).items():
        assert legend is not None, beat
        assert legend[3] - legend[1] <= title[3] - title[1] + 1e-6, (beat, legend, title)
        assert legend[1] >= title[1] - 1e-6, (beat, legend, title)  # within the title's line
        assert legend[3] <= title[3] + 1e-6, (beat, legend, title)


@pytest.mark.parametrize("name", sorted(CASES))
def test_e_s_heading_stays_near_its_table(name: str) -> None:
    """Raised into the room over E, E's heading stands at most 0.6 units over its columns."""
    for beat in FIRST:
        air = _ends(name)[beat][3]
        assert 0.0 < air <= HEADING_AIR, (beat, air)


def test_same_s_glide_is_judged_to_the_caption_it_ends_on() -> None:
    """``same`` ends on a one-line caption: its glide is judged down to that caption's top.

    Judged to a two-line caption's top (:func:`content_band`), the glide left 13.4 % of
    the frame empty under the output block, over the one-line caption (12.6 % now).
    """
    from types import SimpleNamespace

    from embedviz.render.boxes import content_band
    from embedviz.render.glyphs import SansText
    from embedviz.render.parts.end_band import end_band
    from embedviz.render.theme import DARK

    board = shared_board("PositionBlindness", {})
    (same,) = [beat for beat in board.beats if beat.name == "same"]
    title = SansText(board.title, 30, DARK.text).to_edge([0, 1, 0])
    two_lines = content_band(title)
    # Without burned-in captions (or a scene), the band to a two-line caption's top.
    assert end_band(None, title, same) == two_lines
    quiet = SimpleNamespace(burn_captions=False, theme=DARK, storyboard=board)
    assert end_band(quiet, title, same) == two_lines
    scene = SimpleNamespace(burn_captions=True, theme=DARK, storyboard=board)
    band = end_band(scene, title, same)
    assert band[0] == two_lines[0]
    assert band[2:] == two_lines[2:]
    # A line lower than the two-line top: the room under the block is measured whole.
    assert band[1] < two_lines[1] - 0.1, (band, two_lines)
