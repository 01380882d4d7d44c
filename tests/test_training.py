"""TrainingNudge: the gradient by scatter-add, the SGD step, and the scene built on them.

Core functions are checked against plain-numpy loops and exact arithmetic
(hypothesis), and against PyTorch autograd plus ``torch.optim.SGD``; the
storyboard is checked for what the scene promises: old values before the
update, new values after it, and bit-identical unchanged rows throughout.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from types import ModuleType
from typing import Any

import frame_space
import numpy as np
import pytest
import test_screen_numbers as shared
from hypothesis import given, settings
from hypothesis import strategies as st
from manim import config
from oracles.tables import seeded_table

from embedviz.core.errors import EmbedvizError
from embedviz.core.table import EmbeddingTable, TorchSeededTable
from embedviz.core.training import (
    embedding_gradient,
    embedding_gradient_rows,
    linear_loss,
    nudge_learning_rate,
    occurrences,
    sgd_step,
    toy_loss_weights,
    training_step,
)
from embedviz.inputs import prepared_storyboard
from embedviz.story.model import Storyboard
from embedviz.story.scenes import SCENES
from embedviz.story.scenes.training_nudge import (
    MAX_TRAINING_TOKENS,
    training_window,
)

SCENE = "TrainingNudge"
# The seeded init follows torch's vectorised kernel; its generic kernel
# differs by up to about 2.6e-6 (see tests/test_table_torch.py).
SEEDED_TOLERANCE = 3e-6


def _loop_gradient(ids: list[int], upstream: np.ndarray, vocab: int) -> np.ndarray:
    """The gradient the slow way: one float32 addition per occurrence, in order."""
    grad = np.zeros((vocab, upstream.shape[1]), dtype=np.float32)
    for position, token_id in enumerate(ids):
        grad[token_id] = (grad[token_id] + upstream[position]).astype(np.float32)
    return grad


id_lists = st.integers(1, 10).flatmap(
    lambda vocab: st.tuples(
        st.just(vocab),
        # Few distinct values, so repeats are common.
        st.lists(st.integers(0, vocab - 1), min_size=1, max_size=12),
    )
)


# ------------------------------------------------------------------ loss weights


def test_toy_loss_weights_are_nonzero_tenths_and_seeded() -> None:
    w = toy_loss_weights(8, 768, 123)
    assert w.dtype == np.float32
    assert w.shape == (8, 768)
    tenths = np.round(w.astype(np.float64) * 10)
    assert np.all(np.abs(tenths) >= 1)
    assert np.all(np.abs(tenths) <= 9)
    np.testing.assert_array_equal(w, (tenths / 10).astype(np.float32))
    np.testing.assert_array_equal(w, toy_loss_weights(8, 768, 123))
    assert not np.array_equal(w, toy_loss_weights(8, 768, 124))
    # Both signs, in roughly equal numbers.
    assert 0.4 < float(np.mean(w > 0)) < 0.6


@pytest.mark.parametrize(
    ("count", "dim", "seed"),
    [(0, 3, 1), (3, 0, 1), (2, 2, -(2**63) - 1), (2, 2, 2**64), (True, 2, 1)],
)
def test_toy_loss_weights_reject_bad_sizes(count: Any, dim: Any, seed: Any) -> None:
    with pytest.raises(EmbedvizError):
        toy_loss_weights(count, dim, seed)


# ------------------------------------------------------------ gradient (numpy)


@settings(max_examples=150, deadline=None)
@given(case=id_lists, dim=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_gradient_is_a_scatter_add_of_the_upstream_rows(
    case: tuple[int, list[int]], dim: int, seed: int
) -> None:
    vocab, ids = case
    upstream = np.random.default_rng(seed).standard_normal((len(ids), dim)).astype(np.float32)
    dense = embedding_gradient(ids, upstream, vocab)
    assert dense.dtype == np.float32
    assert dense.shape == (vocab, dim)
    # Bit for bit the same as adding one occurrence at a time, in input order.
    np.testing.assert_array_equal(dense, _loop_gradient(ids, upstream, vocab))
    # Only looked-up rows can be non-zero; every other row is exactly zero.
    untouched = sorted(set(range(vocab)) - set(ids))
    assert not np.any(dense[untouched])
    # The sparse form is the dense one's looked-up rows.
    rows, grad = embedding_gradient_rows(ids, upstream, vocab)
    assert rows.tolist() == sorted(set(ids))
    np.testing.assert_array_equal(grad, dense[rows])
    # A repeated ID collects one contribution per occurrence.
    for token_id in set(ids):
        where = occurrences(ids, token_id)
        assert where == [t for t, i in enumerate(ids) if i == token_id]
        exact = [math.fsum(float(upstream[t, j]) for t in where) for j in range(dim)]
        np.testing.assert_allclose(dense[token_id], exact, rtol=1e-6, atol=1e-6)


def test_a_repeated_id_accumulates_where_fancy_indexing_would_overwrite() -> None:
    upstream = np.array([[1.0], [10.0], [100.0]], dtype=np.float32)
    rows, grad = embedding_gradient_rows([2, 3, 2], upstream, 6)
    assert rows.tolist() == [2, 3]
    assert grad[:, 0].tolist() == [101.0, 10.0]
    naive = np.zeros((6, 1), dtype=np.float32)
    naive[[2, 3, 2]] += upstream  # buffered: the second 2 replaces the first
    assert naive[2, 0] == 100.0


def test_gradient_keeps_batch_shapes() -> None:
    ids = [[0, 1], [1, 1]]
    upstream = np.arange(8, dtype=np.float32).reshape(2, 2, 2)
    dense = embedding_gradient(ids, upstream, 3)
    np.testing.assert_array_equal(dense, [[0, 1], [2 + 4 + 6, 3 + 5 + 7], [0, 0]])


@pytest.mark.parametrize(
    ("ids", "upstream", "message"),
    [
        ([6], np.ones((1, 3)), "out of range"),
        ([-1], np.ones((1, 3)), "negative"),
        ([1.5], np.ones((1, 3)), "whole numbers"),
        ([], np.ones((0, 3)), "no token IDs"),
        ([[1, 2], [3]], np.ones((2, 2, 3)), "ragged"),
        ([1, 2], np.ones((3, 3)), "upstream gradient has shape"),
        ([1, 2], np.ones(3), "upstream gradient has shape"),
        ([1], np.array([[1.0, np.nan, 0.0]]), "NaN"),
        ([1], np.array([["a", "b", "c"]]), "real numbers"),
    ],
)
def test_gradient_rejects_bad_input(ids: Any, upstream: Any, message: str) -> None:
    for function in (embedding_gradient, embedding_gradient_rows):
        with pytest.raises(EmbedvizError, match=message) as error:
            function(ids, upstream, 6)
        assert "\n" not in str(error.value)


def test_dense_gradient_refuses_a_table_too_large_for_memory() -> None:
    with pytest.raises(EmbedvizError):
        embedding_gradient([0], np.ones((1, 1 << 20)), 1 << 40)


# ------------------------------------------------------------------ SGD and loss


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    shape=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    lr=st.floats(1e-4, 10.0),
)
def test_sgd_step_moves_against_the_gradient(seed: int, shape: tuple[int, int], lr: float) -> None:
    rng = np.random.default_rng(seed)
    old = rng.standard_normal(shape).astype(np.float32)
    grad = rng.standard_normal(shape).astype(np.float32)
    grad[0] = 0.0
    new = sgd_step(old, grad, lr)
    assert new.dtype == np.float32
    # A zero-gradient row comes back bit for bit.
    np.testing.assert_array_equal(new[0], old[0])
    # Correctly rounded from the exact value.
    exact = old.astype(np.float64) - float(np.float32(lr)) * grad.astype(np.float64)
    assert np.all(np.abs(new - exact) <= np.spacing(np.abs(exact).astype(np.float32)))


def test_sgd_step_with_half_is_exact() -> None:
    old = np.array([1.2753012, -0.2009531], dtype=np.float32)
    grad = np.array([1.5, 1.2], dtype=np.float32)
    np.testing.assert_array_equal(sgd_step(old, grad, 0.5), old - np.float32(0.5) * grad)


@pytest.mark.parametrize("lr", [0, -0.5, math.nan, math.inf, True, "0.5", None])
def test_sgd_step_rejects_a_bad_learning_rate(lr: Any) -> None:
    with pytest.raises(EmbedvizError, match="learning rate"):
        sgd_step(np.ones(3), np.ones(3), lr)


def test_sgd_step_rejects_mismatched_shapes() -> None:
    with pytest.raises(EmbedvizError, match="shape"):
        sgd_step(np.ones((2, 3)), np.ones((3, 2)), 0.5)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), count=st.integers(1, 8), dim=st.integers(1, 50))
def test_linear_loss_is_exactly_rounded_and_order_free(seed: int, count: int, dim: int) -> None:
    rng = np.random.default_rng(seed)
    e = rng.standard_normal((count, dim)).astype(np.float32)
    w = rng.standard_normal((count, dim)).astype(np.float32)
    exact = sum(
        (
            Fraction(float(a)) * Fraction(float(b))
            for a, b in zip(e.ravel(), w.ravel(), strict=True)
        ),
        Fraction(0),
    )
    assert linear_loss(e, w) == float(exact)
    order = rng.permutation(count)
    assert linear_loss(e[order], w[order]) == linear_loss(e, w)


def test_linear_loss_rejects_mismatched_shapes() -> None:
    with pytest.raises(EmbedvizError, match="shape"):
        linear_loss(np.ones((2, 3)), np.ones((2, 2)))


def test_training_step_on_a_large_seeded_table_reads_only_its_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ids = [464, 50256, 464, 11]
    table = TorchSeededTable.create(50257, 768, 123)
    w = toy_loss_weights(len(ids), 768, 123)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the whole table was built")

    monkeypatch.setattr(TorchSeededTable, "materialise", refuse)
    monkeypatch.setattr(EmbeddingTable, "from_seed", refuse)
    step = training_step(table, ids, w, 0.5)
    assert step.rows.tolist() == [11, 464, 50256]
    np.testing.assert_array_equal(step.grad_row(464), (w[0] + w[2]).astype(np.float32))
    np.testing.assert_array_equal(step.grad_row(0), np.zeros(768, dtype=np.float32))
    np.testing.assert_array_equal(step.after_row(11), step.before[0] - np.float32(0.5) * w[3])
    with pytest.raises(KeyError):
        step.after_row(0)
    assert step.loss_after < step.loss_before
    # Same rows as the fully built table, bit for bit.
    monkeypatch.undo()
    small = TorchSeededTable.create(60, 7, 5)
    full = small.materialise()
    w = toy_loss_weights(3, 7, 5)
    a, b = training_step(small, [59, 0, 59], w, 0.5), training_step(full, [59, 0, 59], w, 0.5)
    np.testing.assert_array_equal(a.after, b.after)
    assert a.loss_before == b.loss_before


def test_training_step_rejects_weights_of_the_wrong_width() -> None:
    table = TorchSeededTable.create(6, 3, 123)
    with pytest.raises(EmbedvizError, match="columns"):
        training_step(table, [1, 2], np.ones((2, 4)), 0.5)


# ------------------------------------------------------------------ PyTorch parity


@pytest.fixture(scope="module")
def torch_module() -> Iterator[ModuleType]:
    torch = pytest.importorskip("torch")
    with torch.random.fork_rng(devices=[]):
        yield torch


def _torch_step(
    torch: ModuleType, weight: np.ndarray, ids: list[int], w: np.ndarray, lr: float
) -> tuple[np.ndarray, np.ndarray, float, float]:
    emb = torch.nn.Embedding.from_pretrained(torch.from_numpy(weight.copy()), freeze=False)
    optimiser = torch.optim.SGD(emb.parameters(), lr=lr)
    index = torch.tensor(ids)
    loss = (emb(index) * torch.from_numpy(w)).sum()
    loss.backward()
    grad = emb.weight.grad.numpy().copy()
    optimiser.step()
    with torch.no_grad():
        after_loss = float((emb(index) * torch.from_numpy(w)).sum())
    return grad, emb.weight.detach().numpy().copy(), float(loss.detach()), after_loss


@settings(max_examples=60, deadline=None)
@given(
    case=id_lists,
    dim=st.integers(1, 6),
    seed=st.integers(0, 2**32),
    lr=st.sampled_from([0.5, 0.25, 1.0, 0.1, 0.03]),
)
def test_gradient_and_update_match_autograd_and_sgd(
    torch_module: ModuleType, case: tuple[int, list[int]], dim: int, seed: int, lr: float
) -> None:
    vocab, ids = case
    table = EmbeddingTable.from_seed(vocab, dim, seed)
    weight = np.array(table.weight)
    w = toy_loss_weights(len(ids), dim, seed)
    grad, updated, loss, after_loss = _torch_step(torch_module, weight, ids, w, lr)

    # The dense gradient, repeated IDs included, is PyTorch's bit for bit.
    np.testing.assert_array_equal(embedding_gradient(ids, w, vocab), grad)
    step = training_step(table, ids, w, lr)
    np.testing.assert_array_equal(step.grad, grad[step.rows])
    # Looked-up rows move as SGD moves them; every other row is untouched.
    tolerance = 0.0 if lr in (0.5, 0.25, 1.0) else 1e-6
    assert np.max(np.abs(step.after - updated[step.rows])) <= tolerance
    others = sorted(set(range(vocab)) - set(ids))
    np.testing.assert_array_equal(updated[others], weight[others])
    # torch sums in float32; ours is the exactly rounded sum.
    assert step.loss_before == pytest.approx(loss, rel=1e-5, abs=1e-5)
    assert step.loss_after == pytest.approx(after_loss, rel=1e-5, abs=1e-5)


def test_the_default_scene_step_matches_a_seeded_nn_embedding(torch_module: ModuleType) -> None:
    torch = torch_module
    lr = _scene_lr(_board())
    torch.manual_seed(123)
    emb = torch.nn.Embedding(6, 3)
    optimiser = torch.optim.SGD(emb.parameters(), lr=lr)
    ids = [2, 3, 2]
    w = toy_loss_weights(3, 3, 123)
    (emb(torch.tensor(ids)) * torch.from_numpy(w)).sum().backward()
    grad = emb.weight.grad.numpy().copy()
    optimiser.step()
    step = training_step(TorchSeededTable.create(6, 3, 123), ids, w, lr)
    np.testing.assert_array_equal(step.grad, grad[step.rows])
    assert np.max(np.abs(step.after - emb.weight.detach().numpy()[step.rows])) <= SEEDED_TOLERANCE
    # Row 2 (IDs at positions 0 and 2) got w_0 + w_2.
    np.testing.assert_array_equal(grad[2], w[0] + w[2])


def test_sparse_embedding_gradient_matches_the_sparse_form(torch_module: ModuleType) -> None:
    torch = torch_module
    ids = [4, 0, 4, 4, 7]
    w = toy_loss_weights(len(ids), 5, 9)
    emb = torch.nn.Embedding(9, 5, sparse=True)
    (emb(torch.tensor(ids)) * torch.from_numpy(w)).sum().backward()
    sparse = emb.weight.grad.coalesce()
    rows, grad = embedding_gradient_rows(ids, w, 9)
    assert sparse.indices()[0].tolist() == rows.tolist()
    np.testing.assert_allclose(sparse.values().numpy(), grad, rtol=0, atol=1e-6)


# ------------------------------------------------------------------ the storyboard


def _board(overrides: dict[str, Any] | None = None) -> Storyboard:
    return prepared_storyboard(SCENE, overrides, environ={})


def _scene_lr(board: Storyboard) -> float:
    """The learning rate the update beat shows (its text is the number itself)."""
    update = next(beat for beat in board.beats if beat.name == "update")
    (cell,) = [c for c in update.numbers if c.kind == "lr"]
    assert float(cell.text) == cell.value
    assert f"E ← E − {cell.text} · ∂L/∂E" in update.narration
    return cell.value


def test_scene_is_registered_in_teaching_order() -> None:
    spec = SCENES[SCENE]
    assert (spec.alias, spec.module, spec.order) == ("training", "training_nudge", 70)
    assert _board().layout == "training_nudge"
    assert list(_board().ids) == [2, 3, 2]


@pytest.mark.parametrize("overrides", [{}, *SCENES[SCENE].examples])
def test_the_update_shows_old_values_before_and_new_values_after(
    overrides: dict[str, Any],
) -> None:
    board = _board(dict(overrides))
    names = [beat.name for beat in board.beats]
    assert names[:3] == ["intro", "loss", "upstream"]
    update = names.index("update")
    looked_up = set(board.ids)
    window = board.beats[0].window
    first = {(c.kind, c.index): c for c in board.beats[0].numbers if c.kind == "weight"}
    for number, beat in enumerate(board.beats):
        weights = {c.index: c for c in beat.numbers if c.kind == "weight"}
        updated = {c.index: c for c in beat.numbers if c.kind == "updated"}
        for row in window.rows:
            for col in window.cols:
                if row in looked_up and number >= update:
                    assert (row, col) in updated
                    assert (row, col) not in weights
                    assert updated[(row, col)] != first[("weight", (row, col))]
                else:
                    # Unchanged rows keep the exact text and value in every beat.
                    assert weights[(row, col)] == first[("weight", (row, col))]
                    assert (row, col) not in updated
    # Non-looked-up rows have an exactly zero gradient on screen.
    grads = [c for c in board.beats[update].numbers if c.kind == "grad"]
    assert grads
    for cell in grads:
        if cell.index[0] not in looked_up:
            assert (cell.value, cell.text) == (0.0, "0.0000")
    marks = [t for t in board.beats[update + 1].labels.values() if t in ("nudged", "unchanged")]
    assert marks.count("nudged") == len(looked_up & set(window.rows))
    assert marks.count("unchanged") == len(set(window.rows) - looked_up)
    assert 0 < _scene_lr(board) <= 0.5


def test_the_repeated_id_shows_its_contributions_and_their_sum() -> None:
    board = _board()
    beat = next(b for b in board.beats if b.name == "accumulate")
    assert beat.highlight is not None
    assert beat.highlight.row == 2
    terms = {c.index: c.value for c in beat.numbers if c.kind == "term"}
    sums = {c.index: c.value for c in beat.numbers if c.kind == "sum"}
    assert sorted({index[0] for index in terms}) == [0, 2]
    w = toy_loss_weights(3, 3, 123)
    for col in range(3):
        assert sums[(2, col)] == float(np.float32(w[0, col] + w[2, col]))
        assert terms[(0, col)] == float(w[0, col])
    # Typst maths for ∂L/∂E[2] = w_0 + w_2, typeset on screen.
    assert "partial L \\/ partial E[2] = w_0 + w_2" in beat.labels.values()
    assert {"w_0", "+ w_2", "="} <= set(beat.labels.values())


def test_loss_goes_down_and_is_shown_before_and_after() -> None:
    board = _board()
    losses = {c.index: c.value for c in board.beats[-1].numbers if c.kind == "loss"}
    assert losses[(1,)] < losses[(0,)]
    assert all(
        (1,) not in {c.index for c in b.numbers if c.kind == "loss"}
        for b in board.beats
        if b.name != "loss-drop" and b.name != "meaning"
    )


@pytest.mark.parametrize(
    "overrides",
    [{"vocab": 50257, "dim": 768}, {}, {"vocab": 64, "dim": 5}, *SCENES[SCENE].examples],
)
def test_one_step_moves_the_loss_by_at_most_half(overrides: dict[str, Any]) -> None:
    """At GPT-2 size a step of 0.5 took L = 0.9415 to -362.8585: the step dwarfed the loss.

    The step is recomputed here with numpy from E (the seeded table, rebuilt by
    the oracles), the loss weights (their documented recipe) and the learning
    rate the scene shows; the loss must fall, by at most half of itself.
    """
    board = _board(dict(overrides))
    lr = _scene_lr(board)
    options = dict(overrides)
    ids = [int(i) for i in str(options.get("ids", "2,3,2")).split(",")]
    vocab, dim = int(options.get("vocab", 6)), int(options.get("dim", 3))
    weight, _ = seeded_table(str(options.get("init", "torch")), 123, vocab, dim)
    rng = np.random.default_rng([123, 70])
    tenths = rng.integers(1, 10, size=(len(ids), dim))
    w = (np.where(rng.random((len(ids), dim)) < 0.5, -1, 1) * tenths / 10.0).astype(np.float32)
    rows = sorted(set(ids))
    grad_rows = {row: np.zeros(dim, dtype=np.float32) for row in rows}
    for position, token_id in enumerate(ids):
        grad_rows[token_id] = (grad_rows[token_id] + w[position]).astype(np.float32)
    after = {
        row: (weight[row].astype(np.float64) - float(np.float32(lr)) * grad_rows[row]).astype(
            np.float32
        )
        for row in rows
    }

    def loss(table_row: Any) -> float:
        return math.fsum(
            float(x)
            for t, token_id in enumerate(ids)
            for x in table_row(token_id).astype(np.float64) * w[t].astype(np.float64)
        )

    before_loss, after_loss = loss(lambda row: weight[row]), loss(lambda row: after[row])
    shown = {c.index: c.text for c in board.beats[-1].numbers if c.kind == "loss"}
    assert shown == {(0,): f"{before_loss:.4f}", (1,): f"{after_loss:.4f}"}
    assert after_loss < before_loss
    assert before_loss - after_loss <= abs(before_loss) / 2 * (1 + 1e-6), (before_loss, after_loss)


def test_the_learning_rate_is_the_largest_round_rate_that_moves_the_loss_by_half() -> None:
    # Σ‖g‖² = 4 (one row, [2]): |L| = 1 allows lr·4 <= 0.5, so 0.1 (0.2 would move it 0.8).
    assert nudge_learning_rate(1.0, [[2.0]]) == 0.1
    assert nudge_learning_rate(-1.0, [[2.0]]) == 0.1
    # Σ‖g‖² = 1 + 1 = 2 over two rows: |L| = 2 allows lr <= 0.5.
    assert nudge_learning_rate(2.0, [[1.0], [1.0]]) == 0.5
    # A loss at zero, or a gradient too large for any rate: the smallest, never zero.
    assert nudge_learning_rate(0.0, [[1.0]]) == 0.0001
    # A zero gradient moves nothing at any rate: the largest.
    assert nudge_learning_rate(0.3, [[0.0, 0.0]]) == 0.5


def test_narration_fits_two_caption_lines() -> None:
    cases = [{}, *SCENES[SCENE].examples, {"ids": "5,5,5,5,5,5,5,5"}, {"ids": "0,1,2,3,4,5"}]
    for overrides in cases:
        for beat in _board(dict(overrides)).beats:
            assert len(beat.narration.split()) <= 25, beat.narration


@pytest.mark.parametrize(
    "overrides", [{}, {"vocab": 50257, "dim": 768}, {"vocab": 30, "dim": 16}, {"seed": 1}]
)
def test_a_loss_below_zero_is_explained(overrides: dict[str, Any]) -> None:
    """A class that sees the toy loss fall below zero is told why (it has no floor)."""
    board = _board(dict(overrides))
    losses = {
        cell.index: float(cell.text)
        for beat in board.beats
        for cell in beat.numbers
        if cell.kind == "loss"
    }
    drop = next(beat for beat in board.beats if beat.name == "loss-drop")
    below = losses[(1,)] < 0 and losses[(1,)] < losses[(0,)]
    assert ("no floor" in drop.narration) is below, (losses, drop.narration)
    assert ("went down" in drop.narration) is (losses[(1,)] < losses[(0,)])


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"ids": "6"}, "out of range for a vocabulary of 6"),
        ({"ids": "-1"}, "negative"),
        ({"ids": "2,3;5,1"}, "shows one sequence"),
        ({"ids": ",".join(["1"] * (MAX_TRAINING_TOKENS + 1))}, "at most 8 tokens"),
        ({"ids": "1,x"}, "not a whole-number token ID"),
        ({"vocab": 0}, "vocabulary size V must be at least 1"),
        ({"dim": -3}, "embedding dimension d must be at least 1"),
    ],
)
def test_bad_input_is_one_line(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(EmbedvizError, match=message) as error:
        _board(overrides)
    assert "\n" not in str(error.value)


def test_training_window() -> None:
    small = training_window(6, 3, [2, 3, 2])
    assert small.rows == (0, 1, 2, 3, 4, 5)
    assert small.cols == (0, 1, 2)
    assert small.row_gaps == small.col_gaps == ()
    big = training_window(50257, 768, [464, 50256, 464, 0])
    # The looked-up rows, the first row no ID selects, and the last row.
    assert big.rows == (0, 1, 464, 50256)
    assert big.cols == (0, 767)
    assert [g.label for g in big.row_gaps] == ["rows 2–463 hidden", "rows 465–50255 hidden"]
    assert [g.label for g in big.col_gaps] == ["columns 1–766 hidden"]
    assert training_window(9, 4, [8]).rows == (0, 8)


# Layout limits: the most tokens, all one ID (the longest column sum), and the
# most scattered IDs in a large table must still fit the frame without overlaps.
EXTREMES = [
    {"ids": "5,5,5,5,5,5,5,5"},
    {"ids": "0,9,20,31,42,53,64,50256", "vocab": 50257, "dim": 768},
]


@pytest.mark.parametrize("overrides", EXTREMES)
def test_extreme_layouts_fit_and_show_real_values(
    dry_run_cache: Any, overrides: dict[str, Any]
) -> None:
    shared.test_every_number_on_screen_is_a_real_value(dry_run_cache, SCENE, overrides)
    shared.test_text_stays_in_frame_and_does_not_overlap(dry_run_cache, SCENE, overrides)


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides", [{}, {"vocab": 50257, "dim": 768, "ids": "4821,12000,4821,33000,17"}]
)
def test_the_frame_is_used_once_the_gradient_fills(overrides: dict[str, Any]) -> None:
    """From the scatter on, no empty area is larger than about an eighth of the frame.

    The column sum stays under the gradient once worked out, and the marks
    and the update rule fill the rest.
    """
    shares = frame_space.empty_shares(SCENE, overrides)
    names = list(shares)
    late = {name: shares[name] for name in names[names.index("scatter") :]}
    roomy = {name: f"{share:.0%}" for name, share in late.items() if share > frame_space.EIGHTH}
    assert not roomy, roomy


def test_the_loss_after_the_step_keeps_clear_of_the_update_rule() -> None:
    # At GPT-2 size a loss after the step such as -129.8594: drawn where the loss line
    # starts, it ran into "E <- E - 0.5 dL/dE" on the same line ("-362.8585E").
    from conftest import RecordingHost

    from embedviz.render.design import SPACE
    from embedviz.render.stages.training_nudge import TrainingStage
    from embedviz.render.theme import DARK

    options = {"vocab": 50257, "dim": 768, "ids": "5,5,5,5,5,5,5,5", "seed": 4}
    stage = TrainingStage(
        RecordingHost(), prepared_storyboard("TrainingNudge", options, environ={}), DARK
    )
    after = stage.weights.loss_after
    assert after is not None
    assert len(after.cell.text) >= 9  # the long value this case is about
    # The loss line rests in the middle with the weights until the scatter glides it
    # home (stage.rest to the right); the rule comes after that.
    gap = stage.step.rule.get_left()[0] - (after.get_right()[0] - stage.rest)
    assert gap >= 2 * SPACE  # wider than the SPACE between the pieces of one line
    assert stage.weights.formula.get_left()[0] - stage.rest >= -float(config.frame_width) / 2
