"""A single token near GPT-2's first or last row fills the frame as a mid-table one does.

SingleTokenLookup at GPT-2's size draws a close-up of E: rows 0-2, the
looked-up row with its neighbours and the last row (row 4821: seven rows,
two labelled hidden ranges), and the output row level with its source. Near
the table's edges the row's run merged with the head or the last row: row 0
drew four rows, its block stood at the frame's top, and at the end of the
intro, zero-based and lookup beats 40.5 % of the frame stood empty under it
(row 1 17.7 %, row 2 15.2 %, row 3 13.5 %, row 4 13.4 %, row 50253 12.8 %,
row 50256 15.1 %), over issue 18's eighth.

Near the edges the window now keeps the room under the row short, or gives
it to the legend (:func:`embedviz.story.window.steady_rows`), and the legend
stands where it best splits the room the row's column leaves empty
(:func:`embedviz.render.solver_bands.column_legend`). The block stays level
with its row (the strip slides straight across), and the window draws no
more rows than mid-table, so the print keeps its numbers at 18 px
(``tests/test_print_brackets.py``).

Each case is dry-run to its beat ends only, and measured as
``tests/test_moments.py`` measures (:func:`embedviz.render.moments.frame_emptiness`).
"""

from __future__ import annotations

from typing import Any

import pytest
from manim import config

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import frame_emptiness, play_moments
from embedviz.render.space import EMPTY_SHARE
from embedviz.story.window import choose_window, steady_rows

GPT2 = {"vocab": 50257, "dim": 768}
LAST = 50256


def _beat_end_shares(token_id: int) -> dict[str, float]:
    """Dry-run the scene; return each beat's largest empty area at its end, as a frame share."""
    board = prepared_storyboard("SingleTokenLookup", {**GPT2, "ids": str(token_id)}, environ={})
    shares: dict[str, float] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha >= 1:
            area = frame_emptiness(scene).area
            shares[moment.beat.name] = area / float(config.frame_width * config.frame_height)

    play_moments(board, read, alphas=(), pixel_width=192, pixel_height=108)
    return shares


@pytest.mark.parametrize("token_id", [0, 3, LAST])
def test_a_row_at_the_tables_edge_leaves_no_large_empty_area(token_id: int) -> None:
    shares = _beat_end_shares(token_id)
    assert set(shares) == {"intro", "zero-based", "lookup", "print", "grad-fn"}
    roomy = {name: f"{share:.1%}" for name, share in shares.items() if share > EMPTY_SHARE}
    assert not roomy, roomy


def _rows(token_id: int) -> tuple[int, ...]:
    window = choose_window(GPT2["vocab"], GPT2["dim"], [token_id], narrow=True, steady=True)
    return window.rows


def test_the_window_keeps_the_row_off_the_tables_edge() -> None:
    # Mid-table (and next to the edges' rows) the window is the usual one.
    assert _rows(4821) == (0, 1, 2, 4820, 4821, 4822, LAST)
    assert _rows(5) == (0, 1, 2, 4, 5, 6, LAST)
    assert _rows(LAST - 4) == (0, 1, 2, LAST - 5, LAST - 4, LAST - 3, LAST)
    assert steady_rows(4821, GPT2["vocab"]) is None
    # A row of the head: the last three rows mirror it.
    for token_id in (0, 1, 2):
        assert _rows(token_id) == (0, 1, 2, LAST - 2, LAST - 1, LAST), token_id
    # Rows 3 and 4 and the last four: only a hidden range and the last row under the row;
    # row 4's upper neighbour stays hidden, so that a hidden range parts it from the head.
    assert _rows(3) == (0, 1, 2, 3, LAST)
    assert _rows(4) == (0, 1, 2, 4, LAST)
    assert _rows(LAST - 3) == (0, 1, 2, LAST - 4, LAST - 3, LAST)
    assert _rows(LAST - 2) == (0, 1, 2, LAST - 3, LAST - 2, LAST)
    assert _rows(LAST - 1) == (0, 1, 2, LAST - 2, LAST - 1, LAST)
    assert _rows(LAST) == (0, 1, 2, LAST - 1, LAST)
    # A short table keeps the usual window (its edges would meet).
    assert choose_window(9, 4, [5], narrow=True, steady=True).rows == (0, 1, 2, 4, 5, 6, 8)
