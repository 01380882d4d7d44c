"""Among the rest of the lookups, a row stands outlined only while its chip or its copy is there.

A 720p frame review of MiniLM with a twelve-token sentence found six rows of
E outlined at once in the ``lookup_many`` beat, with no chip beside any of
them: nobody could tell which row belonged to which ID. manim puts a
``Create``'s (and a ``FadeOut``'s) mobject on screen, whole, as a play
begins, so every outline of the beat stood drawn from its start until its
own lookup drew it. Now each outline comes as its chip arrives and goes as
the row's copy lands.

Each ``lookup_many`` beat is dry-run and sampled at many moments; every amber
row outline on screen (a plain rectangle around a row of E, not a strip's
frame) must have beside it the chip of an ID that selects that row (in the
walking column, left of the output block, within a few rows of it) or that
row's own strip, travelling (the row stands outlined until its copy lands).

The other way round (a 720p review of the rest beats: the chips move fast and
each row's outline went with its chip, so the empty amber box of its strip
came out of an unlit row): while a strip of the rest is still partly behind
E, or just out, the row it leaves stands outlined in full, whether any of the
strip is drawn yet or not (its box shows cell by cell with its numbers,
parts/strip_frame.py, so a strip may slide out drawn nowhere).

And a glance pairs each copy with its row (a 720p review of MiniLM's ten rest
lookups: a copy landed just above the next chip while that chip's row stood
outlined): one copy travels at a time, the only row outlined then is its own,
and it stands outlined in full until the copy reaches the output block.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from boards import minilm_options
from carry_plays import box_opacity
from conftest import box_of
from manim import Rectangle

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import MomentScene, play_moments

REVIEW_SENTENCE = "The quick brown fox jumps over the lazy dog near"
# How far (in rows) a chip may be from the row it outlines: arriving or just leaving.
NEAR_ROWS = 3.0
# How far (scene units) out of E a strip still counts as just out; the least opacity then.
JUST_OUT, FULL = 0.05, 0.9
ALPHAS = tuple(k / 20 for k in range(1, 20))
# How far (scene units) a strip must be from its place under its row to have left it.
MOVED = 1e-3


def _row_outlines(scene: MomentScene, least: float = 0.5) -> list[tuple[int, np.ndarray, float]]:
    """Return (row, box, opacity) of every amber outline of a row of E drawn now (``least``+)."""
    stage = scene.stage
    grid = stage.matrix.grid
    colour = stage.theme.id_line.lower()
    # Where each row's outline stands now (the matrix may stand off its solved place): on
    # the border it shares with a drawn neighbour, its buffer outside at the table's edge.
    boxes = {}
    for row in grid.get_rows():
        (low_left, low), (high_right, high) = box_of(grid.row_outline(row, colour))
        boxes[row] = np.array([low_left, low, high_right, high])
    found = []
    for top in scene.mobjects:
        if getattr(top, "row_strip", False):
            continue
        for mobject in top.get_family():
            if not isinstance(mobject, Rectangle) or mobject.get_num_points() == 0:
                continue
            if mobject.get_stroke_color().to_hex().lower() != colour:
                continue
            opacity = float(mobject.get_stroke_opacity())
            if opacity < least:
                continue
            (left, bottom), (right, top_y) = box_of(mobject)
            for row, box in boxes.items():
                if (
                    abs((top_y - bottom) - (box[3] - box[1])) < 1e-3
                    and abs((bottom + top_y) / 2 - (box[1] + box[3]) / 2) < 1e-3
                ):
                    found.append((row, np.array([left, bottom, right, top_y]), opacity))
    return found


def _numbers_box(numbers: list[Any]) -> np.ndarray:
    """Return (left, bottom, right, top) round a row's numbers."""
    boxes = np.array([box_of(n).ravel() for n in numbers])
    return np.array([boxes[:, 0].min(), boxes[:, 1].min(), boxes[:, 2].max(), boxes[:, 3].max()])


@dataclass
class _Strip:
    """A travelling strip on screen: the row its numbers copy, how far it is from that row."""

    key: int  # which strip (one per lookup)
    row: int  # the row its numbers copy (their cells' index, from the storyboard)
    dx: float  # how far right of its row it stands
    dy: float  # how far above
    clear: float  # how far clear of its row (negative: still over it)
    shows: bool  # whether any part of it is drawn: its box (shaded or whole) or its numbers
    right: float  # where its numbers end, right
    moved: bool  # whether it has left its place under its row (its carry has begun)


def _strips(scene: MomentScene) -> list[_Strip]:
    """Return every travelling strip on screen, placed by its numbers (they move with it)."""
    grid = scene.stage.matrix.grid
    found = []
    for top in scene.mobjects:
        if not getattr(top, "row_strip", False) or len(top.submobjects) < 2:
            continue
        numbers = list(top[1].submobjects)
        if not numbers:
            continue
        row = int(numbers[0].cell.index[0])
        here, home = _numbers_box(numbers), _numbers_box(grid.get_row_numbers(row))
        dx, dy = (
            (here[0] + here[2] - home[0] - home[2]) / 2,
            (here[1] + here[3] - home[1] - home[3]) / 2,
        )
        left, bottom, right, top_y = grid.row_box(row, buff=0.0)
        clear = max(abs(dx) - (right - left), abs(dy) - (top_y - bottom))
        moved = max(abs(dx), abs(dy)) > MOVED
        found.append(_Strip(id(top), row, dx, dy, clear, _drawn(top), float(here[2]), moved))
    return found


def _drawn(strip: Any) -> bool:
    """Whether any part of ``strip`` is drawn: a number, or its box anywhere along it.

    A strip sliding out of E's right edge is shaded cell by cell with its numbers
    (parts/strip_frame.py): its box's first colour stop, at E's edge, is clear while
    the cells further out show. Its box is read as drawn (its outline's and fill's
    colour stops along it, tests/carry_plays.py), not by that first stop.
    """
    texts = [*strip[1].submobjects, *(strip[2].submobjects if len(strip.submobjects) > 2 else [])]
    if any(float(t.get_fill_opacity()) > 0 for t in texts):
        return True
    box = strip[0]
    if box.get_num_points() == 0:
        return False
    xs = np.linspace(float(box.get_left()[0]), float(box.get_right()[0]), 49)
    return bool(box_opacity(box, xs).max() > 0)


def _rest_rows(board: Any, beat: Any) -> list[int]:
    """Return the rows the rest of the lookups fetch in ``beat``, from the storyboard's IDs."""
    index = [b.name for b in board.beats].index(beat.name)
    before = board.beats[index - 1].output if index > 0 else None
    done = set(before.filled) if before is not None else set()
    return [int(board.ids[p[0]]) for p in beat.output.filled if p not in done]


def _acting(board: Any, action: str) -> set[str]:
    """The names of ``board``'s beats of ``action``: the only ones a check here reads.

    The others play unsampled (``play_moments``'s ``beats``): skipping their samples
    changes nothing the read beats show (tests/test_moment_beats.py).
    """
    return {beat.name for beat in board.beats if beat.action == action}


def _lonely_outlines(overrides: dict[str, Any]) -> list[str]:
    """Return a line for every sampled outline of the rest with neither chip nor strip near."""
    board = prepared_storyboard("SequenceLookup", overrides, environ={})
    lonely: list[str] = []
    seen = [0]

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.beat.action != "lookup_many":
            return
        stage = scene.stage
        row_h = stage.plan.sizes.row_height
        walk_right = box_of(stage.output.grid.body)[0][0]
        strips = _strips(scene)
        for row, box, _ in _row_outlines(scene):
            seen[0] += 1
            chips = [
                chip
                for position, chip in zip(stage.output.positions, stage.chips.chips, strict=True)
                if int(board.ids[position[0]]) == row
            ]
            beside = [
                c
                for c in chips
                if c.get_center()[0] < walk_right
                and abs(c.get_center()[1] - (box[1] + box[3]) / 2) <= NEAR_ROWS * row_h
            ]
            # Its carry begun (the strip may still be behind E): it is there until it lands.
            travelling = [s for s in strips if s.row == row]
            if not beside and not travelling:
                where = [c.get_center()[:2].round(2).tolist() for c in chips]
                away = [round(float(s.clear), 2) for s in strips if s.row == row]
                lonely.append(
                    f"{moment.beat.name} at {moment.alpha:.2f}: row {row}, chips {where}, "
                    f"its strips clear by {away}"
                )

    # Only the rest is read: the other beats play unsampled (tests/test_moment_beats.py).
    play_moments(board, read, alphas=ALPHAS, beats=_acting(board, "lookup_many"))
    assert seen[0] > 0, "no row outline was sampled: the check would pass vacuously"
    return lonely


@pytest.mark.slow
@pytest.mark.parametrize("case", ["default", "minilm"])
def test_an_outlined_row_has_its_chip_or_its_travelling_strip_beside_it(case: str) -> None:
    overrides = {} if case == "default" else minilm_options(REVIEW_SENTENCE)
    lonely = _lonely_outlines(overrides)
    assert not lonely, (
        "rows outlined with neither chip nor travelling strip beside them:\n"
        + "\n".join(lonely[:20])
    )


# Rest beats: (scene, overrides, the beats' action). PositionBlindness fetches every ID
# unpaced, its repeated ID 2 twice.
REST_CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    "default": ("SequenceLookup", {}, "lookup_many"),
    "gpt2": ("SequenceLookup", {"vocab": 50257, "dim": 768, "ids": "4821,0,50256"}, "lookup_many"),
    "minilm": ("SequenceLookup", {}, "lookup_many"),
    "position-blindness": ("PositionBlindness", {}, "lookup_all"),
}
# Fine enough to catch every strip in the fifth of a second it takes to come out of E.
REST_ALPHAS = tuple(k / 60 for k in range(1, 60))


@pytest.mark.slow
@pytest.mark.parametrize("case", list(REST_CASES))
def test_a_strip_comes_out_of_its_row_while_the_row_stands_outlined(case: str) -> None:
    scene_name, overrides, action = REST_CASES[case]
    overrides = minilm_options(REVIEW_SENTENCE) if case == "minilm" else overrides
    board = prepared_storyboard(scene_name, overrides, environ={})
    wanted: list[int] = []
    checked: dict[int, int] = {}
    unlit: list[str] = []

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.beat.action != action:
            return
        if not wanted:
            wanted.extend(_rest_rows(board, moment.beat))
        lit = {row: opacity for row, _, opacity in _row_outlines(scene, least=0.0)}
        row_h = scene.stage.plan.sizes.row_height
        for strip in _strips(scene):
            # Come out from under its row (drawn or not), still partly behind E or just out,
            # level with its row. A strip shaded cell by cell with its numbers may be drawn
            # nowhere yet as it slides out (MiniLM's two-column strips, for the whole slide):
            # its row stands outlined all the same, as its first cell may show at any moment.
            started = strip.shows or strip.moved
            if not started or strip.clear > JUST_OUT or abs(strip.dy) > row_h / 4:
                continue
            checked[strip.key] = strip.row
            if lit.get(strip.row, 0.0) < FULL:
                unlit.append(
                    f"{moment.beat.name} s{moment.step} a{moment.alpha:.2f}: row {strip.row}'s "
                    f"strip {strip.clear:+.2f} clear, outline at {lit.get(strip.row, 0.0):.2f}"
                )

    play_moments(board, read, alphas=REST_ALPHAS, beats=_acting(board, action))
    assert sorted(checked.values()) == sorted(wanted), (
        f"strips seen coming out {sorted(checked.values())}, rest rows {sorted(wanted)}"
    )
    assert not unlit, "strips came out of an unlit row:\n" + "\n".join(unlit[:20])


# The sentence of a 720p review of the rest beat: two of its ten rest lookups started a third
# of a second apart, and a copy landed in output row 8 just above chip 13523 while row 13523
# stood outlined; an empty copy box passed between rows after its own row's outline had gone.
PAIRING_SENTENCE = "The cat sat on the mat because the mat was warm today"
PAIRING_CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "gpt2": {"ids": "4821,0,50256,17,33000,2", "vocab": 50257, "dim": 768},
    "minilm": {"text": PAIRING_SENTENCE},
}
# An outline at this opacity or more is seen (one fading in or out counts).
SEEN = 0.1


@pytest.mark.slow
@pytest.mark.parametrize("case", list(PAIRING_CASES))
def test_a_glance_pairs_each_travelling_copy_with_its_own_row(case: str) -> None:
    """Among the rest, one copy travels at a time, and the only row of E outlined is its own.

    At every sample of the rest beat: at most one strip is on screen; no row
    of E but the travelling copy's own stands outlined (not the next
    lookup's, whose chip may already be on its way); and until the copy
    reaches the output block its own row stands outlined in full, so its
    amber box never travels from an unlit row.
    """
    overrides = (
        {**minilm_options(REVIEW_SENTENCE), **PAIRING_CASES[case]}
        if case == "minilm"
        else PAIRING_CASES[case]
    )
    board = prepared_storyboard("SequenceLookup", overrides, environ={})
    travelled: set[int] = set()
    wrong: list[str] = []

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.beat.action != "lookup_many":
            return
        strips = [s for s in _strips(scene) if s.shows]
        if not strips:
            return
        where = f"{moment.beat.name} s{moment.step} a{moment.alpha:.2f}"
        lit = {row: opacity for row, _, opacity in _row_outlines(scene, least=0.0)}
        own = sorted({s.row for s in strips})
        if len(strips) > 1:
            wrong.append(f"{where}: copies of rows {own} travel at once")
        others = sorted(row for row, opacity in lit.items() if opacity >= SEEN and row not in own)
        if others:
            wrong.append(f"{where}: rows {others} outlined while the copy of {own} travels")
        block_left = box_of(scene.stage.output.grid.body)[0][0]
        for strip in strips:
            travelled.add(strip.key)
            if strip.right < block_left and lit.get(strip.row, 0.0) < FULL:
                wrong.append(
                    f"{where}: row {strip.row}'s copy travels, short of the output block, "
                    f"its row outlined at {lit.get(strip.row, 0.0):.2f}"
                )

    play_moments(board, read, alphas=REST_ALPHAS, beats=_acting(board, "lookup_many"))
    assert travelled, "no copy of the rest was sampled: the check would pass vacuously"
    assert not wrong, "a glance could pair the wrong ones:\n" + "\n".join(wrong[:20])


# The teaching-pace lookups (``lookup``) of the three cases a teacher's review sampled.
CAUSE_CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "gpt2": {"ids": "4821,0,50256", "vocab": 50257, "dim": 768},
    "minilm": {"text": PAIRING_SENTENCE},
}
CAUSE_ALPHAS = tuple(k / 40 for k in range(1, 40))
# How far (scene units) a chip must have gone from where it stood to have set off.
SET_OFF = 0.05


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CAUSE_CASES))
def test_a_teaching_lookup_outlines_its_row_only_once_its_chip_has_set_off(case: str) -> None:
    """The cause before its effect: the chip sets off, then its row of E is outlined.

    A teacher's 720p review of MiniLM: row 101 was outlined at 40.1 s while its
    chip left the sentence lane at 44.6 s (row 1996: 49.5 s and 49.9 s). At every
    sample of each ``lookup`` beat, while the selected row's outline shows at
    all, the chip has set off: it stands away from where it stood at the beat's
    first sample both on screen and from the output block (a glide of the block
    moves one of the two, never both: the chips ride with the block, or stand
    in their lane while it glides).
    """
    overrides = (
        {**minilm_options(REVIEW_SENTENCE), **CAUSE_CASES[case]}
        if case == "minilm"
        else CAUSE_CASES[case]
    )
    board = prepared_storyboard("SequenceLookup", overrides, environ={})
    stood: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    lit: set[str] = set()
    early: list[str] = []

    def read(scene: MomentScene, moment: Any) -> None:
        if moment.beat.action != "lookup" or moment.beat.highlight is None:
            return
        stage, position = scene.stage, moment.beat.highlight.position
        chip = stage.chips.chips[stage.output.positions.index(position)]
        here = chip.get_center()[:2]
        beside = here - box_of(stage.output.grid.body)[0]
        start, start_beside = stood.setdefault(moment.beat.name, (here, beside))
        row = int(board.ids[position[0]])
        opacity = max((o for r, _, o in _row_outlines(scene, least=0.0) if r == row), default=0)
        if opacity <= 0:
            return
        lit.add(moment.beat.name)
        gone = min(np.linalg.norm(here - start), np.linalg.norm(beside - start_beside))
        if gone < SET_OFF:
            early.append(
                f"{moment.beat.name} s{moment.step} a{moment.alpha:.3f} ({moment.time:.2f} s): "
                f"row {row} outlined at {opacity:.2f}, its chip {gone:.3f} from where it stood"
            )

    play_moments(board, read, alphas=CAUSE_ALPHAS, beats=_acting(board, "lookup"))
    assert lit == _acting(board, "lookup"), f"rows seen outlined only in {sorted(lit)}"
    assert not early, "a row outlined before its chip set off:\n" + "\n".join(early[:20])
