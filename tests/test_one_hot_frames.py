"""OneHotEquivalence's frames: the tag beside its row, E's headings on E.

Read from the mobjects at every beat end (issue 18, lecture-hall frames):

- E's heading and the vector's title stand on E's column numbers (at most
  two SPACEs above them). They stood at the top of the content band, level
  with the product's title, and E under the product's row: a band about
  85 px tall stood empty between them and E's column numbers.

- a small table (four or five rows) fills the frame at every beat's end: the
  panel binds the font, and E stood short beside it, the band over its
  headings 13.8 % (V = 4) and 14.3 % (V = 5, d = 4) of the frame empty. E's
  rows now grow past the panel's; the lookup's row keeps the product's height.

- from the ``compare`` beat on, the chip labels the lookup's row a tag's gap
  from its right end, level with it. At GPT-2's size it stood about 140 px
  right of the row (in the tag column right of the terms' lane, which the
  ``+ terms 4822–50255: all 0`` lines make much wider than the row).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import frame_space
import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import SPACE
from embedviz.render.moments import play_moments
from embedviz.render.solve_one_hot import TAG_GAP

GPT2 = {"ids": "4821", "vocab": 50257, "dim": 768}
CASES = [{}, {"theme": "light"}, GPT2, {"ids": "0"}]


def _ends(overrides: dict[str, Any], look: Any) -> list[Any]:
    """Dry-run the scene; return ``look(scene, beat)`` at each beat's end."""
    board = prepared_storyboard("OneHotEquivalence", overrides, environ={})
    seen: list[Any] = []

    def at(scene: Any, moment: Any) -> None:
        if moment.alpha >= 1.0:
            seen.append(look(scene, moment.beat))

    play_moments(board, at, alphas=(1.0,), pixel_width=192, pixel_height=108)
    return seen


def _tag(scene: Any, beat: Any) -> tuple[str, float, float, float] | None:
    """At a beat end from the compare on: the chip's gap from the lookup's row, and heights."""
    compare = scene.stage.compare
    if compare.lookup not in scene.mobjects or compare.outline is None:
        return None
    row = compare.lookup
    body_right = row.get_right()[0]
    return (
        beat.name,
        float(compare.chip.get_left()[0] - body_right),
        float(compare.chip.get_y()),
        float(row.get_y()),
    )


@pytest.mark.parametrize("overrides", CASES, ids=["default", "light", "gpt2", "id0"])
def test_the_tag_stands_beside_the_lookups_row(overrides: dict[str, Any]) -> None:
    found = [t for t in _ends(overrides, _tag) if t is not None]
    assert found, "the lookup's row was never seen"
    problems = [
        f"{name}: the chip stands {gap:.2f} right of its row (want about {TAG_GAP:.2f})"
        for name, gap, _, _ in found
        if not -1e-6 <= gap <= 2 * TAG_GAP
    ]
    problems += [
        f"{name}: the chip is not level with its row ({chip:.2f} vs {row:.2f})"
        for name, _, chip, row in found
        if abs(chip - row) > 0.05
    ]
    assert not problems, problems


def test_the_tag_stands_beside_the_row_with_a_gpt2_sized_table(tmp_path: Path) -> None:
    weights = tmp_path / "gpt2.npy"
    table = np.random.default_rng(0).normal(0, 0.1, (50257, 768)).astype(np.float32)
    np.save(weights, table)
    found = [t for t in _ends({"ids": "4821", "weights": str(weights)}, _tag) if t is not None]
    assert found, "the lookup's row was never seen"
    assert all(-1e-6 <= gap <= 2 * TAG_GAP for _, gap, _, _ in found), found


def _headings(scene: Any, beat: Any) -> tuple[str, float, float]:
    """At a beat end: how far E's heading and the vector's title stand above E's top."""
    stage = scene.stage
    top = float(stage.matrix.grid.get_top()[1])
    heading = float(stage.matrix.heading.get_bottom()[1]) - top
    shown = {id(m) for m in scene.mobjects}
    title = stage.vector.title
    vector = float(title.get_bottom()[1]) - top if id(title) in shown else heading
    return beat.name, heading, vector


@pytest.mark.parametrize("overrides", CASES, ids=["default", "light", "gpt2", "id0"])
def test_the_headings_stand_on_es_column_numbers(overrides: dict[str, Any]) -> None:
    problems = [
        f"{name}: E's heading {heading:.2f}, the vector's title {vector:.2f} above E"
        for name, heading, vector in _ends(overrides, _headings)
        if not (-1e-6 <= heading <= 2 * SPACE and -1e-6 <= vector <= 2 * SPACE)
    ]
    assert not problems, problems


def _formula(scene: Any, beat: Any) -> tuple[str, float, float, float] | None:
    """At a beat end: the typeset product's height, and its left beside the lookup title's."""
    compare = scene.stage.compare
    shown = {id(m) for top in scene.mobjects for m in top.get_family()}
    if id(compare.formula) not in shown:
        return None
    return (
        beat.name,
        float(compare.formula.height),
        float(compare.formula.get_left()[0]),
        float(compare.title.get_left()[0]),
    )


@pytest.mark.parametrize("overrides", [{}, GPT2], ids=["default", "gpt2"])
def test_the_product_stands_large_as_the_conclusion_and_stays_large_over_the_costs(
    overrides: dict[str, Any],
) -> None:
    """At ``compare`` the typeset ``one_hot(3) E = E[3]`` is the beat's conclusion.

    Set at the labels' size alone in the panel's lower half it floated there (a
    frame review); it is set at the data's size at ``compare``, and keeps that
    size as it joins the costs, left-aligned with the lookup's title ``E[3]``
    over them (it shrank to the labels' size there, under the captions', a
    lecture-hall review found; issue 18).
    """
    seen = {name: rest for name, *rest in (f for f in _ends(overrides, _formula) if f)}
    assert "compare" in seen, sorted(seen)
    assert "cost" in seen, sorted(seen)
    conclusion, _, _ = seen["compare"]
    joined, left, title_left = seen["cost"]
    assert abs(conclusion - joined) < 1e-6, (conclusion, joined)
    assert abs(left - title_left) < 0.02, (left, title_left)


SMALL = [{"vocab": 4}, {"vocab": 4, "theme": "light"}, {"vocab": 5, "dim": 4}]


@pytest.mark.parametrize("overrides", SMALL, ids=["v4", "v4-light", "v5-d4"])
def test_a_small_table_fills_every_beat_end(overrides: dict[str, Any]) -> None:
    shares = frame_space.empty_shares("OneHotEquivalence", overrides)
    assert {"terms", "compare", "copy"} <= set(shares)
    roomy = {name: f"{share:.1%}" for name, share in shares.items() if share > frame_space.EIGHTH}
    assert not roomy, f"more than an eighth of the frame empty: {roomy}"


def _rows(scene: Any, beat: Any) -> tuple[str, float, float, float] | None:
    """At a beat end from the compare on: E's row, the product's and the lookup's heights."""
    stage = scene.stage
    if stage.compare.lookup not in scene.mobjects:
        return None
    grid = stage.matrix.grid
    _, bottom, _, top = grid.row_box(scene.stage.board.single_id(), buff=0.0)
    product, lookup = stage.product.product.body[0].height, stage.compare.lookup.body[0].height
    return beat.name, float(top - bottom), float(product), float(lookup)


@pytest.mark.parametrize("overrides", [{"vocab": 4}, {}], ids=["v4", "default"])
def test_the_lookups_row_stands_as_tall_as_the_products(overrides: dict[str, Any]) -> None:
    """E's rows may stand looser than the panel's; the two rows compared match."""
    seen = [r for r in _ends(overrides, _rows) if r is not None]
    assert seen
    for name, row, product, lookup in seen:
        assert lookup == pytest.approx(product, abs=1e-6), name
        assert row >= product - 1e-6, name
