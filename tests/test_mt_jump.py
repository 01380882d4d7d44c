"""Jumping an MT19937 ahead must land exactly where numpy's own walk does.

The oracle is always numpy drawing the skipped values (``random_raw``) and
the state it is left in, never the jump code.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import embedviz.core.torch_init as torch_init
from embedviz.core.mt_jump import (
    MTJumper,
    characteristic_polynomial,
    jump_mt19937,
    x_power_mod,
)
from embedviz.core.torch_init import torch_normal, torch_normal_rows

DEFAULT_SEED = 123
EDGES = [0, 1, 2, 623, 624, 625, 1247, 1248, 1249, 19937, 19938, 20560, 20561]


def seeded(seed: int) -> np.random.MT19937:
    """A generator in the state torch.manual_seed(seed) leaves (the project's way)."""
    bit_gen = np.random.MT19937(0)
    bit_gen.state = torch_init._seeded_mt19937(seed).state
    return bit_gen


def walked(start: np.random.MT19937, steps: int) -> dict[str, Any]:
    """The oracle: a copy of ``start`` after numpy draws ``steps`` values."""
    copy = np.random.MT19937(0)
    copy.state = start.state
    copy.random_raw(steps, output=False)
    state: dict[str, Any] = copy.state
    return state


def assert_same_state(got: np.random.MT19937, want: dict[str, Any]) -> None:
    state = got.state
    assert state["bit_generator"] == "MT19937"
    assert int(state["state"]["pos"]) == int(want["state"]["pos"])
    assert np.array_equal(state["state"]["key"], want["state"]["key"])


def test_the_polynomial_has_degree_19937_and_annihilates_another_stream() -> None:
    poly = characteristic_polynomial()
    assert poly.bit_length() == 19937 + 1
    assert poly & 1  # x does not divide it (A is invertible)
    # An independent stream (another seed, another output bit) satisfies the
    # recurrence P gives: sum_j p_j s[i + j] = 0 for every i.
    raw = np.random.MT19937(2024).random_raw(19937 + 200)
    bits = ((raw >> np.uint64(5)) & np.uint64(1)).astype(np.uint8)
    taps = np.flatnonzero([(poly >> j) & 1 for j in range(19938)])
    for i in range(0, 200, 7):
        assert int(bits[i + taps].sum()) % 2 == 0


def test_the_polynomial_is_computed_once() -> None:
    assert characteristic_polynomial() is characteristic_polynomial()


def test_small_powers_of_x_need_no_reduction() -> None:
    assert x_power_mod(0) == 1
    assert x_power_mod(19936) == 1 << 19936
    assert x_power_mod(19937) == characteristic_polynomial() ^ (1 << 19937)


@pytest.mark.parametrize("steps", EDGES)
def test_jumps_from_the_default_seed_match_the_walk(steps: int) -> None:
    start = seeded(DEFAULT_SEED)
    assert_same_state(jump_mt19937(start, steps), walked(start, steps))


@pytest.mark.parametrize("drawn", [1, 100, 623, 624, 625, 1000])
@pytest.mark.parametrize("steps", [*EDGES, 10**6 + 7])
def test_jumps_from_any_position_match_the_walk(drawn: int, steps: int) -> None:
    start = seeded(7)
    start.random_raw(drawn)
    assert_same_state(jump_mt19937(start, steps), walked(start, steps))


@settings(max_examples=30)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    drawn=st.integers(min_value=0, max_value=5000),
    steps=st.integers(min_value=0, max_value=10**7),
)
def test_random_jumps_match_the_walk(seed: int, drawn: int, steps: int) -> None:
    start = seeded(seed)
    start.random_raw(drawn, output=False)
    assert_same_state(jump_mt19937(start, steps), walked(start, steps))


def test_one_jumper_serves_many_jumps_and_leaves_its_start_alone() -> None:
    start = seeded(DEFAULT_SEED)
    before = start.state
    jumper = MTJumper(start)
    for steps in [3_000_001, 5, 9_999_984, 624 * 4000, 0]:
        jumped = jumper.advanced(steps)
        assert_same_state(jumped, walked(start, steps))
        # The jumped generator keeps drawing the same stream.
        tail = walked(start, steps)
        oracle = np.random.MT19937(0)
        oracle.state = tail
        assert np.array_equal(jumped.random_raw(1000), oracle.random_raw(1000))
    assert_same_state(start, before)


def test_a_far_jump_equals_a_chain_of_near_ones() -> None:
    # 2**33 draws cannot be walked in a test; jumping twice must agree with once.
    start = seeded(DEFAULT_SEED)
    far = jump_mt19937(start, 2**33 + 12345)
    middle = jump_mt19937(start, 2**33)
    assert_same_state(far, walked(middle, 12345))
    assert_same_state(jump_mt19937(middle, 12345), far.state)


def test_negative_jumps_are_refused() -> None:
    with pytest.raises(ValueError, match="steps"):
        jump_mt19937(seeded(1), -1)


class CountingJumper(MTJumper):
    jumps: ClassVar[list[int]] = []

    def advanced(self, steps: int) -> np.random.MT19937:
        CountingJumper.jumps.append(steps)
        return super().advanced(steps)


@pytest.fixture
def counted_jumps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    CountingJumper.jumps = []
    monkeypatch.setattr(torch_init, "MTJumper", CountingJumper)
    return CountingJumper.jumps


@pytest.mark.parametrize("kernel", ["vectorized", "scalar"])
@pytest.mark.parametrize(("vocab", "dim"), [(4000, 24), (3001, 7), (70001, 3)])
def test_rows_far_apart_are_jumped_to_and_equal_the_full_table(
    monkeypatch: pytest.MonkeyPatch,
    counted_jumps: list[int],
    kernel: torch_init.Kernel,
    vocab: int,
    dim: int,
) -> None:
    # A low threshold makes modest tables, drawable whole as the oracle, jump.
    monkeypatch.setattr(torch_init, "_JUMP_MIN", 1000)
    rows = np.array([vocab - 1, 0, 1, vocab // 2, vocab - 2, 40, vocab // 2], dtype=np.int64)
    got = torch_normal_rows(DEFAULT_SEED, (vocab, dim), rows, kernel=kernel)
    full = torch_normal(DEFAULT_SEED, (vocab, dim), kernel=kernel)
    assert np.array_equal(got, full[rows])
    assert len(counted_jumps) >= 2


@settings(max_examples=25)
@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    vocab=st.integers(min_value=2, max_value=2000),
    dim=st.integers(min_value=1, max_value=40),
    jump_min=st.integers(min_value=16, max_value=5000),
    data=st.data(),
)
def test_rows_equal_the_full_table_whatever_the_threshold(
    seed: int, vocab: int, dim: int, jump_min: int, data: st.DataObject
) -> None:
    rows = np.array(
        data.draw(st.lists(st.integers(min_value=0, max_value=vocab - 1), max_size=8)),
        dtype=np.int64,
    )
    full = torch_normal(seed, (vocab, dim))
    original = torch_init._JUMP_MIN
    # hypothesis rejects function-scoped fixtures under @given, so no monkeypatch.
    torch_init._JUMP_MIN = jump_min
    try:
        got = torch_normal_rows(seed, (vocab, dim), rows)
    finally:
        torch_init._JUMP_MIN = original
    assert np.array_equal(got, full[rows])


def test_rows_of_a_table_past_the_real_threshold_match_the_walk(
    monkeypatch: pytest.MonkeyPatch, counted_jumps: list[int]
) -> None:
    # 1100 x 16384 is 18M draws, more than _JUMP_MIN: the last row is jumped
    # to.  The oracle is the same function with jumping switched off.
    vocab, dim = 1100, 16384
    # Rows 0 .. 5 are one run of 6144 adjacent blocks, drawn in several chunks.
    rows = np.array([0, 1, 2, 3, 4, 5, vocab - 1, 3], dtype=np.int64)
    got = torch_init._rows_from_stream(DEFAULT_SEED, vocab, dim, rows, "vectorized")
    assert len(counted_jumps) == 1
    monkeypatch.setattr(torch_init, "_JUMP_MIN", 2**62)
    walked_rows = torch_init._rows_from_stream(DEFAULT_SEED, vocab, dim, rows, "vectorized")
    assert len(counted_jumps) == 1
    assert np.array_equal(got, walked_rows)
