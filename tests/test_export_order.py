"""An export starts its clips longest first, so a long clip never runs alone at the end."""

from __future__ import annotations

from embedviz.export.site import _estimated_units, longest_first
from embedviz.story.scenes import SCENES


def test_the_longest_clip_starts_first_and_ties_keep_teaching_order() -> None:
    names = list(SCENES)
    units = _estimated_units(names, "l", None, {})
    order = longest_first(names, units)
    assert sorted(order) == sorted(names)
    # The composite of every scene is by far the longest: it starts first, not last.
    assert order[0] == "FullExplainer"
    assert [units[name] for name in order] == sorted(units.values(), reverse=True)
    # Equal estimates keep the order they were given in.
    assert longest_first(["b", "a", "c"], {"a": 2, "b": 2, "c": 5}) == ["c", "b", "a"]
