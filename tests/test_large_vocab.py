"""LargeVocabLookup: scrolling windows, GPT-2-sized defaults, cost independent of V.

The shared tests check every number on screen after every beat; these check
what is particular to this scene: the windows it scrolls through, its
GPT-2-sized default table and its values against PyTorch, that building it
never touches the whole table, and its one-line errors.
"""

from __future__ import annotations

import re
import tracemalloc
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import RecordingHost
from hypothesis import given, settings
from hypothesis import strategies as st
from large_vocab_watch import Frame, play_for

from embedviz.cli import main
from embedviz.core.errors import EmbedvizError
from embedviz.inputs import prepared_storyboard
from embedviz.story.model import Storyboard, Window
from embedviz.story.scenes.large_vocab import (
    SPEC,
    byte_size,
    scroll_window,
    start_window,
)

SCENE = "LargeVocabLookup"
GPT2 = (50257, 768)


def _build(tmp_path: Path, overrides: dict[str, Any] | None = None) -> Storyboard:
    return prepared_storyboard(SCENE, overrides, cwd=tmp_path, environ={})


def _label(first: int, last: int, noun: str) -> str:
    """The gap label, spelled out independently of embedviz."""
    if first == last:
        return f"{noun} {first} hidden"
    return f"{noun}s {first}\u2013{last} hidden"


def _check_partition(shown: tuple[int, ...], gaps: Any, size: int, noun: str) -> None:
    """Shown indices and gaps cover 0..size-1 once, in order, with exact labels."""
    assert list(shown) == sorted(set(shown))
    pieces = [(index, index) for index in shown]
    for gap in gaps:
        assert gap.label == _label(gap.first, gap.last, noun)
        pieces.append((gap.first, gap.last))
    expected_start = 0
    for first, last in sorted(pieces):
        assert first == expected_start
        assert last >= first
        expected_start = last + 1
    assert expected_start == size
    # A gap always sits between drawn indices (or at an end), never next to another gap.
    for gap in gaps:
        assert gap.first == 0 or gap.first - 1 in shown
        assert gap.last == size - 1 or gap.last + 1 in shown


def _check_window(window: Window, vocab: int, dim: int) -> None:
    _check_partition(window.rows, window.row_gaps, vocab, "row")
    _check_partition(window.cols, window.col_gaps, dim, "column")
    # The first column and the last (a lecture hall's frame review: with a second head
    # column the numbers stopped at 18 px at 720p; without it they reach 22 px).
    expected_cols = tuple(range(dim)) if dim <= 3 else (0, dim - 1)
    assert window.cols == expected_cols
    if vocab > 8:
        # A scroll swaps rows; the grid always has eight slots.
        assert len(window.rows) + len(window.row_gaps) == 8
        assert {0, 1, vocab - 1} <= set(window.rows)
    else:
        assert window.rows == tuple(range(vocab))


# -- windows -------------------------------------------------------------------------


@settings(deadline=None)
@given(st.integers(1, 10**6), st.integers(1, 5000))
def test_start_window_shows_the_top_rows_and_the_last(vocab: int, dim: int) -> None:
    window = start_window(vocab, dim)
    _check_window(window, vocab, dim)
    if vocab > 8:
        assert window.rows == (0, 1, 2, 3, 4, 5, vocab - 1)


@settings(max_examples=300, deadline=None)
@given(st.data(), st.integers(1, 10**6), st.integers(1, 5000))
def test_scroll_window_shows_the_row_and_keeps_eight_slots(
    data: st.DataObject, vocab: int, dim: int
) -> None:
    row = data.draw(st.integers(0, vocab - 1))
    before = data.draw(st.integers(0, vocab - 1))
    current = scroll_window(vocab, dim, before, start_window(vocab, dim))
    window = scroll_window(vocab, dim, row, current)
    assert row in window.rows
    _check_window(window, vocab, dim)
    if row in current.rows:
        assert window == current  # no scroll when the row is already on screen
    elif vocab > 8 and 6 <= row <= vocab - 5:
        assert set(window.rows) == {0, 1, row - 1, row, row + 1, vocab - 1}


def test_scroll_window_gpt2_labels() -> None:
    window = scroll_window(*GPT2, 4821, start_window(*GPT2))
    assert window.rows == (0, 1, 4820, 4821, 4822, 50256)
    assert [gap.label for gap in window.row_gaps] == [
        "rows 2\u20134819 hidden",
        "rows 4823\u201350255 hidden",
    ]
    assert [gap.label for gap in window.col_gaps] == ["columns 1\u2013766 hidden"]
    end = scroll_window(*GPT2, 50253, window)
    assert end.rows == (0, 1, 50252, 50253, 50254, 50255, 50256)


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (0, "0 bytes"),
        (1023, "1023 bytes"),
        (1024, "1.0 KiB"),
        (1200, "1.2 KiB"),
        (50257 * 768 * 4, "147 MiB"),
        (50257 * 1600 * 2, "153 MiB"),
        (3 * 2**30, "3.0 GiB"),
    ],
)
def test_byte_size_examples(count: int, text: str) -> None:
    assert byte_size(count) == text


@given(st.integers(0, 2**50))
def test_byte_size_is_close_to_the_count(count: int) -> None:
    number, unit = byte_size(count).split()
    scale = {"bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}[unit]
    assert abs(float(number) * scale - count) <= 0.05 * max(count, 1)


# -- the storyboard ------------------------------------------------------------------


def test_default_is_gpt2_sized_and_scrolls_to_4821(tmp_path: Path) -> None:
    board = _build(tmp_path)
    assert (board.vocab_size, board.dim) == GPT2
    assert list(board.ids) == SPEC.default_ids
    beats = {beat.name: beat for beat in board.beats}
    assert beats["intro"].window.rows == (0, 1, 2, 3, 4, 5, 50256)
    assert "rows 6\u201350255 hidden" in beats["intro"].labels.values()
    assert "columns 1\u2013766 hidden" in beats["intro"].labels.values()
    assert beats["scroll"].window.rows == (0, 1, 4820, 4821, 4822, 50256)
    assert "rows 2\u20134819 hidden" in beats["scroll"].labels.values()
    assert "rows 6\u201350255 hidden" not in beats["scroll"].labels.values()
    assert beats["lookup"].highlight is not None
    assert beats["lookup"].highlight.row == 4821
    assert "walks to row 4821" in beats["lookup"].narration
    assert "copies the whole row" in beats["lookup"].narration
    # Ten IDs become a 10 x 768 block.
    final = board.beats[-1]
    assert final.output is not None
    assert final.output.shape == (10, 768)
    assert [p[0] for p in final.output.filled] == list(range(10))
    sizes = sorted((c.index, c.text) for c in final.numbers if c.kind == "output_size")
    assert sizes == [((0,), "10"), ((1,), "768")]


def test_every_beat_draws_exactly_its_window(tmp_path: Path) -> None:
    board = _build(tmp_path)
    for beat in board.beats:
        _check_window(beat.window, board.vocab_size, board.dim)
        weights = {c.index for c in beat.numbers if c.kind == "weight"}
        assert weights == {(r, c) for r in beat.window.rows for c in beat.window.cols}
        rows = {c.index[0] for c in beat.numbers if c.kind == "row_label"}
        assert rows == set(beat.window.rows)
        gaps = [gap.label for gap in (*beat.window.row_gaps, *beat.window.col_gaps)]
        assert sorted(t for t in beat.labels.values() if t.endswith(" hidden")) == sorted(gaps)
        if beat.highlight is not None:
            assert beat.highlight.row in beat.window.rows, beat.name
        output = {c.index for c in beat.numbers if c.kind == "output"}
        filled = beat.output.filled if beat.output is not None else ()
        assert output == {(*p, c) for p in filled for c in beat.window.cols}


def test_cost_does_not_grow_with_the_vocabulary(tmp_path: Path) -> None:
    ids = "40,20,30,7,50"
    small = _build(tmp_path, {"ids": ids, "vocab": 60})
    large = _build(tmp_path, {"ids": ids})
    assert [len(b.numbers) for b in small.beats] == [len(b.numbers) for b in large.beats]
    assert [b.name for b in small.beats] == [b.name for b in large.beats]
    assert large.duration == pytest.approx(small.duration, rel=0.1)


def test_building_computes_only_the_rows_it_shows(tmp_path: Path, computed_rows: Any) -> None:
    _build(tmp_path)  # imports and caches out of the way
    computed_rows.row_calls.clear()
    tracemalloc.start()
    try:
        board = _build(tmp_path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The whole 50257 x 768 float32 table would be 147 MiB.
    assert peak < 20 * 2**20
    assert computed_rows.full_tables == []
    shown = {row for beat in board.beats for row in beat.window.rows}
    shown |= {int(i) for i in np.asarray(board.ids).reshape(-1)}
    assert computed_rows.distinct <= shown
    # Each shown row is computed a bounded number of times, never V rows.
    assert 0 < computed_rows.rows <= 4 * len(shown) < 200


def test_text_pieces_and_sizes_in_narration(tmp_path: Path) -> None:
    board = _build(tmp_path)
    size = next(beat for beat in board.beats if beat.name == "size")
    assert "50,257 \u00d7 768 = 38,597,376 numbers, about 147 MiB as float32" in size.narration
    count = next(c for c in size.numbers if c.kind == "param_count")
    assert (count.text, count.value) == ("38,597,376", 38597376.0)
    repeat = next(beat for beat in board.beats if beat.name == "rest")
    assert "output rows 0 and 8 are identical" in repeat.narration


def test_featured_row_already_on_screen_needs_no_scroll(tmp_path: Path) -> None:
    board = _build(tmp_path, {"ids": "3,4,99", "vocab": 100, "dim": 8})
    intro, _, scroll, *_ = board.beats
    assert scroll.window == intro.window
    assert "already on screen" in scroll.narration
    # The second ID is the last one looked up alone (the rest go together).
    second = next(beat for beat in board.beats if beat.name == "lookup-1")
    assert second.window == intro.window
    assert "already on screen" in second.narration
    assert not [beat for beat in board.beats if beat.name == "lookup-2"]


def test_narration_fits_two_caption_lines(tmp_path: Path) -> None:
    for overrides in ({}, {"ids": "4821,464,3290,318,257,31373,11,13,50000,290,50254,50256"}):
        for beat in _build(tmp_path, overrides).beats:
            assert len(beat.narration.split()) <= 26, beat.name
            assert len(beat.narration) <= 150, beat.name


def test_weights_file_sets_the_sizes(tmp_path: Path) -> None:
    weight = np.arange(30 * 5, dtype=np.float16).reshape(30, 5) / 100
    path = tmp_path / "table.npy"
    np.save(path, weight)
    board = _build(tmp_path, {"weights": str(path), "ids": "29,3,12"})
    assert (board.vocab_size, board.dim) == (30, 5)
    size = next(beat for beat in board.beats if beat.name == "size")
    assert "about 300 bytes as float16" in size.narration
    shown = {c.index: c.value for beat in board.beats for c in beat.numbers if c.kind == "weight"}
    for (row, col), value in shown.items():
        assert value == float(np.float32(weight[row, col]))


# -- the moving picture --------------------------------------------------------------

# Read in LargeVocabLookup's shared play (tests/large_vocab_watch.py, tests/carry_plays.py).


def _meets(a: np.ndarray, b: np.ndarray, tolerance: float = 0.01) -> bool:
    width = min(a[1][0], b[1][0]) - max(a[0][0], b[0][0])
    height = min(a[1][1], b[1][1]) - max(a[0][1], b[0][1])
    return width > tolerance and height > tolerance


@pytest.fixture(scope="module")
def watched(carry_play_cache: Any) -> list[Frame]:
    """The default scene's frames, every tenth of each step and at beat ends."""
    return carry_play_cache(SCENE, {}).large_vocab.frames


@pytest.mark.slow
def test_an_ids_outline_stands_only_round_a_drawn_row(watched: list[Frame]) -> None:
    """A frame review (the rest beat, mid-motion): amber boxes stood round the gap labels
    ``rows 2–462 hidden`` and ``rows 466–50255 hidden`` for the IDs whose rows
    the window hides, one touching the box of row 50256. An ID's outline stands round a
    row that is drawn (level with its row number), never round a gap label, and no two
    outlines meet; nor does a hidden row's strip frame a gap label as it leaves its band."""
    outlined = 0
    for frame in watched:
        where = f"{frame.beat} at {frame.alpha}"
        for lift in frame.lifts:
            for gap in frame.gap_boxes:
                assert not _meets(lift, gap), f"{where}: a strip's frame round a gap label"
        if not frame.outlines:
            continue
        ys = [y for y, _ in frame.rows]
        # Half a row and an outline's reach (rows 0 and 1 are drawn in every window).
        half = min(a - b for a, b in pairwise(ys)) / 2 + 0.1
        for outline in frame.outlines:
            for gap in frame.gap_boxes:
                assert not _meets(outline, gap), f"{where}: an ID's outline round a gap label"
            # Within a drawn row of E (level with its row number), not round a band; an
            # outline being drawn is part of one.
            bottom, top = outline[0][1], outline[1][1]
            assert any(y - half <= bottom and top <= y + half for y in ys), where
            outlined += 1
        for i, a in enumerate(frame.outlines):
            for b in frame.outlines[i + 1 :]:
                assert not _meets(a, b, 0.0), f"{where}: two outlines meet"
    assert outlined  # the shown rows' outlines are still drawn


def _check_gap_labels(frames: list[Frame]) -> None:
    for frame in frames:
        where = f"{frame.beat} at {frame.alpha}"
        numbers = [row for _, row in frame.rows]
        assert numbers == sorted(numbers), where  # rows read down in order
        for y, text in frame.gaps:
            above = [row for height, row in frame.rows if height > y]
            below = [row for height, row in frame.rows if height < y]
            first = max(above) + 1 if above else 0
            last = min(below) - 1 if below else GPT2[0] - 1
            assert text == _label(first, last, "row"), where
        # One label per hidden range: never an old and a new one at once.
        assert len({text for _, text in frame.gaps}) == len(frame.gaps), where


@pytest.mark.slow
def test_every_gap_label_names_the_rows_hidden_between_its_neighbours(
    watched: list[Frame],
) -> None:
    _check_gap_labels(watched)


@pytest.mark.slow
@pytest.mark.parametrize(
    "ids",
    [
        "4821,4823,4819",  # overlapping views: rows fade out, move, then fade in
        "50256,50000,2,1",  # to the last rows, then back to the top
    ],
)
def test_gap_labels_stay_exact_on_other_journeys(ids: str) -> None:
    _check_gap_labels(play_for({"ids": ids}, "frames"))


@pytest.mark.slow
def test_the_scroll_travels_and_the_thumb_goes_with_it(watched: list[Frame]) -> None:
    scroll = [f for f in watched if f.beat == "scroll"]
    end = scroll[-1]
    assert end.alpha == 1.0
    settled = dict((row, y) for y, row in end.rows)
    assert sorted(settled) == [0, 1, 4820, 4821, 4822, 50256]
    assert [text for _, text in end.gaps] == [_label(2, 4819, "row"), _label(4823, 50255, "row")]
    moving = [f for f in scroll if f.alpha < 1]
    # Mid-way, the rows of the new view come in where they settle, fading in together
    # (test_scroll_gaps: as one group, every skip labelled), never sliding past other rows:
    # a teacher's 720p review found rows sliding one by one read as unmarked skips.
    coming = [(y, row) for frame in moving for y, row in frame.rows if row in (4820, 4821, 4822)]
    assert coming
    assert all(abs(y - settled[row]) < 0.05 for y, row in coming)
    # The thumb moves down the bar step by step with the rows, to row 4821's place.
    thumbs = [frame.thumb for frame in moving] + [end.thumb]
    assert all(b <= a + 1e-9 for a, b in pairwise(thumbs))
    assert thumbs[0] > thumbs[len(thumbs) // 2] > thumbs[-1]


@pytest.mark.slow
def test_chips_and_copies_cross_nothing(watched: list[Frame]) -> None:
    for frame in watched:
        where = f"{frame.beat} at {frame.alpha}"
        for i, chip in enumerate(frame.chips):
            for other in frame.chips[i + 1 :]:
                assert not _meets(chip, other), where
            for name, box in frame.fixed:
                assert not _meets(chip, box), f"{where}: a chip crosses {name!r}"
        for strip in frame.strips:
            for name, box in frame.fixed:
                assert not _meets(strip, box), f"{where}: a copy crosses {name!r}"
            for number in frame.filled:
                inside = np.all(number[0] >= strip[0] - 1e-6) and np.all(number[1] <= strip[1])
                # Only the row it is landing in may lie under it, as it lands.
                assert inside or not _meets(strip, number), f"{where}: a copy crosses a row"


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides",
    [
        None,
        {"ids": "4821,4823,4819"},  # overlapping views: no one sheet, rows fade and move
        {"ids": "50256,50000,2,1"},  # to the last rows, then back to the top
        {"ids": "40,7,59,40,2", "vocab": 60, "dim": 5},
        # A row both views show beside rows that leave (5; 50252): no band to label them in.
        {"ids": "6,50254"},
        {"ids": "50254,50251"},
    ],
)
def test_mid_scroll_no_text_of_e_is_drawn_over_another(
    overrides: dict[str, Any] | None, carry_play_cache: Any
) -> None:
    """Issue 18 (lecture-hall frames): while the window scrolls, every number, row number and
    label of E that is drawn at all stands clear of every other: no ghost of one set of rows
    over another, no label over a row passing under it, no row's outline through them."""
    if overrides is None:  # the default scene's shared play, read at every fortieth
        found = carry_play_cache(SCENE, {}).large_vocab.overprints
    else:
        found = play_for(overrides, "overprints")
    assert found == []


def test_the_stage_is_composed_of_parts(tmp_path: Path) -> None:
    from embedviz.render.parts.grid import CellGrid
    from embedviz.render.parts.lookup import ChipColumn, OutputPart
    from embedviz.render.parts.scroll import ScrollingMatrix
    from embedviz.render.parts.vocab_motion import VocabMotion
    from embedviz.render.stages.large_vocab import LargeVocabStage
    from embedviz.render.stages.lookup import LookupStage
    from embedviz.render.theme import DARK

    board = _build(tmp_path)
    stage = LargeVocabStage(RecordingHost(), board, DARK)
    assert not isinstance(stage, LookupStage)
    assert [type(part) for part in stage.parts] == [
        ScrollingMatrix,
        OutputPart,
        ChipColumn,
        VocabMotion,
    ]
    assert isinstance(stage.matrix.grid, CellGrid)
    # One chip per ID, each waiting beside the output row it fills (and will tag).
    assert len(stage.chips.chips) == len(stage.output.positions) == len(SPEC.default_ids)
    # The rest of the sentence is the motion part's; the shape beat is the stage's own.
    rest = next(beat for beat in board.beats if beat.name == "rest")
    assert stage.motion.handler("lookup_many") is not None
    assert stage.animate(rest) is not None
    shape = next(beat for beat in board.beats if beat.action == "shape")
    assert getattr(type(stage), "beat_shape", None) is not None
    assert stage.animate(shape) is not None


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_legend_stands_in_the_title_band_and_the_note_in_the_corridor(
    tmp_path: Path, theme: str
) -> None:
    # Until session 40 the legend stood upright in the marks' column right of the tags, APART
    # from the row numbers and ``out[8] = out[0]`` (a 720p review read its values as part of
    # that column), at 22.7 px. The corridor as wide as a strip and its riding chip
    # (tests/test_large_vocab_clear_block.py) left that column no room: the numbers came
    # out at 17.7 px. The legend now stands in the title band, clear of the title, and the
    # note in the corridor once the lookups have left it, a MARK_GAP short of the block and
    # clear of E's scroll bar: 21.2 px.
    from embedviz.render.design import SPACE, px_for_font
    from embedviz.render.solver_across import MARK_GAP
    from embedviz.render.stages.large_vocab import LargeVocabStage
    from embedviz.render.theme import THEMES

    board = _build(tmp_path)
    stage = LargeVocabStage(RecordingHost(), board, THEMES[theme])
    legend, output, plan = stage.matrix.legend, stage.output, stage.plan
    assert legend is not None
    assert not plan.legend_left
    assert plan.legend_upright == 0
    assert legend.get_left()[0] - stage.title.get_right()[0] >= SPACE - 1e-6
    assert legend.get_bottom()[1] > stage.matrix.heading.get_top()[1]
    assert px_for_font(plan.scale.data) >= 21.0
    assert plan.marks_inside
    marks = [c.index for c in board.beats[-1].numbers if c.kind == "equal_to"]
    assert marks
    for position in marks:
        mark = output.mark(position)
        assert mark is not None
        assert mark.text == f"out[{position[0]}] = out[0]"
        assert abs(plan.output_left - MARK_GAP - mark.get_right()[0]) < 1e-6
        assert mark.get_left()[0] - plan.column_left >= MARK_GAP - 1e-6


def _ink_spans(mobject: Any) -> list[tuple[float, float]]:
    """The x ranges of a text's ink, its glyphs' overlapping outlines merged."""
    spans = sorted((float(p[:, 0].min()), float(p[:, 0].max())) for p in mobject.get_subpaths())
    merged = [spans[0]]
    for left, right in spans[1:]:
        if left <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], right))
        else:
            merged.append((left, right))
    return merged


@pytest.mark.parametrize(
    "overrides",
    [None, {"ids": "464,464"}, {"ids": "1,2,3,4,5,6,7,8,9,10,11,1"}],
    ids=["gpt2", "tight", "corridor"],
)
def test_an_equality_mark_stands_apart_from_its_row_number(
    tmp_path: Path, overrides: dict[str, Any] | None
) -> None:
    # A 720p frame review of the last frame: ``out[8] = out[0]`` started a SPACE (10.8 px)
    # after the row number 8, closer than the mark's own word spaces (about 21 px), so the
    # line read "8 out[8] = out[0]". The mark stands further from its row's number than
    # any two words inside it stand apart (at least 26 px), and inside the safe area.
    from embedviz.render.design import MARGIN
    from embedviz.render.stages.large_vocab import LargeVocabStage
    from embedviz.render.theme import DARK

    board = _build(tmp_path, overrides)
    stage = LargeVocabStage(RecordingHost(), board, DARK)
    output = stage.output
    px = 720 / 8.0
    marks = [c.index for c in board.beats[-1].numbers if c.kind == "equal_to"]
    assert marks
    for position in marks:
        mark = output.mark(position)
        assert mark is not None
        number = output.numbers[output.row_of(position)]
        # Level with its row's number, to its right; or, in the corridor (session 40), left
        # of the row's first number, which it must not run into either.
        assert abs(mark.get_center()[1] - number.get_center()[1]) * px < 2.0
        spans = _ink_spans(mark)
        gap = (spans[0][0] - _ink_spans(number)[-1][1]) * px
        if mark.get_right()[0] < stage.plan.output_left:
            # Placed at the solver's place; the block (and its numbers) may rest left of it.
            rests = stage.plan.output_left - output.grid.body_left()
            first = min(output.targets(position), key=lambda t: t.get_left()[0])
            gap = (_ink_spans(first)[0][0] + rests - spans[-1][1]) * px
        inside = max(b[0] - a[1] for a, b in pairwise(spans)) * px
        assert gap >= 26.0, (mark.text, gap)
        assert gap >= 1.2 * inside, (mark.text, gap, inside)
        assert (14.222 / 2 - MARGIN - mark.get_right()[0]) * px >= -0.05, mark.text


# -- parity with PyTorch -------------------------------------------------------------


def test_values_match_torch(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    board = _build(tmp_path)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(123)
        embedding = torch.nn.Embedding(*GPT2)
    ids = torch.tensor(board.ids)
    with torch.no_grad():
        output = torch.nn.functional.embedding(ids, embedding.weight).numpy()
    weight = embedding.weight.detach().numpy()
    # Within the documented difference between torch's two normal kernels.
    tolerance = 3e-6
    cells = [c for beat in board.beats for c in beat.numbers]
    for cell in cells:
        if cell.kind == "weight":
            assert abs(cell.value - float(weight[cell.index])) <= tolerance, cell
        elif cell.kind == "output":
            assert abs(cell.value - float(output[cell.index])) <= tolerance, cell
        elif cell.kind == "param_count":
            assert cell.value == embedding.weight.numel()
        elif cell.kind == "table_size":
            assert cell.value == embedding.weight.shape[cell.index[0]]
    assert {c.kind for c in cells} >= {"weight", "output", "param_count", "table_size"}


# -- bad input -----------------------------------------------------------------------


def _one_line_error(call: Any) -> str:
    with pytest.raises(EmbedvizError) as info:
        call()
    message = str(info.value)
    assert message.strip()
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("overrides", "pattern"),
    [
        ({"ids": "4821,50257"}, r"token ID 50257 at position 1 is out of range .* 50257"),
        ({"ids": "4821,-1"}, r"-1"),
        ({"ids": "1,2;3,4"}, r"shows one sequence"),
        ({"ids": ",".join(["7"] * 13)}, r"at most 12 tokens"),
        ({"vocab": 60}, r"default sentence uses IDs up to 50256.*give --ids"),
        ({"vocab": 0, "ids": "0"}, r"."),
        ({"dim": -3, "ids": "0"}, r"."),
        ({"seed": -(2**63) - 1}, r"seed"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, overrides: dict[str, Any], pattern: str) -> None:
    message = _one_line_error(lambda: _build(tmp_path, overrides))
    assert re.search(pattern, message), message


def test_non_finite_weights_are_refused(tmp_path: Path) -> None:
    weight = np.ones((20, 6), dtype=np.float32)
    weight[19, 5] = np.nan  # the last row and column are always drawn
    path = tmp_path / "nan.npy"
    np.save(path, weight)
    message = _one_line_error(lambda: _build(tmp_path, {"weights": str(path), "ids": "2"}))
    assert "row 19, column 5" in message


def test_window_functions_refuse_bad_rows_and_sizes() -> None:
    assert "row 60" in _one_line_error(lambda: scroll_window(60, 5, 60))
    assert "row -1" in _one_line_error(lambda: scroll_window(60, 5, -1))
    assert "0 x 5" in _one_line_error(lambda: start_window(0, 5))


def test_cli_reports_bad_ids_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["storyboard", "large", "--ids", "99", "--vocab", "60"])
    assert status == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert error == [
        "embedviz: error: token ID 99 at position 0 is out of range for a vocabulary of 60 "
        "(valid IDs are 0 to 59)"
    ]


def test_windows_draw_the_first_column_and_the_last() -> None:
    # E and the output show the same columns side by side: one column fewer is two.
    assert start_window(*GPT2).cols == (0, 767)
    window = scroll_window(*GPT2, 4821, start_window(*GPT2))
    assert window.cols == (0, 767)
    assert [gap.label for gap in window.col_gaps] == ["columns 1\u2013766 hidden"]


def _ink_rows(mobject: Any) -> tuple[float, float]:
    """The lowest and highest y of a text's outlines (its handles included: never less)."""
    points = np.concatenate([m.points for m in mobject.family_members_with_points()])
    return float(points[:, 1].min()), float(points[:, 1].max())


# Labels that are different things stand at least this far apart (720p pixels).
LABELS_APART_PX = 16.0


@pytest.mark.parametrize(
    "overrides", [None, {"ids": "464,464"}, {"dim": 4}], ids=["gpt2", "tight", "narrow"]
)
def test_the_hidden_columns_note_and_the_count_stand_clear_of_what_they_are_over(
    tmp_path: Path, overrides: dict[str, Any] | None
) -> None:
    # Issue 18, a 720p frame review: "columns 1-766 hidden" stood 8 px over the column
    # numbers "0 ... 767" (same colour, similar size: "1-766 hidden" stacked onto "767"),
    # and "V x d = 38,597,376 parameters" 12 px over "embedding matrix E 50257 x 768".
    from embedviz.render.stages.large_vocab import LargeVocabStage
    from embedviz.render.theme import DARK

    board = _build(tmp_path, overrides)
    stage = LargeVocabStage(RecordingHost(), board, DARK)
    px = 720 / 8.0
    matrix = stage.matrix
    numbers_top = max(_ink_rows(label)[1] for label in matrix.grid.col_labels.values())
    notes = list(matrix.grid.col_gap_labels.values())
    if overrides is None:
        assert notes, "GPT-2's 768 columns have a hidden range"
    for note in notes:
        assert (_ink_rows(note)[0] - numbers_top) * px >= LABELS_APART_PX
    assert matrix.count is not None
    heading_top = _ink_rows(matrix.heading)[1]
    assert (_ink_rows(matrix.count)[0] - heading_top) * px >= LABELS_APART_PX
