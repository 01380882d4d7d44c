"""TrainingNudge with IDs that select every row of a small table.

The scatter beat's second step faded in the rows no ID selected; with
``--ids 0,1,2,3,4,5`` on the 6-row table there were none, and manim refused an
empty AnimationGroup: the render died with a traceback. The narration also
said "Every other row gets exactly zero." when no other row existed.
"""

from __future__ import annotations

from typing import Any

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

EVERY_ROW = {"ids": [0, 1, 2, 3, 4, 5]}


def test_the_scatter_says_no_row_is_left_at_zero() -> None:
    board = prepared_storyboard("TrainingNudge", EVERY_ROW, environ={})
    scatter = next(beat for beat in board.beats if beat.name == "scatter")
    assert "zero" not in scatter.narration
    assert "every row" in scatter.narration
    # The rows it drew are exactly the table's rows, each selected by some ID.
    assert set(scatter.window.rows) == set(EVERY_ROW["ids"])


def test_the_scene_plays_to_its_last_beat() -> None:
    board = prepared_storyboard("TrainingNudge", EVERY_ROW, environ={})
    played: list[str] = []

    def seen(scene: Any, moment: Any) -> None:
        played.append(moment.beat.name)

    play_moments(board, seen, alphas=(1.0,), pixel_width=192, pixel_height=108)
    assert played[-1] == board.beats[-1].name
    assert {beat.name for beat in board.beats} <= set(played)
