"""Finding the token-embedding table in a local Hugging Face-style model folder.

A model folder holds ``tokenizer.json`` and one ``model.safetensors`` or
several shards listed in ``model.safetensors.index.json``. Only the headers
are read to find the tensor; the tensor itself is memory-mapped later.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from embedviz.core.errors import EmbedvizError
from embedviz.core.paths import require_file, require_folder
from embedviz.core.weights import EMBEDDING_TENSOR_NAMES, read_safetensors_header

__all__ = ["ModelFiles", "find_model_files", "model_name"]

_INDEX = "model.safetensors.index.json"
# Folder names that say nothing about which model is inside.
_GENERIC_FOLDERS = frozenset(
    {"model", "models", "weights", "checkpoint", "checkpoints", "files", "hf", "main", "final"}
)
# Longest name shown; a longer one is cut with an ellipsis.
_NAME_LIMIT = 80


@dataclass(frozen=True)
class ModelFiles:
    """Where a model's tokenizer and token-embedding tensor are.

    Attributes
    ----------
    folder
        The model folder.
    tokenizer
        Its ``tokenizer.json``, or ``None`` when it has none.
    weights
        The ``.safetensors`` file that holds the embedding tensor.
    tensor
        The tensor's name.
    shape
        The tensor's shape, ``(V, d)``.
    """

    folder: Path
    tokenizer: Path | None
    weights: Path
    tensor: str
    shape: tuple[int, ...]


def _shards(folder: Path) -> list[Path]:
    index = folder / _INDEX
    if index.exists() or index.is_symlink():
        return _indexed_shards(folder, require_file(index, "safetensors index"))
    return sorted(folder.glob("*.safetensors"))


def _indexed_shards(folder: Path, index: Path) -> list[Path]:
    """Read and check ``model.safetensors.index.json``: the shards it lists, in order."""
    bad = f"{index} is not a valid safetensors index"
    try:
        data = json.loads(index.read_text(encoding="utf-8"))
    except OSError as error:
        raise EmbedvizError(f"{index} cannot be read ({error.strerror})") from None
    except (ValueError, RecursionError):  # bad JSON or UTF-8, or absurd nesting
        raise EmbedvizError(f"{bad} (it is not JSON)") from None
    if not isinstance(data, dict):
        raise EmbedvizError(f"{bad} (it is not a JSON object)")
    if "weight_map" not in data:
        raise EmbedvizError(f'{bad} (it has no "weight_map")')
    weight_map = data["weight_map"]
    if not isinstance(weight_map, dict):
        raise EmbedvizError(
            f'{bad} ("weight_map" must map tensor names to shard files, '
            f"not be a {_json_type(weight_map)})"
        )
    if not weight_map:
        raise EmbedvizError(f'{bad} (its "weight_map" lists no tensors)')
    names: set[str] = set()
    for tensor, name in weight_map.items():
        if not isinstance(name, str) or not name:
            raise EmbedvizError(
                f"{bad} (tensor {tensor!r} maps to {json.dumps(name)}, not to a shard file name)"
            )
        shard = Path(name)
        # Checked by name, not by resolving links: a Hugging Face cache
        # folder's files are links into a blobs/ folder beside it.
        if shard.is_absolute() or ".." in shard.parts or "\x00" in name or shard.drive:
            raise EmbedvizError(
                f"{bad} (tensor {tensor!r} maps to {name!r}, which is outside the model folder)"
            )
        names.add(name)
    shards = [folder / name for name in sorted(names)]
    for shard in shards:
        if not (shard.exists() or shard.is_symlink()):
            raise EmbedvizError(
                f"model folder {folder} lacks the shard {shard.name} that {_INDEX} lists"
            )
        require_file(shard, "safetensors shard")
    return shards


def _json_type(value: object) -> str:
    names = {bool: "boolean", int: "number", float: "number", str: "string", list: "list"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def find_model_files(folder: str | Path, tensor: str | None = None) -> ModelFiles:
    """Locate the tokenizer and the token-embedding tensor of a model folder.

    Parameters
    ----------
    folder
        A local model folder.
    tensor
        The tensor's name, overriding the search for usual names
        (``embeddings.word_embeddings.weight``, ``wte.weight``,
        ``transformer.wte.weight``, ``model.embed_tokens.weight``, ...).

    Returns
    -------
    ModelFiles
        The files and the chosen tensor.

    Raises
    ------
    EmbedvizError
        If the folder or its ``.safetensors`` files are missing or malformed,
        or no embedding tensor is found (the message lists the candidate
        2-D tensors with their shapes), or the chosen tensor is not 2-D.
    """
    path = require_folder(folder, "model folder")
    shards = _shards(path)
    if not shards:
        raise EmbedvizError(f"model folder {path} holds no .safetensors file")
    found: dict[str, tuple[Path, tuple[int, ...]]] = {}
    for shard in shards:
        _, entries = read_safetensors_header(shard)
        for entry in entries:
            found.setdefault(entry.name, (shard, entry.shape))
    if tensor is not None:
        if tensor not in found:
            raise EmbedvizError(
                f"model folder {path} has no tensor named {tensor!r}; "
                f"2-D tensors: {_describe(found)}"
            )
        name = tensor
    else:
        name = next((n for n in EMBEDDING_TENSOR_NAMES if n in found), "")
        if not name:
            raise EmbedvizError(
                f"no token-embedding tensor found in {path}; choose one with --tensor from "
                f"{_describe(found)}"
            )
    weights, shape = found[name]
    if len(shape) != 2:
        raise EmbedvizError(
            f"tensor {name!r} in {weights} has shape {shape}, but an embedding table is 2-D"
        )
    tokenizer = path / "tokenizer.json"
    return ModelFiles(path, tokenizer if tokenizer.is_file() else None, weights, name, shape)


def _describe(found: dict[str, tuple[Path, tuple[int, ...]]]) -> str:
    two_d = sorted((name, shape) for name, (_, shape) in found.items() if len(shape) == 2)
    if not two_d:
        return "none (the folder holds no 2-D tensor)"
    listed = ", ".join(f"{name} {list(shape)}" for name, shape in two_d[:12])
    return listed + (f" and {len(two_d) - 12} more" if len(two_d) > 12 else "")


def model_name(folder: str | Path) -> str:
    """Return the name a model folder's model goes by, for headers and captions.

    The first of these that is set: ``_name_or_path`` or ``name_or_path`` in
    its ``config.json``, ``name_or_path`` in its ``tokenizer_config.json``
    (each only when it is a name such as ``owner/model``, not a local path),
    ``owner/model`` for a Hugging Face cache folder
    (``models--owner--model/snapshots/<commit>``), then the folder's own name,
    or its parent's when the folder has a generic name such as ``model``.

    Parameters
    ----------
    folder
        The model folder.

    Returns
    -------
    str
        One line, at most 80 characters.

    Notes
    -----
    ``_name_or_path`` is where the configuration was loaded from before it
    was saved, so a fine-tuned model may carry its base model's name there.
    """
    path = Path(folder)
    for file, keys in (
        ("config.json", ("_name_or_path", "name_or_path")),
        ("tokenizer_config.json", ("name_or_path",)),
    ):
        data = _small_json(path / file)
        for key in keys:
            value = data.get(key)
            if isinstance(value, str) and _is_a_name(value):
                return _one_line(value)
    absolute = Path(os.path.abspath(path))
    if absolute.parent.name == "snapshots" and absolute.parent.parent.name.startswith("models--"):
        return _one_line(absolute.parent.parent.name[len("models--") :].replace("--", "/"))
    name = absolute.name
    if name.lower() in _GENERIC_FOLDERS and absolute.parent.name:
        name = absolute.parent.name
    return _one_line(name or str(path))


def _small_json(file: Path) -> dict[str, object]:
    """Read a JSON object from a small regular file; ``{}`` for anything else."""
    try:
        if not file.is_file() or file.stat().st_size > 1 << 20:
            return {}
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _is_a_name(value: str) -> bool:
    """``owner/model`` or ``model``: not empty, not an absolute or relative local path."""
    text = value.strip()
    return bool(text) and not (
        text.startswith(("/", "~", ".", "\\")) or ":" in text or "\\" in text
    )


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _NAME_LIMIT else flat[: _NAME_LIMIT - 1] + "\u2026"
