"""A chip on its way to its row of E never stands over an empty output cell (issue 18).

One thread of motion: a 720p teacher review of SingleTokenLookup (the toy
table, ID 3) saw the chip ``3`` leave its place beside the one-row output
block and walk LEFT straight through that still-empty block to E's row 3
(about 22.8-23.5 s); at 23.3 s it stood inside output cell 0, where a class
read it as a value. The chip now goes round the block
(:mod:`embedviz.render.parts.detour`).

Dry-run the lookup beats at every fortieth of each step (``play_moments``)
and read the mobjects: a chip that has left where it stood as its beat began,
and is not riding its row's strip home (its carry under way, its strip built,
not landed), never overlaps an output cell (the block's rows' cell boxes).
The toy, in both themes, and GPT-2's size failed before; SequenceLookup's
chips, waiting over E, pass too; PositionBlindness's, which walked through
their own empty rows, now wait in a lane under the raised block and pass.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import box_of
from manim import config

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

ALPHAS = tuple(k / 40 for k in range(1, 40))
# The beats whose chips walk to E and fetch rows.
LOOKUPS = frozenset({"lookup", "lookup_many", "lookup_all", "scroll_lookup", "fill_rest"})
GPT2_ONE = {"vocab": 50257, "dim": 768, "ids": "4821"}
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "toy": ("SingleTokenLookup", {}),
    "toy_light": ("SingleTokenLookup", {"theme": "light"}),
    "gpt2": ("SingleTokenLookup", GPT2_ONE),
    # Its chips wait over E and walk down to their rows (tests/test_walk_around.py).
    "sequence": ("SequenceLookup", {}),
    # Its chips wait in a lane under the raised block (parts/wait_under.py): they walked
    # through their own empty output rows (chip 2 over output row 2 at 8.05 s).
    "position_blindness": ("PositionBlindness", {}),
}
# Chips that wait between their neighbours in a block's tags' column still walk through
# their own empty output rows (parts/detour.py goes round one-row blocks only):
# LargeVocabLookup's 4821 at 29.8 s.
THROUGH: dict[str, tuple[str, dict[str, Any]]] = {}


def _riding(motion: Any) -> set[int]:
    """Return the ids of the chips riding home with their strips now."""
    return {
        id(carry.chip)
        for carry in motion.carries
        if carry.chip is not None and not carry.landed and len(carry.strip) >= 3
    }


def _overlap(one: np.ndarray, other: tuple[float, float, float, float]) -> bool:
    return bool(one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3])


def _walks_over_cells(
    overrides: dict[str, Any], scene: str = "SingleTokenLookup"
) -> tuple[int, list[str]]:
    """Return (samples of a chip off its start, not riding; those over an output cell)."""
    board = prepared_storyboard(scene, overrides, environ={})
    px = 1280 / float(config.frame_width)
    starts: dict[tuple[str, int], np.ndarray] = {}
    seen, bad = [0], []

    def on(scene: Any, moment: Any) -> None:
        if moment.beat.action not in LOOKUPS:
            return
        motion = scene.stage.motion
        grid = motion.output.grid
        cells = [grid.row_box(row, buff=0.0) for row in grid.get_rows()]
        riding = _riding(motion)
        landed = {id(c.chip) for c in motion.carries if c.landed}
        for index, chip in enumerate(motion.chips.chips):
            box = box_of(chip).ravel()
            centre = (box[:2] + box[2:]) / 2
            start = starts.setdefault((moment.beat.name, index), centre)
            if float(np.abs(centre - start).max()) * px <= 1.0:
                continue  # where it stood as the beat began
            if id(chip) in riding or id(chip) in landed:
                continue
            seen[0] += 1
            if any(_overlap(box, cell) for cell in cells):
                bad.append(
                    f"{moment.beat.name} s{moment.step + 1} a{moment.alpha:.3f} "
                    f"({moment.time:.2f} s): chip {chip.number.text} at "
                    f"x {(box[0] + config.frame_width / 2) * px:.0f} px, over an output cell"
                )

    beats = {beat.name for beat in board.beats if beat.action in LOOKUPS}
    play_moments(board, on, alphas=ALPHAS, beats=beats)
    return seen[0], bad


@pytest.mark.parametrize(
    "case",
    [
        *CASES,
        *(
            pytest.param(name, marks=pytest.mark.xfail(strict=True, reason="issue 18: rows"))
            for name in THROUGH
        ),
    ],
)
def test_a_walking_chip_stands_over_no_output_cell(case: str) -> None:
    scene, overrides = {**CASES, **THROUGH}[case]
    seen, bad = _walks_over_cells(overrides, scene)
    assert seen > 0, "no chip was sampled walking: the check would pass vacuously"
    assert not bad, f"{len(bad)} of {seen} samples:\n" + "\n".join(bad[:12])
