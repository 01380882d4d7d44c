"""PositionBlindness's ``same`` beat searches for its glides without rebuilding what stays.

``PositionStage._drop`` measures the frame's largest empty area for some 600
layouts (the output side's glide, the legend's lift and shift); py-spy put it
at a third of the scene's play. E narrows alike whatever the output side's
glide, and the output side narrows alike but for the glide, so each side's
families are walked once for the search, not once per glide tried: the same
points, put in place with each glide, so the search measures the same boxes
and chooses the same glides.
"""

from __future__ import annotations

from typing import Any

import pytest


def test_the_glide_search_walks_each_table_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import embedviz.render.stages.position_blindness as module
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.moments import play_moments

    searching: list[tuple[set[int], set[int]]] = []
    walks: list[str] = []  # the side each narrowing walk in the search was over
    glides = 0

    real_drop = module.PositionStage._drop

    def drop(self: Any, tops: Any, left: Any, room: Any, sides: Any, band: Any) -> Any:
        matrix, output = sides
        searching.append(({id(m) for m in matrix}, {id(m) for m in output}))
        try:
            return real_drop(self, tops, left, room, sides, band)
        finally:
            searching.pop()

    def walking(real: Any) -> Any:
        def walk(moving: Any, *args: Any, **kwargs: Any) -> Any:
            if searching:
                matrix, output = searching[-1]
                ids = {id(m) for m in moving}
                walks.extend(side for side, its in (("E", matrix), ("output", output)) if ids & its)
            return real(moving, *args, **kwargs)

        return walk

    real_placed = module.placed

    def placed(targets: Any) -> Any:
        nonlocal glides
        glides += bool(searching)
        return real_placed(targets)

    monkeypatch.setattr(module.PositionStage, "_drop", drop)
    monkeypatch.setattr(module, "placed", placed)
    # Whatever walks the tables' families to narrow them (main had ``narrowed`` alone).
    for name in ("narrowed", "narrowing"):
        if hasattr(module, name):
            monkeypatch.setattr(module, name, walking(getattr(module, name)))
    board = prepared_storyboard("PositionBlindness", {}, environ={})
    # Nothing is read: every beat plays unsampled, ``same`` searching as it does in a render.
    play_moments(board, lambda scene, moment: None, pixel_width=192, pixel_height=108, beats=())
    assert glides > 10  # the search tried many glides
    assert sorted(walks) == ["E", "output"], (
        f"{walks.count('E')} walks over E, {walks.count('output')} over the output side"
    )
