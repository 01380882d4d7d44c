"""Parity with PyTorch: seeded tables, lookups and the ``embedviz lookup`` printout."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from embedviz import cli
from embedviz.core.table import EmbeddingTable, TorchSeededTable

torch = pytest.importorskip("torch")

KernelName = Literal["vectorized", "scalar"]


@pytest.fixture(scope="module")
def kernel() -> KernelName:
    # Same rule as tests/test_torch_init.py: the vectorised block kernel only
    # runs in torch's AVX2 / AVX-512 builds.
    capability = torch.backends.cpu.get_cpu_capability()
    return "vectorized" if capability in ("AVX2", "AVX512") else "scalar"


@pytest.fixture(scope="module")
def seeded() -> Iterator[ModuleType]:
    # Leave the global torch RNG as other tests expect it.
    with torch.random.fork_rng(devices=[]):
        yield torch


def _torch_embedding_weight(seed: int, vocab: int, dim: int) -> np.ndarray:
    torch.manual_seed(seed)
    emb = torch.nn.Embedding(vocab, dim)
    weight: np.ndarray = emb.weight.detach().numpy().copy()
    return weight


def _assert_torchs_values(kernel: KernelName, ours: np.ndarray, theirs: np.ndarray) -> None:
    assert ours.dtype == theirs.dtype == np.float32
    assert ours.shape == theirs.shape
    assert np.array_equal(ours.view(np.uint32), theirs.view(np.uint32)), kernel


def _check_seeded(kernel: KernelName, seed: int, vocab: int, dim: int) -> None:
    theirs = _torch_embedding_weight(seed, vocab, dim)
    # from_seed follows the kernel torch runs on this machine.
    _assert_torchs_values(kernel, EmbeddingTable.from_seed(vocab, dim, seed).weight, theirs)
    rows = np.arange(vocab)[::-1]
    lazy = TorchSeededTable.create(vocab, dim, seed).rows(rows)
    _assert_torchs_values(kernel, lazy, theirs[rows])


@pytest.mark.parametrize(
    ("vocab", "dim", "seed"),
    [
        (6, 3, 123),
        (1, 1, 0),
        (2, 7, 1),
        (5, 3, 42),  # 15 values: torch's serial path
        (4, 4, 42),  # 16 values: the block path
        (17, 1, 9),  # a leftover after the last full block
        (1000, 16, 2**32 + 3),  # only the low 32 bits reach the generator
        (300, 300, 2**64 - 1),  # crosses numpy's 65536-value chunk
        (4, 4, 812),  # issue 8: correctly rounded maths printed -0.3653, torch -0.3652
        (6, 3, -1),  # torch.manual_seed(-1) is manual_seed(2**64 - 1)
        (7, 5, -(2**63)),
    ],
)
def test_from_seed_matches_nn_embedding(
    seeded: ModuleType, kernel: KernelName, vocab: int, dim: int, seed: int
) -> None:
    _check_seeded(kernel, seed, vocab, dim)


@settings(max_examples=40, deadline=None)
@given(
    vocab=st.integers(1, 60),
    dim=st.integers(1, 40),
    seed=st.integers(-(2**63), 2**64 - 1),
)
def test_from_seed_matches_nn_embedding_for_any_size(
    seeded: ModuleType, kernel: KernelName, vocab: int, dim: int, seed: int
) -> None:
    _check_seeded(kernel, seed, vocab, dim)


@settings(max_examples=80, deadline=None)
@given(
    data=st.data(),
    vocab=st.integers(1, 40),
    dim=st.integers(1, 8),
    seed=st.integers(0, 2**32),
    id_shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=5),
    as_list=st.booleans(),
)
def test_lookup_equals_torch_functional_embedding(
    seeded: ModuleType,
    data: st.DataObject,
    vocab: int,
    dim: int,
    seed: int,
    id_shape: tuple[int, ...],
    as_list: bool,
) -> None:
    table = EmbeddingTable.from_seed(vocab, dim, seed)
    ids = data.draw(hnp.arrays(np.int64, id_shape, elements=st.integers(0, vocab - 1)))
    # The same weights go to both sides; torch.tensor copies the read-only array.
    expected = torch.nn.functional.embedding(
        torch.tensor(ids), torch.tensor(np.array(table.weight))
    ).numpy()
    out = table.lookup(ids.tolist() if as_list else ids)
    assert out.dtype == np.float32
    assert out.shape == expected.shape == (*id_shape, dim)
    np.testing.assert_array_equal(out, expected)


# ------------------------------------------------------------- the printed lookup


def _cli() -> list[str]:
    script = Path(sys.executable).with_name("embedviz")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "embedviz"]


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}


def _torch_printout(seed: int, vocab: int, dim: int, ids: Any) -> str:
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        emb = torch.nn.Embedding(vocab, dim)
        return str(emb(torch.tensor(ids))) + "\n"


CLI_CASES = [
    # (cli flags, seed, vocab, dim, ids as torch gets them)
    (["--ids", "2,3,5,1"], 123, 6, 3, [2, 3, 5, 1]),
    ([], 123, 6, 3, [2, 3, 5, 1]),  # the default IDs
    (["--ids", "2,3;5,1"], 123, 6, 3, [[2, 3], [5, 1]]),
    (["--ids", "4"], 123, 6, 3, [4]),
    (["--ids", "0,1;2,3;4,5"], 123, 6, 3, [[0, 1], [2, 3], [4, 5]]),
    (["--ids", "9,0,4", "--seed", "0", "--vocab", "10", "--dim", "5"], 0, 10, 5, [9, 0, 4]),
    (["--ids", "0,2", "--vocab", "3", "--dim", "2", "--seed", "11"], 11, 3, 2, [0, 2]),
    (["--ids", "1,1", "--dim", "1", "--seed", "5"], 5, 6, 1, [1, 1]),
    # wraps over several lines at torch's 80-column limit
    (
        ["--ids", "999,0,500", "--vocab", "1000", "--dim", "64", "--seed", "7"],
        7,
        1000,
        64,
        [999, 0, 500],
    ),
    # more than 1000 values: torch summarises with "..."
    (
        ["--ids", "1,2,3,4", "--vocab", "50", "--dim", "300", "--seed", "3"],
        3,
        50,
        300,
        [1, 2, 3, 4],
    ),
    (
        ["--ids", "0,1;2,3", "--vocab", "8", "--dim", "200", "--seed", "2"],
        2,
        8,
        200,
        [[0, 1], [2, 3]],
    ),
    (["--ids", "3", "--seed", str(2**32 + 123)], 2**32 + 123, 6, 3, [3]),
    # issue 8's minimal case: torch prints -0.3652
    (["--seed", "812", "--vocab", "4", "--dim", "4", "--ids", "3"], 812, 4, 4, [3]),
    (["--seed=-1", "--ids", "3"], -1, 6, 3, [3]),
    (["--seed", "-1", "--ids", "0,5"], -1, 6, 3, [0, 5]),
    (["--seed=-9223372036854775808", "--ids", "2"], -(2**63), 6, 3, [2]),
    # GPT-2's table, row by row
    (
        ["--seed=-5", "--vocab", "50257", "--dim", "768", "--ids", "50256,0,1234"],
        -5,
        50257,
        768,
        [50256, 0, 1234],
    ),
]


@pytest.mark.parametrize(
    ("flags", "seed", "vocab", "dim", "ids"), CLI_CASES, ids=lambda v: str(v)[:40]
)
def test_cli_lookup_prints_what_torch_prints(
    tmp_path: Path,
    flags: list[str],
    seed: int,
    vocab: int,
    dim: int,
    ids: Any,
) -> None:
    expected = _torch_printout(seed, vocab, dim, ids)
    result = subprocess.run(
        [*_cli(), "lookup", *flags],
        cwd=tmp_path,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == expected


def test_cli_lookup_of_a_weights_file_prints_what_torch_prints(tmp_path: Path) -> None:
    values = np.random.default_rng(0).standard_normal((7, 4)).astype(np.float32) * 50
    np.save(tmp_path / "w.npy", values)
    ids = [[6, 0, 3], [1, 1, 2]]
    weight = torch.nn.Parameter(torch.tensor(values))
    expected = str(torch.nn.functional.embedding(torch.tensor(ids), weight)) + "\n"
    result = subprocess.run(
        [*_cli(), "lookup", "--weights", "w.npy", "--ids", "6,0,3;1,1,2"],
        cwd=tmp_path,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected


def test_issue_8_minimal_case_prints_torchs_digit(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["lookup", "--seed", "812", "--vocab", "4", "--dim", "4", "--ids", "3"]) == 0
    printed = capsys.readouterr().out
    assert "-0.3652" in printed
    assert "-0.3653" not in printed


def _sampled_lookups(count: int) -> list[tuple[int, int, int, list[int]]]:
    """(seed, V, d, ids): any seed torch takes, small and odd shapes favoured."""
    rng = random.Random(2026)
    cases = []
    for i in range(count):
        seed = rng.randrange(-(2**63), 2**64) if i % 2 else rng.randrange(0, 2**32)
        dim = rng.choice([1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 33, 64])
        vocab = rng.randint(1, 15) if i % 3 == 0 else rng.randint(1, 1500 // dim)
        ids = [rng.randrange(vocab) for _ in range(rng.randint(1, 4))]
        cases.append((seed, vocab, dim, ids))
    return cases


def test_lookup_prints_what_torch_prints_for_sampled_tables(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    seeded: ModuleType,
) -> None:
    monkeypatch.chdir(tmp_path)  # no embedviz.toml
    cases = _sampled_lookups(400)
    assert sum(v * d < 16 for _, v, d, _ in cases) > 20
    assert sum(d == 1 for _, _, d, _ in cases) > 20
    assert sum(v * d > 16 and v * d % 16 for _, v, d, _ in cases) > 150
    differ = []
    for seed, vocab, dim, ids in cases:
        flags = [f"--seed={seed}", "--vocab", str(vocab), "--dim", str(dim)]
        assert cli.main(["lookup", *flags, "--ids", ",".join(map(str, ids))]) == 0
        printed = capsys.readouterr().out
        seeded.manual_seed(seed)
        expected = str(seeded.nn.Embedding(vocab, dim)(seeded.tensor(ids))) + "\n"
        if printed != expected:
            differ.append((seed, vocab, dim, ids))
    assert differ == []


@pytest.mark.parametrize("where", ["environment", "embedviz.toml"])
def test_negative_seed_from_environment_or_config(tmp_path: Path, where: str) -> None:
    env = _clean_env()
    if where == "environment":
        env["EMBEDVIZ_SEED"] = "-1"
    else:
        (tmp_path / "embedviz.toml").write_text("seed = -1\n", encoding="utf-8")
    result = subprocess.run(
        [*_cli(), "lookup", "--ids", "4,1"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == _torch_printout(-1, 6, 3, [4, 1])
    assert result.stdout == _torch_printout(2**64 - 1, 6, 3, [4, 1])
