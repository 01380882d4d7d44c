"""A scene's payoff, read from the back of a lecture hall (issue 18, a 720p review).

- OneHotEquivalence: its costs (``multiply-adds per token``, ``6 × 3 = 18``,
  GPT-2's, the lookup's ``0 copies 3 numbers``) were set at the labels' size,
  19.9 px beside captions of 20.8 px; the typeset ``one_hot(3) E = E[3]``
  came in at the data's size and shrank to the labels' as the costs came
  (cost, 46.9 s). The costs are now at least the captions' size, never larger
  than the table's numbers (at GPT-2's size, where the numbers are smaller
  than the captions, as large as the numbers); the typeset product keeps its
  size to the end.
- SingleTokenLookup: the amber outline of E's row and the output's amber ring,
  which the lookup leaves standing, dropped out as the ``print`` beat began
  (28.3 s) and came back only with its last phrase (31.9 s on): the print is
  that very row. They now stand through every moment of the print.

Sizes are digit heights at 720p, read from the mobjects as test_moments reads them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import box_of, fill_opacity

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import CAPTION_FONT, px_for_font
from embedviz.render.formula import FormulaText
from embedviz.render.glyphs import GlyphString, NumberText, SansText
from embedviz.render.moments import MomentScene, play_moments

GPT2 = {"ids": "4821", "vocab": 50257, "dim": 768}
# A text below this opacity is still fading in: not read.
VISIBLE = 0.5
PX_PER_UNIT = 720 / 8.0


def digit_px(mobject: Any) -> float:
    """Return a text's digit height at 720p, as drawn (a typeset formula's: its font's)."""
    if isinstance(mobject, GlyphString):
        low, high = mobject.slot_corners()
        return float(high[1] - low[1]) * PX_PER_UNIT
    if isinstance(mobject, FormulaText):
        return px_for_font(mobject.font_size_drawn * mobject.height / mobject.natural_height)
    assert isinstance(mobject, SansText), type(mobject).__name__
    return px_for_font(mobject.font_size * mobject.width / mobject.natural_width)


def texts_in(mobject: Any) -> list[Any]:
    """Return the texts a group holds (each outermost text once)."""
    if isinstance(mobject, (GlyphString, FormulaText, SansText)):
        return [mobject]
    return [text for member in mobject.submobjects for text in texts_in(member)]


def _on_screen(scene: MomentScene, mobject: Any) -> bool:
    return any(mobject in top.get_family() for top in scene.mobjects)


@pytest.mark.parametrize("overrides", [{}, {"theme": "light"}, GPT2], ids=["dark", "light", "gpt2"])
def test_the_costs_are_caption_sized_and_the_product_keeps_its_size(
    overrides: dict[str, Any],
) -> None:
    board = prepared_storyboard("OneHotEquivalence", overrides, environ={})
    caption = px_for_font(CAPTION_FONT)
    problems: list[str] = []
    read: dict[str, int] = {"costs": 0, "formula": 0}
    sizes: list[float] = []

    def look(scene: MomentScene, moment: Any) -> None:
        stage: Any = scene.stage
        where = f"{moment.beat.name} step {moment.step} a{moment.alpha:.2f}"
        data = px_for_font(stage.plan.scale.data)
        # At least the captions' size, where the table's numbers are as large (the data
        # stay the largest text): at GPT-2's size the costs are as large as the numbers.
        least = min(caption, data) - 0.05
        costs = stage.costs
        for group in [costs.header, *costs.entries, costs.copy_note]:
            for text in texts_in(group):
                if not _on_screen(scene, text) or fill_opacity(text) < VISIBLE:
                    continue
                read["costs"] += 1
                if digit_px(text) < least:
                    problems.append(f"{where}: {text.text!r} is {digit_px(text):.1f} px")
                if digit_px(text) > data + 0.05:
                    problems.append(f"{where}: {text.text!r} is larger than the numbers")
        formula = costs.formula
        if _on_screen(scene, formula) and fill_opacity(formula) >= VISIBLE:
            read["formula"] += 1
            sizes.append(digit_px(formula))
            if digit_px(formula) < least:
                problems.append(f"{where}: the typeset product is {digit_px(formula):.1f} px")

    play_moments(
        board,
        look,
        alphas=(0.25, 0.5, 0.75),
        pixel_width=192,
        pixel_height=108,
        beats={"compare", "cost", "copy"},
    )
    assert read["costs"] > 20, read
    assert read["formula"] > 5, read
    assert problems == [], "\n".join(problems[:20])
    # The typeset product comes in at its size and keeps it to the end (it shrank, 46.9 s).
    assert max(sizes) - min(sizes) < 0.05, (min(sizes), max(sizes))


def _row_cells(scene: MomentScene, kind: str, row: int | None = None) -> list[np.ndarray]:
    """Return the centres of the on-screen numbers of ``kind`` (in ``row``, if given)."""
    cells = {
        id(m): m
        for top in scene.mobjects
        for m in top.get_family()
        if isinstance(m, NumberText)
        and m.cell.kind == kind
        and (row is None or m.cell.index[0] == row)
    }
    return [m.get_center()[:2] for m in cells.values() if fill_opacity(m) >= VISIBLE]


def _framed(scene: MomentScene, colour: str, centres: list[np.ndarray]) -> bool:
    """Whether a stroke of ``colour``, fully shown, frames every one of ``centres``."""
    for top in scene.mobjects:
        for m in top.get_family():
            if not len(m.points) or float(m.get_stroke_width()) <= 0:
                continue
            shown = float(m.get_stroke_opacity()) >= 0.99
            if not shown or m.get_stroke_color().to_hex().lower() != colour:
                continue
            (left, bottom), (right, top_y) = box_of(m)
            if all(left < x < right and bottom < y < top_y for x, y in centres):
                return True
    return False


@pytest.mark.parametrize("overrides", [{}, {"theme": "light"}, GPT2], ids=["dark", "light", "gpt2"])
def test_the_fetched_row_stays_framed_while_it_prints(overrides: dict[str, Any]) -> None:
    board = prepared_storyboard("SingleTokenLookup", overrides, environ={})
    row = board.single_id()
    problems: list[str] = []
    seen: list[float] = []

    def look(scene: MomentScene, moment: Any) -> None:
        stage: Any = scene.stage
        colour = stage.theme.id_line.lower()
        where = f"{moment.beat.name} step {moment.step} a{moment.alpha:.2f} ({moment.time:.1f} s)"
        seen.append(moment.time)
        weights, output = _row_cells(scene, "weight", row), _row_cells(scene, "output")
        assert weights, where
        assert output, where
        if not _framed(scene, colour, weights):
            problems.append(f"{where}: row {row} of E stands unframed")
        if not _framed(scene, colour, output):
            problems.append(f"{where}: the output row stands unframed")

    alphas = tuple(round(0.1 * k, 1) for k in range(1, 11))
    play_moments(board, look, alphas=alphas, pixel_width=192, pixel_height=108, beats={"print"})
    assert len(seen) > 20, len(seen)
    assert problems == [], "\n".join(problems[:20])
