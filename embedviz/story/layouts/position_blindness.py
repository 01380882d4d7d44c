"""The ``position_blindness`` layout: equal rows for equal IDs, then position vectors added."""

from __future__ import annotations

from embedviz.story.vocabulary import GRID_KINDS, GRID_ROLES, GRID_WORDS, SEQUENCE_KINDS, layout

__all__ = ["LAYOUT"]

LAYOUT = layout(
    "position_blindness",
    (
        *GRID_KINDS,
        *SEQUENCE_KINDS,
        "learned_position",
        "output_id",
        "pe_col",
        "pe_size",
        "sinusoid",
        "sum_learned",
        "sum_sinusoid",
    ),
    ("add", "arrange", "differ", "intro", "lookup_all", "positions", "same"),
    (*GRID_ROLES, r"formula_\d+", "pe_gap", "sum_note"),
    {
        **GRID_WORDS,
        "token_ids": "token IDs",
        "output": "output",
        "token_vector": "token vector",
        "position_vector": "position vector",
        "sum": "sum",
        "sum_note": "added unrounded, shown to {places} decimals",
        "learned_table": "a learned table",
        "identical": "identical",
        "different": "different",
        "chapter_intro": "One ID, twice",
        "chapter_lookup_all": "Look up every ID",
        "chapter_same": "Same ID, same row",
        "chapter_arrange": "Telling the copies apart",
        "chapter_positions": "The position vectors P",
        "chapter_add": "Token plus position",
        "chapter_differ": "Now the copies differ",
    },
)
