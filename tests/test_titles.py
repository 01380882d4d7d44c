"""Every scene's title stands centred in the frame whenever it clears the colour legend there.

A 720p review (lecture-hall frames) found BatchLookup's "A batch of sequences
becomes a stack of slices" set flush left at the top left, as were
OneHotEquivalence's and TrainingNudge's, beside the colour legend in the
title band, while the other scenes centred theirs; the titles were then
centred in the room left of the legend, which a second review read as
off-centre (OneHot's title centred at x 450 of 1280). The one title rule
(:func:`embedviz.render.solver_bands.place_title`) now centres a title in the
frame whenever it then clears the legend by a SPACE, the legend's title
beside its swatches or stacked over them; only where neither clears it does
the title stand centred in the room left of the legend. Read from the
mobjects, at every beat end and mid-motion:

- the title is centred in the frame; or a title centred in the frame would
  come within a SPACE of a legend in the title band (at some moment of the
  scene) and it is centred between the safe area's left edge and the
  legend's left edge;
- a legend level with the title stands at least a SPACE clear of it.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import MARGIN, SPACE
from embedviz.render.moments import play_moments
from embedviz.render.solver_bands import TITLE_GIVE
from embedviz.story.scenes import SCENES

GPT2 = {"vocab": 50257, "dim": 768}
# How far off centre a title may stand (frame units; 0.1 is 9 px at 720p).
OFF_CENTRE = 0.1
CASES = [
    *[(scene, {}) for scene in SCENES if scene != "FullExplainer"],
    *[(scene, GPT2) for scene in ("BatchLookup", "OneHotEquivalence", "TrainingNudge")],
    ("BatchLookup", {"theme": "light"}),
    ("BatchLookup", {"ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1", **GPT2}),
    ("SequenceLookup", GPT2),
    # GPT-2's IDs 4821, 0, 50256: the legend stands in the title band.
    ("SequenceLookup", {"ids": "4821,0,50256", **GPT2}),
]
# The reviewer's frames, whose titles stood off-centre beside the legend, though
# centred they clear it (its title stacked over its swatches, where it must be).
CENTRED = [
    ("OneHotEquivalence", {}),
    ("BatchLookup", {}),
    ("TrainingNudge", {}),
    ("SequenceLookup", {"ids": "4821,0,50256", **GPT2}),
]


def _box(mobject: Any) -> np.ndarray:
    return np.array([mobject.get_corner([-1, -1, 0])[:2], mobject.get_corner([1, 1, 0])[:2]])


def _apart(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(
        a[1][0] <= b[0][0] or b[1][0] <= a[0][0] or a[1][1] <= b[0][1] or b[1][1] <= a[0][1]
    )


def _title_moments(
    scene: str, overrides: dict[str, Any]
) -> tuple[tuple[str, np.ndarray, list[Any]], ...]:
    """At each beat end and mid-motion: (where, the title's box, every visible legend's box).

    Two tests read the same cases: each case plays once a worker (read-only results).
    """
    return _titles_seen(scene, tuple(sorted(overrides.items())))


@functools.cache
def _titles_seen(
    scene: str, case: tuple[tuple[str, Any], ...]
) -> tuple[tuple[str, np.ndarray, list[Any]], ...]:
    """``_title_moments`` for one scene and case (its options as sorted pairs)."""
    from embedviz.render.parts.legend import Legend

    board = prepared_storyboard(scene, dict(case), environ={})
    seen: list[tuple[str, np.ndarray, list[Any]]] = []

    def look(scene_object: Any, moment: Any) -> None:
        title = scene_object.stage.title
        if title not in scene_object.mobjects or float(title.get_fill_opacity()) < 0.5:
            return
        legends = [
            _box(m)
            for top in scene_object.mobjects
            for m in top.get_family()
            if isinstance(m, Legend) and len(m.get_family()) > 1
        ]
        seen.append((f"{moment.beat.name} at {moment.alpha}", _box(title), legends))

    play_moments(board, look, alphas=(0.5,), pixel_width=192, pixel_height=108)
    for _, title, legends in seen:
        for box in (title, *legends):
            box.flags.writeable = False
    return tuple(seen)


def _level(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two boxes share some height (a legend in the title's band)."""
    return bool(a[0][1] < b[1][1] and b[0][1] < a[1][1])


def _gap(title: np.ndarray, legend: np.ndarray) -> float:
    """Return how far a legend level with the title stands clear of it across."""
    return float(max(legend[0][0] - title[1][0], title[0][0] - legend[1][0]))


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_titles_are_centred_unless_the_legend_needs_the_room(
    scene: str, overrides: dict[str, Any]
) -> None:
    from manim import config

    seen = _title_moments(scene, overrides)
    assert seen, "the title was never seen"
    safe_left = -config.frame_width / 2 + MARGIN
    problems = []
    # Legends that stand in the title band (level with the title, right of it) at some moment.
    in_band = [
        legend
        for _, title, legends in seen
        for legend in legends
        if _level(title, legend) and legend[0][0] > title[1][0]
    ]
    for where, title, legends in seen:
        width = title[1][0] - title[0][0]
        centre = (title[0][0] + title[1][0]) / 2
        centred = abs(centre) <= OFF_CENTRE
        # Where a title of this width, centred, would stand.
        at_centre = np.array([[-width / 2, title[0][1]], [width / 2, title[1][1]]])
        crowded = [b for b in in_band if _gap(at_centre, b) < SPACE]
        room = min(b[0][0] for b in crowded) if crowded else None
        in_room = room is not None and abs(centre - (safe_left + room) / 2) <= OFF_CENTRE
        if not (centred or in_room):
            wanted = (
                "0 (centred, it clears the legend)"
                if room is None
                else f"{(safe_left + room) / 2:.2f}"
            )
            problems.append(f"{where}: title centred at x {centre:.2f}, not {wanted}")
        problems += [
            f"{where}: the legend stands {_gap(title, b):.2f} from the title (under a SPACE)"
            for b in legends
            if _level(title, b) and _gap(title, b) < SPACE
        ]
    assert not problems, problems[:5]


@pytest.mark.parametrize(("scene", "overrides"), CENTRED)
def test_the_reviewers_titles_stand_centred(scene: str, overrides: dict[str, Any]) -> None:
    seen = _title_moments(scene, overrides)
    off = [
        f"{where}: x {(title[0][0] + title[1][0]) / 2:.2f}"
        for where, title, _ in seen
        if abs((title[0][0] + title[1][0]) / 2) > OFF_CENTRE
    ]
    assert seen, "the title was never seen"
    assert not off, off[:5]


@pytest.mark.parametrize(
    "overrides", [{}, {"positions": "learned"}, GPT2 | {"ids": "4821,0,4821"}], ids=str
)
def test_a_scene_keeps_one_title_size(overrides: dict[str, Any]) -> None:
    """PositionBlindness's title grew at ``arrange`` (24.3 to 26.2 px at 720p), its second
    arrangement's numbers being larger: a scene keeps its title's size throughout, but
    where the one title rule sets it a little smaller to clear the legend in its band.

    (Across scenes a title follows its scene's type scale, never larger than the table's
    numbers: a real-sized table's 18 px numbers take a smaller title than the toy's.)
    """
    board = prepared_storyboard("PositionBlindness", overrides, environ={})
    sizes: dict[float, list[str]] = {}

    def look(scene_object: Any, moment: Any) -> None:
        title = scene_object.stage.title
        if moment.alpha >= 1 and title in scene_object.mobjects:
            # As drawn: its font size times how far it stands scaled.
            drawn = title.font_size * title.width / title.natural_width
            sizes.setdefault(round(float(drawn), 2), []).append(moment.beat.name)

    play_moments(board, look, alphas=(0.5,), pixel_width=192, pixel_height=108)
    # The one title rule may set a title a little smaller to clear the legend in its band
    # (down to TITLE_GIVE of its size), never larger.
    assert min(sizes) >= max(sizes) * TITLE_GIVE, sizes
    first = sizes[max(sizes)]
    assert "intro" in first, sizes
