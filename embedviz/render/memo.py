"""Solvers remembered per frame: a pure solver's answer, kept for the process.

A test process builds the same stage many times (the default batch, GPT-2's,
each theme), and a stage may solve one spec several times (the lookup stage
weighs a lane, a note and its own spec against the same plan); a solver's plan
depends on its spec and on the frame's size only, so the first answer is kept.

Every caller shares a kept answer, so it must not be changed: an answer made of
frozen dataclasses, tuples and scalars is handed out as it is; one that holds a
mutable container anywhere (a plan's ``dict`` of row centres) is handed out as a
deep copy, each time, so no caller can change what the next one gets.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from manim import config

__all__ = ["clear_all", "frozen_through", "per_frame"]

S = TypeVar("S")
P = TypeVar("P")

# Specs hold dicts (unhashable): the key is the spec's repr, which names every field
# (floats exactly). More than this many answers, and the oldest half is dropped.
MAX_KEPT = 256

# Every remembered solver's store, for clear_all.
_STORES: list[dict[Any, Any]] = []

_SCALARS = (str, bytes, int, float, complex, bool, type(None), enum.Enum, range)


def frozen_through(value: object) -> bool:
    """Return whether nothing reachable from ``value`` can be changed in place.

    Scalars, strings, tuples and frozensets of such, and frozen dataclasses whose
    fields are such, are; a list, dict, set, array or unfrozen object is not.

    Parameters
    ----------
    value
        A solver's answer.

    Returns
    -------
    bool
        True when ``value`` may be shared.
    """
    if isinstance(value, _SCALARS):
        return True
    if isinstance(value, tuple | frozenset):
        return all(frozen_through(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return False
        return all(frozen_through(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


def per_frame(solve: Callable[[S], P]) -> Callable[[S], P]:
    """Return ``solve`` remembering its answer per spec (by ``repr``) and frame size.

    ``solve`` must be pure. Its answer is shared when :func:`frozen_through`,
    else each caller gets its own deep copy.

    Parameters
    ----------
    solve
        The solver.

    Returns
    -------
    callable
        The same solver, each answer computed once.
    """
    kept: dict[tuple[str, float, float], tuple[P, bool]] = {}
    _STORES.append(kept)

    @wraps(solve)
    def remembered(spec: S) -> P:
        key = (repr(spec), float(config.frame_width), float(config.frame_height))
        if key not in kept:
            if len(kept) >= MAX_KEPT:
                for old in list(kept)[: MAX_KEPT // 2]:
                    del kept[old]
            answer = solve(spec)
            kept[key] = (answer, frozen_through(answer))
        answer, shared = kept[key]
        return answer if shared else copy.deepcopy(answer)

    remembered.cache_clear = kept.clear  # type: ignore[attr-defined]
    return remembered


def clear_all() -> None:
    """Forget every remembered solver's answers (a run that must start as a fresh process)."""
    for kept in _STORES:
        kept.clear()
