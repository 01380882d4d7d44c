"""The ``parameter_count`` layout: the table's size, its memory and a lookup's cost."""

from __future__ import annotations

from embedviz.story.vocabulary import GAP_WORDS, GRID_ROLES, SIZE_PAGE_WORDS, layout

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
        # The header over the widths table's bars, which grow with the table.
        "table_size": "table size",
        "values_copied": "values copied,",
        "bytes": "bytes",
        "no_arithmetic": "no multiplications, no additions",
        **GAP_WORDS,
        "dtype_memory": "{dtype} memory",
        "chapter_table": "The table's shape",
        "chapter_count": "V \u00d7 d parameters",
        "chapter_dtype": "Memory in {dtype}",
        "chapter_compare": "Other widths d",
        "chapter_lookup": "A lookup does no arithmetic",
        # The tables of numbers on the course page.
        **SIZE_PAGE_WORDS,
        "page_memory_table": "{title}: the memory the table takes, by number format",
        "page_format": "Format",
        "page_bytes_per": "Bytes per parameter",
        "page_bytes_all": "Bytes in all",
        "page_memory": "Memory",
        "page_widths": "{title}: other embedding widths d, at the same V",
        "page_width": "Width d",
        "page_parameters": "Parameters",
        "page_one_lookup": "{title}: one lookup",
        "page_token_id": "Token ID",
        "page_row_copied": "Row copied",
        "page_values": "Values",
        "page_bytes_in": "Bytes in {dtype}",
        "page_lookup_values": "{title}: the values of the row the lookup copies",
        "page_corner": "{title}: the values of E its block shows",
    },
)
