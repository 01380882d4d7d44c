"""The value legend's middle swatch is zero as a cell draws it, and reads as "no sign".

A 720p review of the light theme (issue 18): the legend's zero swatch was the
near-black text colour between the two vivid near-zero steps (session 29 made
light values start at the full blue and vermillion and deepen toward the text
as they grow), so it read as a third meaning, stronger than any value. Read
from the built mobjects (a table from a file with exact zeros in view): the
middle swatch is the colour a 0.0 in a cell of E gets, that colour keeps
4.5:1 on the cells, it is a neutral (no hue of a sign), and it is no stronger
than the steps beside it: on each side it is as light as the nearest step, or
lies beyond it on the side the ramp weakens toward. Contrast comes from the
WCAG formula written out here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from manim.utils.color import ManimColor

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import THEMES

# Two colours whose contrast is at most this read as the same lightness.
SAME_LIGHTNESS = 1.15
# A neutral's red, green and blue channels lie within this many steps of 255.
NEUTRAL_SPREAD = 16


def _hex(colour: Any) -> str:
    return ManimColor(colour).to_hex().upper()


def _luminance(colour: str) -> float:
    srgb = np.array([int(colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]) / 255
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    return float(linear @ np.array([0.2126, 0.7152, 0.0722]))


def _contrast(first: str, second: str) -> float:
    low, high = sorted((_luminance(first), _luminance(second)))
    return (high + 0.05) / (low + 0.05)


@pytest.fixture(scope="module")
def weights_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 6 × 3 table with exact zeros in rows 0 and 3 (row 3 is the one looked up)."""
    rng = np.random.default_rng(7)
    table = rng.normal(size=(6, 3)).astype(np.float32)
    table[0, 1] = table[3, 2] = 0.0
    path = tmp_path_factory.mktemp("zero") / "table.npy"
    np.save(path, table)
    return path


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_the_zero_swatch_is_a_cells_zero_and_reads_as_no_sign(
    weights_file: Path, theme_name: str
) -> None:
    from conftest import RecordingHost

    from embedviz.render.glyphs import NumberText
    from embedviz.render.parts.legend import SWATCHES
    from embedviz.render.stages.lookup import LookupStage

    theme = THEMES[theme_name]
    options = {"weights": str(weights_file), "theme": theme_name}
    board = prepared_storyboard("SingleTokenLookup", options, environ={})
    stage = LookupStage(RecordingHost(), board, theme)
    legend = stage.matrix.legend
    assert legend is not None
    swatches = [_hex(s.get_fill_color()) for s in legend.swatches]
    assert len(swatches) == SWATCHES
    zeros = {
        _hex(m.get_fill_color())
        for m in stage.matrix.grid.get_family()
        if isinstance(m, NumberText) and m.cell.kind == "weight" and m.cell.value == 0.0
    }
    assert len(zeros) == 1, zeros  # every drawn zero alike (two of them are in view)
    middle = SWATCHES // 2
    zero = swatches[middle]
    assert zeros == {zero}
    assert _contrast(zero, theme.cell_fill) >= 4.5
    channels = [int(zero.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]
    assert max(channels) - min(channels) <= NEUTRAL_SPREAD, zero
    for near, end in ((middle - 1, 0), (middle + 1, SWATCHES - 1)):
        step, strongest = swatches[near], swatches[end]
        if _contrast(zero, step) <= SAME_LIGHTNESS:
            continue
        # The way the ramp weakens, from its strongest step to the one beside zero.
        weakens = _luminance(step) - _luminance(strongest)
        beyond = (_luminance(zero) - _luminance(step)) * weakens
        assert beyond > 0, (theme_name, near, step, zero, round(_contrast(zero, step), 2))
