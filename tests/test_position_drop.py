"""PositionBlindness's ``same`` beat searches for its glides without rebuilding what stays.

``PositionStage._drop`` measures the frame's largest empty area for some 600
layouts (the output side's glide, the legend's lift and shift); py-spy put it
at a third of the scene's play. E narrows alike whatever the output side's
glide, so its narrowed points are built once for the search, not once per
glide tried: the same points, put in place with each glide's output side, so
the search measures the same boxes and chooses the same glides.
"""

from __future__ import annotations

from typing import Any

import pytest


def test_the_glide_search_narrows_e_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import embedviz.render.stages.position_blindness as module
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.moments import play_moments

    real_drop, real_narrowed = module.PositionStage._drop, module.narrowed
    searching: list[set[int]] = []
    narrowed_e: list[int] = []
    glides = 0

    def drop(self: Any, tops: Any, left: Any, room: Any, matrix: Any, output: Any) -> Any:
        searching.append({id(m) for m in matrix})
        try:
            return real_drop(self, tops, left, room, matrix, output)
        finally:
            searching.pop()

    def narrowed(moving: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal glides
        if searching:
            glides += 1
            if any(id(m) in searching[-1] for m in moving):
                narrowed_e.append(len(moving))
        return real_narrowed(moving, *args, **kwargs)

    monkeypatch.setattr(module.PositionStage, "_drop", drop)
    monkeypatch.setattr(module, "narrowed", narrowed)
    board = prepared_storyboard("PositionBlindness", {}, environ={})
    # Nothing is read: every beat plays unsampled, ``same`` searching as it does in a render.
    play_moments(board, lambda scene, moment: None, pixel_width=192, pixel_height=108, beats=())
    assert glides > 10  # the search tried many glides (each narrows the output side)
    assert len(narrowed_e) == 1, f"E narrowed {len(narrowed_e)} times in one search"
