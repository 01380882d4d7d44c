"""BatchLookup frame by frame (issue 18's 720p frame review of the batch scenes).

A dry run of the batch is sampled finely (every step of every beat at many
alphas) and the stage's own mobjects are read back:

- the block's B and T edges ("batch B = 2", "sequence length T = 4") stand
  only while the block holds the input (chips waiting, or the outlines of
  the places they left: its B × T shape): no label points at nothing;
- the reveal: the "output shape?" box gives way to the slices in one motion,
  so no frame between the question and the slices leaves the output's half
  of the frame empty;
- a chip beside its row, while the row's strip lifts off, is level with the
  row's centre;
- a chip's place (its dim outline over E) stays where it stands in the
  block, never following its chip (the chip alone travels, digits and all:
  one ID, one object; tests/test_batch_one_place.py checks the ID is drawn
  once);
- the highlight that points at repeated IDs' tags crosses no chip, text or
  slice while it passes;
- the output's place never stands as a blank panel: while the panel that
  holds it before the slices is drawn whole, a text is shown in it (a
  polish review saw it blank and dark for the first beats);
- the shape beat: the d edge keeps ``d = 3`` whole (it once faded to a bare
  ``d``, which a review read as losing its value), and the shape line
  ``output 2 × 4 × 3`` stands at a label's size, the stack's label (issue
  18: larger, it read as floating away from the slices).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

ALPHAS = tuple(i / 40 for i in range(1, 40))
GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "gpt2": GPT2,
    # No ID repeats: there is no repeats beat for the edges to leave with.
    "no-repeats": {"ids": "1,2,3;4,5,0", "vocab": 6},
    # Three sequences of six at GPT-2 size: the corridor arrangement (slices rest beside E).
    "corridor": {"vocab": 50257, "dim": 768, "ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1"},
    # Three sequences of one ID: the slices stand spread down the frame from the start.
    "singles": {"ids": "1;2;3"},
    # Four sequences of two IDs in a 4 x 2 table: the legend stands upright beside the stack.
    "pairs": {"ids": "1,0;2,3;3,1;0,2", "vocab": 4, "dim": 2},
    # The light theme: the chips' edges are drawn in their own colour, 2.5 wide.
    "light": {"theme": "light"},
}
# Below this opacity a mobject is not seen (boxes.DRAWN), from this on it is (conftest.SHOWN).
FAINT, SHOWN = 0.05, 0.5
# A chip is level with its row within this much (a pixel at 720p is 8 / 720 units).
LEVEL = 1.5 * 8 / 720


@dataclass
class _Sample:
    beat: str
    alpha: float
    step: int
    # Opacity of the block's B and T edges (0 when off screen).
    edges: float
    # How many chips still stand inside the block's box.
    chips_in_block: int
    # How many places' outlines stand drawn (at SHOWN or more).
    outlines: int = 0
    # Each chip's place that is drawn: (position, opacity, box, its chip's centre).
    places: list[tuple[int, float, np.ndarray, np.ndarray]] = field(default_factory=list)
    # Each strip over its own row: (row, its row's centre line, the chip's centre, whether
    # the chip stands in the walking column between E and the slices, the strip's centre line).
    lifting: list[tuple[int, float, np.ndarray, bool, float]] = field(default_factory=list)
    # The share of the frame left empty, counting only what is drawn at SHOWN or more.
    empty: float = 0.0
    # The output's empty panel (before the slices): its opacity, and the texts shown in it.
    panel: float = 0.0
    panel_texts: list[str] = field(default_factory=list)
    # The d edge's opacity, and its texts drawn at SHOWN or more.
    d_sized: float = 0.0
    d_texts: list[str] = field(default_factory=list)
    # At the shape beat's end: the height of the shape's first size, of E's first number
    # and of slice 0's first row number.
    heights: tuple[float, float, float] | None = None
    # The least gap between a travelling strip and a chip still waiting in the block
    # (another ID's), in scene units (inf: none travelling beside one).
    chip_clear: float = float("inf")


def _opacity(mobject: Any, shown: set[int]) -> float:
    if id(mobject) not in shown:
        return 0.0
    seen = [0.0]
    for member in mobject.get_family():
        if len(member.points):
            seen += [float(member.get_fill_opacity()), float(member.get_stroke_opacity())]
    return max(seen)


def _box(mobject: Any) -> np.ndarray:
    from conftest import box_of  # manim's corners, read faster

    return box_of(mobject)


def _inside(point: np.ndarray, box: np.ndarray) -> bool:
    # Compared one by one: numpy's all() over two values cost more than the rest of a read.
    (left, bottom), (right, top) = box.tolist()
    return bool(left <= point[0] <= right and bottom <= point[1] <= top)


def _centre(mobject: Any) -> np.ndarray:
    """Return a mobject's centre (x, y): manim's get_center, from the faster box_of."""
    box = _box(mobject)
    return (box[0] + box[1]) / 2


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    """Return the distance between two boxes (0 where they touch or overlap)."""
    apart = np.maximum(np.maximum(a[0] - b[1], b[0] - a[1]), 0.0)
    return float(np.hypot(*apart))


def _empty_share(scene: MomentScene) -> float:
    """The largest empty area (a share of the frame), counting what is drawn at SHOWN."""
    from manim import config

    from embedviz.render import boxes
    from embedviz.render.moments import frame_emptiness

    drawn = boxes.DRAWN
    boxes.DRAWN = SHOWN
    try:
        found = frame_emptiness(scene)
    finally:
        boxes.DRAWN = drawn
    return float(found.area / (config.frame_width * config.frame_height))


def _read(
    scene: MomentScene, moment: Any, samples: list[_Sample], block: list[Any], shown: set[int]
) -> None:
    stage: Any = scene.stage
    chips = stage.chips
    if not block:
        # The block's box, as it stands before any chip leaves it.
        block.append(_box(chips.slots))
    edges = max(_opacity(chips.batch_label, shown), _opacity(chips.length_label, shown))
    centres = [_centre(c) for c in chips.chips]
    inside = sum(_inside(centre, block[0]) for centre in centres)
    sample = _Sample(moment.beat.name, moment.alpha, moment.step, edges, inside)
    for index, slot in enumerate(chips.slots):
        seen = _opacity(slot, shown)
        sample.outlines += seen >= SHOWN
        if seen >= FAINT:
            sample.places.append((index, seen, _box(slot), centres[index]))
    grid = stage.matrix.grid
    for carry in stage.motion.carries:
        if carry.landed or id(carry.strip) not in shown or not len(carry.strip.submobjects):
            continue
        left, _, right, _ = grid.row_box(carry.row, buff=0.0)
        strip = _box(carry.strip[0])
        centre = _centre(carry.chip)
        # The row lifting off: the strip slides out of its row like a drawer, so while it
        # lifts off its left edge still touches the row's right edge (or overlaps the row,
        # mid-copy). The chip may then be beside its row, between E and the slices (the
        # walking column), or already gone ahead to its tag's place by the slices.
        beside = right < centre[0] < min(g.body_left() for g in stage.stack.slices)
        if strip[0][0] <= right + 1e-6 and strip[1][0] > left:
            line = float(strip[:, 1].mean())
            sample.lifting.append((carry.row, grid.row_y(carry.row), centre, beside, line))
        waiting = [
            c
            for c, at in zip(chips.chips, centres, strict=True)
            if c is not carry.chip and _inside(at, block[0])
        ]
        for chip in waiting:
            sample.chip_clear = min(sample.chip_clear, _gap(strip, _box(chip.box)))
    if moment.beat.name in ("predict", "reveal"):
        sample.empty = _empty_share(scene)
    sample.panel = _opacity(stage.stack.placeholder, shown)
    if sample.panel:
        from embedviz.render.glyphs import GlyphString, SansText

        panel = _box(stage.stack.placeholder)
        sample.panel_texts = [
            m.text
            for top in scene.mobjects
            for m in top.get_family()
            if isinstance(m, (GlyphString, SansText))
            and _opacity(m, shown) >= SHOWN
            and _inside(_centre(m), panel)
        ]
    sample.d_sized = _opacity(stage.stack.edge_d, shown)
    sample.d_texts = [
        m.text
        for m in stage.stack.edge_d.get_family()
        if hasattr(m, "text") and _opacity(m, shown) >= SHOWN
    ]
    if moment.beat.name == "shape" and moment.alpha >= 1:
        weight = next(
            m
            for top in scene.mobjects
            for m in top.get_family()
            if getattr(getattr(m, "cell", None), "kind", "") == "weight"
        )
        shape = stage.stack.shape
        sample.heights = (shape[0].height, weight.height, stage.stack.row_numbers[0][0].height)
    samples.append(sample)


_Rings = tuple[list[str], list[str], int]


@functools.cache  # nine checks read each case's samples or rings: play it once a worker
def _played(case: str) -> tuple[tuple[_Sample, ...], _Rings, _Ends]:
    """Play a case once, sampled at every ALPHAS: its samples (_read), rings (_rings) and
    beat ends (_ends; the same ends as a play sampled nowhere: a sample is taken by
    updating to its time, and each beat then plays to its end as before)."""
    board = prepared_storyboard("BatchLookup", CASES[case], environ={})
    samples: list[_Sample] = []
    block: list[Any] = []
    found: list[str] = []
    astray: list[str] = []
    seen = [0]
    ends = _Ends()

    def read(scene: MomentScene, moment: Any) -> None:
        # Every id on screen, gathered once for the three readers.
        shown = {id(m) for top in scene.mobjects for m in top.get_family()}
        _read(scene, moment, samples, block, shown)
        _read_rings(scene, moment, found, astray, seen, shown)
        _read_end(scene, moment, ends, shown)

    play_moments(board, read, alphas=ALPHAS)
    return tuple(samples), (found, astray, seen[0]), ends


def _samples(case: str) -> tuple[_Sample, ...]:
    return _played(case)[0]


# (Not the single IDs: their block rests further left for the intro, and _read takes the
# block's box from the first sample, not from its home.)
@pytest.mark.parametrize("case", ["default", "gpt2", "no-repeats", "corridor", "pairs"])
def test_the_block_edges_stand_only_while_the_block_holds_the_input(case: str) -> None:
    """Finding 1: "batch B = 2" and "sequence length T = 4" stayed round an empty grid.

    The block now keeps the input's B × T shape once its chips have left
    (each place's outline, dimmed: issue 18's lecture-hall review), and its
    edges with it. Where it holds neither chips nor outlines, its edges are
    at most half seen (they fade with it) and gone by the beat's end.
    """
    samples = _samples(case)
    emptied = [s for s in samples if s.chips_in_block == 0 and s.outlines == 0]
    late = [(s.beat, s.alpha, round(s.edges, 2)) for s in emptied if s.alpha == 1 and s.edges > 0]
    assert not late, f"edges name an empty block at beat ends: {late}"
    seen = [(s.beat, s.alpha, round(s.edges, 2)) for s in emptied if s.edges >= SHOWN]
    assert not seen, f"edges stay on round an empty block: {seen[:5]}"
    # They named the block while it held chips, and once they had all left, its shape.
    assert any(s.edges >= 0.99 and s.chips_in_block for s in samples)
    assert any(s.edges >= 0.99 and not s.chips_in_block and s.outlines for s in samples)


@pytest.mark.parametrize("case", ["default", "gpt2", "singles", "pairs"])
def test_the_question_box_gives_way_to_the_slices_in_one_motion(case: str) -> None:
    """Finding 2: the "output shape?" box went before the slices came (34-43 % empty).

    At every moment of the reveal the frame is no emptier (counting only what
    is at least half seen) than at the question's end or the reveal's end.
    """
    samples = _samples(case)
    ends = {s.beat: s.empty for s in samples if s.alpha == 1 and s.beat in ("predict", "reveal")}
    bound = max(ends.values()) + 0.01
    moving = [(round(s.alpha, 3), round(s.empty, 3)) for s in samples if s.beat == "reveal"]
    assert len(moving) > len(ALPHAS)
    assert all(empty <= bound for _, empty in moving), (bound, moving)


@pytest.mark.parametrize("case", ["default", "gpt2", "corridor", "singles", "pairs"])
def test_a_chip_is_level_with_its_row_while_the_row_lifts_off(case: str) -> None:
    """Finding 3a: the chip beside row 4821 stood ~15 px high, over the gap label above.

    While a row's strip still touches the row, its chip, wherever it is
    between E and the slices, is on the row's centre line (it used to climb
    the walking column ahead of the strip, off the row it had fetched). Where
    the chip is quicker than the drawer (the default's short walk), it has
    left the column by then, and no chip stands there off its row. In the
    corridor the chip rides at its strip's end, and the strip comes out of E
    already heading for its output row: there the chip is level with its
    strip (one object, travelling), never with neither the row nor the strip.
    """
    samples = _samples(case)
    lifting = [(s.beat, s.alpha, *one) for s in samples for one in s.lifting]
    assert lifting
    off = [
        (beat, alpha, row, round(float(chip[1] - y) * 90, 1))
        for beat, alpha, row, y, chip, beside, line in lifting
        if beside and min(abs(float(chip[1]) - y), abs(float(chip[1]) - line)) > LEVEL
    ]
    assert not off, f"chip off its row's centre (px at 720p): {off[:6]}"


@pytest.mark.parametrize("case", ["default", "gpt2", "singles", "pairs"])
def test_a_chip_place_never_follows_its_chip(case: str) -> None:
    """Finding 3b: an empty outline followed the moving chip (two objects for one ID).

    A place that is drawn keeps where it stands in the block (the block may
    glide, as one): from the first lookup on, each place stands as far from
    place 0 as it did then, while its chip travels away from it.
    """
    samples = _samples(case)
    first = next(n for n, s in enumerate(samples) if s.beat.startswith("lookup"))
    home = {index: box.mean(axis=0) for index, _, box, _ in samples[first].places}
    apart, left = [], 0
    for s in samples[first:]:
        centres = {index: box.mean(axis=0) for index, _, box, _ in s.places}
        if 0 not in centres:
            continue
        for index, centre in centres.items():
            moved = (centre - centres[0]) - (home[index] - home[0])
            if float(np.hypot(*moved)) > LEVEL:
                apart.append((s.beat, s.step, s.alpha, index))
        boxes = {index: box for index, _, box, _ in s.places}
        left += sum(not _inside(c, boxes[i]) for i, _, _, c in s.places)
    assert not apart, f"a place moved within its block: {apart[:6]}"
    # Chips left their places while the places stood (the check reads them).
    assert left


def _ring_pieces(scene: MomentScene, colour: str) -> list[np.ndarray]:
    """Return the ink boxes of every drawn curve in the highlight colour (the passing rings)."""
    from manim import VMobject
    from manim.utils.color import ManimColor

    want = ManimColor(colour).to_rgb()
    boxes = []
    for top in scene.mobjects:
        for m in top.get_family():
            if not isinstance(m, VMobject) or not len(m.points) or m.get_stroke_opacity() < FAINT:
                continue
            # To within rounding: a fade interpolates the colour too, and its hex can be a
            # level off (a fading ring read as another colour was missed at some samples).
            if not np.allclose(ManimColor(m.get_stroke_color()).to_rgb(), want, atol=1e-3):
                continue
            half = float(m.get_stroke_width()) / 200
            for curve in m.points.reshape(-1, 4, 3)[:, :, :2]:
                low, high = curve.min(axis=0) - half, curve.max(axis=0) + half
                boxes.append(np.array([low, high]))
    return boxes


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    (a_left, a_bottom), (a_right, a_top) = a.tolist()
    (b_left, b_bottom), (b_right, b_top) = b.tolist()
    return a_left < b_right and a_bottom < b_top and b_left < a_right and b_bottom < a_top


def _reach(chip: Any) -> np.ndarray:
    """Return a chip's reach: its box grown by its edge's half width (as drawn), and a hair."""
    half = float(chip.box.get_stroke_width()) / 200 + 1e-4
    return _box(chip.box) + np.array([[-half, -half], [half, half]])


def _within(inner: np.ndarray, outer: np.ndarray) -> bool:
    return bool(np.all(outer[0] <= inner[0]) and np.all(inner[1] <= outer[1]))


def _rings(case: str) -> _Rings:
    """The repeats beat's ring pieces that cross something, and those astray, and how many.

    A piece inside a chip's reach (:func:`_reach`) is that chip's mark and may
    overlap it; it crosses nothing else (another chip, a slice, a text, its
    own chip's ID included). A piece outside every chip's reach is astray.
    """
    return _played(case)[1]


def _read_rings(
    scene: MomentScene,
    moment: Any,
    found: list[str],
    astray: list[str],
    seen: list[int],
    shown: set[int],
) -> None:
    """Read one moment's ring pieces into ``found``, ``astray`` and ``seen`` (see _rings)."""
    from embedviz.render.gap_text import GapLabel
    from embedviz.render.glyphs import GlyphString

    if moment.beat.name != "repeats" or moment.alpha >= 1 or moment.step:
        return
    stage: Any = scene.stage
    pieces = _ring_pieces(scene, stage.theme.highlight)
    seen[0] += len(pieces)
    chips = [(f"chip {i}", _box(c), _reach(c)) for i, c in enumerate(stage.chips.chips)]
    others = [(f"slice {b}", _box(g.body[0])) for b, g in enumerate(stage.stack.slices)]
    others += [
        (m.text, _box(m))
        for top in scene.mobjects
        for m in top.get_family()
        if isinstance(m, GlyphString | GapLabel) and id(m) in shown and _opacity(m, shown) >= FAINT
    ]
    for piece in pieces:
        own = [name for name, _, reach in chips if _within(piece, reach)]
        if not own:
            astray.append(f"alpha {moment.alpha:.3f}: {np.round(piece * 90, 1).tolist()} px")
        crossed = [name for name, box, _ in chips if name not in own and _overlaps(piece, box)]
        crossed += [name for name, box in others if _overlaps(piece, box)]
        if crossed:
            found.append(f"alpha {moment.alpha:.3f}: {crossed}")


# A travelling strip keeps this clear of the chips still waiting in the block (px at 720p).
CHIP_CLEAR_PX = 2 * 10.8


@pytest.mark.parametrize(
    "case",
    [
        "default",
        "gpt2",
        "no-repeats",
        "pairs",
        # The corridor is a strip wide: its strips run TAG_GAP (10.8 px) right of E's right
        # end, where the block of chips over E ends.
        pytest.param(
            "corridor", marks=pytest.mark.xfail(strict=True, reason="a strip-wide corridor")
        ),
    ],
)
def test_a_travelling_strip_keeps_clear_of_the_waiting_chips(case: str) -> None:
    """A lecture-hall review (issue 18) of the default batch at 54.4 s: the strip rising to
    slice 0's row 3 passed with its left end 10.8 px from sequence 1's chips, which read as
    touching them at 480p. Beside E a strip now goes out at its row's height and rises
    RISE_AIR right of E's side (BatchPlan.strip_path)."""
    samples = _samples(case)
    least = min(s.chip_clear for s in samples)
    assert least < float("inf"), "no strip travelled beside a waiting chip"
    near = [
        (s.beat, s.step, s.alpha, round(s.chip_clear * 90, 1))
        for s in samples
        if s.chip_clear * 90 < CHIP_CLEAR_PX
    ]
    assert not near, f"strip within {CHIP_CLEAR_PX} px of a waiting chip: {near[:6]}"


@pytest.mark.parametrize("case", ["default", "gpt2"])
def test_the_rings_round_repeated_tags_cross_nothing(case: str) -> None:
    """Finding 4: the passing violet rings cut across the corners of the tags beside them."""
    crossed, _, pieces = _rings(case)
    assert pieces
    assert not crossed, crossed[:6]


@pytest.mark.parametrize("case", ["default", "gpt2", "light"])
def test_a_repeated_tag_is_marked_within_its_own_reach(case: str) -> None:
    """A lecture-hall review (issue 18): 2-3 px violet slivers either side of a repeated tag.

    The repeats beat pointed at each repeated ID's tag with an upright line in
    the gap left of it and one right of it; at GPT-2's size they were 2-3 px
    wide and read as stray marks (a ring round the tag, outside it, shared one
    bar with its neighbour's, 4.9 px away: branch warts29). Every piece of the
    highlight now lies within a chip's reach (its box and its edge's ink), so
    the mark needs no room between the tags; it crosses nothing else (the
    test above).
    """
    _, astray, pieces = _rings(case)
    assert pieces
    assert not astray, astray[:6]


@dataclass
class _Ends:
    # Each beat's end: the slices' bodies (bottom, top), the empty panel's box while it shows.
    slices: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    panel: dict[str, np.ndarray] = field(default_factory=dict)
    # The legend's box and swatches' centres, the edges' right end, the shape's line's box.
    legend: dict[str, tuple[np.ndarray, list[np.ndarray]]] = field(default_factory=dict)
    edges_right: float = 0.0
    shape: np.ndarray | None = None


def _read_end(scene: MomentScene, moment: Any, ends: _Ends, shown: set[int]) -> None:
    """Read a beat's end into ``ends`` (see _Ends); mid-motion samples are passed over."""
    if moment.alpha < 1:
        return
    stage: Any = scene.stage
    stack, beat, legend = stage.stack, moment.beat.name, stage.matrix.legend
    ends.slices[beat] = [(g.body.get_bottom()[1], g.body.get_top()[1]) for g in stack.slices]
    if id(stack.placeholder) in shown:
        ends.panel[beat] = _box(stack.placeholder)
    ends.legend[beat] = (_box(legend), [w.get_center() for w in legend.swatches])
    ends.edges_right = max(float(e.get_right()[0]) for e in (stack.edge_t, stack.edge_b))
    if stack.shape is not None:
        ends.shape = _box(stack.shape)


def _ends(case: str) -> _Ends:
    """The beat ends of a case, read in the play that samples it (_played)."""
    return _played(case)[2]


def test_single_ids_stand_spread_from_the_intro() -> None:
    """Three sequences of one ID: the compact stack left the top right empty (22.3 %).

    The slices stand apart (more than a row between them) from the intro on,
    the empty panel spanning them, and still stand apart at the end.
    """
    ends = _ends("singles")
    row = ends.slices["intro"][0][1] - ends.slices["intro"][0][0]
    for beat in ("intro", "reveal", "lookup-1", "shape"):
        bodies = ends.slices[beat]
        gaps = [upper[0] - lower[1] for upper, lower in itertools.pairwise(bodies)]
        assert min(gaps) > row, (beat, gaps)
    panel = ends.panel["intro"]
    # The panel spans the slices (equal ends, to the float's last bits).
    assert panel[1][1] >= ends.slices["intro"][0][1] - 1e-9
    assert panel[0][1] <= ends.slices["intro"][-1][0] + 1e-9


def test_four_pairs_stand_the_legend_upright_beside_the_stack() -> None:
    """Four sequences of two IDs: a column right of the edges stood empty (28.3 %).

    The legend stands there upright from the intro (its +s swatch over its
    -s one), right of the edges, within the stack's height, apart under the
    shape's line, which comes over it last.
    """
    ends = _ends("pairs")
    for beat in ("intro", "lookup-1", "shape"):
        box, swatches = ends.legend[beat]
        assert swatches[-1][1] > swatches[0][1]
        assert abs(swatches[-1][0] - swatches[0][0]) < 1e-6
        assert box[0][0] > ends.edges_right
        bodies = ends.slices[beat]
        assert box[0][1] >= bodies[-1][0] - 1e-6
        assert box[1][1] <= bodies[0][1] + 1e-6
    assert ends.shape is not None
    assert ends.legend["shape"][0][1][1] < ends.shape[0][1] - 0.3
    # Until the reveal the panel holds the edges' place too.
    assert ends.panel["intro"][1][0] >= ends.edges_right - 1e-6


@pytest.mark.parametrize("case", ["default", "gpt2"])
def test_the_d_edge_keeps_its_size_through_the_shape_beat(case: str) -> None:
    """Review (session 23): at the shape beat's end ``d = 3`` had shrunk to a bare ``d``.

    The edge stands whole, its size with it, at every moment of the beat.
    """
    samples = [s for s in _samples(case) if s.beat == "shape"]
    assert samples
    size = str(CASES[case].get("dim", 3))
    faded = [(s.alpha, round(s.d_sized, 2), s.d_texts) for s in samples if s.d_sized < SHOWN]
    assert not faded, faded
    assert all(size in "".join(s.d_texts) for s in samples), [s.d_texts for s in samples]


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_output_shape_reads_whole(case: str) -> None:
    """``output 2 × 4 × 3`` is the stack's label, at the labels' size.

    Review (session 23) had it grow to E's numbers' size in the default and
    GPT-2's batch; issue 18's teacher review (720p) then read it as floating,
    larger than every other label. At the shape beat's end its sizes stand as
    tall as the row numbers (a label's size).
    """
    ends = [s.heights for s in _samples(case) if s.heights is not None]
    assert len(ends) == 1
    shape, _, label = ends[0]
    assert shape == pytest.approx(label, rel=0.02), ends


@pytest.mark.parametrize("case", ["default", "gpt2", "corridor"])
def test_the_output_panel_never_stands_blank(case: str) -> None:
    """Polish review (720p, intro): the output's place stood as a blank dark panel for the
    first beats, only later reading "output shape?": an empty placeholder. Whenever the
    panel is drawn whole before the reveal (where the slices take its place, in one
    motion: test_the_question_box_gives_way_to_the_slices_in_one_motion), a text is
    shown in it (its question, from the intro on)."""
    whole = [s for s in _samples(case) if s.panel >= 0.99 and s.beat != "reveal"]
    assert whole, "the panel was never seen"
    blank = sorted({(s.beat, s.alpha) for s in whole if not s.panel_texts})
    assert not blank, blank[:5]


# A hidden range's label keeps this much clear space (pixels at 720p) from every row
# number. In the margin, centred on its thin band, it stood 4 px over the next row
# number at GPT-2's size, and a lecture hall read ``rows 3–16 hidden`` and ``17`` as
# one text (issue 18); it now stands in its band, across the table.
GAP_LABEL_CLEAR_PX = 8.0


def _ink(mobject: Any) -> tuple[float, float, float, float]:
    (left, bottom), (right, top) = (
        mobject.get_corner(np.array(c))[:2] for c in ([-1, -1, 0], [1, 1, 0])
    )
    return float(left), float(bottom), float(right), float(top)


@pytest.mark.parametrize(
    "options", [GPT2, {"vocab": 50257, "dim": 768}], ids=["gpt2", "gpt2-default-ids"]
)
def test_a_hidden_range_label_stands_clear_of_the_row_numbers(options: dict[str, Any]) -> None:
    from conftest import RecordingHost
    from manim import config

    from embedviz.render.stages.batch import BatchStage
    from embedviz.render.theme import DARK

    stage = BatchStage(
        RecordingHost(), prepared_storyboard("BatchLookup", options, environ={}), DARK
    )
    grid = stage.matrix.grid
    assert grid.gap_labels
    for label in grid.gap_labels.values():
        left, bottom, right, top = _ink(label)
        for number in grid.row_labels.values():
            o_left, o_bottom, o_right, o_top = _ink(number)
            across = max(o_left - right, left - o_right)
            down = max(o_bottom - top, bottom - o_top)
            gap = max(across, down) * 720 / float(config.frame_height)
            assert gap >= GAP_LABEL_CLEAR_PX, f"{label.text!r} is {gap:.1f} px from {number.text!r}"


@pytest.mark.parametrize(
    "options", [GPT2, {"vocab": 50257, "dim": 768}], ids=["gpt2", "gpt2-default-ids"]
)
def test_the_hidden_columns_note_has_a_space_of_air_over_the_column_numbers(
    options: dict[str, Any],
) -> None:
    # A 720p review: "columns 1-766 hidden" stood half a SPACE (5 px) over "0 ... 767",
    # reading as one stack with them; LargeVocabLookup's note keeps 1.5 SPACEs.
    from conftest import RecordingHost

    from embedviz.render.design import SPACE
    from embedviz.render.stages.batch import BatchStage
    from embedviz.render.theme import DARK

    stage = BatchStage(
        RecordingHost(), prepared_storyboard("BatchLookup", options, environ={}), DARK
    )
    grid = stage.matrix.grid
    notes = list(grid.col_gap_labels.values())
    assert notes, "GPT-2's 768 columns have a hidden range"
    numbers = list(grid.col_labels.values())
    numbers_top = max(_ink(number)[3] for number in numbers)
    for note in notes:
        left, bottom, right, _ = _ink(note)
        # The note stands over the column numbers, across the table.
        assert any(_ink(n)[0] < right and left < _ink(n)[2] for n in numbers)
        air = bottom - numbers_top
        assert air >= SPACE - 1e-6, f"{note.text!r} is {air / SPACE:.2f} SPACE over the numbers"
