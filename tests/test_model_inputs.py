"""Paths and model folders that are not what they should be: one line, exit 2, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from embedviz.core.errors import EmbedvizError
from embedviz.core.model_dir import find_model_files

INDEX = "model.safetensors.index.json"


def _write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    """Write float32 tensors in the documented .safetensors layout, by hand."""
    header: dict[str, object] = {}
    blobs = []
    offset = 0
    for name, array in tensors.items():
        data = np.ascontiguousarray(array, dtype="<f4").tobytes()
        header[name] = {
            "dtype": "F32",
            "shape": list(array.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    raw = json.dumps(header).encode("utf-8")
    path.write_bytes(len(raw).to_bytes(8, "little") + raw + b"".join(blobs))


def _sharded_model(folder: Path, weight_map: object) -> Path:
    """A two-shard model folder whose index holds ``weight_map``."""
    folder.mkdir()
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    _write_safetensors(folder / "model-00001-of-00002.safetensors", {"wte.weight": table})
    _write_safetensors(
        folder / "model-00002-of-00002.safetensors", {"lm_head.weight": table.T.copy()}
    )
    (folder / INDEX).write_text(
        json.dumps({"metadata": {"total_size": 96}, "weight_map": weight_map}), encoding="utf-8"
    )
    return folder


GOOD_MAP = {
    "wte.weight": "model-00001-of-00002.safetensors",
    "lm_head.weight": "model-00002-of-00002.safetensors",
}


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    return subprocess.run(
        [sys.executable, "-m", "embedviz", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _one_line_failure(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("embedviz: error: ")
    assert result.stdout == ""
    return lines[0]


# ---------------------------------------------------------------- sharded index


def test_a_valid_sharded_index_finds_the_tensor_in_its_shard(tmp_path: Path) -> None:
    folder = _sharded_model(tmp_path / "model", GOOD_MAP)
    files = find_model_files(folder)
    assert (files.weights.name, files.tensor, files.shape) == (
        "model-00001-of-00002.safetensors",
        "wte.weight",
        (4, 3),
    )
    result = run(tmp_path, "lookup", "--model", str(folder), "--ids", "1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("tensor([[3., 4., 5.]]")


BAD_INDEXES = [
    # (the weight_map, or the whole index text via "raw:"), a word the message must hold
    ({"wte.weight": 1}, "wte.weight"),
    ({"wte.weight": None}, "null"),
    ({"wte.weight": ["model-00001-of-00002.safetensors"]}, "wte.weight"),
    ({"wte.weight": ""}, "wte.weight"),
    (["model-00001-of-00002.safetensors"], "weight_map"),
    ("model-00001-of-00002.safetensors", "weight_map"),
    (None, "weight_map"),
    ({}, "no tensors"),
    ({"wte.weight": "model-00009-of-00009.safetensors"}, "model-00009-of-00009.safetensors"),
    ({"wte.weight": "../model-00001-of-00002.safetensors"}, "outside the model folder"),
    ({"wte.weight": "/etc/hostname"}, "outside the model folder"),
    ({"wte.weight": "a\x00b"}, "outside the model folder"),
    ({"wte.weight": "sub"}, "is a directory"),
    ("raw:[1, 2]", "not a JSON object"),
    ('raw:{"metadata": {}}', "weight_map"),
    ("raw:{not json", "not JSON"),
    ("raw:\xff\xfe", "not JSON"),
]


@pytest.mark.parametrize(("weight_map", "needle"), BAD_INDEXES, ids=repr)
def test_a_bad_sharded_index_is_one_clear_line(
    tmp_path: Path, weight_map: object, needle: str
) -> None:
    folder = _sharded_model(tmp_path / "model", GOOD_MAP)
    (folder / "sub").mkdir()
    if isinstance(weight_map, str) and weight_map.startswith("raw:"):
        (folder / INDEX).write_bytes(weight_map[4:].encode("latin-1"))
    else:
        (folder / INDEX).write_text(json.dumps({"weight_map": weight_map}), encoding="utf-8")
    with pytest.raises(EmbedvizError) as caught:
        find_model_files(folder)
    assert needle in str(caught.value)
    line = _one_line_failure(run(tmp_path, "lookup", "--model", str(folder), "--ids", "1"))
    assert needle in line


def test_an_index_that_is_a_directory(tmp_path: Path) -> None:
    folder = _sharded_model(tmp_path / "model", GOOD_MAP)
    (folder / INDEX).unlink()
    (folder / INDEX).mkdir()
    line = _one_line_failure(run(tmp_path, "lookup", "--model", str(folder), "--ids", "1"))
    assert INDEX in line
    assert "is a directory" in line


def test_linked_shards_inside_a_cache_layout_are_accepted(tmp_path: Path) -> None:
    # Hugging Face's cache keeps snapshot files as links into ../../blobs.
    blobs = tmp_path / "blobs"
    model = _sharded_model(blobs, GOOD_MAP)
    snapshot = tmp_path / "snapshots" / "abc"
    snapshot.mkdir(parents=True)
    for name in (*GOOD_MAP.values(), INDEX):
        (snapshot / name).symlink_to(os.path.relpath(model / name, snapshot))
    assert find_model_files(snapshot).tensor == "wte.weight"


# ------------------------------------------------------ paths that are not files


def _special_paths(tmp_path: Path) -> None:
    (tmp_path / "x.npy").mkdir()
    (tmp_path / "x.safetensors").mkdir()
    (tmp_path / "tok.json").mkdir()
    (tmp_path / "file.txt").write_text("a file\n", encoding="utf-8")
    (tmp_path / "dangling.npy").symlink_to(tmp_path / "nowhere.npy")
    os.mkfifo(tmp_path / "pipe.npy")


PATH_CASES = [
    (["--weights", "/dev/null"], "weights file /dev/null is not a regular file"),
    (["--weights", "x.npy"], "weights file x.npy is a directory"),
    (["--weights", "x.safetensors"], "weights file x.safetensors is a directory"),
    (["--weights", "dangling.npy"], "broken symbolic link"),
    (["--weights", "pipe.npy"], "is not a regular file (it is a named pipe"),
    (["--weights", "file.txt/x.npy"], "does not exist"),
    (["--weights", "missing.npy"], "weights file missing.npy does not exist"),
    (["--model", "/dev/null"], "model folder /dev/null is not a folder"),
    (["--model", "file.txt"], "model folder file.txt is a file, not a folder"),
    (["--model", "missing"], "model folder missing does not exist"),
    (["--tokenizer", "/dev/null", "--text", "hi"], "tokenizer file /dev/null is not a regular"),
    (["--tokenizer", "tok.json", "--text", "hi"], "tokenizer file tok.json is a directory"),
]


@pytest.mark.parametrize(("args", "needle"), PATH_CASES, ids=lambda v: str(v))
def test_a_path_that_exists_but_is_the_wrong_kind_says_so(
    tmp_path: Path, args: list[str], needle: str
) -> None:
    _special_paths(tmp_path)
    # A FIFO would block a reader forever; the timeout in run() turns that into a failure.
    ids = [] if "--text" in args else ["--ids", "1"]
    line = _one_line_failure(run(tmp_path, "lookup", *ids, *args))
    assert needle in line


# ------------------------------------------------------------------ model name


@pytest.mark.parametrize(
    ("files", "folder", "name"),
    [
        ({"config.json": {"_name_or_path": "acme/tiny-bert"}}, "model", "acme/tiny-bert"),
        ({"config.json": {"name_or_path": "acme/tiny-gpt"}}, "model", "acme/tiny-gpt"),
        ({"tokenizer_config.json": {"name_or_path": "acme/tok"}}, "model", "acme/tok"),
        # A local path is not a name: the folder names the model instead.
        ({"config.json": {"_name_or_path": "/home/me/ckpt"}}, "my-bert", "my-bert"),
        ({"config.json": {"_name_or_path": "./ckpt"}}, "model", "project"),
        ({"config.json": {"_name_or_path": ""}}, "my-bert", "my-bert"),
        ({"config.json": ["not", "an", "object"]}, "my-bert", "my-bert"),
        ({"config.json": "raw:{broken"}, "model", "project"),
        ({}, "model", "project"),
        ({}, "Model", "project"),
        ({}, "weights", "project"),
        ({}, "tiny-llama", "tiny-llama"),
    ],
)
def test_model_name(tmp_path: Path, files: dict[str, object], folder: str, name: str) -> None:
    from embedviz.core.model_dir import model_name

    path = tmp_path / "project" / folder
    path.mkdir(parents=True)
    for file, content in files.items():
        if isinstance(content, str) and content.startswith("raw:"):
            (path / file).write_text(content[4:], encoding="utf-8")
        else:
            (path / file).write_text(json.dumps(content), encoding="utf-8")
    assert model_name(path) == name
    assert model_name(str(path)) == name


def test_model_name_of_a_hugging_face_cache_snapshot(tmp_path: Path) -> None:
    from embedviz.core.model_dir import model_name

    snapshot = tmp_path / "models--acme--tiny-bert" / "snapshots" / "0123abcd"
    snapshot.mkdir(parents=True)
    assert model_name(snapshot) == "acme/tiny-bert"


def test_the_header_names_the_model_not_its_generic_folder(tmp_path: Path) -> None:
    folder = _sharded_model(tmp_path / "model", GOOD_MAP)
    (folder / "config.json").write_text(
        json.dumps({"_name_or_path": "acme/tiny-gpt", "vocab_size": 4}), encoding="utf-8"
    )
    result = run(tmp_path, "storyboard", "single", "--model", str(folder), "--ids", "1")
    assert result.returncode == 0, result.stderr
    header = result.stdout.splitlines()[0]
    assert header.endswith("(4 x 3, model acme/tiny-gpt)"), header
    (folder / "config.json").unlink()
    again = run(tmp_path, "storyboard", "single", "--model", str(folder), "--ids", "1")
    assert again.stdout.splitlines()[0].endswith(f"(4 x 3, model {tmp_path.name})")
