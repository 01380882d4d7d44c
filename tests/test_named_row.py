"""A caption that names a row of E ends its beat with that row marked (issue 18, frame review).

SingleTokenLookup's print beat ended on "The 3 numbers inside are row 3." with
no row of E marked (the lookup's outline had gone), so the viewer was told to
look at a row nobody showed. At the end of every beat whose last cue names
"row N" (not "output row N"), an outline in the ID's colour must stand round
row N of E and round no other row.

The outline is found from what is drawn: any stroked, visible mobject in the
ID's line colour (``id_line``: the chip's amber, darker in the light theme)
whose box holds every number of row N and the centre of no number of another
row. The numbers' places come from the mobjects tied to the storyboard's
weight cells, not from the render code's outline geometry.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from manim import ManimColor

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

# "row 3" of E, not "output row 0" or "rows 0, 4"; or "the 4th row" (counting from one).
NAMED_ROW = re.compile(r"(?<!output )\brow (\d+)\b")
ORDINAL_ROW = re.compile(r"\bthe (\d+)(?:st|nd|rd|th) row\b")
# Below this opacity a stroke is not counted as drawn.
SHOWN = 0.5
# How far an outline's edge may sit inside a number's box (frame units).
SLACK = 0.02


def _row_boxes(scene: Any, kind: str = "weight") -> dict[int, list[np.ndarray]]:
    """Every visible number of ``kind`` (E's by default) on screen, by row: its box."""
    from embedviz.render.glyphs import NumberText

    rows: dict[int, list[np.ndarray]] = {}
    # A travelling copy's numbers are tied to E's cells too, but they are not E's row:
    # ``row_strip`` marks the copy's group, not each number in it, so skip its family
    # (counted as the row's own, a copy half faded in beside E moved "row 3" out of the
    # outline that holds it).
    copies = {
        id(number)
        for top in scene.mobjects
        for part in top.get_family()
        if getattr(part, "row_strip", False)
        for number in part.get_family()
    }
    for top in scene.mobjects:
        for mobject in top.get_family():
            if not isinstance(mobject, NumberText) or mobject.cell.kind != kind:
                continue
            if id(mobject) in copies or float(mobject.get_fill_opacity()) < SHOWN:
                continue
            box = np.array([mobject.get_corner([-1, -1, 0])[:2], mobject.get_corner([1, 1, 0])[:2]])
            rows.setdefault(int(mobject.cell.index[0]), []).append(box)
    return rows


def outlined_rows(scene: Any, colour: str | set[str], kind: str = "weight") -> set[int]:
    """The rows of ``kind`` numbers (E's) that a visible stroke in ``colour`` encloses, alone."""

    rows = _row_boxes(scene, kind)
    found: set[int] = set()
    for low, high in _stroke_boxes(scene, colour, least_width=0.0):
        for row, boxes in rows.items():
            holds = all(np.all(b[0] >= low) and np.all(b[1] <= high) for b in boxes)
            others = [
                b
                for r, bs in rows.items()
                if r != row
                for b in bs
                if np.all((b[0] + b[1]) / 2 >= low) and np.all((b[0] + b[1]) / 2 <= high)
            ]
            if holds and not others:
                found.add(row)
    return found


def _stroke_boxes(
    scene: Any, colour: str | set[str], least_width: float
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (low, high) corners, widened by SLACK, of every visible stroke in ``colour``."""
    from embedviz.render.glyphs import GlyphString

    colours = {colour} if isinstance(colour, str) else colour
    wanted = {ManimColor(c).to_hex().lower() for c in colours}
    boxes = []
    for top in scene.mobjects:
        for mobject in top.get_family():
            if isinstance(mobject, GlyphString) or not len(mobject.points):
                continue
            width = float(mobject.get_stroke_width())
            if width <= 0 or width < least_width or mobject.get_stroke_opacity() < SHOWN:
                continue
            if mobject.get_stroke_color().to_hex().lower() not in wanted:
                continue
            low = mobject.get_corner([-1, -1, 0])[:2] - SLACK
            boxes.append((low, mobject.get_corner([1, 1, 0])[:2] + SLACK))
    return boxes


def _named_rows(scene: str, overrides: dict[str, Any]) -> list[tuple[str, int, set[int]]]:
    """At each beat end whose last cue names a row of E: (beat, that row, rows outlined)."""
    board = prepared_storyboard(scene, overrides, environ={})
    seen: list[tuple[str, int, set[int]]] = []

    def look(scene_object: Any, moment: Any) -> None:
        if moment.alpha < 1 or not moment.beat.phrases:
            return
        text = moment.beat.phrases[-1].text
        named, ordinal = NAMED_ROW.search(text), ORDINAL_ROW.search(text)
        if named is None and ordinal is None:
            return
        if named is not None:
            row = int(named[1])
        else:
            assert ordinal is not None
            row = int(ordinal[1]) - 1
        colour = scene_object.stage.theme.id_line  # the ID's amber as a line
        seen.append((moment.beat.name, row, outlined_rows(scene_object, colour)))

    play_moments(board, look, alphas=(), pixel_width=192, pixel_height=108)
    return seen


GPT2 = {"ids": "4821", "vocab": 50257, "dim": 768}


@pytest.mark.parametrize(
    ("scene", "overrides"),
    [
        ("SingleTokenLookup", {}),
        ("SingleTokenLookup", {"theme": "light"}),
        ("SingleTokenLookup", GPT2),
    ],
)
def test_a_row_named_at_a_beats_end_is_marked(scene: str, overrides: dict[str, Any]) -> None:
    """Issue 18's 720p review: the zero-based beat ended on "the 4th row, counting from
    zero" with nothing marking row 3 (the lookup's outline came only in the next beat)."""
    seen = _named_rows(scene, overrides)
    # The zero-based beat ends naming the 4th row (row 3); print and grad-fn, row 3.
    assert {beat for beat, _, _ in seen} >= {"zero-based", "print", "grad-fn"}, seen
    for beat, row, outlined in seen:
        assert outlined == {row}, (beat, row, outlined)


def test_the_outline_probe_sees_a_row_outline() -> None:
    """The probe itself: a rectangle round one row's numbers is found, and only that row."""
    from manim import Rectangle, Scene

    from embedviz.render.glyphs import NumberText

    class Cell:
        def __init__(self, row: int) -> None:
            self.kind, self.index, self.text = "weight", (row, 0), "0.1234"

    scene: Any = Scene()
    numbers = [NumberText(Cell(row), 24, "#ffffff").move_to([0, -0.5 * row, 0]) for row in range(3)]
    scene.add(*numbers)
    assert outlined_rows(scene, "#e69f00") == set()
    scene.add(Rectangle(width=1.2, height=0.4).move_to([0, -0.5, 0]).set_stroke("#e69f00", 4))
    assert outlined_rows(scene, "#e69f00") == {1}
    scene.add(Rectangle(width=1.2, height=1.4).move_to([0, -0.5, 0]).set_stroke("#e69f00", 4))
    assert outlined_rows(scene, "#e69f00") == {1}


def test_a_travelling_copys_numbers_are_not_the_rows_own() -> None:
    """A copy of row 1 beside it (its group marked ``row_strip``) leaves row 1 outlined."""
    from manim import Rectangle, Scene, VGroup

    from embedviz.render.glyphs import NumberText

    class Cell:
        def __init__(self, row: int) -> None:
            self.kind, self.index, self.text = "weight", (row, 0), "0.1234"

    class Copy(VGroup):
        row_strip = True

    scene: Any = Scene()
    numbers = [NumberText(Cell(row), 24, "#ffffff").move_to([0, -0.5 * row, 0]) for row in range(3)]
    scene.add(*numbers)
    scene.add(Rectangle(width=1.2, height=0.4).move_to([0, -0.5, 0]).set_stroke("#e69f00", 4))
    copy = Copy(NumberText(Cell(1), 24, "#ffffff").move_to([1.5, -0.5, 0]))
    scene.add(copy)
    assert outlined_rows(scene, "#e69f00") == {1}
    # The same number outside a copy is one more of row 1's, out of the outline.
    scene.remove(copy)
    scene.add(NumberText(Cell(1), 24, "#ffffff").move_to([1.5, -0.5, 0]))
    assert outlined_rows(scene, "#e69f00") == set()


def _counted(scene: Any, colour: str) -> set[int]:
    """The rows of E a visible stroke in ``colour`` rings whole: its numbers and row number."""

    numbers = _row_boxes(scene)
    rows: dict[int, list[np.ndarray]] = {}
    for row, boxes in numbers.items():
        label = scene.stage.matrix.grid.row_labels.get(row)
        if label is None:
            continue
        box = np.array([label.get_corner([-1, -1, 0])[:2], label.get_corner([1, 1, 0])[:2]])
        rows[row] = [*boxes, box]
    found: set[int] = set()
    for low, high in _stroke_boxes(scene, colour, least_width=3.0):
        for row, boxes in rows.items():
            if all(np.all(b[0] >= low) and np.all(b[1] <= high) for b in boxes):
                found.add(row)
    return found


@pytest.mark.parametrize("overrides", [{}, GPT2], ids=["toy", "gpt2"])
def test_the_count_rings_each_row_it_counts(overrides: dict[str, Any]) -> None:
    """Issue 18's 720p review (zero-based, 13.4 s): the count was a tiny violet tick on
    small grey row numbers, hard to see from the back of a hall. Each row counted (0 up
    to the ID's row, of those the window shows) is ringed whole in the highlight, its
    row number with its numbers, at some moment of the count; no row past it is."""
    board = prepared_storyboard("SingleTokenLookup", overrides, environ={})
    counted: set[int] = set()
    shown: list[int] = []

    def look(scene_object: Any, moment: Any) -> None:
        if moment.beat.name != "zero-based":
            return
        grid = scene_object.stage.matrix.grid
        target = moment.beat.highlight.row
        shown[:] = [r for r in grid.get_rows() if r <= target]
        counted.update(_counted(scene_object, scene_object.stage.theme.highlight))

    alphas = tuple(round(0.05 * k, 2) for k in range(1, 20))
    # Only the zero-based beat is read: the others play unsampled (tests/test_moment_beats.py).
    beats = {"zero-based"}
    play_moments(board, look, alphas=alphas, pixel_width=192, pixel_height=108, beats=beats)
    assert shown, "the zero-based beat was not seen"
    assert counted == set(shown), (sorted(counted), shown)


def _ink_box(mobject: Any) -> np.ndarray:
    """A mobject's box with its stroke's ink: manim draws width w as w / 100 frame units."""
    reach = float(mobject.get_stroke_width()) / 200 if float(mobject.get_stroke_opacity()) else 0.0
    low = mobject.get_corner([-1, -1, 0])[:2] - reach
    return np.array([low, mobject.get_corner([1, 1, 0])[:2] + reach])


@pytest.mark.parametrize("overrides", [{}, {"theme": "light"}, GPT2], ids=["toy", "light", "gpt2"])
def test_the_count_stays_in_the_safe_margin(overrides: dict[str, Any]) -> None:
    """Polish review (720p, lecture hall): the count's ring round row 0 came to about
    15 px from the frame's left edge, inside the 18 px safe margin (``MARGIN``).
    At every moment of the count, each highlight ring (its stroke's ink included)
    and each row number (swollen as it is counted) stays inside the safe area."""
    from manim import config

    from embedviz.render.design import MARGIN
    from embedviz.render.glyphs import GlyphString

    board = prepared_storyboard("SingleTokenLookup", overrides, environ={})
    outside: list[str] = []
    seen: list[int] = []

    def look(scene_object: Any, moment: Any) -> None:
        if moment.beat.name != "zero-based":
            return
        half_w, half_h = config.frame_width / 2 - MARGIN, config.frame_height / 2 - MARGIN
        wanted = ManimColor(scene_object.stage.theme.highlight).to_hex().lower()
        labels = {id(m) for m in scene_object.stage.matrix.grid.row_labels.values()}
        for top in scene_object.mobjects:
            for mobject in top.get_family():
                if not len(mobject.points):
                    continue
                if isinstance(mobject, GlyphString):
                    if id(mobject) not in labels:
                        continue
                    what = f"row number {mobject.text!r}"
                elif (
                    float(mobject.get_stroke_width()) > 0
                    and float(mobject.get_stroke_opacity()) > 0
                    and mobject.get_stroke_color().to_hex().lower() == wanted
                ):
                    what = "a ring"
                    seen.append(1)
                else:
                    continue
                (left, bottom), (right, top_y) = _ink_box(mobject)
                if left < -half_w - 1e-3 or right > half_w + 1e-3:
                    outside.append(f"{what} at alpha {moment.alpha}: x {left:.3f} to {right:.3f}")
                if bottom < -half_h - 1e-3 or top_y > half_h + 1e-3:
                    outside.append(f"{what} at alpha {moment.alpha}: y {bottom:.3f} to {top_y:.3f}")

    alphas = tuple(round(0.05 * k, 2) for k in range(1, 20))
    # Only the zero-based beat is read: the others play unsampled (tests/test_moment_beats.py).
    beats = {"zero-based"}
    play_moments(board, look, alphas=alphas, pixel_width=192, pixel_height=108, beats=beats)
    assert seen, "no ring was seen in the zero-based beat"
    assert not outside, outside[:5]


def _named_in_large_vocab(overrides: dict[str, Any]) -> dict[str, tuple[int, bool, set[int]]]:
    """LargeVocabLookup's beats whose last cue names a row of E: (row, fetched here, seen).

    ``seen`` holds the rows outlined alone at the beat's end, or, for a beat that
    also fetches the row it names (``scroll_lookup``: its outline fades as the
    copy settles), at any of its sampled moments.
    """
    board = prepared_storyboard("LargeVocabLookup", overrides, environ={})
    ids = {c.index: int(c.value) for b in board.beats for c in b.numbers if c.kind == "token_id"}
    found: dict[str, tuple[int, bool, set[int]]] = {}

    def look(scene_object: Any, moment: Any) -> None:
        text = moment.beat.phrases[-1].text if moment.beat.phrases else ""
        named, ordinal = NAMED_ROW.search(text), ORDINAL_ROW.search(text)
        if named is None and ordinal is None:
            return
        row = int(named[1]) if named is not None else int(ordinal[1]) - 1  # type: ignore[index]
        index = board.beats.index(moment.beat)
        before = board.beats[index - 1].output if index else None
        done = set(before.filled) if before is not None else set()
        now = moment.beat.output.filled if moment.beat.output is not None else ()
        fetched = any(ids[p] == row for p in now if p not in done)
        if moment.alpha < 1 and not fetched:
            return
        _, _, seen = found.setdefault(moment.beat.name, (row, fetched, set()))
        seen |= outlined_rows(scene_object, scene_object.stage.theme.id_line)

    alphas = tuple(round(0.1 * k, 1) for k in range(1, 10))
    play_moments(board, look, alphas=alphas, pixel_width=192, pixel_height=108)
    return found


@pytest.mark.parametrize(
    "overrides",
    [{}, {"theme": "light"}, {"ids": "3,4,3", "vocab": 8, "dim": 4}],
    ids=["gpt2", "light", "all-rows-shown"],
)
def test_large_vocab_marks_the_row_its_caption_names(overrides: dict[str, Any]) -> None:
    """A 720p frame review (LargeVocabLookup, 27.8 s): the scroll beat ended on "It is the
    4822nd row, counting from 0." with row 4821 on screen but unmarked; its outline came
    only in the next beat. The scroll beat's named row is outlined alone at its end (also
    where the window already shows it); a beat that names and fetches a row outlines it
    while it plays."""
    found = _named_in_large_vocab(overrides)
    board = prepared_storyboard("LargeVocabLookup", overrides, environ={})
    featured = next(b for b in board.beats if b.name == "scroll").highlight
    assert featured is not None
    assert found.get("scroll") == (featured.row, False, {featured.row}), found
    for beat, (row, _, seen) in found.items():
        assert row in seen, (beat, row, seen)
