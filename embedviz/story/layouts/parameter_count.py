"""The ``parameter_count`` layout: the table's size, its memory and a lookup's cost."""

from __future__ import annotations

from embedviz.story.vocabulary import GRID_ROLES, layout

__all__ = ["LAYOUT"]

LAYOUT = layout(
    "parameter_count",
    (
        "block_size",
        "compare_count",
        "compare_dim",
        "compare_memory",
        "corner",
        "dtype_bytes",
        "dtype_memory",
        "dtype_total",
        "factor",
        "lookup_row",
        "lookup_value",
        "param_count",
        "row_bytes",
        "row_label",
        "row_values",
        "token_id",
    ),
    ("compare", "count", "dtype", "lookup", "table"),
    (*GRID_ROLES, "compare_dtype", r"dtype_\d+"),
    {
        "embedding_matrix": "embedding matrix E",
        "columns": "columns",
        "rows": "rows",
        "parameters": "parameters",
        "dtype": "dtype",
        "bytes_each": "bytes each",
        "total_bytes": "total bytes",
        "memory": "memory",
        "width": "width",
        "values_copied": "values copied,",
        "bytes": "bytes",
        "no_arithmetic": "no multiplications, no additions",
    },
)
