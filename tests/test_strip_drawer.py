"""A row's strip slides out of its row as a drawer does, and lands in no frame but its own.

Issue 18 asks for one thread of motion: the row lifts as a strip with its
numbers and follows its chip home. A 720p review found an empty amber frame
stretching out of the row across the gap first, its numbers showing only in
the last fifth of the step; and, in ZeroBasedIndexing and ParameterCount, the
empty frame of the place it lands in standing beside the travelling strip (a
double border at its right end). The strip now slides out quickly (its numbers
all read by 40 % of its way), and the landing place's frame comes as the
strip lands. A later review read a strip's numbers shown one by one as it
came out as more values of the row beside them (a lone ``-1.4096`` after a
row): they now show together, once the strip is wholly out.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import MomentSample, TextSample, sample_moments

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

# Fine enough to catch the strip while it slides out of its row.
ALPHAS = tuple(k / 20 for k in range(1, 20))
SHOWN = 0.5


def _emerging(sample: MomentSample) -> list[tuple[list[TextSample], list[TextSample]]]:
    """Return (the strip's numbers, those shown) for each strip still partly in its row.

    Still in its row: one of its numbers starts left of the right end of its
    source row's numbers (on the row's line).
    """
    found: list[tuple[list[TextSample], list[TextSample]]] = []
    moving = [t for t in sample.texts if t.in_strip and t.cell is not None]
    rows = {(t.cell[0], t.cell[1][:-1]) for t in moving if t.cell is not None}
    for kind, row in rows:
        strip = [
            t for t in moving if t.cell is not None and (t.cell[0], t.cell[1][:-1]) == (kind, row)
        ]
        source = [
            t
            for t in sample.texts
            if not t.in_strip and t.cell is not None and t.cell[0] == kind and t.cell[1][:-1] == row
        ]
        if not source:
            continue
        end = max(float(t.box[1][0]) for t in source)
        if any(float(t.box[0][0]) < end for t in strip):
            found.append((strip, [t for t in strip if t.opacity >= SHOWN]))
    return found


@pytest.mark.slow
def test_a_strip_shows_its_numbers_only_once_it_is_wholly_out() -> None:
    samples = sample_moments("SequenceLookup", {}, alphas=ALPHAS)
    lookups = {s.beat.name for s in samples if s.beat.action in ("lookup", "lookup_many")}
    emerging = [(s, found) for s in samples if (found := _emerging(s))]
    # Every lookup is seen while its strip is still partly in its row ...
    assert {s.beat.name for s, _ in emerging} == lookups
    # ... and then none of its numbers shows: beside a row, a part read as more of its values.
    shown = [
        (s.beat.name, s.alpha, [t.text for t in numbers])
        for s, found in emerging
        for _, numbers in found
        if numbers
    ]
    assert not shown, shown[:6]


def _frames_beside_strips(scene: str, landing: Any) -> list[str]:
    """Run ``scene``; return the moments a landing place's frame is drawn while a strip travels."""
    board = prepared_storyboard(scene, None, environ={})
    seen: list[str] = []

    def on(scene_object: Any, moment: Any) -> None:
        family = {id(m) for top in scene_object.mobjects for m in top.get_family()}
        strips = [
            m
            for top in scene_object.mobjects
            for m in top.get_family()
            # A strip built (its carry begun), not yet landed.
            if getattr(m, "row_strip", False) and m.submobjects
        ]
        if not strips:
            return
        for place in landing(scene_object.stage):
            if place is not None and id(place.body) in family:
                seen.append(f"{moment.beat.name} at alpha {moment.alpha:g}")

    play_moments(board, on, alphas=ALPHAS)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize(
    ("scene", "landing"),
    [
        ("ZeroBasedIndexing", lambda stage: [stage.slip.vector, stage.trace.vector]),
        ("ParameterCount", lambda stage: [stage.lookup.copy]),
    ],
    ids=["zero", "params"],
)
def test_no_empty_landing_frame_stands_beside_a_travelling_strip(scene: str, landing: Any) -> None:
    assert not _frames_beside_strips(scene, landing)


# The share of a strip's travel by which every one of its numbers shows in full, clear of
# its row (issue 18: eased in and out, the strip was partly in its row until 54-70 % of
# its travel, and a 720p review saw an empty box moving first).
READABLE_BY = 0.4


def _readable_from(scene: str, monkeypatch: pytest.MonkeyPatch) -> dict[int, list[float]]:
    """Play ``scene``; return, for each strip, the carry alphas sampled and those it reads at.

    A strip reads at an alpha when all of its numbers are drawn at full opacity
    and none overlaps its source row (where the matrix draws that row then).
    """
    from embedviz.render.parts.strip import Carry

    sampled: dict[int, list[tuple[float, bool]]] = {}
    original = Carry.interpolate_mobject

    def record(carry: Carry, alpha: float) -> None:
        original(carry, alpha)
        if len(carry.strip.submobjects) < 2:
            return
        left, bottom, right, top = carry.grid.row_box(carry.row, buff=0.0)
        numbers = carry.strip[1].submobjects
        reads = bool(numbers) and all(
            float(n.get_fill_opacity()) >= 1.0 - 1e-6
            and (
                n.get_right()[0] <= left
                or n.get_left()[0] >= right
                or n.get_top()[1] <= bottom
                or n.get_bottom()[1] >= top
            )
            for n in numbers
        )
        sampled.setdefault(id(carry), []).append((alpha, reads))

    monkeypatch.setattr(Carry, "interpolate_mobject", record)
    board = prepared_storyboard(scene, None, environ={})
    play_moments(board, lambda *_: None, alphas=tuple(k / 80 for k in range(1, 80)))
    return {
        key: [a for a, reads in samples if reads] for key, samples in sampled.items() if samples
    }


@pytest.mark.slow
@pytest.mark.parametrize("scene", ["SequenceLookup", "SingleTokenLookup"])
def test_a_strips_numbers_read_early_in_its_travel(
    scene: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    readable = _readable_from(scene, monkeypatch)
    assert readable, "no strip travelled"
    for reads in readable.values():
        # Every strip reads before it lands, and from early in its travel.
        assert reads, "a strip never read"
        assert min(reads) <= READABLE_BY, min(reads)
