"""BatchLookup: the batch storyboard, its compact window, and parity with PyTorch."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest
from conftest import seeded_weight
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import parse_ids
from embedviz.core.table import EmbeddingTable
from embedviz.inputs import prepared_storyboard
from embedviz.story.model import Storyboard
from embedviz.story.options import SceneOptions
from embedviz.story.scenes import SCENES
from embedviz.story.scenes.batch import (
    MAX_BATCH_TOKENS,
    MAX_GRID_LINES,
    SPEC,
    build_batch_lookup,
)
from embedviz.story.window import compact_window

CASES = [{}, *SCENES["BatchLookup"].examples]


def _error(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(EmbedvizError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert message.strip()
    assert "\n" not in message, f"not one line: {message!r}"
    return message


def _final(board: Storyboard, kind: str) -> dict[tuple[int, ...], Any]:
    return {c.index: c for c in board.beats[-1].numbers if c.kind == kind}


def _landed(board: Storyboard, kind: str) -> dict[tuple[int, ...], Any]:
    """Every cell of a kind that any beat shows (a card in front hides the slice behind)."""
    return {c.index: c for beat in board.beats for c in beat.numbers if c.kind == kind}


# -- the storyboard --------------------------------------------------------------------
def test_default_batch_fills_two_slices_in_order() -> None:
    board = build_batch_lookup(SceneOptions())
    assert [list(row) for row in board.ids] == SPEC.default_ids
    assert board.layout == "batch"
    names = [b.name for b in board.beats]
    assert names == [
        "intro", "batch", "predict", "reveal",
        "lookup-0-0", "lookup-0-1", "lookup-0-rest", "lookup-1", "repeats", "shape",
    ]  # fmt: skip
    final = board.beats[-1]
    assert final.output is not None
    assert final.output.shape == (2, 4, 3)
    assert final.output.shape_labelled
    # Every position lands exactly once, sequence by sequence, in input order.
    assert list(final.output.filled) == [(b, t) for b in range(2) for t in range(4)]
    sizes = _final(board, "output_size")
    assert [sizes[(axis,)].text for axis in range(3)] == ["2", "4", "3"]
    # The block's B and T edges name it to the end, round its places' outlines: two
    # sequences of four IDs keep their input's shape on screen while the marks speak of
    # it (issue 18; story.scenes.batch.KEPT_BLOCK). The d edge keeps its size too. Each
    # ID stands in one place: its chip became its row's tag (output_id), and its
    # token_id cell left the screen as it did.
    last_lookup = names.index("repeats") - 1
    before = {c.index: c for c in board.beats[last_lookup - 1].numbers if c.kind == "batch_dim"}
    assert [before[(axis,)].text for axis in range(2)] == ["2", "4"]
    after = {c.index for c in board.beats[last_lookup].numbers if c.kind == "batch_dim"}
    assert after == {(0,), (1,), (2,)}
    assert set(_final(board, "batch_dim")) == {(0,), (1,), (2,)}
    assert not _final(board, "token_id")
    assert len(_final(board, "output_id")) == 8


def test_beats_name_the_batch_axes_before_the_output() -> None:
    board = build_batch_lookup(SceneOptions())
    by_name = {b.name: b for b in board.beats}
    assert {c.kind for c in by_name["batch"].numbers} >= {"batch_dim", "token_id"}
    assert not [c for c in by_name["predict"].numbers if c.kind == "output"]
    assert "output shape?" in by_name["predict"].labels.values()
    # The block is built slice by slice: slice 1 appears when sequence 1 starts.
    slices = [c.index for c in by_name["reveal"].numbers if c.kind == "slice"]
    assert sorted(slices) == [(0,)]
    slices = [c.index for c in by_name["lookup-1"].numbers if c.kind == "slice"]
    assert sorted(slices) == [(0,), (1,)]


def test_the_words_on_screen_are_story_labels_shown_when_their_parts_appear() -> None:
    board = build_batch_lookup(SceneOptions())
    by_name = {b.name: b for b in board.beats}
    assert not by_name["intro"].labels.keys() & {"batch_axis", "length_axis"}
    assert by_name["batch"].label("batch_axis") == "batch B ="
    assert by_name["batch"].label("length_axis") == "sequence length T ="
    # The block's header and edges appear with the first slice, not before.
    edges = {"slice_title", "edge_b", "edge_t", "edge_d"}
    assert not by_name["predict"].labels.keys() & edges
    reveal = by_name["reveal"]
    assert [reveal.label(role) for role in ("slice_title", "edge_b", "edge_t", "edge_d")] == [
        "slice",
        "B",
        "T",
        "d =",
    ]
    # The d edge keeps its size in the shape beat, its number still on screen.
    shape = by_name["shape"]
    assert shape.label("edge_d") == "d ="
    sizes = {c.index: c.value for c in shape.numbers if c.kind == "batch_dim"}
    assert shape.output is not None
    assert sizes[(2,)] == shape.output.shape[-1]
    assert shape.label("output_title") == "output"
    assert "output_title" not in by_name["lookup-1"].labels


def test_a_three_by_six_batch_is_allowed() -> None:
    ids = [[7, 0, 7, 9, 2, 6], [5, 5, 1, 0, 2, 8], [9, 3, 4, 4, 0, 1]]
    board = build_batch_lookup(SceneOptions(ids=ids, vocab=10, dim=5))
    assert board.beats[-1].output is not None
    assert board.beats[-1].output.shape == (3, 6, 5)


@pytest.mark.parametrize("overrides", CASES)
def test_output_cells_are_the_rows_the_ids_select(overrides: dict[str, Any]) -> None:
    board = prepared_storyboard("BatchLookup", overrides, environ={})
    options = SceneOptions(**{k: v for k, v in overrides.items() if k != "ids"})
    weight = seeded_weight(
        board.vocab_size, board.dim, options.seed, "torch" if options.init == "torch" else "normal"
    )
    ids = np.asarray(board.ids)
    window = board.beats[-1].window
    output = _landed(board, "output")
    assert set(output) == {
        (b, t, col) for b in range(ids.shape[0]) for t in range(ids.shape[1]) for col in window.cols
    }
    for (b, t, col), cell in output.items():
        assert cell.value == float(weight[ids[b, t], col])


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_any_small_batch_lands_every_row(data: st.DataObject) -> None:
    vocab = data.draw(st.integers(1, 8))
    dim = data.draw(st.integers(1, 6))
    batch = data.draw(st.integers(2, 4))
    length = data.draw(st.integers(1, MAX_BATCH_TOKENS // batch if batch > 2 else 8))
    ids = data.draw(
        st.lists(
            st.lists(st.integers(0, vocab - 1), min_size=length, max_size=length),
            min_size=batch,
            max_size=batch,
        )
    )
    board = build_batch_lookup(SceneOptions(ids=ids, vocab=vocab, dim=dim, init="normal"))
    table = EmbeddingTable.from_seed(vocab, dim, 123, "normal")
    expected = table.weight[np.asarray(ids)]
    window = board.beats[-1].window
    for (b, t, col), cell in _landed(board, "output").items():
        assert cell.value == float(expected[b, t, col])
        assert col in window.cols
    assert len(_landed(board, "output")) == batch * length * len(window.cols)
    assert sum(b.duration for b in board.beats) == pytest.approx(board.duration)


# -- parity with PyTorch -------------------------------------------------------------
@pytest.mark.parametrize("overrides", [c for c in CASES if c.get("init", "torch") == "torch"])
def test_output_cells_match_torch_embedding(overrides: dict[str, Any]) -> None:
    torch = pytest.importorskip("torch")
    board = prepared_storyboard("BatchLookup", overrides, environ={})
    seed = int(overrides.get("seed", 123))
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        layer = torch.nn.Embedding(board.vocab_size, board.dim)
    ids = torch.tensor(board.ids)
    theirs = torch.nn.functional.embedding(ids, layer.weight).detach().numpy()
    assert theirs.shape == (*ids.shape, board.dim)
    ours = seeded_weight(board.vocab_size, board.dim, seed, "torch")
    same_weights = torch.nn.functional.embedding(ids, torch.from_numpy(ours.copy()))
    for (b, t, col), cell in _landed(board, "output").items():
        # On the same weights the lookup is a copy: bit for bit.
        assert cell.value == float(same_weights[b, t, col])
        # Against torch's own seeded layer, within its documented rounding.
        assert abs(cell.value - float(theirs[b, t, col])) <= 3e-6


# -- the compact window -----------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(
    vocab=st.integers(1, 60000),
    dim=st.integers(1, 1000),
    data=st.data(),
)
def test_compact_window_shows_focus_rows_and_labels_every_gap(
    vocab: int, dim: int, data: st.DataObject
) -> None:
    focus = data.draw(st.lists(st.integers(0, vocab - 1), min_size=1, max_size=8))
    window = compact_window(vocab, dim, focus)
    assert set(focus) <= set(window.rows)
    assert list(window.rows) == sorted(set(window.rows))
    assert {0, vocab - 1} <= set(window.rows)
    assert {0, dim - 1} <= set(window.cols)
    assert len(window.cols) <= 4
    for shown, gaps, size, noun in (
        (window.rows, window.row_gaps, vocab, "row"),
        (window.cols, window.col_gaps, dim, "column"),
    ):
        covered = set(shown)
        for gap in gaps:
            hidden = set(range(gap.first, gap.last + 1))
            assert not hidden & covered
            covered |= hidden
            word = noun if gap.first == gap.last else noun + "s"
            assert gap.label.startswith(word + " ")
            assert gap.label.endswith(" hidden")
        assert covered == set(range(size))


def test_small_tables_are_shown_whole() -> None:
    window = compact_window(8, 4, [3])
    assert window.rows == tuple(range(8))
    assert window.cols == (0, 1, 2, 3)
    assert not window.row_gaps
    assert not window.col_gaps


@pytest.mark.parametrize(
    ("ids", "cols"),
    [
        # Five-digit IDs: 7 rows and 4 hidden ranges, E bound by the height and the chips.
        ("4821,0,50256,17;33000,2,4821,0", (0, 1, 767)),
        ("4821,33000,4821,17;33000,2,50256,0", (0, 1, 767)),
        # GPT-2's default batch: 7 rows and 1 hidden range, bound by the width.
        ("2,3,5,1;4,0,3,2", (0, 767)),
        # Shorter sequences and more IDs keep two columns.
        ("33000,464;50256,17", (0, 767)),
        ("17;12000;464;262", (0, 767)),
        ("7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1", (0, 767)),
    ],
)
def test_a_tall_two_by_four_window_shows_a_third_column(ids: str, cols: tuple[int, ...]) -> None:
    # A 720p review of the five-digit GPT-2 batch: E showed only two data columns,
    # padded wider, with the frame's width to spare.
    board = prepared_storyboard("BatchLookup", {"ids": ids, "vocab": 50257, "dim": 768})
    window = board.beats[0].window
    assert window.cols == cols
    hidden = [c for c in range(768) if c not in cols]
    assert [(g.first, g.last) for g in window.col_gaps] == [(hidden[0], hidden[-1])]
    weight = seeded_weight(50257, 768, SceneOptions().seed)
    drawn = _landed(board, "weight")
    assert set(drawn) == {(row, col) for row in window.rows for col in cols}
    for (row, col), cell in drawn.items():
        assert cell.value == float(weight[row, col])


# -- bad input ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ("2,3,5,1", "at least 2 sequences"),
        ("2,3;5", "ragged"),
        ("2,3;5,9", "out of range"),
        ("1;2;3;4;5", "at most 4 sequences"),
        ("0,1,2,3,4,5,0,1,2;0,1,2,3,4,5,0,1,2", "at most 8 IDs"),
        ("0,1,2,3,4;0,1,2,3,4;0,1,2,3,4;0,1,2,3,4", "at most 18 IDs"),
        ("2,-3;1,1", "negative"),
    ],
)
def test_bad_batches_fail_in_one_line(ids: str, message: str) -> None:
    assert message in _error(build_batch_lookup, SceneOptions(ids=parse_ids(ids)))


def test_an_empty_batch_fails_in_one_line() -> None:
    assert "no token IDs" in _error(build_batch_lookup, SceneOptions(ids=[[], []]))
    assert "empty" in _error(parse_ids, "2,3;;5")


def test_too_many_scattered_rows_fail_in_one_line() -> None:
    ids = [[100, 2000, 3000, 4000], [5000, 6000, 7000, 8000]]
    message = _error(build_batch_lookup, SceneOptions(ids=ids, vocab=50257, dim=3))
    assert f"at most {MAX_GRID_LINES}" in message
    assert "fewer distinct IDs" in message


# -- motion --------------------------------------------------------------------------------
@pytest.mark.slow
def test_chips_and_rows_cross_nothing_at_any_moment() -> None:
    """Sampled densely, no lookup moment overprints: chips leave from the lane above
    the block (never through the chips above them) and rows travel in the corridor."""
    from conftest import sample_moments
    from test_moments import check_moment

    overrides = {"ids": "2,3;4,0;1,5", "vocab": 6}
    board = prepared_storyboard("BatchLookup", overrides, environ={})
    lookups = {b.name for b in board.beats if b.action in ("lookup", "lookup_many")}
    alphas = tuple(float(a) for a in np.linspace(0.02, 0.98, 25))
    # Only the lookup beats are read: the others play unsampled.
    samples = sample_moments("BatchLookup", overrides, alphas=alphas, beats=lookups)
    moving = [s for s in samples if s.beat.action in ("lookup", "lookup_many") and s.alpha < 1]
    assert len(moving) >= 4 * len(alphas)
    # The chip itself travels (it becomes its row's tag): some ID is seen in many places.
    places: dict[tuple[int, ...], set[tuple[float, float]]] = {}
    for sample in moving:
        for text in sample.texts:
            if text.cell is not None and text.cell[0] in ("token_id", "output_id"):
                corner = (round(float(text.box[0][0]), 2), round(float(text.box[0][1]), 2))
                places.setdefault(text.cell[1], set()).add(corner)
    assert max(len(seen) for seen in places.values()) > 3
    problems = [line for sample in moving for line in check_moment(sample)]
    assert not problems, "\n".join(problems[:20])


def _first_copies(ids: list[list[int]]) -> dict[tuple[int, int], tuple[int, int]]:
    """Each repeated ID's position, and the first position that holds the same ID."""
    first: dict[int, tuple[int, int]] = {}
    repeats = {}
    for b, row in enumerate(ids):
        for t, token in enumerate(row):
            if token in first:
                repeats[(b, t)] = first[token]
            first.setdefault(token, (b, t))
    return repeats


@pytest.mark.parametrize(
    "overrides",
    [{}, {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}],
)
def test_equality_marks_name_both_rows_once_every_row_is_in(overrides: dict[str, Any]) -> None:
    """A mark reads out[1,2] = out[0,0] (never "2 = out[0,0]"), in its own beat, after lookups."""
    board = prepared_storyboard("BatchLookup", overrides, environ={})
    repeats = _first_copies([list(row) for row in board.ids])
    assert repeats
    names = [beat.name for beat in board.beats]
    for beat in board.beats:
        marks = {c.index: c for c in beat.numbers if c.kind == "equal_to"}
        if names.index(beat.name) < names.index("repeats"):
            assert not marks, beat.name
            continue
        assert set(marks) == set(repeats), beat.name
        for (b, t), cell in marks.items():
            fb, ft = repeats[(b, t)]
            assert cell.text == f"out[{b},{t}] = out[{fb},{ft}]"
    # Every landing is done before the marks come: the last lookup is before the repeats beat.
    lookups = [i for i, beat in enumerate(board.beats) if beat.action.startswith("lookup")]
    assert max(lookups) < names.index("repeats")


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides",
    [{}, {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}],
)
def test_every_slice_shows_its_values_at_the_end(
    moment_cache: Any, overrides: dict[str, Any]
) -> None:
    """Issue 18: at the shape beat's end every slice's numbers are in view, none covered."""
    from test_moments import check_moment

    board = prepared_storyboard("BatchLookup", overrides, environ={})
    last = board.beats[-1].name
    # test_moments samples both cases whole (its CASES): the last sample is this beat's end.
    end = moment_cache("BatchLookup", overrides)[-1]
    assert end.beat.name == last == "shape"
    assert end.alpha == 1.0
    shown = {t.cell[1] for t in end.texts if t.opacity >= 0.99 and t.cell and t.cell[0] == "output"}
    batch, length = np.asarray(board.ids).shape
    cols = board.beats[-1].window.cols
    assert shown == {(b, t, c) for b in range(batch) for t in range(length) for c in cols}
    assert not check_moment(end)


@pytest.mark.parametrize(
    "overrides",
    [{}, {"vocab": 50257, "dim": 768, "ids": "4821,0,50256;50256,7,4821"}],
)
def test_no_number_is_drawn_twice(dry_run_cache: Any, overrides: dict[str, Any]) -> None:
    """A mark names its row itself (out[1,2] = ...): no position is echoed beside it any more."""
    last = dry_run_cache("BatchLookup", overrides).checkpoints[-1]
    marked = [c.index for c in last.beat.numbers if c.kind == "equal_to"]
    assert marked
    assert last.echoes == []


@pytest.mark.slow
def test_the_slices_rest_beside_e_and_part_only_while_strips_travel(moment_cache: Any) -> None:
    """Issue 18: the corridor is open only while a strip travels; the notes come right of it.

    The 3 x 6 batch takes the corridor. At every beat end the slices stand
    closer to E than a strip is wide (the corridor closed), but between two
    lookup beats, where it stays open for the next one's strips (the tables
    part once for the run, not around every beat); while a strip is on
    screen, it fits between E and the slices. Once every row is in, the marks
    stand right of every slice's numbers and tags.
    """
    overrides = {"ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1", "vocab": 10, "dim": 5}
    # Sampled once per run: test_moments samples this batch too (its CASES).
    samples = moment_cache("BatchLookup", overrides)

    def kind(sample: Any, name: str, strip: bool = False) -> list[np.ndarray]:
        return [
            t.box
            for t in sample.texts
            if t.opacity >= 0.5 and t.cell and t.cell[0] == name and t.in_strip == strip
        ]

    def gap(sample: Any) -> float | None:
        weights, outputs = kind(sample, "weight"), kind(sample, "output")
        if not weights or not outputs:
            return None
        return min(b[0][0] for b in outputs) - max(b[1][0] for b in weights)

    # A strip on screen (its numbers may be hidden while it passes rows not its own).
    travelling = [
        s for s in samples if any(t.in_strip and t.cell and t.cell[0] == "weight" for t in s.texts)
    ]
    assert travelling
    # A strip is as wide as a row of E's numbers.
    row = [
        t.box
        for t in samples[-1].texts
        if t.cell and t.cell[0] == "weight" and not t.in_strip and t.cell[1][0] == 0
    ]
    widest = max(b[1][0] for b in row) - min(b[0][0] for b in row)
    ends = [(s, gap(s)) for s in samples if s.alpha == 1.0 and gap(s) is not None]
    names = list(dict.fromkeys(s.beat.name for s in samples))
    lookup = {s.beat.name for s in samples if s.beat.action in ("lookup", "lookup_many")}
    inner = {a for a, b in itertools.pairwise(names) if {a, b} <= lookup}
    held = [(s, g) for s, g in ends if s.beat.name in inner]
    closed = [(s, g) for s, g in ends if s.beat.name not in inner]
    assert closed
    assert held
    assert all(g < widest for _, g in closed), [(s.beat.name, g) for s, g in closed]
    assert all(g > widest for _, g in held), [(s.beat.name, g) for s, g in held]
    # A strip moving along the corridor stands between E and the slices.
    open_gaps = [g for s in travelling if (g := gap(s)) is not None]
    assert max(open_gaps) > widest
    end = samples[-1]
    marks = [t.box for t in end.texts if t.cell and t.cell[0] == "equal_to"]
    assert marks
    right = max(b[1][0] for b in [*kind(end, "output"), *kind(end, "output_id")])
    assert min(b[0][0] for b in marks) > right


def _end_of_shape(overrides: dict[str, Any]) -> Mapping[str, Any]:
    """Play the scene dry and read, at the last beat's end, the stage and what is on screen.

    Several tests read the same cases: each case plays once a worker (read-only results).
    """
    return _end_of_last_beat(tuple(sorted(overrides.items())))


def _end_of_repeats(overrides: dict[str, Any]) -> Mapping[str, Any]:
    """Play the scene dry and read what is on screen as the repeats beat ends.

    The marks' lines stand through the repeats beat and go with the next beat's
    first phrase (issue 18's lecture-hall review): the ties are read here. The
    stage is read as the last beat ends (the marks' lines keep their places).
    """
    return _end_of_last_beat(tuple(sorted(overrides.items())), "repeats")


@functools.cache
def _end_of_last_beat(
    case: tuple[tuple[str, Any], ...], name: str | None = None
) -> Mapping[str, Any]:
    """``_end_of_shape`` for one case, as sorted (option, value) pairs (or beat ``name``'s end)."""
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("BatchLookup", dict(case), environ={})
    seen: dict[str, Any] = {}
    name = name or board.beats[-1].name

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha == 1.0:
            family = frozenset(id(m) for top in scene.mobjects for m in top.get_family())
            seen.update(stage=scene.stage, shown=family, beat=moment.beat.name)

    # Only that beat's end is read: the others play unsampled.
    play_moments(board, read, alphas=(), beats={name})
    return MappingProxyType(seen)


# Two sequences keep their block, E and the marks under the slices with no lines
# (tests/test_batch_close_thread.py); three or more still give the block's place to E.
@pytest.mark.parametrize(
    "overrides",
    [
        # The corridor: eight marks, no room for lines left of the slices.
        {"ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1", "vocab": 50257, "dim": 768},
    ],
)
def test_marks_are_labels_linked_to_their_rows_and_no_edge_names_an_empty_block(
    overrides: dict[str, Any],
) -> None:
    """Issue 18 (lecture-hall frames): once every row is in, the block's B and T edges go
    with it as it gives way to E (they would name nothing); each mark is set at a label's
    size (the row numbers'), and is tied to the rows it names as the repeats beat ends: it
    and they carry its pair's letter (tests/test_batch_repeats.py), and one right of the
    slices stands level with its row."""
    from test_batch_repeats import _leaders, assert_pairs_lettered

    from embedviz.render.glyphs import NumberText

    seen = _end_of_repeats(overrides)
    stage, shown = seen["stage"], seen["shown"]
    assert seen["beat"] == "repeats"

    def on_screen(mobject: Any) -> bool:
        opacity = max(mobject.get_stroke_opacity(), mobject.get_fill_opacity())
        return id(mobject) in shown and opacity > 0

    edges = [*stage.chips.batch_label.get_family(), *stage.chips.length_label.get_family()]
    assert not [m for m in edges if len(m.points) and on_screen(m)]
    marks = [
        m
        for top in stage.scene.mobjects
        for m in top.get_family()
        if isinstance(m, NumberText) and m.cell.kind == "equal_to" and on_screen(m)
    ]
    assert len(marks) == len(_first_copies([list(row) for row in stage.board.ids]))
    # No line leads from a mark (each pair's letter ties it to its rows:
    # tests/test_batch_repeats.py); one right of the slices stands level with its row.
    drawn = [m for top in stage.scene.mobjects for m in top.get_family() if id(m) in shown]
    assert not any(_leaders({"stage": stage, "drawn": drawn}).values())
    assert_pairs_lettered(stage, drawn)
    right = max(float(m.get_right()[0]) for m in [*stage.stack.slices, *stage.stack.row_numbers])
    for mark in marks:
        b, t = mark.cell.index
        # As tall as the row numbers (a label's size), which the legend's size was not.
        assert mark.height >= stage.stack.row_numbers[b][t].height * 0.999, mark.text
        if mark.get_left()[0] > right:
            # Level with its row (its digits centred on the row's line; brackets reach lower).
            row_h = stage.plan.sizes.row_height
            assert abs(mark.get_center()[1] - stage.stack.slices[b].row_y(t)) < row_h / 4


# Cases whose marks once led lines to their rows (each mark to its repeat and first
# copy, lanes packed where the room was short): the lines went with session 34, each
# pair's rows and marks carrying its letter instead (parts.pair_marks).
LETTER_CASES = [
    # A first copy in slice 1, under the marks' place: the marks stand stacked.
    {"ids": "1,2;3,4;3,1"},
    # Four marks, three of them with one first copy, in 4.6 SPACE between E and the slices.
    {"ids": "2,3,2,1;4,2,3,2"},
    # Six marks, four of whose rows are in slice 2, past E's right end.
    {"ids": "2,3,5,1;4,0,3,2;1,5,0,4"},
    # Seven marks, three with one first copy.
    {"ids": "1,3,2,5;4,5,4,4;3,2,2,3"},
    # Five marks 14.3 SPACE tall over a block 13.8 SPACE tall: the place reaches up to the
    # title's band for them.
    {"ids": "0,5,5,2;5,5,5,0"},
]


@pytest.mark.parametrize("overrides", LETTER_CASES)
def test_every_mark_and_its_rows_carry_their_pairs_letter(overrides: dict[str, Any]) -> None:
    """A 720p review of the repeats beat: nothing tied ``out[1,2] = out[0,1]`` to either
    row where the lines' room was short, and where there was room the lines crowded (a
    teacher's review, issue 18: which row equals which was in the notation alone). As the
    repeats beat ends, each repeated ID's rows and marks carry its own letter in a ring
    (tests/test_batch_repeats.py), and no line leads from a mark."""
    from test_batch_repeats import _leaders, assert_pairs_lettered

    seen = _end_of_repeats(overrides)
    stage, shown = seen["stage"], seen["shown"]
    drawn = [m for top in stage.scene.mobjects for m in top.get_family() if id(m) in shown]
    assert_pairs_lettered(stage, drawn)
    assert not any(_leaders({"stage": stage, "drawn": drawn}).values())
