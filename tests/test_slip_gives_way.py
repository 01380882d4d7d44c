"""ZeroBasedIndexing's struck-out slip is read in its own beats (a 720p review, session 29).

The storyboard acts out the one-based slip ("counting from one", "ID 3 -> row
index 2"), strikes it out as the count from zero corrects it, and names it again
only in the diagnosis ("If you expected the fourth row, you counted from one"). A
teacher's review saw the struck-out lines stand above the debugging trace through
the trace and check beats, clutter over the lines being read. They go with the
trace's first motion (as what the slip fetched does) and come back, still struck
out, for the diagnosis, which points at them.
"""

from __future__ import annotations

from typing import Any

from manim import VMobject

from embedviz.inputs import prepared_storyboard

SHOWN = 0.5


def _slip_seen() -> dict[tuple[str, int, float], bool]:
    """Play the scene dry: whether the slip's lines are drawn, visibly, at each moment."""
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("ZeroBasedIndexing", {}, environ={})
    seen: dict[tuple[str, int, float], bool] = {}

    def read(scene: Any, moment: Any) -> None:
        slip = scene.stage.slip
        drawn = {id(m) for top in scene.mobjects for m in top.get_family()}
        inks = [
            m
            for part in (slip.header, slip.line)
            for m in part.get_family()
            if isinstance(m, VMobject) and len(m.points)
        ]
        seen[(moment.beat.name, moment.step, moment.alpha)] = any(
            id(m) in drawn and m.get_fill_opacity() > SHOWN for m in inks
        )

    play_moments(board, read, alphas=(0.5, 1.0))
    return seen


def test_slip_leaves_for_the_trace_and_returns_for_the_diagnosis() -> None:
    seen = _slip_seen()
    ends = {beat: shown for (beat, _, alpha), shown in seen.items() if alpha == 1.0}
    # Its own beats: acted out, then struck out beside the count that corrects it.
    assert ends["one-based"], ends
    assert ends["zero-based"], ends
    cluttered = [beat for beat in ("trace", "check") if ends[beat]]
    assert not cluttered, f"the struck-out slip still stands at the end of {cluttered}"
    # Gone once the trace's first motion (which fades it with what it fetched) is over.
    late = [
        (beat, step, alpha)
        for (beat, step, alpha), shown in seen.items()
        if shown and (beat == "check" or (beat == "trace" and (step, alpha) >= (0, 1.0)))
    ]
    assert not late, f"the struck-out slip shows over the trace at {late}"
    # The diagnosis names the slip and points at its row index: it is there to be seen.
    assert seen[("diagnose", 0, 0.5)], "the diagnosis points at a slip that is not shown"


def test_the_storyboard_drops_the_slips_numbers_while_the_trace_is_read() -> None:
    """The storyboard lists every number on screen per beat (tests/test_screen_numbers.py):
    the slip's (its ID, its row index, the row it fetched) are not on screen for the trace
    and the check, and its ID and row index are back for the diagnosis."""
    board = prepared_storyboard("ZeroBasedIndexing", {}, environ={})
    slip = {"wrong_id", "wrong_index", "wrong_value"}
    kinds = {beat.name: {c.kind for c in beat.numbers} & slip for beat in board.beats}
    assert kinds["one-based"] == slip
    assert kinds["trace"] == kinds["check"] == set()
    assert kinds["diagnose"] == {"wrong_id", "wrong_index"}
    numbers = {(c.kind, c.text) for c in board.beats[-1].numbers if c.kind in slip}
    assert numbers == {("wrong_id", "3"), ("wrong_index", "2")}
