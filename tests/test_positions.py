"""Position vectors (core) and the PositionBlindness storyboard.

Sinusoids are checked against their definition and against PyTorch; the
learned table against ``torch.manual_seed`` plus ``nn.Embedding``; the story
against oracles, including the learned variant, which no scene option
reaches yet, so it is built and dry-run here directly.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

import frame_space
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from oracles import Context, expected, make_context
from oracles.position_blindness import CONTEXT_LENGTH, learned_table, sinusoid

from embedviz.core.errors import EmbedvizError
from embedviz.core.positions import add_positions, learned_positions, sinusoidal_positions
from embedviz.story.model import Storyboard
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.position_blindness import (
    LEARNED_CONTEXT,
    build_position_blindness,
    learned_seed,
)

FRAME_HALF_WIDTH, FRAME_HALF_HEIGHT = 14.222 / 2, 4.0


def _error(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(EmbedvizError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert message.strip()
    assert "\n" not in message, f"not one line: {message!r}"
    return message


# -- sinusoidal_positions ---------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(length=st.integers(0, 80), dim=st.integers(1, 80))
def test_sinusoids_have_shape_range_and_a_fixed_first_row(length: int, dim: int) -> None:
    table = sinusoidal_positions(length, dim)
    assert table.shape == (length, dim)
    assert table.dtype == np.float32
    assert np.all(np.abs(table) <= 1.0)
    if length:
        # sin(0) = 0 in even columns, cos(0) = 1 in odd ones.
        assert table[0].tolist() == [float(c % 2) for c in range(dim)]


@settings(max_examples=40, deadline=None)
@given(length=st.integers(1, 40), dim=st.integers(1, 40), data=st.data())
def test_sinusoids_follow_the_definition(length: int, dim: int, data: st.DataObject) -> None:
    table = sinusoidal_positions(length, dim)
    pos = data.draw(st.integers(0, length - 1))
    col = data.draw(st.integers(0, dim - 1))
    i = col // 2
    angle = pos / 10000 ** (2 * i / dim)
    want = math.sin(angle) if col % 2 == 0 else math.cos(angle)
    assert abs(float(table[pos, col]) - want) <= 1e-7


def test_odd_dimension_ends_with_a_sine() -> None:
    table = sinusoidal_positions(5, 3)
    # Column 2 pairs with a cosine that would be column 3, past d.
    angles = np.arange(5) / 10000 ** (2 / 3)
    np.testing.assert_allclose(table[:, 2], np.sin(angles), atol=1e-7)
    np.testing.assert_allclose(table[:, 0], np.sin(np.arange(5)), atol=1e-7)
    np.testing.assert_allclose(table[:, 1], np.cos(np.arange(5)), atol=1e-7)


def test_different_positions_get_different_vectors() -> None:
    table = sinusoidal_positions(64, 16)
    distinct = {tuple(row) for row in table.tolist()}
    assert len(distinct) == 64


@pytest.mark.parametrize(
    ("length", "dim", "message"),
    [
        (-1, 4, "at least 0"),
        (3, 0, "at least 1"),
        (True, 4, "whole number"),
        (3, 2.5, "whole number"),
        ("3", 4, "whole number"),
    ],
)
def test_sinusoids_refuse_bad_sizes(length: Any, dim: Any, message: str) -> None:
    assert message in _error(sinusoidal_positions, length, dim)


# -- learned_positions -------------------------------------------------------------
def test_learned_positions_are_a_seeded_normal_table() -> None:
    table = learned_positions(16, 3, 124)
    assert table.shape == (16, 3)
    assert table.dtype == np.float32
    again = learned_positions(16, 3, 124)
    assert np.array_equal(table, again)
    assert not np.array_equal(table, learned_positions(16, 3, 125))


@pytest.mark.parametrize(("length", "dim", "seed"), [(0, 3, 1), (4, 0, 1), (4, 3, -(2**63) - 1)])
def test_learned_positions_refuse_bad_input(length: int, dim: int, seed: int) -> None:
    _error(learned_positions, length, dim, seed)


def test_learned_seed_is_derived_and_wraps() -> None:
    assert learned_seed(123) == 124
    assert learned_seed(2**64 - 1) == 0


# -- add_positions -----------------------------------------------------------------
@settings(max_examples=50, deadline=None)
@given(
    tokens=hnp.arrays(
        np.float32,
        hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=6),
        elements=st.floats(-100, 100, width=32),
    ),
    extra=st.integers(0, 3),
)
def test_add_positions_adds_row_t_to_every_position_t(tokens: np.ndarray, extra: int) -> None:
    count, dim = tokens.shape[-2:]
    table = sinusoidal_positions(count + extra, dim)
    total = add_positions(tokens, table)
    assert total.shape == tokens.shape
    assert total.dtype == np.float32
    assert np.array_equal(total, (tokens + table[:count]).astype(np.float32))


@pytest.mark.parametrize(
    ("tokens", "table", "message"),
    [
        (np.zeros((4, 3)), np.zeros((4, 2)), "d = 2"),
        (np.zeros((4, 3)), np.zeros((3, 3)), "covers 3 positions"),
        (np.zeros(3), np.zeros((4, 3)), "(T, d) or (B, T, d)"),
        (np.zeros((4, 3)), np.zeros((2, 4, 3)), "(L, d)"),
        (np.full((2, 2), np.nan), np.zeros((2, 2)), "finite"),
        (np.zeros((2, 2), dtype=bool), np.zeros((2, 2)), "real numbers"),
    ],
)
def test_add_positions_refuses_mismatches(
    tokens: np.ndarray, table: np.ndarray, message: str
) -> None:
    assert message in _error(add_positions, tokens, table)


# -- parity with PyTorch ------------------------------------------------------------
@pytest.fixture(scope="module")
def torch() -> Any:
    return pytest.importorskip("torch")


def _torch_sinusoids(torch: Any, length: int, dim: int, dtype: Any) -> np.ndarray:
    """The usual PyTorch recipe: torch.arange, and exp/log frequencies."""
    position = torch.arange(length, dtype=dtype).unsqueeze(1)
    frequency = torch.exp(torch.arange(0, dim, 2, dtype=dtype) * (-math.log(10000.0) / dim))
    table = torch.zeros(length, dim, dtype=dtype)
    table[:, 0::2] = torch.sin(position * frequency)
    table[:, 1::2] = torch.cos(position * frequency[: dim // 2])
    result: np.ndarray = table.to(torch.float32).numpy()
    return result


@pytest.mark.parametrize(("length", "dim"), [(4, 3), (16, 1), (50, 64), (512, 768), (7, 5)])
def test_sinusoids_match_torch_in_float64(torch: Any, length: int, dim: int) -> None:
    theirs = _torch_sinusoids(torch, length, dim, torch.float64)
    assert float(np.max(np.abs(sinusoidal_positions(length, dim) - theirs))) <= 1e-6


@pytest.mark.parametrize(("length", "dim"), [(4, 3), (16, 8), (12, 768)])
def test_sinusoids_match_the_float32_recipe_for_short_sequences(
    torch: Any, length: int, dim: int
) -> None:
    # In float32 the angle pos * freq is rounded, an error that grows with pos
    # (about 4e-6 by pos 64); for the short sequences scenes show, it is tiny.
    theirs = _torch_sinusoids(torch, length, dim, torch.float32)
    assert float(np.max(np.abs(sinusoidal_positions(length, dim) - theirs))) <= 1e-6


@pytest.mark.parametrize(("length", "dim", "seed"), [(16, 3, 124), (5, 3, 0), (32, 768, 7)])
def test_learned_positions_match_torch_embedding(
    torch: Any, length: int, dim: int, seed: int
) -> None:
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        theirs = torch.nn.Embedding(length, dim).weight.detach().numpy()
    # Bit for bit, as in test_table_torch (embedviz follows this CPU's torch kernel).
    ours = learned_positions(length, dim, seed)
    assert np.array_equal(ours.view(np.uint32), theirs.view(np.uint32))


# -- the storyboard ------------------------------------------------------------------
def _cells(board: Storyboard, kind: str) -> dict[tuple[int, ...], Any]:
    return {c.index: c for c in board.beats[-1].numbers if c.kind == kind}


def test_default_story_shows_equal_rows_then_different_sums() -> None:
    board = build_position_blindness(SceneOptions())
    assert list(board.ids) == [2, 3, 2, 1]
    assert [b.name for b in board.beats] == [
        "intro", "lookup", "same", "arrange", "positions", "add", "differ",
    ]  # fmt: skip
    tokens = _cells(board, "output")
    sums = _cells(board, "sum_sinusoid")
    pe = _cells(board, "sinusoid")
    for col in range(3):
        assert tokens[(0, col)].value == tokens[(2, col)].value
        assert pe[(0, col)].text == ("1.0000" if col % 2 else "0.0000")
    assert [sums[(0, c)].value for c in range(3)] != [sums[(2, c)].value for c in range(3)]
    # The matrix leaves once the lookup has made its point.
    assert not [c for c in board.beats[3].numbers if c.kind == "weight"]
    # The definition is typeset from Typst maths, the frequency on a line of its own.
    assert board.beats[-1].labels_with("formula_") == [
        'P["pos", 2i] = sin("pos" dot omega_i)',
        'P["pos", 2i+1] = cos("pos" dot omega_i)',
        "omega_i = 10000^(-2i \\/ d)",
    ]


@pytest.mark.parametrize("positions", ["sinusoidal", "learned"])
def test_every_cell_matches_its_oracle(positions: str) -> None:
    if positions == "learned":
        pytest.importorskip("torch")
    board = build_position_blindness(SceneOptions(), positions=positions)
    context = _context(board)
    for beat in board.beats:
        for cell in beat.numbers:
            value, text = expected(cell, context)
            if cell.kind in ("learned_position", "sum_learned"):
                # The oracle is torch itself, which agrees to within a rounding step.
                assert abs(cell.value - value) <= 3e-6, cell
                assert abs(float(cell.text) - value) <= 0.5e-4 + 3e-6, cell
            else:
                assert (cell.value, cell.text) == (value, text), cell


def test_learned_oracle_table_has_the_documented_size() -> None:
    pytest.importorskip("torch")
    assert learned_table(123, 3).shape == (LEARNED_CONTEXT, 3) == (CONTEXT_LENGTH, 3)
    np.testing.assert_allclose(
        learned_table(123, 3), learned_positions(LEARNED_CONTEXT, 3, 124), atol=3e-6
    )


def test_learned_story_labels_the_table() -> None:
    board = build_position_blindness(SceneOptions(), positions="learned")
    sizes = sorted((c.index, c.text) for c in board.beats[-1].numbers if c.kind == "pe_size")
    assert sizes == [((0,), "16"), ((1,), "3")]
    assert not [t for t in board.beats[-1].labels.values() if t.startswith("P[")]


def test_sinusoid_oracle_agrees_with_core() -> None:
    table = sinusoidal_positions(8, 7)
    for pos in range(8):
        for col in range(7):
            assert sinusoid(pos, col, 7) == table[pos, col]


def _context(board: Storyboard) -> Context:
    # The table and IDs come from the scene's options and documented defaults.
    return make_context("PositionBlindness", {}, board)


def test_learned_variant_renders_every_number_inside_the_frame(tmp_path: Path) -> None:
    """The shared screen test, for the variant no scene option reaches yet."""

    from embedviz.render.base import StoryboardScene, screen_texts

    board = build_position_blindness(SceneOptions(), positions="learned")
    problems: list[str] = []

    class Recording(StoryboardScene):  # type: ignore[misc]
        def after_beat(self, beat: Any) -> None:
            numbers, labels, _ = screen_texts(self)
            # Less the numbers drawn a second time on purpose (the sums' positions).
            on_screen = Counter((n.cell.kind, n.cell.index, n.text) for n in numbers if not n.echo)
            in_story = Counter((c.kind, c.index, c.text) for c in beat.numbers)
            if on_screen != in_story:
                problems.append(f"{beat.name}: screen and storyboard differ")
            shown = Counter(t.text for t in labels if re.search(r"\d", t.text))
            if shown != Counter(t for t in beat.labels.values() if re.search(r"\d", t)):
                problems.append(f"{beat.name}: labels differ")
            boxes = [
                (m.text, m.get_corner([-1, -1, 0]), m.get_corner([1, 1, 0]))
                for m in [*numbers, *labels]
            ]
            for text, low, high in boxes:
                if not (low[0] > -FRAME_HALF_WIDTH and high[0] < FRAME_HALF_WIDTH):
                    problems.append(f"{beat.name}: {text!r} leaves the frame")
                if not (low[1] > -FRAME_HALF_HEIGHT and high[1] < FRAME_HALF_HEIGHT):
                    problems.append(f"{beat.name}: {text!r} leaves the frame")
            for i, (text_a, low_a, high_a) in enumerate(boxes):
                for text_b, low_b, high_b in boxes[i + 1 :]:
                    overlap_x = min(high_a[0], high_b[0]) - max(low_a[0], low_b[0])
                    overlap_y = min(high_a[1], high_b[1]) - max(low_a[1], low_b[1])
                    if overlap_x > 0.01 and overlap_y > 0.01:
                        problems.append(f"{beat.name}: {text_a!r} overlaps {text_b!r}")

    _dry_render(Recording, board, tmp_path)
    assert not problems, problems[:5]


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ([2, 3, 5, 1], "needs an ID that appears twice"),
        ([[2, 2], [3, 3]], "one sequence"),
        ([1, 1, 1, 1, 1, 1, 1, 1, 1], "at most 8 tokens"),
        ([2, 6, 2], "out of range"),
        ([2, -1, 2], "negative"),
    ],
)
def test_bad_sequences_fail_in_one_line(ids: Any, message: str) -> None:
    assert message in _error(build_position_blindness, SceneOptions(ids=ids))


def test_unknown_position_scheme_fails_in_one_line() -> None:
    assert "'sinusoidal' or 'learned'" in _error(
        build_position_blindness, SceneOptions(), positions="rotary"
    )


def test_too_many_scattered_rows_fail_in_one_line() -> None:
    options = SceneOptions(ids=[100, 2000, 3000, 4000, 5000, 6000, 100], vocab=50257)
    assert "fewer distinct IDs" in _error(build_position_blindness, options)


def test_the_stage_is_composed_of_the_design_systems_parts() -> None:
    """PositionStage composes the lookup family's parts, then the sums' (issue 18, phase 2).

    It does not subclass LookupStage: the lookup's parts carry the first
    arrangement, :class:`TokenBlock` and :class:`PositionBlocks` the second,
    and every beat of the story is handled by the stage or by one part.
    """
    from embedviz.render.parts.lookup import ChipColumn, MatrixPart, OutputPart
    from embedviz.render.parts.motion import LookupMotion
    from embedviz.render.parts.positions import PositionBlocks, TokenBlock
    from embedviz.render.parts.wait_under import WaitingMotion
    from embedviz.render.stage import stage_for
    from embedviz.render.stages.lookup import LookupStage
    from embedviz.render.theme import DARK

    board = build_position_blindness(SceneOptions())
    cls = stage_for(board.layout)
    assert not issubclass(cls, LookupStage)
    stage = cls(None, board, DARK)  # type: ignore[arg-type]  # building touches no scene
    # The lookup's motion, its chips waiting under the raised block (parts/wait_under.py).
    assert issubclass(WaitingMotion, LookupMotion)
    parts = [MatrixPart, OutputPart, ChipColumn, WaitingMotion, TokenBlock, PositionBlocks]
    assert [type(part) for part in stage.parts] == parts
    handled = {name.removeprefix("beat_") for name in dir(cls) if name.startswith("beat_")}
    for part in stage.parts:
        handled |= {name.removeprefix("beat_") for name in dir(part) if name.startswith("beat_")}
    assert {beat.action for beat in board.beats} <= handled


def test_an_empty_frame_is_measured() -> None:
    """A box in one corner leaves the rest; a wall across the region leaves the larger side."""
    region = (0.0, 4.0, 0.0, 2.0)
    assert frame_space.largest_empty([], region) == pytest.approx(8.0)
    corner = (np.array([0.0, 0.0]), np.array([1.0, 1.0]))
    assert frame_space.largest_empty([corner], region) == pytest.approx(6.0, abs=0.1)
    wall = (np.array([1.0, 0.0]), np.array([1.5, 2.0]))
    assert frame_space.largest_empty([wall], region) == pytest.approx(5.0, abs=0.15)


@pytest.mark.slow
@pytest.mark.parametrize("positions", ["sinusoidal", "learned"])
def test_the_sums_fill_the_frame(positions: str) -> None:
    """From the rows' new arrangement on, no empty area is larger than about an eighth.

    Issue 18 measured 45% of the frame as one empty rectangle at the end of
    ``arrange``: the P and sum blocks now stand, empty, as the rows arrive.
    """
    shares = frame_space.empty_shares("PositionBlindness", {"positions": positions})
    late = {
        name: share
        for name, share in shares.items()
        if name in ("arrange", "positions", "add", "differ")
    }
    assert len(late) == 4
    roomy = {name: f"{share:.0%}" for name, share in late.items() if share > frame_space.EIGHTH}
    assert not roomy, roomy


# -- P's definition on screen -----------------------------------------------------
# A Typst label's pieces: quoted text, a word (a variable, sin, omega), a number, a
# slash, or one other character. ``^`` and ``_`` only place the next piece.
_PIECE = re.compile(r'"[^"]*"|[A-Za-z]+|\d+|\\/|[^\s^_/]')


def _glyphs(mobject: Any) -> list[Any]:
    # Every member with points but the formula's own invisible box is one glyph.
    return [m for m in mobject.family_members_with_points() if m is not mobject]


def _shape(glyph: Any) -> np.ndarray:
    points = np.asarray(glyph.points)[:, :2]
    low = points.min(axis=0)
    return np.asarray((points - low) / max(float(glyph.height), 1e-9))


def _reference_heights(sources: list[str], font: float) -> list[tuple[np.ndarray, float]]:
    """Each glyph the sources can draw, as a shape and its height on the baseline at ``font``.

    Every piece is typeset alone and as an exponent (Typst sets scripts in
    their own optical variants); either shape is paired with the baseline
    glyph's height, so a glyph's type size is its height over that one.
    """
    from embedviz.render.design import maths

    pieces = {piece for source in sources for piece in _PIECE.findall(source)}
    found: list[tuple[np.ndarray, float]] = []
    for piece in sorted(pieces):
        base = _glyphs(maths(piece, "#FFFFFF", font))
        found += [(_shape(glyph), float(glyph.height)) for glyph in base]
        if piece in "()[]=,":
            continue  # never a script in these formulas
        raised = _glyphs(maths(f"x^({piece})", "#FFFFFF", font))[1:]
        if len(raised) == len(base):
            found += [(_shape(r), float(b.height)) for r, b in zip(raised, base, strict=True)]
    return found


def _type_px(glyph: Any, references: list[tuple[np.ndarray, float]], digit_px: float) -> float:
    """Return a glyph's type size (a digit's height at 720p); 0 for a glyph not recognised."""
    shape = _shape(glyph)
    for reference, height in references:
        if reference.shape == shape.shape and np.allclose(reference, shape, atol=2e-3):
            return digit_px * float(glyph.height) / height
    return 0.0


@pytest.mark.parametrize(
    "overrides",
    [{}, {"ids": "5,1,4,1,5,9,2,6", "vocab": 10, "dim": 6}],
    ids=["default", "eight-tokens"],
)
def test_every_glyph_of_the_definition_is_readable(
    tmp_path: Path, overrides: dict[str, Any]
) -> None:
    """Every glyph of P's definition, exponents included, is at least MIN_TEXT_PX at 720p.

    A lecture-hall review found its exponent and fraction too small to read.
    The type size of a glyph is measured as the project measures text: a
    digit's height at 720p, here the glyph's height relative to the same
    glyph on the baseline, whose digits are as tall as the font's.
    """
    from manim import config

    from embedviz.inputs import prepared_storyboard
    from embedviz.render.base import StoryboardScene, screen_texts
    from embedviz.render.design import MIN_TEXT_PX, px_for_font
    from embedviz.render.formula import FormulaText

    board = prepared_storyboard("PositionBlindness", overrides, cwd=tmp_path, environ={})
    sizes: dict[str, list[float]] = {}
    data_px: list[float] = []
    definition_px: list[float] = []

    class Recording(StoryboardScene):  # type: ignore[misc]
        def after_beat(self, beat: Any) -> None:
            if beat.name != "arrange":
                return
            numbers, labels, _ = screen_texts(self)
            # The table numbers' digits (a number's box is its digits' height: no
            # descenders), at 720p.
            table = [n for n in numbers if n.cell.kind == "output"]
            data_px.append(max(float(n.height) for n in table) * 720 / config.frame_height)
            shown = [m for m in labels if isinstance(m, FormulaText)]
            definition = [m for m in shown if m.text in beat.labels_with("formula_")]
            sources = [m.text for m in definition]
            for formula in definition:
                # Its font as drawn, had the formula been scaled after typesetting.
                font = formula.font_size_drawn * float(formula.height) / formula.natural_height
                references = _reference_heights(sources, font)
                # A digit's height at 720p, whatever the frame is drawn at.
                digit_px = px_for_font(font)
                definition_px.append(digit_px)
                sizes[formula.text] = [
                    _type_px(glyph, references, digit_px) for glyph in _glyphs(formula)
                ]

    _dry_render(Recording, board, tmp_path)
    assert len(sizes) == len(board.beats[-1].labels_with("formula_")) >= 2
    known = {text: [p for p in px if p > 0.0] for text, px in sizes.items()}
    small = {
        text: f"{min(px):.1f} px" for text, px in known.items() if min(px) < MIN_TEXT_PX - 0.05
    }
    assert not small, small
    # A glyph not found among its pieces (a stretched bracket, a fraction's bar) fails
    # too: its size is not known.
    unknown = {text: px.count(0.0) for text, px in sizes.items() if 0.0 in px}
    assert not unknown, f"glyphs not recognised: {unknown}"
    # Set larger for its exponent's sake, it still stays under the table numbers.
    assert max(definition_px) <= min(data_px) + 0.05, (definition_px, data_px)


def test_the_definition_on_screen_gives_the_table() -> None:
    """P's definition, read as written on screen, reproduces the sinusoid table.

    The labels are translated to Python piece by piece (``dot`` is ×, ``^`` a
    power, ``2i`` is 2·i) and evaluated at every position and column.
    """
    dim = 6
    board = build_position_blindness(SceneOptions(ids=[2, 3, 2, 1], vocab=6, dim=dim))
    lines = board.beats[-1].labels_with("formula_")
    python = {
        '"pos"': "pos",
        "dot": "*",
        "omega_i": "omega",
        "sin": "math.sin",
        "cos": "math.cos",
        "^": "**",
        "2i": "2 * i",
        "\\/": "/",
    }

    def rhs(line: str) -> str:
        right = line.split("=", 1)[1]
        for typst, code in python.items():
            right = right.replace(typst, code)
        return right

    assert [line.split("=")[0].strip() for line in lines] == [
        'P["pos", 2i]',
        'P["pos", 2i+1]',
        "omega_i",
    ]
    table = sinusoidal_positions(4, dim)
    for pos in range(4):
        for col in range(dim):
            i = col // 2
            omega = eval(rhs(lines[2]), {"i": i, "d": dim})
            value = eval(rhs(lines[col % 2]), {"math": math, "pos": pos, "omega": omega})
            assert value == pytest.approx(float(table[pos, col]), abs=1e-6)


def _dry_render(scene_class: Any, board: Any, media: Path) -> None:
    """Play a storyboard as a dry run at 192x108, 15 fps (the class's hooks read the screen)."""
    from manim import tempconfig

    settings = {"dry_run": True, "disable_caching": True, "media_dir": str(media),
                "pixel_width": 192, "pixel_height": 108, "frame_rate": 15}  # fmt: skip
    with tempconfig(settings):
        scene_class(storyboard=board, skip_animations=True).render()
