"""A fetching chip stands docked against its row: beside it in E, and beside its copy as it travels.

A 720p frame review of the lookup beats (BatchLookup's lookup-0-0,
SequenceLookup's lookup-0) read the chip as waiting beside its row while the
row lifted as a strip and travelled, but docked far right of it in empty
space: nobody could tell which row it was with. Measured from the mobjects,
the chip stands 7 to 11 px (at 1280 px) from its outlined row when it
arrives; the still frames had caught it on its way home, well ahead of its
row's strip (BatchLookup: about 400 px ahead, on the row's centre line;
SequenceLookup: about 140 px, in its output row).

Each teaching-pace ``lookup`` beat is dry-run and sampled finely (and
LargeVocabLookup's lookups: ``lookup``, ``scroll_lookup`` and its rest's
``fill_rest``, whose strips of hidden rows lift off their bands). The bound
comes from the design, not the code under test: a chip may leave between
itself and what it stands with at most a row number's gap from its tag
(:func:`~embedviz.render.parts.chips.number_gap`) and one digit's column of
the labels' font: the ground a tag and its row number leave, read as one
glance.

- At its row: a chip level with its row's amber outline in E, left of the
  output block (not at home in the tag column), before any of its copy shows,
  stands at most that far right of the outline.
- With its copy: from the first sample its strip's box shows until the copy
  lands, the chip that fetched it stands level with it and at most that far
  right of its box. BatchLookup rides its chip at the strip's right end (as
  its corridor arrangement did); so do the sequence layouts (see
  :mod:`embedviz.render.parts.ride`): beside (the toy and GPT-2 sized
  cases) their strip turns up beside the output block's empty rows tightly
  enough that the chip riding there passes the chips waiting in the tags'
  column; in the corridor (MiniLM's 12 tokens) the chip rides where the rows
  it passes are empty (all the teaching-pace lookups there), else it leads.
  LargeVocabLookup docks its chip past the scroll bar, and closes the bar's
  gap while the strip is still hidden (see ``tests/test_ride_bar.py``): on
  main it led its copy home, up to 364 px right of it (41 samples).
- Riding, it covers no landed number of the output block (in the corridor it
  crosses the block's first column), and it passes every other chip at least
  a TAG_GAP clear, as far as a tag stands from the row it tags (a chip that
  rode at its strip's right end round a wide turn brushed, then covered, the
  next IDs' chips waiting in the tags' column).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from boards import minilm_options
from conftest import box_of
from manim import Rectangle, config

from embedviz.inputs import prepared_storyboard
from embedviz.render.metrics import char_advance
from embedviz.render.moments import MomentScene, play_moments
from embedviz.render.parts.chips import number_gap
from embedviz.render.solver_across import TAG_GAP

ALPHAS = tuple(k / 40 for k in range(1, 40))
PX = 1280 / float(config.frame_width)


# The beats whose chips fetch rows (LargeVocabLookup's scroll first, or fill the rest).
LOOKUPS = ("lookup", "scroll_lookup", "fill_rest")
GPT2 = {"ids": "4821,0,50256", "vocab": 50257, "dim": 768}
CASES: dict[str, tuple[str, Any]] = {
    "sequence": ("SequenceLookup", {}),
    "gpt2": ("SequenceLookup", GPT2),
    "minilm": ("SequenceLookup", minilm_options),
    "batch": ("BatchLookup", {}),
    "large_vocab": ("LargeVocabLookup", {}),
}


def _bound(motion: Any) -> float:
    """Return the most ground a docked chip leaves: a tag's row-number gap and a digit's column."""
    label = motion.plan.scale.label
    return float(number_gap(label) + char_advance(label))


def _outlines(scene: MomentScene, motion: Any) -> dict[int, np.ndarray]:
    """Return the box of every amber row outline of E drawn now, by row."""
    grid = motion.matrix.grid
    colour = motion.theme.id_line.lower()
    bands = {}
    for row in grid.get_rows():
        (_, low), (_, high) = box_of(grid.row_outline(row, colour))
        bands[row] = (low, high)
    found: dict[int, np.ndarray] = {}
    for top in scene.mobjects:
        if getattr(top, "row_strip", False):
            continue
        for mobject in top.get_family():
            if not isinstance(mobject, Rectangle) or mobject.get_num_points() == 0:
                continue
            if mobject.get_stroke_color().to_hex().lower() != colour:
                continue
            if float(mobject.get_stroke_opacity()) < 0.5:
                continue
            (left, bottom), (right, top_y) = box_of(mobject)
            for row, (low, high) in bands.items():
                if abs(bottom - low) < 1e-3 and abs(top_y - high) < 1e-3:
                    found[row] = np.array([left, bottom, right, top_y])
    return found


def _strip_box(carry: Any) -> np.ndarray | None:
    """Return the drawn box of a carry's strip now (None: none of it shows)."""
    box = carry.strip[0] if len(carry.strip.submobjects) else None
    if box is None or box.get_num_points() == 0 or float(box.get_stroke_opacity()) <= 0:
        return None
    return box_of(box).ravel()


def _apart(one: np.ndarray, other: np.ndarray) -> float:
    """Return how far apart two boxes stand (negative: they overlap)."""
    across = max(other[0] - one[2], one[0] - other[2])
    down = max(other[1] - one[3], one[1] - other[3])
    if across >= 0 and down >= 0:
        return float(np.hypot(across, down))
    return float(max(across, down))


@functools.cache
def _far(case: str) -> tuple[int, int, list[str], list[str], list[str]]:
    """Return (docks sampled, samples with a copy, chips docked far, chips far from a copy,
    chips riding home over a landed number or too near another chip)."""
    scene_name, overrides = CASES[case]
    board = prepared_storyboard(
        scene_name, overrides() if callable(overrides) else overrides, environ={}
    )
    with_copy: list[str] = []
    # By (beat, chip, other chip): the nearest a riding chip came, and they stand at the end.
    near: dict[tuple[str, int, int], tuple[float, str]] = {}
    ends: dict[tuple[str, int, int], float] = {}
    covers: list[str] = []
    copies = [0]
    # By (beat, chip): every gap to its outlined row while level with it, whether it stood still.
    gaps: dict[tuple[str, int], list[tuple[float, bool, str]]] = {}
    last: dict[int, tuple[str, int, np.ndarray]] = {}
    bounds = [0.0]

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.beat.action not in LOOKUPS:
            return
        motion = scene.stage.motion
        boxes = [box_of(chip).ravel() for chip in motion.chips.chips]
        if moment.alpha >= 1.0:
            for (beat, one, other), _ in near.items():
                if beat == moment.beat.name:
                    ends[beat, one, other] = _apart(boxes[one], boxes[other])
            return
        bound = bounds[0] = _bound(motion)
        where = f"{moment.beat.name} s{moment.step + 1} a{moment.alpha:.3f}"
        travelling = {}
        landed = [n for carry in motion.carries if carry.landed for n in carry.targets]
        for carry in motion.carries:
            shown = None if carry.landed else _strip_box(carry)
            if shown is not None and carry.chip is not None:
                travelling[id(carry.chip)] = shown
        output_left = box_of(motion.output.grid.body)[0][0]
        outlines = _outlines(scene, motion)
        chips = zip(motion.output.positions, motion.chips.chips, strict=True)
        for index, (position, chip) in enumerate(chips):
            (left, bottom), (right, top) = box_of(chip)
            middle, here = (bottom + top) / 2, np.array([left, bottom])
            before = last.get(index)
            last[index] = (moment.beat.name, moment.step, here)
            still = before is not None and before[:2] == (moment.beat.name, moment.step)
            still = still and float(np.abs(here - before[2]).max()) < 1e-6
            strip = travelling.get(id(chip))
            if strip is not None:
                copies[0] += 1
                for number in landed:
                    if _apart(boxes[index], box_of(number).ravel()) < 0:
                        covers.append(f"{where}: chip {index} covers {number.cell.value}")
                for other, box in enumerate(boxes):
                    apart = _apart(boxes[index], box) if other != index else np.inf
                    key = (moment.beat.name, index, other)
                    if apart < near.get(key, (np.inf, ""))[0]:
                        seen = f"{where}: chip {index} {apart * PX:.1f} px from chip {other}"
                        near[key] = (apart, seen)
                level = bool(strip[1] <= middle <= strip[3])
                gap = left - strip[2]
                if not level or not -1e-6 <= gap <= bound:
                    with_copy.append(
                        f"{where}: chip {chip.number.cell.value} {gap * PX:.0f} px right of "
                        f"its copy (bound {bound * PX:.0f} px), level: {level}"
                    )
                continue
            row = int(motion.cells[("token_id", position)].value)
            box = outlines.get(row)
            if box is None or right > output_left or not box[1] <= middle <= box[3]:
                continue
            if left >= box[0]:
                gaps.setdefault((moment.beat.name, index), []).append((left - box[2], still, where))

    lookups = {beat.name for beat in board.beats if beat.action in LOOKUPS}
    # Only the LOOKUPS beats are read: the others play unsampled (tests/test_moment_beats.py).
    play_moments(board, read, alphas=ALPHAS, beats=lookups)
    far = []
    for (_beat, index), seen in gaps.items():
        # Where it stops: its nearest to its row, and wherever it stands still level with it.
        nearest = min(seen)
        for gap, still, where in seen:
            if (still or (gap, still, where) == nearest) and gap > bounds[0]:
                far.append(
                    f"{where}: chip {index} {gap * PX:.0f} px right of its row's outline "
                    f"(bound {bounds[0] * PX:.0f} px){', standing still' if still else ''}"
                )
    # A riding chip passes another at least as far as a tag stands from the row it tags
    # (TAG_GAP), or as near as the two stand once it has landed (tags in one column).
    brushes = [
        f"{seen} (at most {min(TAG_GAP, ends[key]) * PX:.1f} px)"
        for key, (apart, seen) in near.items()
        if apart < min(TAG_GAP, ends[key]) - 1e-6
    ]
    return len(gaps), copies[0], far, with_copy, covers + brushes


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_chip_docks_against_its_row_in_e(case: str) -> None:
    at, _, far, _, _ = _far(case)
    assert at > 0, "no chip was sampled beside its row: the check would pass vacuously"
    assert not far, "chips standing off their rows:\n" + "\n".join(far[:20])


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_chip_stays_beside_its_travelling_copy(case: str) -> None:
    _, travelling, _, far, _ = _far(case)
    assert travelling > 0, "no travelling copy was sampled: the check would pass vacuously"
    assert not far, "chips away from their travelling copies:\n" + "\n".join(far[:20])


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_chip_riding_home_passes_numbers_and_chips_clear(case: str) -> None:
    _, travelling, _, _, near = _far(case)
    assert travelling > 0, "no travelling copy was sampled: the check would pass vacuously"
    assert not near, "chips riding home over numbers or chips:\n" + "\n".join(near[:20])
