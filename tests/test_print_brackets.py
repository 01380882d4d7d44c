"""SingleTokenLookup's print: its brackets stay visible while they are explained (issue 18).

The print beat's narration explains the double brackets, then points at the
row's numbers. No stroke (the ring round the outer pair, the ring round the
row, the ``grad_fn`` label's underline) may cross the ink of any ``[`` or
``]`` of the print, at any moment of the print and ``grad_fn`` beats; every
highlight stands a few pixels clear of every glyph, and goes round what its
phrase explains. The ink boxes are read here from the glyph outlines' points
(a monospace character owns one slot of the string's advance width), not
from the render code's own geometry."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard

BEATS = ("print", "grad-fn")
# Below this opacity a stroke is not counted as drawn.
SHOWN = 0.1


def _bracket_inks(scene: Any) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Every ``[`` and ``]`` of the print: (char, ink low corner, ink high corner)."""
    inks = []
    for piece in scene.stage.printed.printed.text_pieces:
        text = piece.text
        glyph_points = piece.points[:-8]  # the last 8 points are the slot box's anchor
        low, high = piece.points[-8], piece.points[-1]
        advance = (high[0] - low[0]) / len(text)
        for index, char in enumerate(text):
            if char not in "[]":
                continue
            left = low[0] + index * advance
            inside = (glyph_points[:, 0] >= left - 1e-9) & (
                glyph_points[:, 0] <= left + advance + 1e-9
            )
            ink = glyph_points[inside]
            assert len(ink), (text, index)
            inks.append((char, ink.min(axis=0)[:2], ink.max(axis=0)[:2]))
    return inks


def _stroke_points(mobject: Any) -> np.ndarray:
    """Points along a mobject's stroked path (20 per cubic Bézier)."""
    curves = mobject.points.reshape(-1, 4, 3)[:, :, :2]
    t = np.linspace(0.0, 1.0, 20)[:, None]
    weights = [(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3]
    return np.concatenate([sum(w * c[k] for k, w in enumerate(weights)) for c in curves])


def _crossings(scene: Any) -> list[str]:
    """Strokes on screen that reach into a bracket's ink box."""
    from embedviz.render.formula import FormulaText
    from embedviz.render.glyphs import GlyphString

    inks = _bracket_inks(scene)
    crossed = []
    for top in scene.mobjects:
        for mobject in top.get_family():
            if isinstance(mobject, (GlyphString, FormulaText)) or not len(mobject.points):
                continue
            width = float(mobject.get_stroke_width())
            if width <= 0 or float(mobject.get_stroke_opacity()) < SHOWN:
                continue
            # Manim draws a stroke width of w as w / 100 frame units.
            half = width / 200
            path = _stroke_points(mobject)
            for char, low, high in inks:
                near = np.all((path >= low - half) & (path <= high + half), axis=1)
                if near.any():
                    crossed.append(f"{type(mobject).__name__} crosses {char!r} at {low}")
    return crossed


@pytest.fixture(scope="module")
def print_moments() -> list[tuple[str, float, list[str]]]:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", {}, environ={})
    seen: list[tuple[str, float, list[str]]] = []

    def look(scene: Any, moment: Any) -> None:
        if moment.beat.name in BEATS:
            seen.append((moment.beat.name, moment.time, _crossings(scene)))

    # Only BEATS are read: the others play unsampled (tests/test_moment_beats.py).
    alphas = (0.25, 0.5, 0.75)
    play_moments(board, look, alphas=alphas, pixel_width=192, pixel_height=108, beats=set(BEATS))
    return seen


def test_no_stroke_crosses_the_prints_brackets(
    print_moments: list[tuple[str, float, list[str]]],
) -> None:
    assert {beat for beat, _, _ in print_moments} == set(BEATS)
    for beat, time, crossed in print_moments:
        assert not crossed, (beat, time, crossed)


def test_the_check_sees_a_stroke_over_a_bracket() -> None:
    """The probe itself: a line drawn across a bracket's ink is found."""
    from manim import Line, Scene

    from embedviz.render.glyphs import LabelText

    class Printed:
        text_pieces: ClassVar[list[Any]] = [LabelText("([[", 24, "#ffffff")]

    scene: Any = Scene()
    scene.stage = type("Stage", (), {"printed": type("Part", (), {"printed": Printed})})
    scene.add(Printed.text_pieces[0])
    assert not _crossings(scene)
    _, low, high = _bracket_inks(scene)[1]
    middle = (low + high) / 2
    scene.add(Line([middle[0], low[1] - 1, 0], [middle[0], high[1] + 1, 0]))
    assert _crossings(scene)


# GPT-2's 768 numbers print on several lines, the last one shorter, ending in
# ``]], grad_fn=<EmbeddingBackward0>)`` (a review found the numbers' box running
# through "Backward0" and taking half the grad_fn label in with "the numbers").
GPT2 = {"vocab": 50257, "dim": 768}


def _char_inks(scene: Any) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Every inked character of the print's text pieces (brackets, commas, grad_fn, ...)."""
    inks = []
    for piece in scene.stage.printed.printed.text_pieces:
        glyph_points = piece.points[:-8]
        low, high = piece.points[-8], piece.points[-1]
        advance = (high[0] - low[0]) / len(piece.text)
        for index, char in enumerate(piece.text):
            left = low[0] + index * advance
            inside = (glyph_points[:, 0] >= left + 1e-6) & (
                glyph_points[:, 0] <= left + advance - 1e-6
            )
            ink = glyph_points[inside]
            if char.strip() and len(ink):
                inks.append((char, ink.min(axis=0)[:2], ink.max(axis=0)[:2]))
    return inks


def _encloses(path: np.ndarray, point: np.ndarray) -> bool:
    """Whether a closed path (points along it, in order) goes round a point (ray casting)."""
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(path, np.roll(path, -1, axis=0), strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _box_faults(scene: Any) -> list[str]:
    """Print characters the row's ring crosses, or holds inside with the numbers.

    The ring goes round the row: its numbers in their own (inner) brackets.
    A box round the numbers alone had no room to stand clear of those brackets
    (issue 18's 720p review saw it cut into them).
    """
    from embedviz.render.parts.printed import PrintPart

    part: PrintPart = scene.stage.printed
    box = part.numbers_box
    if box is None or box not in scene.mobjects or float(box.get_stroke_opacity()) < SHOWN:
        return []
    half = float(box.get_stroke_width()) / 200
    path = _stroke_points(box)
    faults = []
    inks = _char_inks(scene)
    opening = [n for n, (char, _, _) in enumerate(inks) if char == "["]
    closing = [n for n, (char, _, _) in enumerate(inks) if char == "]"]
    inner = {opening[1], closing[-2]}
    for n, (char, low, high) in enumerate(inks):
        if np.all((path >= low - half) & (path <= high + half), axis=1).any():
            faults.append(f"the box crosses {char!r} at {low}")
        # The commas between the numbers and the row's own brackets belong inside; the
        # outer brackets and grad_fn do not.
        elif char != "," and n not in inner and _encloses(path, (low + high) / 2):
            faults.append(f"the box holds {char!r} at {low}")
    return faults


@pytest.mark.parametrize("options", [{}, GPT2], ids=["toy", "gpt2"])
def test_the_rows_ring_holds_only_the_row(options: dict[str, Any]) -> None:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", options, environ={})
    seen: list[tuple[str, float, list[str]]] = []

    def look(scene: Any, moment: Any) -> None:
        if moment.beat.name in BEATS:
            seen.append((moment.beat.name, moment.time, _box_faults(scene)))

    play_moments(board, look, alphas=(0.25, 0.5, 0.75), pixel_width=192, pixel_height=108)
    assert {beat for beat, _, _ in seen} == set(BEATS)
    for beat, time, faults in seen:
        assert not faults, (beat, time, faults[:5])


def test_the_box_check_sees_a_label_inside_or_under_the_line() -> None:
    """The probes themselves: a point inside a square, and one outside."""
    from manim import Square

    path = _stroke_points(Square(side_length=2))
    assert _encloses(path, np.array([0.5, -0.5]))
    assert not _encloses(path, np.array([1.5, 0.0]))


# The print is the beat's data ("The 768 numbers inside are row 3."): at GPT-2's
# size its digits keep the floor of a real-sized table's numbers, 18 px at 720p
# (a lecture-hall review read them at about 13-15 px, under E, with the frame's
# bottom empty below them).
PRINT_FLOOR_PX = 18.0


def test_gpt2_print_digits_keep_the_data_floor() -> None:
    from manim import config

    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", GPT2, environ={})
    heights: dict[str, float] = {}

    def look(scene: Any, moment: Any) -> None:
        if moment.beat.name not in BEATS or moment.alpha < 1:
            return
        drawn = {id(m) for top in scene.mobjects for m in top.get_family()}
        numbers = [
            n
            for n in scene.stage.printed.numbers
            if id(n) in drawn and float(n.get_fill_opacity()) >= SHOWN
        ]
        assert numbers, moment.beat.name
        # A number's ink, read from its glyph outlines (the last 8 points are its
        # slot box): from the digits' tops to the baseline, one digit's height.
        inks = [np.ptp(n.points[:-8, 1]) for n in numbers]
        heights[moment.beat.name] = min(inks) * 720 / float(config.frame_height)

    play_moments(board, look, pixel_width=192, pixel_height=108)
    assert set(heights) == set(BEATS)
    for beat, px in heights.items():
        assert px >= PRINT_FLOOR_PX, (beat, round(px, 2))


# Issue 18, a 720p review of the print and grad_fn beats (35.4-47.2 s): the box round
# the numbers stood about 2 px from the ``[[`` and ``]]`` beside them, cutting into
# them while the narration explained them, and the grad_fn box took in the ``)`` that
# closes ``tensor(``. Every highlight (violet: what the narration points at) keeps
# this far from every glyph's ink of the call and the print, at 720p, and goes round
# exactly what its phrase explains.
CLEAR_PX = 3.0


def _piece_inks(piece: Any) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """One text piece's inked characters, read from its glyph outlines (as _char_inks)."""
    glyph_points = piece.points[:-8]
    low, high = piece.points[-8], piece.points[-1]
    advance = (high[0] - low[0]) / len(piece.text)
    inks = []
    for index, char in enumerate(piece.text):
        left = low[0] + index * advance
        inside = (glyph_points[:, 0] >= left + 1e-6) & (glyph_points[:, 0] <= left + advance - 1e-6)
        ink = glyph_points[inside]
        if char.strip() and len(ink):
            inks.append((char, ink.min(axis=0)[:2], ink.max(axis=0)[:2]))
    return inks


def _all_inks(scene: Any) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Every character of the call and the text pieces; every number and mark whole."""
    part = scene.stage.printed
    texts = [part.code, *part.printed.text_pieces]
    inks = [ink for piece in texts for ink in _piece_inks(piece)]
    for piece in part.printed.submobjects:
        if any(piece is t for t in texts) or not len(piece.points[:-8]):
            continue
        glyphs = piece.points[:-8]
        inks.append((piece.text, glyphs.min(axis=0)[:2], glyphs.max(axis=0)[:2]))
    return inks


def _highlights(scene: Any, least: float = SHOWN) -> list[Any]:
    """Visible strokes in the highlight colour (rings and underlines), not texts."""
    from manim import ManimColor

    from embedviz.render.glyphs import GlyphString

    colour = ManimColor(scene.stage.theme.highlight).to_hex().lower()
    return [
        m
        for top in scene.mobjects
        for m in top.get_family()
        if not isinstance(m, GlyphString)
        and len(m.points)
        and float(m.get_stroke_width()) > 0
        and float(m.get_stroke_opacity()) >= least
        and m.get_stroke_color().to_hex().lower() == colour
    ]


def _too_close(scene: Any) -> list[str]:
    """Highlights whose line comes within CLEAR_PX (720p) of a glyph's ink."""
    from manim import config

    unit = float(config.frame_height) / 720
    inks = _all_inks(scene)
    faults = []
    for mark in _highlights(scene):
        reach = float(mark.get_stroke_width()) / 200 + CLEAR_PX * unit
        path = _stroke_points(mark)
        for char, low, high in inks:
            if np.all((path >= low - reach) & (path <= high + reach), axis=1).any():
                faults.append(f"{type(mark).__name__} within {CLEAR_PX} px of {char!r} at {low}")
    return faults


@pytest.mark.parametrize("options", [{}, GPT2], ids=["toy", "gpt2"])
def test_every_highlight_stands_clear_of_every_glyph(options: dict[str, Any]) -> None:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", options, environ={})
    seen: list[tuple[str, float, list[str]]] = []

    def look(scene: Any, moment: Any) -> None:
        if moment.beat.name in BEATS:
            seen.append((moment.beat.name, moment.time, _too_close(scene)))

    alphas = (0.25, 0.5, 0.75, 1.0)
    play_moments(board, look, alphas=alphas, pixel_width=192, pixel_height=108)
    assert {beat for beat, _, _ in seen} == set(BEATS)
    for beat, time, faults in seen:
        assert not faults, (beat, time, faults[:5])


def _held(scene: Any) -> list[tuple[str, set[str]]]:
    """Each visible highlight: its kind (ring or line) and the characters it marks.

    A ring marks what it goes round (the centres of the inks it encloses); a
    line (open, flat) marks what stands just above it, over its length.
    Brackets are told apart by their place: the outer and inner ``[`` and
    ``]`` of the print's text, in reading order.
    """
    part = scene.stage.printed
    inks = _all_inks(scene)
    text_inks = [ink for piece in part.printed.text_pieces for ink in _piece_inks(piece)]
    opening = [k for k in text_inks if k[0] == "["]
    closing = [k for k in text_inks if k[0] == "]"]

    def key(ink: tuple[str, np.ndarray, np.ndarray]) -> tuple[str, float, float]:
        return ink[0], round(float(ink[1][0]), 6), round(float(ink[1][1]), 6)

    names = {key(opening[0]): "outer [", key(closing[-1]): "outer ]"}
    names.update({key(opening[1]): "inner [", key(closing[-2]): "inner ]"})

    def name(ink: tuple[str, np.ndarray, np.ndarray]) -> str:
        # A number is one whole piece; a text piece's characters come one by one.
        return names.get(key(ink), "number" if len(ink[0]) > 1 else ink[0])

    found = []
    for mark in _highlights(scene, least=0.9):
        path = _stroke_points(mark)
        flat = np.ptp(path[:, 1]) < 1e-3
        marked: set[str] = set()
        for ink in inks:
            _, low, high = ink
            centre = (low + high) / 2
            if flat:
                under = path[0, 1] < low[1] and path[0, 1] > low[1] - 0.2
                if under and path[:, 0].min() <= centre[0] <= path[:, 0].max():
                    marked.add(name(ink))
            elif _encloses(path, centre):
                marked.add(name(ink))
        found.append(("line" if flat else "ring", marked))
    return found


@pytest.mark.parametrize("options", [{}, GPT2], ids=["toy", "gpt2"])
def test_each_highlight_goes_round_what_its_phrase_explains(options: dict[str, Any]) -> None:
    """The print's phrases: "The outer pair means a 2-D tensor with a single row." rings
    each outer bracket alone (a ring round ``[[ ... ]]`` took the numbers in too, and a
    720p review read it as marking them); "The 3 numbers inside are row 3." marks the
    inner pair with the numbers, not the outer brackets. The grad_fn beat marks
    ``grad_fn=<EmbeddingBackward0>`` and not the ``)`` after it."""
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", options, environ={})
    ends: dict[tuple[str, int], list[tuple[str, set[str]]]] = {}

    def look(scene: Any, moment: Any) -> None:
        if moment.beat.name in BEATS and moment.alpha == 1.0 and moment.step >= 0:
            ends.setdefault((moment.beat.name, moment.step), _held(scene))

    play_moments(board, look, alphas=(1.0,), pixel_width=192, pixel_height=108)
    outer = [held for kind, held in ends[("print", 1)] if kind == "ring"]
    assert sorted(map(sorted, outer)) == [["outer ["], ["outer ]"]], outer
    # The row: ringed where it prints on several lines, underlined on one (a ring's
    # sides between ``[[`` and ``]]`` stood too close to them, below).
    inner = [held for _, held in ends[("print", 2)]]
    assert any({"inner [", "inner ]", "number"} <= h for h in inner), inner
    assert not any(h & {"outer [", "outer ]", "g", ")"} for h in inner), inner
    grad_fn = [held for _, held in ends[("grad-fn", 0)]]
    assert any({"g", "_", "<", "B", ">"} <= h for h in grad_fn), grad_fn
    assert not any(")" in h or "number" in h for h in grad_fn), grad_fn


# A lecture-hall review (720p) saw the row's ring touch the brackets: its sides stood
# between ``[[`` and ``]]``, about 4 px clear of each. Whatever marks the row stands
# at least 6 px clear of every bracket's ink at 720p.
ROW_CLEAR_PX = 6.0
# A 720p review of GPT-2's print (the row on several lines, ringed): the ring round
# ``[[ ... ]]`` and the one round the row stood about 4 px from the brackets' ink, their
# sides between ``([``, ``[[``, ``]]`` and ``],``. The row's ring keeps a passing ring's
# margin (design.RING_BUFF less half its stroke: 7.2 px) less a rounding's worth. The
# outer pair is marked by a ring round each outer bracket alone (a 720p review: a ring
# round ``[[ ... ]]`` did not single the pair out): a side between two brackets (9-11 px
# apart at 720p) has no room for that margin, and stands midway, as far from each as the
# gap allows: at least OUTER_CLEAR_PX from every bracket's ink.
RING_CLEAR_PX = 7.0
OUTER_CLEAR_PX = 3.0
PX_PER_UNIT = 720 / 8.0


def _bracket_clearance(scene: Any, marks: list[Any]) -> float:
    """The least distance (720p pixels) from the marks' strokes on screen to a bracket's ink."""
    least = np.inf
    for mark in marks:
        if mark not in scene.mobjects:
            continue
        # A mark may be a group (the outer pair's two rings): each line in it.
        for box in mark.family_members_with_points():
            if float(box.get_stroke_opacity()) < SHOWN:
                continue
            half = float(box.get_stroke_width()) / 200
            path = _stroke_points(box)
            for _, low, high in _bracket_inks(scene):
                outside = np.maximum(np.maximum(low - path, path - high), 0.0)
                least = min(least, float(np.hypot(outside[:, 0], outside[:, 1]).min()) - half)
    return least * PX_PER_UNIT


def _row_mark(scene: Any) -> list[Any]:
    box = scene.stage.printed.numbers_box
    return [] if box is None else [box]


def test_the_rows_mark_stands_clear_of_the_brackets() -> None:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", {}, environ={})
    seen: list[tuple[str, float, float]] = []

    def look(scene: Any, moment: Any) -> None:
        if moment.beat.name in BEATS:
            seen.append(
                (moment.beat.name, moment.time, _bracket_clearance(scene, _row_mark(scene)))
            )

    play_moments(board, look, alphas=(0.5,), pixel_width=192, pixel_height=108)
    assert any(np.isfinite(gap) for _, _, gap in seen)
    for beat, time, gap in seen:
        assert gap >= ROW_CLEAR_PX, (beat, time, round(gap, 2))


@pytest.mark.parametrize(
    "options", [GPT2, {**GPT2, "ids": "4821"}, {**GPT2, "ids": "50256"}], ids=str
)
def test_gpt2s_rings_keep_a_rings_margin_from_the_brackets(options: dict[str, Any]) -> None:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", options, environ={})
    seen: dict[str, float] = {}

    def look(scene: Any, moment: Any) -> None:
        if moment.beat.name not in BEATS:
            return
        part = scene.stage.printed
        for name, marks in (("outer", part.bracket_marks), ("row", _row_mark(scene))):
            gap = _bracket_clearance(scene, marks)
            seen[name] = min(seen.get(name, np.inf), gap)

    play_moments(board, look, alphas=(0.5, 1.0), pixel_width=192, pixel_height=108)
    # Both rings were on screen (GPT-2's row prints on several lines: it is ringed).
    assert np.isfinite(seen["outer"]), seen
    assert np.isfinite(seen["row"]), seen
    shown = {k: round(v, 2) for k, v in seen.items()}
    assert seen["row"] >= RING_CLEAR_PX, shown
    assert seen["outer"] >= OUTER_CLEAR_PX, shown
