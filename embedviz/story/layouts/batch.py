"""The ``batch`` layout: rows of chips, and the output as stacked slices (BatchLookup)."""

from __future__ import annotations

from embedviz.story.vocabulary import GRID_KINDS, GRID_ROLES, GRID_WORDS, SEQUENCE_KINDS, layout

__all__ = ["LAYOUT"]

LAYOUT = layout(
    "batch",
    (*GRID_KINDS, *SEQUENCE_KINDS, "batch_dim", "slice", "equal_to", "output_id"),
    ("axes", "dim", "intro", "lookup", "lookup_many", "predict", "repeats", "reveal", "shape"),
    (
        *GRID_ROLES,
        "batch_axis",
        "edge_b",
        "edge_d",
        "edge_t",
        "length_axis",
        "output_title",
        r"pair_\d+_\d+",
        "question",
        "rule",
        "slice_title",
    ),
    {
        **GRID_WORDS,
        "output": "output",
        "batch_question": "output shape?",
        "batch_axis": "batch B =",
        "length_axis": "sequence length T =",
        "slice_title": "slice",
        "chapter_intro": "The embedding matrix",
        "chapter_axes": "A batch of B \u00d7 T IDs",
        "chapter_predict": "Predict the output's shape",
        "chapter_reveal": "One slice per sequence",
        "chapter_lookup": "Look up ID {id}",
        "chapter_lookup_many": "Filling slice {slice}",
        "chapter_repeats": "Repeated IDs, equal rows",
        "chapter_dim": "Rows no ID selects",
        "chapter_shape": "The output's shape, B \u00d7 T \u00d7 d",
    },
)
