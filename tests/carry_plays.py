"""One play of a scene that records what several tests read of its strips' carries.

tests/test_numbers_fade.py (each carry swept finely, timed by the scene's
clock) and tests/test_strip_beside.py (each drawn carry read where a strip's
numbers show beside E) both play whole scenes at every fortieth of every beat,
watching ``Carry.interpolate_mobject``; several scenes they both play (and
test_numbers_fade plays MiniLM's twice, riding and walking). One play records
both, and tests/test_walk_around.py's chips on their way to E (each watched
``Follow`` of a chip): the ``carry_play_cache`` fixture (tests/conftest.py)
plays each (scene, options) once per test run.

Each carry is swept when first drawn built, then interpolated to the play's own
alpha again before it is read, so the sweep leaves the play as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from edges import LEFT, ORIGIN, RIGHT, bounds, centre, critical, gradient_ends, left

ALPHAS = tuple(k / 40 for k in range(1, 40))
SWEEP = 2000
SHOWN = 0.05  # test_strip_beside: a number with more opacity than this shows
FAINT = 0.05  # drawn_box: a strip's part this opaque or more is drawn
SENTENCE = "The cat sat on the mat because the mat was warm today"
GPT2 = {"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768}
GPT2_BATCH = {"ids": [[4821, 0, 50256, 17], [33000, 2, 4821, 0]], "vocab": 50257, "dim": 768}
# The plays whose carries test_numbers_fade or test_whole_copy sweep (test_numbers_fade checks
# that its cases are here). Sweeping is most of a play's time, so only these are swept;
# test_strip_beside asking for one of them reads the same play.
SWEPT: list[tuple[str, dict[str, Any]]] = [
    ("BatchLookup", {}),
    ("SequenceLookup", {}),
    ("SequenceLookup", GPT2),
    ("LargeVocabLookup", {}),
    ("SequenceLookup", {"text": SENTENCE, "max_tokens": 12}),
    ("ZeroBasedIndexing", {}),
    ("OneHotEquivalence", {}),
    ("ParameterCount", {}),
    ("TrainingNudge", {}),
    # test_whole_copy sweeps it too; test_strip_beside and test_chip_pace read the same play.
    ("SingleTokenLookup", {}),
]


def swept(scene: str, overrides: dict[str, Any] | None) -> bool:
    """Whether test_numbers_fade sweeps this play (MiniLM's model path left out)."""
    options = {k: v for k, v in (overrides or {}).items() if k != "model"}
    return (scene, options) in SWEPT


@dataclass
class Fade:
    """One carry: its real seconds and, at each swept alpha, its numbers' opacity."""

    name: str
    rides: bool
    seconds: float
    span: float  # the share of its run the play drew it at (its seconds are timed over it)
    alphas: np.ndarray
    opacity: np.ndarray  # the least of its numbers'
    out: np.ndarray  # whether its box is drawn whole, right of the matrix
    level: np.ndarray  # out, and level with its source row (short of the block) or its output row
    lifts: bool = False  # it lifts out of its row whole, its numbers shown (parts/lift.py)
    # Lifting: the least of its row's own numbers in E, each as a share of its opacity there.
    under: np.ndarray = field(default_factory=lambda: np.ones(0))

    def first(self, where: np.ndarray) -> float:
        """Return the first swept alpha where ``where`` holds (1 if none)."""
        found = np.flatnonzero(where)
        return float(self.alphas[found[0]]) if len(found) else 1.0


@dataclass
class CarryPlay:
    """What one play recorded: every built carry's fade, and strips beside E's other rows."""

    fades: list[Fade] = field(default_factory=list)
    beside: list[str] = field(default_factory=list)  # test_strip_beside's faults
    beside_seen: int = 0  # samples with a strip's numbers shown beside E at all
    # test_walk_around: samples with a chip on its way to its row of E (its ID not yet
    # landed), and those where its box overlapped the output block's.
    walks_seen: int = 0
    walks_in_block: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)  # test_whole_copy's faults
    hidden_seen: int = 0  # samples with a travelling strip's number hidden
    copies_seen: int = 0  # samples of a travelling strip (test_whole_copy's rule read)
    # test_chip_pace (tests/chip_watch.py's PaceWatch): lookup samples read, and by lookup
    # beat the fastest a chip moved and where; test_chip_docks: DockWatch.result().
    pace_sampled: int = 0
    pace: dict[str, tuple[float, str]] = field(default_factory=dict)
    docks: tuple[int, int, list[str], list[str], list[str]] = (0, 0, [], [], [])
    # test_chip_thread (tests/chip_watch.py's ThreadWatch): riding samples, chips seen alone.
    thread: tuple[int, list[str]] = (0, [])
    # test_large_vocab and test_highlight_rings: LargeVocabLookup's default play
    # (tests/large_vocab_watch.py's Watchers.result()).
    large_vocab: Any = None


# test_whole_copy: a box part over a number more see-through than this is an empty part.
FRAME_SHOWN = 0.3
NUMBER_SHOWN = 0.5


def opacity_along(mobject: Any, rgbas: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """Return how opaque ``rgbas`` (one of ``mobject``'s colours) are drawn at each of ``xs``.

    As Cairo draws them: nothing outside its drawn points' span; one colour, or colour
    stops spaced evenly along its gradient (Manim's, from its start to end point), read
    along its centre line.
    """
    xs = np.asarray(xs, dtype=float)
    points = np.asarray(mobject.points)
    if not len(points):
        return np.zeros(len(xs))
    if len(rgbas) == 1:
        seen = np.full(len(xs), float(rgbas[0][3]))
    else:
        y = (points[:, 1].min() + points[:, 1].max()) / 2
        ends = gradient_ends(mobject)
        start, end = (np.asarray(p, dtype=float)[:2] for p in ends)
        way = end - start
        t = ((xs - start[0]) * way[0] + (y - start[1]) * way[1]) / float(way @ way)
        seen = np.interp(np.clip(t, 0, 1), np.linspace(0, 1, len(rgbas)), rgbas[:, 3])
    seen[(xs < points[:, 0].min()) | (xs > points[:, 0].max())] = 0.0
    return np.asarray(seen)


def box_opacity(box: Any, xs: np.ndarray) -> np.ndarray:
    """Return how opaque ``box`` (a strip's frame and fill) is drawn at each of ``xs``.

    The larger of its outline's (if stroked) and its fill's (:func:`opacity_along`).
    """
    fill = opacity_along(box, box.fill_rgbas, xs)
    if box.get_stroke_width() <= 0:
        return fill
    return np.maximum(opacity_along(box, box.stroke_rgbas, xs), fill)


def drawn_box(strip: Any, faint: float = FAINT) -> tuple[float, float, float, float] | None:
    """Return the part of a strip drawn (its box's frame and fill, its numbers), or None.

    As (left, bottom, right, top). A strip sliding out of E shows its box cell by
    cell with its numbers (parts/strip_frame.py): its box's opacity is a gradient
    along it, and ``get_stroke_opacity()`` / ``get_fill_opacity()`` read only its
    left end (0 while it slides out). Here it is read along its length
    (:func:`box_opacity`); a part or number counts as drawn at ``faint`` or more.
    Where only its numbers are drawn (its box under ``faint``), it spans their
    height, not the box's: a copy fading in as it lands (LargeVocabLookup's
    ``rest``, 13's at 52.2 s: numbers level with output row 7, the box at 0.04
    and 5 px below) is as high as what shows.
    """
    box = strip[0] if len(strip.submobjects) else None
    if box is None or not len(box.points):
        return None
    found = bounds(box)
    assert found is not None
    xs = np.linspace(found[0][0], found[1][0], 193)
    seen = xs[box_opacity(box, xs) >= faint]
    # Each drawn part's (left, bottom, right, top): the box's seen stretch, full height.
    parts = [(seen.min(), found[0][1], seen.max(), found[1][1])] if len(seen) else []
    for text in [*strip[1].submobjects, *strip[2].submobjects]:
        edges = bounds(text)
        if edges is not None and float(text.get_fill_opacity()) >= faint:
            parts.append((edges[0][0], edges[0][1], edges[1][0], edges[1][1]))
    if not parts:
        return None
    low, high = np.min(parts, axis=0), np.max(parts, axis=0)
    return float(low[0]), float(low[1]), float(high[2]), float(high[3])


def empty_parts(carry: Any, alpha: float) -> tuple[bool, list[str]]:
    """Read ``carry`` as drawn: whether a number of its strip is hidden, and its box's parts
    drawn (opacity over :data:`FRAME_SHOWN`) over a hidden number (under :data:`NUMBER_SHOWN`).
    """
    if len(carry.strip.submobjects) < 3 or carry.landed or alpha >= 1:
        return False, []
    box = carry.strip[0]
    texts = [*carry.strip[1].submobjects, *carry.strip[2].submobjects]
    hidden = [t for t in texts if float(t.get_fill_opacity()) < NUMBER_SHOWN]
    faults: list[str] = []
    if not hidden:
        return False, faults
    # Seven points across each hidden number, all read in one pass (the same floats).
    found = [bounds(text) for text in hidden]
    xs = np.array([np.linspace(critical(f, LEFT)[0], critical(f, RIGHT)[0], 7) for f in found])
    shown = box_opacity(box, xs.ravel()).reshape(xs.shape).max(axis=1)
    for text, seen in zip(hidden, shown.tolist(), strict=True):
        if seen > FRAME_SHOWN:
            number = getattr(text, "text", "a mark")
            faults.append(f"row {carry.row} a{alpha:.3f}: box {seen:.2f} over hidden {number}")
    return bool(hidden), faults


def sweep_fade(carry: Any, original: Any, name: str, played: CarryPlay) -> Fade:
    """Interpolate ``carry`` at fine alphas where it stands in the play; time its numbers."""
    alphas = np.linspace(0.0, 1.0, SWEEP + 1)
    opacity, out = [], []
    level, under = [], []
    lifted = list(getattr(carry, "under", [])) if getattr(carry, "lift", False) else []
    # The box it leaves (its row's, or a hidden row's band), and the lines of its own rows.
    row_left, row_bottom, row_right, row_top = carry.source_box
    half, source = (row_top - row_bottom) / 2, (row_top + row_bottom) / 2
    target = float(np.mean([centre(t)[1] for t in carry.targets]))
    block_left = min(left(t) for t in carry.targets)
    for alpha in alphas:
        original(carry, float(alpha))
        note_empty(played, carry, float(alpha), name)
        box, numbers = carry.strip[0], carry.strip[1].submobjects
        opacity.append(min(float(n.get_fill_opacity()) for n in numbers))
        shares = [float(t.get_fill_opacity()) / shown for t, shown in lifted if shown > 0]
        under.append(min(shares, default=1.0))
        whole = abs(float(box.width) - (row_right - row_left)) < 1e-3
        out.append(whole and left(box) > carry.grid.body_right())
        found = [bounds(n) for n in numbers]
        middle = float(np.mean([critical(f, ORIGIN)[1] for f in found]))
        end = max(float(critical(f, RIGHT)[0]) for f in found)
        beside = abs(middle - source) < half and end <= block_left + 1e-6
        level.append(out[-1] and (beside or abs(middle - target) < half))
    return Fade(
        name,
        bool(carry.rides),
        np.nan,
        0.0,
        alphas,
        np.array(opacity),
        np.array(out),
        np.array(level),
        bool(getattr(carry, "lift", False)),
        np.array(under),
    )


def beside_other_rows(carry: Any, alpha: float) -> list[str] | None:
    """Read ``carry`` as drawn: None unless its numbers show beside E, else its faults.

    Beside E: its box right of E, its numbers short of where they land (the output
    block's numbers: a copy under or over the block's columns stands in line with them).
    A fault: its numbers level (within half a row) with a drawn row of E not its own,
    unless level with their own output row (landing; GPT-2's output rows stand level
    with E's).
    """
    if len(carry.strip.submobjects) < 2 or not carry.targets or alpha >= 1:
        return None
    numbers = carry.strip[1].submobjects
    if not any(float(n.get_fill_opacity()) > SHOWN for n in numbers):
        return None
    grid = carry.grid
    box_left = left(carry.strip[0])
    start = min(left(n) for n in numbers)
    block_left = min(left(t) for t in carry.targets)
    if not (box_left > grid.body_right() and start < block_left - 1e-6):
        return None
    middle = float(np.mean([centre(n)[1] for n in numbers]))
    target = float(np.mean([centre(t)[1] for t in carry.targets]))
    # A row hidden in a band (LargeVocabLookup's BandCarry) is not drawn (row_box raised
    # StopIteration): its strip was built a row's height (make_strip's row_box), so half
    # its box at its start is half a row.
    _, bottom, _, top = carry.source_box
    half = (top - bottom) / 2
    if abs(middle - target) < half:
        return []
    bad = []
    for row in grid.get_rows():
        if row == carry.row:
            continue
        _, low, _, high = grid.row_box(row, buff=0.0)
        if abs(middle - (low + high) / 2) < half:
            bad.append(f"row {carry.row}'s copy beside row {row} at {alpha:.3f}")
    return bad


def walks_in_block(
    scene: Any, walking: dict[int, float | None], beat: str
) -> tuple[int, list[str]]:
    """Read the chips on their way to E: how many, and which overlap the output block's box.

    ``walking``: each chip's id, and where the walk under way ends across (None:
    none). A walk that ends left of the output block (at a row of E, not at the
    chip's tag) is on its way to E. A chip whose ID has landed (its tag's cell)
    is not counted. Scenes without a lookup motion count none.
    """
    motion = getattr(getattr(scene, "stage", None), "motion", None)
    output, chips = getattr(motion, "output", None), getattr(motion, "chips", None)
    if output is None or not hasattr(output, "grid") or not hasattr(chips, "chips"):
        return 0, []
    body = output.grid.body
    left, right = float(body.get_left()[0]), float(body.get_right()[0])
    bottom, top = float(body.get_bottom()[1]), float(body.get_top()[1])
    seen, bad = 0, []
    for chip in chips.chips:
        end = walking.get(id(chip))
        if end is None or end >= left - 1e-6 or chip.number.cell.kind != "token_id":
            continue
        seen += 1
        box = chip.box
        apart = (
            float(box.get_right()[0]) <= left + 1e-6
            or float(box.get_left()[0]) >= right - 1e-6
            or float(box.get_top()[1]) <= bottom + 1e-6
            or float(box.get_bottom()[1]) >= top - 1e-6
        )
        if not apart:
            at = box.get_center()[:2].round(2)
            bad.append(f"{beat}: chip {chip.number.text} in the output block at {at}")
    return seen, bad


def note_empty(played: CarryPlay, carry: Any, alpha: float, where: str) -> None:
    """Record ``carry``'s empty box parts as drawn now (:func:`empty_parts`) in ``played``."""
    hidden, faults = empty_parts(carry, alpha)
    played.hidden_seen += hidden
    played.copies_seen += len(carry.strip.submobjects) >= 3 and not carry.landed and alpha < 1
    played.empty.extend(f"{where}: {fault}" for fault in faults)


def play_carries(scene: str, overrides: dict[str, Any] | None, sweep: bool) -> CarryPlay:
    """Play ``scene`` at every fortieth of every beat; record its carries (see the module).

    Each carry is swept (``sweep_fade``) only if ``sweep``.
    """
    from chip_watch import CHIP_SCENES, DockWatch, PaceWatch, ThreadWatch
    from large_vocab_watch import SCENE as LARGE_VOCAB
    from large_vocab_watch import Watchers

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.moments import play_moments
    from embedviz.render.parts.chips import Follow
    from embedviz.render.parts.strip import Carry

    original = Carry.interpolate_mobject
    follow = Follow.interpolate_mobject
    walking: dict[int, float | None] = {}
    played = CarryPlay()
    fades: dict[Any, Fade] = {}
    clock: dict[Any, list[tuple[float, float]]] = {}
    beat = [""]
    board = prepared_storyboard(scene, overrides, environ={})
    # The chip tests' watchers read the lookup scenes' plays (tests/chip_watch.py), and
    # LargeVocabLookup's own tests its default play (tests/large_vocab_watch.py).
    pace, docks, thread = PaceWatch(), DockWatch(), ThreadWatch()
    watchers: list[Any] = [pace.read, docks.read, thread.read] if scene in CHIP_SCENES else []
    large = Watchers(board) if scene == LARGE_VOCAB and not overrides else None
    if large is not None:
        watchers.append(large.read)

    def record(carry: Any, alpha: float) -> None:
        built = len(carry.strip.submobjects) > 1 and carry.targets
        if sweep and built and carry not in fades:
            fades[carry] = sweep_fade(carry, original, f"{beat[0]} row {carry.row}", played)
        original(carry, alpha)
        note_empty(played, carry, alpha, beat[0])
        if carry.scene_ref is not None and 0 < alpha < 1:
            clock.setdefault(carry, []).append((float(carry.scene_ref.last_t), alpha))
        bad = beside_other_rows(carry, alpha)
        if bad is not None:
            played.beside_seen += 1
            played.beside.extend(bad)

    def step(animation: Any, alpha: float) -> None:
        follow(animation, alpha)
        path = animation.path
        under_way = len(path) > 1 and 0 < alpha < 1
        walking[id(animation.mobject)] = float(path[-1][0]) if under_way else None

    def on(scene_object: Any, moment: Any) -> None:
        beat[0] = moment.beat.name
        seen, bad = walks_in_block(scene_object, walking, moment.beat.name)
        played.walks_seen += seen
        played.walks_in_block.extend(bad)
        for watch in watchers:
            watch(scene_object, moment)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Carry, "interpolate_mobject", record)
        patch.setattr(Follow, "interpolate_mobject", step)
        play_moments(board, on, alphas=ALPHAS)
    for carry, fade in fades.items():
        # Time against alpha within its play is a line: its slope is the carry's seconds.
        seen = sorted(set(clock.get(carry, [])), key=lambda pair: pair[1])
        if len(seen) > 1:
            (t0, a0), (t1, a1) = seen[0], seen[-1]
            fade.span = a1 - a0
            fade.seconds = (t1 - t0) / fade.span if fade.span > 0 else np.nan
    played.fades = list(fades.values())
    played.pace_sampled, played.pace = pace.sampled, pace.fastest
    if scene in CHIP_SCENES:
        played.docks = docks.result()
        played.thread = thread.result()
    if large is not None:
        played.large_vocab = large.result()
    return played
