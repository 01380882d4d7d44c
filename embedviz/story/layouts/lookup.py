"""The ``lookup`` layout: a grid, input chips and an output block (SingleToken, Sequence)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from embedviz.story.vocabulary import GRID_KINDS, GRID_ROLES, GRID_WORDS, SEQUENCE_KINDS, layout

if TYPE_CHECKING:
    from embedviz.story.model import Beat

__all__ = ["LAYOUT", "rule_in_corridor"]

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


def rule_in_corridor(beat: Beat) -> bool:
    """Return whether the rule's card stands in the corridor between E and the output block.

    The storyboard records the placement in the beat itself: an output block
    at least as tall as the rows E shows (MiniLM's 12 rows for 9) leaves no
    room beside it, so the card stands between the two blocks (the builder
    records the rule from the first lookup, which parts them); a shorter one
    leaves room on its own side, where the card stands, as wide as the block.
    The stage places the card by this test and the audio description says
    where it stands by it, so the two cannot disagree.

    Parameters
    ----------
    beat
        A beat of the ``lookup`` layout (one that shows the rule, or any).

    Returns
    -------
    bool
        True when the beat's output block has at least as many rows as its window.
    """
    return beat.output is not None and beat.output.shape[0] >= len(beat.window.rows)
