"""ZeroBasedIndexing in a lecture hall (issue 18, a teacher's 720p frame review).

- The slip's wrong vector (the row a one-based count fetches, crossed out)
  had no name: a viewer could not tell what it was. It is labelled
  ``= E[2]`` (the storyboard's slip row index, typeset as the check
  ``= E[3]``) under it, readable and overprinting nothing, clear of the chips.
- The colour legend stood right under ``= E[3] ✓``, its title starting where
  the tick ends, as if the line went on: it stands a group apart from it,
  its title over its swatches at the panel's right.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import box_of

from embedviz.inputs import prepared_storyboard

CASES = [{}, {"theme": "light"}, {"ids": "4821", "vocab": 50257, "dim": 768}]
CASE_IDS = ["id3", "id3-light", "gpt2"]


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    """The clear distance between two boxes ((left, bottom), (right, top)); 0 if they meet."""
    apart = np.maximum(a[0] - b[1], b[0] - a[1])
    return float(max(apart.max(), 0.0))


def _drawn(scene: Any) -> list[Any]:
    return [m for top in scene.mobjects for m in top.get_family()]


def _opacity(mobject: Any) -> float:
    inks = [m for m in mobject.get_family() if len(m.points)]
    return max((float(m.get_fill_opacity()) for m in inks), default=0.0)


def _slip_ends(overrides: dict[str, Any]) -> dict[str, Any]:
    """Play the scene dry; at the slip's two beat ends read its label and its neighbours."""
    from embedviz.render.contrast import contrast_ratio
    from embedviz.render.glyphs import GlyphString, SansText
    from embedviz.render.moments import play_moments
    from embedviz.render.parts.chips import Chip
    from embedviz.render.parts.symbols import IndexedSymbol

    board = prepared_storyboard("ZeroBasedIndexing", overrides, environ={})
    wrong = next(
        c for b in board.beats for c in b.numbers if (c.kind, c.index) == ("wrong_index", (0,))
    )
    found: dict[str, Any] = {"wrong": wrong.text}

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha == 1.0 and moment.beat.name in ("check", "diagnose"):
            found[moment.beat.name] = _legend_gap(scene)
        if moment.alpha < 1.0 or moment.beat.name not in ("one-based", "zero-based"):
            return
        drawn = _drawn(scene)
        ids = {id(m) for m in drawn}
        labels = [
            m for m in drawn if isinstance(m, IndexedSymbol) and m.number.cell.kind == "wrong_index"
        ]
        vector = scene.stage.slip.vector
        entry: dict[str, Any] = {"labels": [(m.number.text, _opacity(m)) for m in labels]}
        if labels:
            label = labels[0]
            box = box_of(label)
            own = {id(m) for m in label.get_family()}
            texts = [
                m
                for m in drawn
                if isinstance(m, (GlyphString, SansText))
                and id(m) not in own
                and len(m.points)
                and float(m.get_fill_opacity()) > 0.05
            ]
            entry["text_gaps"] = [_gap(box, box_of(t)) for t in texts]
            chips = [m for m in drawn if isinstance(m, Chip) and id(m) in ids]
            entry["chip_gaps"] = [_gap(box, box_of(c)) for c in chips]
            entry["marks"] = [_gap(box, box_of(scene.stage.slip.cross))]
            entry["vector_gap"] = float(box_of(vector.body)[0][1] - box[1][1])
            entry["overlaps_vector"] = bool(
                box[0][0] < box_of(vector.body)[1][0] and box[1][0] > box_of(vector.body)[0][0]
            )
            colour = label.number.get_fill_color().to_hex()
            entry["contrast"] = contrast_ratio(colour, scene.stage.theme.background)
            entry["line"] = scene.stage.plan.line_height
        found[moment.beat.name] = entry

    play_moments(board, read, alphas=(1.0,), pixel_width=256, pixel_height=144)
    return found


def _legend_gap(scene: Any) -> float | None:
    """The clear distance between the drawn legend and the drawn check line with its tick.

    None while any of them is not drawn (mid-beat, before the tick); the beat's end,
    read last, overwrites it.
    """
    drawn = {id(m) for m in _drawn(scene)}
    legend, trace = scene.stage.matrix.legend, scene.stage.trace
    if not all(id(m) in drawn for m in (legend, trace.check, trace.tick)):
        return None
    check, tick = box_of(trace.check), box_of(trace.tick)
    line = np.array([np.minimum(check[0], tick[0]), np.maximum(check[1], tick[1])])
    return _gap(box_of(legend), line)


@pytest.fixture(scope="module", params=CASES, ids=CASE_IDS)
def slip_ends(request: pytest.FixtureRequest) -> dict[str, Any]:
    return _slip_ends(request.param)


def test_the_wrong_vector_is_named_by_its_row(slip_ends: dict[str, Any]) -> None:
    """At the end of both counts the crossed-out vector reads ``= E[<slip row index>]``."""
    for beat in ("one-based", "zero-based"):
        entry = slip_ends[beat]
        assert entry["labels"], f"{beat}: the wrong vector has no label"
        (text, opacity), *more = entry["labels"]
        assert not more
        assert text == slip_ends["wrong"]
        assert opacity > 0.99, f"{beat}: its label is faint ({opacity:.2f})"
        assert entry["contrast"] >= 4.5


def test_the_wrong_vectors_label_stands_under_it_clear_of_everything(
    slip_ends: dict[str, Any],
) -> None:
    """Under the vector (within a line), overprinting no text, a group apart from the chips."""
    from embedviz.render.design import APART, SPACE

    for beat in ("one-based", "zero-based"):
        entry = slip_ends[beat]
        assert entry["labels"], f"{beat}: the wrong vector has no label"
        assert entry["overlaps_vector"]
        assert SPACE / 2 <= entry["vector_gap"] <= entry["line"]
        assert min(entry["text_gaps"]) >= SPACE
        assert min(entry["marks"]) >= SPACE
        # Beside a chip ("3"), "= E[2]" read as "3 = E[2]".
        assert min(entry["chip_gaps"]) >= APART - 1e-6, f"{beat}: {entry['chip_gaps']}"


def test_the_legend_stands_a_group_apart_from_the_check(slip_ends: dict[str, Any]) -> None:
    """Issue 18: the legend's title began under ``= E[3] ✓`` where its tick ends (30 px
    under it, 3 px to its right at 720p), read as the check line going on. From the check
    to the last frame :data:`APART` (between groups) stands between them.
    """
    from embedviz.render.design import APART

    for beat in ("check", "diagnose"):
        gap = slip_ends[beat]
        assert gap is not None, f"{beat}: the legend, the check or its tick is not drawn"
        assert gap >= APART - 1e-6, f"{beat}: {gap:.3f} < {APART}"
