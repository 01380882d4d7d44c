"""BatchLookup at GPT-2's size: every ID's row of E stands outlined as its copy leaves it.

A lecture-hall review at 720p (issue 18, session 33) wrote that from the
third ID on no row of E lit up: 50256 and 17 flew straight to slice 0, and
sequence 1's four IDs moved with no row lit. On the code it was filed
against (main at 553faee) a dry run read at every sixtieth of a
step shows the opposite: each of the eight copies, the rest's included,
comes out of its row while the row stands outlined in full (the rest go
one after another, ``REST_LAG`` apart, each row outlined from its chip's
arrival until its copy lands). This guards that, as test_lookup_outlines
does for SequenceLookup; it does not fail on that code.

A batch never hides an ID's row in a band: its window draws every ID's row
(``compact_window``'s focus rows), and a batch whose rows do not fit is
refused. That is checked from the storyboard here too, so a place naming a
hidden row (LargeVocabLookup's ``rest``) is never needed.
"""

from __future__ import annotations

from typing import Any

from test_lookup_outlines import FULL, JUST_OUT, REST_ALPHAS, _row_outlines, _strips

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

GPT2_BATCH = {"ids": [[4821, 0, 50256, 17], [33000, 2, 4821, 0]], "vocab": 50257, "dim": 768}


def _ids(board: Any) -> list[int]:
    """Return the batch's IDs, sequence by sequence, from the storyboard."""
    return [int(i) for sequence in board.ids for i in sequence]


def test_every_id_of_the_batch_has_a_drawn_row_of_e() -> None:
    board = prepared_storyboard("BatchLookup", GPT2_BATCH, environ={})
    for beat in board.beats:
        if beat.action in ("lookup", "lookup_many") and beat.window is not None:
            assert set(_ids(board)) <= set(beat.window.rows), beat.name
    assert any(beat.window is not None for beat in board.beats)


def test_every_copy_leaves_its_row_while_the_row_stands_outlined() -> None:
    board = prepared_storyboard("BatchLookup", GPT2_BATCH, environ={})
    checked: dict[int, int] = {}
    unlit: list[str] = []

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.beat.action not in ("lookup", "lookup_many"):
            return
        lit = {row: opacity for row, _, opacity in _row_outlines(scene, least=0.0)}
        row_h = scene.stage.plan.sizes.row_height
        for strip in _strips(scene):
            # Come out from under its row, still partly behind E or just out, level with it.
            if not (strip.shows or strip.moved) or strip.clear > JUST_OUT:
                continue
            if abs(strip.dy) > row_h / 4:
                continue
            checked[strip.key] = strip.row
            if lit.get(strip.row, 0.0) < FULL:
                unlit.append(
                    f"{moment.beat.name} s{moment.step} a{moment.alpha:.2f}: row {strip.row}, "
                    f"outline at {lit.get(strip.row, 0.0):.2f}"
                )

    # Only the lookups' rest is read: the other beats play unsampled (tests/test_moment_beats.py).
    lookups = {b.name for b in board.beats if b.action in ("lookup", "lookup_many")}
    play_moments(board, read, alphas=REST_ALPHAS, beats=lookups)
    assert sorted(checked.values()) == sorted(_ids(board)), sorted(checked.values())
    assert not unlit, "copies left an unlit row:\n" + "\n".join(unlit[:20])
