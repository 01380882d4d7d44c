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
        "output_id",
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
        "one_hot_gap_entry": "entry {first} is 0",
        "one_hot_gap_entries": "entries {first}\u2013{last} are 0",
        "term_gap_term": "+ term {first}: 0",
        "term_gap_terms": "+ terms {first}\u2013{last}: all 0",
        "copy_unit_one": "number",
        "copy_unit_many": "numbers",
        "chapter_intro": "A lookup and a product",
        "chapter_one_hot": "The one-hot vector",
        "chapter_terms": "One entry of the product",
        "chapter_sum": "Only one term is left",
        "chapter_columns": "The whole product",
        "chapter_compare": "Product and lookup agree",
        "chapter_cost": "What the product costs",
        "chapter_copy": "What a lookup costs",
    },
)
