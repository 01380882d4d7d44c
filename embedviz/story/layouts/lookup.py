"""The ``lookup`` layout: a grid, input chips and an output block (SingleToken, Sequence)."""

from __future__ import annotations

from embedviz.story.vocabulary import GRID_KINDS, GRID_ROLES, GRID_WORDS, SEQUENCE_KINDS, layout

__all__ = ["LAYOUT"]

LAYOUT = layout(
    "lookup",
    (*GRID_KINDS, *SEQUENCE_KINDS, "printed", "equal_to", "output_id"),
    (
        "count_rows",
        "dim",
        "grad_fn",
        "intro",
        "lookup",
        "lookup_many",
        "predict",
        "print",
        "reveal",
        "shape",
    ),
    (*GRID_ROLES, "code", r"printed_\d+_\d+", "printed_omitted", "question"),
    {**GRID_WORDS, "token_ids": "token IDs", "output": "output"},
)
