"""The ``one_hot`` layout: one_hot(i) @ E beside the lookup E[i], and what each costs."""

from __future__ import annotations

from embedviz.story.vocabulary import GRID_KINDS, GRID_ROLES, GRID_WORDS, SEQUENCE_KINDS, layout

__all__ = ["LAYOUT"]

LAYOUT = layout(
    "one_hot",
    (
        *GRID_KINDS,
        *SEQUENCE_KINDS,
        "copy_count",
        "cost_size",
        "multiply_adds",
        "one_hot",
        "one_hot_size",
        "product",
        "product_size",
        "term_one_hot",
        "term_sum",
        "term_weight",
    ),
    ("columns", "compare", "copy", "cost", "intro", "one_hot", "sum", "terms"),
    (
        *GRID_ROLES,
        "copy_unit",
        "cost_gpt2",
        "lookup_title",
        r"one_hot_gap_\d+",
        "one_hot_title",
        "product_formula",
        "product_title",
        r"term_gap_\d+",
    ),
    {
        **GRID_WORDS,
        "token_id": "token ID",
        "multiply_adds": "multiply-adds per token",
        "lookup": "lookup",
        "copies": "copies",
    },
)
