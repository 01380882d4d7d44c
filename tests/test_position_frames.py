"""PositionBlindness as a 720p frame review saw it: what stands where, mid-motion and at ends.

Each test reads geometry from the mobjects of a built stage or of a dry run
(as ``test_positions.py`` and ``test_moments.py`` do). Kept apart from
``test_positions.py``, which holds the position vectors' arithmetic and the
storyboard.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import frame_space
import pytest


def _stage(overrides: dict[str, Any]) -> Any:
    """Return PositionBlindness's stage (no scene: building touches none), built once a worker.

    The tests here only read a stage and build new mobjects beside it: a fingerprint
    of each stage's whole object graph (every attribute, every array's bytes) was the
    same before and after every test that asked for one, so the tests share them.
    """
    return _built(json.dumps(overrides, sort_keys=True))


@functools.cache
def _built(overrides: str) -> Any:
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.stage import stage_for
    from embedviz.render.theme import DARK

    board = prepared_storyboard("PositionBlindness", json.loads(overrides), environ={})
    return stage_for(board.layout)(None, board, DARK)


@pytest.mark.parametrize(
    "overrides",
    [{"positions": "learned"}, {"positions": "learned", "ids": "5,1,4,1,5,9,2,6", "vocab": 10}],
    ids=["default", "eight-tokens"],
)
def test_the_learned_tables_size_stands_under_p(overrides: dict[str, Any]) -> None:
    """A frame review: ``a learned table 16 × 3`` stood under E[id] (4 × 3), which it
    does not describe. It stands under P's block, within P's columns and their position
    numbers (issue 18: the hidden rows' label stands on its line where it fits), clear of
    the sums' heading and of E[id]'s columns."""
    stage = _stage(overrides)
    note, pe, tokens = stage.formula, stage.blocks.pe_grid, stage.tokens.grid
    plan = stage.sums_plan
    assert note.get_left()[0] >= pe.body_left() - 1e-6
    assert note.get_right()[0] <= stage.blocks.pe_labels.get_right()[0] + 1e-6
    assert note.get_left()[0] > tokens.body_right()
    # Under P's body, above the sums' rows.
    assert note.get_top()[1] < pe.body_top() - plan.body_height
    assert note.get_bottom()[1] > plan.sum_top
    heading = stage.blocks.sum_heading
    assert heading.get_right()[0] < note.get_left()[0]


@pytest.mark.slow
@pytest.mark.parametrize("positions", ["sinusoidal", "learned"])
def test_the_rows_arrive_with_the_blocks_they_join(positions: str) -> None:
    """A frame review (``arrange``): the matrix faded, then the rows moved, then the frame
    held E[id] alone at the top left (over a third of the frame empty) until the second
    phrase brought P and the sums. The rows now set off as the matrix fades and the empty
    blocks come as they land: once the rows are in (the first step's last third), and
    through the second step, no empty area is over an eighth. The rows glide calmly (about
    2 s, ``test_glide_pace.py``), so the blocks fade in behind them while they travel: the
    frame is over an eighth empty for under a second (the glide's floor alone, with the
    blocks coming as the rows land, left it so for over a second).
    """
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("PositionBlindness", {"positions": positions}, environ={})
    shares: list[tuple[int, float, float, float]] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name == "arrange" and moment.alpha < 1:
            shares.append((moment.step, moment.alpha, moment.time, frame_space.share_now(scene)))

    alphas = tuple(round(0.05 * k, 2) for k in range(1, 20))
    # Only ``arrange`` is read: the other beats play unsampled.
    play_moments(board, read, alphas=alphas, pixel_width=192, pixel_height=108, beats={"arrange"})
    assert {step for step, *_ in shares} == {0, 1}
    landed = [(s, a, x) for s, a, _, x in shares if s > 0 or a >= 0.7]
    roomy = [(s, a, f"{x:.0%}") for s, a, x in landed if x > frame_space.EIGHTH]
    assert not roomy, roomy
    # More than an eighth stands empty for under a second.
    moving = [t for *_, t, x in shares if x > frame_space.EIGHTH]
    assert moving
    assert max(moving) - min(moving) < 1.0


# The word beside ``=`` needs 1.74 units right of the bracket on one line (1.39 stacked
# under the sign); the lookup layout leaves 0.5, and the corridor between E and the
# output block is only 0.64 wide (APART, 0.48, must stay). Solving for the room with
# smaller numbers left 13.3 % of the frame empty at the first half's beat ends. Only
# ``same`` makes room: the tables narrow about E's left edge (numbers 26.4 -> 24.1 px,
# rows at their pitch), the output side glides into the corridor (to APART from E) and
# up or down where the frame is fullest (11.6 % empty at the end: the legend stands over
# E and the corridor from the intro, parts/legend_home.py; where it stays elsewhere it
# glides right too), and then the outlines, the bracket and ``= identical`` on one line
# are drawn (docs/render.md has the measurements).
SAME_CASES = [
    ({}, "dark"),
    ({"positions": "learned"}, "dark"),
    ({"positions": "learned", "vocab": 50257, "dim": 768}, "dark"),
    ({"ids": "5,1,4,1,5,9,2,6", "vocab": 10, "dim": 6}, "dark"),
    ({}, "light"),
]


@pytest.mark.parametrize(
    ("overrides", "theme"),
    SAME_CASES,
    ids=["default", "learned", "learned-gpt2", "eight-tokens", "light"],
)
def test_identical_stands_beside_its_bracket(overrides: dict[str, Any], theme: str) -> None:
    """A frame review (the end of ``same``): the word ``identical`` stood under the output
    block's last row, away from the bracket joining the repeat's two rows. It should stand
    beside the bracket, on the line between the two rows, in the frame's safe area, with
    the table numbers (as drawn) at their 24 px (18 px) floor or over.

    Three 720p reviews then found ``=`` alone over ``identical`` (a wrapped label ending
    17-19 px from the frame's edge) while the closing ``≠ different`` stands on one line.
    The two verdicts are drawn alike: the sign and the word on the bracket's middle line,
    the sign as far from the bracket and the word as far from the sign as in ``≠ different``.
    """
    from conftest import TABLE_KINDS
    from manim import config

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.design import MARGIN, MIN_DATA_PX, MIN_DEFAULT_DATA_PX, THEMES
    from embedviz.render.glyphs import NumberText
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("PositionBlindness", overrides, environ={})
    seen: list[tuple[Any, ...]] = []
    pads: list[float] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name == "same" and moment.alpha >= 1:
            bracket, sign, word = scene.stage.same[-1]
            # The table numbers as drawn (the tables may have narrowed to make room).
            px_per_unit = 720 / float(config.frame_height)
            digits = [
                float(high[1] - low[1]) * px_per_unit
                for top in scene.mobjects
                for m in top.get_family()
                if isinstance(m, NumberText) and m.cell.kind in TABLE_KINDS
                for low, high in [m.slot_corners()]
            ]
            blocks = scene.stage.blocks
            other = blocks.verdict((blocks.positions[0], blocks.positions[1]))
            seen.append((bracket, sign, word, min(digits), other))
            pads.extend(_number_pads(scene, px_per_unit))

    # Only ``same``'s end is read: the other beats play unsampled.
    play_moments(
        board,
        read,
        alphas=(),
        pixel_width=192,
        pixel_height=108,
        theme=THEMES[theme],
        beats={"same"},
    )
    ((bracket, sign, word, data_px, other),) = seen
    assert word.original_text == "identical"
    # A table that starts under 24 px (more tokens, GPT-2's columns) may narrow to 18 px.
    assert data_px >= (MIN_DATA_PX if "vocab" in overrides else MIN_DEFAULT_DATA_PX)
    top, bottom = bracket.get_top()[1], bracket.get_bottom()[1]
    assert bottom < word.get_center()[1] < top
    assert word.get_left()[0] > bracket.get_right()[0]
    assert word.get_right()[0] <= config.frame_width / 2 - MARGIN + 1e-6
    # A fourth 720p review: ``= identical`` ended 18 px (the margin) from the frame's edge.
    # Both verdicts' words keep twice the margin, 36 px at 720p (written out), off it.
    px = 720 / float(config.frame_height)
    for verdict_word in (word, other[2]):
        clear = (config.frame_width / 2 - verdict_word.get_right()[0]) * px
        assert clear >= 36.0 - 1e-6, (verdict_word.original_text, clear)
    # Narrowed past their floor, the numbers keep it and their cells narrow on: each number
    # stays 5.4 px (SPACE / 2 at 720p, written out) inside its table's frame and from its
    # row's next number's cell (twice that from the number).
    assert pads
    assert min(pads) >= 5.4 - 1e-3, min(pads)
    # One line, as ``≠ different``: the sign and the word on the bracket's middle line.
    for bars, *marks in ((bracket, sign, word), other):
        middle = (bars.get_top()[1] + bars.get_bottom()[1]) / 2
        for mark in marks:
            assert mark.get_center()[1] == pytest.approx(middle, abs=1e-6), mark
    # At the same distances from the bracket as the other verdict's sign and word.
    assert sign.get_left()[0] - bracket.get_right()[0] == pytest.approx(
        other[1].get_left()[0] - other[0].get_right()[0], abs=1e-6
    )
    assert word.get_left()[0] - sign.get_right()[0] == pytest.approx(
        other[2].get_left()[0] - other[1].get_right()[0], abs=1e-6
    )


def _number_pads(scene: Any, px_per_unit: float) -> list[float]:
    """Return, in px, how far E's and the output's numbers stand inside their frames (each
    row's first and last) and half the gap between neighbours in a row."""
    from itertools import pairwise

    from embedviz.render.glyphs import NumberText

    stage = scene.stage
    bodies = {"weight": stage.matrix.grid.body, "output": stage.output.grid.body}
    rows: dict[tuple[str, tuple[int, ...]], list[tuple[float, float]]] = {}
    for top in scene.mobjects:
        for m in top.get_family():
            if isinstance(m, NumberText) and m.cell.kind in bodies and not m.echo:
                low, high = m.slot_corners()
                key = (m.cell.kind, tuple(m.cell.index[:-1]))
                rows.setdefault(key, []).append((float(low[0]), float(high[0])))
    pads = []
    for (kind, _), spans in rows.items():
        spans.sort()
        body = bodies[kind]
        pads.append((spans[0][0] - body.get_left()[0]) * px_per_unit)
        pads.append((body.get_right()[0] - spans[-1][1]) * px_per_unit)
        pads += [(b[0] - a[1]) / 2 * px_per_unit for a, b in pairwise(spans)]
    return pads


def _shown_sum(board: Any, position: tuple[int, ...], col: int, kind: str) -> Any:
    """The sum of the two rounded numbers drawn above a sum (exact decimal arithmetic)."""
    from decimal import Decimal

    cells = {(c.kind, c.index): c for c in board.beats[-1].numbers}
    return Decimal(cells[("output", (*position, col))].text) + Decimal(
        cells[(kind, (*position, col))].text
    )


@pytest.mark.parametrize("positions", ["sinusoidal", "learned"])
def test_the_sums_say_they_add_the_unrounded_values(positions: str) -> None:
    """A 720p review (``add``/``differ``): 4 of 12 sums differed in the last digit from the
    sum of the two 4-decimal numbers drawn above them (-0.2010 + 0.2498 shown as 0.0489).
    The sums stay the true sums of the unrounded values, and the frame and the narration
    say so: ``added unrounded, shown to 4 decimals``."""
    from decimal import Decimal

    from embedviz.inputs import prepared_storyboard

    board = prepared_storyboard("PositionBlindness", {"positions": positions}, environ={})
    pe_kind, sum_kind = {
        "sinusoidal": ("sinusoid", "sum_sinusoid"),
        "learned": ("learned_position", "sum_learned"),
    }[positions]
    cells = {(c.kind, c.index): c for c in board.beats[-1].numbers}
    differ = 0
    for (kind, index), cell in cells.items():
        if kind != sum_kind:
            continue
        token, pe = cells[("output", index)], cells[(pe_kind, index)]
        # The true sum of the unrounded values (float64), rounded half-even to 4 places.
        true = Decimal(repr(float(token.value) + float(pe.value))).quantize(Decimal("0.0001"))
        assert Decimal(cell.text) == true, cell
        differ += Decimal(cell.text) != _shown_sum(board, index[:-1], index[-1], pe_kind)
    # The default input shows the review's case: some last digits differ.
    assert differ >= 1
    add = next(beat for beat in board.beats if beat.name == "add")
    assert add.labels["sum_note"] == "added unrounded, shown to 4 decimals"
    assert "Each sum adds the unrounded values and is shown to 4 decimals." in add.narration
    assert board.beats[-1].labels["sum_note"] == add.labels["sum_note"]


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"positions": "learned"},
        {"ids": "5,1,4,1,5,9,2,6", "vocab": 10, "dim": 6},
        {"positions": "learned", "ids": "5,1,4,1,5,9,2,6", "vocab": 10, "dim": 6},
        {"positions": "learned", "ids": "4821,0,4821", "vocab": 50257, "dim": 768},
    ],
    ids=["default", "learned", "eight-tokens", "learned-eight", "learned-gpt2"],
)
def test_the_sums_note_stands_clear_by_the_sums(overrides: dict[str, Any]) -> None:
    """The note stands in the safe area, on the sums' heading line or beside the sum block,
    at the notes' size, at least a SPACE clear of everything else.

    A 720p review: the note was set at the legend's size (12.1 px with eight tokens, under
    the notes' 12.5 px floor) and, with a learned P, stood in the band under E[id], 115 px
    from the sums it explains. It is now at most APART from the sum block's body with its
    rows' position numbers (issue 18: they stand right of it, as E[id]'s)."""
    from manim import VGroup, config
    from test_note_floor import NOTE_PX, _slot_px

    from embedviz.render.design import APART, MARGIN, SPACE
    from embedviz.render.glyphs import SansText

    stage = _stage(overrides)
    blocks = stage.blocks
    note = blocks.sum_note
    assert note is not None
    # One storyboard label, in sans: it is words, not code (a 720p review saw it in
    # monospace, the voice of code and PyTorch's prints).
    assert isinstance(note, SansText)
    assert note.original_text == "added unrounded, shown to 4 decimals"
    assert note.font_size == pytest.approx(stage.sums_plan.scale.note)
    # Its digit slot (its last line's, from the points drawn) at the notes' floor.
    assert _slot_px(note.points) >= NOTE_PX - 0.005
    px = 720 / config.frame_height
    body = VGroup(blocks.sum_grid.body, blocks.sum_labels)
    gap = max(
        body.get_left()[0] - note.get_right()[0],
        note.get_left()[0] - body.get_right()[0],
        body.get_bottom()[1] - note.get_top()[1],
        note.get_bottom()[1] - body.get_top()[1],
    )
    assert gap <= APART + 1e-6, f"{gap * px:.0f} px from the sums"
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    assert -half_w + MARGIN - 1e-6 <= note.get_left()[0]
    assert note.get_right()[0] <= half_w - MARGIN + 1e-6
    assert note.get_top()[1] <= half_h - MARGIN
    heading = blocks.sum_heading
    # Level with the heading (its words have no ascenders: the note's may reach over it).
    assert note.get_top()[1] <= heading.get_top()[1] + SPACE
    assert note.get_bottom()[1] < heading.get_top()[1]
    others = [
        stage.tokens.grid.body, *stage.tokens.tags, *stage.tokens.numbers, stage.tokens.heading,
        blocks.pe_grid.body, blocks.sum_grid.body, blocks.pe_heading, heading, blocks.plus,
        blocks.equals, blocks.formula, blocks.col_labels,
        blocks.verdict((blocks.positions[0], blocks.positions[1])),
    ]  # fmt: skip
    for other in others:
        apart = max(
            other.get_left()[0] - note.get_right()[0],
            note.get_left()[0] - other.get_right()[0],
            other.get_bottom()[1] - note.get_top()[1],
            note.get_bottom()[1] - other.get_top()[1],
        )
        assert apart >= SPACE - 1e-6, (other, apart)


def _line_gap(note: Any) -> float:
    """Return the least clear ground between the inks of a multi-line note's lines.

    A :class:`~embedviz.render.sans_lines.SansLines` ends with each line's digit
    slot (eight points a line); each ink point belongs to the line whose slot
    centre is nearest.
    """
    import numpy as np

    count = len(note.lines)
    slots = note.points[-8 * count :].reshape(count, 8, 3)
    centres = slots[:, :, 1].mean(axis=1)
    ink = note.points[: -8 * count]
    line = np.argmin(np.abs(ink[:, 1][:, None] - centres[None, :]), axis=1)
    return min(
        float(ink[line == k, 1].min() - ink[line == k + 1, 1].max()) for k in range(count - 1)
    )


@pytest.mark.parametrize(
    "overrides",
    [
        {"positions": "learned"},
        {"positions": "learned", "ids": "5,1,4,1,5,9,2,6", "vocab": 10, "dim": 6},
        {"positions": "learned", "ids": "4821,0,4821", "vocab": 50257, "dim": 768},
        {},
        {"ids": "4821,0,4821", "vocab": 50257, "dim": 768},
    ],
    ids=["learned", "learned-eight", "learned-gpt2", "default", "gpt2"],
)
def test_the_verdict_and_the_sums_note_read_as_two_labels(overrides: dict[str, Any]) -> None:
    """A 720p review of a learned P (issue 18, beat ``differ``): ``≠ different`` stood a
    SPACE over the note ``added unrounded, shown to 4 decimals``, left-aligned with it,
    and read as one three-line label; the note's own lines stand as close.

    The verdict is its own label, centred between the two rows its bracket joins, and
    the note stands apart from it: at least a SPACE and at least twice the clear ground
    between the note's own lines (what makes lines read as one label is that they are
    closer to each other than to anything else)."""
    from embedviz.render.design import SPACE

    stage = _stage(overrides)
    blocks = stage.blocks
    pair = blocks.pair(stage.board.beats[-1])
    same = blocks.verdict(pair)
    _, sign, word = same
    note = blocks.sum_note
    assert note is not None
    assert all(note is not part for part in same.get_family())
    assert word.text != note.text
    first, second = sorted((blocks.sums.y(pair[0]), blocks.sums.y(pair[1])))
    for part in (sign, word):
        assert first < float(part.get_center()[1]) < second
    inner = _line_gap(note) if len(note.lines) > 1 else 0.0
    for part in (sign, word):
        apart = max(
            float(part.get_left()[0] - note.get_right()[0]),
            float(note.get_left()[0] - part.get_right()[0]),
            float(part.get_bottom()[1] - note.get_top()[1]),
            float(note.get_bottom()[1] - part.get_top()[1]),
        )
        assert apart >= max(SPACE, 2 * inner) - 1e-6, (part.text, apart, inner)


@pytest.mark.parametrize(
    ("overrides", "shown"),
    [
        ({"positions": "learned"}, 4),
        ({"positions": "learned", "ids": "5,1,4,1,5,9,2,6", "vocab": 10, "dim": 6}, 8),
        ({"positions": "learned", "ids": "4821,0,4821", "vocab": 50257, "dim": 768}, 3),
    ],
    ids=["default", "eight-tokens", "gpt2"],
)
def test_the_learned_tables_hidden_rows_are_labelled(overrides: dict[str, Any], shown: int) -> None:
    """A 720p review: ``a learned table 16 × 3`` stood under a drawing of 4 rows with no
    ``rows 4–15 hidden``, while every other table that hides rows says so. The
    learned table has 16 rows (the context the docs give); P draws one per position,
    and the label of the rest stands right under P, over its size note, in the hidden
    ranges' style (sans: words, not code; the legend's size but at least 12.5 px, muted)."""
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.design import SPACE, font_for_px
    from embedviz.render.glyphs import SansText

    board = prepared_storyboard("PositionBlindness", overrides, environ={})
    expected = f"rows {shown}\u2013{16 - 1} hidden"
    arrange = next(beat for beat in board.beats if beat.name == "arrange")
    assert arrange.labels["pe_gap"] == board.beats[-1].labels["pe_gap"] == expected
    stage = _stage(overrides)
    pe, plan, blocks = stage.blocks.pe_grid, stage.sums_plan, stage.blocks
    gap = stage.formula[0]
    assert isinstance(gap, SansText)
    assert gap.text == expected
    # The notes' floor (12.5 px at 720p), written out: the legend's size where larger.
    assert gap.font_size == pytest.approx(max(plan.scale.legend, font_for_px(12.5)), rel=2e-3)
    assert gap.get_fill_color().to_hex().lower() == stage.theme.muted.lower()
    size_note = stage.formula[-1]
    assert gap.get_left()[0] == pytest.approx(pe.body_left())
    assert gap.get_right()[0] <= pe.body_right()
    # Under P's body (clear of a row's outline), over the size note or before it on its
    # line (issue 18: the rows were cramped; the line of its own took 30 px of their height),
    # all over the sums.
    assert gap.get_top()[1] <= pe.body_top() - plan.body_height - SPACE / 2
    if plan.gap_inline:
        assert gap.digit_line() == pytest.approx(size_note[0].digit_line())
        assert gap.get_right()[0] + SPACE <= size_note.get_left()[0]
    else:
        assert gap.get_bottom()[1] >= size_note.get_top()[1] + SPACE / 2
    assert size_note.get_bottom()[1] > plan.sum_top
    # The sums' heading stands left of them; the sums' note (beside the sum block) under them.
    assert blocks.sum_heading.get_right()[0] < gap.get_left()[0] - SPACE
    note = blocks.sum_note
    assert note is not None
    assert (
        max(
            gap.get_left()[0] - note.get_right()[0],
            size_note.get_bottom()[1] - note.get_top()[1],
        )
        >= SPACE - 1e-6
    )


def test_the_sinusoidal_p_has_no_hidden_rows() -> None:
    from embedviz.inputs import prepared_storyboard

    board = prepared_storyboard("PositionBlindness", {}, environ={})
    assert "pe_gap" not in board.beats[-1].labels


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"positions": "learned"},
        {"ids": "5,1,4,1,5,9,2,6", "vocab": 10, "dim": 6},
        {"positions": "learned", "ids": "4821,0,4821", "vocab": 50257, "dim": 768},
    ],
    ids=["default", "learned", "eight-tokens", "learned-gpt2"],
)
def test_the_column_numbers_stand_clear_of_row_outlines(overrides: dict[str, Any]) -> None:
    """A 720p review: P's column numbers 0/1/2 touched the purple outline of row 0
    (``differ``). Every column number stands at least 3 px (at 720p) over the outline's
    ink (its path plus half its stroke)."""
    from manim import config

    stage = _stage(overrides)
    blocks = stage.blocks
    first = blocks.positions[0]
    outline = blocks.pe.outline(first, stage.theme.highlight)
    ink_top = outline.get_top()[1] + outline.get_stroke_width() / 200
    px = 720 / config.frame_height
    assert len(blocks.col_labels) == len(stage.board.beats[0].window.cols)
    for label in blocks.col_labels:
        assert (label.get_bottom()[1] - ink_top) * px >= 3.0, label.text


@pytest.mark.parametrize(
    "overrides",
    [{"positions": "learned"}, {}, {"ids": "5,1,4,1,5,9,2,6", "vocab": 10, "dim": 6}],
    ids=["learned", "sinusoidal", "eight-tokens"],
)
def test_a_row_outline_keeps_clear_of_the_next_rows_digits(overrides: dict[str, Any]) -> None:
    """A second 720p review (``differ`` end): in the packed sums and P, a row's outline
    reached past the row's border and touched the digits of the rows above and below it
    (``-1.4728`` under the outlined row 0). Between drawn rows the stroke runs on the
    shared border, so its ink stands as far from the neighbour's digits as from the row's
    own: at least 2 px at 720p, and never nearer the neighbour's than its own."""
    from itertools import pairwise

    from manim import config

    from embedviz.render.metrics import digit_height

    stage = _stage(overrides)
    px = 720 / config.frame_height
    half_digit = digit_height(stage.sums_plan.scale.data) / 2
    checked = 0
    for grid in (stage.blocks.sum_grid, stage.blocks.pe_grid, stage.tokens.grid):
        pairs = [(a, b) for a, b in pairwise(grid.row_slots) if not (a.gap or b.gap)]
        for upper, lower in [(a.key, b.key) for a, b in pairs]:
            below = grid.row_outline(upper, stage.theme.highlight)
            above = grid.row_outline(lower, stage.theme.highlight)
            ink = below.get_stroke_width() / 200
            # The upper row's outline over the lower row's digits, and the other way round.
            near_lower = (below.get_bottom()[1] - ink) - (grid.row_y(lower) + half_digit)
            own_upper = (grid.row_y(upper) - half_digit) - (below.get_bottom()[1] + ink)
            near_upper = (grid.row_y(upper) - half_digit) - (above.get_top()[1] + ink)
            assert near_lower * px >= 2.0, (upper, lower, near_lower * px)
            assert near_upper * px >= 2.0, (upper, lower, near_upper * px)
            assert near_lower >= own_upper - 1e-6, (upper, lower)
            checked += 1
    assert checked >= 6


def _sides(rect: Any) -> list[tuple[str, float, float, float, float]]:
    """Return a rectangle's four sides: (axis, where, from, to, half its stroke)."""
    (left, bottom, _), (right, top, _) = rect.get_corner([-1, -1, 0]), rect.get_corner([1, 1, 0])
    half = float(rect.get_stroke_width()) / 200
    return [
        ("x", left, bottom, top, half),
        ("x", right, bottom, top, half),
        ("y", bottom, left, right, half),
        ("y", top, left, right, half),
    ]


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_row_outlines_keep_the_safe_area_and_clear_of_the_frames(theme: str) -> None:
    """A 720p review of the learned variant (``differ``): the purple outline of P's rows
    ran along P's green frame 0.9 px outside it (x≈1256 px), one smudged double line, and
    the amber outlines did the same along E[id]'s frame at the left edge; moved 3.5 px
    off, a later review still read them as double lines. At every beat's end every
    outline's ink stays inside the frame's safe area, and each of its sides either runs
    on a parallel side of a block's frame (centre lines within half a pixel: the frame is
    drawn once, in the outline's colour) or stands at least SPACE/2 (5.4 px at 720p) off
    it (it crosses a frame only where a row's border meets it)."""
    from manim import Rectangle, config

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.design import MARGIN, THEMES
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("PositionBlindness", {"positions": "learned"}, environ={})
    apart_px = 0.12 / 2 * 90  # design.SPACE / 2 at 720p, written out
    px = 720 / config.frame_height
    half_w, half_h = config.frame_width / 2 - MARGIN, config.frame_height / 2 - MARGIN
    seen: dict[str, float] = {}

    def read(scene: Any, moment: Any) -> None:
        stage = scene.stage
        grids = (stage.tokens.grid, stage.blocks.pe_grid, stage.blocks.sum_grid)
        family = {id(m) for top in scene.mobjects for m in top.get_family()}
        frames = [grid.body[0] for grid in grids if id(grid.body[0]) in family]
        outlines = [
            m
            for top in scene.mobjects
            for m in top.get_family()
            if isinstance(m, Rectangle)
            and m.get_fill_opacity() == 0
            and m.get_stroke_opacity() > 0
            and m.get_stroke_width() >= 3
        ]
        for outline in outlines:
            reach = float(outline.get_stroke_width()) / 200
            low, high = outline.get_corner([-1, -1, 0]), outline.get_corner([1, 1, 0])
            beat = moment.beat.name
            assert -half_w <= low[0] - reach, beat
            assert high[0] + reach <= half_w, beat
            assert -half_h <= low[1] - reach, beat
            assert high[1] + reach <= half_h, beat
            for frame in frames:
                for axis, at, start, end, half in _sides(outline):
                    for axis2, at2, start2, end2, half2 in _sides(frame):
                        if axis != axis2 or min(end, end2) <= max(start, start2):
                            continue
                        apart = (abs(at - at2) - half - half2) * px
                        on = abs(at - at2) * px < 0.5
                        seen[moment.beat.name] = min(seen.get(moment.beat.name, 99.0), apart)
                        assert on or apart >= apart_px - 1e-6, (moment.beat.name, apart)

    play_moments(board, read, alphas=(), theme=THEMES[theme])
    # The outlines of the second arrangement were all measured against the frames.
    assert {"positions", "differ"} <= set(seen), seen


# A 720p review (add, differ): the purple rings round P's and the sums' rows started
# 2-4 px from the ``+`` and ``=`` between the blocks (0.5 px from ``=`` while the sums
# were circled), so the signs read as part of the rings. Every ring keeps this much
# clear of every sign and text beside the blocks.
RING_CLEAR_PX = 8.0
RING_CASES = [
    {},
    {"positions": "learned"},
    {"positions": "learned", "vocab": 50257, "dim": 768},
    {"theme": "light"},
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides", RING_CASES, ids=["default", "learned", "learned-gpt2", "light"]
)
def test_the_rings_keep_clear_of_the_signs_and_texts(overrides: dict[str, Any]) -> None:
    """In the second arrangement's beats (``positions``, ``add``, ``differ``), mid-motion
    and at their ends, every ring (a row's outline, the circle round the sums) stands at
    least RING_CLEAR_PX (at 720p) from every visible text outside the blocks' bodies:
    ``+``, ``=``, P's column numbers, the headings and notes. (The numbers and marks in
    the rows have their own rule: ``test_a_row_outline_keeps_clear_of_the_next_rows_digits``.)
    """
    import numpy as np
    from conftest import SHOWN, sample_moments
    from manim import config

    px = 720 / config.frame_height
    stage = _stage(overrides)
    bodies = [
        (grid.body.get_corner([-1, -1, 0])[:2], grid.body.get_corner([1, 1, 0])[:2])
        for grid in (stage.tokens.grid, stage.blocks.pe_grid, stage.blocks.sum_grid)
    ]

    def in_a_body(box: Any) -> bool:
        centre = (box[0] + box[1]) / 2
        return any(bool(np.all(low <= centre) and np.all(centre <= high)) for low, high in bodies)

    beats = {"positions", "add", "differ"}
    samples = [
        s
        for s in sample_moments("PositionBlindness", overrides, beats=beats)
        if s.beat.name in beats
    ]
    gaps: dict[str, float] = {}
    problems = []
    for sample in samples:
        rings = [k for k in sample.strokes if "Rectangle" in k.what and k.half_width >= 0.02 - 1e-9]
        texts = [
            t
            for t in sample.texts
            if t.role not in ("number", "caption")
            and t.opacity >= SHOWN
            and not (t.in_strip or t.on_chip or in_a_body(t.box))
        ]
        for ring in rings:
            for text in texts:
                low, high = text.box
                outside = np.maximum(np.maximum(low - ring.points, ring.points - high), 0.0)
                gap = (float(np.sqrt((outside**2).sum(axis=1)).min()) - ring.half_width) * px
                gaps[text.text] = min(gaps.get(text.text, 99.0), gap)
                if gap < RING_CLEAR_PX - 1e-3:
                    where = f"{sample.beat.name} at {sample.alpha:g} of step {sample.step + 1}"
                    problems.append(f"{where}: a {ring.what} {gap:.1f} px from {text.text!r}")
    # The signs stand next to rings (within twice the clearance): the rule is tested there.
    assert max(gaps["+"], gaps["="]) < 2 * RING_CLEAR_PX, gaps
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize(
    "overrides",
    [
        {"positions": "learned"},
        {"positions": "learned", "ids": "464,262,3797,262", "vocab": 50257, "dim": 768},
    ],
    ids=["learned", "learned-gpt2"],
)
def test_a_learned_ps_sum_band_stands_centred(overrides: dict[str, Any]) -> None:
    """A 720p review (``differ`` end): with a learned P, ``=``, the sums and ``≠ different``
    stood right of the frame's middle, over the centred caption, and the lower-left quarter
    under E[id] stood empty. Nothing stands left of ``=`` now: from ``=`` to the right end of
    the verdict and the sums' note, the band is centred in the frame (within 5 % of its width),
    and the room left of ``=`` is no wider than twice that right of the band."""
    from manim import config

    stage = _stage(overrides)
    blocks = stage.blocks
    assert blocks.sum_note is not None
    verdict = blocks.verdict(blocks.pair(stage.board.beats[-1]))
    left = float(blocks.equals.get_left()[0])
    right = max(float(verdict.get_right()[0]), float(blocks.sum_note.get_right()[0]))
    half = config.frame_width / 2
    assert abs((left + right) / 2) <= 0.05 * config.frame_width, (left, right)
    assert left + half <= 2 * (half - right), (left, right)


def test_the_sums_note_beside_the_block_is_as_wide_as_the_solver_centred() -> None:
    """The sums' band is centred on the note set on two lines beside the block
    (``_centred_sums``); where the room beside it held the note on one line (GPT-2's
    sizes, a hair smaller type after the row numbers moved a digit off their chips), it
    ran to the frame's edge and the band stood 1.26 units right of centre. Given a room as
    wide as the frame, the note is still set no wider than its two caption lines."""
    from embedviz.render.metrics import text_width
    from embedviz.render.parts.sum_note import place_sum_note
    from embedviz.story.phrases import caption_lines

    stage = _stage({"positions": "learned"})
    blocks = stage.blocks
    text = stage.board.beats[-1].labels["sum_note"]
    font = stage.sums_plan.scale.note
    two = max(
        text_width(line, font, mono=False) for line in caption_lines(text, len(text) // 2 + 2)
    )
    assert text_width(text, font, mono=False) > two  # one line would be wider
    edge = 100.0  # a room holding it on one line with plenty to spare
    taken = [blocks.pe_grid.body, blocks.formula]
    heading = blocks.sum_heading
    band = (stage.sums_plan.token_left, float(blocks.equals.get_left()[0]))
    room = [(0.0, 50.0, -50.0, False)]
    # Off the heading's line, which the band, centred on the note beside it, leaves free.
    args = (taken, band, edge, room, False)
    note = place_sum_note(text, font, stage.theme, heading, *args)
    assert float(note.get_left()[0]) == pytest.approx(0.0), "placed in the room beside"
    assert note.width <= two + 1e-6, (note.width, two)


@pytest.mark.parametrize("overrides", [{}, {"positions": "learned"}], ids=["default", "learned"])
def test_the_second_arrangement_stands_under_es_legend(overrides: dict[str, Any]) -> None:
    """E's legend stays where it first stood, and ``E[id] + P = sum`` comes under it.

    A 720p review (issue 18, lecture-hall frames) saw the legend over E glide
    to the top centre (beat ``same``) and leave with E at ``arrange``, a
    second one coming at the top right of a title band a line taller. The
    legend now stands over E (and the corridor) from the intro to the end:
    whatever of the second arrangement stands in its columns stands at least
    a ``SPACE`` under it, and its numbers keep their 24 px floor.
    """
    from manim import DL, UR

    from embedviz.render.design import MIN_DEFAULT_DATA_PX, SPACE, px_for_font

    stage = _stage(overrides)
    legend = stage.matrix.legend
    (left, bottom), (right, _) = legend.get_corner(DL)[:2], legend.get_corner(UR)[:2]
    blocks = stage.blocks
    second = [stage.tokens.heading, stage.tokens.grid, blocks.pe_heading, blocks.pe_grid]
    second += [blocks.formula, *stage.tokens.grid.submobjects]
    for part in second:
        (low, _), (high, top) = part.get_corner(DL)[:2], part.get_corner(UR)[:2]
        if high > left and low < right:
            assert top <= bottom - SPACE + 1e-6, (part, top, bottom)
    assert px_for_font(stage.sums_plan.scale.data) >= MIN_DEFAULT_DATA_PX


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"positions": "learned"},
        {"theme": "light"},
        {"ids": [4821, 0, 4821], "vocab": 50257, "dim": 768},
        {"positions": "learned", "ids": "5,1,4,1,5,9,2,6", "vocab": 10, "dim": 6},
    ],
    ids=["default", "learned", "light", "gpt2", "learned-eight"],
)
def test_the_arrange_glide_keeps_the_safe_area(overrides: dict[str, Any]) -> None:
    """A 720p review (issue 18, lecture-hall frames): at 24.4 s of ``arrange`` P's empty
    block, riding in with the rows from the output's place, touched the frame's right
    edge (it began to show over 4 units past it). ``test_moments.py`` holds texts inside
    the frame mid-motion and everything drawn to the safe area at beat ends only; here
    everything visible (any opacity, strokes' ink included) keeps the design system's
    MARGIN inside the frame at every fortieth of both of the beat's steps."""
    from manim import config

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.design import MARGIN
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("PositionBlindness", overrides, environ={})
    half_w = float(config.frame_width) / 2 - MARGIN
    half_h = float(config.frame_height) / 2 - MARGIN
    seen: set[tuple[int, float]] = set()
    out: list[str] = []

    def read(scene: Any, moment: Any) -> None:
        seen.add((moment.step, moment.alpha))
        for top in scene.mobjects:
            for leaf in top.get_family():
                if leaf.submobjects or not len(leaf.points):
                    continue
                stroke = float(leaf.get_stroke_width()) * (float(leaf.get_stroke_opacity()) > 0)
                if stroke <= 0 and float(leaf.get_fill_opacity()) <= 0:
                    continue  # not drawn (yet)
                reach = 0.01 * stroke / 2
                low = leaf.points[:, :2].min(axis=0) - reach
                high = leaf.points[:, :2].max(axis=0) + reach
                if low[0] < -half_w - 1e-3 or high[0] > half_w + 1e-3:
                    out.append(f"{type(top).__name__} x {low[0]:.2f}..{high[0]:.2f}")
                elif low[1] < -half_h - 1e-3 or high[1] > half_h + 1e-3:
                    out.append(f"{type(top).__name__} y {low[1]:.2f}..{high[1]:.2f}")
                else:
                    continue
                out[-1] += f" at {moment.time:.2f} s (step {moment.step + 1}, {moment.alpha:g})"

    alphas = tuple(k / 40 for k in range(1, 40))
    play_moments(board, read, alphas=alphas, pixel_width=192, pixel_height=108, beats={"arrange"})
    # Both steps, mid-motion and at the end.
    assert {step for step, alpha in seen if alpha < 1} == {0, 1}
    assert not out, out[:10]


@pytest.mark.parametrize(
    "overrides",
    [{}, {"positions": "learned"}, {"theme": "light"}],
    ids=["default", "learned", "light"],
)
def test_the_intro_ends_with_no_eighth_empty(overrides: dict[str, Any]) -> None:
    """Issue 18 (lecture-hall frames): the block stands raised from the intro to leave the
    strips' road under it (``test_position_hold.py``), and the chips waiting beside its rows
    left that room empty: 20.7 % of the frame at the intro's end. They wait in a lane under
    the block (``parts/wait_under.py``): no empty area over an eighth."""
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.moments import play_moments
    from embedviz.render.theme import THEMES

    board = prepared_storyboard("PositionBlindness", overrides, environ={})
    shares: list[float] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name == "intro" and moment.alpha >= 1:
            shares.append(frame_space.share_now(scene))

    theme = THEMES[str(overrides.get("theme", "dark"))]
    play_moments(
        board, read, alphas=(), pixel_width=192, pixel_height=108, theme=theme, beats={"intro"}
    )
    (share,) = shares
    assert share <= frame_space.EIGHTH, f"{share:.1%}"
