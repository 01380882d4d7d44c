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
    (*GRID_ROLES, "code", r"printed_\d+_\d+", "printed_omitted", "question", "rule"),
    {
        **GRID_WORDS,
        "token_ids": "token IDs",
        "output": "output",
        "question": "output shape?  rows \u00d7 values",
        "chapter_intro": "The embedding matrix",
        "chapter_count_rows": "Rows count from 0",
        "chapter_predict": "Predict the output's shape",
        "chapter_reveal": "One output row per ID",
        "chapter_lookup": "Look up ID {id}",
        "chapter_lookup_many": "The other IDs, together",
        "chapter_print": "The result, as PyTorch prints it",
        "chapter_grad_fn": "What grad_fn is",
        "chapter_dim": "Rows no ID selects",
        "chapter_shape": "The output's shape",
    },
)
