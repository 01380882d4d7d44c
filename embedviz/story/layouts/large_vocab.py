"""The ``large_vocab`` layout: a real-sized table that scrolls to each looked-up row."""

from __future__ import annotations

from embedviz.story.vocabulary import (
    GRID_KINDS,
    GRID_ROLES,
    GRID_WORDS,
    SEQUENCE_KINDS,
    SIZE_PAGE_WORDS,
    layout,
)

__all__ = ["LAYOUT"]

LAYOUT = layout(
    "large_vocab",
    (*GRID_KINDS, *SEQUENCE_KINDS, "param_count", "equal_to", "output_id"),
    ("fill_rest", "intro", "lookup", "scroll", "scroll_lookup", "sentence", "shape", "size"),
    GRID_ROLES,
    {
        **GRID_WORDS,
        "token_ids": "token IDs",
        "output": "output",
        "parameters": "parameters",
        "chapter_intro": "A real-sized table",
        "chapter_size": "How many numbers E holds",
        "chapter_scroll": "Scroll to row {row}",
        "chapter_lookup": "Copy row {row}",
        "chapter_sentence": "A whole sentence",
        "chapter_scroll_lookup": "Look up ID {id}",
        "chapter_fill_rest": "The other IDs",
        "chapter_shape": "The output's shape",
        **SIZE_PAGE_WORDS,
    },
)
