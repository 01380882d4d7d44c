"""ParameterCount: the core's counts and byte sizes, against PyTorch and by hand."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.core.errors import EmbedvizError
from embedviz.core.params import (
    DTYPE_BYTES,
    bytes_per_parameter,
    comparison_dims,
    format_bytes_binary,
    format_count,
    parameter_count,
    table_bytes,
)
from embedviz.core.table import EmbeddingTable
from embedviz.inputs import prepared_storyboard
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.parameter_count import leading_rows

FRAME_HALF_WIDTH, FRAME_HALF_HEIGHT = 14.222 / 2, 4.0


def _one_line_error(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(EmbedvizError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert message
    assert "\n" not in message
    return message


def _cells(board: Any, kind: str) -> list[Any]:
    """Return a kind's cells as the scene shows them, in any beat (the tables leave at the
    lookup: issue 18)."""
    found = {c.index: c for beat in board.beats for c in beat.numbers if c.kind == kind}
    return [found[index] for index in sorted(found)]


# ----------------------------------------------------------------------------- GPT-2


def test_gpt2_figures_by_hand() -> None:
    # 50257 x 768, worked out independently of the core.
    assert 50257 * 768 == 38_597_376
    assert parameter_count(50257, 768) == 38_597_376
    assert table_bytes(50257, 768, "float32") == 154_389_504
    assert table_bytes(50257, 768, "bfloat16") == 77_194_752
    assert format_count(38_597_376) == "38,597,376"
    # 154,389,504 / 2**20 = 147.236... MiB; half of it is 73.618... MiB.
    assert format_bytes_binary(154_389_504) == "147.2 MiB"
    assert format_bytes_binary(77_194_752) == "73.6 MiB"


def test_default_scene_is_gpt2(tmp_path: Path) -> None:
    board = prepared_storyboard("params", cwd=tmp_path, environ={})
    assert (board.vocab_size, board.dim) == (50257, 768)
    assert [c.text for c in _cells(board, "param_count")] == ["38,597,376"]
    assert [c.text for c in _cells(board, "dtype_memory")] == ["147.2 MiB", "73.6 MiB"]
    assert [c.text for c in _cells(board, "dtype_bytes")] == ["4", "2"]
    assert [c.text for c in _cells(board, "compare_dim")] == ["384", "768", "1,536"]
    assert [c.text for c in _cells(board, "row_bytes")] == ["3,072"]
    assert board.ids == 3
    assert [beat.name for beat in board.beats] == [
        "table", "count", "float32", "bfloat16", "compare", "lookup",
    ]  # fmt: skip


# ----------------------------------------------------------------------------- torch parity


@pytest.fixture(scope="module")
def torch() -> Any:
    return pytest.importorskip("torch")


@settings(max_examples=25, deadline=None)
@given(vocab=st.integers(1, 300), dim=st.integers(1, 64))
def test_parameter_count_matches_torch_numel(torch: Any, vocab: int, dim: int) -> None:
    layer = torch.nn.Embedding(vocab, dim)
    assert parameter_count(vocab, dim) == layer.weight.numel()
    assert sum(p.numel() for p in layer.parameters()) == parameter_count(vocab, dim)


@pytest.mark.parametrize("dtype", sorted(DTYPE_BYTES))
@pytest.mark.parametrize(("vocab", "dim"), [(1, 1), (6, 3), (257, 31), (1000, 64)])
def test_table_bytes_match_torch_storage(torch: Any, dtype: str, vocab: int, dim: int) -> None:
    weight = torch.nn.Embedding(vocab, dim).weight.detach().to(getattr(torch, dtype))
    assert bytes_per_parameter(dtype) == weight.element_size()
    assert table_bytes(vocab, dim, dtype) == weight.untyped_storage().nbytes()


# ----------------------------------------------------------------------------- properties


@given(st.integers(0, 10**20))
def test_format_count_groups_digits_in_threes(n: int) -> None:
    text = format_count(n)
    groups = text.split(",")
    assert int("".join(groups)) == n
    assert 1 <= len(groups[0]) <= 3
    assert all(len(group) == 3 for group in groups[1:])
    assert not groups[0].startswith("0") or n == 0


@given(st.integers(0, 2**62))
def test_format_bytes_binary_is_the_count_in_the_largest_unit(n: int) -> None:
    text = format_bytes_binary(n)
    match = re.fullmatch(r"(\d+(?:\.\d)?) (B|KiB|MiB|GiB|TiB|PiB|EiB)", text)
    assert match is not None, text
    power = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"].index(match.group(2))
    shown = float(match.group(1))
    if power == 0:
        assert shown == n
    else:
        # One decimal, rounded: within half a tenth of the unit.
        assert abs(shown - n / 1024**power) <= 0.05 + 1e-9
        assert n < 1024 ** (power + 1)
        # The largest unit in which the count is at least 1, or the next one up
        # when one decimal in the smaller unit would round up to 1024.0.
        assert n >= 1024**power or round(n / 1024 ** (power - 1), 1) >= 1024.0
    # Never "1024.0 KiB": the written value is under 1024 in its unit.
    assert shown < 1024


@pytest.mark.parametrize(
    ("count", "text"),
    [(1023, "1023 B"), (1024, "1.0 KiB"), (1_048_524, "1023.9 KiB"), (1_048_575, "1.0 MiB")],
)
def test_format_bytes_binary_moves_up_a_unit_rather_than_write_1024(count: int, text: str) -> None:
    assert format_bytes_binary(count) == text


@given(vocab=st.integers(1, 10**6), dim=st.integers(1, 10**5))
def test_table_bytes_scale_with_the_dtype(vocab: int, dim: int) -> None:
    count = parameter_count(vocab, dim)
    assert count == vocab * dim
    for dtype, size in DTYPE_BYTES.items():
        assert table_bytes(vocab, dim, dtype) == count * size
    assert table_bytes(vocab, dim, "float32") == 2 * table_bytes(vocab, dim, "bfloat16")


@given(st.integers(1, 10**6))
def test_comparison_dims_are_half_same_double(dim: int) -> None:
    widths = comparison_dims(dim)
    assert dim in widths
    assert list(widths) == sorted(set(widths))
    assert widths[-1] == 2 * dim
    assert all(w >= 1 for w in widths)
    assert (dim // 2 in widths) == (dim >= 2)


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("vocab", "dim", "fragment"),
    [(0, 3, "at least 1"), (-5, 3, "at least 1"), (6, 0, "at least 1"), (6.0, 3, "whole"),
     (True, 3, "whole"), ("6", 3, "whole"), (6, None, "whole")],
)  # fmt: skip
def test_bad_sizes_are_refused_in_one_line(vocab: Any, dim: Any, fragment: str) -> None:
    assert fragment in _one_line_error(parameter_count, vocab, dim)


def test_bad_dtype_and_counts_are_refused() -> None:
    assert "int8" in _one_line_error(bytes_per_parameter, "int8")
    assert "int8" in _one_line_error(table_bytes, 6, 3, "int8")
    _one_line_error(format_count, -1)
    _one_line_error(format_count, 1.5)
    _one_line_error(format_bytes_binary, -1)
    _one_line_error(comparison_dims, 0)


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [({"ids": "1,2"}, "one token ID"), ({"ids": "6", "vocab": 6}, "out of range"),
     ({"ids": "-1"}, "negative"), ({"vocab": 0}, "at least 1"), ({"dim": -3}, "at least 1"),
     ({"init": "normal", "seed": -(2**63) - 1}, "seed")],
)  # fmt: skip
def test_bad_scene_options_are_refused(
    tmp_path: Path, overrides: dict[str, Any], fragment: str
) -> None:
    message = _one_line_error(prepared_storyboard, "params", overrides, cwd=tmp_path, environ={})
    assert fragment in message


def test_weights_file_sets_the_shape(tmp_path: Path) -> None:
    weight = np.arange(35, dtype=np.float32).reshape(7, 5) / 10
    path = tmp_path / "table.npy"
    np.save(path, weight)
    board = prepared_storyboard("params", {"weights": str(path)}, cwd=tmp_path, environ={})
    assert (board.vocab_size, board.dim) == (7, 5)
    # The first six rows (the looked-up ID 3 among them), in their first three columns.
    assert [c.value for c in _cells(board, "corner")] == [
        float(weight[r, c]) for r in range(6) for c in range(3)
    ]
    board = prepared_storyboard(
        "params", {"weights": str(path), "ids": "6"}, cwd=tmp_path, environ={}
    )
    # The last row, past the first six, is drawn after them.
    assert [c.value for c in _cells(board, "corner")] == [
        float(weight[r, c]) for r in (0, 1, 2, 3, 4, 5, 6) for c in range(3)
    ]
    _one_line_error(
        prepared_storyboard, "params", {"weights": str(path), "dim": 4}, cwd=tmp_path, environ={}
    )


# ----------------------------------------------------------------------------- the scene


@settings(max_examples=20, deadline=None)
@given(
    vocab=st.integers(1, 40),
    dim=st.integers(1, 40),
    seed=st.integers(0, 2**32),
    init=st.sampled_from(["torch", "normal"]),
)
def test_leading_rows_are_the_tables_first_rows(vocab: int, dim: int, seed: int, init: str) -> None:
    count = min(vocab, 2)
    options = SceneOptions(vocab=vocab, dim=dim, seed=seed, init=init)
    full = EmbeddingTable.from_seed(vocab, dim, seed, init).weight
    assert np.array_equal(leading_rows(options, vocab, dim, count), full[:count])


def test_huge_tables_are_counted_without_being_built(tmp_path: Path, computed_rows: Any) -> None:
    # 4.2 billion parameters (16 GiB in float32): only the corner's rows and ID 3's are computed.
    board = prepared_storyboard("params", {"vocab": 256000, "dim": 16384}, cwd=tmp_path, environ={})
    assert computed_rows.full_tables == []
    assert computed_rows.distinct <= set(range(6))  # the first six rows hold the looked-up ID 3
    assert 0 < computed_rows.rows <= 12
    prepared_storyboard(
        "params", {"vocab": 256000, "dim": 16384, "ids": "255999"}, cwd=tmp_path, environ={}
    )
    assert computed_rows.full_tables == []
    assert computed_rows.distinct <= {*range(6), 255999}
    assert [c.text for c in _cells(board, "param_count")] == ["4,194,304,000"]
    assert [c.text for c in _cells(board, "dtype_total")] == ["16,777,216,000", "8,388,608,000"]
    assert [c.text for c in _cells(board, "dtype_memory")] == ["15.6 GiB", "7.8 GiB"]


def test_huge_table_layout_fits_the_frame(tmp_path: Path) -> None:
    from conftest import dry_run

    run = dry_run("params", {"vocab": 256000, "dim": 16384, "ids": "255999"}, media_dir=tmp_path)
    for checkpoint in run.checkpoints:
        boxes = checkpoint.boxes
        for text, ((left, bottom), (right, top)) in boxes:
            assert left > -FRAME_HALF_WIDTH, text
            assert right < FRAME_HALF_WIDTH, text
            assert bottom > -FRAME_HALF_HEIGHT, text
            assert top < FRAME_HALF_HEIGHT, text
        for i, (text_a, box_a) in enumerate(boxes):
            for text_b, box_b in boxes[i + 1 :]:
                overlap_x = min(box_a[1][0], box_b[1][0]) - max(box_a[0][0], box_b[0][0])
                overlap_y = min(box_a[1][1], box_b[1][1]) - max(box_a[0][1], box_b[0][1])
                assert overlap_x <= 0.01 or overlap_y <= 0.01, (text_a, text_b)


@pytest.mark.parametrize("overrides", [{}, {"vocab": 6, "dim": 3}, {"vocab": 152064, "dim": 64}])
def test_narration_fits_two_caption_lines(tmp_path: Path, overrides: dict[str, Any]) -> None:
    board = prepared_storyboard("params", overrides, cwd=tmp_path, environ={})
    for beat in board.beats:
        assert len(beat.narration.split()) <= 25, beat.name
        assert len(textwrap.wrap(beat.narration, width=76)) <= 2, beat.name


@pytest.mark.slow
@pytest.mark.parametrize("overrides", [{}, {"vocab": 256000, "dim": 16384, "ids": "255999"}])
def test_the_looked_up_row_leaves_from_its_row_in_the_block(
    moment_cache: Any, overrides: dict[str, Any]
) -> None:
    """Issue 18: no empty slot is marked, and E[3] never appears from nowhere."""
    board = prepared_storyboard("params", overrides, environ={})
    token_id = board.single_id()
    table = next(beat for beat in board.beats if beat.name == "table")
    # The ID's row is in the block, with its real values, from the start ...
    assert token_id in table.window.rows
    drawn = {c.index for c in table.numbers if c.kind == "corner"}
    assert {(token_id, col) for col in table.window.cols} <= drawn
    samples = [s for s in moment_cache("ParameterCount", overrides) if s.beat.name == "lookup"]
    # ... and the copy travels as one strip of that row's own numbers.
    moving = [t for s in samples for t in s.texts if t.in_strip and t.cell is not None]
    assert moving, "no strip travelled"
    assert {(kind, index[0]) for kind, (index) in (t.cell for t in moving)} == {
        ("corner", token_id)
    }
    # Where it lands, the copy's numbers are the looked-up values, level with the row.
    end = samples[-1]
    row_y = {
        round(t.box.mean(axis=0)[1], 6) for t in end.texts if t.cell == ("corner", (token_id, 0))
    }
    copy_y = {
        round(t.box.mean(axis=0)[1], 6)
        for t in end.texts
        if t.cell is not None and t.cell[0] == "lookup_value"
    }
    assert len(copy_y) == 1
    assert copy_y == row_y


@pytest.mark.parametrize("overrides", [{}, {"vocab": 256000, "dim": 16384, "ids": "255999"}])
def test_the_row_outline_keeps_off_the_hidden_ranges_labels(overrides: dict[str, Any]) -> None:
    """A 720p review (lookup · mid 3 and end): the amber outline of row 3 cut through the
    label "row 2 hidden" written across the band above it (0.7 px apart at 720p). At
    the lookup's end its ink stands half a SPACE clear of every hidden range's label, and
    still rings the row's numbers."""
    from embedviz.render.design import SPACE
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("params", overrides, environ={})
    seen: dict[str, Any] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha == 1.0 and moment.beat.name == "lookup":
            seen["stage"] = scene.stage

    play_moments(board, read, alphas=())
    stage = seen["stage"]
    outline, grid, token = stage.lookup.outline, stage.block.grid, board.single_id()
    assert outline is not None
    reach = float(outline.get_stroke_width()) / 200
    low = outline.get_corner([-1, -1, 0]) - reach
    high = outline.get_corner([1, 1, 0]) + reach
    assert len(stage.block.bands) >= 1
    # Half a SPACE of clear ground (the design system's): at 0.7 px the two touched.
    clear = SPACE / 2
    for label in stage.block.bands:
        a, b = label.get_corner([-1, -1, 0]), label.get_corner([1, 1, 0])
        apart = (
            a[1] >= high[1] + clear
            or b[1] <= low[1] - clear
            or a[0] >= high[0] + clear
            or b[0] <= low[0] - clear
        )
        assert apart, label.text
    left, _, right, _ = grid.row_box(token, buff=0.0)
    numbers = [n for n in grid.get_row(token) if left <= n.get_center()[0] <= right]
    assert numbers
    for number in numbers:
        assert low[1] + 2 * reach <= number.get_bottom()[1]
        assert number.get_top()[1] <= high[1] - 2 * reach


def _rectangle_sides(rect: Any) -> list[tuple[float, float, float, float, float]]:
    """Return a rectangle's four sides: (left, bottom, right, top, half a stroke) each."""
    (left, bottom, _), (right, top, _) = rect.get_corner([-1, -1, 0]), rect.get_corner([1, 1, 0])
    half = float(rect.get_stroke_width()) / 200
    return [
        (left, bottom, right, bottom, half),
        (left, top, right, top, half),
        (left, bottom, left, top, half),
        (right, bottom, right, top, half),
    ]


def _drawn_lines(grid: Any) -> list[tuple[float, float, float, float, float]]:
    """Return the lines a block draws: (left, bottom, right, top, half a stroke) each.

    Its frame and each hidden range's band are rectangles (four sides); a column's rule
    runs the body's height, but the bands, drawn after it, cover it where they lie.
    """
    from manim import Line, Rectangle

    bands = [m for m in grid.body.submobjects[1:] if isinstance(m, Rectangle)]
    covered = [(float(m.get_bottom()[1]), float(m.get_top()[1])) for m in bands]
    lines = []
    for mobject in grid.body.submobjects:
        half = float(mobject.get_stroke_width()) / 200
        if isinstance(mobject, Rectangle):
            lines += _rectangle_sides(mobject)
        elif isinstance(mobject, Line):
            (x0, y0, _), (x1, y1, _) = mobject.get_start(), mobject.get_end()
            pieces = [(min(y0, y1), max(y0, y1))]
            if abs(x0 - x1) < 1e-9:
                for low, high in covered:
                    pieces = [
                        piece
                        for a, b in pieces
                        for piece in ((a, min(b, low)), (max(a, high), b))
                        if piece[1] > piece[0] + 1e-9
                    ]
            lines += [(min(x0, x1), a, max(x0, x1), b, half) for a, b in pieces]
    return lines


@pytest.mark.parametrize(
    "overrides",
    [{}, {"vocab": 9, "dim": 4}, {"vocab": 1000, "dim": 64}],
    ids=["gpt2", "9x4", "1000x64"],
)
def test_the_hidden_ranges_labels_keep_clear_of_the_blocks_lines(
    overrides: dict[str, Any],
) -> None:
    """A review of ``--vocab 6 --dim 3`` (now drawn whole: six rows, three columns; a
    9 x 4 table hides a few of each) and ``--vocab 1000 --dim 64`` asked that the
    labels ``rows … hidden`` (in their bands) and ``columns … hidden`` (under the
    block) keep clear of the block's lines. At every beat's end, as the block rests large
    or small, each label's ink stands at least half a SPACE (5.4 px at 720p) off every line
    the block draws (its frame, its rules, its bands' edges) and off the lookup's outline:
    CLEAR_PX (3.5 px) is the floor between text and a line elsewhere."""
    from manim import config

    from embedviz.render.design import SPACE
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("params", overrides, environ={})
    px = 720 / config.frame_height
    nearest: dict[str, float] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha != 1.0:
            return
        block = scene.stage.block
        lines = _drawn_lines(block.grid)
        outline = scene.stage.lookup.outline
        if outline is not None and moment.beat.name == "lookup":
            lines += _rectangle_sides(outline)
        for label in [*block.bands, *block.col_gap]:
            low, high = label.ink_corners()
            for x0, y0, x1, y1, half in lines:
                dx = max(0.0, x0 - high[0], low[0] - x1)
                dy = max(0.0, y0 - high[1], low[1] - y1)
                apart = (float(np.hypot(dx, dy)) - half) * px
                key = f"{moment.beat.name}: {label.text}"
                nearest[key] = min(nearest.get(key, 99.0), apart)

    play_moments(board, read, alphas=())
    assert len(nearest) >= 2 * len(board.beats), nearest
    close = {key: round(apart, 2) for key, apart in nearest.items() if apart < SPACE / 2 * px}
    assert not close, close


@pytest.mark.parametrize("overrides", [{}, {"vocab": 50257, "dim": 768}], ids=["toy", "gpt2"])
def test_the_lookup_beats_cues_are_whole_sentences(overrides: dict[str, Any]) -> None:
    """A 720p review: "A lookup itself does no arithmetic:" stood alone as a cue, a lead-in."""
    board = prepared_storyboard("ParameterCount", overrides, environ={})
    beat = next(b for b in board.beats if b.name == "lookup")
    assert len(beat.phrases) > 1
    open_cues = [p.text for p in beat.phrases if not p.text.rstrip().endswith((".", "?", "!"))]
    assert not open_cues, open_cues
