"""Shared fixtures: dry-run renders that record the screen after every beat."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import settings

from embedviz.inputs import prepared_storyboard
from embedviz.render.family import family_of
from embedviz.story.model import Beat, Storyboard

REPO = Path(__file__).resolve().parent.parent

# Time is not what these properties check: on a loaded two-core machine a first call
# that imports or warms a cache can take far longer than Hypothesis's 200 ms deadline.
settings.register_profile("embedviz", deadline=None)
settings.load_profile("embedviz")

# Read before the environment is cleared below: tests/cpu_profile.py's output file
# (kept under another name for the pytest-xdist workers, started after the clearing).
_PROFILE = os.environ.get("EMBEDVIZ_PROFILE") or os.environ.get("TESTS_CPU_PROFILE")
if _PROFILE:
    os.environ["TESTS_CPU_PROFILE"] = _PROFILE

# Nothing from the developer's shell may leak into the scenes under test.
for _name in list(os.environ):
    if _name.startswith("EMBEDVIZ_"):
        del os.environ[_name]

# The suite starts over a hundred Python processes (the command line, manim,
# workers), and each compiled embedviz's modules afresh where the environment
# says PYTHONDONTWRITEBYTECODE (this machine's image does): let them keep their
# bytecode, in the checkout's ignored __pycache__ folders, as Python does by default.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    sys.dont_write_bytecode = False


@lru_cache(maxsize=2)
def seeded_weight(vocab: int, dim: int, seed: int = 123, init: str = "torch") -> np.ndarray:
    """The whole seeded table, built once per worker for the tests that compare against it.

    Building a GPT-2-sized table (38.6 million draws) takes seconds; several
    tests of one file compare the same table's cells. Read-only, as built.
    """
    from embedviz.core.table import EmbeddingTable

    return EmbeddingTable.from_seed(vocab, dim, seed, init).weight  # type: ignore[arg-type]


@dataclass
class Checkpoint:
    """What was on screen right after one beat."""

    beat: Beat
    numbers: list[tuple[str, tuple[int, ...], str, int]]
    labels: list[str]
    texts: list[str]
    boxes: list[tuple[str, np.ndarray]]
    # Numbers drawn a second time on purpose (NumberText.echo), as (kind, index, text).
    echoes: list[tuple[str, tuple[int, ...], str]] = field(default_factory=list)


@dataclass
class DryRun:
    """A storyboard played with skip_animations, and what each beat left."""

    storyboard: Storyboard
    checkpoints: list[Checkpoint]
    frame: np.ndarray


def dry_run(
    scene: str,
    overrides: dict[str, Any] | None = None,
    *,
    media_dir: Path,
    pixel_width: int = 192,
    pixel_height: int = 108,
    board: Storyboard | None = None,
) -> DryRun:
    """Play a scene (or a given storyboard) without encoding video, reading each beat's screen."""
    from manim import tempconfig
    from manim.mobject.svg.svg_mobject import SVG_HASH_TO_MOB_MAP

    from embedviz.render import memo
    from embedviz.render.base import StoryboardScene, screen_texts
    from embedviz.render.formula import _size_per_font

    # A Typst formula's fraction bars keep the stroke width of the first copy
    # typeset in the process (manim's Typst import), and the solver typesets
    # each formula once to measure it: a stage built earlier in another test
    # would change this frame. Each dry run starts from the same caches (the
    # remembered solvers' too, so that the solver measures again).
    SVG_HASH_TO_MOB_MAP.clear()
    _size_per_font.cache_clear()
    memo.clear_all()

    if board is None:
        board = prepared_storyboard(scene, overrides, cwd=media_dir, environ={})
    checkpoints: list[Checkpoint] = []

    class Recording(StoryboardScene):  # type: ignore[misc]
        scene_name = scene

        def after_beat(self, beat: Beat) -> None:
            numbers, labels, texts = screen_texts(self)
            boxes: list[tuple[str, np.ndarray]] = []
            for mobject in [*numbers, *labels, *texts]:
                if len(mobject.points):  # a faded-out caption has no outline left
                    boxes.append((mobject.text, box_of(mobject)))
            checkpoints.append(
                Checkpoint(
                    beat=beat,
                    numbers=[
                        (n.cell.kind, n.cell.index, n.text, _glyph_count(n))
                        for n in numbers
                        if not n.echo
                    ],
                    echoes=[(n.cell.kind, n.cell.index, n.text) for n in numbers if n.echo],
                    labels=[label.text for label in labels],
                    texts=[t.original_text for t in texts],
                    boxes=boxes,
                )
            )

    settings = {
        "dry_run": True,
        "disable_caching": True,
        "media_dir": str(media_dir),
        "pixel_width": pixel_width,
        "pixel_height": pixel_height,
        "frame_rate": 15,
    }
    with tempconfig(settings):
        scene_object = Recording(storyboard=board, skip_animations=True)
        scene_object.render()
        frame = np.array(scene_object.renderer.get_frame())
    return DryRun(board, checkpoints, frame)


def _glyph_count(mobject: Any) -> int:
    # Every submobject but the invisible slot anchor is one drawn glyph.
    return int(mobject.glyph_count)


class RecordingHost:
    """Just enough of a scene to build a stage (a ``StageHost``): it records what is added."""

    def __init__(self) -> None:
        self.mobjects: list[Any] = []
        self.caption: Any = None

    def add(self, *mobjects: Any) -> None:
        self.mobjects.extend(mobjects)

    def bring_to_front(self, *mobjects: Any) -> None:
        self.add(*mobjects)


class SilentHost(RecordingHost):
    """A ``StageHost`` that adds nothing while the stage builds (nothing is ever on screen)."""

    def add(self, *mobjects: Any) -> None:
        pass


def fill_opacity(mobject: Any) -> float:
    """Return the most opaque fill among a mobject's drawn members (a group reports its own)."""
    return max(
        (float(m.get_fill_opacity()) for m in mobject.get_family() if len(m.points)), default=0.0
    )


def box_of(mobject: Any) -> np.ndarray:
    """Return a mobject's box ((left, bottom), (right, top)): manim's corners, read faster.

    The same numbers as ``get_corner``: manim bounds a VMobject by its family's
    anchors (each curve's first and last point, not its handles), but gathers
    them one by one into a Python list, which was a fifth of the moment tests'
    time. Here they are sliced out with numpy.
    """
    from manim import VMobject

    if not isinstance(mobject, VMobject):
        return np.array([mobject.get_corner([-1, -1, 0])[:2], mobject.get_corner([1, 1, 0])[:2]])
    members = family_of(mobject) if mobject.submobjects else (mobject,)
    anchors = [_anchors(member) for member in members if len(member.points)]
    if not anchors:
        return np.zeros((2, 2))
    flat = anchors[0] if len(anchors) == 1 else np.concatenate(anchors)
    if len(flat) > 64:
        # numpy reduces a long (n, 2) array faster column by column than along its first axis.
        x, y = flat[:, 0], flat[:, 1]
        return np.array([[x.min(), y.min()], [x.max(), y.max()]])
    return np.array([flat.min(axis=0), flat.max(axis=0)])


def _anchors(member: Any) -> np.ndarray:
    """Return a VMobject's anchors (x, y): each curve's first and last point (a lone point)."""
    points = member.points
    if len(points) == 1:
        return points[:, :2]
    step = member.n_points_per_cubic_curve
    if len(points) % step == 0:
        return points.reshape(-1, step, 3)[:, :: step - 1, :2].reshape(-1, 2)
    return np.concatenate([points[::step], points[step - 1 :: step]])[:, :2]


def _whole_curves(mobject: Any) -> bool:
    """Whether a VMobject is one path of whole cubic curves, with no submobjects."""
    points = mobject.points
    return (
        not mobject.submobjects
        and len(points) > 0
        and mobject.n_points_per_cubic_curve == 4
        and len(points) % 4 == 0
    )


def _boxes_and_spans(
    mobjects: list[Any], measure: bool = True
) -> tuple[list[np.ndarray], np.ndarray]:
    """Return each mobject's :func:`box_of` and its width and height, for many at once.

    The width and height are manim's (``mobject.width``, ``mobject.height``:
    the span of every point, handles included). A moment holds hundreds of
    texts, each one path of whole cubic curves: their points are stacked and
    reduced per text with numpy in a few calls, not text by text. Any other
    mobject is measured alone, as before. Without ``measure``, the spans are
    left at zero (only the boxes are wanted).
    """
    from manim import VMobject

    boxes: list[np.ndarray] = [np.zeros((2, 2))] * len(mobjects)
    spans = np.zeros((len(mobjects), 2))
    fast = [i for i, m in enumerate(mobjects) if isinstance(m, VMobject) and _whole_curves(m)]
    for i in sorted(set(range(len(mobjects))) - set(fast)):
        boxes[i] = box_of(mobjects[i])
        if measure:
            spans[i] = (float(mobjects[i].width), float(mobjects[i].height))
    if not fast:
        return boxes, spans
    points = np.concatenate([mobjects[i].points for i in fast])
    counts = np.array([len(mobjects[i].points) for i in fast])
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    # Each curve's first and last point (its anchors), then per text the least and most.
    # (numpy reduces a length-2 axis slowly: the two ends are compared elementwise.)
    curves = points.reshape(-1, 4, 3)
    first, last = curves[:, 0, :2], curves[:, 3, :2]
    low = np.minimum.reduceat(np.minimum(first, last), starts // 4, axis=0)
    high = np.maximum.reduceat(np.maximum(first, last), starts // 4, axis=0)
    stacked = np.stack([low, high], axis=1)
    xy = points[:, :2]
    reach = np.maximum.reduceat(xy, starts, axis=0) - np.minimum.reduceat(xy, starts, axis=0)
    for k, i in enumerate(fast):
        boxes[i] = stacked[k]
        spans[i] = reach[k]
    return boxes, spans


def _ink_boxes(families: list[list[Any]]) -> list[tuple[str, np.ndarray]]:
    """Return what is drawn (each visible leaf: a rule, a frame, an outline, a glyph), with its box.

    A stroke's ink reaches half its width past its path (manim draws a width
    of 1 as 1/100 of a scene unit), so the box includes it.
    """
    leaves: dict[int, tuple[Any, str, float]] = {}
    for top, family in zip((f[0] for f in families), families, strict=True):
        for mobject in family:
            if id(mobject) in leaves or mobject.submobjects or not len(mobject.points):
                continue
            stroke = float(mobject.get_stroke_width()) * float(mobject.get_stroke_opacity() > 0)
            if stroke <= 0 and float(mobject.get_fill_opacity()) <= 0:
                continue
            what = f"{type(mobject).__name__} of {type(top).__name__}"
            leaves[id(mobject)] = (mobject, what, 0.01 * stroke / 2)
    # Every leaf's box at once (the same numbers as box_of, one by one).
    boxes, _ = _boxes_and_spans([mobject for mobject, _, _ in leaves.values()], measure=False)
    return [
        (what, box + np.array([[-reach, -reach], [reach, reach]]))
        for (_, what, reach), box in zip(leaves.values(), boxes, strict=True)
    ]


# Where each curve of a stroke is sampled: both ends and points between.
_ALONG = np.linspace(0.0, 1.0, 9)[:, None]
_BERNSTEIN = np.hstack(
    [(1 - _ALONG) ** 3, 3 * (1 - _ALONG) ** 2 * _ALONG, 3 * (1 - _ALONG) * _ALONG**2, _ALONG**3]
)


def _strokes(families: list[list[Any]], leave_out: set[int]) -> list[StrokeSample]:
    """Return every visible stroke, as points along its path, but those in ``leave_out``.

    A strike-through (a mobject or group marked ``strikes_out``, such as a
    slip's cross) crosses what it strikes on purpose: it and its members are left out.
    """
    skip = set(leave_out)
    for family in families:
        for mobject in family:
            if _attribute(mobject, "strikes_out"):
                skip.update(id(m) for m in family_of(mobject))
    found: dict[int, StrokeSample] = {}
    for top, family in zip((f[0] for f in families), families, strict=True):
        for mobject in family:
            if id(mobject) in skip or id(mobject) in found or len(mobject.points) < 4:
                continue
            width = float(mobject.get_stroke_width())
            if width <= 0 or float(mobject.get_stroke_opacity()) < SHOWN:
                continue
            curves = mobject.points[: len(mobject.points) // 4 * 4].reshape(-1, 4, 3)[:, :, :2]
            points = np.einsum("tk,ckd->ctd", _BERNSTEIN, curves).reshape(-1, 2)
            what = f"{type(mobject).__name__} of {type(top).__name__}"
            found[id(mobject)] = StrokeSample(what, points, width / 200)
    return list(found.values())


@dataclass
class ComputedRows:
    """What the seeded-table generators were asked for while a fixture was active."""

    row_calls: list[tuple[tuple[int, ...], tuple[int, ...]]]
    full_tables: list[tuple[int, ...]]

    @property
    def rows(self) -> int:
        """Rows computed through the row-only path, in all (a repeat counts again)."""
        return sum(len(wanted) for _, wanted in self.row_calls)

    @property
    def distinct(self) -> set[int]:
        """The row indices computed through the row-only path."""
        return {row for _, wanted in self.row_calls for row in wanted}


@pytest.fixture
def computed_rows(monkeypatch: pytest.MonkeyPatch) -> ComputedRows:
    """Count the rows that seeded tables compute, instead of timing them.

    Wraps the two generators that ``embedviz.core.table`` calls for
    torch-compatible tables: the row-only path and the whole-table path. The
    values are unchanged; only the sizes asked for are recorded.
    """
    import embedviz.core.table as table_module
    from embedviz.core import torch_init

    seen = ComputedRows([], [])
    real_rows, real_full = torch_init.torch_normal_rows, torch_init.torch_normal

    def rows(seed: int, shape: tuple[int, int], wanted: Any, *args: Any, **kwargs: Any) -> Any:
        indices = tuple(int(i) for i in np.asarray(wanted).reshape(-1))
        seen.row_calls.append((tuple(shape), indices))
        return real_rows(seed, shape, wanted, *args, **kwargs)

    def full(seed: int, shape: tuple[int, ...], *args: Any, **kwargs: Any) -> Any:
        seen.full_tables.append(tuple(shape))
        return real_full(seed, shape, *args, **kwargs)

    monkeypatch.setattr(table_module, "torch_normal_rows", rows)
    monkeypatch.setattr(table_module, "torch_normal", full)
    return seen


def _shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every pytest-xdist worker of this run shares (the run's own temp root)."""
    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker's base (popen-gwN) sits inside the run's folder.
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = root / "shared-scene-runs"
    folder.mkdir(exist_ok=True)
    return folder


def _once_per_run(folder: Path, key: str, make: Callable[[], Any]) -> Any:
    """Return ``make()``, computed by one worker of the run and read by the others.

    Test files are spread over workers (--dist loadfile), and several files
    dry-run the same scene with the same options: the first worker to ask
    computes it under a lock while another that asks waits for it, instead of
    computing it again.
    """
    import fcntl
    import hashlib
    import pickle

    name = hashlib.sha256(key.encode()).hexdigest()[:32]
    path = folder / f"{name}.pickle"
    with (folder / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            return pickle.loads(path.read_bytes())
        value = make()
        partial = folder / f"{name}.partial"
        partial.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(partial, path)
        return value


@pytest.fixture(scope="session")
def dry_run_cache(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., DryRun]:
    """Dry-run each (scene, options) once per test run, whichever worker asks first."""
    cache: dict[str, DryRun] = {}
    shared = _shared_folder(tmp_path_factory)

    def run(scene: str, overrides: dict[str, Any] | None = None) -> DryRun:
        key = f"{scene}:{sorted((overrides or {}).items())}"
        if key not in cache:
            cache[key] = _once_per_run(
                shared,
                f"dry:{key}",
                lambda: dry_run(scene, overrides, media_dir=tmp_path_factory.mktemp("dry")),
            )
        return cache[key]

    return run


def pytest_configure(config: pytest.Config) -> None:
    """In CI, PyTorch parity tests must run, not skip; profile CPU if EMBEDVIZ_PROFILE is set."""
    from cpu_profile import register

    register(config, _PROFILE)
    if os.environ.get("CI") and importlib.util.find_spec("torch") is None:
        raise pytest.UsageError("CI runs the PyTorch parity tests, but torch is not installed")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI a skipped test is a failure: every test must really run there."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if os.environ.get("CI") and reporter is not None and reporter.stats.get("skipped"):
        reporter.write_line("CI: tests were skipped; every test must run in CI", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@dataclass
class TextSample:
    """One text on screen at one moment."""

    text: str
    role: str  # "number" (a table value), "label" (other numbers and labels), "caption", "text"
    cell: tuple[str, tuple[int, ...]] | None
    box: np.ndarray
    pixel_height: float  # a digit's height at 720p
    opacity: float
    in_strip: bool
    # A digit's height at 720p (the type scale's measure), whatever glyphs the text has.
    digit_px: float = 0.0
    # "formula" for typeset maths, else "glyphs".
    kind: str = "glyphs"
    # Whether it rides on an ID's chip (drawn on the chip's opaque body, over what it passes).
    on_chip: bool = False


@dataclass
class StripOutline:
    """What a travelling row draws besides its texts: its frame's lines and its filled boxes."""

    # The cells the strip copies: their kind and their index but the column.
    kind: str
    row: tuple[int, ...]
    # Visible stroked lines, each from its start to its end (x, y), and their half width.
    segments: list[tuple[np.ndarray, np.ndarray]]
    half_width: float
    # Boxes ((left, bottom), (right, top)) of the strip's parts filled opaque enough to hide.
    fills: list[np.ndarray]
    # The box round its numbers, drawn or not: where the strip is (its numbers move with it).
    place: np.ndarray | None = None


@dataclass
class MomentSample:
    """The screen at one sample of one beat's animation (alpha 1.0: the beat's end)."""

    beat: Beat
    alpha: float
    texts: list[TextSample]
    # Per travelling row: (column, right end of its slot at mid-height) per number.
    strips: list[list[tuple[int, np.ndarray]]]
    # Which step of the beat's animation was sampled (0 for most beats, and at the end).
    step: int = 0
    # At a beat's end: the largest empty rectangle between the title and the caption
    # (embedviz.render.space.Emptiness), and the frame's area.
    empty: Any = None
    frame_area: float = 0.0
    # At a beat's end: the boxes that rectangle was found among, and the band searched.
    boxes: list[Any] = field(default_factory=list)
    band: Any = None
    # Per travelling row: its frame and fill (the strip's parts that are not texts).
    outlines: list[StripOutline] = field(default_factory=list)
    # At a beat's end: the outlined places of input IDs (a batch's chip slots), as
    # (position, box), for the one-object-per-ID rule.
    places: list[tuple[tuple[int, ...], np.ndarray]] = field(default_factory=list)
    # What changed on screen that the video, drawing it once per play, does not show
    # (embedviz.render.moments.Moment.stale).
    stale: tuple[str, ...] = ()
    # At a beat's end: everything drawn, as (what, its ink's box), for the margin rule.
    drawn: list[tuple[str, np.ndarray]] = field(default_factory=list)
    # Every visible stroke but a travelling row's and a strike-through, at every sample.
    strokes: list[StrokeSample] = field(default_factory=list)


@dataclass
class StrokeSample:
    """A visible stroked line on screen at one moment (a ring, a frame, a rule, an outline)."""

    what: str
    # Points along its path (x, y), close enough to stand for the path, and its half width.
    points: np.ndarray
    half_width: float


# Table values (the type scale's data): E and the output, and the tables the
# other layouts draw from them (ParameterCount's block and copy, ZeroBased's
# slip, OneHot's vector, terms and product).
TABLE_KINDS = frozenset(
    {
        "weight",
        "output",
        "corner",
        "lookup_value",
        "wrong_value",
        "one_hot",
        "product",
        "term_one_hot",
        "term_weight",
        "term_sum",
        # TrainingNudge's tables: E after the step, its gradient, the loss weights, a column sum.
        "updated",
        "grad",
        "upstream",
        "term",
        "sum",
        # ParameterCount's memory and widths tables, set at the data size: they grow past
        # E's numbers while E, then context, recedes (beats dtype, compare). Not the count
        # (factor, param_count): LargeVocabLookup sets its count as a label-sized note.
        "dtype_bytes",
        "dtype_total",
        "dtype_memory",
        "compare_dim",
        "compare_count",
        "compare_memory",
        # PositionBlindness's position vectors and sums.
        "sinusoid",
        "learned_position",
        "sum_sinusoid",
        "sum_learned",
    }
)


# ParameterCount's count (``50,257 × 768 = 38,597,376``) is set at the data size too, and
# grows with the panel's tables; LargeVocabLookup sets the same kind as a label-sized note.
COUNT_KINDS = frozenset({"factor", "param_count"})


# Below this opacity a strip's stroke or fill is not counted (as a text's, in test_moments).
SHOWN = 0.5


def _shown_span(mobject: Any, rgbas: np.ndarray) -> tuple[float, float] | None:
    """Return the span of x over which ``rgbas`` (one of ``mobject``'s colours) are drawn
    at least :data:`SHOWN` opaque: all of it or none for one colour; for colour stops along
    a gradient (a strip's box shaded by its numbers, parts/strip_frame.py) the part that
    is (tests/carry_plays.py's ``opacity_along``). None where none is."""
    points = np.asarray(mobject.points)
    if len(rgbas) == 1:
        shown = float(rgbas[0][3]) >= SHOWN
        return (float(points[:, 0].min()), float(points[:, 0].max())) if shown else None
    from carry_plays import opacity_along

    xs = np.linspace(float(points[:, 0].min()), float(points[:, 0].max()), 193)
    seen = xs[opacity_along(mobject, rgbas, xs) >= SHOWN]
    return (float(seen.min()), float(seen.max())) if len(seen) else None


def _clip_segment(
    start: np.ndarray, end: np.ndarray, span: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray] | None:
    """Return the part of the line from ``start`` to ``end`` within ``span`` of x (or None)."""
    low, high = span
    run = float(end[0] - start[0])
    if abs(run) < 1e-12:
        return (start, end) if low - 1e-9 <= float(start[0]) <= high + 1e-9 else None
    t0, t1 = sorted(((low - float(start[0])) / run, (high - float(start[0])) / run))
    t0, t1 = max(t0, 0.0), min(t1, 1.0)
    if t0 > t1:
        return None
    return start + (end - start) * t0, start + (end - start) * t1


def _strip_outline(strip: Any, cell_text: Any) -> StripOutline:
    """Read a travelling row's frame lines and filled boxes: every part that is not a text."""
    from embedviz.render.formula import FormulaText
    from embedviz.render.glyphs import GlyphString

    texts = {
        id(member)
        for mobject in family_of(strip)
        if isinstance(mobject, (GlyphString, FormulaText))
        for member in family_of(mobject)
    }
    segments: list[tuple[np.ndarray, np.ndarray]] = []
    fills: list[np.ndarray] = []
    half_width = 0.0
    for mobject in family_of(strip):
        if id(mobject) in texts or not len(mobject.points):
            continue
        stroke = _shown_span(mobject, mobject.stroke_rgbas)
        if float(mobject.get_stroke_width()) > 0 and stroke is not None:
            # Manim draws a stroke width of w as w / 100 frame units (cairo's line width).
            half_width = max(half_width, float(mobject.get_stroke_width()) / 200)
            curves = mobject.points.reshape(-1, 4, 3)
            lines = [_clip_segment(curve[0][:2], curve[-1][:2], stroke) for curve in curves]
            segments += [line for line in lines if line is not None]
        fill = _shown_span(mobject, mobject.fill_rgbas)
        if fill is not None:
            box = box_of(mobject).copy()
            box[0][0], box[1][0] = max(box[0][0], fill[0]), min(box[1][0], fill[1])
            fills.append(box)
    index = cell_text.cell.index
    return StripOutline(cell_text.cell.kind, tuple(index[:-1]), segments, half_width, fills)


def _strips_in(
    families: list[list[Any]],
) -> tuple[set[int], list[list[tuple[int, np.ndarray]]], list[StripOutline]]:
    """Return the travelling rows among ``families``: their members' ids, numbers and outlines.

    Per row: (column, right end of its slot at mid-height) per number, and
    its frame and fill (:func:`_strip_outline`), in the order they are met.
    """
    from embedviz.render.glyphs import NumberText

    members: set[int] = set()
    strips: list[list[tuple[int, np.ndarray]]] = []
    outlines: list[StripOutline] = []
    for family in families:
        for mobject in family:
            if _attribute(mobject, "row_strip"):
                cells = [m for m in family_of(mobject) if isinstance(m, NumberText)]
                if cells:
                    members.update(id(m) for m in family_of(mobject))
                    strips.append([(c.cell.index[-1], c.get_right()) for c in cells])
                    outline = _strip_outline(mobject, cells[0])
                    corners = np.array([box_of(c) for c in cells])
                    outline.place = np.array([corners[:, 0].min(axis=0), corners[:, 1].max(axis=0)])
                    outlines.append(outline)
    return members, strips, outlines


# Per (class, name): whether the class itself may answer ``name`` (see _attribute).
_ANSWERED_BY_CLASS: dict[tuple[type, str], bool] = {}


def _attribute(mobject: Any, name: str, default: Any = False) -> Any:
    """Return ``getattr(mobject, name, default)``, quickly where the mobject lacks it.

    Manim answers a missing attribute through ``Mobject.__getattr__``, which
    raises an error that getattr then catches: a few microseconds, for each
    of the thousands of mobjects a moment holds. A flag the stages set on an
    instance (``strikes_out``, ``id_place``) is read from its ``__dict__``;
    one its class declares (``row_strip``), or any name a class answers in
    its own way, is read with getattr, as before.
    """
    from manim import Mobject

    kind = type(mobject)
    by_class = _ANSWERED_BY_CLASS.get((kind, name))
    if by_class is None:
        by_class = (
            hasattr(kind, name)
            or getattr(kind, "__getattr__", None) is not Mobject.__getattr__
            or kind.__getattribute__ is not object.__getattribute__
        )
        _ANSWERED_BY_CLASS[(kind, name)] = by_class
    if by_class:
        return getattr(mobject, name, default)
    return vars(mobject).get(name, default)


def _members_in(families: list[list[Any]], kind: type) -> set[int]:
    """Return the ids of every member of every mobject of ``kind`` in the scene's ``families``."""
    return {
        id(member)
        for family in families
        for mobject in family
        if isinstance(mobject, kind)
        for member in (family_of(mobject) if mobject.submobjects else (mobject,))
    }


def sample_moments(
    scene: str,
    overrides: dict[str, Any] | None = None,
    *,
    alphas: tuple[float, ...] = (0.25, 0.5, 0.75),
    beats: Collection[str] | None = None,
    roads_only: bool = False,
) -> list[MomentSample]:
    """Dry-run a scene, reading every text mid-motion (at each alpha) and at beat ends.

    ``beats``: read only these beats' moments (the scene still plays whole,
    the others unsampled); sampling and reading a moment cost far more than
    playing to it.

    ``roads_only``: read only the travelling rows (each sample's ``strips``
    and ``outlines``, the road they take) mid-motion, and no beat end: the
    empty-area check samples a beat finely for nothing else.
    """
    from manim import config

    from embedviz.render.design import px_for_font
    from embedviz.render.formula import FormulaText
    from embedviz.render.glyphs import GlyphString, NumberText, SansText, glyph_font
    from embedviz.render.metrics import digit_height
    from embedviz.render.moments import frame_boxes, play_moments
    from embedviz.render.space import largest_empty_rectangle
    from embedviz.render.theme import SANS_FONT

    board = prepared_storyboard(scene, overrides, environ={})
    samples: list[MomentSample] = []
    sans_digit = glyph_font(SANS_FONT).digit_height / 48.0
    data_kinds = TABLE_KINDS | (COUNT_KINDS if board.layout == "parameter_count" else frozenset())

    def read(scene_object: Any, moment: Any) -> None:
        if beats is not None and moment.beat.name not in beats:
            return
        px_per_unit = 720 / float(config.frame_height)
        from embedviz.render.parts.captions import Caption
        from embedviz.render.parts.chips import Chip

        # Each top mobject's family is walked once here; every pass below reads these lists.
        families = [family_of(m) for m in scene_object.mobjects]
        if roads_only:
            if moment.alpha < 1:
                _, strips, outlines = _strips_in(families)
                road = MomentSample(moment.beat, moment.alpha, [], strips, moment.step)
                road.outlines = outlines
                samples.append(road)
            return
        captions = _members_in(families, Caption)
        chipped = _members_in(families, Chip)
        strip_members, strips, outlines = _strips_in(families)
        texts: list[TextSample] = []
        seen: set[int] = set()
        # What every drawn text is made of (a stroke check leaves them out).
        texts_drawn: set[int] = set()
        # The texts read, in the order they are met (each once, with an outline).
        shown: list[Any] = []
        for family in families:
            for mobject in family:
                if isinstance(mobject, (GlyphString, FormulaText, SansText)):
                    texts_drawn.add(id(mobject))
                    if mobject.submobjects:
                        texts_drawn.update(id(member) for member in family_of(mobject))
                if id(mobject) in seen or not len(mobject.points):
                    continue
                seen.add(id(mobject))
                # A caption's typeset maths is read with its words: the caption's
                # text, whose box and size span it (as screen_texts reads it).
                if isinstance(mobject, (GlyphString, SansText)) or (
                    isinstance(mobject, FormulaText) and id(mobject) not in captions
                ):
                    shown.append(mobject)
        # Every text's box and size, measured together (manim's corners, width and height).
        boxes, spans = _boxes_and_spans(shown)
        for mobject, box, (width, tall) in zip(shown, boxes, spans, strict=True):
            if isinstance(mobject, GlyphString):
                cell = None
                role = "label"
                if isinstance(mobject, NumberText):
                    cell = (mobject.cell.kind, mobject.cell.index)
                    role = "number" if mobject.cell.kind in data_kinds else "label"
                height = float(tall) * px_per_unit
                low, high = mobject.slot_corners()
                digit = float(high[1] - low[1]) * px_per_unit
            elif isinstance(mobject, FormulaText):
                # A typeset symbol (E, w_t): its glyphs' height is its size, but its
                # type size is its digits' (a bracket or a fraction reaches further).
                # Its type size is that of a label at its font size, as drawn (the
                # box of '=' or of a fraction says nothing about it).
                cell, role = None, "label"
                natural = getattr(mobject, "natural_height", 0.0) or float(tall)
                height = px_for_font(mobject.font_size_drawn) * float(tall) / natural
                digit = digit_height(mobject.font_size_drawn) * px_per_unit
                digit *= float(tall) / natural
                opacity = max(float(m.get_fill_opacity()) for m in family_of(mobject)[1:])
                texts.append(
                    TextSample(
                        mobject.text, role, cell, box, height, opacity, False, digit, "formula"
                    )
                )
                continue
            else:
                cell = None
                words = " ".join(mobject.original_text.split())
                spoken = {p.text for p in moment.beat.phrases} | {moment.beat.narration}
                role = "caption" if words in spoken or id(mobject) in captions else "text"
                size = mobject.font_size * width / (mobject.natural_width or 1.0)
                height = sans_digit * size * px_per_unit
                digit = height
            texts.append(
                TextSample(
                    text=mobject.text,
                    role=role,
                    cell=cell,
                    box=box,
                    pixel_height=height,
                    opacity=float(mobject.get_fill_opacity()),
                    in_strip=id(mobject) in strip_members,
                    digit_px=digit,
                    on_chip=id(mobject) in chipped,
                )
            )
        sample = MomentSample(moment.beat, moment.alpha, texts, strips, moment.step)
        sample.outlines = outlines
        sample.strokes = _strokes(families, strip_members | texts_drawn)
        sample.stale = moment.stale
        if moment.alpha >= 1:
            outlined = {
                id(m): m
                for family in families
                for m in family
                if _attribute(m, "id_place", None) is not None
                and float(m.get_stroke_opacity()) >= SHOWN
                and float(m.get_stroke_width()) > 0
            }
            sample.places = [(tuple(m.id_place), box_of(m)) for m in outlined.values()]
            # Only at beat ends, where issue 18's empty-area rule applies (it costs a search).
            sample.boxes, sample.band = frame_boxes(scene_object)
            sample.empty = largest_empty_rectangle(sample.boxes, sample.band)
            sample.drawn = _ink_boxes(families)
            sample.frame_area = float(config.frame_width * config.frame_height)
        samples.append(sample)

    play_moments(board, read, alphas=alphas, pixel_width=192, pixel_height=108, beats=beats)
    return samples


@pytest.fixture(scope="session")
def moment_cache(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., list[MomentSample]]:
    """Sample each (scene, options) once per test run, whichever worker asks first."""
    cache: dict[str, list[MomentSample]] = {}
    shared = _shared_folder(tmp_path_factory)

    def run(scene: str, overrides: dict[str, Any] | None = None) -> list[MomentSample]:
        key = f"{scene}:{sorted((overrides or {}).items())}"
        if key not in cache:
            cache[key] = _once_per_run(
                shared, f"moments:{key}", lambda: sample_moments(scene, overrides)
            )
        return cache[key]

    return run


@pytest.fixture(scope="session")
def carry_play_cache(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Any]:
    """Play each (scene, options) once per test run for its carries (tests/carry_plays.py).

    A play is swept if asked (``sweep``) or if test_numbers_fade sweeps it (``SWEPT``).
    """
    from carry_plays import CarryPlay, play_carries, swept

    cache: dict[str, CarryPlay] = {}
    shared = _shared_folder(tmp_path_factory)

    def run(scene: str, overrides: dict[str, Any] | None = None, sweep: bool = False) -> CarryPlay:
        sweep = sweep or swept(scene, overrides)
        key = f"{scene}:{sorted((overrides or {}).items())}:swept={sweep}"
        if key not in cache:
            cache[key] = _once_per_run(
                shared, f"carries:{key}", lambda: play_carries(scene, overrides, sweep)
            )
        return cache[key]

    return run


def play_dry(make_scene: Callable[[], Any], fps: int, prefix: str = "embedviz-dry-") -> None:
    """Dry-run a scene at 320x180 and ``fps`` in a scratch media folder, frame by frame.

    The step tests watch every frame of a scene (their scene classes count
    frames and look at the screen); this is the part they share.
    """
    import tempfile

    from manim import tempconfig

    with tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        settings = {
            "dry_run": True,
            "disable_caching": True,
            "media_dir": scratch,
            "pixel_width": 320,
            "pixel_height": 180,
            "frame_rate": fps,
            "verbosity": "ERROR",
            "progress_bar": "none",
        }
        with tempconfig(settings):
            make_scene().render()


def count_frames(scene: Any, watch: Any, samples: list[Any], look: Callable[[], None]) -> None:
    """Make a dry-run scene count its frames in ``watch.frame`` instead of drawing them.

    ``look`` appends one sample of the screen to ``samples``; a held frame
    (a wait) repeats the last one, so there is one sample per frame.
    """
    renderer: Any = scene.renderer
    renderer.update_frame = lambda *args, **kwargs: None

    def count(frame: Any, num_frames: int = 1) -> None:
        for _ in range(num_frames):
            if len(samples) <= watch.frame:
                look()
            watch.frame += 1

    renderer.add_frame = count


# The files whose shared exports take longest start first, so that with
# pytest-xdist (one test file per worker, `--dist loadfile`) the other
# workers take the many short files meanwhile instead of waiting at the end.
# xdist keeps this order only with --no-loadscope-reorder (pyproject's addopts):
# by default it re-sorts the files by their number of tests, which sent
# test_frame_rate.py (9 tests, a 30 s export) to the middle of the run.
SLOW_FILES_FIRST = (
    "test_export.py",
    "test_frame_rate.py",
    "test_voice.py",
    "test_export_safety.py",
    "test_a11y_export.py",
    "test_readme.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the slowest files first, then the others by their number of tests, most first.

    The second key is xdist's own order (its loadscope reorder), kept for the many
    files after the slow ones so that files of one or two tests fill the end. A
    stable sort: each file keeps its own order.
    """
    tests: dict[Path, int] = {}
    for item in items:
        tests[item.path] = tests.get(item.path, 0) + 1

    def rank(item: pytest.Item) -> tuple[int, int]:
        name = item.path.name
        first = SLOW_FILES_FIRST.index(name) if name in SLOW_FILES_FIRST else len(SLOW_FILES_FIRST)
        return first, -tests[item.path]

    items.sort(key=rank)


def strip_members(family: list[Any]) -> set[int]:
    """Return the ids of every member of a travelling row strip among ``family`` (its copies).

    Checks of E's own rows leave them out: a strip is a copy of a row on its way out.
    """
    return {
        id(member) for m in family if getattr(m, "row_strip", False) for member in m.get_family()
    }
