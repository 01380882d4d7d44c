"""Refusing tables that would not fit in memory, before allocating them."""

from __future__ import annotations

import os

from embedviz.core.errors import EmbedvizError

__all__ = ["available_memory_bytes", "check_table_fits", "format_bytes"]

# Seeded initialisation holds a few float32 temporaries beside the table, so
# it needs more than the table's own bytes; a loaded file needs the table plus
# its float32 conversion at most.
_HEADROOM = 0.8


def format_bytes(count: float) -> str:
    """Format a byte count with binary units, e.g. ``147.2 MiB``.

    Parameters
    ----------
    count
        A number of bytes.

    Returns
    -------
    str
        The count in B, KiB, MiB, GiB, TiB, PiB or EiB with one decimal, in
        the largest unit whose written value is under 1024 (so 1,048,575
        bytes is ``1.0 MiB``, never ``1024.0 KiB``).
    """
    units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    value = float(count)
    for unit in units:
        written = f"{value:.0f}" if unit == "B" else f"{value:.1f}"
        if abs(float(written)) < 1024 or unit == units[-1]:
            return f"{written} {unit}"
        value /= 1024
    raise AssertionError("unreachable")  # pragma: no cover


def available_memory_bytes() -> int:
    """Return the memory this process could still allocate, in bytes.

    Returns
    -------
    int
        ``MemAvailable`` from ``/proc/meminfo`` where it exists, else free
        physical pages; a cgroup memory limit lowers the figure.
    """
    available: int | None = None
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    if available is None:
        try:
            available = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
        except (OSError, ValueError, AttributeError):
            available = 2**34
    for limit_file in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(limit_file, encoding="ascii") as handle:
                text = handle.read().strip()
        except OSError:
            continue
        if text.isdigit():
            available = min(available, int(text))
    return available


def check_table_fits(
    vocab_size: object, dim: object, *, bytes_per_value: int = 4, copies: float = 1.0
) -> None:
    """Raise before allocating a ``vocab_size × dim`` table that cannot fit.

    Parameters
    ----------
    vocab_size
        ``V``, the number of rows; must be a positive int.
    dim
        ``d``, the number of columns; must be a positive int.
    bytes_per_value
        Bytes per element (4 for float32).
    copies
        How many table-sized buffers the caller will hold at its peak.

    Raises
    ------
    EmbedvizError
        If a size is not a positive whole number, or if the table would need
        more than the available memory (with some headroom).
    """
    for name, value in (("vocabulary size V", vocab_size), ("embedding dimension d", dim)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise EmbedvizError(f"the {name} must be a whole number, not {value!r}")
        if value < 1:
            raise EmbedvizError(f"the {name} must be at least 1, not {value}")
    assert isinstance(vocab_size, int)
    assert isinstance(dim, int)
    needed = vocab_size * dim * bytes_per_value * copies
    available = available_memory_bytes()
    if needed > available * _HEADROOM:
        raise EmbedvizError(
            f"a {vocab_size:,} x {dim:,} float32 table needs {format_bytes(needed)} "
            f"but only {format_bytes(available)} of memory is available; "
            "choose a smaller --vocab or --dim"
        )
