"""Every layout solver remembers its plan per spec and frame, and shares nothing mutable.

Issue 18 (suite time): the lookup stage solves one spec several times while it
builds (its lane, its notes, its own plan), and every test in a process builds
the same default stages again; each solver is now :func:`~embedviz.render.memo.per_frame`.
A remembered plan must be the plan a fresh solve gives, and a caller that
changes what it was given must not change what the next caller gets.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from manim import tempconfig

from embedviz.inputs import prepared_storyboard
from embedviz.render import memo
from embedviz.render.solve_one_hot import OneHotSpec, solve_one_hot
from embedviz.render.solve_parameter_count import ParamSpec, solve_parameter_count
from embedviz.render.solve_zero_based import ZeroSpec, solve_zero_based
from embedviz.render.solver import solve_lookup
from embedviz.render.solver_positions import PositionSpec, solve_positions
from embedviz.render.solver_training import TrainingSpec, solve_training
from embedviz.render.spec import LookupSpec
from embedviz.render.stages.large_vocab import large_vocab_spec

GPT2 = {"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768}
# (scene, overrides, the spec's maker, the remembered solver)
CASES: dict[str, tuple[str, dict[str, Any], Callable[[Any], Any], Callable[[Any], Any]]] = {
    "lookup": ("SequenceLookup", {}, LookupSpec.from_board, solve_lookup),
    "lookup-gpt2": ("SequenceLookup", GPT2, LookupSpec.from_board, solve_lookup),
    "large": ("LargeVocabLookup", {}, large_vocab_spec, solve_lookup),
    "zero": ("ZeroBasedIndexing", {}, ZeroSpec.from_board, solve_zero_based),
    "onehot": ("OneHotEquivalence", {}, OneHotSpec.from_board, solve_one_hot),
    "params": ("ParameterCount", {}, ParamSpec.from_board, solve_parameter_count),
    "training": ("TrainingNudge", {}, TrainingSpec.from_board, solve_training),
    "positions": ("PositionBlindness", {}, PositionSpec.from_board, solve_positions),
}


def _spec(case: str) -> tuple[Any, Callable[[Any], Any]]:
    scene, overrides, make, solve = CASES[case]
    return make(prepared_storyboard(scene, overrides, environ={})), solve


@pytest.mark.parametrize("case", list(CASES))
def test_a_remembered_plan_is_a_fresh_plan(case: str) -> None:
    spec, solve = _spec(case)
    memo.clear_all()
    first = solve(spec)
    fresh = solve.__wrapped__(spec)  # type: ignore[attr-defined]
    assert first == fresh
    assert first is not fresh
    again = solve(spec)
    assert again == fresh
    # Shared only when nothing in it can change; else a copy of its own for each caller.
    assert (again is first) == memo.frozen_through(first)


@pytest.mark.parametrize("case", list(CASES))
def test_a_plan_is_remembered_per_frame(case: str) -> None:
    spec, solve = _spec(case)
    first = solve(spec)
    with tempconfig({"frame_width": 16.0, "frame_height": 9.0}):
        wide = solve(spec)
        assert wide == solve.__wrapped__(spec)  # type: ignore[attr-defined]
    assert wide != first
    assert solve(spec) == first


def test_a_caller_cannot_change_the_next_callers_plan() -> None:
    """ZeroPlan holds a dict of row centres: each caller gets its own."""
    spec, solve = _spec("zero")
    given = solve(spec)
    assert not memo.frozen_through(given)
    fresh = solve.__wrapped__(spec)  # type: ignore[attr-defined]
    given.row_centres.clear()
    given.row_centres[99] = 1.0
    assert solve(spec) == fresh
    assert solve(spec).row_centres is not solve(spec).row_centres


def test_clear_all_makes_each_solver_solve_again() -> None:
    spec, solve = _spec("lookup")
    first = solve(spec)
    assert solve(spec) is first
    memo.clear_all()
    assert solve(spec) is not first


@dataclasses.dataclass(frozen=True)
class _Frozen:
    items: Any


@dataclasses.dataclass
class _Open:
    value: int = 0


@pytest.mark.parametrize(
    ("value", "shared"),
    [
        ((1, 2.5, "a", None, (True,)), True),
        (_Frozen((1, _Frozen("x"))), True),
        (frozenset({1, 2}), True),
        ([1], False),
        ((1, [2]), False),
        (_Frozen({1: 2.0}), False),
        (_Frozen((_Open(),)), False),
        (_Open(), False),
        ({1}, False),
    ],
)
def test_only_what_nothing_can_change_is_shared(value: Any, shared: bool) -> None:
    assert memo.frozen_through(value) is shared
