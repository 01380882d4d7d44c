"""A teaching-pace lookup keeps its row of E outlined to the beat's end (a 720p beat-end review).

A teacher who paused at the end of SequenceLookup's ``lookup-0`` saw the copy
and its chip but no outlined source row: a short settle step at the beat's
end had faded the amber outline (and the output row's). The same held in
SingleTokenLookup's ``lookup``, ZeroBasedIndexing's ``trace``,
OneHotEquivalence's ``compare``, BatchLookup's lookup beats and GPT-2 sized
sequences.

Each teaching-pace lookup beat (one named ID: ``lookup``, ``trace``,
``compare``) is dry-run; at alpha 1.0 of its last step and at its end an
outline in the ID's amber (the theme's ``id_line``) must stand round the
looked-up row of E (and, in a sequence, round the output row it filled),
the row read from the storyboard's token ID cells (the ID the beat
highlights), not from the render code. By the end of the next
beat's first step that outline must be gone, unless that beat looks the same
row up again, or prints it (SingleTokenLookup's ``print``: the outline stands
on, tests/test_lecture_payoffs.py), or speaks of what the lookup costs
(OneHotEquivalence's ``cost`` and ``copy``: faded there, nothing tied E[3]
and its chip back to row 3 of E for the scene's last 17 s, a 720p review; it
stands to the end): the very outline that stood at the beat's end (the same
drawn object) must not stand round it any more (a beat may draw a fresh one
of its own).
"""

from __future__ import annotations

from typing import Any

import pytest
from manim import ManimColor
from test_named_row import SHOWN, SLACK, _row_boxes, outlined_rows

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments
from embedviz.story.model import Beat, Storyboard

# One ID at teaching pace, named by the narration.
TEACHING = {"lookup", "trace", "compare"}
# Beats that speak of the lookup just made (what it costs, what it copies): its row stands.
COSTS = {"cost", "copy"}
GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256"}


def _ids(board: Storyboard) -> dict[tuple[int, ...], int]:
    """Every position's token ID, from the storyboard's ``token_id`` cells."""
    return {
        tuple(c.index): int(c.value)
        for beat in board.beats
        for c in beat.numbers
        if c.kind == "token_id"
    }


def _looked_up(board: Storyboard, index: int, ids: dict[tuple[int, ...], int]) -> set[int]:
    """The rows of E beat ``index`` fetches: its named ID's, or those it fills."""
    beat = board.beats[index]
    rows: set[int] = set()
    if beat.action in TEACHING and beat.highlight is not None:
        rows.add(ids[tuple(beat.highlight.position)])
    if beat.output is not None and index > 0:
        before = board.beats[index - 1].output
        done = set(before.filled) if before is not None else set()
        rows |= {ids[tuple(p)] for p in beat.output.filled if p not in done and tuple(p) in ids}
    return rows


def _prints(beat: Beat, row: int) -> bool:
    """Whether ``beat`` prints the row just fetched (the print names it): its outline stays."""
    return beat.action == "print" and beat.highlight is not None and beat.highlight.row == row


def _outlines_of(scene: Any, colour: str) -> dict[int, set[int]]:
    """By row of E: the ids of the visible strokes in ``colour`` round that row's numbers alone."""
    wanted = ManimColor(colour).to_hex().lower()
    rows = _row_boxes(scene)
    found: dict[int, set[int]] = {}
    for top in scene.mobjects:
        for mobject in top.get_family():
            if not len(mobject.points) or float(mobject.get_stroke_width()) <= 0:
                continue
            if mobject.get_stroke_opacity() < SHOWN:
                continue
            if mobject.get_stroke_color().to_hex().lower() != wanted:
                continue
            low = mobject.get_corner([-1, -1, 0])[:2] - SLACK
            high = mobject.get_corner([1, 1, 0])[:2] + SLACK
            for row, boxes in rows.items():
                holds = all((b[0] >= low).all() and (b[1] <= high).all() for b in boxes)
                others = any(
                    ((b[0] + b[1]) / 2 >= low).all() and ((b[0] + b[1]) / 2 <= high).all()
                    for r, bs in rows.items()
                    if r != row
                    for b in bs
                )
                if holds and not others:
                    found.setdefault(row, set()).add(id(mobject))
    return found


def _sample(scene: str, overrides: dict[str, Any]) -> tuple[Storyboard, dict[str, Any]]:
    """Per beat: its rows outlined at each step's end, and at the beat's end."""
    board = prepared_storyboard(scene, overrides, environ={})
    seen: dict[str, Any] = {}

    def look(scene_object: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        colour = scene_object.stage.theme.id_line
        entry = seen.setdefault(moment.beat.name, {"steps": [], "end": None})
        rows = outlined_rows(scene_object, colour)
        if moment.step == 0 and entry["steps"] and moment.time >= entry["steps"][-1][1]:
            entry["end"] = rows
            entry["objects"] = _outlines_of(scene_object, colour)
            entry["filled"] = outlined_rows(scene_object, colour, kind="output")
        else:
            entry["steps"].append((rows, moment.time, _outlines_of(scene_object, colour)))

    play_moments(board, look, alphas=(1.0,), pixel_width=192, pixel_height=108)
    return board, seen


CASES = [
    ("SingleTokenLookup", {}),
    ("SequenceLookup", {}),
    ("SequenceLookup", GPT2),
    ("ZeroBasedIndexing", {}),
    ("OneHotEquivalence", {}),
    ("BatchLookup", {}),
]


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_a_teaching_lookup_ends_with_its_row_outlined(
    scene: str, overrides: dict[str, Any]
) -> None:
    """At its last step's end and at the beat's end, the fetched row of E stands outlined."""
    board, seen = _sample(scene, overrides)
    ids = _ids(board)
    teaching: list[Beat] = [b for b in board.beats if b.action in TEACHING and b.highlight]
    assert teaching, scene
    for index, beat in enumerate(board.beats):
        if beat.action not in TEACHING or beat.highlight is None:
            continue
        row = ids[tuple(beat.highlight.position)]
        entry = seen[beat.name]
        last = entry["steps"][-1][0]
        assert row in last, (scene, beat.name, row, last)
        assert entry["end"] is not None, beat.name
        assert row in entry["end"], (beat.name, row, entry["end"])
        position = tuple(beat.highlight.position)
        if beat.action == "lookup" and len(position) == 1:
            # The output row the copy fills stays ringed too (the strip's amber box went).
            assert position[0] in entry["filled"], (beat.name, position, entry["filled"])
        if index + 1 >= len(board.beats):
            continue
        following = board.beats[index + 1]
        if row in _looked_up(board, index + 1, ids) or _prints(following, row):
            continue
        if following.action in COSTS:
            continue
        stood = entry["objects"].get(row, set())
        first = seen[following.name]["steps"][0][2].get(row, set())
        assert not stood & first, (scene, beat.name, following.name, row)


def test_the_costs_keep_the_looked_up_row_outlined() -> None:
    """OneHotEquivalence: through the cost and copy beats, row i of E stands outlined.

    At every step's end and at each beat's end (a 720p review: from 46.9 s to
    the end nothing linked E[3] and its chip back to the table).
    """
    board, seen = _sample("OneHotEquivalence", {})
    ids = _ids(board)
    compare = next(b for b in board.beats if b.action == "compare" and b.highlight)
    row = ids[tuple(compare.highlight.position)]
    costs = [b for b in board.beats if b.action in COSTS]
    assert costs
    for beat in costs:
        entry = seen[beat.name]
        for number, (rows, _, _) in enumerate(entry["steps"]):
            assert row in rows, (beat.name, number, rows)
        assert entry["end"] is not None, beat.name
        assert row in entry["end"], (beat.name, entry["end"])
