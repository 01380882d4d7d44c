"""The ``large_vocab`` layout: a real-sized table that scrolls to each looked-up row."""

from __future__ import annotations

from embedviz.story.vocabulary import GRID_KINDS, GRID_ROLES, GRID_WORDS, SEQUENCE_KINDS, layout

__all__ = ["LAYOUT"]

LAYOUT = layout(
    "large_vocab",
    (*GRID_KINDS, *SEQUENCE_KINDS, "param_count", "equal_to", "output_id"),
    ("fill_rest", "intro", "lookup", "scroll", "scroll_lookup", "sentence", "shape", "size"),
    GRID_ROLES,
    {**GRID_WORDS, "token_ids": "token IDs", "output": "output", "parameters": "parameters"},
)
