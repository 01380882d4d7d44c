"""Pieces resting away from their solved places (embedviz.render.rests), and ParameterCount's."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from manim import Rectangle, Square, VGroup

from embedviz.inputs import prepared_storyboard
from embedviz.render.parts.glide import MIN_GLIDE_SECONDS
from embedviz.render.rests import Rests


def _pieces() -> tuple[VGroup, Square, dict[str, list[Any]]]:
    pair = VGroup(Square(1.0).shift([-2.0, 0.0, 0.0]), Rectangle(width=2.0, height=0.5))
    alone = Square(0.5).shift([3.0, 1.0, 0.0])
    return pair, alone, {"pair": [pair], "alone": [alone]}


def test_a_piece_rests_at_its_scale_and_centre_and_goes_home_exactly() -> None:
    pair, alone, pieces = _pieces()
    solved = [m.points.copy() for m in (*pair, alone)]
    rests = Rests(pieces)
    width = pair.width
    rests.put({"pair": (2.0, 1.0, -1.0)})
    assert pair.get_center()[:2] == pytest.approx([1.0, -1.0])
    assert pair.width == pytest.approx(2 * width)
    # The members keep their arrangement, scaled: the square stays left of the rectangle.
    assert pair[0].get_center()[0] < pair[1].get_center()[0]
    assert np.allclose(alone.points, solved[2]), "a piece not named stays home"
    settle = rests.settle({})
    assert settle is not None
    settle.begin()
    settle.interpolate(1.0)
    for mobject, points in zip((*pair, alone), solved, strict=True):
        assert np.array_equal(mobject.points, points)


def test_a_settle_eases_from_where_the_pieces_stand() -> None:
    pair, _, pieces = _pieces()
    rests = Rests(pieces)
    start = pair.get_center().copy()
    settle = rests.settle({"pair": (1.0, start[0] + 4.0, start[1])})
    assert settle is not None
    assert pair[0] in settle.may_move()
    settle.begin()
    settle.interpolate(0.5)
    # Smooth easing is halfway at half time.
    assert pair.get_center()[0] == pytest.approx(start[0] + 2.0)
    settle.interpolate(1.0)
    assert pair.get_center()[0] == pytest.approx(start[0] + 4.0)
    assert rests.settle({"pair": (1.0, start[0] + 4.0, start[1])}) is None


def test_building_stands_the_pieces_at_the_beats_places_then_back() -> None:
    pair, _, pieces = _pieces()
    rests = Rests(pieces)
    before = pair.get_center().copy()
    with rests.building({"pair": (1.0, 5.0, 2.0)}):
        assert pair.get_center()[:2] == pytest.approx([5.0, 2.0])
    assert pair.get_center() == pytest.approx(before)


def test_a_piece_with_nothing_drawn_is_left_out() -> None:
    rests = Rests({"empty": [VGroup()], "square": [Square()]})
    assert set(rests.pieces) == {"square"}


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1e-6 and min(a[3], b[3]) - max(a[1], b[1]) > 1e-6


@cache
def _plan(overrides: tuple[tuple[str, Any], ...]) -> Any:
    from embedviz.render.solve_parameter_count import ParamSpec, solve_parameter_count

    board = prepared_storyboard("params", dict(overrides), environ={})
    return solve_parameter_count(ParamSpec.from_board(board))


@pytest.mark.parametrize("overrides", [{}, {"vocab": 256000, "dim": 16384, "ids": "255999"}])
@pytest.mark.parametrize("action", ["table", "count", "dtype", "compare"])
def test_parameter_count_rests_inside_the_frame_without_overlaps(
    overrides: dict[str, Any], action: str
) -> None:
    """Every resting piece stays inside the bands, clear of the others; E's numbers the largest."""
    from embedviz.render.design import MAX_DATA_PX, px_for_font
    from embedviz.render.param_rests import rest_places

    plan = _plan(tuple(sorted(overrides.items())))
    bands = plan.bands
    # Solved boxes of the pieces shown at the end of each kind of beat (a line is two
    # digits tall; E's block spans the solved rows).
    line = 2 * plan.sizes.row_height / 2.4
    top, depth = plan.matrix_top, sum(slot.size for slot in plan.rows)
    solved = {
        "block": (plan.matrix_left - 0.3, top - depth, plan.matrix_left + plan.body_width, top),
        "heading": (bands.left, bands.top - line, bands.left + 2.6, bands.top),
        "rows": (bands.left, 2.6, bands.left + 1.5, 2.6 + line),
        "columns": (bands.left + 1.6, 2.6, bands.left + 3.5, 2.6 + line),
        "hidden": (-4.6, -2.7, -1.7, -2.5),
        "product": (plan.panel_left, 2.9, plan.panel_left + 2.3, 2.9 + line),
        "count": (plan.panel_left + 2.4, 2.9, plan.panel_left + 6.0, 2.9 + line),
        "line": (plan.panel_left, 2.9, plan.panel_left + 6.0, 2.9 + line),
        "memory_header": (plan.panel_left, 2.2, plan.column_right[-1], 2.2 + line),
        "memory": (plan.panel_left, 1.1, plan.column_right[-1], 2.0),
        "widths_header": (plan.panel_left, -1.0, plan.column_right[-1], -1.0 + line),
        "widths": (plan.panel_left, -2.6, plan.column_right[-1], -1.2),
    }
    shown = {
        "table": ["block", "heading", "rows", "columns", "hidden"],
        "count": ["block", "heading", "rows", "columns", "hidden", "product", "count"],
        "dtype": ["product", "count", "memory_header", "memory"],
        "compare": ["line", "memory_header", "memory", "widths_header", "widths"],
    }[action]
    places = rest_places(action, {name: solved[name] for name in shown}, plan)
    # From the compare beat on, the count's line stands home: the summary it stays for the
    # lookup (issue 18: it moved again there).
    home = {"line"} if action == "compare" else set()
    assert set(places) == set(shown) - home
    boxes = {name: solved[name] for name in home}
    for name, (scale, x, y) in places.items():
        left, bottom, right, top_ = solved[name]
        half_w, half_h = (right - left) * scale / 2, (top_ - bottom) * scale / 2
        boxes[name] = (x - half_w, y - half_h, x + half_w, y + half_h)
        box = boxes[name]
        assert box[0] >= bands.left - 1e-9, name
        assert box[2] <= bands.right + 1e-9, name
        assert box[1] >= bands.bottom - 1e-9, name
        assert box[3] <= bands.top + 1e-9, name
        if action in ("table", "count"):
            # Nothing is drawn larger than E's numbers while E is what the beat is about.
            assert scale <= places.get("block", (1.0,))[0] + 1e-9, name
        else:
            # The panel's numbers may grow past E's (it recedes), never past the ceiling.
            assert px_for_font(plan.scale.data) * scale <= MAX_DATA_PX + 1e-6, name
    names = sorted(boxes)
    for n, a in enumerate(names):
        for b in names[n + 1 :]:
            assert not _overlap(boxes[a], boxes[b]), (a, b)
    if action in ("table", "count"):
        assert places["block"][0] > 1.1, "E is drawn larger while it is introduced"


@pytest.mark.slow
def test_parameter_count_draws_e_larger_until_the_sums_need_the_room(moment_cache: Any) -> None:
    """E's numbers are larger while it is introduced and counted; home (as solved) at the end."""
    from embedviz.render.design import px_for_font
    from embedviz.render.solve_parameter_count import ParamSpec, solve_parameter_count

    board = prepared_storyboard("params", {}, environ={})
    solved_px = px_for_font(solve_parameter_count(ParamSpec.from_board(board)).scale.data)
    ends = {s.beat.name: s for s in moment_cache("ParameterCount", {}) if s.empty is not None}

    def e_px(beat: str) -> float:
        sizes = {round(t.digit_px, 3) for t in ends[beat].texts if t.cell and t.cell[0] == "corner"}
        assert len(sizes) == 1, sizes
        return sizes.pop()

    assert e_px("table") > 1.15 * solved_px
    assert e_px("count") == pytest.approx(e_px("table"))
    assert e_px("lookup") == pytest.approx(solved_px, abs=0.05)


def test_a_leading_settle_goes_across_first_and_keeps_each_piece_whole() -> None:
    """With ``lead``, a piece's move across leads its move up (issue 18's compare: on a
    straight path the memory table went up over E's column), and its members keep their
    arrangement, scaled alike both ways, at every moment."""
    pair, _, pieces = _pieces()
    rests = Rests(pieces)
    start, width, height = pair.get_center().copy(), pair.width, pair.height
    settle = rests.settle({"pair": (0.5, start[0] + 4.0, start[1] + 2.0)}, lead=0.4)
    assert settle is not None
    # Each axis moves in 0.6 of the time: the floor is a glide's, over 0.6.
    assert settle.floor() >= MIN_GLIDE_SECONDS / 0.6 - 1e-9
    settle.begin()
    settle.interpolate(0.4)
    assert pair.get_center()[1] == pytest.approx(start[1]), "not yet up"
    assert pair.get_center()[0] > start[0] + 2.0, "well across"
    for alpha in (0.3, 0.5, 0.7):
        settle.interpolate(alpha)
        assert pair.width / width == pytest.approx(pair.height / height)
    settle.interpolate(1.0)
    assert pair.get_center()[:2] == pytest.approx([start[0] + 4.0, start[1] + 2.0])
