"""Reproduce PyTorch's default ``nn.Embedding`` initialisation without torch.

``torch.manual_seed(seed); torch.nn.Embedding(V, d).weight`` is a float32
``V x d`` tensor filled by ``normal_(0, 1)`` from torch's CPU generator.  That
generator is a plain MT19937, and the way torch turns its 32-bit outputs into
normal samples is simple enough to replay with numpy alone, so the project can
show "the table torch would give you" without depending on torch.

Two code paths exist in torch, chosen by the number of elements:

* ``numel >= 16`` (``normal_fill``): every element first gets a float32
  uniform ``(r & 0xFFFFFF) * 2**-24`` from one 32-bit draw ``r``.  Each full
  block of 16 is then turned into normals by Box-Muller, pairing slot ``j``
  with slot ``j + 8``.  When ``numel`` is not a multiple of 16, torch draws 16
  *fresh* uniforms for the last 16 slots and transforms them the same way,
  overwriting part of the last full block.
* ``numel < 16`` (serial kernel): each pair of samples uses two float64
  uniforms built from 53 bits of two 32-bit draws each, the Box-Muller result
  is computed in float64, and the sine half is cached for the next element.

torch has two kernels for the block path.  They round ``theta = 2*pi*u2``
differently, so their outputs differ by up to about 2.6e-6: the vectorised one
(torch's AVX2 and AVX-512 CPU capabilities, so any recent x86-64 CPU)
multiplies in float32, while the generic C++ loop (capability ``DEFAULT``,
e.g. under ``ATEN_CPU_CAPABILITY=default``; presumably also non-x86 CPUs,
which was not checked) rounds a float64 product to float32.  ``kernel``
selects which one to reproduce.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from embedviz.core.errors import EmbedvizError

__all__ = ["torch_normal", "torch_normal_rows"]

Kernel = Literal["vectorized", "scalar"]

# Values handled per pass of the block path: a multiple of 16, small enough that
# the float64 temporaries stay in cache, large enough to amortise numpy's
# per-call overhead (measured fastest around this size).
_CHUNK = 1 << 16
_BLOCK = 16
_HALF = _BLOCK // 2
_SEED_LIMIT = 1 << 64
_MASK_24 = np.uint64((1 << 24) - 1)
_MASK_53 = np.uint64((1 << 53) - 1)
_SCALE_24 = np.float32(2.0**-24)
_SCALE_53 = 2.0**-53
# The vectorised kernel broadcasts 2*pi as a float32 constant; the generic one
# multiplies by the float64 value and rounds the product.
_TWO_PI_F32 = np.float32(2.0 * math.pi)


def torch_normal(
    seed: int, shape: tuple[int, ...], *, kernel: Kernel = "vectorized"
) -> NDArray[np.float32]:
    """Return what ``torch.manual_seed(seed)`` then ``normal_(0, 1)`` gives.

    For a 2-D ``shape == (V, d)`` this equals
    ``torch.manual_seed(seed); torch.nn.Embedding(V, d).weight`` on the CPU.

    Parameters
    ----------
    seed : int
        Seed as passed to ``torch.manual_seed``; ``0 <= seed < 2**64``.  Like
        torch, only the low 32 bits reach the Mersenne Twister, so ``seed``
        and ``seed + 2**32`` give the same values.
    shape : tuple of int
        Shape of the result; every entry a non-negative int.
    kernel : {"vectorized", "scalar"}, optional
        Which torch kernel to match for tensors of 16 or more elements.
        ``"vectorized"`` (default) is torch's AVX2/AVX-512 kernel, used on
        any modern x86-64 CPU; ``"scalar"`` is its generic C++ kernel.  Smaller
        tensors use one path in torch, so this is ignored for them.

    Returns
    -------
    numpy.ndarray
        C-contiguous float32 array of ``shape``.  Against torch 2.13 the
        largest difference measured is one float32 ulp (4.8e-7 at the
        largest magnitudes); most elements agree bit for bit.

    Raises
    ------
    EmbedvizError
        If ``seed`` is not an int (bools included) or is out of range, if
        ``shape`` is not a sequence of non-negative ints, or if ``kernel`` is
        unknown.
    """
    seed = _check_seed(seed)
    dims = _check_shape(shape)
    if kernel not in ("vectorized", "scalar"):
        raise EmbedvizError(f"kernel must be 'vectorized' or 'scalar', got {kernel!r}")
    numel = math.prod(dims)
    out = np.empty(numel, dtype=np.float32)
    if numel > 0:
        bit_gen = _seeded_mt19937(seed)
        if numel < _BLOCK:
            _fill_serial(bit_gen, out)
        else:
            _fill_blocks(bit_gen, out, kernel)
    return out.reshape(dims)


def torch_normal_rows(
    seed: int,
    shape: tuple[int, int],
    rows: NDArray[np.int64],
    *,
    kernel: Kernel = "vectorized",
) -> NDArray[np.float32]:
    """Return only some rows of ``torch_normal(seed, shape)``, without the rest.

    The Mersenne Twister stream still has to be walked up to the last row,
    but that is cheap; the Box-Muller transform, which dominates the cost,
    runs only for the 16-value blocks that the rows touch. A scene that
    shows ten rows of a 50257 x 768 table therefore pays for ten rows.

    Parameters
    ----------
    seed : int
        As for :func:`torch_normal`.
    shape : tuple of int
        ``(V, d)``, the full table's shape.
    rows : numpy.ndarray
        Row indices, each ``0 <= r < V``; repeats and any order are fine.
    kernel : {"vectorized", "scalar"}, optional
        As for :func:`torch_normal`.

    Returns
    -------
    numpy.ndarray
        Float32 of shape ``(len(rows), d)``, equal bit for bit to
        ``torch_normal(seed, shape, kernel=kernel)[rows]``.

    Raises
    ------
    EmbedvizError
        For a bad seed, shape or kernel, or a row outside ``0 .. V-1``.
    """
    seed = _check_seed(seed)
    dims = _check_shape(shape)
    if len(dims) != 2:
        raise EmbedvizError(f"torch_normal_rows needs a 2-D shape (V, d), got {dims}")
    if kernel not in ("vectorized", "scalar"):
        raise EmbedvizError(f"kernel must be 'vectorized' or 'scalar', got {kernel!r}")
    vocab, dim = dims
    wanted = np.asarray(rows, dtype=np.int64).reshape(-1)
    if wanted.size and (wanted.min() < 0 or wanted.max() >= vocab):
        raise EmbedvizError(f"rows must lie in 0 .. {vocab - 1}")
    numel = vocab * dim
    if numel < _BLOCK or wanted.size == 0:
        return torch_normal(seed, dims, kernel=kernel)[wanted]
    elements = (wanted[:, None] * dim + np.arange(dim)[None, :]).reshape(-1)
    full = numel - numel % _BLOCK
    in_tail = elements >= full if full == numel else elements >= numel - _BLOCK
    # Stream positions of each element's 16-value block: regular blocks sit
    # where they are; the recomputed last block was drawn after all numel
    # draws (see _fill_blocks).
    block_start = np.where(in_tail, numel, (elements // _BLOCK) * _BLOCK)
    offset = np.where(in_tail, elements - (numel - _BLOCK), elements % _BLOCK)
    starts, inverse = np.unique(block_start, return_inverse=True)
    gathered = np.empty((starts.size, _BLOCK), dtype=np.uint64)
    bit_gen = _seeded_mt19937(seed)
    position = 0
    pending = 0  # index into starts of the next block to collect
    end = int(starts[-1]) + _BLOCK
    while pending < starts.size:
        stop = min(position + _CHUNK, end)
        raw = bit_gen.random_raw(stop - position)
        # No block straddles two chunks: regular blocks are 16-aligned, chunks
        # are multiples of 16, and the last chunk ends where the last block does.
        while pending < starts.size and starts[pending] + _BLOCK <= stop:
            first = int(starts[pending]) - position
            gathered[pending] = raw[first : first + _BLOCK]
            pending += 1
        position = stop
    values = np.empty((starts.size, _BLOCK), dtype=np.float32)
    _box_muller(gathered.reshape(-1), values.reshape(-1), kernel)
    picked = values[inverse.reshape(-1), offset]
    return picked.reshape(wanted.size, dim)


def _check_seed(seed: object) -> int:
    # bool is an int subclass, but a seed of True is almost surely a mistake.
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise EmbedvizError(f"seed must be an int, got {type(seed).__name__}")
    value = int(seed)
    if not 0 <= value < _SEED_LIMIT:
        raise EmbedvizError(f"seed must be in [0, 2**64), got {value}")
    return value


def _check_shape(shape: object) -> tuple[int, ...]:
    if not isinstance(shape, (tuple, list)):
        raise EmbedvizError(f"shape must be a tuple of ints, got {type(shape).__name__}")
    dims: list[int] = []
    for dim in shape:
        if isinstance(dim, (bool, np.bool_)) or not isinstance(dim, (int, np.integer)) or dim < 0:
            raise EmbedvizError(f"shape entries must be non-negative ints, got {shape!r}")
        dims.append(int(dim))
    return tuple(dims)


def _seeded_mt19937(seed: int) -> np.random.MT19937:
    """Return an MT19937 in the state ``torch.manual_seed(seed)`` leaves."""
    # torch seeds with the reference init_genrand on the low 32 bits; numpy's
    # legacy RandomState does exactly that for an int seed.  The modern
    # MT19937 seeds differently, so borrow the legacy state instead.
    legacy = np.random.RandomState(seed & 0xFFFFFFFF)
    state = legacy.get_state(legacy=False)
    # A fixed seed here only avoids asking the OS for entropy we overwrite.
    bit_gen = np.random.MT19937(0)
    bit_gen.state = {"bit_generator": "MT19937", "state": state["state"]}
    return bit_gen


def _fill_serial(bit_gen: np.random.MT19937, out: NDArray[np.float32]) -> None:
    """Replay torch's per-element normal sampler (used below 16 elements)."""
    pairs = (out.size + 1) // 2
    # Each pair takes two float64 uniforms of two 32-bit draws each; the first
    # draw of a uniform supplies its high word.
    raw = bit_gen.random_raw(4 * pairs).reshape(pairs, 2, 2)
    words = ((raw[:, :, 0] << np.uint64(32)) | raw[:, :, 1]) & _MASK_53
    uniforms = words.astype(np.float64) * _SCALE_53
    # torch uses the first uniform for the angle and the second for the radius.
    theta = (2.0 * math.pi) * uniforms[:, 0]
    radius = np.sqrt(-2.0 * np.log1p(-uniforms[:, 1]))
    # The cosine is returned first and the cached sine serves the next element.
    values = np.empty((pairs, 2), dtype=np.float64)
    values[:, 0] = radius * np.cos(theta)
    values[:, 1] = radius * np.sin(theta)
    out[:] = values.reshape(-1)[: out.size]


def _fill_blocks(bit_gen: np.random.MT19937, out: NDArray[np.float32], kernel: Kernel) -> None:
    """Replay torch's block-of-16 Box-Muller fill (16 or more elements)."""
    numel = out.size
    full = numel - numel % _BLOCK
    for start in range(0, full, _CHUNK):
        stop = min(start + _CHUNK, full)
        raw = bit_gen.random_raw(stop - start)
        _box_muller(raw, out[start:stop], kernel)
    if full != numel:
        # torch drew uniforms for the leftover slots too and then discards
        # them: skip those draws before taking 16 new ones for the last block.
        bit_gen.random_raw(numel - full)
        last = np.empty(_BLOCK, dtype=np.float32)
        _box_muller(bit_gen.random_raw(_BLOCK), last, kernel)
        out[numel - _BLOCK :] = last


def _box_muller(raw: NDArray[np.uint64], out: NDArray[np.float32], kernel: Kernel) -> None:
    """Turn ``16 * k`` raw draws into ``16 * k`` normals, written to ``out``.

    torch evaluates log, cos and sin in float32 with its own math library.
    Here they are evaluated in float64 and rounded once, i.e. correctly
    rounded float32 results, which differ from torch's by at most one ulp and
    usually not at all, and do not depend on numpy's float32 SIMD routines.
    """
    # 24-bit integers and their scaling by 2**-24 are exact in float32.
    uniforms = (raw & _MASK_24).astype(np.float32)
    uniforms *= _SCALE_24
    blocks = uniforms.reshape(-1, 2, _HALF)
    # 1 - u maps [0, 1) onto (0, 1] so the log is finite; exact in float32.
    one_minus_u1 = np.float32(1.0) - blocks[:, 0]
    u2 = blocks[:, 1]
    log_u1 = np.log(one_minus_u1, dtype=np.float64).astype(np.float32)
    radius = np.sqrt(np.float32(-2.0) * log_u1)
    if kernel == "vectorized":
        theta = (_TWO_PI_F32 * u2).astype(np.float64)
    else:
        theta = (2.0 * math.pi) * u2.astype(np.float64)
        # The generic kernel stores theta as float32 before cos/sin.
        theta = theta.astype(np.float32).astype(np.float64)
    halves = out.reshape(-1, 2, _HALF)
    np.multiply(radius, np.cos(theta).astype(np.float32), out=halves[:, 0])
    np.multiply(radius, np.sin(theta).astype(np.float32), out=halves[:, 1])
