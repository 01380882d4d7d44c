"""TrainingNudge as a 720p frame review saw it at GPT-2 size: what stands where.

Each test reads geometry from the mobjects of a built stage (as
``test_training.py``'s last tests do); ``test_training.py`` holds the arithmetic
and the storyboard.
"""

from __future__ import annotations

from typing import Any

import pytest
from manim import Animation

from embedviz.render.fades import OutlineIn, RingFlash

GPT2: dict[str, Any] = {"vocab": 50257, "dim": 768}
CASES: list[dict[str, Any]] = [{}, GPT2, {**GPT2, "ids": "4821,12000,4821,33000,17"}]
IDS = ["default", "gpt2", "gpt2-five"]


def _stage(overrides: dict[str, Any]) -> Any:
    from conftest import RecordingHost

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.stages.training_nudge import TrainingStage
    from embedviz.render.theme import DARK

    board = prepared_storyboard("TrainingNudge", overrides, environ={})
    return TrainingStage(RecordingHost(), board, DARK)


def _gradient_home(stage: Any) -> tuple[float, float, float, float]:
    """The gradient's body where it stands from the IDs on (it rests nearer E before them).

    ``test_no_outlined_row_of_e_stands_empty_as_it_rolls_over`` checks it is there then.
    """
    left, bottom, right, top = _box(stage.gradient.grid.body)
    shift = stage.plan.grad_left - left
    return (left + shift, bottom, right + shift, top)


def _circumscribes(animation: Animation) -> list[Any]:
    """Every passing outline in an animation tree."""
    if isinstance(animation, RingFlash):
        return [animation]
    found = []
    for child in getattr(animation, "animations", []):
        found += _circumscribes(child)
    return found


def _box(mobject: Any) -> tuple[float, float, float, float]:
    return (
        float(mobject.get_left()[0]),
        float(mobject.get_bottom()[1]),
        float(mobject.get_right()[0]),
        float(mobject.get_top()[1]),
    )


@pytest.mark.parametrize("overrides", CASES, ids=IDS)
def test_the_zero_rows_outlines_cross_no_number(overrides: dict[str, Any]) -> None:
    """A 720p review (``unchanged`` mid, GPT-2 size): the passing outline round the zero
    rows (0 and 50256) was one rectangle round both, and its side crossed the nudged rows'
    1.3000, 0.8000 and 0.0000 between them. Every outline goes round whole numbers only:
    each of the gradient's numbers is inside an outline (with its ink) or clear of it."""
    stage = _stage(overrides)
    gradient = stage.gradient
    beat = next(b for b in stage.board.beats if b.name == "unchanged")
    rings = [c.mobject for c in _circumscribes(gradient.beat_unchanged(beat))]
    assert rings, "the zero rows are pointed at"
    numbers = [n for row in gradient.rows.numbers.values() for n in row]
    zero = {id(n) for row in gradient.zero_rows for n in gradient.rows.numbers[(row,)]}
    inside_some = set()
    for ring in rings:
        half = ring.get_stroke_width() / 200
        left, bottom, right, top = _box(ring)
        for number in numbers:
            n_left, n_bottom, n_right, n_top = _box(number)
            inside = (
                n_left > left + half
                and n_right < right - half
                and n_bottom > bottom + half
                and n_top < top - half
            )
            outside = (
                n_right < left - half
                or n_left > right + half
                or n_top < bottom - half
                or n_bottom > top + half
            )
            assert inside or outside, (number.cell.index, number.text)
            if inside:
                inside_some.add(id(number))
                assert id(number) in zero, ("a nudged row is ringed", number.cell.index)
    assert inside_some == zero


def _creates(animation: Animation) -> list[Any]:
    """Every mobject an animation tree brings in as an outline (:class:`OutlineIn`)."""
    if isinstance(animation, OutlineIn) and not isinstance(animation, RingFlash):
        return [animation.mobject]
    found = []
    for child in getattr(animation, "animations", []):
        found += _creates(child)
    return found


def _apart_px(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float]:
    """How far apart two boxes are, across and down, in pixels at 720p (negative: overlap)."""
    from manim import config

    px = 720 / float(config.frame_height)
    across = max(a[0] - b[2], b[0] - a[2]) * px
    down = max(a[1] - b[3], b[1] - a[3]) * px
    return across, down


def _ink(outline: Any) -> tuple[float, ...]:
    half = outline.get_stroke_width() / 200
    left, bottom, right, top = _box(outline)
    return (left - half, bottom - half, right + half, top + half)


def test_the_hidden_rows_labels_and_the_row_outlines_keep_clear() -> None:
    """A 720p review at GPT-2 size: ``row 1 hidden`` and ``rows 4–50255 hidden``
    were squeezed into 8 px bands, level with the amber outlines of rows 2 and 3, and those
    two outlines shared an edge (y 258). Every band's label now stands at least 3 px above
    or below every amber outline's ink, two outlines at least 3 px apart, and an outline's
    ink at least 3 px from another row's numbers. The numbers (25.7 px before) stay at
    23.3 px, over the real-sized cases' 18 px floor."""
    from embedviz.render.design import MIN_DATA_PX, px_for_font
    from embedviz.render.glyphs import NumberText

    stage = _stage(GPT2)
    assert stage.plan.sizes.gaps_clear
    assert px_for_font(stage.plan.scale.data) >= MIN_DATA_PX
    beat = next(b for b in stage.board.beats if b.name == "loss")
    id_line = stage.theme.id_line.lower()
    grid = stage.matrix.grid
    # E's outlines (the gathered rows, beside the chips, have their own).
    outlines = [
        m
        for m in _creates(stage.beat_loss(beat))
        if m.get_stroke_color().to_hex().lower() == id_line
        and m.get_center()[0] < grid.body_right()
    ]
    rows = sorted({int(chip.number.cell.value) for chip in stage.weights.chips})
    assert len(outlines) == len(rows) >= 2
    assert grid.gap_labels, "this case hides rows"
    inks = [_ink(o) for o in outlines]
    for label in grid.gap_labels.values():
        for ink in inks:
            assert _apart_px(_box(label), ink)[1] >= 3.0, (label.text, _apart_px(_box(label), ink))
    for i, first in enumerate(inks):
        for second in inks[i + 1 :]:
            assert max(_apart_px(first, second)) >= 3.0, _apart_px(first, second)
    numbers = [
        m for m in grid.get_family() if isinstance(m, NumberText) and m.cell.kind == "weight"
    ]
    for row, ink in zip(rows, inks, strict=True):
        for number in numbers:
            if number.cell.index[0] != row:
                assert max(_apart_px(_box(number), ink)) >= 3.0, (row, number.cell.index)


def test_many_hidden_ranges_keep_thin_bands() -> None:
    """Five IDs at GPT-2 size hide five ranges: bands clear of the outlines would take the
    numbers to 13.7 px, under the 18 px floor, so the bands stay thin there (still open:
    their labels stand level with the outlines, as the review found at two ranges)."""
    from embedviz.render.design import MIN_DATA_PX, px_for_font

    stage = _stage(CASES[2])
    assert not stage.plan.sizes.gaps_clear
    assert px_for_font(stage.plan.scale.data) >= MIN_DATA_PX


@pytest.mark.parametrize("overrides", CASES, ids=IDS)
def test_the_row_marks_stand_with_e_not_the_gradient(overrides: dict[str, Any]) -> None:
    """A lecture-hall review (GPT-2 size, 720p): "unchanged" ended about 14 px from the
    gradient's rows, as close as it stood to E's, and read as the gradient row's label.
    Each mark stands at least twice as far (and 6 px further) from the gradient as from E."""
    stage = _stage(overrides)
    e_body, gradient = _box(stage.matrix.grid.body), _gradient_home(stage)
    assert stage.gradient.marks
    for row, mark in stage.gradient.marks.items():
        to_e, _ = _apart_px(_box(mark), e_body)
        to_gradient, _ = _apart_px(_box(mark), gradient)
        assert to_gradient >= max(2 * to_e - 0.5, to_e + 6.0), (row, to_e, to_gradient)


@pytest.mark.slow
@pytest.mark.parametrize("overrides", CASES[:2], ids=IDS[:2])
def test_the_column_sum_steps_aside_only_while_a_strip_passes(overrides: dict[str, Any]) -> None:
    """A 720p review (about 29.6 to 31.1 s): the column sum (w₀, + w₂, =) vanished and
    faded back in, unchanged. It made way for the next row's strip, which travels along
    its weight row's line through the sum's rows, but came back only with the zeros'
    phrase, seconds after the strip had landed. Once worked out in the scatter, the sum
    is drawn at every moment (fading counts) but while a strip travels, and at the
    beat's end it is back whole: drawn as it was, and nothing stale in the video."""
    from conftest import sample_moments

    alphas = tuple(round(0.02 * k, 2) for k in range(1, 50))
    samples = [
        s
        for s in sample_moments("TrainingNudge", overrides, alphas=alphas, beats={"scatter"})
        if s.beat.name == "scatter"
    ]

    def drawn(sample: Any) -> dict[Any, float]:
        return {t.cell: t.opacity for t in sample.texts if t.cell and t.cell[0] in ("term", "sum")}

    def summed(sample: Any) -> bool:
        return any(cell[0] == "sum" and seen >= 1 for cell, seen in drawn(sample).items())

    first = next(i for i, s in enumerate(samples) if summed(s))
    worked = drawn(samples[first])
    away = [
        (s.step, s.alpha)
        for s in samples[first:]
        if not s.strips and not any(drawn(s).get(cell, 0) > 0 for cell in worked)
    ]
    assert not away, f"the column sum is away with no strip passing at (step, alpha) {away}"
    end = samples[-1]
    assert end.alpha >= 1
    assert {cell: drawn(end).get(cell, 0.0) for cell in worked} == worked
    assert not [line for s in samples for line in s.stale]


@pytest.mark.slow
@pytest.mark.parametrize("overrides", CASES, ids=IDS)
def test_no_outlined_row_of_e_stands_empty_as_it_rolls_over(overrides: dict[str, Any]) -> None:
    """A 720p review (``update`` at alpha 0.5): rows 2 and 3 of E stood empty inside their
    amber outlines, every old number gone up and out before any new one came in. At every
    moment of ``update`` (every 0.04 of each step), each amber outline on E frames at
    least one of E's numbers drawn at half opacity or more, old or new."""
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.glyphs import NumberText
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("TrainingNudge", overrides, environ={})
    alphas = tuple(round(0.04 * k, 2) for k in range(1, 25))
    empty: list[tuple[int, float, float]] = []
    framed: list[int] = []
    homes: list[float] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name != "update":
            return
        stage = scene.stage
        id_line = stage.theme.id_line.lower()
        e_left, _, e_right, _ = _box(stage.matrix.grid.body)
        family = [m for top in scene.mobjects for m in top.get_family()]
        outlines = [
            m
            for m in family
            if not m.submobjects
            and len(m.points)
            and float(m.get_stroke_width()) > 0
            and float(m.get_stroke_opacity()) >= 0.5
            and m.get_stroke_color().to_hex().lower() == id_line
            and e_left - 0.2 <= _box(m)[0]
            and _box(m)[2] <= e_right + 0.2
        ]
        numbers = [
            m
            for m in family
            if isinstance(m, NumberText)
            and m.cell.kind in ("weight", "updated")
            and float(m.get_fill_opacity()) >= 0.5
        ]
        framed.append(len(outlines))
        # The gradient stands where the marks keep their room from it (its plan's place).
        homes.append(_box(stage.gradient.grid.body)[0] - stage.plan.grad_left)
        for outline in outlines:
            left, bottom, right, top = _box(outline)
            inside = [
                n
                for n in numbers
                if left < n.get_center()[0] < right and bottom < n.get_center()[1] < top
            ]
            if not inside:
                empty.append((moment.step, moment.alpha, round(float(outline.get_center()[1]), 2)))

    # Only ``update`` is read: the other beats play unsampled.
    play_moments(board, read, alphas=alphas, pixel_width=192, pixel_height=108, beats={"update"})
    ids = {c.value for b in board.beats for c in b.numbers if c.kind == "token_id"}
    assert framed
    assert set(framed) == {len(ids)}, (framed, ids)
    assert max(abs(h) for h in homes) < 1e-6, homes
    assert not empty, f"outlined rows of E stand empty at (step, alpha, y) {empty}"


@pytest.mark.parametrize("overrides", CASES, ids=IDS)
def test_the_row_marks_have_room_between_the_tables(overrides: dict[str, Any]) -> None:
    """A lecture-hall review (720p): ``unchanged`` and ``nudged`` stood squeezed between
    the tables, 10.8 px (SPACE) from the ink of E's amber row outlines and 32 px from the
    gradient. Each mark now stands at least 1.5 SPACE (16 px) clear of every outline's ink
    and of E's body, and at least APART (43 px) clear of the gradient."""
    from manim import config

    from embedviz.render.design import APART, SPACE

    px = 720 / float(config.frame_height)
    stage = _stage(overrides)
    beat = next(b for b in stage.board.beats if b.name == "loss")
    id_line = stage.theme.id_line.lower()
    outlines = [
        _ink(m)
        for m in _creates(stage.beat_loss(beat))
        if m.get_stroke_color().to_hex().lower() == id_line
    ]
    assert outlines
    e_body, gradient = _box(stage.matrix.grid.body), _gradient_home(stage)
    assert stage.gradient.marks
    for row, mark in stage.gradient.marks.items():
        box = _box(mark)
        near = min(max(_apart_px(box, ink)) for ink in [*outlines, e_body])
        far = _apart_px(box, gradient)[0]
        assert near >= 1.5 * SPACE * px - 0.05, (row, mark.text, near)
        assert far >= APART * px - 0.05, (row, mark.text, far)


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_weights_and_the_column_sum_recede_once_the_gradient_is_found(theme: str) -> None:
    """A 720p review: the frame stood dense from ``loss`` on, every block built standing in
    full to the end. From ``update`` on, the blocks the gradient came from (the loss weights,
    the column sum, their titles and names) recede: each of their texts loses at least a
    fifth of its contrast against its ground from ``accumulate``'s end (or comes within
    0.4 of the floor), and keeps 4.5:1;
    E's numbers and the gradient's keep theirs, and the chips (the IDs) stay as they were."""
    from test_dim_contrast import _ratio, _rgb

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.glyphs import NumberText
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("TrainingNudge", {"theme": theme}, environ={})
    ends: dict[str, dict[int, tuple[str, float]]] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha < 1 or moment.beat.name not in read_beats:
            return
        stage = scene.stage
        weights, panel = stage.weights, stage.panel
        served = [*weights.rows.all(), weights.title_full, *panel.names, panel.title]
        served += [*panel.terms.all(), *panel.sums.all()]
        kept = [*stage.matrix.grid.entries.values(), *stage.gradient.rows.all()]
        kept += [chip.number for chip in weights.chips]
        seen: dict[int, tuple[str, float]] = {}
        for role, texts in (("served", served), ("kept", kept)):
            for text in texts:
                # A table's number stands on the cells' fill; the rest on the background.
                ground = stage.theme.cell_fill
                if not isinstance(text, NumberText) or text.cell.kind == "token_id":
                    ground = stage.theme.background
                colour = _rgb(text.get_fill_color())
                seen[id(text)] = (role, _ratio(colour, _rgb(ground)))
        ends[moment.beat.name] = seen

    # Only these beats' ends are read: the others play unsampled.
    read_beats = {"accumulate", "update", "meaning"}
    play_moments(board, read, alphas=(), pixel_width=192, pixel_height=108, beats=read_beats)
    before = ends["accumulate"]
    assert sum(role == "served" for role, _ in before.values()) >= 10
    for name in ("update", "meaning"):
        for key, (role, ratio) in ends[name].items():
            then = before.get(key)
            if then is None:
                continue  # E's new numbers
            if role == "served":
                assert 4.5 <= ratio <= max(0.8 * then[1], 4.9), (name, ratio, then[1])
            else:
                assert ratio == pytest.approx(then[1]), (name, ratio, then[1])


def _stroke_points(mobject: Any) -> Any:
    """Points along a stroked mobject's path (each cubic curve sampled at nine places)."""
    import numpy as np

    curves = mobject.points.reshape(-1, 4, 3)[:, :, :2]
    t = np.linspace(0.0, 1.0, 9)[:, None]
    weights = [(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3]
    return np.concatenate([sum(w * c[k] for k, w in enumerate(weights)) for c in curves])


def _closest_px(overrides: dict[str, Any]) -> tuple[float, int]:
    """Dry-run at 720p: the closest any visible highlight-coloured stroke comes to a visible
    gradient-coloured one, at every beat end and mid-beat, in pixels; and the number of
    samples with a highlight stroke at all."""
    import numpy as np
    from manim import config

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.moments import play_moments
    from embedviz.render.theme import THEMES

    board = prepared_storyboard("TrainingNudge", overrides, environ={})
    theme = THEMES[overrides.get("theme", "dark")]
    px = 720 / float(config.frame_height)
    closest, rung = float("inf"), 0

    def read(scene: Any, moment: Any) -> None:
        nonlocal closest, rung
        found: dict[str, list[Any]] = {theme.highlight.upper(): [], theme.gradient.upper(): []}
        for top in scene.mobjects:
            for m in top.get_family():
                if not len(m.points) or float(m.get_stroke_width()) <= 0:
                    continue
                if float(m.get_stroke_opacity()) < 0.5:
                    continue
                colour = m.get_stroke_color().to_hex().upper()
                if colour in found:
                    found[colour].append(_stroke_points(m))
        rings, frames = found[theme.highlight.upper()], found[theme.gradient.upper()]
        rung += bool(rings)
        if rings and frames:
            a, b = np.concatenate(rings), np.concatenate(frames)
            gaps = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
            closest = min(closest, float(gaps.min()) * px)

    play_moments(board, read, alphas=(0.5,))
    return closest, rung


@pytest.mark.parametrize("overrides", [{}, {"theme": "light"}, GPT2], ids=["dark", "light", "gpt2"])
def test_the_highlights_violet_never_runs_beside_the_gradients_magenta(
    overrides: dict[str, Any],
) -> None:
    """A 720p review: the gradient's magenta frames (``∂L/∂E`` and ``w_t``'s tables) sat
    under and beside the highlight's violet rings (the contributions w_0, w_2 and the
    gradient row they add up to), the two hues reading as one. Each colour keeps its one
    meaning (design.COLOUR_MEANINGS) and they never meet: no visible stroke in the
    highlight's colour comes within 12 px of one in the gradient's, mid-beat or at a
    beat's end (0 px before: the rings ran on the magenta frames)."""
    closest, rung = _closest_px(overrides)
    assert rung, "no highlight ring was sampled"
    assert closest >= 12.0, closest


@pytest.mark.slow
@pytest.mark.parametrize("overrides", CASES[:2], ids=IDS[:2])
def test_no_travelling_number_passes_over_a_sum_rows_name(overrides: dict[str, Any]) -> None:
    """A 720p review (27.84 s, default and GPT-2): the column sum's ``w_0`` faded in under
    the first number of w_0's copy as it slid past into the sum. At every 0.02 of the
    scatter's first step, no number of a travelling strip drawn at over 0.05 opacity
    overlaps a name of the sum's rows drawn at over 0.05."""
    from conftest import fill_opacity

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.moments import play_moments
    from embedviz.render.parts.strip import RowStrip

    board = prepared_storyboard("TrainingNudge", overrides, environ={})
    alphas = tuple(round(0.02 * k, 2) for k in range(1, 50))
    over: list[str] = []
    seen: list[int] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name != "scatter" or moment.step != 0:
            return
        panel = scene.stage.panel
        family = {id(m) for top in scene.mobjects for m in top.get_family()}
        names = [n for n in panel.names if id(n) in family and fill_opacity(n) > 0.05]
        strips = [m for top in scene.mobjects for m in top.get_family() if isinstance(m, RowStrip)]
        numbers = [
            t for s in strips if len(s) > 1 for t in s[1] if float(t.get_fill_opacity()) > 0.05
        ]
        seen.append(len(numbers))
        for name in names:
            a = _box(name)
            for number in numbers:
                b = _box(number)
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    over.append(f"a{moment.alpha:.2f}: {number.text} over a row's name")

    play_moments(board, read, alphas=alphas, pixel_width=192, pixel_height=108, beats={"scatter"})
    assert max(seen, default=0) > 0, "no travelling number was seen"
    assert not over, over[:6]


def _ink_opacity(mobject: Any) -> float:
    """The most opaque fill among a mobject's drawn parts (a Typst name is a group of paths)."""
    return max(
        (float(m.get_fill_opacity()) for m in mobject.family_members_with_points()), default=0
    )
