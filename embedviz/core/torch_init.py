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

torch has two kernels for the block path (see :func:`cpu_kernel` for which
one a machine runs):

* ``"vectorized"``: ``normal_fill_16_AVX2``, used by torch's AVX2 and AVX-512
  CPU capabilities (x86-64 CPUs with AVX2 and FMA).  It evaluates log, sin and
  cos with the Cephes-style float32 polynomials of ATen's ``avx_mathfun.h``
  (``log256_ps``, ``sincos256_ps``), and torch's GCC build contracts their
  multiply-adds into fused multiply-adds.  This module replays those float32
  operations one by one, fused ones included (see :func:`_fma`), so its
  values equal torch's bit for bit.
* ``"scalar"``: the generic C++ loop (capability ``DEFAULT``: CPUs without
  AVX2, non-x86 CPUs, or ``ATEN_CPU_CAPABILITY=default``).  It calls the C
  library's ``logf``, ``cosf`` and ``sinf``.  This module replays glibc's
  (2.27/2.28 and later, x86-64: a table-driven ``logf`` and a one-step
  reduction ``sincosf``, all in float64), which matches torch bit for bit on
  Linux; another C library (macOS, Windows, musl) may round a last bit
  differently.
"""

from __future__ import annotations

import math
import os
import platform
import threading
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from embedviz.core.errors import EmbedvizError
from embedviz.core.mt_jump import MTJumper

__all__ = ["Kernel", "cpu_kernel", "torch_normal", "torch_normal_rows", "torch_seed"]

Kernel = Literal["vectorized", "scalar"]

# Values handled per pass of the block path: a multiple of 16, small enough that
# the float64 temporaries stay in cache, large enough to amortise numpy's
# per-call overhead (measured fastest around this size).
_CHUNK = 1 << 16
_BLOCK = 16
_HALF = _BLOCK // 2
# torch.manual_seed takes any int from -2**63 to 2**64 - 1 and keeps it modulo
# 2**64 (a negative seed is read as a signed 64-bit integer).
_SEED_MODULUS = 1 << 64
_SEED_MIN = -(1 << 63)
_MASK_24 = np.uint64((1 << 24) - 1)
_MASK_53 = np.uint64((1 << 53) - 1)
_SCALE_24 = np.float32(2.0**-24)
_SCALE_53 = 2.0**-53
# The vectorised kernel broadcasts 2*pi as a float32 constant; the generic one
# multiplies by the float64 value and rounds the product.
_TWO_PI_F32 = np.float32(2.0 * math.pi)

# Constants of avx_mathfun.h.  C initialises its float tables from double
# literals, i.e. decimal -> double -> float, which is what np.float32(float)
# does too.
_ONE = np.float32(1.0)
_HALF_F32 = np.float32(0.5)
_ZERO = np.float32(0.0)
_MIN_NORM_POS = np.float32(2.0**-126)
_SMALLEST_NORMAL_F32 = 2.0**-126
_LOW_29_BITS = np.int64((1 << 29) - 1)
_MIDPOINT_BITS = np.int64(1 << 28)
_INV_MANT_MASK = np.uint32(~0x7F800000 & 0xFFFFFFFF)
_HALF_BITS = np.uint32(0x3F000000)  # the bits of 0.5f
_SQRTHF = np.float32(0.707106781186547524)
_LOG_P = tuple(
    np.float32(c)
    for c in (
        7.0376836292e-2,
        -1.1514610310e-1,
        1.1676998740e-1,
        -1.2420140846e-1,
        1.4249322787e-1,
        -1.6668057665e-1,
        2.0000714765e-1,
        -2.4999993993e-1,
        3.3333331174e-1,
    )
)
_LOG_Q1 = np.float32(-2.12194440e-4)
_LOG_Q2 = np.float32(0.693359375)
_FOUR_OVER_PI = np.float32(1.27323954473516)
_MINUS_DP = (
    np.float32(-0.78515625),
    np.float32(-2.4187564849853515625e-4),
    np.float32(-3.77489497744594108e-8),
)
_SIN_P = (np.float32(-1.9515295891e-4), np.float32(8.3321608736e-3), np.float32(-1.6666654611e-1))
_COS_P = (
    np.float32(2.443315711809948e-005),
    np.float32(-1.388731625493765e-003),
    np.float32(4.166664568298827e-002),
)

# torch's own capability rule (aten/src/ATen/native/DispatchStub.cpp).
_CAPABILITY_VARIABLE = "ATEN_CPU_CAPABILITY"
_X86_64 = frozenset({"x86_64", "amd64", "x64"})
_CPUINFO = Path("/proc/cpuinfo")
_THREAD = threading.local()


def torch_seed(seed: object) -> int:
    """Return the 64-bit seed that ``torch.manual_seed(seed)`` keeps.

    Like torch, a negative seed is read as a signed 64-bit integer, so
    ``-1`` is the same seed as ``2**64 - 1``.

    Parameters
    ----------
    seed : int
        A whole number from ``-2**63`` to ``2**64 - 1`` (the range torch
        accepts); numpy integers are fine, bools are not.

    Returns
    -------
    int
        ``seed`` modulo ``2**64``, in ``0 .. 2**64 - 1``.

    Raises
    ------
    EmbedvizError
        If ``seed`` is not an int or is outside that range.
    """
    # bool is an int subclass, but a seed of True is almost surely a mistake.
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise EmbedvizError(f"the seed must be a whole number from -2**63 to 2**64-1, not {seed!r}")
    value = int(seed)
    if not _SEED_MIN <= value < _SEED_MODULUS:
        raise EmbedvizError(f"the seed must be a whole number from -2**63 to 2**64-1, not {value}")
    return value % _SEED_MODULUS


def cpu_kernel(
    environ: Mapping[str, str] | None = None,
    *,
    machine: str | None = None,
    cpu_flags: frozenset[str] | None = None,
) -> Kernel:
    """Return the block kernel torch's CPU build runs on this machine.

    torch picks ``"vectorized"`` (capability AVX2 or AVX512) on x86-64 CPUs
    with AVX2 and FMA, and ``"scalar"`` (capability DEFAULT) elsewhere;
    ``ATEN_CPU_CAPABILITY`` overrides its choice.  This follows the same
    rule without importing torch, reading the CPU flags from
    ``/proc/cpuinfo`` (Linux).  An x86-64 machine whose flags cannot be read
    (macOS, Windows) is assumed to have AVX2, as any x86-64 CPU since 2013
    does.

    Parameters
    ----------
    environ : mapping, optional
        The environment; ``os.environ`` by default.
    machine : str, optional
        The machine type; ``platform.machine()`` by default.
    cpu_flags : frozenset of str, optional
        The CPU's feature flags; read from ``/proc/cpuinfo`` by default.

    Returns
    -------
    {"vectorized", "scalar"}
        The kernel :func:`torch_normal` should reproduce.
    """
    env = os.environ if environ is None else environ
    arch = (platform.machine() if machine is None else machine).lower()
    requested = env.get(_CAPABILITY_VARIABLE)
    if requested == "default":
        return "scalar"
    if arch not in _X86_64:
        return "scalar"
    if requested in ("avx2", "avx512"):
        return "vectorized"
    flags = _cpu_flags() if cpu_flags is None else cpu_flags
    if flags is None:
        return "vectorized"
    return "vectorized" if {"avx2", "fma"} <= flags else "scalar"


@cache
def _cpu_flags() -> frozenset[str] | None:
    """Return the first processor's flags in /proc/cpuinfo, or None if unreadable."""
    try:
        text = _CPUINFO.read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() == "flags":
            return frozenset(value.split())
    return None


def _resolve_kernel(kernel: object) -> Kernel:
    if kernel is None:
        return cpu_kernel()
    if kernel == "vectorized":
        return "vectorized"
    if kernel == "scalar":
        return "scalar"
    raise EmbedvizError(f"kernel must be 'vectorized' or 'scalar', got {kernel!r}")


def torch_normal(
    seed: int, shape: tuple[int, ...], *, kernel: Kernel | None = None
) -> NDArray[np.float32]:
    """Return what ``torch.manual_seed(seed)`` then ``normal_(0, 1)`` gives.

    For a 2-D ``shape == (V, d)`` this equals
    ``torch.manual_seed(seed); torch.nn.Embedding(V, d).weight`` on the CPU.

    Parameters
    ----------
    seed : int
        Seed as passed to ``torch.manual_seed``: ``-2**63 <= seed < 2**64``,
        taken modulo ``2**64`` (see :func:`torch_seed`).  Like torch, only the
        low 32 bits reach the Mersenne Twister, so ``seed`` and
        ``seed + 2**32`` give the same values.
    shape : tuple of int
        Shape of the result; every entry a non-negative int.
    kernel : {"vectorized", "scalar"}, optional
        Which torch kernel to match for tensors of 16 or more elements.
        ``"vectorized"`` is torch's AVX2/AVX-512 kernel, ``"scalar"`` its
        generic C++ kernel; by default, the one torch runs on this machine
        (:func:`cpu_kernel`).  Smaller tensors use one path in torch, so this
        is ignored for them.

    Returns
    -------
    numpy.ndarray
        C-contiguous float32 array of ``shape``, equal to torch's bit for
        bit (for the ``"scalar"`` kernel: where torch uses glibc's maths, as
        on Linux).

    Raises
    ------
    EmbedvizError
        If ``seed`` is not an int (bools included) or is out of range, if
        ``shape`` is not a sequence of non-negative ints, or if ``kernel`` is
        unknown.
    """
    seed = torch_seed(seed)
    dims = _check_shape(shape)
    kernel = _resolve_kernel(kernel)
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
    kernel: Kernel | None = None,
) -> NDArray[np.float32]:
    """Return only some rows of ``torch_normal(seed, shape)``, without the rest.

    The Mersenne Twister stream is drawn between nearby rows and jumped
    over long gaps (see :mod:`embedviz.core.mt_jump`), so the cost does not
    grow with the table's size; the Box-Muller transform runs only for the
    16-value blocks that the rows touch. A scene that shows ten rows of a
    256000 x 16384 table therefore pays for ten rows.

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
    seed = torch_seed(seed)
    dims = _check_shape(shape)
    if len(dims) != 2:
        raise EmbedvizError(f"torch_normal_rows needs a 2-D shape (V, d), got {dims}")
    kernel = _resolve_kernel(kernel)
    vocab, dim = dims
    wanted = np.asarray(rows, dtype=np.int64).reshape(-1)
    if wanted.size and (wanted.min() < 0 or wanted.max() >= vocab):
        raise EmbedvizError(f"rows must lie in 0 .. {vocab - 1}")
    numel = vocab * dim
    if numel < _BLOCK or wanted.size == 0:
        return torch_normal(seed, dims, kernel=kernel)[wanted]
    if numel >= _LONG_WALK:
        # A copy: the remembered rows stay as they were, whatever the caller does.
        return _remembered_rows(seed, vocab, dim, tuple(int(r) for r in wanted), kernel).copy()
    return _rows_from_stream(seed, vocab, dim, wanted, kernel)


# One process may ask for the same rows of a large table again (a storyboard, then
# its checks): those answers are remembered, a few at a time.  (Before the stream
# was jumped, 256000 x 16384 took 9 s to walk to its last row; now about 0.2 s.)
_LONG_WALK = 1 << 28
# Gaps in the stream at least this long are jumped (mt_jump, about 0.04 s
# whatever the distance) rather than drawn (about 2.5 ns a draw, so 0.04 s here).
_JUMP_MIN = 1 << 24


@lru_cache(maxsize=8)
def _remembered_rows(
    seed: int, vocab: int, dim: int, wanted: tuple[int, ...], kernel: Kernel
) -> NDArray[np.float32]:
    return _rows_from_stream(seed, vocab, dim, np.asarray(wanted, dtype=np.int64), kernel)


def _rows_from_stream(
    seed: int, vocab: int, dim: int, wanted: NDArray[np.int64], kernel: Kernel
) -> NDArray[np.float32]:
    """Draw or jump to each wanted block of the stream; transform only those blocks."""
    numel = vocab * dim
    elements = (wanted[:, None] * dim + np.arange(dim)[None, :]).reshape(-1)
    full = numel - numel % _BLOCK
    in_tail = elements >= full if full == numel else elements >= numel - _BLOCK
    # Stream positions of each element's 16-value block: regular blocks sit
    # where they are; the recomputed last block was drawn after all numel
    # draws (see _fill_blocks).
    block_start = np.where(in_tail, numel, (elements // _BLOCK) * _BLOCK)
    offset = np.where(in_tail, elements - (numel - _BLOCK), elements % _BLOCK)
    starts, inverse = np.unique(block_start, return_inverse=True)
    gathered = _gather_blocks(seed, starts)
    values = np.empty((starts.size, _BLOCK), dtype=np.float32)
    _box_muller(gathered.reshape(-1), values.reshape(-1), kernel)
    picked = values[inverse.reshape(-1), offset]
    return picked.reshape(wanted.size, dim)


def _gather_blocks(seed: int, starts: NDArray[np.int64]) -> NDArray[np.uint64]:
    """Return the 16 raw draws at each of the sorted, distinct stream ``starts``."""
    gathered = np.empty((starts.size, _BLOCK), dtype=np.uint64)
    bit_gen = _seeded_mt19937(seed)
    jumper: MTJumper | None = None  # made at the first long gap, shared by the rest
    # Adjacent blocks (a row is d / 16 of them) are drawn together, a chunk at
    # a time, so the Python loop runs per run of blocks rather than per block.
    breaks = np.flatnonzero(np.diff(starts) != _BLOCK) + 1
    firsts = [0, *breaks.tolist()]
    ends = [*breaks.tolist(), starts.size]
    per_chunk = _CHUNK // _BLOCK
    position = 0
    for run_first, run_end in zip(firsts, ends, strict=True):
        for first in range(run_first, run_end, per_chunk):
            count = min(per_chunk, run_end - first)
            start = int(starts[first])
            gap = start - position
            if gap >= _JUMP_MIN:
                # Every jump starts from the seeded state, so one jumper serves
                # all; reseeding the thread's generator is safe, as bit_gen is
                # replaced next.
                if jumper is None:
                    jumper = MTJumper(_seeded_mt19937(seed))
                bit_gen = jumper.advanced(start)
            elif gap:
                bit_gen.random_raw(gap, output=False)
            gathered[first : first + count] = bit_gen.random_raw(count * _BLOCK).reshape(
                count, _BLOCK
            )
            position = start + count * _BLOCK
    return gathered


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
    """Return an MT19937 in the state ``torch.manual_seed(seed)`` leaves.

    The generator is this thread's own and is reseeded by the next call, so
    callers use it up before calling again.
    """
    # torch seeds with the reference init_genrand on the low 32 bits; numpy's
    # legacy seeding (what RandomState(seed) does) is exactly that.  The modern
    # MT19937 seeds differently.  Making a generator costs ~0.3 ms, more than
    # a small table, so each thread keeps one and reseeds it.
    low = seed & 0xFFFFFFFF
    bit_gen: np.random.MT19937 | None = getattr(_THREAD, "mt19937", None)
    if bit_gen is None:
        # A fixed seed here only avoids asking the OS for entropy we overwrite.
        bit_gen = np.random.MT19937(0)
        _THREAD.mt19937 = bit_gen
    reseed = getattr(bit_gen, "_legacy_seeding", None)
    if reseed is not None:
        reseed(low)
    else:  # pragma: no cover - a numpy without the private fast path
        state = np.random.RandomState(low).get_state(legacy=False)
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
    """Turn ``16 * k`` raw draws into ``16 * k`` normals, written to ``out``."""
    # 24-bit integers and their scaling by 2**-24 are exact in float32.
    uniforms = (raw & _MASK_24).astype(np.float32)
    uniforms *= _SCALE_24
    blocks = uniforms.reshape(-1, 2, _HALF)
    # 1 - u maps [0, 1) onto (0, 1] so the log is finite; exact in float32.
    one_minus_u1 = _ONE - blocks[:, 0]
    u2 = blocks[:, 1]
    if kernel == "vectorized":
        radius = np.sqrt(np.float32(-2.0) * _avx_log(one_minus_u1))
        sin, cos = _avx_sincos(_TWO_PI_F32 * u2)
    else:
        # The generic kernel calls the C library's logf, cosf and sinf.
        radius = np.sqrt(np.float32(-2.0) * _glibc_logf(one_minus_u1))
        # theta = 2.0f * pi<double> * u2 is a float64 product stored as float.
        theta = ((2.0 * math.pi) * u2.astype(np.float64)).astype(np.float32)
        sin, cos = _glibc_sincosf(theta)
    halves = out.reshape(-1, 2, _HALF)
    np.multiply(radius, cos, out=halves[:, 0])
    np.multiply(radius, sin, out=halves[:, 1])
    # Both kernels end with value * std + mean, i.e. + 0.0f, which turns a
    # negative zero (radius 0 when u1 == 0) into +0.
    out += _ZERO


def _fma(
    a: NDArray[np.float32] | np.float32,
    b: NDArray[np.float32] | np.float32,
    c: NDArray[np.float32] | np.float32,
) -> NDArray[np.float32]:
    """Fused float32 multiply-add ``a * b + c``, rounded once.

    The float64 product of two float32 values is exact (48 bits).  Adding
    ``c`` in float64 rounds once more, and rounding that to float32 then
    gives the correctly rounded result unless the float64 sum landed exactly
    on a midpoint between two float32 values: float32 midpoints are float64
    values, so none can lie strictly between the exact sum and its nearest
    float64.  Such rare sums are recomputed exactly and rounded to odd
    (TwoSum gives the error; an inexact sum with an even last bit moves one
    float64 step towards the exact value), which rounds to float32 as the
    exact sum would (Boldo and Melquiond, 2008).
    """
    total = np.multiply(a, b, dtype=np.float64)
    total += c
    bits = total.view(np.int64)
    # A float32 midpoint in float32's normal range has float64 mantissa bits
    # ...1 followed by 28 zeros; near float32's subnormals the test differs,
    # so those (never met by the kernels here) are recomputed as well.
    suspect = (bits & _LOW_29_BITS) == _MIDPOINT_BITS
    suspect |= np.abs(total) < _SMALLEST_NORMAL_F32
    if suspect.any():
        where = np.nonzero(suspect)
        product = np.multiply(
            np.broadcast_to(a, total.shape)[where],
            np.broadcast_to(b, total.shape)[where],
            dtype=np.float64,
        )
        addend = np.broadcast_to(c, total.shape)[where].astype(np.float64)
        near = product + addend
        back = near - product
        error = (product - (near - back)) + (addend - back)
        near_bits = near.view(np.int64)
        # Stepping the bit pattern by +1 grows the magnitude, -1 shrinks it.
        towards = np.where((error > 0) == (near > 0), 1, -1)
        near_bits += ((error != 0) & ((near_bits & 1) == 0)) * towards
        total[where] = near
    return total.astype(np.float32)


def _avx_log(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """``log256_ps`` of avx_mathfun.h, as torch's build evaluates it.

    ``x`` lies in ``[2**-24, 1]`` here, so its invalid-input (NaN) branch
    never applies and is left out.
    """
    bits = np.maximum(x, _MIN_NORM_POS).view(np.uint32)
    # e = (biased exponent - 127) + 1, and the mantissa scaled into [0.5, 1).
    e = ((bits >> np.uint32(23)).astype(np.int32) - 127).astype(np.float32) + _ONE
    m = ((bits & _INV_MANT_MASK) | _HALF_BITS).view(np.float32)
    # if m < sqrt(1/2): e -= 1, x = m + m - 1, else x = m - 1 (all exact).
    small = m < _SQRTHF
    y = (m - _ONE) + np.where(small, m, _ZERO)
    e = e - small.astype(np.float32)
    z = y * y
    # Horner's rule, every step fused: p = p * y + c.
    p = _fma(_LOG_P[0], y, _LOG_P[1])
    for coefficient in _LOG_P[2:]:
        p = _fma(p, y, coefficient)
    p = p * y
    # p * z + e * q1: the compiler fuses the first product, not the second.
    p = _fma(p, z, e * _LOG_Q1)
    # z * 0.5 and e * q2 are exact, so fused or not they round the same.
    half_z: NDArray[np.float32] = z * _HALF_F32
    p = p - half_z
    result: NDArray[np.float32] = (y + p) + e * _LOG_Q2
    return result


def _avx_sincos(
    theta: NDArray[np.float32],
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """``sincos256_ps`` of avx_mathfun.h, as torch's build evaluates it."""
    x = np.abs(theta)
    # j = (int(x * 4/pi) + 1) & ~1: the octant, rounded up to even.
    j = (x * _FOUR_OVER_PI).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(np.float32)
    # x - j * pi/4 in three fused steps ("extended precision modular
    # arithmetic"), pi/4 split into three parts.  j <= 8 here (theta < 2 pi),
    # and the first two parts have 8 and 12 significant bits, so their
    # products are exact in float32 and fusing them changes nothing.
    x = x + y * _MINUS_DP[0]
    x = x + y * _MINUS_DP[1]
    x = _fma(y, _MINUS_DP[2], x)
    z = x * x
    # The cosine polynomial: 1 - z/2 + z^2 (c2 + z (c1 + z c0)); the last
    # multiply by z is fused with the subtraction of z/2.
    c = _fma(_COS_P[0], z, _COS_P[1])
    c = _fma(c, z, _COS_P[2])
    c = c * z
    c = _fma(c, z, -(z * _HALF_F32))
    c = c + _ONE
    # The sine polynomial: x + x z (s2 + z (s1 + z s0)).
    s = _fma(_SIN_P[0], z, _SIN_P[1])
    s = _fma(s, z, _SIN_P[2])
    s = s * z
    s = _fma(s, x, x)
    # In octants 0 and 1 of each half turn (mod 4) the sine polynomial gives
    # sin; otherwise the two swap.  The kernel selects by masking and adding
    # a zero, which also turns -0 into +0.
    sine_poly = (j & 2) == 0
    sin = np.where(sine_poly, s, c) + _ZERO
    cos = np.where(sine_poly, c, s) + _ZERO
    np.negative(sin, out=sin, where=((j & 4) != 0) ^ np.signbit(theta))
    np.negative(cos, out=cos, where=((~(j - 2)) & 4) != 0)
    return sin, cos


# glibc's logf (sysdeps/ieee754/flt-32/e_logf.c, glibc 2.27 and later): a
# 16-entry table of (1/c, log c) and a cubic for log1p(z/c - 1), in float64.
_LOGF_TABLE = tuple(
    (float.fromhex(inv_c), float.fromhex(log_c))
    for inv_c, log_c in (
        ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"),
        ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
        ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"),
        ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
        ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"),
        ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
        ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"),
        ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
        ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"),
        ("0x1p+0", "0x0p+0"),
        ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"),
        ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
        ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"),
        ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
        ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"),
        ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"),
    )
)
_LOGF_INV_C = np.array([inv_c for inv_c, _ in _LOGF_TABLE])
_LOGF_LOG_C = np.array([log_c for _, log_c in _LOGF_TABLE])
_LOGF_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOGF_A = tuple(
    float.fromhex(c)
    for c in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2")
)
_LOGF_OFF = np.uint32(0x3F330000)

# glibc's sinf/cosf/sincosf (s_sinf.c, s_cosf.c, s_sincosf.c, glibc 2.28 and
# later): one-step reduction by pi/2 in float64 and two short polynomials.
_HALF_PI_INV_2_24 = float.fromhex("0x1.45F306DC9C883p+23")  # 2/pi * 2**24
_HALF_PI = float.fromhex("0x1.921FB54442D18p0")
_SINCOSF_COS = tuple(
    float.fromhex(c)
    for c in (
        "0x1p0",
        "-0x1.ffffffd0c621cp-2",
        "0x1.55553e1068f19p-5",
        "-0x1.6c087e89a359dp-10",
        "0x1.99343027bf8c3p-16",
    )
)
_SINCOSF_SIN = tuple(
    float.fromhex(c)
    for c in ("-0x1.555545995a603p-3", "0x1.1107605230bc4p-7", "-0x1.994eb3774cf24p-13")
)
_SINE_SIGN = np.array([1.0, -1.0, -1.0, 1.0])
# Thresholds on a float's top 12 bits (sign cleared): 0.75 (float(pi/4)
# truncated to those bits), 2**-12 and 120.
_TOP12_SMALL = 0x3F4
_TOP12_TINY = 0x398


def _glibc_logf(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """Return glibc's ``logf`` of normal positive ``x``, as its x86-64 build does.

    Every step is a plain float64 operation, as in glibc's SSE2 build; its
    FMA build fuses some of them, which changes the float result only in
    extremely rare cases (none in 12.8M values tested).
    """
    ix = x.view(np.uint32)
    offset = ix - _LOGF_OFF  # wraps like uint32_t
    index = (offset >> np.uint32(19)) % np.uint32(16)
    k = offset.view(np.int32) >> 23  # arithmetic shift
    z = (ix - (offset & np.uint32(0x1FF << 23))).view(np.float32).astype(np.float64)
    r = z * _LOGF_INV_C[index] - 1.0
    y0 = _LOGF_LOG_C[index] + k.astype(np.float64) * _LOGF_LN2
    r2 = r * r
    y = _LOGF_A[1] * r + _LOGF_A[2]
    y = _LOGF_A[0] * r2 + y
    y = y * r2 + (y0 + r)
    result: NDArray[np.float32] = y.astype(np.float32)
    return result


def _glibc_sin_poly(x: NDArray[np.float64], x2: NDArray[np.float64]) -> NDArray[np.float64]:
    x3 = x * x2
    tail = _SINCOSF_SIN[1] + x2 * _SINCOSF_SIN[2]
    x5 = x3 * x2
    s = x + x3 * _SINCOSF_SIN[0]
    result: NDArray[np.float64] = s + x5 * tail
    return result


def _glibc_cos_poly(
    x2: NDArray[np.float64], sign: NDArray[np.float64] | float
) -> NDArray[np.float64]:
    # glibc's second table holds the negated coefficients, for -cos.
    c = [sign * coefficient for coefficient in _SINCOSF_COS]
    x4 = x2 * x2
    tail = c[3] + x2 * c[4]
    head = c[0] + x2 * c[1]
    x6 = x4 * x2
    body = head + x4 * c[2]
    result: NDArray[np.float64] = body + x6 * tail
    return result


def _glibc_sincosf(
    theta: NDArray[np.float32],
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Return glibc's ``sinf`` and ``cosf`` of ``0 <= theta < 120`` (x86-64 build).

    ``sinf``, ``cosf`` and ``sincosf`` give the same values, so it does not
    matter which of them the compiler calls.
    """
    top12 = (theta.view(np.uint32) >> np.uint32(20)) & np.uint32(0x7FF)
    x = theta.astype(np.float64)
    # |theta| >= 0.75: n = nearest multiple of pi/2 (via a 2**24-scaled
    # product and truncation), x - n * pi/2, and the quadrant's signs.
    n = ((x * _HALF_PI_INV_2_24).astype(np.int32) + 0x800000) >> 24
    reduced = x - n * _HALF_PI
    signed = reduced * _SINE_SIGN[n & 3]
    squared = reduced * reduced
    sine_poly = _glibc_sin_poly(signed, squared)
    cosine_poly = _glibc_cos_poly(squared, np.where((n & 2) != 0, -1.0, 1.0))
    odd = (n & 1) != 0
    sin = np.where(odd, cosine_poly, sine_poly)
    cos = np.where(odd, sine_poly, cosine_poly)
    # |theta| < 0.75: the polynomials on theta itself.
    small = top12 < _TOP12_SMALL
    if small.any():
        x2 = x * x
        sin = np.where(small, _glibc_sin_poly(x, x2), sin)
        cos = np.where(small, _glibc_cos_poly(x2, 1.0), cos)
    sin32 = sin.astype(np.float32)
    cos32 = cos.astype(np.float32)
    # |theta| < 2**-12: sin = theta, cos = 1.
    tiny = top12 < _TOP12_TINY
    sin32 = np.where(tiny, theta, sin32)
    cos32 = np.where(tiny, _ONE, cos32)
    return sin32, cos32
