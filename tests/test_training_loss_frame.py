"""TrainingNudge's loss beat as a 720p review saw it (issue 18, "lecture-hall frames").

The review found the chips floating under the table with a third of the frame
empty and no looked-up row shown, and the gradient's body standing blank from
5 s to 29.9 s. The loss ``L = Σ w_t·e_t`` is now defined beside what it is
computed from: each position's row ``e_t = E[id_t]``, beside its chip; the
gradient makes way for them and is back as the backward pass fills it.
"""

from __future__ import annotations

from typing import Any

import pytest
from drawn import drawn_opacity, on_screen
from frame_space import EIGHTH, share_now
from manim import config

from embedviz.inputs import prepared_storyboard
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.glyphs import NumberText
from embedviz.render.moments import play_moments
from embedviz.render.parts.chips import Chip
from embedviz.render.space import largest_empty_rectangle

CASES: list[dict[str, Any]] = [
    {},
    {"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768},
    {"theme": "light"},
]
IDS = ["default", "gpt2", "light"]
# The longest the gradient's body may stand on screen with no number in it, in seconds:
# the introduction shows it (what training will find) for one phrase.
BLANK_SECONDS = 8.0


def _blank_gradient(scene: Any, shown: set[int]) -> list[Any]:
    """Return the gradient's body while it is drawn with no number in it (else nothing)."""
    gradient = scene.stage.gradient
    if drawn_opacity(gradient.grid, shown) < 0.5:
        return []
    if any(drawn_opacity(n, shown) >= 0.5 for n in gradient.rows.all()):
        return []
    return [gradient.grid]


def _rows_of_e(board: Any) -> dict[int, list[str]]:
    """Return each drawn row of E's numbers as texts, by row."""
    return {
        row: [c.text for c in board.beats[0].numbers if c.kind == "weight" and c.index[0] == row]
        for row in board.beats[0].window.rows
    }


def _frame(scene: Any) -> dict[str, Any]:
    """Return what a moment shows: its drawn chips, the row of numbers beside each, the
    largest empty area between the title and the caption (a frame share; a body with no
    number in it counts as empty)."""
    seen: dict[str, Any] = {}
    shown = on_screen(scene)
    family = [m for top in scene.mobjects for m in top.get_family()]
    chips = [m for m in family if isinstance(m, Chip) and drawn_opacity(m, shown) >= 0.5]
    numbers = [m for m in family if isinstance(m, NumberText) and drawn_opacity(m, shown) >= 0.5]
    seen["chips"] = len(chips)
    seen["beside"] = []
    for chip in chips:
        y, right = float(chip.get_center()[1]), float(chip.get_right()[0])
        line = sorted(
            (n for n in numbers if abs(float(n.get_center()[1]) - y) < chip.height / 2),
            key=lambda n: float(n.get_center()[0]),
        )
        # The row's numbers right of the chip, up to the next chip or the frame's edge.
        after = [n for n in line if float(n.get_left()[0]) > right]
        nearest = after[0] if after else None
        near = nearest is not None and float(nearest.get_left()[0]) - right < 3 * chip.width
        row = [n.cell.text for n in after if n.cell.kind == nearest.cell.kind] if near else []
        seen["beside"].append((int(chip.number.cell.value), row))
    band = content_band(scene.stage.title)
    leave_out = [scene.stage.title, scene.caption, *_blank_gradient(scene, shown)]
    boxes = mobject_boxes(scene.mobjects, leave_out, scene.stage.theme.background)
    empty = largest_empty_rectangle(boxes, band)
    seen["empty"] = empty.area / (config.frame_width * config.frame_height)
    return seen


@pytest.mark.parametrize("overrides", CASES, ids=IDS)
def test_the_loss_is_defined_beside_each_looked_up_row_and_its_chip(
    overrides: dict[str, Any],
) -> None:
    """At the loss beat's end each chip stands on the line of a row of numbers just
    right of it, and that row is the row of E its ID looks up (the same texts); no
    area between the title and the caption larger than about an eighth of the frame
    stands empty, a body with no number in it counting as empty."""
    board = prepared_storyboard("TrainingNudge", overrides, environ={})
    rows_of_e = _rows_of_e(board)
    seen: dict[str, Any] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha >= 1:
            seen.update(_frame(scene))

    play_moments(board, read, alphas=(), pixel_width=192, pixel_height=108, beats=("loss",))
    assert seen["chips"] >= len(board.ids or ()) > 0
    ids = list(board.ids) if isinstance(board.ids, tuple) else [board.ids]
    looked_up = {token_id for token_id, row in seen["beside"] if row == rows_of_e[token_id]}
    assert looked_up == set(ids), seen["beside"]
    assert seen["empty"] <= EIGHTH, f"{seen['empty']:.1%} of the frame stands empty"


@pytest.mark.parametrize("overrides", CASES, ids=IDS)
def test_each_chip_comes_with_its_row(overrides: dict[str, Any]) -> None:
    """From the chips' arrival on, every sampled moment of the loss beat shows each drawn
    chip with its looked-up row of E beside it, and no area larger than about an eighth
    of the frame empty, as tests/frame_space.py measures it (the caption counts as
    drawn). (The chips stood alone for 1.8 s while the narration spoke, the frame
    15.6 % empty, until the next phrase brought their rows.)"""
    board = prepared_storyboard("TrainingNudge", overrides, environ={})
    rows_of_e = _rows_of_e(board)
    moments: list[tuple[float, dict[str, Any]]] = []

    def read(scene: Any, moment: Any) -> None:
        frame = {**_frame(scene), "empty": share_now(scene)}
        if frame["chips"] or moments:
            moments.append((moment.time, frame))

    alphas = (0.2, 0.4, 0.6, 0.8)
    play_moments(board, read, alphas=alphas, pixel_width=192, pixel_height=108, beats=("loss",))
    assert moments, "no chip came"
    alone = [
        (round(time, 2), token_id)
        for time, frame in moments
        for token_id, row in frame["beside"]
        if row != rows_of_e[token_id]
    ]
    assert not alone, f"chips without their rows (s, ID): {alone}"
    empty = [(round(time, 2), f"{frame['empty']:.1%}") for time, frame in moments]
    assert all(frame["empty"] <= EIGHTH for _, frame in moments), empty


@pytest.mark.parametrize("overrides", CASES, ids=IDS)
def test_the_gradient_never_stands_blank_for_long(overrides: dict[str, Any]) -> None:
    """The gradient's body is never on screen with no number in it for more than
    BLANK_SECONDS on end (it stood blank from 5 s to 29.9 s)."""
    board = prepared_storyboard("TrainingNudge", overrides, environ={})
    blank: list[tuple[float, bool]] = []

    def read(scene: Any, moment: Any) -> None:
        blank.append((moment.time, bool(_blank_gradient(scene, on_screen(scene)))))

    play_moments(board, read, alphas=(0.25, 0.5, 0.75, 1.0), pixel_width=192, pixel_height=108)
    longest, start = 0.0, None
    for time, empty in sorted(blank):
        if empty and start is None:
            start = time
        if not empty and start is not None:
            longest, start = max(longest, time - start), None
    assert start is None, "the gradient ends blank"
    assert longest <= BLANK_SECONDS, f"blank for {longest:.1f} s"
