"""The narration claims only what the picture shows.

A 720p review of ParameterCount read "GPT-2's embedding table" over a table
whose numbers come from a seed (GPT-2's shape, not its weights), and of
LargeVocabLookup "The other 8 IDs do the same, together." while the copies
travel one at a time (test_lookup_outlines holds that: one strip in flight).
"""

from __future__ import annotations

import re

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.story.scenes import SCENES


def _spoken(scene: str, **overrides: object) -> str:
    board = prepared_storyboard(scene, overrides, environ={})
    return " ".join(beat.narration for beat in board.beats)


def test_a_seeded_table_of_gpt2_shape_is_not_called_gpt2s() -> None:
    board = prepared_storyboard("ParameterCount", {}, environ={})
    # The table is seeded (no weights file): its values are not GPT-2's.
    assert not board.options.weights
    words = _spoken("ParameterCount")
    assert "GPT-2's embedding table" not in words
    assert "GPT-2-sized embedding table" in words


def test_the_rest_lookups_are_told_as_one_after_another() -> None:
    board = prepared_storyboard("LargeVocabLookup", {}, environ={})
    rest = [beat for beat in board.beats if beat.name == "rest"]
    assert rest, [beat.name for beat in board.beats]
    assert "together" not in rest[0].narration
    assert "in turn" in rest[0].narration


_PRODUCT = re.compile(r"([\d,]+) \u00d7 ([\d,]+) = ([\d,]+)")


def _written_grouped(number: str) -> bool:
    """Whether a written number of four or more digits carries thousands separators."""
    return "," in number


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_a_spoken_product_groups_its_factors_as_its_result(scene: str) -> None:
    # A 720p review read LargeVocab's "50257 × 768 = 38,597,376": the count was
    # grouped and the factor beside it was not (ParameterCount writes 50,257).
    words = _spoken(scene)
    products = _PRODUCT.findall(words)
    for factors in products:
        result = factors[-1]
        for factor in factors[:-1]:
            if len(factor.replace(",", "")) >= 4:
                assert _written_grouped(factor) == _written_grouped(result), factors
    if scene in {"LargeVocabLookup", "ParameterCount"}:
        assert products, words


def _cell_texts(scene: str, **overrides: object) -> dict[tuple[str, tuple[int, ...]], str]:
    board = prepared_storyboard(scene, overrides, environ={})
    return {(cell.kind, cell.index): cell.text for beat in board.beats for cell in beat.numbers}


# Each on-screen product as (its factors' cells, its result's cell).
_DRAWN_PRODUCTS = {
    "OneHotEquivalence": [
        ((("cost_size", (row, 0)), ("cost_size", (row, 1))), ("multiply_adds", (row,)))
        for row in (0, 1)
    ],
    "ParameterCount": [((("factor", (0,)), ("factor", (1,))), ("param_count", (0,)))],
}


@pytest.mark.parametrize("size", [{}, {"vocab": 50257, "dim": 768}], ids=["default", "gpt2"])
@pytest.mark.parametrize("scene", sorted(_DRAWN_PRODUCTS))
def test_a_drawn_product_groups_its_factors_as_its_result(scene: str, size: dict[str, int]) -> None:
    # OneHot's cost table drew "50257 × 768 = 38,597,376" (720p contact sheet).
    texts = _cell_texts(scene, **size)
    for factors, result in _DRAWN_PRODUCTS[scene]:
        for factor in factors:
            text = texts[factor]
            if len(text.replace(",", "")) >= 4:
                assert _written_grouped(text) == _written_grouped(texts[result]), (factor, text)
