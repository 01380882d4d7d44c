"""ParameterCount's panel: what stands keeps its place, and the closing frame is E's.

A teacher's 720p review of ParameterCount (default options, issue 18, lecture-hall
frames) found the panel (the count, the memory and widths tables) reflowing as new
items arrived: at the lookup (42.6 s) the count's line, the memory table and the
widths table, all standing, each jumped to a new place to make room for the copied
row, the memory table and the count for the third time since float32. The closing
frame (42.6-51.8 s) was dense, E a thumbnail beside two tables.

Now, from float32's end on, each of the panel's items stands in at most two places
(the count's two lines join into one line as the widths table comes; the memory table
fades where it stands then: tests/test_parameter_count_compare.py), and at the lookup
nothing that stands moves but E: the widths table fades where it stands, the count's
line stays as the frame's summary, and E comes forward with its copied row.

Each item is read from the drawn mobjects (its box, in scene units) at several
moments of every step and at every beat's end.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard

ALPHAS = (0.1, 0.5, 0.9)
CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "light": {"theme": "light"},
    "toy": {"vocab": 6, "dim": 3},
    "huge": {"dim": 16384, "ids": "255999", "vocab": 256000},
}
# From here on the panel stands beside E: earlier, the count stood in E's column.
FIRST = "float32"
Box = tuple[float, float, float, float]
# A moment: its beat, step, alpha and time; each panel item's box where drawn (else None).
Moment = tuple[str, int, float, float, dict[str, Box | None]]


def _items(stage: Any) -> dict[str, Any]:
    """Return the panel's items by name: the count's line, each table's header and rows."""
    items = {
        "count": stage.count.product,
        "parameters": stage.count.word,
        "memory header": stage.memory.header,
        "widths header": stage.widths.header,
    }
    items |= {f"memory row {n}": row for n, row in enumerate(stage.memory.rows)}
    for n, (texts, bar) in enumerate(stage.widths.rows):
        items[f"widths row {n}"] = texts
        items[f"widths bar {n}"] = bar
    return items


def _box(mobject: Any, drawn: set[int]) -> Box | None:
    """Return a mobject's box if any of it is drawn and seen, else None."""
    shown = [
        m
        for m in mobject.get_family()
        if id(m) in drawn and len(m.points) and m.get_fill_opacity() + m.get_stroke_opacity() > 0
    ]
    if not shown:
        return None
    lows = [m.get_corner([-1, -1, 0]) for m in shown]
    highs = [m.get_corner([1, 1, 0]) for m in shown]
    return (
        float(min(p[0] for p in lows)),
        float(min(p[1] for p in lows)),
        float(max(p[0] for p in highs)),
        float(max(p[1] for p in highs)),
    )


@functools.cache
def _moments(case: str) -> tuple[Moment, ...]:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("ParameterCount", CASES[case], environ={})
    found: list[Moment] = []

    def read(scene: Any, moment: Any) -> None:
        drawn = {id(m) for top in scene.mobjects for m in top.get_family()}
        boxes = {name: _box(m, drawn) for name, m in _items(scene.stage).items()}
        found.append((moment.beat.name, moment.step, moment.alpha, moment.time, boxes))

    play_moments(board, read, alphas=ALPHAS)
    return tuple(sorted(found, key=lambda f: f[3]))


def _same(a: Box, b: Box) -> bool:
    return all(abs(x - y) <= 1e-4 for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_panel_item_rests_in_at_most_two_places(case: str) -> None:
    """From float32's end on, each item of the panel rests (at a beat's end) in at most two
    places: one glide at most (three for the memory table and the count before)."""
    moments = _moments(case)
    start = next(n for n, m in enumerate(moments) if m[0] == FIRST and m[2] == 1.0)
    places: dict[str, list[Box]] = {}
    for _, _, alpha, _, boxes in moments[start:]:
        if alpha != 1.0:
            continue
        for name, box in boxes.items():
            if box is not None and not any(_same(box, seen) for seen in places.get(name, [])):
                places.setdefault(name, []).append(box)
    assert {"count", "memory row 0", "widths row 0"} <= set(places), sorted(places)
    moved = {name: len(seen) for name, seen in places.items() if len(seen) > 2}
    assert not moved, moved


@pytest.mark.parametrize("case", sorted(CASES))
def test_nothing_in_the_panel_moves_at_the_lookup(case: str) -> None:
    """Each item standing at the compare beat's end stands where it stood at every moment of
    the lookup that shows it (the count's line, the memory and widths tables all moved),
    and the tables are gone by the lookup's end: the count's line alone stays."""
    moments = _moments(case)
    (before,) = [m[4] for m in moments if m[0] == "compare" and m[2] == 1.0]
    lookup = [m for m in moments if m[0] == "lookup"]
    assert len(lookup) >= 9
    for _, step, alpha, time, boxes in lookup:
        for name, box in boxes.items():
            stood = before.get(name)
            if box is not None:
                assert stood is not None, (name, step, alpha, time)
                assert _same(box, stood), (name, step, alpha, time)
    final = lookup[-1][4]
    assert {name for name, box in final.items() if box is not None} == {"count", "parameters"}
