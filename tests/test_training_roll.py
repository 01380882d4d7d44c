"""TrainingNudge's looked-up rows of E as a 720p frame review saw them at GPT-2 size.

Two findings of one review (five IDs at GPT-2 size, 4821, 12000, 4821, 33000, 17):
the amber outlines of the four looked-up rows shared their edges across the thin
bands of the hidden ranges between them, and read as one block; and mid-``update``
one of the two shown cells of each row stood blank while it rolled over.

Expected values come from :mod:`embedviz.core` (the seeded table and one SGD step), and
contrast from the WCAG formula written out here, never from the code under test.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from embedviz.core.table import TorchSeededTable
from embedviz.core.training import toy_loss_weights, training_step
from embedviz.render.fades import OutlineIn

GPT2: dict[str, Any] = {"vocab": 50257, "dim": 768}
FIVE = "4821,12000,4821,33000,17"
CASES: list[dict[str, Any]] = [{}, GPT2, {**GPT2, "ids": FIVE}, {"theme": "light"}]
IDS = ["default", "gpt2", "gpt2-five", "light"]
SEED = 123
# A gap narrower than this between two outlines' inks does not read as one at 720p (two
# amber lines 3 px apart still read as two; 1 px of background between them is lost in
# the video's compression). Side by side, two outlined rows keep CLEAR_PX, 3.5 px.
MIN_GAP_PX = 3.0
TEXT_CONTRAST = 4.5


def _ids(overrides: dict[str, Any]) -> list[int]:
    return [int(i) for i in str(overrides.get("ids", "2,3,2")).split(",")]


def _box(mobject: Any) -> tuple[float, float, float, float]:
    return (
        float(mobject.get_left()[0]),
        float(mobject.get_bottom()[1]),
        float(mobject.get_right()[0]),
        float(mobject.get_top()[1]),
    )


def _creates(animation: Any) -> list[Any]:
    if isinstance(animation, OutlineIn):
        return [animation.mobject]
    return [m for child in getattr(animation, "animations", []) for m in _creates(child)]


def _rgb(colour: Any) -> np.ndarray:
    text = (colour.to_hex() if hasattr(colour, "to_hex") else str(colour)).lstrip("#")[:6]
    return np.array([int(text[i : i + 2], 16) for i in (0, 2, 4)], dtype=float) / 255


def _contrast(first: np.ndarray, second: np.ndarray) -> float:
    def luminance(rgb: np.ndarray) -> float:
        linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        return float(linear @ np.array([0.2126, 0.7152, 0.0722]))

    low, high = sorted((luminance(first), luminance(second)))
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("overrides", CASES, ids=IDS)
def test_each_looked_up_row_has_its_own_outline_apart_from_the_next(
    overrides: dict[str, Any],
) -> None:
    """At GPT-2 size with five IDs the hidden ranges between rows 17, 4821, 12000 and
    33000 are thin bands (their labels stand beside the row numbers), and the four amber
    outlines met across them: one block, not four rows. Each looked-up row has one outline
    round its numbers, and every two outlines' inks stand at least MIN_GAP_PX apart."""
    from conftest import RecordingHost
    from manim import config

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.glyphs import NumberText
    from embedviz.render.stages.training_nudge import TrainingStage
    from embedviz.render.theme import DARK

    board = prepared_storyboard("TrainingNudge", overrides, environ={})
    stage = TrainingStage(RecordingHost(), board, DARK)
    loss = next(b for b in board.beats if b.name == "loss")
    id_line = stage.theme.id_line.lower()
    # E's outlines (the gathered rows, beside the chips, have their own).
    outlines = [
        m
        for m in _creates(stage.beat_loss(loss))
        if m.get_stroke_color().to_hex().lower() == id_line
        and m.get_center()[0] < stage.matrix.grid.body_right()
    ]
    rows = sorted(set(_ids(overrides)))
    assert len(outlines) == len(rows)
    numbers = [
        m
        for m in stage.matrix.grid.get_family()
        if isinstance(m, NumberText) and m.cell.kind == "weight"
    ]
    inks = []
    for outline in outlines:
        half = float(outline.get_stroke_width()) / 200
        left, bottom, right, top = _box(outline)
        framed = {
            n.cell.index[0]
            for n in numbers
            if left < n.get_center()[0] < right and bottom < n.get_center()[1] < top
        }
        assert len(framed) == 1, framed
        assert framed <= set(rows), framed
        inks.append((next(iter(framed)), bottom - half, top + half))
    inks.sort(key=lambda ink: -ink[2])
    assert [row for row, _, _ in inks] == rows
    px = 720 / float(config.frame_height)
    gaps = [(upper[1] - lower[2]) * px for upper, lower in itertools.pairwise(inks)]
    assert all(gap >= MIN_GAP_PX for gap in gaps), list(zip(rows, gaps, strict=False))


@pytest.mark.slow
@pytest.mark.parametrize("overrides", CASES, ids=IDS)
def test_every_shown_cell_of_e_keeps_a_readable_number_as_it_rolls_over(
    overrides: dict[str, Any],
) -> None:
    """Mid-``update`` (a 720p review, GPT-2 size) one of each row's two shown cells stood
    blank while it rolled over: the old number faded out before the new one faded in. At
    every 0.02 of each step of ``update``, every shown cell of E holds a number at its
    place (centre inside the cell) whose colour, blended with the cells' fill by its
    opacity, is 4.5:1 against that fill, and that number is the cell's value before the
    step or after it (from the seeded table and one SGD step at the scene's rate)."""
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.glyphs import NumberText
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("TrainingNudge", overrides, environ={})
    window = board.beats[0].window
    ids = _ids(overrides)
    vocab, dim = int(overrides.get("vocab", 6)), int(overrides.get("dim", 3))
    table = TorchSeededTable.create(vocab, dim, SEED)
    # The scene sizes its learning rate to the loss (tests/test_training.py checks it).
    lr = next(c.value for b in board.beats for c in b.numbers if c.kind == "lr")
    step = training_step(table, ids, toy_loss_weights(len(ids), dim, SEED), lr)
    after = {int(row): step.after[k] for k, row in enumerate(step.rows)}
    before = table.rows(list(window.rows))
    values = {
        (row, col): {float(before[r][col]), float(after.get(row, before[r])[col])}
        for r, row in enumerate(window.rows)
        for col in window.cols
    }
    alphas = tuple(round(0.02 * k, 2) for k in range(1, 51))
    blank: list[tuple[int, float, tuple[int, int], float]] = []
    seen: list[int] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name != "update":
            return
        grid, theme = scene.stage.matrix.grid, scene.stage.theme
        ground = _rgb(theme.cell_fill)
        family = [m for top in scene.mobjects for m in top.get_family()]
        numbers = [m for m in family if isinstance(m, NumberText)]
        seen.append(len(numbers))
        # Each number's centre once a moment (every cell would ask for all of them).
        centres = [(n, float(n.get_center()[0]), float(n.get_center()[1])) for n in numbers]
        for (row, col), expected in values.items():
            _, bottom, _, top = grid.row_box(row, buff=0.0)
            width = next(s.size for s in grid.col_slots if s.key == col and not s.gap)
            x = grid.col_x(col)
            best = 0.0
            for number, cx, cy in centres:
                if not (abs(cx - x) < width / 2 and bottom < cy < top):
                    continue
                if not any(abs(float(number.text) - v) <= 6e-5 for v in expected):
                    continue
                opacity = float(number.get_fill_opacity())
                drawn = ground + (_rgb(number.get_fill_color()) - ground) * opacity
                best = max(best, _contrast(drawn, ground))
            if best < TEXT_CONTRAST:
                blank.append((moment.step, moment.alpha, (row, col), round(best, 2)))

    play_moments(board, read, alphas=alphas, pixel_width=192, pixel_height=108, beats={"update"})
    assert seen, "update was played"
    assert not blank, f"cells of E without a readable number at (step, alpha, cell, ratio) {blank}"
