"""Every scene's title stands the same way: centred in the frame, or in the room left of the legend.

A 720p review (lecture-hall frames) found BatchLookup's "A batch of sequences
becomes a stack of slices" set flush left at the top left, as were
OneHotEquivalence's and TrainingNudge's, beside the colour legend in the
title band, while the other scenes centred theirs. The one title rule
(:func:`embedviz.render.solver_bands.place_title`) now centres a title that
does not fit centred in the frame in the room between the safe area's left
edge and the legend. Read from the mobjects, at every beat end and mid-motion:

- the title is centred in the frame, or the legend stands in the title band
  (at some moment of the scene) and the title is centred between the safe
  area's left edge and the legend's left edge;
- the title never overlaps a legend.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import MARGIN
from embedviz.render.moments import play_moments
from embedviz.story.scenes import SCENES

GPT2 = {"vocab": 50257, "dim": 768}
# How far off centre a title may stand (frame units; 0.1 is 9 px at 720p).
OFF_CENTRE = 0.1
CASES = [
    *[(scene, {}) for scene in SCENES if scene != "FullExplainer"],
    *[(scene, GPT2) for scene in ("BatchLookup", "OneHotEquivalence", "TrainingNudge")],
    ("BatchLookup", {"theme": "light"}),
    ("BatchLookup", {"ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1", **GPT2}),
]


def _box(mobject: Any) -> np.ndarray:
    return np.array([mobject.get_corner([-1, -1, 0])[:2], mobject.get_corner([1, 1, 0])[:2]])


def _apart(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(
        a[1][0] <= b[0][0] or b[1][0] <= a[0][0] or a[1][1] <= b[0][1] or b[1][1] <= a[0][1]
    )


def _title_moments(
    scene: str, overrides: dict[str, Any]
) -> list[tuple[str, np.ndarray, list[Any]]]:
    """At each beat end and mid-motion: (where, the title's box, every visible legend's box)."""
    from embedviz.render.parts.legend import Legend

    board = prepared_storyboard(scene, overrides, environ={})
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
    return seen


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_titles_are_centred_in_their_room_and_clear_of_the_legend(
    scene: str, overrides: dict[str, Any]
) -> None:
    from manim import config

    seen = _title_moments(scene, overrides)
    assert seen, "the title was never seen"
    safe_left = -config.frame_width / 2 + MARGIN
    problems = []
    # A legend that stands in the title band (level with the title) at some moment.
    in_band = [
        legend[0][0]
        for _, title, legends in seen
        for legend in legends
        if legend[0][1] < title[1][1] and title[0][1] < legend[1][1] and legend[0][0] > title[1][0]
    ]
    for where, title, legends in seen:
        centre = (title[0][0] + title[1][0]) / 2
        centred = abs(centre) <= OFF_CENTRE
        room = min(in_band) if in_band else None
        in_room = room is not None and abs(centre - (safe_left + room) / 2) <= OFF_CENTRE
        if not (centred or in_room):
            wanted = "no legend in the band" if room is None else f"{(safe_left + room) / 2:.2f}"
            problems.append(f"{where}: title centred at x {centre:.2f}, not 0 nor {wanted}")
        problems += [
            f"{where}: the title overlaps the legend" for b in legends if not _apart(title, b)
        ]
    assert not problems, problems[:5]
