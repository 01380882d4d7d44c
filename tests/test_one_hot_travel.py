"""OneHotEquivalence: every number travels from where it is shown (a 720p teacher review).

- ``sum`` (30.3–30.4 s): the sum's copy ``-0.4015`` came from nowhere: it
  faded in at the frame's right edge, level with the last term, and read as
  part of ``+ 0 × (-2.8400)``. It now sets off from the sum itself, drawn
  whole from its first move.
- ``compare`` (39.4–40.7 s): an empty amber frame flew to the lookup's row
  with no numbers in it (they faded in only as it landed), and chip 3 walked
  through the empty lookup row, landing in its middle cell as if it were a
  value. Row 3's copy now lifts out of E with its numbers and its chip rides
  at its right end, beside the row, never in it.

Each beat is sampled finely; the rules are read from the mobjects.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import box_of
from drawn import on_screen

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

FINE = tuple(round(0.01 * k, 2) for k in range(1, 100))
# Shown: a text at this opacity or more is read; whole: drawn as it will land.
SHOWN, WHOLE = 0.1, 0.99
CASES = {"dark": {}, "light": {"theme": "light"}}


def _ink(text: Any, shown: set[int]) -> float:
    """Return a text's fill opacity as drawn (0 when it is not on screen): glyphs are filled."""
    if id(text) not in shown:
        return 0.0
    members = [m for m in text.get_family() if len(m.points)]
    return max((float(m.get_fill_opacity()) for m in members), default=0.0)


def _meet(a: np.ndarray, b: np.ndarray, inset: float) -> bool:
    (a_left, a_bottom), (a_right, a_top) = a
    (b_left, b_bottom), (b_right, b_top) = b
    return (
        a_left < b_right - inset
        and b_left < a_right - inset
        and a_bottom < b_top - inset
        and b_bottom < a_top - inset
    )


@pytest.mark.parametrize("case", list(CASES))
def test_the_sums_copy_sets_off_whole_from_the_sum(case: str) -> None:
    """The first sample that shows the copy finds it on the sum, and it is always whole."""
    board = prepared_storyboard("OneHotEquivalence", CASES[case], environ={})
    seen: list[tuple[str, float, float]] = []

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.alpha >= 1:
            return
        stage: Any = scene.stage
        product = stage.product
        copy, total = product.cells[product.column], product.terms.total
        shown = on_screen(scene)
        opacity = _ink(copy, shown)
        if opacity < SHOWN:
            return
        off = float(np.linalg.norm(copy.get_center() - total.get_center())) / float(total.width)
        seen.append((f"step {moment.step} a{moment.alpha:.2f}", off, opacity))

    play_moments(board, read, alphas=FINE, pixel_width=192, pixel_height=108, beats={"sum"})
    assert len(seen) >= 10, "the copy was hardly sampled: the check would pass vacuously"
    # Where it is first seen, it still overlaps the sum (less than the sum's width from it).
    where, off, _ = seen[0]
    assert off < 1, f"{where}: the copy is first seen {off:.2f} sum widths from the sum"
    faint = [f"{w}: opacity {o:.2f}" for w, _, o in seen if o < WHOLE]
    assert faint == [], "the copy travels faded:\n" + "\n".join(faint[:10])


@pytest.mark.parametrize("case", list(CASES))
def test_row_is_copy_carries_its_numbers_and_its_chip_stays_out_of_empty_cells(case: str) -> None:
    """While row i's copy is drawn, its numbers are whole; the chip never stands in an
    empty cell of the lookup's row (nor of the product's)."""
    board = prepared_storyboard("OneHotEquivalence", CASES[case], environ={})
    problems: list[str] = []
    strips: list[int] = []

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.alpha >= 1:
            return
        stage: Any = scene.stage
        shown = on_screen(scene)
        where = f"compare step {moment.step} a{moment.alpha:.2f}"
        for top in scene.mobjects:
            for strip in top.get_family():
                if not getattr(strip, "row_strip", False) or not strip.submobjects:
                    continue
                box, numbers = strip[0], list(strip[1].submobjects)
                if float(box.get_stroke_opacity()) < SHOWN:
                    continue
                strips.append(1)
                if min(_ink(n, shown) for n in numbers) < WHOLE:
                    problems.append(f"{where}: the copy's frame shows without its numbers")
        chip = box_of(stage.compare.chip)
        compare, product = stage.compare, stage.product
        rows = [(compare.lookup, compare.targets), (product.product, list(product.cells.values()))]
        for grid, numbers in rows:
            _, bottom, _, top = grid.row_box(0, buff=0.0)
            keys = [slot for slot in grid.col_slots if not slot.gap]
            for slot, number in zip(keys, numbers, strict=True):
                if _ink(number, shown) >= SHOWN:
                    continue
                x, half = grid.col_x(slot.key), slot.size / 2
                cell = np.array([[x - half, bottom], [x + half, top]])
                if _meet(chip, cell, 8 / 720):
                    problems.append(f"{where}: the chip stands in an empty cell {slot.key}")

    play_moments(board, read, alphas=FINE, pixel_width=192, pixel_height=108, beats={"compare"})
    assert len(strips) >= 10, "the copy was hardly sampled: the check would pass vacuously"
    assert problems == [], "\n".join(problems[:40])
