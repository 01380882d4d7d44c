"""Reading embedding weights from ``.npy`` and ``.safetensors`` files.

Both readers memory-map the file and never unpickle anything: a ``.npy``
file with an object dtype is refused, and ``.safetensors`` is parsed from its
documented layout (an 8-byte little-endian header length, a JSON header, then
raw little-endian tensor bytes), so only the chosen tensor is ever read.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.core.limits import parse_whole_number
from embedviz.core.paths import require_file

__all__ = [
    "EMBEDDING_TENSOR_NAMES",
    "SafetensorsEntry",
    "StoredMatrix",
    "as_float32",
    "check_table_array",
    "load_npy",
    "load_safetensors",
    "load_weights",
    "open_npy",
    "open_safetensors",
    "open_weights",
    "read_safetensors_header",
]

# Names under which common checkpoints store their token-embedding table.
EMBEDDING_TENSOR_NAMES = (
    "weight",
    "embedding.weight",
    "embeddings.word_embeddings.weight",
    "bert.embeddings.word_embeddings.weight",
    "wte.weight",
    "transformer.wte.weight",
    "model.embed_tokens.weight",
    "embed_tokens.weight",
    "tok_embeddings.weight",
    "gpt_neox.embed_in.weight",
    "transformer.word_embeddings.weight",
)

_SAFETENSORS_DTYPES: dict[str, str] = {
    "F64": "<f8",
    "F32": "<f4",
    "F16": "<f2",
    "BF16": "<u2",  # bfloat16 is the top half of a float32; widened below
    "I64": "<i8",
    "I32": "<i4",
    "I16": "<i2",
    "I8": "i1",
    "U8": "u1",
}

# A header larger than this is not a real checkpoint header.
_MAX_HEADER_BYTES = 100 * 1024 * 1024


@dataclass(frozen=True)
class SafetensorsEntry:
    """One tensor's record in a ``.safetensors`` header.

    Attributes
    ----------
    name
        The tensor's key in the header.
    dtype
        The safetensors dtype code, e.g. ``F32`` or ``BF16``.
    shape
        The tensor's shape.
    begin, end
        Byte offsets of its data, relative to the end of the header.
    """

    name: str
    dtype: str
    shape: tuple[int, ...]
    begin: int
    end: int


def check_table_array(array: npt.NDArray[Any], *, source: str) -> None:
    """Refuse an array that is not a non-empty 2-D table of real numbers.

    Parameters
    ----------
    array
        The array (nothing is read from a memory map).
    source
        Where it came from, for the error message.

    Raises
    ------
    EmbedvizError
        If the array is not 2-D, is empty, or is not of a real numeric dtype.
    """
    if array.dtype.kind not in "fiu":
        raise EmbedvizError(f"{source} holds {array.dtype} values, not real numbers")
    if array.ndim != 2:
        raise EmbedvizError(
            f"{source} has shape {tuple(array.shape)}, but an embedding table is 2-D (V x d)"
        )
    if 0 in array.shape:
        raise EmbedvizError(f"{source} is empty (shape {tuple(array.shape)})")


def as_float32(array: npt.NDArray[Any], *, source: str) -> npt.NDArray[np.float32]:
    """Return a 2-D table as float32, refusing anything else.

    Parameters
    ----------
    array
        The loaded array (possibly memory-mapped).
    source
        Where it came from, for the error message.

    Returns
    -------
    numpy.ndarray
        A float32 view when the input already is float32, else a converted copy.

    Raises
    ------
    EmbedvizError
        If the array is not 2-D, is empty, or is not of a real numeric dtype.
    """
    check_table_array(array, source=source)
    if array.dtype == np.float32:
        return array
    with np.errstate(over="ignore"):
        converted = array.astype(np.float32)
    overflow = np.isinf(converted) & np.isfinite(array)
    if overflow.any():
        row, col = (int(i) for i in np.argwhere(overflow)[0])
        raise EmbedvizError(
            f"{source} holds {float(array[row, col])!r} at row {row}, column {col}, "
            "which is beyond the float32 range"
        )
    return converted


def load_npy(path: Path) -> npt.NDArray[np.float32]:
    """Load a 2-D table from a ``.npy`` file without unpickling.

    Parameters
    ----------
    path
        The file.

    Returns
    -------
    numpy.ndarray
        The float32 table (memory-mapped when the file is float32).

    Raises
    ------
    EmbedvizError
        If the file is missing, is not a valid ``.npy`` file, holds objects,
        or is not a 2-D numeric table.
    """
    return open_npy(path).to_float32()


def _map_npy(path: Path) -> npt.NDArray[Any]:
    """Memory-map a ``.npy`` file, refusing pickles and anything not .npy."""
    _require_file(path)
    with path.open("rb") as handle:
        magic = handle.read(6)
    if magic != b"\x93NUMPY":
        # np.load would treat anything else as a pickle (or a zip archive,
        # whose handle it leaves open), so stop here.
        raise EmbedvizError(f"{path} is not a .npy file (it lacks the .npy magic bytes)")
    _check_npy_size(path)
    try:
        array = np.load(path, mmap_mode="r", allow_pickle=False)
    except ValueError as error:
        if "allow_pickle" in str(error) or "object" in str(error).lower():
            raise EmbedvizError(
                f"{path} holds Python objects; embedviz never unpickles files, "
                "save the table as a float array instead"
            ) from None
        raise EmbedvizError(f"{path} is not a valid .npy file ({_first_line(error)})") from None
    except Exception as error:  # numpy raises many types for a corrupt file
        raise EmbedvizError(f"{path} is not a valid .npy file ({_first_line(error)})") from None
    if not isinstance(array, np.ndarray):
        raise EmbedvizError(f"{path} is not a single .npy array")
    return array


def _header_int(text: str) -> int:
    return parse_whole_number(text, "its header")


def _check_npy_size(path: Path) -> None:
    """Refuse a ``.npy`` header that claims more bytes than the file holds.

    numpy multiplies the shape in fixed-size integers, which overflows (with a
    RuntimeWarning) for a huge claimed shape; Python's integers do not.
    """
    from numpy.lib import format as npy_format

    with path.open("rb") as handle:
        try:
            version = npy_format.read_magic(handle)
            if version == (1, 0):
                shape, _, dtype = npy_format.read_array_header_1_0(handle)
            elif version == (2, 0):
                shape, _, dtype = npy_format.read_array_header_2_0(handle)
            else:
                return  # np.load reads (or refuses) other versions itself
        except Exception as error:  # numpy raises many types for a corrupt header
            raise EmbedvizError(f"{path} is not a valid .npy file ({_first_line(error)})") from None
        if dtype.hasobject:
            return  # refused by np.load, with its own message
        claimed = math.prod(int(n) for n in shape) * dtype.itemsize
        held = path.stat().st_size - handle.tell()
    if claimed > held:
        raise EmbedvizError(
            f"{path} is not a valid .npy file (its header claims shape {tuple(shape)} of "
            f"{dtype}, {claimed:,} bytes, but it holds {max(held, 0):,})"
        )


def read_safetensors_header(path: Path) -> tuple[int, list[SafetensorsEntry]]:
    """Parse and check the header of a ``.safetensors`` file.

    Parameters
    ----------
    path
        The file.

    Returns
    -------
    tuple
        The byte offset where tensor data starts, and the tensor entries.

    Raises
    ------
    EmbedvizError
        If the file is missing, truncated, or its header is malformed.
    """
    _require_file(path)
    size = path.stat().st_size
    bad = f"{path} is not a valid .safetensors file"
    with path.open("rb") as handle:
        prefix = handle.read(8)
        if len(prefix) < 8:
            raise EmbedvizError(f"{bad} (it is only {size} bytes long)")
        header_length = int.from_bytes(prefix, "little")
        if header_length > min(size - 8, _MAX_HEADER_BYTES):
            raise EmbedvizError(f"{bad} (its header claims {header_length} bytes)")
        raw = handle.read(header_length)
    try:
        header = json.loads(raw.decode("utf-8"), parse_int=_header_int)
    except EmbedvizError as error:  # a number too long to be a shape or an offset
        raise EmbedvizError(f"{bad} ({error})") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise EmbedvizError(f"{bad} (its header is not JSON)") from None
    if not isinstance(header, dict):
        raise EmbedvizError(f"{bad} (its header is not a JSON object)")
    data_start = 8 + header_length
    entries = []
    for name, info in header.items():
        if name == "__metadata__":
            continue
        entries.append(_parse_entry(name, info, size - data_start, bad))
    return data_start, entries


def _parse_entry(name: str, info: object, data_size: int, bad: str) -> SafetensorsEntry:
    if not isinstance(info, dict):
        raise EmbedvizError(f"{bad} (entry {name!r} is not an object)")
    dtype, shape, offsets = info.get("dtype"), info.get("shape"), info.get("data_offsets")
    if (
        not isinstance(dtype, str)
        or not isinstance(shape, list)
        or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape)
        or not isinstance(offsets, list)
        or len(offsets) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in offsets)
    ):
        raise EmbedvizError(f"{bad} (entry {name!r} lacks a valid dtype, shape or offsets)")
    begin, end = offsets
    if not 0 <= begin <= end <= data_size:
        raise EmbedvizError(
            f"{bad} (tensor {name!r} lies outside the file; is the file truncated?)"
        )
    if dtype in _SAFETENSORS_DTYPES:
        itemsize = np.dtype(_SAFETENSORS_DTYPES[dtype]).itemsize
        if math.prod(shape) * itemsize != end - begin:
            raise EmbedvizError(
                f"{bad} (tensor {name!r} has {end - begin} bytes for shape {tuple(shape)})"
            )
    return SafetensorsEntry(name, dtype, tuple(shape), begin, end)


def _choose_entry(
    path: Path, entries: list[SafetensorsEntry], tensor: str | None
) -> SafetensorsEntry:
    by_name = {entry.name: entry for entry in entries}
    if tensor is not None:
        if tensor not in by_name:
            raise EmbedvizError(
                f"{path} has no tensor named {tensor!r}; it holds {_list_entries(entries)}"
            )
        return by_name[tensor]
    for name in EMBEDDING_TENSOR_NAMES:
        if name in by_name:
            return by_name[name]
    two_d = [entry for entry in entries if len(entry.shape) == 2]
    if len(two_d) == 1:
        return two_d[0]
    raise EmbedvizError(
        f"no embedding tensor found in {path}; choose one with --tensor from "
        f"{_list_entries(entries)}"
    )


def _list_entries(entries: list[SafetensorsEntry]) -> str:
    if not entries:
        return "no tensors"
    shown = ", ".join(
        f"{entry.name} {list(entry.shape)}" for entry in sorted(entries, key=lambda e: e.name)[:20]
    )
    more = f" and {len(entries) - 20} more" if len(entries) > 20 else ""
    return shown + more


def load_safetensors(path: Path, tensor: str | None = None) -> npt.NDArray[np.float32]:
    """Load one 2-D tensor from a ``.safetensors`` file, memory-mapped.

    Parameters
    ----------
    path
        The file.
    tensor
        The tensor's name; by default a usual embedding name, or the only
        2-D tensor in the file.

    Returns
    -------
    numpy.ndarray
        The table as float32; bf16 and fp16 tensors are widened exactly.

    Raises
    ------
    EmbedvizError
        If the file is malformed, the tensor is missing or ambiguous, its
        dtype is unsupported, or it is not 2-D.
    """
    return open_safetensors(path, tensor).to_float32()


_STORED_NAMES = {
    "F64": "float64",
    "F32": "float32",
    "F16": "float16",
    "BF16": "bfloat16",
    "I64": "int64",
    "I32": "int32",
    "I16": "int16",
    "I8": "int8",
    "U8": "uint8",
}


@dataclass(frozen=True, eq=False)
class StoredMatrix:
    """A 2-D table as stored on disk, memory-mapped, converted row by row.

    Attributes
    ----------
    raw
        The memory map in the file's own dtype (bf16 is read as uint16).
    stored_dtype
        The file's dtype name, e.g. ``float32`` or ``bfloat16``.
    source
        A description for messages, e.g. ``tensor 'wte.weight' in model.safetensors``.
    """

    raw: npt.NDArray[Any]
    stored_dtype: str
    source: str

    @property
    def shape(self) -> tuple[int, int]:
        """``(V, d)``."""
        return int(self.raw.shape[0]), int(self.raw.shape[1])

    def to_float32(self) -> npt.NDArray[np.float32]:
        """Return the whole table as float32 (a float32 map is not copied).

        Returns
        -------
        numpy.ndarray
            The ``V × d`` table.
        """
        if self.stored_dtype == "bfloat16":
            return self.rows(np.arange(self.shape[0]))
        return as_float32(np.asarray(self.raw), source=self.source)

    def rows(self, indices: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Read and widen only the rows at ``indices`` to float32.

        Parameters
        ----------
        indices
            Row indices, already validated.

        Returns
        -------
        numpy.ndarray
            Float32 ``(n, d)``: bf16 and fp16 widen exactly; float64 must fit
            in float32.

        Raises
        ------
        EmbedvizError
            If a float64 value lies beyond the float32 range.
        """
        index = np.asarray(indices, dtype=np.int64).reshape(-1)
        block = np.take(self.raw, index, axis=0)
        if self.stored_dtype == "bfloat16":
            # bfloat16 is the top half of a float32: shifting it back is exact.
            return (block.astype(np.uint32) << 16).view(np.float32)
        return as_float32(block, source=self.source)


def open_safetensors(path: Path, tensor: str | None = None) -> StoredMatrix:
    """Memory-map one 2-D tensor of a ``.safetensors`` file without reading it.

    Parameters
    ----------
    path
        The file.
    tensor
        The tensor's name; by default a usual embedding name, or the only
        2-D tensor in the file.

    Returns
    -------
    StoredMatrix
        The mapped tensor.

    Raises
    ------
    EmbedvizError
        If the file is malformed, the tensor is missing or ambiguous, its
        dtype is unsupported, or it is not 2-D.
    """
    data_start, entries = read_safetensors_header(path)
    entry = _choose_entry(path, entries, tensor)
    source = f"tensor {entry.name!r} in {path}"
    if entry.dtype not in _SAFETENSORS_DTYPES:
        raise EmbedvizError(f"{source} has the unsupported dtype {entry.dtype}")
    if len(entry.shape) != 2:
        raise EmbedvizError(
            f"{source} has shape {entry.shape}, but an embedding table is 2-D (V x d)"
        )
    if 0 in entry.shape:
        raise EmbedvizError(f"{source} is empty (shape {entry.shape})")
    raw = np.memmap(
        path,
        dtype=np.dtype(_SAFETENSORS_DTYPES[entry.dtype]),
        mode="r",
        offset=data_start + entry.begin,
        shape=entry.shape,
    )
    return StoredMatrix(raw, _STORED_NAMES[entry.dtype], source)


def open_npy(path: Path) -> StoredMatrix:
    """Memory-map a 2-D numeric ``.npy`` table without unpickling.

    Parameters
    ----------
    path
        The file.

    Returns
    -------
    StoredMatrix
        The mapped table.

    Raises
    ------
    EmbedvizError
        As :func:`load_npy`.
    """
    array = _map_npy(path)
    check_table_array(array, source=str(path))
    return StoredMatrix(array, str(array.dtype), str(path))


def open_weights(path: str | Path, tensor: str | None = None) -> StoredMatrix:
    """Memory-map a ``.npy`` or ``.safetensors`` table, chosen by suffix.

    Parameters
    ----------
    path
        The weights file.
    tensor
        For ``.safetensors``: which tensor to read.

    Returns
    -------
    StoredMatrix
        The mapped table; rows are read and converted only when asked for.

    Raises
    ------
    EmbedvizError
        For a missing file, an unknown suffix, or any of the readers' errors.
    """
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix == ".npy":
        if tensor is not None:
            raise EmbedvizError("--tensor applies to .safetensors files, not to .npy")
        return open_npy(file)
    if suffix == ".safetensors":
        return open_safetensors(file, tensor)
    raise EmbedvizError(f"weights file {file} must end in .npy or .safetensors")


def load_weights(path: str | Path, tensor: str | None = None) -> npt.NDArray[np.float32]:
    """Load a table from ``.npy`` or ``.safetensors``, chosen by suffix.

    Parameters
    ----------
    path
        The weights file.
    tensor
        For ``.safetensors``: which tensor to read.

    Returns
    -------
    numpy.ndarray
        The float32 V×d table.

    Raises
    ------
    EmbedvizError
        For a missing file, an unknown suffix, or any of the loaders' errors.
    """
    return open_weights(path, tensor).to_float32()


def _require_file(path: Path) -> None:
    require_file(path, "weights file")


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
