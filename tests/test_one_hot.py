"""One-hot vectors, the product one_hot(i) @ E, its cost, and the OneHotEquivalence story.

Why the equality ``one_hot(i) @ E == E[i]`` is exact, not just close: every
product in the sum for column ``j`` is either ``0 × E[k, j]``, an exact zero
(signed, but a zero), or ``1 × E[i, j]``, exactly ``E[i, j]``. Adding exact
zeros to one value returns that value, whatever the order of the additions
(pairwise, blocked, several accumulators) and whether or not they are fused
(``fma(0, x, acc) == acc``), so numpy's BLAS kernels, PyTorch's and a plain
loop all give the same float32 bits. The only exception is the sign of a zero
(``-0.0 + 0.0 == +0.0``), which compares equal; and a NaN or infinity anywhere
in the column, since ``0 × inf`` is NaN.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import SilentHost
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import embedviz.core.one_hot as one_hot_module
from embedviz.cli import main
from embedviz.core.errors import EmbedvizError
from embedviz.core.one_hot import multiply_adds, one_hot, one_hot_matmul
from embedviz.core.table import EmbeddingTable
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.one_hot import (
    GPT2_DIM,
    GPT2_VOCAB,
    build_one_hot_equivalence,
    one_hot_gap_label,
    one_hot_window,
    term_gap_label,
)


def _one_line_error(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(EmbedvizError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert message
    assert "\n" not in message
    return message


@st.composite
def tables_and_ids(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    vocab = draw(st.integers(1, 40))
    dim = draw(st.integers(1, 12))
    # Every finite float32, subnormals and both zeros included.
    values = st.floats(width=32, allow_nan=False, allow_infinity=False)
    weight = draw(hnp.arrays(np.float32, (vocab, dim), elements=values))
    ids = draw(hnp.arrays(np.int64, draw(st.integers(1, 6)), elements=st.integers(0, vocab - 1)))
    return weight, ids


# --------------------------------------------------------------------- one_hot


def test_one_hot_default_example() -> None:
    vector = one_hot(3, 6)
    assert vector.dtype == np.float32
    assert vector.tolist() == [0, 0, 0, 1, 0, 0]


def test_one_hot_keeps_the_shape_of_the_ids() -> None:
    assert one_hot([2, 3, 5, 1], 6).shape == (4, 6)
    batch = one_hot([[2, 3], [5, 1]], 6)
    assert batch.shape == (2, 2, 6)
    assert batch.argmax(axis=-1).tolist() == [[2, 3], [5, 1]]
    assert batch.sum(axis=-1).tolist() == [[1, 1], [1, 1]]


@given(
    vocab=st.integers(1, 500),
    data=st.data(),
)
@settings(max_examples=60, deadline=None)
def test_one_hot_has_a_single_one_where_the_id_is(vocab: int, data: st.DataObject) -> None:
    ids = data.draw(st.lists(st.integers(0, vocab - 1), min_size=1, max_size=8))
    vectors = one_hot(ids, vocab)
    assert vectors.shape == (len(ids), vocab)
    assert set(np.unique(vectors).tolist()) <= {0.0, 1.0}
    assert (vectors.sum(axis=1) == 1).all()
    assert vectors.argmax(axis=1).tolist() == ids


@pytest.mark.parametrize(
    ("ids", "fragment"),
    [
        (6, "out of range"),
        ([3, -1], "negative"),
        ([True], "boolean"),
        ([1.5], "non-integer"),
        ([], "no token IDs"),
        ([[1, 2], [3]], "ragged"),
    ],
)
def test_one_hot_refuses_bad_ids(ids: Any, fragment: str) -> None:
    assert fragment in _one_line_error(one_hot, ids, 6)


@pytest.mark.parametrize("vocab", [0, -3, True, 2.0, "6", None])
def test_one_hot_refuses_a_bad_vocabulary_size(vocab: Any) -> None:
    assert "vocabulary size V" in _one_line_error(one_hot, 0, vocab)


def test_one_hot_refuses_vectors_that_do_not_fit_before_allocating(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Only the module under test is told that memory is short; numpy is left alone.
    monkeypatch.setattr(one_hot_module, "available_memory_bytes", lambda: 1_000_000)
    tracemalloc.start()
    try:
        message = _one_line_error(one_hot, list(range(100)), 50257)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "memory" in message
    assert "100 one-hot vectors of length 50,257" in message
    # The vectors would take 100 x 50257 x 4 bytes = 19 MiB; numpy reports its
    # buffers to tracemalloc, so nearly nothing was allocated.
    assert peak < 1 * 2**20


# ------------------------------------------------------- the product is the lookup


def test_default_product_is_row_three() -> None:
    table = EmbeddingTable.from_seed()
    product = one_hot_matmul(one_hot(3, 6), table.weight)
    assert product.dtype == np.float32
    assert product.tobytes() == table.weight[3].tobytes()
    assert [f"{v:.4f}" for v in product] == ["-0.4015", "0.9666", "-1.1481"]


@given(tables_and_ids())
@settings(max_examples=200, deadline=None)
def test_one_hot_times_e_equals_the_lookup_exactly(case: tuple[np.ndarray, np.ndarray]) -> None:
    weight, ids = case
    product = one_hot_matmul(one_hot(ids, weight.shape[0]), weight)
    looked_up = weight[ids]
    assert product.dtype == np.float32
    assert product.shape == looked_up.shape
    # Exact equality, not allclose (see the module docstring for why it holds).
    assert np.array_equal(product, looked_up)
    # Bit for bit too, except that -0.0 may come back as +0.0.
    nonzero = looked_up != 0
    assert (product.view(np.uint32)[nonzero] == looked_up.view(np.uint32)[nonzero]).all()


def test_the_equality_needs_finite_values() -> None:
    weight = np.array([[1.0, 2.0], [np.inf, 3.0], [4.0, 5.0]], dtype=np.float32)
    product = one_hot_matmul(one_hot(0, 3), weight)
    # 0 × inf is NaN: the product breaks where the lookup would not.
    assert np.isnan(product[0])
    assert product[1] == 2.0


def test_one_hot_matmul_checks_shapes() -> None:
    weight = np.zeros((6, 3), dtype=np.float32)
    assert "6 rows" in _one_line_error(one_hot_matmul, one_hot(1, 5), weight)
    assert "2-D" in _one_line_error(one_hot_matmul, one_hot(1, 6), np.zeros(6, np.float32))


# --------------------------------------------------------------------- parity


@pytest.fixture(scope="module")
def torch() -> Any:
    return pytest.importorskip("torch")


@given(case=tables_and_ids())
@settings(max_examples=60, deadline=None)
def test_parity_with_torch_one_hot_and_embedding(
    torch: Any, case: tuple[np.ndarray, np.ndarray]
) -> None:
    functional = torch.nn.functional
    weight, ids = case
    vocab = weight.shape[0]
    ids_t = torch.from_numpy(ids)
    weight_t = torch.from_numpy(weight)
    theirs_vectors = functional.one_hot(ids_t, vocab).float()
    assert np.array_equal(one_hot(ids, vocab), theirs_vectors.numpy())
    theirs_product = (theirs_vectors @ weight_t).numpy()
    theirs_lookup = functional.embedding(ids_t, weight_t).numpy()
    assert np.array_equal(theirs_product, theirs_lookup)
    assert np.array_equal(one_hot_matmul(one_hot(ids, vocab), weight), theirs_product)


def test_parity_with_torch_for_a_single_id_on_the_seeded_table(torch: Any) -> None:
    functional = torch.nn.functional
    table = EmbeddingTable.from_seed()
    weight_t = torch.from_numpy(np.array(table.weight))
    vector = functional.one_hot(torch.tensor(3), 6).float()
    assert vector.shape == (6,)
    assert one_hot(3, 6).shape == (6,)
    theirs = (vector @ weight_t).numpy()
    assert theirs.tobytes() == functional.embedding(torch.tensor(3), weight_t).numpy().tobytes()
    assert theirs.tobytes() == one_hot_matmul(one_hot(3, 6), table.weight).tobytes()


# ------------------------------------------------------------------ the cost


def test_multiply_adds_examples() -> None:
    assert multiply_adds(6, 3) == 18
    assert multiply_adds(50257, 768) == 38_597_376
    assert multiply_adds(50257, 768, tokens=1024) == 38_597_376 * 1024


@given(st.integers(1, 10**7), st.integers(1, 10**5), st.integers(1, 10**6))
def test_multiply_adds_is_v_times_d_per_token(vocab: int, dim: int, tokens: int) -> None:
    count = multiply_adds(vocab, dim, tokens)
    assert isinstance(count, int)
    # One multiply-add per entry of E per token: the one-hot product's own shape.
    assert count == vocab * dim * tokens


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((0, 3), "vocabulary size V"),
        ((6, -1), "embedding dimension d"),
        ((6, 3, 0), "number of tokens"),
        ((True, 3), "vocabulary size V"),
        ((6, 2.5), "embedding dimension d"),
    ],
)
def test_multiply_adds_refuses_bad_counts(args: tuple[Any, ...], name: str) -> None:
    assert name in _one_line_error(multiply_adds, *args)


# --------------------------------------------------------------- the storyboard


def test_storyboard_product_equals_lookup_and_costs() -> None:
    board = build_one_hot_equivalence(SceneOptions())
    assert board.layout == "one_hot"
    assert [beat.name for beat in board.beats] == [
        "intro", "one-hot", "terms", "sum", "column-1", "columns", "compare", "cost", "copy",
    ]  # fmt: skip
    last = {(c.kind, c.index): c for c in board.beats[-1].numbers}
    for col in range(3):
        assert last[("product", (col,))].value == last[("output", (0, col))].value
        assert last[("product", (col,))].text == last[("output", (0, col))].text
    assert last[("multiply_adds", (0,))].text == "18"
    assert last[("multiply_adds", (1,))].text == "38,597,376"
    assert last[("multiply_adds", (2,))].text == "0"
    assert last[("copy_count", (0,))].text == "3"
    assert (GPT2_VOCAB, GPT2_DIM) == (50257, 768)
    sum_beat = board.beats[3]
    terms = {c.index: c for c in sum_beat.numbers if c.kind == "term_weight"}
    assert [terms[(0, k)].text for k in range(6)] == [
        "0.3374", "0.9178", "1.2753", "-0.4015", "-1.1589", "-2.8400",
    ]  # fmt: skip
    for beat in board.beats:
        assert len(beat.narration.split()) <= 25, beat.name


def test_storyboard_for_a_large_table_elides_vector_and_matrix_alike() -> None:
    board = build_one_hot_equivalence(SceneOptions(ids=[4821], vocab=50257, dim=768))
    beat = board.beats[1]
    assert beat.window.rows == (0, 1, 2, 4820, 4821, 4822, 50256)
    assert "entries 3\u20134819 are 0" in beat.labels.values()
    assert "entries 4823\u201350255 are 0" in beat.labels.values()
    assert "rows 3\u20134819 hidden" in beat.labels.values()
    shown = {c.index[0]: c.text for c in beat.numbers if c.kind == "one_hot"}
    assert shown == {row: "1" if row == 4821 else "0" for row in beat.window.rows}


@given(vocab=st.integers(1, 100_000), dim=st.integers(1, 2000), data=st.data())
def test_window_rows_and_gaps_cover_the_table_once(vocab: int, dim: int, data: Any) -> None:
    token = data.draw(st.integers(0, vocab - 1))
    window = one_hot_window(vocab, dim, token)
    assert token in window.rows
    assert 0 in window.cols
    for shown, gaps, size in (
        (window.rows, window.row_gaps, vocab),
        (window.cols, window.col_gaps, dim),
    ):
        covered = list(shown) + [i for gap in gaps for i in range(gap.first, gap.last + 1)]
        assert sorted(covered) == list(range(size))
        assert not set(shown) & {i for gap in gaps for i in range(gap.first, gap.last + 1)}
    assert len(window.rows) <= 8
    assert len(window.cols) <= 4


def test_gap_labels() -> None:
    assert one_hot_gap_label(6, 4818) == "entries 6\u20134818 are 0"
    assert one_hot_gap_label(7, 7) == "entry 7 is 0"
    assert term_gap_label(6, 4818) == "+ terms 6\u20134818: all 0"
    assert term_gap_label(7, 7) == "+ term 7: 0"


def test_storyboard_refuses_more_than_one_id() -> None:
    message = _one_line_error(build_one_hot_equivalence, SceneOptions(ids=[2, 3]))
    assert "one one-hot vector" in message


def test_storyboard_refuses_a_table_whose_product_would_differ(tmp_path: Path) -> None:
    weight = np.ones((20, 3), dtype=np.float32)
    weight[10, 1] = np.inf  # a hidden row: the grid never draws it
    path = tmp_path / "inf.npy"
    np.save(path, weight)
    message = _one_line_error(build_one_hot_equivalence, SceneOptions(weights=str(path)))
    assert "NaN or infinity" in message


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--ids", "6"], "out of range"),
        (["--ids", "1,2"], "one one-hot vector"),
        (["--vocab", "0"], "at least 1"),
        (["--ids", "-1"], "negative"),
    ],
)
def test_cli_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    status = main(["storyboard", "onehot", *argv])
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    assert fragment in err


# ----------------------------------------------------------------- the drawing


def _stage(options: SceneOptions) -> Any:
    from embedviz.render.stages.one_hot import OneHotStage
    from embedviz.render.theme import DARK

    return OneHotStage(SilentHost(), build_one_hot_equivalence(options), DARK)


@pytest.mark.parametrize(("token", "vocab", "dim"), [(3, 6, 3), (4821, 50257, 768), (0, 1, 1)])
def test_the_product_is_typeset_with_the_real_id(token: int, vocab: int, dim: int) -> None:
    from manim import MathTypst

    options = SceneOptions(ids=[token], vocab=vocab, dim=dim)
    stage = _stage(options)
    formula = stage.compare.formula
    assert isinstance(formula, MathTypst)
    compare = next(beat for beat in stage.board.beats if beat.name == "compare")
    assert formula.text == compare.label("product_formula")
    # The ID the options asked for, on both sides, in Typst's maths syntax.
    assert formula.text == f'"one_hot"({token}) thin E = E[{token}]'
    # Typeset, not plain text: one glyph outline per symbol, none of the quotes.
    glyphs = [m for m in formula.family_members_with_points() if m is not formula]
    assert len(glyphs) >= len("one_hot()E=E[]") + 2 * len(str(token))


def test_the_equals_signs_between_the_rows_stand_upright() -> None:
    stage = _stage(SceneOptions())
    assert len(stage.compare.equals) == 3
    for mark in stage.compare.equals:
        assert mark.text == "="
        # Two level bars: their ink is much wider than tall (turned a quarter,
        # it would read as "‖"). The last 8 points are the invisible slot box.
        ink = mark.points[:-8]
        width, height = np.ptp(ink[:, 0]), np.ptp(ink[:, 1])
        assert width > 1.5 * height
        product, lookup = stage.product.product.body, stage.compare.lookup.body
        assert (
            lookup.get_top()[1] < mark.get_bottom()[1] < mark.get_top()[1] < product.get_bottom()[1]
        )


def test_vector_entries_and_terms_sit_level_with_their_rows() -> None:
    stage = _stage(SceneOptions(ids=[4821], vocab=50257, dim=768))
    tolerance = stage.plan.sizes.row_height * 0.1
    for row in stage.board.beats[0].window.rows:
        y = stage.matrix.grid.row_labels[row].get_center()[1]
        assert stage.vector.entries[row].get_center()[1] == pytest.approx(y, abs=tolerance)
        _, factor, _, weight, *_ = stage.product.terms.lines[row]
        assert factor.get_center()[1] == pytest.approx(y, abs=tolerance)
        assert weight.get_center()[1] == pytest.approx(y, abs=tolerance)
    # Each hidden range's term line sits on E's (shorter) band, and so do both its labels.
    grid = stage.matrix.grid
    bands = [grid.row_y(n, gap=True) for n in range(len(grid.gap_labels))]
    for gap_line, band in zip(stage.product.terms.gap_lines, bands, strict=True):
        assert gap_line.get_center()[1] == pytest.approx(band, abs=tolerance)
    half_row = stage.plan.sizes.row_height / 2
    for number, band in enumerate(bands):
        mine, theirs = stage.vector.gap_labels[number], grid.gap_labels[number]
        # The vector's label over E's, both beside the band ...
        assert abs(mine.get_center()[1] - band) < half_row
        assert abs(theirs.get_center()[1] - band) < half_row
        assert mine.get_center()[1] > theirs.get_center()[1]
        # ... in the margin, left of the vector: never between E's rows.
        for label in (mine, theirs):
            assert label.get_right()[0] < stage.vector.grid.body_left()


def test_the_vector_is_labelled_as_drawn_on_its_side() -> None:
    """Issue 18: OneHot labelled a vertical column "1 × 6"; a shape matches its drawing."""
    stage = _stage(SceneOptions())
    title, shape = stage.vector.title
    # Drawn as a column of V entries: one_hot(3) transposed, V × 1.
    assert title.text == '"one_hot"(3)^T'
    assert [m.text for m in shape] == ["6", "\u00d7", "1"]
    assert stage.vector.grid.height > 5 * stage.vector.grid.width
    # The product's row is drawn across, 1 × d, as it is labelled.
    _, product_shape = stage.product.title
    assert [m.text for m in product_shape] == ["1", "\u00d7", "3"]
    assert stage.product.product.width > 5 * stage.product.product.height


@pytest.mark.slow
def test_the_typeset_product_shows_from_the_comparison_on_clear_of_other_text(
    dry_run_cache: Any,
) -> None:
    run = dry_run_cache("OneHotEquivalence", {"ids": "4821", "vocab": 50257, "dim": 768})
    label = '"one_hot"(4821) thin E = E[4821]'
    for checkpoint in run.checkpoints:
        shown = [box for text, box in checkpoint.boxes if text == label]
        later = checkpoint.beat.name in ("compare", "cost", "copy")
        assert len(shown) == (1 if later else 0), checkpoint.beat.name
        for (low, high), (text, (other_low, other_high)) in (
            (shown[0], item) for item in checkpoint.boxes if shown and item[1] is not shown[0]
        ):
            width = min(high[0], other_high[0]) - max(low[0], other_low[0])
            height = min(high[1], other_high[1]) - max(low[1], other_low[1])
            assert width <= 0.01 or height <= 0.01, f"{checkpoint.beat.name}: over {text!r}"


def test_the_stage_is_composed_of_parts() -> None:
    from embedviz.render.parts.lookup import MatrixPart
    from embedviz.render.parts.one_hot import CostTable, OneHotColumn
    from embedviz.render.parts.product import ComparePart, ProductPart
    from embedviz.render.stage import Stage
    from embedviz.render.stages.lookup import LookupStage

    stage = _stage(SceneOptions())
    assert isinstance(stage, Stage)
    assert not isinstance(stage, LookupStage)
    kinds = [type(part) for part in stage.parts]
    assert kinds == [MatrixPart, OneHotColumn, ProductPart, ComparePart, CostTable]
    # Every beat but the intro is a part's; the stage has no handler of its own for them.
    for name in ("one_hot", "terms", "sum", "columns", "compare", "cost", "copy"):
        assert not hasattr(type(stage), f"beat_{name}")
    for name in ("cost", "copy"):
        beat = next(b for b in stage.board.beats if b.name == name)
        assert stage.animate(beat) is not None


@pytest.mark.parametrize(("token", "vocab", "dim"), [(3, 6, 3), (4821, 50257, 768)])
def test_the_vector_stands_apart_from_the_row_numbers(token: int, vocab: int, dim: int) -> None:
    """Review 9: the entries stood flush against E's row numbers ("0 3" read as 03)."""
    from embedviz.render.design import FRAMED_COLUMNS_APART

    stage = _stage(SceneOptions(ids=[token], vocab=vocab, dim=dim))
    vector, labels = stage.vector.grid, stage.matrix.grid.row_labels
    centre = vector.body_left() + stage.plan.vector_width / 2
    for row, entry in stage.vector.entries.items():
        label_bottom_left, _ = labels[row].slot_corners()
        # The vector's frame, a clear gap, then the row number ...
        assert label_bottom_left[0] - vector.body_right() >= FRAMED_COLUMNS_APART - 1e-6
        # ... and each entry in the middle of its cell, not at its edge by the row number.
        low, high = entry.slot_corners()
        assert (low[0] + high[0]) / 2 == pytest.approx(centre, abs=1e-6)


# Several samples of each step: glides and pull-backs last about a second.
_STEP_ALPHAS = (0.1, 0.3, 0.5, 0.7, 0.9)
# The beats where the chip stands for the ID beside E, before it fetches its row.
_BEFORE_THE_LOOKUP = ("intro", "one-hot", "terms", "sum", "columns")


@pytest.mark.parametrize(
    "overrides", [{}, {"ids": "4821", "vocab": 50257, "dim": 768}], ids=["default", "gpt2"]
)
def test_the_chip_stands_level_with_its_row_until_it_fetches_it(overrides: dict[str, Any]) -> None:
    """Review 10 (terms, sum, columns: 16-38 s): the chip "3" stood level with row 0 and
    its term ``0 × 0.3374``, row 3 far below it, so one could not follow the ID.

    At every sample until the compare beat, the chip is level with the row its
    ID selects (the one-hot's 1), and with no other.
    """
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("OneHotEquivalence", overrides, environ={})
    token = board.single_id()
    off: list[str] = []
    seen: set[str] = set()

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name not in _BEFORE_THE_LOOKUP:
            return
        stage = scene.stage
        labels = stage.matrix.grid.row_labels
        ys = {row: float(label.get_center()[1]) for row, label in labels.items()}
        pitch = float(np.diff(sorted(ys.values())).min())
        chip = float(stage.compare.chip.get_center()[1])
        nearest = min(ys, key=lambda row: abs(ys[row] - chip))
        seen.add(moment.beat.name)
        if nearest != token or abs(ys[token] - chip) > 0.25 * pitch:
            where = f"{moment.beat.name} step {moment.step} at {moment.alpha}"
            off.append(f"{where}: level with row {nearest}, {chip - ys[token]:+.2f} from {token}")

    # Only the beats read are sampled: the others play unsampled (tests/test_moment_beats.py).
    beats = set(_BEFORE_THE_LOOKUP)
    play_moments(board, read, alphas=_STEP_ALPHAS, pixel_width=192, pixel_height=108, beats=beats)
    assert seen == set(_BEFORE_THE_LOOKUP)
    assert not off, "\n".join(off)


# The sum's copy climbs for 1.2 s of a step about 2 s long: samples a few px apart.
_CLIMB_ALPHAS = tuple(float(a) for a in np.linspace(0.02, 0.98, 49))
# The least gap (px at 720p) between the travelling sum and any text it passes.
_CLEAR_PX = 3.0


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    """Return the gap between two boxes ((left, bottom), (right, top)); negative if they overlap."""
    return float(max(b[0][0] - a[1][0], a[0][0] - b[1][0], b[0][1] - a[1][1], a[0][1] - b[1][1]))


def _texts_on_screen(scene: Any, skip: set[int]) -> list[Any]:
    """Return every text drawn (not faded out), outermost first, but those in ``skip``."""
    from embedviz.render.formula import FormulaText
    from embedviz.render.glyphs import GlyphString, SansText

    found: dict[int, Any] = {}
    for top in scene.mobjects:
        for mobject in top.get_family():
            if id(mobject) in skip or id(mobject) in found:
                continue
            if isinstance(mobject, (GlyphString, SansText, FormulaText)):
                family = mobject.get_family()
                if max(float(m.get_fill_opacity()) for m in family) > 0.01:
                    found[id(mobject)] = mobject
                skip |= {id(m) for m in family}
    return list(found.values())


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"ids": "4821", "vocab": 50257, "dim": 768},
        {"theme": "light"},
        {"ids": "4821", "vocab": 50257, "dim": 768, "theme": "light"},
    ],
    ids=["default", "gpt2", "light", "gpt2-light"],
)
def test_the_sum_climbs_clear_of_every_text(overrides: dict[str, Any]) -> None:
    """Review (GPT-2's sum beat): the sum's copy, climbing to the product's row,
    went through the line "+ terms 4823–50255: all 0" that stands for the hidden terms.

    At every sample of the sum beat, mid-motion included, the travelling sum
    stands at least 3 px (at 720p) from every text on screen but the sum it
    copies, which it sets off from (tests/test_one_hot_travel.py).
    """
    from conftest import box_of
    from manim import config

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("OneHotEquivalence", overrides, environ={})
    close: list[str] = []
    travelled: list[float] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name != "sum":
            return
        product = scene.stage.product
        copy = product.cells[product.column]
        shown = {id(m) for top in scene.mobjects for m in top.get_family()}
        if id(copy) not in shown or float(copy.get_fill_opacity()) <= 0.01:
            return
        px = 720 / float(config.frame_height)
        box = box_of(copy)
        travelled.append(float(box[1][1]))
        source = [*copy.get_family(), *product.terms.total.get_family()]
        for text in _texts_on_screen(scene, {id(m) for m in source}):
            gap = _gap(box, box_of(text)) * px
            if gap < _CLEAR_PX:
                where = f"step {moment.step} at {moment.alpha:.2f}"
                close.append(f"{where}: {gap:.1f} px from {getattr(text, 'text', text)!r}")

    # Only the sum beat is read: the others play unsampled (tests/test_moment_beats.py).
    play_moments(
        board, read, alphas=_CLIMB_ALPHAS, pixel_width=192, pixel_height=108, beats={"sum"}
    )
    # The copy was seen on its way: low (at the sum) and high (at the product's row).
    assert travelled, "the sum's copy was never on screen"
    assert max(travelled) - min(travelled) > 1.0
    assert not close, "\n".join(close)
