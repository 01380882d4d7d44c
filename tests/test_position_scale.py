"""PositionBlindness from ``arrange`` on, as a teacher's 720p review saw it (issue 18).

Two findings, read from the mobjects at the beat ends of a dry run:

- From ``arrange`` on the table numbers shrank (26.4 px digits in the lookup,
  24.4 px after) and the rows closed up (0.686 units apart, then 0.393: 35 px at
  720p), so the numbers stood smaller than the title and the rows cramped. The
  second arrangement keeps the lookup's numbers (the hidden-rows label of a
  learned P shares its size note's line and gives the rows its height), and
  the type scale holds: data >= labels >= legend, data >= 24 px.
- The positions were under-labelled: P's rows had no position numbers and no
  column said what ``0 1 2 3`` beside E[id] were. Each block's rows (E[id], P,
  the sums) carry their position right of the block on the row's line, and
  ``pos`` heads E[id]'s and P's columns of them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import pytest

CASES = {
    "learned": {"positions": "learned"},
    "sinusoid": {},
    "learned-light": {"positions": "learned", "theme": "light"},
}
SECOND = ("arrange", "positions", "add", "differ")
# Table numbers, labels and legend ticks among the drawn cells, by kind.
DATA = {"weight", "output", "learned_position", "sinusoid", "sum_learned", "sum_sinusoid"}
LABELS = {"position", "output_id", "pe_col", "row_label", "col_label", "token_id"}
# The rows' pitch the review found (35.4 px at 720p: 0.393 units); they stand looser now.
CRAMPED_PX = 35.4


@dataclass
class End:
    """One beat's end: text heights in px at 720p by role, the rows' pitch, the labels."""

    data: list[float] = field(default_factory=list)
    labels: list[float] = field(default_factory=list)
    legend: list[float] = field(default_factory=list)
    pitch_px: float = 0.0
    # Per block: (its name, each row's (storyboard position, numbers right of it on its line)).
    rows: list[tuple[str, list[tuple[str, list[str]]]]] = field(default_factory=list)
    # Per ``pos`` heading: (its name, shown, its box, the column's numbers' box).
    headings: list[tuple[str, bool, tuple[float, ...], tuple[float, ...]]] = field(
        default_factory=list
    )


def _box(mobjects: list[Any]) -> tuple[float, ...]:
    lows = [m.get_corner([-1, -1, 0]) for m in mobjects]
    highs = [m.get_corner([1, 1, 0]) for m in mobjects]
    return (
        min(float(p[0]) for p in lows),
        min(float(p[1]) for p in lows),
        max(float(p[0]) for p in highs),
        max(float(p[1]) for p in highs),
    )


@functools.cache
def _ends(name: str) -> dict[str, End]:
    from manim import VMobject, config

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.glyphs import NumberText
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("PositionBlindness", CASES[name], environ={})
    ends: dict[str, End] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        px = 720 / float(config.frame_height)
        stage, end = scene.stage, End()
        family = [m for top in scene.mobjects for m in top.get_family()]
        shown = [m for m in family if isinstance(m, VMobject) and m.get_fill_opacity() > 0.05]
        numbers = [m for m in shown if isinstance(m, NumberText)]
        for number in numbers:
            low, high = number.slot_corners()
            height = float(high[1] - low[1]) * px
            kind = number.cell.kind
            role = "data" if kind in DATA else "labels" if kind in LABELS else "legend"
            getattr(end, role).append(height)
        if moment.beat.name in SECOND:
            blocks = stage.blocks
            end.pitch_px = abs(blocks.pe.y(blocks.positions[1]) - blocks.pe.y(blocks.positions[0]))
            end.pitch_px *= px
            # E[id]'s numbers stand between its body and P's, P's and the sums' past theirs.
            grids = (
                ("E[id]", stage.tokens.grid, stage.tokens.rows, blocks.pe_grid.body_left()),
                ("P", blocks.pe_grid, blocks.pe, float("inf")),
                ("sum", blocks.sum_grid, blocks.sums, float("inf")),
            )
            for block, grid, rows, reach in grids:
                seen = []
                for position in blocks.positions:
                    y = rows.y(position)
                    beside = [
                        n.text
                        for n in numbers
                        if n.cell.kind == "position"
                        and grid.body_right() < n.get_left()[0] < reach
                        and abs(n.get_center()[1] - y) < 0.05
                    ]
                    seen.append((blocks.cells[("position", position)].text, beside))
                end.rows.append((block, seen))
            ids = {id(m) for m in shown}
            for block, heading, column in (
                ("E[id]", getattr(stage.tokens, "pos_heading", None), stage.tokens.numbers),
                ("P", getattr(blocks, "pe_pos_heading", None), getattr(blocks, "pe_labels", None)),
            ):
                if heading is None or column is None:
                    end.headings.append((block, False, (), ()))  # none drawn
                    continue
                drawn = any(id(m) in ids for m in heading.get_family())
                end.headings.append((block, drawn, _box([heading]), _box(list(column))))
        ends[moment.beat.name] = end

    play_moments(board, read, alphas=(), pixel_width=256, pixel_height=144)
    return ends


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_numbers_keep_their_size_and_room_from_arrange_on(name: str) -> None:
    """The second arrangement's numbers are no smaller than the lookup's (a hair of
    rounding aside), at least 24 px, over every label and legend text; its rows stand
    looser than the review's 35.4 px."""
    ends = _ends(name)
    lookup = min(ends["lookup"].data)
    for beat in SECOND:
        end = ends[beat]
        assert min(end.data) >= max(24.0, lookup - 0.1), (beat, min(end.data), lookup)
        assert min(end.data) >= max(end.labels) >= max(end.legend), beat
        assert end.pitch_px > CRAMPED_PX + 1.0, (beat, end.pitch_px)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_blocks_rows_carry_their_positions(name: str) -> None:
    """From ``arrange`` on, E[id]'s, P's and the sums' rows each show their position (the
    storyboard's number, alone) right of the block on the row's line; ``pos`` stands over
    E[id]'s and P's columns of them, within the column's reach and over its first number."""
    ends = _ends(name)
    for beat in SECOND:
        end = ends[beat]
        assert [block for block, _ in end.rows] == ["E[id]", "P", "sum"]
        for block, rows in end.rows:
            for number, beside in rows:
                assert beside == [number], (beat, block, number, beside)
        for block, drawn, heading, column in end.headings:
            assert drawn, (beat, block)
            assert heading[1] > column[3], (beat, block)  # over the column
            assert heading[0] < column[2], (beat, block)  # within the column's reach
            assert heading[2] > column[0], (beat, block)
