"""``play_moments(..., beats=...)``: a check that reads one beat sees what it sees among all.

Sampling a play's steps mid-motion costs far more than playing it, so a check
that reads one beat names it and the others play through unsampled. Skipping
their samples must not change what the named beat shows: the same moments,
at the same times, with every mobject drawn exactly where and how it is when
every beat is sampled.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

CASES = [("SequenceLookup", {}, "lookup-1"), ("BatchLookup", {}, "repeats")]


def _read(scene: str, overrides: dict[str, Any], beat: str, beats: Any) -> list[Any]:
    """Return, for each moment of ``beat``, its timing and every drawn mobject's points."""
    board = prepared_storyboard(scene, overrides, environ={})
    seen: list[Any] = []

    def read(scene_object: Any, moment: Any) -> None:
        if moment.beat.name != beat:
            return
        drawn = [m for top in scene_object.mobjects for m in top.get_family()]
        looks = [
            (type(m).__name__, np.array(m.points), np.array(getattr(m, "fill_rgbas", np.zeros(0))))
            for m in drawn
        ]
        seen.append(((moment.step, moment.alpha, moment.time, moment.stale), looks))

    play_moments(board, read, alphas=(0.3, 0.7), pixel_width=192, pixel_height=108, beats=beats)
    return seen


@pytest.mark.parametrize(("scene", "overrides", "beat"), CASES)
def test_a_beat_read_alone_shows_what_it_shows_among_all(
    scene: str, overrides: dict[str, Any], beat: str
) -> None:
    """The named beat's moments, read alone, equal its moments read with every beat."""
    alone = _read(scene, overrides, beat, {beat})
    among = _read(scene, overrides, beat, None)
    assert len(alone) >= 3  # two samples of a step and the end, at least
    assert [when for when, _ in alone] == [when for when, _ in among]
    for (when, first), (_, second) in zip(alone, among, strict=True):
        assert [name for name, _, _ in first] == [name for name, _, _ in second], when
        for (name, points, fill), (_, other, other_fill) in zip(first, second, strict=True):
            assert points.shape == other.shape, (when, name)
            assert np.allclose(points, other), (when, name)
            assert fill.shape == other_fill.shape, (when, name)
            assert np.allclose(fill, other_fill), (when, name)


def test_other_beats_are_not_reported() -> None:
    """Only the named beats' moments reach the callback (mid-motion and at their ends)."""
    board = prepared_storyboard("SequenceLookup", {}, environ={})
    names: set[str] = set()
    play_moments(
        board,
        lambda _scene, moment: names.add(moment.beat.name),
        alphas=(0.5,),
        pixel_width=192,
        pixel_height=108,
        beats={"intro", "lookup-0"},
    )
    assert names == {"intro", "lookup-0"}
