"""The moment sampler's shortcuts give the answers the plain ways gave.

The faster family walks (embedviz/render/family.py): ``family_of`` must be
``get_family()`` (the same members, in the same order), ``family_ids`` the
ids of every family member, and ``has_family_outside`` whether a member with
points is missing from a set; the off-scene check that uses them must name
what the plain walk named. Checked on shared members and cycles (where the
fast walk hands over to manim), and on every sample of a played scene.

The Typst folder a process's plays share (``play_moments``): maths compiled
in an earlier play is drawn as maths compiled afresh in a play's own folder.
"""

from __future__ import annotations

from typing import Any

from manim import Dot, Square, VGroup, VMobject

from embedviz.inputs import prepared_storyboard
from embedviz.render.family import family_ids, family_of, has_family_outside


def _ids(mobjects: list[Any]) -> list[int]:
    return [id(m) for m in mobjects]


def _reference_off_scene(scene: Any) -> tuple[str, ...]:
    """The off-scene check as it was, walking manim's lists (moments._drawn_off_scene)."""
    on_scene = {id(m) for m in scene.get_mobject_family_members()}
    drawn = [m for top in scene.moving_mobjects for m in top.get_family()]
    return tuple(
        f"{type(m).__name__} {getattr(m, 'text', '')!s} (off the scene, still drawn)".strip()
        for m in {id(m): m for m in drawn if id(m) not in on_scene and len(m.points)}.values()
    )


def test_a_tree_is_walked_in_manims_order() -> None:
    a, b, c, d = Square(), Dot(), Square(), Dot()
    inner = VGroup(b, c)
    top = VGroup(a, inner, VGroup(), d)
    assert _ids(family_of(top)) == _ids(top.get_family())
    assert _ids(family_of(a)) == [id(a)]
    assert family_ids([top]) == {id(m) for m in top.get_family()}


def test_a_shared_member_keeps_manims_place() -> None:
    # One dot in two groups: manim keeps its last place; a plain walk would keep its first.
    shared = Dot()
    top = VGroup(VGroup(shared, Square()), Square(), VGroup(shared))
    assert _ids(family_of(top)) == _ids(top.get_family())
    assert _ids(family_of(top)) != _ids([top, top[0], shared, *top[0][1:], top[1], top[2]])


def test_a_cycle_ends_as_manims_walk_ends() -> None:
    outer, inner = VGroup(Square()), VGroup(Dot())
    outer.add(inner)
    inner.submobjects.append(outer)  # manim's add refuses a parent; a list does not
    assert _ids(family_of(outer)) == _ids(outer.get_family())
    assert family_ids([outer]) == {id(m) for m in outer.get_family()}


def test_a_member_with_points_outside_is_found() -> None:
    kept, gone, empty = Square(), Dot(), VMobject()
    group = VGroup(kept, VGroup(gone, empty))
    inside = {id(group), id(kept), id(group[1]), id(empty)}
    assert has_family_outside([group], inside)
    # A member without points drawn off the scene draws nothing: it is not counted.
    assert not has_family_outside([group], inside | {id(gone)})
    assert not has_family_outside([group], inside - {id(empty)} | {id(gone)})


def test_every_sample_walks_as_manim_does() -> None:
    from embedviz.render.moments import _drawn_off_scene, play_moments

    board = prepared_storyboard("BatchLookup", {}, environ={})
    seen = {"samples": 0, "members": 0}

    def read(scene: Any, moment: Any) -> None:
        for top in scene.mobjects:
            assert _ids(family_of(top)) == _ids(top.get_family())
        members = scene.get_mobject_family_members()
        assert family_ids(scene.mobjects) == set(_ids(members))
        if moment.alpha < 1:
            assert _drawn_off_scene(scene) == _reference_off_scene(scene)
        seen["samples"] += 1
        seen["members"] = max(seen["members"], len(members))

    play_moments(board, read, alphas=(0.25, 0.75), pixel_width=192, pixel_height=108)
    assert seen["samples"] > 30
    assert seen["members"] > 200


class _Scene:
    """Just what the off-scene check reads of a scene mid-play."""

    def __init__(self, mobjects: list[Any], moving: list[Any]) -> None:
        self.mobjects = mobjects
        self.moving_mobjects = moving

    def get_mobject_family_members(self) -> list[Any]:
        from manim.utils.family import extract_mobject_family_members

        return extract_mobject_family_members(self.mobjects)


def test_what_is_drawn_off_the_scene_is_named_as_before() -> None:
    from embedviz.render.moments import _drawn_off_scene

    kept, gone, again = Square(), Dot(), Square()
    group = VGroup(kept, VGroup(gone, VMobject()), again)
    # The group's middle part left the scene (it stays drawn); a square on it is drawn twice.
    on = _Scene([kept, again], [group, again, gone])
    assert _drawn_off_scene(on) == _reference_off_scene(on)
    assert _drawn_off_scene(on) == ("Dot  (off the scene, still drawn)",)  # no text: two spaces
    assert _drawn_off_scene(_Scene([group], [group, gone])) == ()


def _drawn(board: Any, media_dir: Any = None) -> list[tuple[str, bytes, float, float]]:
    """Every mobject's points, stroke and fill at every beat end of one play."""
    from embedviz.render.moments import play_moments

    seen: list[tuple[str, bytes, float, float]] = []

    def read(scene: Any, moment: Any) -> None:
        for top in scene.mobjects:
            for m in top.get_family():
                width = float(m.get_stroke_width()) if len(m.points) else 0.0
                fill = float(m.get_fill_opacity()) if len(m.points) else 0.0
                seen.append((type(m).__name__, m.points.tobytes(), width, fill))

    play_moments(board, read, alphas=(), pixel_width=192, pixel_height=108, media_dir=media_dir)
    return seen


def test_maths_compiled_once_per_process_is_drawn_as_when_compiled_afresh(tmp_path: Any) -> None:
    import os

    from manim.mobject.svg.svg_mobject import SVG_HASH_TO_MOB_MAP

    from embedviz.render.moments import _typeset_folder

    # TrainingNudge sets fractions (∂L/∂E): a parsed copy kept from another play would
    # keep that play's bars. Its own scratch folder (media_dir) compiles and parses afresh.
    board = prepared_storyboard("TrainingNudge", {}, environ={})
    afresh = _drawn(board, media_dir=tmp_path)
    first, again = _drawn(board), _drawn(board)
    folder = _typeset_folder()
    assert any(name.endswith(".svg") for name in os.listdir(folder))
    assert first == afresh
    assert again == afresh
    assert not [
        m
        for m in SVG_HASH_TO_MOB_MAP.values()
        if str(getattr(m, "file_name", "")).startswith(folder)
    ]
