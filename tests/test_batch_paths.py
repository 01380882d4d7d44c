"""BatchLookup: each sequence's chips and strips reach their own slice, over no filled slice.

A frame-by-frame review saw sequence 0's chip and strip travel right at their
row of E through slice 1's (empty, dimmed) place and then up into slice 0:
mid-walk the chip stood inside slice 1's row 2, and a student read the ID as
landing in slice 1. Session 23 took slice 1 off the screen while sequence 0
travelled; a lecture-hall review (issue 18, session 33) read the output as
one slice for 26 s, and every slice now stands through the lookups, an empty
one dimmed under the chips and strips that pass over it
(:mod:`~embedviz.render.parts.batch_focus`). A dry run is sampled at many
moments of every lookup beat; the slices' boxes are read from the stage's
mobjects as drawn then (not from the solver's numbers), and no moving chip or
strip of sequence b may overlap another slice with rows in (its numbers
would be covered). Where two slices overlap, what lies inside the box of the
chip's own slice is over that slice. At the end every slice stands drawn on
its own, overlapping no other.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np
import pytest
from carry_plays import drawn_box
from conftest import box_of

from embedviz.inputs import prepared_storyboard
from embedviz.render.base import screen_texts
from embedviz.render.moments import MomentScene, play_moments

# Every twentieth of a step: a strip rising past a slice crosses it in a tenth or so.
ALPHAS = tuple(i / 20 for i in range(1, 20))
GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "gpt2": GPT2,
    "three-by-six": {"ids": "2,3,5,1,0,4;1,1,2,3,4,5;5,4,3,2,1,0"},
    "corridor": {"vocab": 50257, "dim": 768, "ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1"},
    "singles": {"ids": "1;2;3"},
    "pairs": {"ids": "1,0;2,3;3,1;0,2", "vocab": 4, "dim": 2},
}
# A pixel at 720p: overlaps thinner than this are strokes touching, not crossing.
PIXEL = 8 / 720
FAINT = 0.05


def _opacity(mobject: Any, shown: set[int]) -> float:
    if id(mobject) not in shown:
        return 0.0
    # A stroke of no width draws nothing: a number hidden by its fill alone (E's row under
    # the copy lifting out of it, parts/lift.py) is not drawn.
    opacities = [
        max(float(m.get_fill_opacity()), float(m.get_stroke_opacity()) * (m.get_stroke_width() > 0))
        for m in mobject.get_family()
        if len(m.points)
    ]
    return max(opacities or [0.0])


def _content(grid: Any, shown: set[int]) -> float:
    """The opacity of a slice: all it draws, its frame's outline included."""
    return _opacity(grid, shown)


def _seen(mobject: Any, shown: set[int]) -> bool:
    return _opacity(mobject, shown) >= FAINT


def _box(mobject: Any) -> tuple[float, float, float, float]:
    # manim's corners (get_corner), read with numpy (conftest.box_of).
    (left, bottom), (right, top) = box_of(mobject)
    return float(left), float(bottom), float(right), float(top)


def _cut(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float]
) -> tuple[float, float, float, float] | None:
    """The overlap of two boxes, if it is more than a pixel both ways."""
    left, bottom = max(a[0], b[0]), max(a[1], b[1])
    right, top = min(a[2], b[2]), min(a[3], b[3])
    if right - left <= PIXEL or top - bottom <= PIXEL:
        return None
    return left, bottom, right, top


def _within(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return (
        a[0] >= b[0] - PIXEL
        and a[1] >= b[1] - PIXEL
        and a[2] <= b[2] + PIXEL
        and (a[3] <= b[3] + PIXEL)
    )


def _drawn(mobject: Any, shown: set[int]) -> bool:
    return bool(mobject.family_members_with_points()) and _seen(mobject, shown)


def _covered(scene: MomentScene, moment: Any, shown: set[int]) -> list[tuple[str, str, str]]:
    """Each number or label a chip, a tag or a travelling strip is drawn over, but its own.

    A chip (waiting, walking, or landed as a row's tag) covers what its box
    overlaps; a strip what the drawn part of its box (:func:`drawn_box`: the
    part clear of its row, shown cell by cell as it slides out of E)
    overlaps. Their own texts (the chip's ID, the strip's numbers) do not
    count.
    """
    stage: Any = scene.stage
    covers = [
        (f"chip {i}", c, _box(c)) for i, c in enumerate(stage.chips.chips) if _drawn(c, shown)
    ]
    for carry in stage.motion.carries:
        strip = carry.strip
        if carry.landed or id(strip) not in shown or not len(strip):
            continue
        drawn = drawn_box(strip)
        if drawn is not None:
            covers.append((f"strip of row {strip.source_row}", strip, drawn))
    # Each cover's own members (its ID, its numbers), gathered once a moment.
    owns = [(name, {id(m) for m in cover.get_family()}, around) for name, cover, around in covers]
    numbers, labels, _ = screen_texts(scene)
    found = []
    for text in [*numbers, *labels]:
        if not _drawn(text, shown):
            continue
        box = _box(text)
        for name, own, around in owns:
            if id(text) in own or _cut(box, around) is None:
                continue
            where = f"{moment.beat.name} a{moment.alpha:.2f} s{moment.step}"
            found.append((where, name, text.text))
    return found


def _read(scene: MomentScene, moment: Any, found: dict[str, list[Any]]) -> None:
    stage: Any = scene.stage
    shown = {id(m) for top in scene.mobjects for m in top.get_family()}
    if moment.beat.action in ("lookup", "lookup_many"):
        found["covered"] += _covered(scene, moment, shown)
    stack = stage.stack
    bodies = [
        (b, _box(grid.body))
        for b, grid in enumerate(stack.slices)
        if _content(grid, shown) >= FAINT
    ]
    if moment.alpha == 1 and moment.beat.name == stage.board.beats[-1].name:
        found["end"].append(bodies)
    if moment.alpha == 1 and moment.beat.name.startswith("lookup"):
        seen = [round(_content(grid, shown), 2) for grid in stack.slices]
        found["lookup ends"].append((moment.beat.name, seen))
    if not moment.beat.name.startswith("lookup"):
        return
    brace = _opacity(stack.edge_b, shown)
    found["outlines"].append([(_content(grid, shown), brace) for grid in stack.slices])
    length = len(stack.positions) // len(stack.slices)
    chips = stage.chips.chips
    # The slices with rows in: an empty one may lie under another sequence's way.
    holding = {
        next(i for i, c in enumerate(chips) if c is carry.chip) // length
        for carry in stage.motion.carries
        if carry.landed and carry.chip is not None
    }
    for carry in stage.motion.carries:
        if carry.landed or carry.chip is None:
            continue
        index = next(i for i, c in enumerate(chips) if c is carry.chip)
        b = index // length
        own = _box(stack.slices[b].body)
        movers = []
        if _seen(carry.chip, shown):
            movers.append(("chip", _box(carry.chip)))
        strip = carry.strip
        drawn = drawn_box(strip) if id(strip) in shown and len(strip) else None
        if drawn is not None:
            movers.append(("strip", drawn))
        found["moments"].append(moment.beat.name)
        # Between two samples a mover passed everything between where it was and is: a
        # strip comes out of E and rises beside it in less than a twentieth of a step.
        reached = [box for _, box in movers]
        for what, box in movers:
            key = (id(carry), what)
            before = found["last"].get(key)
            if before is not None and before[:2] == (moment.beat.name, moment.step):
                was = before[2]
                reached.append(
                    (
                        min(was[0], box[0]),
                        min(was[1], box[1]),
                        max(was[2], box[2]),
                        max(was[3], box[3]),
                    )
                )
            found["last"][key] = (moment.beat.name, moment.step, box)
        for box in reached:
            for other, grid in enumerate(stack.slices):
                if _cut(box, _box(grid.body)) is not None:
                    found["reach"].append((moment.beat.name, other))
        for what, box in movers:
            for other, body in bodies:
                if other == b or other not in holding:
                    continue
                cut = _cut(box, body)
                if cut is not None and not _within(cut, own):
                    where = f"{moment.beat.name} a{moment.alpha:.2f} s{moment.step}"
                    found["crossed"].append((where, what, index, f"slice {other}"))


@functools.cache
def _found(case: str) -> dict[str, list[Any]]:
    board = prepared_storyboard("BatchLookup", CASES[case], environ={})
    found: dict[str, list[Any]] = {"moments": [], "crossed": [], "end": [], "lookup ends": []}
    found["reach"], found["covered"], found["outlines"] = [], [], []
    found["last"] = {}
    found["order"] = [beat.name for beat in board.beats]
    play_moments(board, lambda s, m: _read(s, m, found), alphas=ALPHAS)
    return found


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_chip_or_strip_passes_over_another_filled_slice(case: str) -> None:
    """Mid-motion, a sequence's chip and strip overlap no slice with rows in but their own."""
    found = _found(case)
    assert len(found["moments"]) > 4 * len(ALPHAS)
    assert not found["crossed"], found["crossed"][:8]


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_chip_tag_or_strip_covers_a_number(case: str) -> None:
    """Mid-motion, no chip, tag or travelling strip is drawn over a number or a label.

    In the corridor E and the stack stand parted through a run of lookup
    beats (3 x 6 at GPT-2's size): the chips leave from where E stands then,
    land beside the stack where it stands, and a new slice's header comes
    there too.
    """
    found = _found(case)
    assert len(found["moments"]) > 4 * len(ALPHAS)
    assert not found["covered"], found["covered"][:8]


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_slice_stands_whole_at_the_end(case: str) -> None:
    """At the last beat's end every slice is drawn, and no two overlap."""
    ends = _found(case)["end"]
    assert ends
    bodies = ends[-1]
    batch = len(CASES[case].get("ids", "1;1").split(";")) if "ids" in CASES[case] else 2
    assert [b for b, _ in bodies] == list(range(batch))
    for (b, one), (c, two) in itertools.combinations(bodies, 2):
        assert _cut(one, two) is None, (b, c, one, two)
    assert all(np.isfinite(box).all() for _, box in bodies)


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_slice_and_the_b_brace_stand_through_the_lookups(case: str) -> None:
    """At every sample of every lookup beat each slice (frame and all) and the B brace are drawn.

    Session 23 took an empty slice that the beat's chips and strips crossed
    off the screen, the brace with it; a 720p review (issue 18, session 33)
    read GPT-2's output block as one slice from 33.8 to 60 s.
    """
    outlines = _found(case)["outlines"]
    assert outlines
    missing = [
        k for k, row in enumerate(outlines) if any(min(row[j]) < 0.99 for j in range(len(row)))
    ]
    assert not missing, f"{len(missing)} of {len(outlines)} moments: a slice or the brace is out"


def _unexplained(
    ends: list[tuple[str, list[float]]], reach: list[tuple[str, int]], order: list[str]
) -> list[tuple[str, int, float]]:
    """The slices not whole at a lookup beat's end that the next beat's movers do not reach."""
    reached = set(reach)
    after = dict(itertools.pairwise(order))
    return [
        (beat, b, opacity)
        for beat, seen in ends
        for b, opacity in enumerate(seen)
        if opacity < 0.99 and (after.get(beat, ""), b) not in reached
    ]


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_slice_is_back_at_every_lookup_end(case: str) -> None:
    """At a lookup beat's end every slice is whole, unless the next beat's movers reach it.

    A slice the next beat's chips or strips pass over (or land in) may stay
    out between the two beats; any other is back. (Where two steps of a beat
    overlapped, the first step's fade once hid it again after it had come
    back: the singles' lookup-1 ended with slice 2 gone.)
    """
    found = _found(case)
    assert found["lookup ends"]
    gone = _unexplained(found["lookup ends"], found["reach"], found["order"])
    assert not gone, gone


def test_a_slice_out_at_an_end_is_explained_only_by_the_next_beat() -> None:
    """The rule above fails a slice left out that only this beat (or none) reaches."""
    order = ["lookup-0-0", "lookup-0-1", "repeats"]
    ends = [("lookup-0-0", [1.0, 0.0]), ("lookup-0-1", [1.0, 0.0])]
    reach = [("lookup-0-0", 1), ("lookup-0-1", 1), ("lookup-0-1", 0)]
    assert _unexplained(ends, reach, order) == [("lookup-0-1", 1, 0.0)]
    assert _unexplained(ends[:1], reach, order) == []
    assert _unexplained(ends[:1], reach[:1], order) == [("lookup-0-0", 1, 0.0)]


def test_a_strip_drawn_only_at_its_right_end_is_drawn() -> None:
    """A box shaded cell by cell (left cells out, last one whole) reads as drawn, that part only.

    As a strip slides out of E (parts/strip_frame.py) its box's left end is
    transparent: ``get_fill_opacity()`` (that end) read 0, and 9 of the
    default batch's 33 drawn samples (10 of GPT-2's 34) went unchecked.
    """
    from manim import Rectangle, VGroup

    from embedviz.render.parts.strip_frame import FrameShade

    box = Rectangle(width=3.0, height=0.5)
    left, bottom, right, top = _box(box)
    opaque = np.array([1.0, 0.75, 0.0, 1.0])
    shade = FrameShade(lefts=np.array([0.0, 1.0, 2.0]), stroke=opaque, fill=opaque, whole_at=1.0)
    shade.paint(box, (left, bottom, right, top), left, np.array([0.0, 0.0, 1.0]), 0.5)
    assert float(box.get_fill_opacity()) < FAINT  # what the old reader saw
    drawn = drawn_box(VGroup(box, VGroup(), VGroup()))
    assert drawn is not None
    assert drawn[0] == pytest.approx(left + 2.0, abs=0.05)
    assert drawn[1:] == pytest.approx((bottom, right, top))


def test_a_strip_drawn_only_as_its_numbers_spans_their_height() -> None:
    """Where only a strip's numbers are drawn (its box under FAINT), it is as high as they are.

    A copy fading in as it lands (LargeVocabLookup's ``rest``, 13's at 52.2 s) shows
    its numbers level with its output row while its box, at 0.04, is 5 px lower:
    read at the box's height, it stood off its row.
    """
    from manim import UP, Rectangle, Square, VGroup

    box = Rectangle(width=3.0, height=0.5).set_fill(opacity=0.04).set_stroke(opacity=0.04)
    number = Square(side_length=0.2).set_fill(opacity=1.0).move_to(box).shift(0.05 * UP)
    drawn = drawn_box(VGroup(box, VGroup(number), VGroup()))
    assert drawn == pytest.approx(_box(number))


# Every fortieth of a step: a fade out (a sixth of the first step) is seen.
FINE = tuple(i / 40 for i in range(1, 41))


def _fade_outs(opacities: list[float]) -> int:
    """How many times a slice goes from drawn (half or more) to out (under FAINT)."""
    outs, drawn = 0, True
    for opacity in opacities:
        if drawn and opacity < FAINT:
            outs, drawn = outs + 1, False
        elif opacity >= 0.5:
            drawn = True
    return outs


def test_fade_outs_are_counted() -> None:
    """Out, back and out again is two; a slow fade read at several levels is one."""
    assert _fade_outs([1.0, 0.0, 1.0, 0.0]) == 2
    assert _fade_outs([1.0, 0.6, 0.3, 0.0, 0.0, 0.2, 0.0]) == 1
    assert _fade_outs([1.0, 1.0]) == 0


def test_slice_1_never_fades_out_while_sequence_0_is_looked_up() -> None:
    """Sequence 0's lookup beats all pass over slice 1: it stands through them, not once out.

    (Session 23's code faded it out once for the run; before it, once a beat.)
    """
    board = prepared_storyboard("BatchLookup", {}, environ={})
    seen: list[float] = []
    beats: set[str] = set()

    def read(scene: MomentScene, moment: Any) -> None:
        if not moment.beat.name.startswith("lookup-0"):
            return
        beats.add(moment.beat.name)
        shown = {id(m) for top in scene.mobjects for m in top.get_family()}
        seen.append(_content(scene.stage.stack.slices[1], shown))

    # Only sequence 0's lookups are read: the other beats play unsampled.
    names = {beat.name for beat in board.beats if beat.name.startswith("lookup-0")}
    play_moments(board, read, alphas=FINE, beats=names)
    assert len(beats) >= 2, beats
    assert _fade_outs(seen) == 0, [round(o, 2) for o in seen]
    assert min(seen) >= 0.99


def test_the_legend_never_fades_and_the_rule_card_gives_way_only_to_its_strips() -> None:
    """At GPT-2's size the strips of ``4821`` and ``33000`` run under the slices.

    The legend stands upright under the B brace and never fades (before
    legend34 it blinked there). The rule's card stands in the room under the
    slices (parts/batch_room.py, room_rule): it fades out only in the beats
    whose strips cross it (``lookup-0-0``, ``lookup-0-rest``, ``lookup-1``) and
    is back whole at every lookup's end. In a corner (f8fb225) it never faded,
    but the room stood 18.3 % empty.
    """
    from embedviz.render.batch_legend import crosses, lookup_rows

    board = prepared_storyboard("BatchLookup", GPT2, environ={})
    seen: list[tuple[str, float, float, float]] = []
    crossing: set[str] = set()
    filled: list[Any] = []

    def read(scene: MomentScene, moment: Any) -> None:
        if not moment.beat.name.startswith("lookup"):
            return
        shown = {id(m) for top in scene.mobjects for m in top.get_family()}
        legend = _opacity(scene.stage.matrix.legend, shown)
        card = _opacity(scene.stage.rule.card, shown)
        seen.append((moment.beat.name, moment.alpha, legend, card))
        if moment.step == 0 and moment.alpha < 1 / 4 and moment.beat.output is not None:
            beat, rule = moment.beat, scene.stage.rule
            if crosses(scene.stage, lookup_rows(scene.stage, filled, beat), rule.card):
                crossing.add(beat.name)
            filled.extend(p for p in beat.output.filled if p not in filled)

    # Only the lookups are read: the other beats play unsampled.
    names = {beat.name for beat in board.beats if beat.name.startswith("lookup")}
    play_moments(board, read, alphas=FINE, beats=names)
    assert {beat for beat, *_ in seen} == names
    assert min(legend for *_, legend, _ in seen) >= 0.99, "the legend faded"
    faded = sorted({beat for beat, _, _, card in seen if card < 0.99})
    assert faded == sorted(crossing) == ["lookup-0-0", "lookup-0-rest", "lookup-1"], faded
    # A beat's last sample is its end (a step's own alpha 1 is not).
    ends = {beat: card for beat, _, _, card in seen}
    assert min(ends.values()) >= 0.99, f"the rule's card is out at a lookup's end: {ends}"
