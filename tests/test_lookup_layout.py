"""The lookup layout, solved from the frame: big numbers, a used screen, clear paths."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from boards import minilm_options, shared_board
from conftest import RecordingHost
from manim import VMobject, config

from embedviz.render.design import TypeScale, font_for_px, px_for_font
from embedviz.render.stages.lookup import LookupStage, lookup_spec
from embedviz.render.theme import DARK
from embedviz.story.window import choose_window

MINILM_SENTENCE = "The cat sat on the mat because the mat was warm today"
GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256"}


def _stage(scene: str, options: dict[str, Any] | None) -> LookupStage:
    board = shared_board(scene, minilm_options() if options is None else options)
    return LookupStage(RecordingHost(), board, DARK)


def _digit_px(mobject: Any) -> float:
    # A number's slot box is one digit tall: its height at 720p.
    low, high = mobject.slot_corners()
    return float(high[1] - low[1]) * 720 / float(config.frame_height)


CASES = [
    ("SingleTokenLookup", {}, 24.0),
    ("SequenceLookup", {}, 24.0),
    ("SequenceLookup", GPT2, 18.0),
    ("SequenceLookup", {"ids": "7,0,7,63", "vocab": 64, "dim": 5, "init": "normal"}, 18.0),
    ("SequenceLookup", {"ids": ",".join(str(i) for i in range(12)), "vocab": 40, "dim": 6}, 18.0),
    ("SequenceLookup", None, 18.0),
    ("SingleTokenLookup", {"ids": "4821", "vocab": 50257, "dim": 768}, 18.0),
]
IDS = ["single", "sequence", "gpt2", "v64", "twelve", "minilm", "single-gpt2"]


def test_narrow_windows_keep_two_columns_of_a_real_table() -> None:
    assert choose_window(50257, 768, [4821], narrow=True).cols == (0, 767)
    assert choose_window(6, 3, [3], narrow=True).cols == (0, 1, 2)
    window = choose_window(30522, 384, [101, 2000], narrow=True)
    assert [gap.label for gap in window.col_gaps] == ["columns 1\u2013382 hidden"]


def test_the_type_scale_ranks_data_labels_legend_above_the_floor() -> None:
    for px in (12.0, 15.0, 18.0, 24.0, 30.0):
        scale = TypeScale.from_data(font_for_px(px))
        assert scale.data >= scale.label >= scale.legend
        assert px_for_font(scale.legend) >= 12.0 - 1e-6
        assert px_for_font(scale.data) == pytest.approx(px)


@pytest.mark.parametrize(("scene", "options", "floor"), CASES, ids=IDS)
def test_table_numbers_keep_their_floor(
    scene: str, options: dict[str, Any] | None, floor: float
) -> None:
    stage = _stage(scene, options)
    numbers = list(stage.matrix.grid.get_entries())
    assert min(_digit_px(n) for n in numbers) >= floor - 0.05


@pytest.mark.parametrize(("scene", "options", "floor"), CASES, ids=IDS)
def test_parts_stay_in_the_frame_and_apart(
    scene: str, options: dict[str, Any] | None, floor: float
) -> None:
    stage = _stage(scene, options)
    parts: list[tuple[str, VMobject]] = [
        ("title", stage.title),
        ("matrix", stage.matrix.grid),
        ("heading", stage.matrix.heading),
        ("output", stage.output.grid),
        ("output heading", stage.output.heading),
        ("chips", stage.chips.heading),
        *[(f"chip {n}", chip) for n, chip in enumerate(stage.chips.chips)],
        ("pieces", stage.chips.pieces),
        ("positions", stage.output.numbers),
    ]
    if stage.matrix.legend is not None:
        parts.append(("legend", stage.matrix.legend))
    if stage.printed is not None:
        parts += [("code", stage.printed.code), ("print", stage.printed.printed)]
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    boxes = []
    for name, mobject in parts:
        if not len(mobject.get_all_points()):
            continue
        low, high = (
            mobject.get_corner(np.array([-1, -1, 0])),
            mobject.get_corner(np.array([1, 1, 0])),
        )
        assert low[0] > -half_w, name
        assert high[0] < half_w, name
        assert low[1] > -half_h + 0.9, name  # above the caption band
        assert high[1] < half_h, name
        boxes.append((name, low, high))
    for i, (a, a_low, a_high) in enumerate(boxes):
        for b, b_low, b_high in boxes[i + 1 :]:
            apart = (
                a_high[0] <= b_low[0] + 1e-6
                or b_high[0] <= a_low[0] + 1e-6
                or a_high[1] <= b_low[1] + 1e-6
                or b_high[1] <= a_low[1] + 1e-6
            )
            assert apart, f"{a} overlaps {b}"


@pytest.mark.parametrize("options", [{}, GPT2], ids=["toy", "gpt2"])
def test_the_tables_take_most_of_the_frame(options: dict[str, Any]) -> None:
    # The issue measured tables covering 4-25 % of the frame; the solver fills it.
    stage = _stage("SequenceLookup", options)
    # Each block with its row and column numbers (and the matrix's hidden-range labels).
    area = sum(grid.width * grid.height for grid in (stage.matrix.grid, stage.output.grid))
    assert area / (config.frame_width * config.frame_height) >= 0.3
    # Across: from the row numbers to the chips' places as tags, most of the frame's width.
    tag_right = stage.chips.homes[0][0] + stage.chips.chips[0].width / 2
    span = tag_right - stage.matrix.grid.get_left()[0]
    assert span >= 0.85 * config.frame_width


def _sweep(points: list[np.ndarray], width: float, height: float) -> list[np.ndarray]:
    """Rectangles (x0, y0, x1, y1) a box sweeps along straight legs (an independent oracle)."""
    return [
        np.array(
            [
                min(a[0], b[0]) - width / 2,
                min(a[1], b[1]) - height / 2,
                max(a[0], b[0]) + width / 2,
                max(a[1], b[1]) + height / 2,
            ]
        )
        for a, b in itertools.pairwise(points)
    ]


@pytest.mark.parametrize(("scene", "options", "floor"), CASES, ids=IDS)
def test_no_strip_path_crosses_a_filled_output_row(
    scene: str, options: dict[str, Any] | None, floor: float
) -> None:
    stage = _stage(scene, options)
    plan, grid, out = stage.plan, stage.matrix.grid, stage.output.grid
    ids = [int(chip.number.cell.value) for chip in stage.chips.chips]
    assert sorted(plan.order) == list(range(len(ids)))
    assert list(plan.order[:2]) == list(range(min(2, len(ids))))
    # Where the solver put the block (it may rest lower, and glide up here when a path needs it).
    lift = stage.motion.lift
    assert out.body_top() + lift == pytest.approx(plan.output_top)
    # In the corridor the matrix and the block rest together and glide apart to their
    # solved places while strips travel (no slides beside).
    apart_e, apart_out = -stage.motion.matrix_slide, stage.motion.slide
    filled: list[int] = []
    heading_bottom = stage.output.heading.get_bottom()[1] + lift
    for target in plan.order:
        left, bottom, right, top = grid.row_box(ids[target], buff=0.0)
        left, right = left + apart_e, right + apart_e
        start = np.array([(left + right) / 2, (bottom + top) / 2, 0.0])
        path = [start, *plan.strip_path(start[1], out.row_y(target) + lift)]
        # It lands on its output row.
        assert path[-1][1] == pytest.approx(out.row_y(target) + lift)
        for x0, y0, x1, y1 in _sweep(path, right - left - 1e-3, top - bottom - 1e-3):
            assert y1 <= heading_bottom + 1e-6, "a strip rises into the headings"
            for row in filled:
                o_left, o_bottom, o_right, o_top = out.row_box(row, buff=0.0)
                o_bottom, o_top = o_bottom + lift, o_top + lift
                o_left, o_right = o_left + apart_out, o_right + apart_out
                crosses = x0 < o_right and o_left < x1 and y0 < o_top and o_bottom < y1
                assert not crosses, f"row {target}'s strip crosses filled row {row}"
        filled.append(target)


def test_a_single_row_lands_level_with_its_source() -> None:
    stage = _stage("SingleTokenLookup", {})
    assert stage.output.grid.row_y(0) == pytest.approx(stage.matrix.grid.row_y(3))


@pytest.mark.parametrize("options", [{}, None], ids=["toy", "minilm"])
def test_chips_wait_over_e_and_land_beside_the_rows_they_fill(
    options: dict[str, Any] | None,
) -> None:
    # Issue 18: waiting beside its output row, a chip walked to E through that empty row.
    stage = _stage("SequenceLookup", options)
    lane, chips = stage.plan.lane, stage.chips.chips
    assert lane is not None
    heading_top = stage.matrix.heading.get_top()[1]
    xs = [chip.get_x() for chip in chips]
    assert xs == sorted(xs), "the sentence's order, left to right"
    body_right = stage.output.grid.body_right()
    for row, chip in enumerate(chips):
        assert chip.get_y() == pytest.approx(lane.chip_y)
        # Over E's heading, a travel band a chip tall between them.
        assert chip.get_bottom()[1] - heading_top >= chip.height
        assert lane.travel_y - chip.height / 2 >= heading_top
        # Its place as the row's tag: beside the row, right of the block.
        home = stage.chips.homes[row]
        assert home[1] == pytest.approx(stage.output.grid.row_y(row))
        assert home[0] - chip.width / 2 > body_right
        assert chip.height < stage.plan.sizes.row_height


def test_the_print_sits_beside_the_matrix_by_its_row_inside_the_frame() -> None:
    # One row leaves the column right of the matrix empty but for the row: the
    # call and its print go there (the print's grad_fn on a line of its own).
    stage = _stage("SingleTokenLookup", {})
    assert stage.printed is not None
    assert stage.plan.mode == "stack"
    assert stage.printed.code.get_left()[0] > stage.matrix.grid.body_right()
    assert stage.printed.printed.get_right()[0] <= config.frame_width / 2
    suffix = stage.printed.printed.last_text_piece()
    assert suffix.text.startswith("grad_fn=")
    assert suffix.get_top()[1] < stage.printed.numbers.get_bottom()[1]
    assert _digit_px(stage.printed.code) >= 12.0


# A hidden range's label keeps this much clear space (pixels at 720p) from every
# other text: 1-2 px from a row number reads as one text (the reviewer's MiniLM sheet).
GAP_LABEL_CLEARANCE_PX = 3.0
REVIEW_SENTENCE = "The quick brown fox jumps over the lazy dog near"


def _ink_box(mobject: Any) -> np.ndarray:
    return np.array(
        [mobject.get_corner(np.array([-1, -1, 0]))[:2], mobject.get_corner(np.array([1, 1, 0]))[:2]]
    )


@pytest.mark.parametrize(
    ("scene", "options"),
    [(scene, options) for scene, options, _ in CASES] + [("SequenceLookup", "review")],
    ids=[*IDS, "minilm-review"],
)
def test_gap_labels_keep_clear_of_row_numbers_and_other_texts(
    scene: str, options: dict[str, Any] | str | None
) -> None:
    if options == "review":
        options = {**minilm_options(), "text": REVIEW_SENTENCE}
    assert not isinstance(options, str)
    stage = _stage(scene, options)
    grid = stage.matrix.grid
    gaps = list(grid.gap_labels.values())
    others = [
        *grid.row_labels.values(),
        *grid.col_labels.values(),
        *grid.col_gap_labels.values(),
        *grid.get_entries(),
        stage.matrix.heading,
        stage.title,
    ]
    if stage.matrix.legend is not None:
        others.append(stage.matrix.legend)
    clear = GAP_LABEL_CLEARANCE_PX * float(config.frame_height) / 720
    for n, label in enumerate(gaps):
        (left, bottom), (right, top) = _ink_box(label)
        for other in [*gaps[n + 1 :], *others]:
            (o_left, o_bottom), (o_right, o_top) = _ink_box(other)
            apart = (
                right + clear <= o_left
                or o_right + clear <= left
                or top + clear <= o_bottom
                or o_top + clear <= bottom
            )
            assert apart, f"{label.text!r} is within {GAP_LABEL_CLEARANCE_PX} px of {other}"


# The same label and a row number beside it: closer than this, a lecture hall read
# MiniLM's "rows 102-1009 not shown" over "1010" (6 px) as one column of text.
ROW_NUMBER_CLEARANCE_PX = 8.0
# The sentence of issue 18's review of SequenceLookup with MiniLM.
MOVIE_SENTENCE = "The movie was not bad at all, and I would watch it again."


@pytest.mark.parametrize(
    "options",
    [
        {"text": MOVIE_SENTENCE},
        {"text": REVIEW_SENTENCE},
        {"text": MINILM_SENTENCE},
        GPT2,
    ],
    ids=["minilm-movie", "minilm-review", "minilm", "gpt2"],
)
def test_a_hidden_range_label_stands_clear_of_every_row_number(options: dict[str, Any]) -> None:
    if "text" in options:
        options = {**minilm_options(), **options}
    stage = _stage("SequenceLookup", options)
    grid = stage.matrix.grid
    assert grid.gap_labels, "the case has hidden ranges"
    scale = 720 / float(config.frame_height)
    nearest = min(
        max(
            o_left - right, left - o_right, o_bottom - top, bottom - o_top
        )  # the boxes' gap along the axis they are apart on
        * scale
        for label in grid.gap_labels.values()
        for (left, bottom), (right, top) in [_ink_box(label)]
        for number in grid.row_labels.values()
        for (o_left, o_bottom), (o_right, o_top) in [_ink_box(number)]
    )
    assert nearest >= ROW_NUMBER_CLEARANCE_PX - 0.05, nearest
    assert px_for_font(stage.plan.scale.data) >= 18.0


def test_a_long_sentence_fills_in_without_the_block_gliding() -> None:
    # The reviewer's MiniLM sheet: the block glided from its rest up under the title
    # for the rest of the IDs. At the height it rests, every strip's path must already
    # be clear (the matrix and the block only glide apart, to open the corridor).
    stage = _stage("SequenceLookup", {**minilm_options(), "text": REVIEW_SENTENCE})
    plan, grid, out = stage.plan, stage.matrix.grid, stage.output.grid
    apart_e, apart_out = -stage.motion.matrix_slide, stage.motion.slide
    assert apart_out - apart_e > 0, "the corridor closes between lookups"
    ids = [int(chip.number.cell.value) for chip in stage.chips.chips]
    filled: list[int] = []
    for target in plan.order:
        left, bottom, right, top = grid.row_box(ids[target], buff=0.0)
        left, right = left + apart_e, right + apart_e
        start = np.array([(left + right) / 2, (bottom + top) / 2, 0.0])
        path = [start, *plan.strip_path(start[1], out.row_y(target))]
        assert path[-1][1] == pytest.approx(out.row_y(target))
        assert path[-1][0] == pytest.approx(
            out.row_box(target, buff=0.0)[0] + apart_out + (right - left) / 2
        )
        for x0, y0, x1, y1 in _sweep(path, right - left - 1e-3, top - bottom - 1e-3):
            for row in filled:
                o_left, o_bottom, o_right, o_top = out.row_box(row, buff=0.0)
                o_left, o_right = o_left + apart_out, o_right + apart_out
                crosses = x0 < o_right and o_left < x1 and y0 < o_top and o_bottom < y1
                assert not crosses, f"row {target}'s strip crosses filled row {row} at rest"
        filled.append(target)


def test_the_corridor_is_only_as_wide_as_the_strip_needs() -> None:
    # Issue 18: the reviewer's sentence takes the corridor, whose empty column between
    # E and the block took 18.8 % of the frame at every beat end: it was a strip and a
    # chip wide. A strip needs its own width and a gap either side (its chip parks
    # inside it), and only while it travels.
    from embedviz.render.design import SPACE

    stage = _stage("SequenceLookup", {**minilm_options(), "text": REVIEW_SENTENCE})
    assert stage.plan.mode == "corridor"
    grid, out, motion = stage.matrix.grid, stage.output.grid, stage.motion
    first = int(stage.chips.chips[0].number.cell.value)
    left, _, right, _ = grid.row_box(first, buff=0.0)
    strip = right - left
    widest_chip = max(chip.width for chip in stage.chips.chips)
    assert widest_chip < strip
    # Between lookups the two rest one parked chip's column apart ...
    apart = out.row_box(0, buff=0.0)[0] - right
    assert apart == pytest.approx(widest_chip + 2 * SPACE)
    # ... and glide apart to open the corridor while strips travel.
    corridor = apart + motion.slide + motion.matrix_slide
    assert corridor == pytest.approx(strip + 2 * SPACE)


def test_late_marks_take_room_only_where_the_blocks_rest() -> None:
    # Issue 18: the reviewer's sentence, width-bound in the corridor, had 16.4 px
    # numbers: its one mark (now ``out[7] = out[1]``, the second "the") took a column that only
    # the last lookup beat fills, when the blocks rest together again.
    from dataclasses import replace

    from embedviz.render.design import MARGIN, MIN_DATA_PX
    from embedviz.render.solver import solve_lookup

    stage = _stage("SequenceLookup", {**minilm_options(), "text": REVIEW_SENTENCE})
    plan, motion = stage.plan, stage.motion
    assert plan.mode == "corridor"
    assert px_for_font(plan.scale.data) >= MIN_DATA_PX
    # Apart, the marks' column would reach past the safe area; at rest it is inside.
    # (Resting that far left would leave the right side empty until the marks come: the
    # blocks rest further right and glide left by the rest just before the marks show.)
    assert 0 < plan.marks_overflow <= motion.slide + motion.late_shift + 1e-9
    # Without the late marks the same frame has smaller numbers.
    early = solve_lookup(replace(lookup_spec(stage.board), late_marks=False))
    assert early.scale.data < plan.scale.data
    # The mark is built where the block rests: inside the frame's safe area.
    motion.beat_lookup_many(next(b for b in stage.board.beats if b.action == "lookup_many"))
    assert motion.marks
    right = float(config.frame_width) / 2 - MARGIN
    assert all(mark.get_right()[0] <= right + 1e-6 for mark in motion.marks)


def test_many_hidden_ranges_take_a_narrow_margin() -> None:
    # Issue 18: the MiniLM sentence's ten hidden ranges, one line each, stood in a column
    # 19.5 % of the frame's width (and the hidden columns' note beside them): E's table
    # and the blocks beside it were left 18.3 px numbers and empty bands above and below.
    # On two lines, with the note over the column numbers, each label is still the whole
    # exact label, the margin narrower, and the numbers no smaller than with one line.
    # The reviewer's sentence (eleven ranges) keeps the corridor, and so these labels;
    # MiniLM's own sentence stood still beside E with one-line labels until its marks
    # named both rows (a corridor again since), see test_still_block.py.
    stage = _stage("SequenceLookup", {**minilm_options(), "text": REVIEW_SENTENCE})
    grid, window = stage.matrix.grid, stage.board.beats[0].window
    labels = [grid.gap_labels[n] for n in range(len(window.row_gaps))]
    assert [label.text for label in labels] == [gap.label for gap in window.row_gaps]
    left = min(label.get_left()[0] for label in labels)
    right = max(label.get_right()[0] for label in labels)
    assert (right - left) / config.frame_width <= 1 / 8
    # The note stands over the table's columns, not in the margin.
    for note in grid.col_gap_labels.values():
        assert note.get_left()[0] >= grid.body_left() - 1e-6
        assert note.get_bottom()[1] > max(n.get_top()[1] for n in grid.col_labels.values())
    from embedviz.render.solver import _solve, solve_lookup

    assert stage.plan.sizes.gaps_wrapped
    spec = lookup_spec(stage.board)
    assert solve_lookup(spec) == stage.plan
    assert stage.plan.scale.data >= _solve(spec).scale.data  # one line each
    assert px_for_font(stage.plan.scale.data) >= 18.0


@pytest.mark.parametrize(
    ("scene", "options"),
    [
        ("SequenceLookup", {"ids": "7,0,7,63", "vocab": 64, "dim": 5}),
        ("SequenceLookup", None),
        ("LargeVocabLookup", {"ids": "40,7,59,40,2", "vocab": 60, "dim": 5}),
        ("BatchLookup", {}),
    ],
    ids=["seq-small", "seq-minilm", "large-vocab", "batch"],
)
def test_every_repeat_mark_names_both_rows(scene: str, options: dict[str, Any] | None) -> None:
    # Issue 18: beside a row's position index, ``= out[1]`` read as "5 = out[1]" (the
    # number 5 equals a row). Every mark names the marked row and the row it equals.
    board = shared_board(scene, minilm_options() if options is None else options)
    marks = [c for c in board.beats[-1].numbers if c.kind == "equal_to"]
    assert marks
    ids = {c.index: int(c.value) for b in board.beats for c in b.numbers if c.kind == "token_id"}
    order = sorted(ids)
    for mark in marks:
        here = ",".join(str(i) for i in mark.index)
        first = next(p for p in order if ids[p] == ids[mark.index])
        assert first < mark.index
        where = ",".join(str(i) for i in first)
        assert mark.text == f"out[{here}] = out[{where}]"


def test_late_marks_stand_in_the_emptied_corridor_the_lookups_opened() -> None:
    # Marks that name both rows (``out[5] = out[1]``) need a wide column, empty until the
    # last lookup. They stood right of the row numbers, past the frame's edge until the
    # blocks glided left together just before they showed: a 720p review saw MiniLM's
    # output block slide 14 % of the frame's width at 62 s (one thread of motion, issue
    # 18). With the chips waiting over E the corridor is empty once the last strip has
    # landed: the marks stand there, each a gap left of the row it names, and the
    # corridor stays open after the last lookup (tests/test_lane_close.py plays it).
    from embedviz.render.boxes import content_band, mobject_boxes
    from embedviz.render.solver_across import MARK_GAP
    from embedviz.render.space import EMPTY_SHARE, largest_empty_rectangle

    stage = _stage("SequenceLookup", None)
    plan, motion = stage.plan, stage.motion
    assert plan.mode == "corridor"
    assert plan.lane is not None
    assert plan.marks_inside
    assert plan.marks_overflow == 0
    assert motion.late_shift == 0
    # At rest, before the lookups, no empty area over an eighth of the frame (the row
    # numbers come with the reveal): the blocks still rest together until then.
    shown = [m for m in motion.output_side() if m is not stage.output.numbers]
    boxes = mobject_boxes([*shown, *motion.matrix_side(), stage.matrix.legend])
    frame = float(config.frame_width) * float(config.frame_height)
    assert largest_empty_rectangle(boxes, content_band(stage.title)).area <= EMPTY_SHARE * frame
    lookups = [b.name for b in stage.board.beats if b.action in ("lookup", "lookup_many")]
    assert set(lookups) <= motion.stays_open
    motion.beat_lookup_many(next(b for b in stage.board.beats if b.action == "lookup_many"))
    texts = [m.text for m in motion.marks]
    assert texts == ["out[5] = out[1]", "out[8] = out[1]", "out[9] = out[6]"]
    # In the corridor as the lookups leave it open: clear of E's numbers, a gap short of
    # the block, each level with the row it names.
    for mark, row in zip(motion.marks, (5, 8, 9), strict=True):
        low, high = mark.slot_corners()
        assert low[0] >= plan.column_left + MARK_GAP - 1e-6
        assert high[0] == pytest.approx(plan.output_left - MARK_GAP)
        assert (low[1] + high[1]) / 2 == pytest.approx(stage.output.grid.row_y(row))


def test_marks_are_as_large_as_the_row_numbers_unless_smaller_ones_give_larger_numbers() -> None:
    # Marks that name both rows take a wide column. At the row numbers' size where that
    # costs the table nothing; at the legend's where it does. MiniLM-like IDs took the
    # legend's size until the hidden ranges' labels became shorter ("rows 1997-4936
    # hidden"): their margin narrowed, and the marks now cost the numbers nothing either.
    # Both sizes are solved here, and the role taken must be the one with the larger
    # numbers (the row numbers' size on a tie).
    from dataclasses import replace

    from embedviz.render.design import MIN_DATA_PX
    from embedviz.render.solver import solve_lookup

    ids = "101,1996,4937,2938,2006,1996,13523,2138,1996,13523,2001,4010"
    for options in (None, {"ids": ids, "vocab": 30522, "dim": 384}):
        stage = _stage("SequenceLookup", options)
        spec = lookup_spec(stage.board)
        as_label = solve_lookup(replace(spec, mark_role="label")).scale.data
        as_legend = solve_lookup(replace(spec, mark_role="legend")).scale.data
        role = "legend" if as_legend > as_label * (1 + 1e-6) else "label"
        assert spec.mark_role == role
        assert px_for_font(solve_lookup(spec).scale.data) >= MIN_DATA_PX
        scale = stage.plan.scale
        assert stage.output.mark_font == (scale.label if role == "label" else scale.legend)
