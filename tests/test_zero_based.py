"""ZeroBasedIndexing: the one-based slip, the zero-based count and the debug trace."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import SilentHost, box_of
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.core.errors import EmbedvizError
from embedviz.core.table import EmbeddingTable
from embedviz.inputs import prepared_storyboard
from embedviz.story.scenes.zero_based import count_sequence, nth, zero_based_window


def _one_line_error(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(EmbedvizError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert message
    assert "\n" not in message
    return message


def _beat(board: Any, name: str) -> Any:
    return next(beat for beat in board.beats if beat.name == name)


def _values(beat: Any, kind: str) -> dict[tuple[int, ...], float]:
    return {cell.index: cell.value for cell in beat.numbers if cell.kind == kind}


# ----------------------------------------------------------------------------- words


def test_count_sequence_spells_short_counts_and_elides_long_ones() -> None:
    assert count_sequence(1, 3) == "1, 2, 3"
    assert count_sequence(0, 3) == "0, 1, 2, 3"
    assert count_sequence(0, 0) == "0"
    assert count_sequence(1, 4821) == "1, 2, 3, \u2026, 4821"


def test_nth_uses_words_then_digits() -> None:
    assert [nth(n) for n in (1, 2, 3, 4, 10)] == ["first", "second", "third", "fourth", "tenth"]
    assert [nth(n) for n in (11, 12, 13, 21, 4822)] == ["11th", "12th", "13th", "21st", "4822nd"]


# ----------------------------------------------------------------------------- window


@given(
    vocab=st.integers(1, 100_000),
    dim=st.integers(1, 5000),
    data=st.data(),
)
def test_window_keeps_the_rows_both_counts_land_on(vocab: int, dim: int, data: Any) -> None:
    token_id = data.draw(st.integers(0, vocab - 1))
    window = zero_based_window(vocab, dim, token_id)
    rows = list(window.rows)
    assert rows == sorted(set(rows))
    assert {0, token_id, vocab - 1} <= set(rows)
    # The slip's row and the next row are visible, so both counts land on a drawn row.
    assert {r for r in (token_id - 1, token_id + 1) if 0 <= r < vocab} <= set(rows)
    assert len(rows) <= 8
    # The gaps cover exactly the rows not drawn.
    for gap in window.row_gaps:
        assert not any(gap.first <= r <= gap.last for r in rows)
    assert sum(gap.last - gap.first + 1 for gap in window.row_gaps) + len(rows) == vocab
    cols = list(window.cols)
    assert {0, dim - 1} <= set(cols)
    assert len(cols) <= 4
    col_hidden = sum(gap.last - gap.first + 1 for gap in window.col_gaps)
    assert col_hidden + len(cols) == dim


def test_gap_labels_are_exact() -> None:
    window = zero_based_window(50257, 768, 4821)
    assert window.rows == (0, 1, 2, 4820, 4821, 4822, 50256)
    assert [gap.label for gap in window.row_gaps] == [
        "rows 3\u20134819 hidden",
        "rows 4823\u201350255 hidden",
    ]
    assert window.cols == (0, 1, 767)
    assert [gap.label for gap in window.col_gaps] == ["columns 2\u2013766 hidden"]


# ----------------------------------------------------------------------------- the scene


@settings(max_examples=15, deadline=None)
@given(
    vocab=st.integers(1, 30),
    dim=st.integers(1, 9),
    init=st.sampled_from(["torch", "normal"]),
    data=st.data(),
)
def test_slip_and_trace_show_the_right_rows(vocab: int, dim: int, init: str, data: Any) -> None:
    token_id = data.draw(st.integers(0, vocab - 1))
    board = prepared_storyboard(
        "zero",
        {"ids": str(token_id), "vocab": vocab, "dim": dim, "init": init},
        environ={},
    )
    weight = EmbeddingTable.from_seed(vocab, dim, 123, init).weight
    cols = board.beats[0].window.cols
    slip = _beat(board, "one-based")
    wrong = _values(slip, "wrong_value")
    if token_id == 0:
        assert wrong == {}
        assert _values(slip, "wrong_index") == {(0,): -1.0}
    else:
        assert wrong == {(c,): float(weight[token_id - 1, c]) for c in cols}
        counts = _values(slip, "one_based_count")
        assert counts == {(r,): float(r + 1) for r in board.beats[0].window.rows if r < token_id}
    right = _beat(board, "zero-based")
    assert _values(right, "one_based_count") == {}
    assert _values(right, "ordinal") == {(token_id,): float(token_id + 1)}
    trace = _beat(board, "trace")
    assert _values(trace, "output") == {(0, c): float(weight[token_id, c]) for c in cols}
    assert _values(trace, "trace_index") == {(0,): float(token_id)}
    assert _values(_beat(board, "check"), "check_row") == {(0,): float(token_id)}


def test_returned_vector_matches_torch_embedding(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(7)
        layer = torch.nn.Embedding(11, 4)
        expected = layer(torch.tensor([9])).detach().numpy()
    board = prepared_storyboard(
        "zero", {"ids": "9", "vocab": 11, "dim": 4, "seed": 7}, cwd=tmp_path, environ={}
    )
    vector = _values(_beat(board, "trace"), "output")
    got = np.array([vector[(0, c)] for c in range(4)])
    assert np.array_equal(got.astype(np.float32), expected[0])  # torch's values, bit for bit
    # The slip's row is the one before: what torch returns for ID 8, not for ID 9.
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(7)
        before = torch.nn.Embedding(11, 4)(torch.tensor([8])).detach().numpy()
    wrong = _values(_beat(board, "one-based"), "wrong_value")
    assert np.array_equal(np.array([wrong[(c,)] for c in range(4)], dtype=np.float32), before[0])


def test_default_is_id_three_in_the_classic_table(tmp_path: Path) -> None:
    board = prepared_storyboard("zero", cwd=tmp_path, environ={})
    assert board.ids == 3
    assert (board.vocab_size, board.dim) == (6, 3)
    assert [beat.name for beat in board.beats] == [
        "intro", "one-based", "zero-based", "trace", "check", "diagnose",
    ]  # fmt: skip
    assert "lands on row index 2, the third row" in _beat(board, "one-based").narration
    assert "row index 3, the fourth row" in _beat(board, "zero-based").narration


def test_id_zero_explains_the_missing_row(tmp_path: Path) -> None:
    board = prepared_storyboard("zero", {"ids": "0"}, cwd=tmp_path, environ={})
    assert "\u22121" in _beat(board, "one-based").narration
    assert "does not exist" in _beat(board, "one-based").narration


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [({"ids": "3,4"}, "one token ID"), ({"ids": "2;3"}, "one token ID"),
     ({"ids": "6"}, "out of range"), ({"ids": "-1"}, "negative"), ({"vocab": 0}, "at least 1")],
)  # fmt: skip
def test_bad_input_is_refused_in_one_line(
    tmp_path: Path, overrides: dict[str, Any], fragment: str
) -> None:
    message = _one_line_error(prepared_storyboard, "zero", overrides, cwd=tmp_path, environ={})
    assert fragment in message


@pytest.mark.parametrize("overrides", [{}, {"ids": "0"}, {"ids": "4821", "vocab": 50257}])
def test_narration_fits_two_caption_lines(tmp_path: Path, overrides: dict[str, Any]) -> None:
    board = prepared_storyboard("zero", overrides, cwd=tmp_path, environ={})
    for beat in board.beats:
        assert len(beat.narration.split()) <= 25, beat.name
        assert len(textwrap.wrap(beat.narration, width=76)) <= 2, beat.name


# ----------------------------------------------------------------------------- layout


def _stage(tmp_path: Path, overrides: dict[str, Any]) -> Any:
    from embedviz.render.stages.zero_based import ZeroBasedStage
    from embedviz.render.theme import DARK

    board = prepared_storyboard("zero", overrides, cwd=tmp_path, environ={})
    return ZeroBasedStage(SilentHost(), board, DARK)


@pytest.mark.parametrize("overrides", [{}, {"ids": "0"}, {"ids": "4821", "vocab": 50257}])
def test_counts_stand_apart_from_the_row_numbers(tmp_path: Path, overrides: dict[str, Any]) -> None:
    """Review 9: the one-based counts stood flush against E's row numbers ("1 0" read as 10)."""
    from embedviz.render.design import COLUMNS_APART

    stage = _stage(tmp_path, overrides)
    labels = stage.matrix.grid.row_labels
    counts = [(tally.cell.index[0], tally) for tally in stage.motion.tallies]
    counts.append((stage.board.single_id(), stage.motion.ordinal))
    for row, count in counts:
        count_bottom_left, count_top_right = count.slot_corners()
        label_bottom_left, _ = labels[row].slot_corners()
        # Side by side on one line, a clear gap between the two boxes.
        assert count_bottom_left[1] == pytest.approx(label_bottom_left[1], abs=1e-6)
        assert label_bottom_left[0] - count_top_right[0] >= COLUMNS_APART - 1e-6


@pytest.mark.parametrize("overrides", [{}, {"ids": "0"}, {"ids": "4821", "vocab": 50257}])
def test_the_chip_waits_above_the_rows_until_it_counts(
    tmp_path: Path, overrides: dict[str, Any]
) -> None:
    """Review 9: level with row 3 the waiting chip answered the intro's question itself."""
    stage = _stage(tmp_path, overrides)
    chip, plan = stage.motion.chip, stage.plan
    rows_top = plan.row_y(min(plan.row_centres)) + plan.sizes.row_height / 2
    # Right of E, above its first row (beside no row), under its heading ...
    assert chip.get_bottom()[1] > rows_top
    assert chip.get_left()[0] > stage.matrix.grid.body_right()
    assert stage.chips_heading.get_bottom()[1] > chip.get_top()[1]
    # ... and its first walk starts there.
    assert stage.motion.start is not None
    assert np.allclose(stage.motion.start, chip.get_center())


@pytest.mark.parametrize("overrides", [{}, {"ids": "0"}, {"ids": "4821", "vocab": 50257}])
def test_the_struck_slip_stands_apart_from_the_trace(
    tmp_path: Path, overrides: dict[str, Any]
) -> None:
    """Review: the struck-out slip crowded "debugging trace" under it from the trace to the end.

    The slip (header, line and their strikes) and the trace (heading, steps)
    are two groups: :data:`APART` between their boxes, while each group's
    lines keep their own pitch (closer than that).
    """
    from embedviz.render.design import APART

    stage = _stage(tmp_path, overrides)
    slip, trace = stage.slip, stage.trace
    slip_boxes = [box_of(m) for m in (slip.header, slip.line, *slip.strikes)]
    trace_boxes = [box_of(m) for m in (trace.heading, *trace.steps, trace.vector_label)]
    slip_bottom = min(box[0][1] for box in slip_boxes)
    trace_top = max(box[1][1] for box in trace_boxes)
    assert slip_bottom - trace_top >= APART - 1e-6
    # Within each group the lines stand closer than the groups do.
    inside = box_of(slip.header)[0][1] - box_of(slip.line)[1][1]
    assert 0 < inside < APART
    assert 0 < box_of(trace.heading)[0][1] - box_of(trace.steps[0])[1][1] < APART
    # Both still in the frame's content band (the slip above the trace).
    assert max(box[1][1] for box in slip_boxes) <= stage.plan.bands.top + 1e-6


# ----------------------------------------------------------------------------- colours in motion

# Several samples of each step: a strip's frame lifts off, travels and lands within a second.
_STEP_ALPHAS = (0.1, 0.3, 0.5, 0.7, 0.9)


def _stroked(mobject: Any) -> bool:
    return bool(
        len(mobject.points)
        and float(mobject.get_stroke_width()) > 0
        and float(mobject.get_stroke_opacity()) > 0
    )


def test_the_slips_wrong_row_is_never_framed_in_amber() -> None:
    """Review 10 (one-based, 11.7 s): the slip's wrong row travelled framed in amber.

    Amber means "this token ID" only (its chip, its row's outline, the strip it
    fetches); the row the one-based slip fetches is not ID 3's, so neither its
    strip nor its outline in E may be amber, at any moment of the beat.
    """
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("zero", environ={})
    seen: list[str] = []
    amber: list[str] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name != "one-based" or moment.alpha >= 1:
            return
        theme = scene.stage.theme
        ids = {theme.chip.lower(), theme.id_line.lower()}
        when = f"step {moment.step} at {moment.alpha}"
        for top in scene.mobjects:
            for strip in top.get_family():
                if not getattr(strip, "row_strip", False):
                    continue
                for member in filter(_stroked, strip.get_family()):
                    colour = member.get_stroke_color().to_hex().lower()
                    seen.append(colour)
                    if colour in ids:
                        amber.append(f"{when}: row {strip.source_row}")
        box = scene.stage.motion.wrong_box
        shown = box is not None and box in scene.mobjects
        if shown and box.get_stroke_color().to_hex().lower() in ids:
            amber.append(f"{when}: the wrong row's outline")

    # Only ``one-based`` is read: the other beats play unsampled.
    play_moments(
        board, read, alphas=_STEP_ALPHAS, pixel_width=192, pixel_height=108, beats={"one-based"}
    )
    assert seen, "the slip's row never travelled"
    assert not amber, "\n".join(amber)


def _struck(text: Any, lines: list[np.ndarray]) -> bool:
    """Whether one flat stroked line runs across a text's whole width, through its middle."""
    (left, bottom), (right, top) = box_of(text)
    height = top - bottom
    return any(
        low[0] <= left + 0.05 * height
        and high[0] >= right - 0.05 * height
        and high[1] - low[1] < 0.25 * height
        and bottom + 0.25 * height <= (low[1] + high[1]) / 2 <= top - 0.25 * height
        for low, high in lines
    )


@pytest.mark.parametrize("overrides", [{}, {"ids": "0"}], ids=["id3", "id0"])
def test_the_refuted_rule_is_struck_out_to_the_last_frame(overrides: dict[str, Any]) -> None:
    """Review 10: "counting from one / ID 3 → row index 2" stayed on screen, greyed but not
    struck out, to the final frame (x 660-905, y 145-215): a reader of the last frame saw
    a false statement. From the zero-based count on, whenever it shows, it is struck out.
    """
    from manim import VMobject

    from embedviz.render.glyphs import GlyphString
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("zero", overrides, environ={})
    refuted = False
    checked: list[str] = []
    unstruck: list[str] = []

    def read(scene: Any, moment: Any) -> None:
        nonlocal refuted
        name = moment.beat.name
        if name == "zero-based" and moment.step > 0:
            refuted = True  # its first step dims the slip: from then on it is struck
        if not refuted:
            return
        family = [m for top in scene.mobjects for m in top.get_family()]
        texts = {id(m) for m in family if isinstance(m, GlyphString) for m in m.get_family()}
        lines = [
            (box_of(m), m)
            for m in family
            if isinstance(m, VMobject) and id(m) not in texts and not m.submobjects and _stroked(m)
        ]
        slip = scene.stage.slip
        for label, text in (("header", slip.header), ("rule", slip.line)):
            drawn = {id(m) for m in family}
            inks = [
                float(m.get_fill_opacity())
                for m in text.get_family()
                if len(m.points) and id(m) in drawn
            ]
            shown = max(inks, default=0.0)
            if shown <= 0:
                continue
            checked.append(name)
            # Struck as plainly as it shows: the slip comes and goes with its strikes as
            # one (issue 18), so mid-fade a strike is as faint as its text, no fainter.
            plain = [box for box, m in lines if float(m.get_stroke_opacity()) >= shown - 0.05]
            if not _struck(text, plain):
                unstruck.append(f"{name} step {moment.step} at {moment.alpha}: the {label}")

    play_moments(board, read, alphas=_STEP_ALPHAS, pixel_width=192, pixel_height=108)
    assert "diagnose" in checked, "the slip is not on screen to the end"
    assert not unstruck, "\n".join(unstruck)


# Fine steps: a ring's flash passes round in a second.
_FINE_ALPHAS = tuple(round(0.025 * k, 3) for k in range(1, 40))
# How far a highlight's ink stays from any glyph's, at 720p (review 10).
CLEAR_PX = 3.0


def _ink_box(mobject: Any) -> np.ndarray | None:
    """Return a text's drawn glyphs' box ((left, bottom), (right, top)), or None."""
    from embedviz.render.formula import FormulaText
    from embedviz.render.glyphs import GlyphString, SansText

    if isinstance(mobject, GlyphString):
        low, high = mobject.ink_corners()
        return np.array([low[:2], high[:2]])
    if isinstance(mobject, (SansText, FormulaText)):
        return box_of(mobject)
    return None


def _marks_on_glyphs(overrides: dict[str, Any]) -> list[str]:
    """Play the diagnosis; return each moment a highlight passes within CLEAR_PX of a glyph."""
    from manim import config

    from embedviz.render.moments import play_moments

    board = prepared_storyboard("zero", overrides, environ={})
    found: list[str] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name != "diagnose" or moment.alpha >= 1:
            return
        clear = CLEAR_PX * float(config.frame_height) / 720
        family = [m for top in scene.mobjects for m in top.get_family()]
        colour = scene.stage.theme.highlight.lower()
        glyphs: list[tuple[str, np.ndarray]] = []
        for mobject in family:
            box = _ink_box(mobject)
            inks = [float(m.get_fill_opacity()) for m in mobject.get_family() if len(m.points)]
            if box is not None and max(inks, default=0.0) > 0:
                glyphs.append((str(getattr(mobject, "text", "")), box))
        rings = [
            m
            for m in family
            if _ink_box(m) is None
            and _stroked(m)
            and float(m.get_fill_opacity()) == 0
            and m.get_stroke_color().to_hex().lower() == colour
        ]
        for ring in rings:
            reach = float(ring.get_stroke_width()) / 200 + clear
            for curve in ring.points.reshape(-1, 4, 3):
                low, high = curve[[0, 3], :2].min(axis=0), curve[[0, 3], :2].max(axis=0)
                for text, (g_low, g_high) in glyphs:
                    if (low - reach < g_high).all() and (g_low < high + reach).all():
                        found.append(f"step {moment.step} at {moment.alpha}: a ring on {text!r}")

    # Only ``diagnose`` is read: the other beats play unsampled.
    play_moments(
        board, read, alphas=_FINE_ALPHAS, pixel_width=192, pixel_height=108, beats={"diagnose"}
    )
    return sorted(set(found))


@pytest.mark.parametrize(
    "overrides",
    [{}, {"ids": "0"}, {"ids": "4821", "vocab": 50257}],
    ids=["id3", "id0", "gpt2"],
)
def test_the_diagnosis_keeps_its_marks_clear_of_the_glyphs(overrides: dict[str, Any]) -> None:
    """Review 10 (diagnose, 42.7 s): a violet underline cut the bottom of row 3's digits
    (x 102-402, y 418), and a ring's corner touched the "3" in the trace. Every passing
    highlight keeps at least 3 px (at 720p) from every glyph.
    """
    problems = _marks_on_glyphs(overrides)
    assert not problems, "\n".join(problems)


# The chip's heading ("token IDs") once stood at the chip's home, under it: a later
# review found it alone there, heading nothing (issue 18). It now labels the waiting
# chip in the intro only; tests/test_chip_heading.py checks it at every moment.


def _glyph_boxes(mobject: Any) -> list[np.ndarray]:
    """Return the box ((left, bottom), (right, top)) of each outline of a text's glyphs.

    A glyph is one or more closed outlines (a ``0``: two); a GlyphString's last
    eight points are its invisible slot box, which is no ink.
    """
    from embedviz.render.glyphs import GlyphString

    points = mobject.points[:-8] if isinstance(mobject, GlyphString) else mobject.points
    return [
        np.array([path[:, :2].min(axis=0), path[:, :2].max(axis=0)])
        for path in mobject.get_subpaths_from_points(points)
        if len(path)
    ]


def _cross_on_glyphs(overrides: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Play the scene; return the moments the slip's cross showed, and each glyph it crossed.

    At every sample of every beat while the cross is drawn (from its ``Create``
    to its fade), its strokes, sampled along each curve and widened by half
    their width and :data:`CLEAR_PX`, must miss the box of every outline of
    every drawn text's glyphs: the strip's numbers, the chip's ID, the words.
    """
    from manim import config

    from embedviz.render.glyphs import GlyphString, SansText
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("zero", overrides, environ={})
    shown: list[str] = []
    found: list[str] = []
    along = np.linspace(0.0, 1.0, 9)[:, None]
    bernstein = np.hstack([(1 - along) ** 3, 3 * (1 - along) ** 2 * along])
    bernstein = np.hstack([bernstein, 3 * (1 - along) * along**2, along**3])

    def read(scene: Any, moment: Any) -> None:
        cross = scene.stage.slip.cross
        family = [m for top in scene.mobjects for m in top.get_family()]
        drawn = [
            m
            for m in cross.get_family()
            if len(m.points) >= 4 and m in family and float(m.get_stroke_opacity()) > 0.05
        ]
        if not drawn:
            return
        when = f"{moment.beat.name} step {moment.step} at {moment.alpha}"
        shown.append(when)
        right = max(float(m.get_right()[0]) for m in drawn)
        if right > scene.stage.plan.bands.right + 1e-6:
            found.append(f"{when}: the cross leaves the safe area")
        clear = CLEAR_PX * float(config.frame_height) / 720
        texts = [
            m
            for m in family
            if isinstance(m, (GlyphString, SansText)) and float(m.get_fill_opacity()) > 0.05
        ]
        for stroke in drawn:
            reach = float(stroke.get_stroke_width()) / 200 + clear
            curves = stroke.points[: len(stroke.points) // 4 * 4].reshape(-1, 4, 3)[:, :, :2]
            points = np.einsum("tk,ckd->ctd", bernstein, curves).reshape(-1, 2)
            for text in texts:
                for low, high in _glyph_boxes(text):
                    inside = (points > low - reach) & (points < high + reach)
                    if inside.all(axis=1).any():
                        found.append(f"{when}: the cross on {getattr(text, 'text', '')!r}")
                        break

    play_moments(board, read, alphas=_STEP_ALPHAS, pixel_width=192, pixel_height=108)
    return shown, sorted(set(found))


@pytest.mark.parametrize(
    "overrides",
    [{}, {"theme": "light"}, {"ids": "0"}, {"ids": "4821", "vocab": 50257, "dim": 768}],
    ids=["id3", "id3-light", "id0", "gpt2"],
)
def test_the_slips_cross_stands_clear_of_every_glyph(overrides: dict[str, Any]) -> None:
    """Issue 18 (a 720p frame review): the X over the slip's wrong row ran corner to corner
    across the copied strip, through the digits of ``-0.2010`` and ``-0.1606``. The cross
    now stands beside what the slip fetched; at every moment it shows it keeps at least
    :data:`CLEAR_PX` (720p) from every glyph on screen, inside the safe area.
    """
    shown, problems = _cross_on_glyphs(overrides)
    assert any(when.startswith("one-based") for when in shown), "the cross never showed"
    assert not problems, "\n".join(problems)


def _spans(overrides: dict[str, Any]) -> dict[str, float]:
    """Dry-run at 720p: each beat end's drawn ink from left to right (title, captions and
    the colour legend aside), as a share of the safe area's width."""
    from manim import config

    from embedviz.render.design import MARGIN
    from embedviz.render.moments import play_moments
    from embedviz.render.parts.captions import Caption

    board = prepared_storyboard("ZeroBasedIndexing", overrides, environ={})
    found: dict[str, float] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha != 1.0:
            return
        aside = {id(scene.stage.title)} | {
            id(m)
            for top in scene.mobjects
            for m in top.get_family()
            if isinstance(m, Caption) or m is scene.stage.matrix.legend
        }
        lefts, rights = [], []
        for top in scene.mobjects:
            stack = [top]
            while stack:
                mobject = stack.pop()
                if id(mobject) in aside:
                    continue
                stack.extend(mobject.submobjects)
                if (
                    len(mobject.points)
                    and max(float(mobject.get_fill_opacity()), float(mobject.get_stroke_opacity()))
                    >= 0.5
                ):
                    box = box_of(mobject)
                    reach = float(mobject.get_stroke_width()) / 200
                    lefts.append(box[0][0] - reach)
                    rights.append(box[1][0] + reach)
        safe = float(config.frame_width) - 2 * MARGIN
        found[moment.beat.name] = (max(rights) - min(lefts)) / safe

    play_moments(board, read, alphas=())
    return found


@pytest.mark.parametrize("overrides", [{}, {"theme": "light"}])
def test_the_table_and_its_panel_span_the_frame_after_the_intro(overrides: dict[str, Any]) -> None:
    """A 720p review found the 6 x 3 table in the frame's left third after the intro: the
    solver kept the chip's heading's width right of the returned vector's tag, though the
    heading shows only in the intro's close-up (90 px stood empty there, E's digits 24.4
    px). The tallies, E, the vectors and their tag or cross span at least 97 % of the safe
    area's width at every beat's end after the intro (92.8 % before)."""
    spans = _spans(overrides)
    assert len(spans) > 1
    for beat, share in spans.items():
        if beat != "intro":
            assert share >= 0.97, spans
