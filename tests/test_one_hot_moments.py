"""OneHotEquivalence mid-motion: one result at a time, and nothing drawn over another.

A 720p review of mid-motion frames found three moments a teacher would
apologise for:

- ``sum``: the sum's coloured copy stood whole beside the sum while the sum
  was being written, so the line read "= -0.4015   -0.4015" (two results);
- ``cost``: the typeset ``one_hot(3)E = E[3]`` rose while "multiply-adds per
  token" faded in where it stood: the two overprinted;
- ``terms``: the product's row came down through the colour bar's title as
  the camera pulled back.

Each beat is sampled at many moments; the rules are read from the mobjects.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from conftest import box_of

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

ALPHAS = tuple(round(0.05 * k, 2) for k in range(1, 21))


def _on_screen(scene: MomentScene, mobject: Any) -> bool:
    return any(mobject in top.get_family() for top in scene.mobjects)


def _opacity(mobject: Any) -> float:
    members = [m for m in mobject.get_family() if len(m.points)]
    return max(
        (max(float(m.get_fill_opacity()), float(m.get_stroke_opacity())) for m in members),
        default=0.0,
    )


def _meet(a: Any, b: Any) -> bool:
    (a_left, a_bottom), (a_right, a_top) = box_of(a)
    (b_left, b_bottom), (b_right, b_top) = box_of(b)
    return a_left < b_right and b_left < a_right and a_bottom < b_top and b_bottom < a_top


@pytest.mark.parametrize("overrides", [{}, {"theme": "light"}], ids=["dark", "light"])
def test_one_result_at_a_time_and_nothing_drawn_over_another(overrides: dict[str, Any]) -> None:
    board = prepared_storyboard("OneHotEquivalence", overrides, environ={})
    problems: list[str] = []
    seen = {"sum": 0, "cost": 0, "terms": 0}

    def read(scene: MomentScene, moment: Any) -> None:
        stage: Any = scene.stage
        name = moment.beat.name
        if name not in seen or moment.alpha >= 1:
            return
        seen[name] += 1
        where = f"{name} step {moment.step} a{moment.alpha:.2f}"
        if name == "sum":
            total = stage.product.terms.total
            copy = stage.product.cells[stage.product.column]
            writing = _on_screen(scene, total) and _opacity(total) < 0.99
            if writing and _on_screen(scene, copy) and _opacity(copy) > 0.1:
                problems.append(f"{where}: the sum's copy shows while the sum is written")
        if name == "cost":
            formula, header = stage.costs.formula, stage.costs.header
            shown = [m for m in (formula, header) if m is not None and _on_screen(scene, m)]
            if len(shown) == 2 and min(map(_opacity, shown)) > 0.1 and _meet(*shown):
                problems.append(f"{where}: the typeset product and the cost header overprint")
        if name == "terms" and stage.bar is not None and _on_screen(scene, stage.bar):
            title, row = stage.bar.title, stage.product.product
            both = _on_screen(scene, row) and min(_opacity(title), _opacity(row)) > 0.1
            if both and _meet(title, row):
                problems.append(f"{where}: the product's row runs through the bar's title")

    play_moments(board, read, alphas=ALPHAS, pixel_width=192, pixel_height=108)
    assert min(seen.values()) >= 10, seen
    assert problems == [], "\n".join(problems)


# The least seconds the colour bar's fade-out takes (a fade the eye follows, not a pop).
BAR_FADE_SECONDS = 0.2


def test_the_colour_bar_fades_out_over_a_fifth_of_a_second() -> None:
    """``terms``: the colour bar beside E fades out as the camera pulls back. A share of the
    pull-back, squeezed into its beat, it took 0.047 s (issue 18: a lecture hall saw it pop
    off). Timed by the scene's clock: from the last sample it stands at full opacity to the
    first it is gone lasts BAR_FADE_SECONDS, less a sample's step at either end."""
    board = prepared_storyboard("OneHotEquivalence", {}, environ={})
    alphas = tuple(k / 400 for k in range(1, 400))
    seen: list[tuple[float, float]] = []

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.alpha >= 1 or moment.beat.name != "terms":  # the beat's end
            return
        bar = scene.stage.bar
        shown = _opacity(bar) if _on_screen(scene, bar) else 0.0
        seen.append((float(moment.time), shown))

    play_moments(board, read, alphas=alphas, pixel_width=192, pixel_height=108, beats={"terms"})
    seen.sort()
    times = [t for t, _ in seen]
    full = max(shown for _, shown in seen)
    assert full > 0.5, "the colour bar not seen in the terms beat"
    gone = next(t for t, shown in seen if shown < 1e-3 * full)
    standing = max(t for t, shown in seen if t < gone and shown > (1 - 1e-3) * full)
    step = max(b - a for a, b in itertools.pairwise(times) if a <= gone)
    assert gone - standing >= BAR_FADE_SECONDS - 2 * step, (standing, gone, step)
