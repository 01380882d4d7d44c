"""The ``training_nudge`` layout: a toy loss, its gradient and one SGD step."""

from __future__ import annotations

from embedviz.story.vocabulary import GRID_KINDS, GRID_ROLES, GRID_WORDS, SEQUENCE_KINDS, layout

__all__ = ["LAYOUT"]

LAYOUT = layout(
    "training_nudge",
    (*GRID_KINDS, *SEQUENCE_KINDS, "grad", "loss", "lr", "sum", "term", "updated", "upstream"),
    (
        "accumulate",
        "intro",
        "loss",
        "loss_drop",
        "meaning",
        "scatter",
        "unchanged",
        "update",
        "upstream",
    ),
    (
        *GRID_ROLES,
        "loss_arrow",
        "loss_equals",
        "loss_formula",
        r"mark_\d+",
        "output_title",
        r"sum_term_\d+",
        "sum_title",
        "sum_total",
        "update_left",
        "update_right",
        "upstream_title",
    ),
    {
        **GRID_WORDS,
        "gradient": "gradient",
        "nudged": "nudged",
        "unchanged": "unchanged",
        "chapter_intro": "Rows start random",
        "chapter_loss": "A toy loss",
        "chapter_upstream": "The gradient of each vector",
        "chapter_scatter": "The gradient of E",
        "chapter_accumulate": "Repeats add up",
        "chapter_update": "One step of gradient descent",
        "chapter_unchanged": "Other rows keep their bits",
        "chapter_loss_drop": "The loss after the step",
        "chapter_meaning": "What the columns mean",
    },
)
