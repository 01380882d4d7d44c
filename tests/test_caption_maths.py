"""One voice for maths in the burned-in caption (issue: "every symbol ... is set with MathTypst
in its object's colour").

The narration stays plain text (it is spoken and written to WebVTT as it is);
the caption sets the symbols it names (``E``, ``E[3]``, ``wₜ``, ``∂L/∂E``,
``one_hot(3)``, ``E ← E − 0.02 · ∂L/∂E``) typeset, in the colour of the object
they name. The tokenizer is checked against every scene's real narration and
a hand-written list of what is maths in it; the drawing is checked on the
captions a dry run puts on screen (TrainingNudge's ``update``, OneHotEquivalence's
``compare``): typeset, coloured, on the words' baseline, inside the caption's width.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.theme import DARK, LIGHT
from embedviz.story.scenes import SCENES

# (scene, beat) -> the maths of its narration, phrase by phrase in reading order,
# with the theme colour each piece is drawn in. Written by hand from the narration
# (FullExplainer repeats its parts' beats and is checked through them).
T, G = "text", "gradient"
# The default step's learning rate, as the narration writes it: the largest of 0.5, 0.2,
# 0.1, 0.05, 0.02, ... whose change of the loss is at most half of it (tests/oracles/
# training_nudge.py works it out; test_training checks the scene shows that rate).
LR = "0.02"
EXPECTED: dict[tuple[str, str], list[tuple[str, str]]] = {
    ("SingleTokenLookup", "print"): [("E", T)],
    ("ZeroBasedIndexing", "check"): [("E[3]", T)],
    ("ZeroBasedIndexing", "diagnose"): [("E", T)],
    ("BatchLookup", "batch"): [("B × T", T)],
    ("BatchLookup", "predict"): [("d = 3", T)],
    ("BatchLookup", "reveal"): [("b", T), ("b", T), ("t", T), ("t", T)],
    ("BatchLookup", "lookup-0-0"): [("E", T)],
    ("BatchLookup", "lookup-1"): [("E", T)],
    ("BatchLookup", "shape"): [("out[b, t]", "output"), ("E[ids[b, t]]", T)],
    ("LargeVocabLookup", "size"): [("E", T)],
    ("LargeVocabLookup", "shape"): [("E", T)],
    ("OneHotEquivalence", "intro"): [("E", T)],
    ("OneHotEquivalence", "one-hot"): [("one_hot(3)", T), ("k", T), ("k", T), ("E", T)],
    ("OneHotEquivalence", "sum"): [("0 × E[k, 0]", T), ("1 × E[3, 0]", T)],
    ("OneHotEquivalence", "column-1"): [("1 × E[3, 1]", T)],
    ("OneHotEquivalence", "columns"): [("E", T)],
    ("OneHotEquivalence", "compare"): [("E[3]", T), ("one_hot(3)", T), ("E", T), ("E[3]", T)],
    ("OneHotEquivalence", "cost"): [("E", T), ("V × d", T)],
    ("ParameterCount", "count"): [("E", T), ("V × d", T)],
    ("ParameterCount", "compare"): [("d", T), ("d", T)],
    ("TrainingNudge", "loss"): [("E", T), ("wₜ", G)],
    ("TrainingNudge", "upstream"): [("L", T), ("wₜ", G)],
    ("TrainingNudge", "scatter"): [("wₜ", G), ("∂L/∂E", G)],
    ("TrainingNudge", "accumulate"): [("w₀ + w₂", G)],
    ("TrainingNudge", "update"): [(f"E ← E − {LR} ·", T), ("∂L/∂E", G)],
    ("TrainingNudge", "loss-drop"): [("L", T)],
    ("PositionBlindness", "lookup"): [("E", T)],
    ("PositionBlindness", "positions"): [("P", "accent")],
}


def _pieces(text: str) -> list[tuple[str, str]]:
    from embedviz.render.caption_maths import maths_pieces

    return [(piece.text, piece.role) for piece in maths_pieces(text)]


def test_the_maths_of_every_scenes_narration_is_found_and_nothing_else() -> None:
    found: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for name in (n for n in SCENES if n != "FullExplainer"):
        for beat in prepared_storyboard(name, {}, environ={}).all_beats():
            texts = [p.text for p in beat.phrases] or [beat.narration]
            pieces = [piece for text in texts for piece in _pieces(text)]
            if pieces:
                found[(name, beat.name)] = pieces
    assert found == EXPECTED


@pytest.mark.parametrize(
    "text",
    [
        "grad_fn=<EmbeddingBackward0> is metadata that PyTorch attaches to the result.",
        "ID 3 is a row number. The outer pair means a 2-D tensor. A lookup, I think.",
        "The embedding layer stores a 6 × 3 matrix. The result is 2 × 4 × 3: batch size.",
        "E holds 50257 × 768 = 38,597,376 numbers, about 147 MiB as float32.",
        "L'ID 3 choisit la ligne 3 ; Die ID 3 wählt Zeile 3 aus.",
        "It has 768 columns, like GPT-2's. It isn't a bit-for-bit copy, i.e. a tensor.",
    ],
)
def test_words_numbers_and_code_stay_words(text: str) -> None:
    """Numbers alone, words (ID, PyTorch, a, A, I, L'ID) and code stay sans (E alone aside)."""
    assert [p for p in _pieces(text) if p != ("E", T)] == []


def test_a_formula_over_a_line_break_is_one_run() -> None:
    from embedviz.render.caption_maths import maths_pieces

    (symbol, formula) = maths_pieces("E holds V × d = 50,257 × 768\n= 38,597,376 of them.")
    assert symbol.text == "E"
    assert formula.text == formula.run == "V × d = 50,257 × 768\n= 38,597,376"


@pytest.mark.parametrize(
    ("text", "source"),
    [
        ("E ← E − 0.5 ·", "E <- E - 0.5 dot"),
        ("∂L/∂E", "partial L \\/ partial E"),
        ("wₜ", "w_t"),
        ("w₀ + w₂", "w_0 + w_2"),
        ("one_hot(3)", '"one_hot"(3)'),
        ("E[ids[b, t]]", 'E["ids"[b, t]]'),
        ("V × d = 50,257 × 768", 'V times d = 50","257 times 768'),
    ],
)
def test_typst_sources(text: str, source: str) -> None:
    from embedviz.render.caption_maths import typst_source

    assert typst_source(text) == source


def _contrast(first: str, second: str) -> float:
    """WCAG 2.2's contrast ratio of two hex colours (written out here, as the oracle)."""

    def luminance(colour: str) -> float:
        rgb = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    a, b = sorted((luminance(first), luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)


@pytest.mark.parametrize("theme", [DARK, LIGHT], ids=["dark", "light"])
def test_every_maths_colour_reads_on_the_caption_background(theme: Any) -> None:
    from embedviz.render.caption_maths import NAMED

    for role in {"text", "gradient", *NAMED.values()}:
        assert _contrast(getattr(theme, role), theme.background) >= 4.5, role


# What the dry runs must show: (scene, beat) -> each typeset formula's Typst source:
# the colour of each of its glyphs (theme fields), the glyphs that stand on the
# baseline (flat-bottomed letters, digits) and its digits, by glyph index.
DRAWN = {
    ("TrainingNudge", "update"): {
        # E ← E − 0 . 0 2 · in the text colour, ∂ L / ∂ E in the gradient's; the
        # rate's digits are glyphs 4, 6 and 7.
        f"E <- E - {LR} dot partial L \\/ partial E": (
            [T] * 9 + [G] * 5,
            [0, 2, 4, 6, 7, 10, 13],
            {4: "0", 6: "0", 7: "2"},
        ),
    },
    ("OneHotEquivalence", "compare"): {
        "E[3]": ([T] * 4, [0, 2], {2: "3"}),
        '"one_hot"(3)': ([T] * 10, [1, 4, 8], {8: "3"}),
        "E": ([T], [0], {}),
    },
}


def _captions_seen(scene: str, beat: str, theme: Any) -> dict[str, Any]:
    """Dry-run a scene; return each caption of ``beat`` drawn in full, by its text."""
    from embedviz.render.moments import play_moments
    from embedviz.render.parts.captions import Caption

    board = prepared_storyboard(scene, {}, environ={})
    seen: dict[str, Any] = {}

    def look(scene_object: Any, moment: Any) -> None:
        if moment.beat.name != beat:
            return
        family = (m for top in scene_object.mobjects for m in top.get_family())
        for caption in (m for m in family if isinstance(m, Caption)):
            words = caption[0]
            settled = words.get_fill_color().to_hex().lower() == theme.text.lower()
            if settled and words.get_fill_opacity() > 0.99:
                seen[caption.text] = caption.copy()

    # Only ``beat`` is read: the others play unsampled (tests/test_moment_beats.py).
    play_moments(board, look, alphas=(0.25, 0.5, 0.75), theme=theme, beats={beat})
    return seen


def _baselines(words: Any, lines: list[str], maths: list[str]) -> list[float]:
    """Each line's baseline, from the caption's sans outline (an oracle of its own).

    The caption's words are DejaVu Sans glyphs, each moved as a whole: the mean
    height of a line's outline points, less that of the same words laid out by
    the glyph cache (digits centred on y = 0), is where the line's digits are
    centred; the baseline is where a flat-bottomed digit stands below that.
    """
    from embedviz.render.glyphs import REFERENCE_FONT_SIZE, SANS_FONT, glyph_font

    glyphs = glyph_font(SANS_FONT)
    # A "1" stands flat on the baseline (a "0" dips a little under it).
    flat, _, _ = glyphs.points_for("1")
    scale = words.font_size / REFERENCE_FONT_SIZE * words.height / words.natural_height
    points = words.points[:, 1]
    order = np.sort(points)
    # Lines are far apart: cut the outline where its heights jump by a third of a digit.
    jump = 0.3 * glyphs.digit_height * scale
    cuts = [float(a + b) / 2 for a, b in itertools.pairwise(order) if b - a > jump]
    bands = [-np.inf, *sorted(cuts), np.inf]
    baselines = []
    for line, (low, high) in zip(reversed(lines), itertools.pairwise(bands), strict=True):
        plain = line
        for formula in maths:
            plain = plain.replace(formula, "")
        reference, _, _ = glyphs.points_for(plain)
        drawn = points[(points > low) & (points < high)]
        centre = float(drawn.mean()) - float(reference[:, 1].mean()) * scale
        baselines.append(centre + float(flat[:, 1].min()) * scale)
    return baselines[::-1]


CASES = [("TrainingNudge", "update", DARK), ("TrainingNudge", "update", LIGHT)]
CASES += [("OneHotEquivalence", "compare", LIGHT)]


@pytest.mark.parametrize(
    ("scene", "beat", "theme"), CASES, ids=["training-dark", "training-light", "one-hot-light"]
)
def test_the_captions_maths_is_typeset_coloured_and_on_the_baseline(
    scene: str, beat: str, theme: Any
) -> None:
    from manim import config

    from embedviz.render.formula import FormulaText
    from embedviz.render.glyphs import SANS_FONT, glyph_font
    from embedviz.render.layout import frame_regions
    from embedviz.story.phrases import caption_lines

    px = 720 / float(config.frame_height)
    seen = _captions_seen(scene, beat, theme)
    expected = DRAWN[(scene, beat)]
    written = {"E[3]", "one_hot(3)", "E", f"E ← E − {LR} · ∂L/∂E"}
    typeset: set[str] = set()
    for text, caption in seen.items():
        words = caption[0]
        formulas = [m for m in caption.get_family() if isinstance(m, FormulaText)]
        typeset |= {f.text for f in formulas}
        # The caption keeps its text and its balanced lines, and stays in its width.
        assert caption.lines == caption_lines(text)
        assert words.original_text == "\n".join(caption.lines)
        assert caption.width <= frame_regions().caption_width + 1e-6
        assert abs(float(caption.get_center()[0])) < 1e-6
        lines = list(caption.lines)
        found = [w for w in written if any(w in line for line in lines)]
        baselines = _baselines(words, lines, sorted(found, key=len, reverse=True))
        sans = glyph_font(SANS_FONT)
        # Pixels per unit of the glyph cache's outlines, and where its "1" stands.
        size = words.font_size / 48 * px
        base = float(sans.points_for("1")[0][:, 1].min())
        for formula in formulas:
            colours, on_base, digits = expected[formula.text]
            glyphs = formula.submobjects
            drawn = [g.get_fill_color().to_hex().lower() for g in glyphs]
            assert drawn == [getattr(theme, c).lower() for c in colours], formula.text
            line = min(range(len(lines)), key=lambda i: abs(baselines[i] - formula.get_bottom()[1]))
            for index in on_base:
                bottom = float(glyphs[index].get_bottom()[1])
                assert abs(bottom - baselines[line]) * px < 0.6, (formula.text, index)
            # Each digit is as tall as the words' same digit (a "0" 20.8 px at 720p, a
            # "2" 20.4 px: it has no round foot), and stands as high above the baseline.
            for index, char in digits.items():
                outline = sans.points_for(char)[0][:, 1]
                low, high = float(outline.min()), float(outline.max())
                height = glyphs[index].height * px
                assert abs(height - (high - low) * size) < 0.6, (formula.text, index)
                middle = float(glyphs[index].get_center()[1]) - baselines[line]
                wanted = ((high + low) / 2 - base) * size
                assert abs(middle * px - wanted) < 0.6, (formula.text, index)
    assert typeset == set(expected)


def test_a_formula_broken_over_two_lines_is_typeset_on_both() -> None:
    """A formula too long for one line (``V × d = 50,257 × 768 / = 38,597,376 = ...``).

    A line opens on an operator only where nothing else fits (ParameterCount's
    own narration no longer does); where one must, each line's part is typeset.
    """
    from embedviz.render.formula import FormulaText
    from embedviz.render.layout import frame_regions
    from embedviz.render.parts.captions import Caption

    text = "So V × d = 50,257 × 768 = 38,597,376 = 2 × 19,298,688."
    caption = Caption(text, frame_regions().caption_width, theme=LIGHT)
    assert caption.lines == ("So V × d = 50,257 × 768", "= 38,597,376 = 2 × 19,298,688.")
    formulas = [m for m in caption.get_family() if isinstance(m, FormulaText)]
    assert [f.text for f in formulas] == [
        'V times d = 50","257 times 768',
        '= 38","597","376 = 2 times 19","298","688',
    ]
    assert formulas[1].get_top()[1] < formulas[0].get_bottom()[1]  # on the second line


def test_without_a_theme_the_caption_text_sets_its_maths_as_words() -> None:
    from embedviz.render.formula import FormulaText
    from embedviz.render.parts.captions import CaptionText

    plain = CaptionText("The lookup E[3] copies row 3.", 22, DARK.text)
    typeset = CaptionText("The lookup E[3] copies row 3.", 22, DARK.text, DARK)
    assert not [m for m in plain.get_family() if isinstance(m, FormulaText)]
    assert [m.text for m in typeset.get_family() if isinstance(m, FormulaText)] == ["E[3]"]
    # The words are the same either way, less the maths; the text reads the same.
    assert plain.original_text == typeset.original_text == "The lookup E[3] copies row 3."


@pytest.mark.parametrize("text", ["with its weight wₜ.", "two contributions, w₀ + w₂."])
def test_a_typeset_subscript_keeps_the_12_px_floor(text: str) -> None:
    """Typst sets ``w_t``'s t at script size: still at least 12 px tall at 720p."""
    from manim import config

    from embedviz.render.formula import FormulaText
    from embedviz.render.layout import frame_regions
    from embedviz.render.parts.captions import Caption

    px = 720 / float(config.frame_height)
    caption = Caption(text, frame_regions().caption_width)
    (formula,) = [m for m in caption.get_family() if isinstance(m, FormulaText)]
    assert formula.text.startswith("w_")
    assert min(glyph.height for glyph in formula.submobjects) * px >= 12.0


@pytest.mark.parametrize(
    "text", ["so E ← E − 0.5 · E", "one_hot(3) times E equals E[3]", "E holds V × d"]
)
def test_typeset_maths_carries_as_much_ink_as_the_words_would(text: str) -> None:
    """A 720p review: the caption's serif maths read thinner than the sans words beside it.

    The same text is drawn twice, once with its maths typeset (in the text
    colour: these formulas name E only) and once as plain sans words, and the
    ink each leaves on a dark frame is summed from rendered pixels: the
    typeset one carries at least 95 % of the words' ink (New Computer Modern
    alone gave 79-93 %), and not so much more that it reads bold.
    """
    from manim import Scene, tempconfig

    from embedviz.render.parts.captions import CaptionText

    def ink(theme: Any) -> float:
        class Shown(Scene):
            def construct(self) -> None:
                self.add(CaptionText(text, 22, DARK.text, theme).move_to([0, 0, 0]))

        with tempconfig({"dry_run": True, "pixel_width": 1280, "pixel_height": 720}):
            scene = Shown()
            scene.render()
            grey = scene.renderer.get_frame()[:, :, :3].astype(float).mean(axis=2)
        return float((grey - grey[0, 0]).clip(0).sum())

    ratio = ink(DARK) / ink(None)
    assert 0.95 <= ratio <= 1.3, ratio
