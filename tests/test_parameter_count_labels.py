"""ParameterCount: E's labels stay readable while E recedes beside the tables (issue 18).

A 720p review found, after 17 s (float32 to compare), E's row numbers and
``rows 6–50256 hidden`` receded with its grid to 10-12 px: E's row numbers at
14.5 px, its hidden ranges' labels at 12.1 px (under MIN_NOTE_PX, 12.5). They now
recede less than the grid (:mod:`embedviz.render.param_labels`): the notes up to
14.5 px as far as their bands allow (13.4 px), the row numbers 16.4 px, never over E's
numbers.

Each case is read at the receded beats' ends (a dry run, 1280 x 720), from the
glyphs' digit slots.
"""

from __future__ import annotations

from typing import Any

import pytest
from boards import shared_board

from embedviz.render.design import LABEL_OVER_NOTE, MIN_NOTE_PX

CASES = {"default": {}, "gpt2-light-4821": {"ids": [4821], "theme": "light"}}
RECEDED = ("float32", "bfloat16", "compare")
# The notes' least: their target (param_labels.NOTE_RECEDED_PX, 14.5) where their band
# allows, else as large as it allows (GPT-2's thin bands: 13.4 px; 12.06 px before).
NOTES_PX = 13.0


def _read(options: dict[str, Any]) -> dict[str, dict[str, list[float]]]:
    from manim import config

    from embedviz.render.gap_text import GapLabel
    from embedviz.render.glyphs import NumberText
    from embedviz.render.moments import play_moments

    found: dict[str, dict[str, list[float]]] = {}

    def px(m: Any) -> float:
        low, high = m.slot_corners()
        return float(high[1] - low[1]) * 720 / float(config.frame_height)

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        now = found.setdefault(moment.beat.name, {"rows": [], "notes": [], "data": []})
        for top in scene.mobjects:
            for m in top.get_family():
                if not isinstance(m, (NumberText, GapLabel)) or not len(m.points):
                    continue
                if float(m.get_fill_opacity()) < 0.5:
                    continue
                if isinstance(m, GapLabel):
                    now["notes"].append(px(m))
                elif m.cell.kind == "row_label":
                    now["rows"].append(px(m))
                elif m.cell.kind == "corner":
                    now["data"].append(px(m))

    play_moments(shared_board("ParameterCount", options), read, alphas=(), beats=set(RECEDED))
    return found


@pytest.mark.parametrize("case", sorted(CASES))
def test_e_labels_stay_readable_while_it_recedes(case: str) -> None:
    """Notes at least 13 px (over MIN_NOTE_PX), row numbers LABEL_OVER_NOTE over them, <= data."""
    found = _read(CASES[case])
    assert set(found) == set(RECEDED), sorted(found)
    for beat, now in found.items():
        rows, notes, data = now["rows"], now["notes"], now["data"]
        assert rows, (beat, now)
        assert notes, (beat, now)
        assert data, (beat, now)
        assert min(notes) >= max(MIN_NOTE_PX, NOTES_PX), (beat, notes)
        assert min(rows) >= LABEL_OVER_NOTE * max(notes) - 0.05, (beat, rows, notes)
        assert max(rows) <= min(data) + 0.02, (beat, rows, data)
