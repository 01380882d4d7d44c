"""The embedding table and its lookup."""

from __future__ import annotations

import itertools
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal, Protocol

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import validate_ids
from embedviz.core.memory import check_table_fits
from embedviz.core.torch_init import torch_normal, torch_normal_rows, torch_seed
from embedviz.core.weights import StoredMatrix, as_float32, load_weights, open_weights

__all__ = [
    "DEFAULT_DIM",
    "DEFAULT_SEED",
    "DEFAULT_VOCAB",
    "EmbeddingTable",
    "FileTable",
    "InitName",
    "Table",
    "TorchSeededTable",
    "gather_rows",
    "lookup",
]

InitName = Literal["torch", "normal"]

DEFAULT_VOCAB = 6
DEFAULT_DIM = 3
DEFAULT_SEED = 123


class Table(Protocol):
    """What scenes need from a table: its shape, its origin and its rows."""

    @property
    def vocab_size(self) -> int:
        """``V``, the number of rows."""

    @property
    def dim(self) -> int:
        """``d``, the number of columns."""

    @property
    def source(self) -> str:
        """Where the values came from."""

    def rows(self, indices: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Return the rows at ``indices`` (already validated) as ``(n, d)``."""

    def lookup(self, ids: object) -> npt.NDArray[np.float32]:
        """Validate ``ids`` and return their rows with shape ``ids.shape + (d,)``."""


@dataclass(frozen=True, eq=False)
class EmbeddingTable:
    """A float32 ``V × d`` embedding matrix: one row per vocabulary entry.

    Build it with :meth:`from_seed`, :meth:`from_array` or :meth:`from_file`.
    The weight array is read-only so that nothing downstream can alter the
    numbers that the scenes promise to show.

    Attributes
    ----------
    weight
        The read-only float32 matrix.
    source
        A short human-readable description of where the values came from.
    seeded
        Whether the values are standard normal draws (:meth:`from_seed`): the
        colour key then comes from that distribution
        (:func:`embedviz.core.colour_key.table_key`).
    """

    weight: npt.NDArray[np.float32]
    source: str = field(default="array")
    seeded: bool = False

    def __post_init__(self) -> None:
        weight = as_float32(np.asarray(self.weight), source="the embedding table")
        if weight.flags.writeable:
            # Still writable means either a conversion made just now (private)
            # or the caller's own array; copy the latter so that the caller
            # cannot change the numbers the scenes promise to show.
            if np.may_share_memory(weight, np.asarray(self.weight)):
                weight = weight.copy()
            weight.flags.writeable = False
        object.__setattr__(self, "weight", weight)

    @property
    def vocab_size(self) -> int:
        """``V``, the number of rows."""
        return int(self.weight.shape[0])

    @property
    def dim(self) -> int:
        """``d``, the number of columns."""
        return int(self.weight.shape[1])

    @classmethod
    def from_seed(
        cls,
        vocab_size: int = DEFAULT_VOCAB,
        dim: int = DEFAULT_DIM,
        seed: int = DEFAULT_SEED,
        init: InitName = "torch",
    ) -> EmbeddingTable:
        """Create a seeded random table.

        Parameters
        ----------
        vocab_size
            ``V``.
        dim
            ``d``.
        seed
            The explicit seed; all randomness comes from it. As with
            ``torch.manual_seed``, any whole number from ``-2**63`` to
            ``2**64 - 1``, taken modulo ``2**64`` (``-1`` is ``2**64 - 1``).
        init
            ``"torch"`` reproduces ``torch.manual_seed(seed)`` followed by
            ``torch.nn.Embedding(V, d).weight`` (standard normal values from
            PyTorch's CPU generator). ``"normal"`` draws standard normals from
            ``numpy.random.default_rng(seed % 2**64)``.

        Returns
        -------
        EmbeddingTable
            The new table.

        Raises
        ------
        EmbedvizError
            For bad sizes, a bad seed, an unknown init, or a table that
            would not fit in memory.
        """
        # Generation keeps a few table-sized float32 temporaries alive.
        check_table_fits(vocab_size, dim, copies=3.0)
        unsigned_seed = torch_seed(seed)
        if init == "torch":
            weight = torch_normal(unsigned_seed, (vocab_size, dim))
            source = f"torch-compatible seed {seed}"
        elif init == "normal":
            rng = np.random.default_rng(unsigned_seed)
            weight = rng.standard_normal((vocab_size, dim), dtype=np.float32)
            source = f"numpy normal, seed {seed}"
        else:
            raise EmbedvizError(f"unknown init {init!r}; choose 'torch' or 'normal'")
        weight.flags.writeable = False  # fresh and private: no defensive copy needed
        return cls(weight, source, seeded=True)

    @classmethod
    def from_array(cls, array: npt.ArrayLike, source: str = "array") -> EmbeddingTable:
        """Wrap an existing 2-D array (converted to float32).

        Parameters
        ----------
        array
            The V×d values.
        source
            A description for captions.

        Returns
        -------
        EmbeddingTable
            The new table.
        """
        return cls(np.asarray(array), source)

    @classmethod
    def from_file(cls, path: str | Path, tensor: str | None = None) -> EmbeddingTable:
        """Load a table from a ``.npy`` or ``.safetensors`` file.

        Parameters
        ----------
        path
            The weights file.
        tensor
            For ``.safetensors``: the tensor to read.

        Returns
        -------
        EmbeddingTable
            The new table (memory-mapped where the file allows).
        """
        weight = load_weights(path, tensor)
        return cls(weight, f"weights from {Path(path).name}")

    def rows(self, indices: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Return the rows at ``indices`` as an ``(n, d)`` array.

        Parameters
        ----------
        indices
            Row indices, already known to be valid.

        Returns
        -------
        numpy.ndarray
            The rows, in the order given.
        """
        return gather_rows(self.weight, np.asarray(indices, dtype=np.int64).reshape(-1))

    def lookup(self, ids: object) -> npt.NDArray[np.float32]:
        """Return the rows selected by ``ids``, in input order.

        Parameters
        ----------
        ids
            An int, a sequence, a rectangular batch, or an integer array.

        Returns
        -------
        numpy.ndarray
            Float32 of shape ``ids.shape + (d,)``: row ``E[i]`` for every ID
            ``i``. Nothing is computed; rows are copied.

        Raises
        ------
        EmbedvizError
            For any invalid ID (see :func:`embedviz.core.ids.validate_ids`).
        """
        return lookup(self.weight, ids)


class _HasRows(Protocol):
    @property
    def vocab_size(self) -> int: ...

    @property
    def dim(self) -> int: ...

    def rows(self, indices: npt.ArrayLike) -> npt.NDArray[np.float32]: ...


class _RowLookup:
    """``lookup`` for tables that produce rows on demand through ``rows``."""

    def lookup(self: _HasRows, ids: object) -> npt.NDArray[np.float32]:
        """Validate ``ids`` and return their rows, shape ``ids.shape + (d,)``.

        Parameters
        ----------
        ids
            An int, a sequence, a rectangular batch, or an integer array.

        Returns
        -------
        numpy.ndarray
            The looked-up rows.
        """
        index = validate_ids(ids, self.vocab_size)
        return self.rows(index).reshape((*index.shape, self.dim))


@dataclass(frozen=True)
class TorchSeededTable(_RowLookup):
    """A torch-compatible seeded table that computes only the rows asked for.

    Its values equal ``EmbeddingTable.from_seed(V, d, seed, "torch")`` bit
    for bit, but a row costs the same whatever V is, so a scene of a
    GPT-2-sized table renders as fast as one of a toy table.

    Attributes
    ----------
    vocab_size
        ``V``.
    dim
        ``d``.
    seed
        The seed, as given to ``torch.manual_seed`` (negative ones included).
    """

    vocab_size: int
    dim: int
    seed: int

    @classmethod
    def create(
        cls, vocab_size: int = DEFAULT_VOCAB, dim: int = DEFAULT_DIM, seed: int = DEFAULT_SEED
    ) -> TorchSeededTable:
        """Check the sizes and seed, then make the table.

        Parameters
        ----------
        vocab_size
            ``V``.
        dim
            ``d``.
        seed
            The explicit seed.

        Returns
        -------
        TorchSeededTable
            The table; no values are computed yet.

        Raises
        ------
        EmbedvizError
            For bad sizes or seed, or a table that would not fit in memory
            were it built in full (the same rule as :meth:`EmbeddingTable.from_seed`).
        """
        check_table_fits(vocab_size, dim)
        torch_seed(seed)  # refuse a bad seed now, not when rows are asked for
        return cls(vocab_size, dim, seed)

    @property
    def source(self) -> str:
        """Where the values come from."""
        return f"torch-compatible seed {self.seed}"

    @property
    def seeded(self) -> bool:
        """True: the values are standard normal draws (the colour key needs none of them)."""
        return True

    def rows(self, indices: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Return the rows at ``indices``, computing only those.

        Parameters
        ----------
        indices
            Row indices in ``0 .. V-1``.

        Returns
        -------
        numpy.ndarray
            Float32 ``(n, d)``.
        """
        wanted = np.asarray(indices, dtype=np.int64).reshape(-1)
        return torch_normal_rows(self.seed, (self.vocab_size, self.dim), wanted)

    def materialise(self) -> EmbeddingTable:
        """Build the whole table.

        Returns
        -------
        EmbeddingTable
            All ``V × d`` values.
        """
        return EmbeddingTable.from_seed(self.vocab_size, self.dim, self.seed, "torch")


@dataclass(frozen=True, eq=False)
class FileTable(_RowLookup):
    """A table in a ``.npy`` or ``.safetensors`` file, read a row at a time.

    Only the rows a scene shows or looks up are read from the memory map and
    widened to float32, so a real model's table is never loaded whole.

    Attributes
    ----------
    matrix
        The memory-mapped tensor.
    source
        Where the values come from, for captions.
    """

    matrix: StoredMatrix
    source: str

    @classmethod
    def open(
        cls, path: str | Path, tensor: str | None = None, source: str | None = None
    ) -> FileTable:
        """Memory-map a weights file.

        Parameters
        ----------
        path
            A ``.npy`` or ``.safetensors`` file.
        tensor
            For ``.safetensors``: which tensor (default: a usual embedding name).
        source
            A description; by default the file's name.

        Returns
        -------
        FileTable
            The table; nothing is read yet.
        """
        matrix = open_weights(path, tensor)
        return cls(matrix, source or f"weights from {Path(path).name}")

    @property
    def vocab_size(self) -> int:
        """``V``, the number of rows."""
        return self.matrix.shape[0]

    @property
    def dim(self) -> int:
        """``d``, the number of columns."""
        return self.matrix.shape[1]

    @property
    def stored_dtype(self) -> str:
        """The file's dtype, e.g. ``float32`` or ``bfloat16``."""
        return self.matrix.stored_dtype

    def rows(self, indices: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Return the rows at ``indices``, read and widened to float32.

        Parameters
        ----------
        indices
            Row indices in ``0 .. V-1``.

        Returns
        -------
        numpy.ndarray
            Float32 ``(n, d)``.
        """
        return self.matrix.rows(indices)


def lookup(weight: npt.NDArray[np.float32], ids: object) -> npt.NDArray[np.float32]:
    """Select rows of a V×d ``weight`` matrix by token ID.

    Parameters
    ----------
    weight
        The 2-D table.
    ids
        An int, a sequence, a rectangular batch, or an integer array.

    Returns
    -------
    numpy.ndarray
        ``weight[ids]`` with shape ``ids.shape + (d,)``, after validation.

    Raises
    ------
    EmbedvizError
        For any invalid ID.
    """
    index = validate_ids(ids, int(weight.shape[0]))
    return gather_rows(weight, index.reshape(-1)).reshape((*index.shape, weight.shape[1]))


def gather_rows(
    weight: npt.NDArray[np.float32], index: npt.NDArray[np.int64]
) -> npt.NDArray[np.float32]:
    """Copy ``weight[index]`` for a flat array of already-validated row indices.

    Parameters
    ----------
    weight
        The 2-D table (an array or a memory map).
    index
        Flat int64 row indices, each known to be in range.

    Returns
    -------
    numpy.ndarray
        A new ``(len(index), d)`` array.

    Notes
    -----
    A lookup is a memory copy, so a large one is split across threads
    (numpy releases the GIL while it copies). ``mode="clip"`` lets
    ``np.take`` write straight into the output instead of buffering it; it
    never clips anything here because the indices were validated first.
    """
    count, dim = int(index.size), int(weight.shape[1])
    out = np.empty((count, dim), dtype=weight.dtype)
    workers = _worker_count()
    if workers == 1 or count * dim * weight.dtype.itemsize < _PARALLEL_BYTES:
        np.take(weight, index, axis=0, out=out, mode="clip")
        return out
    bounds = [count * part // workers for part in range(workers + 1)]
    pool = _pool()
    futures = [
        pool.submit(np.take, weight, index[a:b], 0, out[a:b], "clip")
        for a, b in itertools.pairwise(bounds[1:])
    ]
    # The calling thread copies the first slice itself.
    np.take(weight, index[: bounds[1]], axis=0, out=out[: bounds[1]], mode="clip")
    for future in futures:
        future.result()
    return out


# Below this many bytes a lookup is faster on one thread than handed out.
_PARALLEL_BYTES = 4 * 1024 * 1024


@cache
def _worker_count() -> int:
    return max(
        1,
        min(
            8,
            len(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else (os.cpu_count() or 1),
        ),
    )


@cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=_worker_count() - 1, thread_name_prefix="embedviz-gather")
