"""LargeVocabLookup: a travelling chip stays out of the output block but in its own row (issue 18).

A teacher's 720p review of the ``lookup`` beats (lecture-hall frames) saw
chip 4821, on its way home to output row 0, stand inside the output block's
bottom-left corner (32.6 s; 464 likewise at 48.2 s), level with output row 9
and beside that row's ``50256`` tag: it read as belonging to row 9. It rode
at its strip's right end while the strip (wider than the walking column) was
still hidden under E, so it went into the block ahead of anything it carried.

Every lookup beat is played and read at every twentieth of each step: wherever a
chip's box overlaps the output block's body, it must stand level with its own
output row (the row it leaves through, or lands in), within :data:`LEVEL`; and so
must a travelling row's drawn frame (a strip: its landing slides it into its row).

Both failed (strict xfails until session 40): riding, the chip could not both stay
beside its copy (tests/test_chip_docks.py) and out of the block while a strip wider
than the walking column rose beside the block. Now LargeVocabLookup's solver takes
only the ``corridor`` arrangement (``LookupSpec.clear_block``), its walking column as
wide as a strip and the chip riding at its right end (``LookupPlan.holds_rider``): the
copy goes down the corridor, its chip a TAG_GAP short of the block, and turns in
within half a row of its output row's line, so both enter the block level with it.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import numpy as np
from carry_plays import drawn_box
from conftest import box_of

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

SCENE = "LargeVocabLookup"
# Frame units per pixel at 720p (the frame is 8 units high).
PX = 8 / 720
# Within this of its own row's band, a chip is level with it; overlaps under it are touches.
LEVEL = 2 * PX
ALPHAS = tuple(round(0.05 * k, 2) for k in range(1, 20))


@functools.cache
def _strays(overrides: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return each moment a chip, and a strip, overlaps the output block off its own row.

    ``overrides``: the scene's options as JSON (hashable, for the cache).
    """
    board = prepared_storyboard(SCENE, json.loads(overrides), environ={})
    chips: list[str] = []
    strips: list[str] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha >= 1.0:
            return
        stage = scene.stage
        grid = stage.output.grid
        block = box_of(grid.body[0])
        half = stage.plan.sizes.row_height / 2
        when = f"{moment.beat.name} s{moment.step} a{moment.alpha:.2f} ({moment.time:.1f} s)"
        for chip in stage.chips.chips:
            box = box_of(chip)
            row_y = grid.row_y(stage.output.row_of(chip.number.cell.index))
            if _in_block(box, block) and not _level(box, row_y, half):
                chips.append(f"{when}: chip {chip.number.cell.value}, its row at {row_y:.2f}")
        on = {id(m) for top in scene.mobjects for m in top.get_family()}
        for carry in stage.motion.carries:
            if carry.landed or not len(carry.strip.submobjects):
                continue
            # Its drawn part, read along it: sliding out of E its box is shaded cell by
            # cell, and its left end's opacity (``get_stroke_opacity()``) reads 0.
            drawn = drawn_box(carry.strip) if id(carry.strip[0]) in on else None
            if drawn is None:
                continue
            box = np.reshape(drawn, (2, 2))
            row_y = float(np.mean([t.get_center()[1] for t in carry.targets]))
            if _in_block(box, block) and not _level(box, row_y, half):
                strips.append(f"{when}: row {carry.row}'s strip, its row at {row_y:.2f}")

    beats = {b.name for b in board.beats if b.name.startswith(("lookup", "rest"))}
    play_moments(board, read, alphas=ALPHAS, pixel_width=192, pixel_height=108, beats=beats)
    return tuple(chips), tuple(strips)


def _in_block(box: np.ndarray, block: np.ndarray) -> bool:
    """Whether ``box`` overlaps the output block's body by more than a touch."""
    across = min(box[1][0], block[1][0]) - max(box[0][0], block[0][0])
    up = min(box[1][1], block[1][1]) - max(box[0][1], block[0][1])
    return bool(across > LEVEL and up > LEVEL)


def _level(box: np.ndarray, row_y: float, half: float) -> bool:
    """Whether ``box`` stands within its output row's band (centre ``row_y``, half height)."""
    return bool(box[0][1] >= row_y - half - LEVEL and box[1][1] <= row_y + half + LEVEL)


def test_a_chip_crosses_the_output_block_only_in_its_own_row() -> None:
    chips, _ = _strays("{}")
    assert not chips, "\n".join(chips)


def test_a_strip_crosses_the_output_block_only_in_its_own_row() -> None:
    """Nor does a strip rise across the block's left border, level with other rows.

    Wider than the walking column, a copy rising beside the block lay across its
    left border (4821's, 33.1 to 33.8 s, over rows 9 to 1; 464's, 48.7 to 49.4 s;
    257's in the rest at 51.2 s). Read by its drawn part (``carry_plays.drawn_box``):
    sliding out of E its box is shaded, and its left end's opacity read 0, so
    33.1 s and 48.7 s (each copy's value drawn in output row 9, beside the
    ``50256`` tag, at 720p) went unread. Down the corridor it rises beside no block.
    """
    _, strips = _strays("{}")
    assert not strips, "\n".join(strips)
