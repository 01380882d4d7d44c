"""The ``zero_based`` layout: the one-based slip, the zero-based count and a debugging trace."""

from __future__ import annotations

from embedviz.story.vocabulary import GRID_KINDS, GRID_ROLES, GRID_WORDS, SEQUENCE_KINDS, layout

__all__ = ["LAYOUT"]

LAYOUT = layout(
    "zero_based",
    (
        *GRID_KINDS,
        *SEQUENCE_KINDS,
        "check_row",
        "one_based_count",
        "ordinal",
        "output_id",
        "trace_id",
        "trace_index",
        "wrong_id",
        "wrong_index",
        "wrong_value",
    ),
    ("check", "diagnose", "intro", "right_count", "trace", "wrong_count"),
    GRID_ROLES,
    {
        **GRID_WORDS,
        "token_ids": "token IDs",
        "counting_from_one": "counting from one",
        "slip_id": "ID",
        "slip_row_index": "row index",
        "no_such_row": "no such row",
        "debugging_trace": "debugging trace",
        "input_id": "input ID",
        "zero_based_row_index": "zero-based row index",
        "returned_vector": "returned vector",
        "ordinal_st": "{n}st",
        "ordinal_nd": "{n}nd",
        "ordinal_rd": "{n}rd",
        "ordinal_th": "{n}th",
        "chapter_intro": "Which row does ID {id} select?",
        "chapter_wrong_count": "The slip: counting from one",
        "chapter_right_count": "Counting from zero",
        "chapter_trace": "A debugging trace",
        "chapter_check": "Checked against E",
        "chapter_diagnose": "When a row looks wrong",
    },
)
