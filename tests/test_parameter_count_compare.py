"""ParameterCount's ``compare`` beat: the comparison of widths is the frame (issue 18).

A teacher's 720p review of ParameterCount (GPT-2 size, 33-42 s) found the compare
frame a debugging view: E "a thumbnail" in the top left, the table of widths at 24 px
under the memory table (both squeezed into the panel beside E), its bars 35-140 px
long, and two values each shown twice with different meanings at once, true
coincidences: ``77,194,752`` (bfloat16's total bytes, and the parameters at
d = 1,536) and ``73.6 MiB`` (bfloat16's memory at d = 768, and float32's at d = 384);
in the 6 x 3 table, ``36`` (bytes, and parameters).

Now the memory table leaves as ``compare`` starts (its one-line summary comes with
the lookup), and the table of widths, what the narration talks about, takes the
panel: its numbers larger than E's, each bar on a line of its own under its row, the
widest across the table. E holds its receded size, at least its role's floor.

Each check reads the drawn mobjects in a dry run at 1280 x 720, sampling only the
beats it reads.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import pytest
from boards import shared_board

CASES: dict[str, dict[str, Any]] = {
    "gpt2": {},
    "light": {"theme": "light"},
    "toy": {"vocab": 6, "dim": 3},
}
# The compare beat and its neighbours.
BEATS = ("bfloat16", "compare", "lookup")
ALPHAS = (0.1, 0.3, 0.5, 0.7, 0.9)
FRAME_PX = (1280.0, 720.0)


@dataclass
class Moment:
    """What one sampled moment shows, in 720p pixels."""

    beat: str
    alpha: float
    time: float
    e_slots: list[float] = field(default_factory=list)  # E's numbers' digit slots
    widths_slots: list[float] = field(default_factory=list)  # the widths table's numbers
    bars: list[float] = field(default_factory=list)  # the bars' lengths, as drawn
    widths_box: tuple[float, float, float, float] | None = None  # header, rows and bars
    # Every number drawn: its text, and its cell's kind and index.
    numbers: list[tuple[str, str, tuple[int, ...]]] = field(default_factory=list)


def _slot(mobject: Any) -> float:
    low, high = mobject.slot_corners()
    return float(high[1] - low[1])


def _seen(mobject: Any, drawn: set[int]) -> bool:
    return id(mobject) in drawn and mobject.get_fill_opacity() > 0.05


@functools.cache
def _moments(case: str) -> tuple[Moment, ...]:
    from manim import config

    from embedviz.render.moments import play_moments

    board = shared_board("ParameterCount", CASES[case])
    found: list[Moment] = []

    def read(scene: Any, moment: Any) -> None:
        px = FRAME_PX[1] / float(config.frame_height)
        stage = scene.stage
        drawn = {id(m) for top in scene.mobjects for m in top.get_family()}
        now = Moment(moment.beat.name, moment.alpha, moment.time)
        now.e_slots = [_slot(m) * px for m in stage.block.grid.get_entries() if _seen(m, drawn)]
        rows = stage.widths.rows
        now.widths_slots = [
            _slot(m) * px for texts, _ in rows for m in texts[1:] if _seen(m, drawn)
        ]
        now.bars = [bar.width * px for _, bar in rows if _seen(bar, drawn)]
        parts = [m for texts, bar in rows for m in (*texts, bar)] + [*stage.widths.header]
        shown = [m for m in parts if _seen(m, drawn)]
        if shown:
            lows = [m.get_corner([-1, -1, 0]) for m in shown]
            highs = [m.get_corner([1, 1, 0]) for m in shown]
            now.widths_box = (
                min(p[0] for p in lows) * px,
                min(p[1] for p in lows) * px,
                max(p[0] for p in highs) * px,
                max(p[1] for p in highs) * px,
            )
        now.numbers = [
            (m.cell.text, m.cell.kind, tuple(m.cell.index))
            for top in scene.mobjects
            for m in top.get_family()
            if getattr(m, "cell", None) is not None and _seen(m, drawn)
        ]
        found.append(now)

    play_moments(board, read, alphas=ALPHAS, beats=BEATS)
    return tuple(found)


def _ends(case: str, beat: str) -> Moment:
    (end,) = [m for m in _moments(case) if m.beat == beat and m.alpha == 1.0]
    return end


@pytest.mark.parametrize("case", sorted(CASES))
def test_e_keeps_its_roles_floor_through_compare(case: str) -> None:
    """E steps aside for the comparison but never under its role's floor: the 6 x 3
    table's numbers keep 24 px, a real-sized table's 18 px, at every sampled moment."""
    from embedviz.render.design import MIN_DATA_PX, MIN_DEFAULT_DATA_PX

    floor = MIN_DEFAULT_DATA_PX if case == "toy" else MIN_DATA_PX
    compare = [m for m in _moments(case) if m.beat == "compare"]
    assert len(compare) > 5
    for moment in compare:
        assert moment.e_slots, (moment.time, "E left the frame")
        assert min(moment.e_slots) >= floor - 0.05, (moment.time, min(moment.e_slots))


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_comparison_is_larger_than_e(case: str) -> None:
    """The comparison's numbers (the bars' labels) stand at least 5 % larger than E's at
    compare's end: the 6 x 3 table's were at E's 24 px (24.5 beside 24.1)."""
    end = _ends(case, "compare")
    assert end.widths_slots
    assert end.e_slots
    assert min(end.widths_slots) >= 1.05 * max(end.e_slots), (end.widths_slots, end.e_slots)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_bars_span_the_table(case: str) -> None:
    """The widest bar spans at least 40 % of the frame's width at compare's end, and the
    others keep their proportion (they were 35, 70 and 140 px long at GPT-2 size)."""
    end = _ends(case, "compare")
    assert len(end.bars) == 3, end.bars
    assert max(end.bars) >= 0.4 * FRAME_PX[0], end.bars
    # Each bar's length is its table's parameters (the widest the most).
    board = shared_board("ParameterCount", CASES[case])
    counts = [_cells(board, "compare_count")[(n,)] for n in range(3)]
    assert end.bars == pytest.approx([max(end.bars) * c / max(counts) for c in counts])


def _cells(board: Any, kind: str) -> dict[tuple[int, ...], float]:
    """Return a kind's cells' values by index, as the storyboard holds them."""
    return {
        tuple(cell.index): cell.value
        for beat in board.beats
        for cell in beat.numbers
        if cell.kind == kind
    }


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_comparison_takes_the_panel(case: str) -> None:
    """The table of widths, what the compare narration is about, covers at least a
    quarter of the frame at compare's end (17 % under the memory table, before)."""
    end = _ends(case, "compare")
    assert end.widths_box is not None
    left, bottom, right, top = end.widths_box
    share = (right - left) * (top - bottom) / (FRAME_PX[0] * FRAME_PX[1])
    assert share >= 0.25, share


def _meaning(kind: str, index: tuple[int, ...], current: int | None) -> tuple[str, tuple[int, ...]]:
    """Return what a number is, so that two cells of one quantity compare equal.

    The count's factors are E's sizes; the count, E's width and the float32 memory of E
    as it is appear again in the widths table's row for E's own width (``current``); the
    copy's size is E's width; the copied row's values are E's, and the looked-up ID is a
    row number.
    """
    if kind == "factor":
        return ("block_size", index)
    if (kind == "compare_dim" and index == (current,)) or kind == "row_values":
        return ("block_size", (1,))
    if kind == "compare_count" and index == (current,):
        return ("param_count", (0,))
    if kind == "compare_memory" and index == (current,):
        return ("dtype_memory", (0,))
    if kind == "lookup_value":
        return ("corner", index)
    if kind in ("token_id", "lookup_row"):
        return ("row_label", index)
    return (kind, index)


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_value_is_shown_twice_with_two_meanings(case: str) -> None:
    """At no sampled moment of compare and its neighbours do two numbers print the same
    text with different meanings (at compare's end, ``77,194,752`` stood as bfloat16's
    total bytes and as the parameters at d = 1,536; ``73.6 MiB`` as bfloat16's memory
    and as float32's at d = 384; in the 6 x 3 table, ``36`` as bytes and parameters).
    One-character numbers (row numbers, a toy's sizes) are left out."""
    board = shared_board("ParameterCount", CASES[case])
    dims = _cells(board, "compare_dim")
    current = next(index[0] for index, value in dims.items() if value == board.dim)
    clashes = set()
    for moment in _moments(case):
        meanings: dict[str, set[tuple[str, tuple[int, ...]]]] = {}
        for text, kind, index in moment.numbers:
            if len(text) > 1:
                meanings.setdefault(text, set()).add(_meaning(kind, index, current))
        clashes |= {
            (moment.beat, text, tuple(sorted(m))) for text, m in meanings.items() if len(m) > 1
        }
    assert not clashes, sorted(clashes)
