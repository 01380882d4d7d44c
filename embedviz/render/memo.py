"""Solvers remembered per frame: a pure solver's answer, kept for the process.

A test process builds the same stage many times (the default batch, GPT-2's,
each theme), and a stage may solve one spec twice; a solver's plan depends on
its spec and on the frame's size only, so the first answer is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from manim import config

__all__ = ["per_frame"]

S = TypeVar("S")
P = TypeVar("P")

# Specs hold dicts (unhashable): the key is the spec's repr, which names every field
# (floats exactly). More than this many answers, and the oldest half is dropped.
MAX_KEPT = 256


def per_frame(solve: Callable[[S], P]) -> Callable[[S], P]:
    """Return ``solve`` remembering its answer per spec (by ``repr``) and frame size.

    ``solve`` must be pure, and its answer immutable (a frozen plan): every
    caller shares it.

    Parameters
    ----------
    solve
        The solver.

    Returns
    -------
    callable
        The same solver, each answer computed once.
    """
    kept: dict[tuple[str, float, float], P] = {}

    @wraps(solve)
    def remembered(spec: S) -> P:
        key = (repr(spec), float(config.frame_width), float(config.frame_height))
        if key not in kept:
            if len(kept) >= MAX_KEPT:
                for old in list(kept)[: MAX_KEPT // 2]:
                    del kept[old]
            kept[key] = solve(spec)
        return kept[key]

    remembered.cache_clear = kept.clear  # type: ignore[attr-defined]
    return remembered
