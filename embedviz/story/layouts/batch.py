"""The ``batch`` layout: rows of chips, and the output as stacked slices (BatchLookup)."""

from __future__ import annotations

from embedviz.story.vocabulary import GRID_KINDS, GRID_ROLES, GRID_WORDS, SEQUENCE_KINDS, layout

__all__ = ["LAYOUT"]

LAYOUT = layout(
    "batch",
    (*GRID_KINDS, *SEQUENCE_KINDS, "batch_dim", "slice", "equal_to", "output_id"),
    ("axes", "dim", "intro", "lookup", "lookup_many", "predict", "reveal", "shape"),
    (
        *GRID_ROLES,
        "batch_axis",
        "edge_b",
        "edge_d",
        "edge_t",
        "length_axis",
        "output_title",
        "question",
        "slice_title",
    ),
    GRID_WORDS,
)
