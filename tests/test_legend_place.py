"""The value-colour legend stands in one place, clear of everything, from its first appearance on.

A view-only review of 720p contact sheets (issue 18, lecture-hall frames)
found the key to the value colours on the move: BatchLookup's legend, under
the slices level with E's rows, faded out of the travelling strips' way and
back in every lookup beat whose strips crossed it (``lookup-0-1``, the
``rest`` beats, ``lookup-1``); PositionBlindness's glided from over E to
the top centre (beat ``same``), left with E at ``arrange`` and came back at
the top right. Read at every sample (mid-motion and at each beat's end):
once a legend has shown, exactly one stands visible, its box within a pixel
(at 720p) of where it first stood, and nothing else drawn overlaps that box
(a framed, empty box counts by its sides, as
:func:`~embedviz.render.boxes.mobject_boxes` reads it).
"""

from __future__ import annotations

from typing import Any

import pytest
from manim import config

from embedviz.inputs import prepared_storyboard
from embedviz.render.boxes import mobject_boxes
from embedviz.render.moments import play_moments

GPT2_BATCH = {"ids": [[4821, 0, 50256, 17], [33000, 2, 4821, 0]], "vocab": 50257, "dim": 768}
CASES = [
    ("BatchLookup", {}),
    # GPT-2's batch: every height under its short slices is crossed by some strip, and
    # the places no strip crosses left 18.0-21.6 % of the frame empty under them (under
    # E's rows 4821, 33000 and 50256: 21.1 %; in the title band 21.6 %). Its legend now
    # stands upright under the slices' edges, right of the tags (parts/batch_rule.py).
    ("BatchLookup", GPT2_BATCH),
    ("BatchLookup", {**GPT2_BATCH, "theme": "light"}),
    # E's legend stands over E and the corridor, high, from the intro to the end; the
    # second arrangement stands under it (parts/legend_home.py). In the title band from
    # the intro (stacked, the band a line taller) it left 13.5 % and 13.9 % of the frame
    # empty; where it stood at the intro, 17.0 % at same's end; here 12.2 % at most.
    ("PositionBlindness", {}),
    ("PositionBlindness", {"positions": "learned"}),
    # GPT-2 size: E's legend stands in the title band from the intro and stays there (a
    # second, bigger one took its place at ``arrange``).
    ("PositionBlindness", {"ids": "4821,0,4821", "vocab": 50257, "dim": 768}),
]
# Visible: a legend's swatches as drawn (Manim's fades and the recessions change opacity).
VISIBLE = 0.5
# Overlap deeper than this (scene units) counts: a tenth of a pixel at 720p.
TOUCH = 0.1 / 90


def _pixel() -> float:
    """Return a 720p pixel in scene units."""
    return float(config.frame_height) / 720


def _legend_moments(
    scene: str,
    overrides: dict[str, Any],
    alphas: tuple[float, ...] = (0.1, 0.5, 0.9),
    board: Any = None,
) -> list[tuple[str, Any, list[Any]]]:
    """At every sample: (where, the visible legends' boxes, what else overlaps them)."""
    from embedviz.render.parts.legend import Legend

    board = board or prepared_storyboard(scene, overrides, environ={})
    seen: list[tuple[str, Any, list[Any]]] = []

    def look(scene_object: Any, moment: Any) -> None:
        family = [m for top in scene_object.mobjects for m in top.get_family()]
        legends = [
            m
            for m in family
            if isinstance(m, Legend) and float(m.swatches[0].get_fill_opacity()) >= VISIBLE
        ]
        boxes = [
            tuple(float(v) for v in (*m.get_corner([-1, -1, 0])[:2], *m.get_corner([1, 1, 0])[:2]))
            for m in legends
        ]
        theme = scene_object.stage.theme
        others = mobject_boxes(scene_object.mobjects, legends, theme.background)
        crossing = [
            o
            for o in others
            for b in boxes
            if min(o[2], b[2]) - max(o[0], b[0]) > TOUCH
            and min(o[3], b[3]) - max(o[1], b[1]) > TOUCH
        ]
        when = "end" if moment.alpha >= 1 else f"step {moment.step} at {moment.alpha:.2f}"
        seen.append((f"{moment.beat.name} {when}", boxes, crossing))

    play_moments(board, look, alphas=alphas, pixel_width=192, pixel_height=108)
    return seen


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_the_legend_stands_in_one_place(scene: str, overrides: dict[str, Any]) -> None:
    seen = _legend_moments(scene, overrides)
    first = next((i for i, (_, boxes, _) in enumerate(seen) if boxes), None)
    assert first is not None, "no legend ever showed"
    where, boxes, _ = seen[first]
    assert len(boxes) == 1, (where, boxes)
    home = boxes[0]
    problems = []
    for where, boxes, crossing in seen[first:]:
        if len(boxes) != 1:
            problems.append(f"{where}: {len(boxes)} legends visible")
        elif max(abs(a - b) for a, b in zip(boxes[0], home, strict=True)) > _pixel():
            box = ", ".join(f"{v:.2f}" for v in boxes[0])
            problems.append(f"{where}: the legend stands at ({box}), not where it first stood")
        if crossing:
            problems.append(f"{where}: {len(crossing)} drawn boxes overlap the legend")
    assert not problems, "\n".join(problems[:15])


# Every twentieth of a step: a key that leaves before the next comes shows between them.
FINE = tuple(k / 20 for k in range(1, 20))
KEYED = [
    ("PositionBlindness", {}, False),
    ("PositionBlindness", {"positions": "learned"}, False),
    ("PositionBlindness", {"ids": "4821,0,4821", "vocab": 50257, "dim": 768}, False),
    ("PositionBlindness", {"theme": "light"}, False),
    ("PositionBlindness", {}, True),
]


@pytest.mark.parametrize(("scene", "overrides", "translate"), KEYED)
def test_a_legend_stands_at_every_sample_once_shown(
    scene: str, overrides: dict[str, Any], translate: bool
) -> None:
    """Where the legend still changes place, one stands at every sample all the same.

    PositionBlindness's left with E as ``arrange`` began and the second
    arrangement's came only as the signs landed: for the first half of the
    beat's first step the rows stood coloured by value with no key
    (test_legend_stands reads beat ends only). The two now cross-fade once
    the title has glided clear of the band's legend's place (with a longer
    translated title, test_words's, the rows wait for it); at every
    twentieth of a step one legend stands (a cross-fade's other is under
    half drawn), and nothing drawn overlaps it.
    """
    from translation import translated

    board = prepared_storyboard(scene, overrides, environ={})
    seen = _legend_moments(scene, overrides, FINE, translated(board) if translate else board)
    first = next(i for i, (_, boxes, _) in enumerate(seen) if boxes)
    problems = [
        f"{where}: {len(boxes)} legends visible"
        for where, boxes, _ in seen[first:]
        if len(boxes) != 1
    ]
    problems += [f"{where}: {len(c)} drawn boxes overlap the legend" for where, _, c in seen if c]
    assert not problems, "\n".join(problems[:15])


def _smooth_inverse(value: float) -> float:
    """Return the share of a smooth glide at which it has come ``value`` of its way."""
    from manim.utils.rate_functions import smooth

    low, high = 0.0, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if smooth(mid) < value else (low, mid)
    return low


def test_a_glide_meets_and_clears_a_place_where_its_boxes_overlap_it() -> None:
    """key_swap's timing: a 0.2 square gliding 2 units through another meets it at 0.4 of its way.

    It overlaps the still square while its centre is within 0.2 of it: from
    0.4 to 0.6 of the way (sampled every fortieth of the glide's time).
    """
    from manim import Square

    from embedviz.render.metrics import xyz
    from embedviz.render.parts.key_swap import cleared_at, met_at

    start, end, still = Square(0.2).shift(xyz(-1, 0)), Square(0.2).shift(xyz(1, 0)), Square(0.2)
    assert abs(cleared_at(start, end, still) - _smooth_inverse(0.6)) <= 1 / 40
    assert (
        abs(met_at([start], end.get_center() - start.get_center(), still) - _smooth_inverse(0.4))
        <= 1 / 40
    )
    # A glide that never comes near it never meets it, and is clear of it from the start.
    far = Square(0.2).shift(xyz(0, 2))
    assert cleared_at(start, end, far) == 0.0
    assert met_at([start], end.get_center() - start.get_center(), far) == 1.0
