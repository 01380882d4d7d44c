"""OneHotEquivalence multiplies the whole table once a process, and the product stays true.

Building the storyboard at GPT-2 size drew all 38.6 million values of E
every time (most of test_one_hot's time, and of every build in a render or
export). A seeded table is its sizes and seed, so its product is computed
once; each later build must still show the true values.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.core.table import TorchSeededTable
from embedviz.inputs import prepared_storyboard

GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821"}


def _drawn_product(board: Any) -> list[float]:
    """Return the product row's values as the storyboard records them, by column."""
    cells = {c.index: c.value for beat in board.beats for c in beat.numbers if c.kind == "product"}
    return [cells[k] for k in sorted(cells)]


def test_a_seeded_table_is_multiplied_once_and_every_build_shows_its_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two builds of the same seeded table draw E whole at most once, and both record
    the product as row 4821 of the reference table (torch's own where installed)."""
    from oracles.tables import seeded_table

    from embedviz.core.table import EmbeddingTable

    drawn: list[int] = []
    whole = TorchSeededTable.materialise

    def counted(self: TorchSeededTable) -> EmbeddingTable:
        drawn.append(self.vocab_size)
        return whole(self)

    monkeypatch.setattr(TorchSeededTable, "materialise", counted)
    first = prepared_storyboard("OneHotEquivalence", {**GPT2, "seed": 7}, environ={})
    second = prepared_storyboard("OneHotEquivalence", {**GPT2, "seed": 7}, environ={})
    assert len(drawn) <= 1, drawn
    row = seeded_table("torch", 7, 50257, 768)[0][4821]
    for board in (first, second):
        shown = _drawn_product(board)
        assert shown, "the product is recorded"
        window_cols = sorted(
            {c.index for b in board.beats for c in b.numbers if c.kind == "product"}
        )
        assert np.allclose(shown, [row[k[-1]] for k in window_cols], atol=5e-5)
