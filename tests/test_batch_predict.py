"""BatchLookup's prediction is not given away before the reveal (issue 18, teacher's review).

From the intro through the ``predict`` beat the caption asks "Predict
before we look: what shape will the whole output have?". The output's
place then stood as two empty 4-row slice grids, each with its 4 tag
places and a T brace, under a B brace: the answer, on screen while it was
asked. Until the ``reveal`` beat the place is one plain panel with the
question in it; the reveal brings the slices, their row numbers and the
d, T and B edges in.

A dry run is sampled at several alphas of every step, and what is drawn is
read from the mobjects: a member counts as seen where it has points and a
fill or stroke opacity over :data:`SEEN`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
ALPHAS = (0.1, 0.5, 1.0)
# Over this opacity a member is seen (a fade's first frames included).
SEEN = 0.01
# What a slice's place is not drawn inside, beside the panel and its question: a hair for
# the panel's own stroke.
HAIR = 1e-6


def _opacity(mobject: Any) -> float:
    """Return the strongest fill or stroke opacity of a mobject's members with points."""
    seen = [0.0]
    for member in mobject.get_family():
        if len(member.points):
            seen += [float(member.get_fill_opacity()), float(member.get_stroke_opacity())]
    return max(seen)


def _shown(mobject: Any, drawn: set[int]) -> float:
    """Return a mobject's opacity as drawn now (0 where it is not in the scene)."""
    return _opacity(mobject) if id(mobject) in drawn else 0.0


def _answer(stack: Any) -> dict[str, Any]:
    """Return the output's parts that show its shape: slices, rows, headers and edges."""
    parts: dict[str, Any] = {f"slice {b}": grid for b, grid in enumerate(stack.slices)}
    parts |= {f"rows {b}": numbers for b, numbers in enumerate(stack.row_numbers)}
    parts |= {f"header {b}": header for b, header in enumerate(stack.headers)}
    parts |= {"edge d": stack.edge_d, "edge T": stack.edge_t, "edge B": stack.edge_b}
    return parts


def _in_panel(scene: MomentScene, stack: Any) -> list[str]:
    """Return what is seen inside the output's panel besides the panel and its question.

    The predict beat's highlight round the question (its box holds the
    question's) points at it and is the question's too.
    """
    from conftest import box_of

    panel = box_of(stack.placeholder)
    own = {id(m) for m in stack.placeholder.get_family()}
    asked = None
    if stack.question is not None:
        own |= {id(m) for m in stack.question.get_family()}
        asked = box_of(stack.question)
    found = []
    for top in scene.mobjects:
        for member in top.get_family():
            if id(member) in own or not len(member.points) or _opacity(member) <= SEEN:
                continue
            box = box_of(member)
            if asked is not None and _holds(box, asked):
                continue
            if _holds(panel, box):
                found.append(type(member).__name__)
    return found


def _holds(outer: np.ndarray, inner: np.ndarray) -> bool:
    """Whether box ``outer`` holds box ``inner`` (to a hair)."""
    return bool(np.all(outer[0] - HAIR <= inner[0]) and np.all(inner[1] <= outer[1] + HAIR))


@pytest.mark.parametrize("overrides", [{}, GPT2], ids=["default", "gpt2"])
def test_nothing_shows_the_output_shape_before_the_reveal(overrides: dict[str, Any]) -> None:
    """Before ``reveal`` no slice, row, header, tag place or edge is seen; at its end, all are."""
    board = prepared_storyboard("BatchLookup", overrides, environ={})
    names = [beat.name for beat in board.beats]
    before = set(names[: names.index("reveal")])
    assert before >= {"intro", "batch", "predict"}
    early: list[tuple[str, float, str, float]] = []
    inside: list[tuple[str, float, list[str]]] = []
    sampled: set[str] = set()
    revealed: dict[str, float] = {}
    question = [1.0]

    def read(scene: MomentScene, moment: Any) -> None:
        stack: Any = scene.stage.stack
        drawn = {id(m) for top in scene.mobjects for m in top.get_family()}
        name = moment.beat.name
        if name in before:
            sampled.add(name)
            for part, mobject in _answer(stack).items():
                opacity = _shown(mobject, drawn)
                if opacity > SEEN:
                    early.append((name, moment.alpha, part, round(opacity, 2)))
            found = _in_panel(scene, stack) if id(stack.placeholder) in drawn else []
            if found:
                inside.append((name, moment.alpha, sorted(set(found))))
        elif name == "reveal" and moment.alpha == 1.0:
            revealed.update({part: _shown(m, drawn) for part, m in _answer(stack).items()})
            question[0] = _shown(stack.question, drawn)

    play_moments(board, read, alphas=ALPHAS, beats=[*before, "reveal"])
    assert sampled == before
    assert not early, f"the output's shape shows before the reveal: {early[:6]}"
    assert not inside, f"drawn inside the output's panel before the reveal: {inside[:6]}"
    # At the reveal's end the whole block stands: every slice with its rows, the d, T and
    # B edges, and slice 0's header (a later slice's header comes with its first lookup).
    assert revealed, "the reveal's end was not sampled"
    wanted = {p: o for p, o in revealed.items() if not p.startswith("header ") or p == "header 0"}
    hidden = {p: round(o, 2) for p, o in wanted.items() if o < 0.99}
    assert not hidden, f"not shown whole at the reveal's end: {hidden}"
    assert question[0] <= SEEN, "the question still stands over the slices"
