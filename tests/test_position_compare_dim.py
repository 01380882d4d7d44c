"""PositionBlindness: while two rows are compared, the rows between and around them recede.

A 720p review (``same`` and ``differ``, both themes, sinusoidal and learned P):
rows 0 and 2 were outlined and row 1, between them, shared both outlines'
borders, so it read as boxed too (ID 3 in amber broke "amber = this token ID
only"). Each test dry-runs the scene and reads the table numbers as drawn; the
WCAG ratio is computed here, not with the design system's ``contrast_ratio``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

# Text in full keeps 4.5:1; dimmed content 3:1 (the design system dims to a little over it).
FULL, DIMMED = 4.5, 3.0
# The tables each beat compares two rows of, by cell kind: the output rows (``same``);
# E[id] (the output rows moved), P and the sums, sinusoidal or learned (``differ``).
COMPARED = {
    "same": {"output"},
    "differ": {"output", "sinusoid", "sum_sinusoid", "learned_position", "sum_learned"},
}


def _ratio(first: str, second: str) -> float:
    def luminance(colour: str) -> float:
        text = colour.lstrip("#")[:6]
        rgb = np.array([int(text[i : i + 2], 16) for i in (0, 2, 4)], dtype=float) / 255
        linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        return float(linear @ np.array([0.2126, 0.7152, 0.0722]))

    low, high = sorted((luminance(first), luminance(second)))
    return (high + 0.05) / (low + 0.05)


def _pair(board: Any, repeated: int) -> tuple[tuple[int, ...], ...]:
    """The first two positions that hold the repeated ID, from the storyboard's cells."""
    ids = {c.index: int(c.value) for b in board.beats for c in b.numbers if c.kind == "output_id"}
    return tuple(sorted(p for p, value in ids.items() if value == repeated)[:2])


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"positions": "learned"},
        {"theme": "light"},
        {"ids": "5,1,4,1,5,9,2,6", "vocab": 10, "dim": 6},
    ],
    ids=["default", "learned", "light", "eight-tokens"],
)
def test_the_rows_not_compared_recede(overrides: dict[str, Any]) -> None:
    """Once ``same``'s and ``differ``'s outlines are drawn (the middle of ``differ``'s
    verdict step and both beats' ends), every number of a compared table in a row that
    is not compared is dimmed: under the 4.5:1 of text in full against the cells' fill,
    but 3:1 or over; the compared rows' numbers keep 4.5:1. Once the outlines have gone
    (``positions``' end), every E[id] number is back in full."""
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.design import THEMES
    from embedviz.render.glyphs import NumberText
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("PositionBlindness", overrides, environ={})
    ground = THEMES[overrides.get("theme", "dark")].cell_fill
    seen: dict[str, int] = {}
    problems: list[str] = []

    def read(scene: Any, moment: Any) -> None:
        name = moment.beat.name
        settled = moment.alpha >= 1 or (name == "differ" and moment.step == 1)
        if name not in (*COMPARED, "positions") or not settled:
            return
        kinds = COMPARED.get(name, {"output"})
        pair = _pair(board, moment.beat.highlight.row) if name in COMPARED else ()
        assert name not in COMPARED or len(pair) == 2, pair
        for top in scene.mobjects:
            for m in top.get_family():
                if not isinstance(m, NumberText) or m.cell.kind not in kinds or m.echo:
                    continue
                if float(m.get_fill_opacity()) < 0.5:
                    continue
                ratio = _ratio(m.get_fill_color().to_hex(), ground)
                compared = m.cell.index[:-1] in pair or name == "positions"
                seen[name] = seen.get(name, 0) + 1
                where = f"{name} a{moment.alpha:g} s{moment.step}: {m.cell.kind}{m.cell.index}"
                if compared and ratio < FULL - 1e-6:
                    problems.append(f"{where} (compared) at {ratio:.2f}:1")
                if not compared and not DIMMED - 1e-6 <= ratio < FULL - 0.5:
                    problems.append(f"{where} (not compared) at {ratio:.2f}:1")

    play_moments(board, read, alphas=(0.5, 1.0), pixel_width=192, pixel_height=108)
    assert set(seen) == {*COMPARED, "positions"}, seen
    assert not problems, "\n".join(problems[:20])
