"""Whole embedding tables for the oracles, derived without embedviz.

A scene's table comes from one of three places, and each is rebuilt here from
its definition, never through ``embedviz.core``:

* ``--init torch``: PyTorch itself when it is installed (CI has it),
  ``torch.manual_seed(seed); nn.Embedding(V, d).weight``. Without torch, a
  plain-numpy replay of PyTorch's CPU sampler written for these tests
  (MT19937 from numpy's legacy ``RandomState``, Box-Muller in float64). That
  replay is not bit-exact (PyTorch evaluates log, sin and cos with its own
  float32 polynomials), so a table from it is marked inexact.
* ``--init normal``: ``numpy.random.default_rng(seed).standard_normal``, as
  documented.
* ``--weights``: ``.npy`` through numpy's own reader, ``.safetensors`` parsed
  from its documented layout (u64 header length, JSON header, raw data).

This module has no ``KINDS``: it defines no number kinds.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = ["file_table", "numpy_torch_table", "seeded_table", "torch_available"]

# Names under which checkpoints usually keep their token-embedding table, in
# the order the README promises to look for them.
USUAL_NAMES = (
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
_NUMPY_DTYPES = {
    "F64": "<f8",
    "F32": "<f4",
    "F16": "<f2",
    "I64": "<i8",
    "I32": "<i4",
    "I16": "<i2",
    "I8": "i1",
    "U8": "u1",
}


def torch_available() -> bool:
    """Whether PyTorch can be imported."""
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


@lru_cache(maxsize=3)
def seeded_table(init: str, seed: int, vocab: int, dim: int) -> tuple[np.ndarray, bool]:
    """The seeded ``V x d`` table, and whether it is exactly the reference.

    Cached: several cases share GPT-2-sized tables, and arrays are read-only.
    """
    if init == "normal":
        weight = np.random.default_rng(seed).standard_normal((vocab, dim), dtype=np.float32)
        exact = True
    elif init == "torch" and torch_available():
        import torch

        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed % 2**64)
            weight = torch.nn.Embedding(vocab, dim).weight.detach().numpy().copy()
        exact = True
    elif init == "torch":
        weight, exact = numpy_torch_table(seed, vocab, dim), False
    else:
        raise AssertionError(f"no reference for init {init!r}")
    weight.flags.writeable = False
    return weight, exact


def _mt19937_words(seed: int, count: int) -> np.ndarray:
    """The first ``count`` 32-bit outputs of MT19937 seeded as PyTorch seeds it.

    PyTorch keeps the low 32 bits of the seed and runs the reference
    ``init_genrand``; numpy's legacy ``RandomState`` does the same for an
    integer seed, and a full-range ``uint32`` draw returns the raw words.
    """
    state = np.random.RandomState((seed % 2**64) & 0xFFFFFFFF)
    if count == 0:
        return np.zeros(0, dtype=np.uint64)
    return state.randint(0, 2**32, size=count, dtype=np.uint32).astype(np.uint64)


def numpy_torch_table(seed: int, vocab: int, dim: int) -> np.ndarray:
    """PyTorch's ``normal_(0, 1)`` fill of a ``V x d`` float32 table, replayed with numpy.

    From ``aten/src/ATen/native/cpu/DistributionTemplates.h``: with 16 or more
    elements, every element gets a float32 uniform ``(r & 0xFFFFFF) / 2**24``;
    each block of 16 pairs slot ``j`` with slot ``j + 8`` by Box-Muller
    (``r = sqrt(-2 log(1 - u_j))``, ``theta = 2 pi u_{j+8}``, cos into ``j``,
    sin into ``j + 8``); a partial last block is replaced by redoing the last
    16 slots from 16 fresh uniforms. Below 16 elements, each pair of values
    takes two float64 uniforms of 53 bits (each from two words, high word
    first), ``r = sqrt(-2 log(1 - u2))``, ``theta = 2 pi u1``, and the sine
    half is kept for the next element.
    """
    count = vocab * dim
    if count >= 16:
        blocks = count // 16
        tail = 16 if count % 16 else 0
        words = _mt19937_words(seed, count + tail)
        uniform = (words & 0xFFFFFF).astype(np.float64) / 2.0**24
        out = _box_muller_blocks(uniform[:count][: blocks * 16])
        values = np.empty(count, dtype=np.float64)
        values[: blocks * 16] = out
        if tail:
            values[count - 16 :] = _box_muller_blocks(uniform[count:])
        return values.astype(np.float32).reshape(vocab, dim)
    words = _mt19937_words(seed, 4 * count)
    values64: list[float] = []
    cached: float | None = None
    position = 0
    while len(values64) < count:
        if cached is not None:
            values64.append(cached)
            cached = None
            continue
        pair = []
        for _ in range(2):
            high, low = int(words[position]), int(words[position + 1])
            position += 2
            pair.append((((high << 32) | low) & ((1 << 53) - 1)) * 2.0**-53)
        u1, u2 = pair
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        cached = radius * math.sin(theta)
        values64.append(radius * math.cos(theta))
    return np.asarray(values64, dtype=np.float64).astype(np.float32).reshape(vocab, dim)


def _box_muller_blocks(uniform: np.ndarray) -> np.ndarray:
    blocks = uniform.reshape(-1, 2, 8)
    # The uniforms are float32 values; 1 - u and 2*pi*u are taken in float32.
    u1 = np.float32(1.0) - blocks[:, 0].astype(np.float32)
    u2 = blocks[:, 1].astype(np.float32)
    radius = np.sqrt(-2.0 * np.log(u1.astype(np.float64)))
    theta = (np.float32(2.0 * math.pi) * u2).astype(np.float64)
    out = np.empty_like(blocks)
    out[:, 0] = radius * np.cos(theta)
    out[:, 1] = radius * np.sin(theta)
    return out.reshape(-1)


def file_table(path: str | Path, tensor: str | None) -> np.ndarray:
    """The float32 table in a ``.npy`` or ``.safetensors`` file, read independently."""
    file = Path(path)
    if file.suffix.lower() == ".npy":
        return np.asarray(np.load(file, allow_pickle=False)).astype(np.float32)
    raw = file.read_bytes()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + size])
    names = [name for name in header if name != "__metadata__"]
    if tensor is None:
        usual = [name for name in USUAL_NAMES if name in names]
        two_d = [name for name in names if len(header[name]["shape"]) == 2]
        assert usual or len(two_d) == 1, f"{file}: no single embedding tensor"
        tensor = usual[0] if usual else two_d[0]
    info = header[tensor]
    begin, end = info["data_offsets"]
    data = raw[8 + size + begin : 8 + size + end]
    if info["dtype"] == "BF16":
        # bfloat16 is the top half of a float32.
        bits = np.frombuffer(data, dtype="<u2").astype(np.uint32) << 16
        return bits.view(np.float32).reshape(info["shape"])
    values = np.frombuffer(data, dtype=_NUMPY_DTYPES[info["dtype"]])
    return values.astype(np.float32).reshape(info["shape"])
