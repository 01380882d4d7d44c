"""ParameterCount's table of widths: its bars are their rows', under no column of numbers.

A 720p review of ParameterCount (issue 18, 42.0 s, the compare beat's end) found the
bars under the wrong columns: "table size" stood in the header row as a column of its
own, over nothing on the number lines, and the bars under it ran on under
"parameters" and "float32 memory". Now the header row names the number lines'
columns only, each bar starts at its row's left edge (the row's, in no column), and
the bars' name stands on the first bar's line, after it.

Read at the compare beat's end (a dry run, 1280 x 720), from the drawn mobjects.
"""

from __future__ import annotations

from typing import Any

import pytest
from boards import shared_board

from embedviz.render.moments import play_moments

CASES = {"default": {}, "light": {"theme": "light"}, "toy": {"vocab": 6, "dim": 3}}
# Scene units: a hair, for edges set equal.
HAIR = 1e-3


def _span(m: Any) -> tuple[float, float]:
    return float(m.get_left()[0]), float(m.get_right()[0])


def _read(options: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        widths = scene.stage.widths
        found["header"] = [(h.text, _span(h)) for h in widths.header]
        found["lines"] = [[_span(t) for t in texts[:3]] for texts, _ in widths.rows]
        found["bars"] = [
            (_span(bar), float(bar.get_y()), float(bar.height)) for _, bar in widths.rows
        ]
        label = getattr(widths, "bar_label", None)
        found["label"] = None if label is None else (_span(label), float(label.get_y()))

    play_moments(shared_board("ParameterCount", options), read, alphas=(), beats={"compare"})
    return found


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_bars_are_their_rows_not_a_column(case: str) -> None:
    """Every header stands over an entry of every number line; each bar starts at its
    row's left edge; the bars' name stands on the first bar's line, after it."""
    found = _read(CASES[case])
    assert len(found["bars"]) == 3, found
    for text, (a, b) in found["header"]:
        for line in found["lines"]:
            assert any(a < right and b > left for left, right in line), (text, (a, b), line)
    for line, ((left, _), _, _) in zip(found["lines"], found["bars"], strict=True):
        assert abs(left - min(start for start, _ in line)) < HAIR, (left, line)
    assert found["label"] is not None
    ((_, first_right), first_y, height), ((label_left, _), label_y) = (
        found["bars"][0],
        found["label"],
    )
    assert label_left > first_right, (label_left, first_right)
    assert abs(label_y - first_y) < height, (label_y, first_y, height)
