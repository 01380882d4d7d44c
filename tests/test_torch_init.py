"""torch_normal must reproduce torch's seeded normal_ / nn.Embedding init."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.core.errors import EmbedvizError
from embedviz.core.torch_init import torch_normal, torch_normal_rows

REPO_ROOT = Path(__file__).resolve().parents[1]
TOLERANCE = 1e-6
MAX_SEED = 2**64 - 1

KernelName = Literal["vectorized", "scalar"]

# Both torch paths (serial below 16 elements, blocks of 16 from 16 up), exact
# multiples of 16 and leftovers, several dimensionalities, and sizes that
# cross the 65536-value chunk boundary with and without a leftover.
SHAPES = [
    (),
    (1,),
    (1, 1),
    (2,),
    (3,),
    (3, 5),
    (15,),
    (16,),
    (17,),
    (6, 3),
    (4, 4),
    (31,),
    (32,),
    (33,),
    (5, 7),
    (2, 3, 7),
    (100, 7),
    (1001,),
    (0,),
    (0, 768),
    (1, 65536),
    (1, 65536 + 16 + 5),
    (512, 768),
]

SEEDS = [0, 1, 42, 2**31, 2**32 - 1, 2**32 + 5, 2**63 + 7, MAX_SEED]


@pytest.fixture(scope="module")
def torch() -> ModuleType:
    module: ModuleType = pytest.importorskip("torch")
    return module


@pytest.fixture(scope="module")
def kernel(torch: ModuleType) -> KernelName:
    # torch only uses its vectorised block kernel in its AVX2/AVX-512 builds;
    # every other CPU capability runs the generic C++ loop.
    capability = torch.backends.cpu.get_cpu_capability()
    return "vectorized" if capability in ("AVX2", "AVX512") else "scalar"


@pytest.fixture(scope="module")
def seeded(torch: ModuleType) -> Iterator[Any]:
    # Keep other tests' view of the global torch RNG untouched; module scope
    # because hypothesis rejects per-test fixtures under @given.
    with torch.random.fork_rng(devices=[]):
        yield torch


def _torch_values(torch: Any, seed: int, shape: tuple[int, ...]) -> npt.NDArray[np.float32]:
    torch.manual_seed(seed)
    values: npt.NDArray[np.float32] = torch.empty(shape).normal_().numpy()
    return values


def _assert_close(ours: npt.NDArray[np.float32], theirs: npt.NDArray[np.float32]) -> None:
    assert ours.dtype == np.float32
    assert ours.shape == theirs.shape
    assert ours.flags.c_contiguous
    if ours.size:
        assert float(np.max(np.abs(ours - theirs))) <= TOLERANCE


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("seed", SEEDS)
def test_matches_torch_normal(
    seeded: Any, kernel: KernelName, seed: int, shape: tuple[int, ...]
) -> None:
    _assert_close(torch_normal(seed, shape, kernel=kernel), _torch_values(seeded, seed, shape))


@pytest.mark.parametrize(("vocab", "dim"), [(1, 1), (3, 5), (6, 3), (1000, 64), (50257, 8)])
def test_matches_nn_embedding(seeded: Any, kernel: KernelName, vocab: int, dim: int) -> None:
    seeded.manual_seed(1234)
    weight = seeded.nn.Embedding(vocab, dim).weight.detach().numpy()
    _assert_close(torch_normal(1234, (vocab, dim), kernel=kernel), weight)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=MAX_SEED),
    shape=st.lists(st.integers(min_value=0, max_value=40), min_size=0, max_size=3).map(tuple),
)
def test_matches_torch_for_any_seed_and_shape(
    seeded: Any, kernel: KernelName, seed: int, shape: tuple[int, ...]
) -> None:
    _assert_close(torch_normal(seed, shape, kernel=kernel), _torch_values(seeded, seed, shape))


_SCALAR_SCRIPT = """
import json, sys, torch
assert torch.backends.cpu.get_cpu_capability() == "DEFAULT"
out = []
for seed, shape in json.loads(sys.argv[1]):
    torch.manual_seed(seed)
    out.append(torch.empty(shape).normal_().flatten().tolist())
print(json.dumps(out))
"""


def test_scalar_kernel_matches_generic_torch_build(torch: ModuleType) -> None:
    # The generic kernel can be forced on any CPU; it rounds theta differently
    # from the vectorised one, so it needs its own comparison.
    cases: list[tuple[int, tuple[int, ...]]] = [
        (0, (40,)),
        (7, (3, 5)),
        (2**32 + 9, (6, 3)),
        (99, (1000, 3)),
        (5, (16,)),
    ]
    env = {**os.environ, "ATEN_CPU_CAPABILITY": "default"}
    result = subprocess.run(
        [sys.executable, "-c", _SCALAR_SCRIPT, json.dumps(cases)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    expected = json.loads(result.stdout)
    for (seed, shape), values in zip(cases, expected, strict=True):
        theirs = np.asarray(values, dtype=np.float32).reshape(shape)
        _assert_close(torch_normal(seed, shape, kernel="scalar"), theirs)


def test_kernels_differ_only_for_block_path() -> None:
    # Below 16 elements torch has a single path, so the kernel is irrelevant.
    for numel in (1, 7, 15):
        np.testing.assert_array_equal(
            torch_normal(3, (numel,), kernel="vectorized"),
            torch_normal(3, (numel,), kernel="scalar"),
        )
    assert not np.array_equal(
        torch_normal(3, (4096,), kernel="vectorized"), torch_normal(3, (4096,), kernel="scalar")
    )


def test_only_low_32_bits_of_seed_matter() -> None:
    np.testing.assert_array_equal(torch_normal(5, (40,)), torch_normal(5 + 2**32, (40,)))
    np.testing.assert_array_equal(torch_normal(5, (4,)), torch_normal(5 + 7 * 2**32, (4,)))


def test_numpy_integer_seed_and_dims_are_accepted() -> None:
    expected = torch_normal(9, (3, 20))
    actual = torch_normal(np.uint64(9), (np.int64(3), np.int32(20)))  # type: ignore[arg-type]
    np.testing.assert_array_equal(actual, expected)
    assert actual.shape == (3, 20)


def test_values_look_standard_normal() -> None:
    values = torch_normal(0, (50_000,)).astype(np.float64)
    assert abs(values.mean()) < 0.02
    assert abs(values.std() - 1.0) < 0.02
    # Box-Muller on 24-bit uniforms cannot exceed sqrt(2 * 24 * ln 2).
    assert float(np.max(np.abs(values))) <= math.sqrt(48 * math.log(2)) + 1e-6


@pytest.mark.parametrize(
    "seed", [-(2**63) - 1, 2**64, 2**70, True, False, np.bool_(True), 1.0, "1", None]
)
def test_bad_seed_raises(seed: object) -> None:
    with pytest.raises(EmbedvizError, match="seed") as info:
        torch_normal(seed, (2, 3))  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("shape", [(-1, 3), (2.0,), "12", 5, (True, 2), None, (3, None)])
def test_bad_shape_raises(shape: object) -> None:
    with pytest.raises(EmbedvizError, match="shape") as info:
        torch_normal(0, shape)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


def test_bad_kernel_raises() -> None:
    with pytest.raises(EmbedvizError, match="kernel"):
        torch_normal(0, (20,), kernel="avx")  # type: ignore[arg-type]


def test_module_does_not_import_torch_or_manim() -> None:
    code = (
        "import sys, embedviz.core.torch_init; "
        "assert 'torch' not in sys.modules, 'torch imported'; "
        "assert 'manim' not in sys.modules, 'manim imported'"
    )
    path = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    vocab=st.integers(min_value=1, max_value=300),
    dim=st.integers(min_value=1, max_value=40),
    data=st.data(),
)
def test_rows_equal_the_full_table(seed: int, vocab: int, dim: int, data: st.DataObject) -> None:
    rows = np.array(
        data.draw(st.lists(st.integers(min_value=0, max_value=vocab - 1), max_size=12)),
        dtype=np.int64,
    )
    full = torch_normal(seed, (vocab, dim))
    assert np.array_equal(torch_normal_rows(seed, (vocab, dim), rows), full[rows])


def test_rows_of_a_large_table_cross_chunk_boundaries() -> None:
    # 70001 x 3 spans several 65536-value chunks and has a recomputed tail.
    vocab, dim = 70001, 3
    rows = np.array([0, 21845, 21846, 43690, 43691, vocab - 6, vocab - 1], dtype=np.int64)
    full = torch_normal(9, (vocab, dim))
    assert np.array_equal(torch_normal_rows(9, (vocab, dim), rows), full[rows])


def test_rows_reject_out_of_range() -> None:
    with pytest.raises(EmbedvizError):
        torch_normal_rows(1, (4, 4), np.array([4]))
