"""The numpy core: tables, lookups, validation and formatting.

Nothing here imports manim or torch; every number a scene draws is computed
by these functions.
"""

from __future__ import annotations

from embedviz.core.cells import DEFAULT_DECIMALS, cell_text_matches, format_cell, format_cells
from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import parse_ids, validate_ids
from embedviz.core.memory import check_table_fits
from embedviz.core.table import (
    DEFAULT_DIM,
    DEFAULT_SEED,
    DEFAULT_VOCAB,
    EmbeddingTable,
    InitName,
    Table,
    TorchSeededTable,
    lookup,
)
from embedviz.core.torch_format import format_torch_tensor
from embedviz.core.torch_init import cpu_kernel, torch_normal, torch_normal_rows, torch_seed
from embedviz.core.weights import load_weights

__all__ = [
    "DEFAULT_DECIMALS",
    "DEFAULT_DIM",
    "DEFAULT_SEED",
    "DEFAULT_VOCAB",
    "EmbeddingTable",
    "EmbedvizError",
    "InitName",
    "Table",
    "TorchSeededTable",
    "cell_text_matches",
    "check_table_fits",
    "cpu_kernel",
    "format_cell",
    "format_cells",
    "format_torch_tensor",
    "load_weights",
    "lookup",
    "parse_ids",
    "torch_normal",
    "torch_normal_rows",
    "torch_seed",
    "validate_ids",
]
