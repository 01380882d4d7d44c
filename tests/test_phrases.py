"""Narration split into phrases: caption cues that fit and are held long enough to read."""

from __future__ import annotations

import itertools
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from embedviz.inputs import prepared_storyboard
from embedviz.story.phrases import (
    CAPTION_WIDTH,
    caption_lines,
    ceil_ticks,
    make_phrases,
    reading_seconds,
    rephrased,
    split_phrases,
    with_pronunciations,
)
from embedviz.story.scenes import SCENES


def _lines(text: str, width: int = 42) -> list[str]:
    # An independent greedy wrap (the oracle for the cue limits).
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def test_a_long_sentence_splits_at_its_clauses() -> None:
    text = (
        "4 token IDs go in, and each becomes a vector of 3 values. Predict before we look: "
        "how many rows will the output have, and how many values in each row?"
    )
    # The question stays whole after its colon, rather than a comma leaving
    # "and how many values in each row?" on its own.
    assert split_phrases(text) == (
        "4 token IDs go in, and each becomes a vector of 3 values.",
        "Predict before we look:",
        "how many rows will the output have, and how many values in each row?",
    )


def test_indexing_is_never_split_across_cues() -> None:
    text = "Each 0 × E[k, 0] is exactly 0, so only 1 × E[3, 0] is left: the sum is row 3."
    for phrase in split_phrases(text):
        assert phrase.count("[") == phrase.count("]")


def test_reading_time_is_fifteen_characters_a_second_plus_a_pause() -> None:
    phrase = "x" * 60
    assert reading_seconds(phrase) == pytest.approx(60 / 15 + 0.4)
    assert reading_seconds("Yes.") == pytest.approx(1.0 + 0.4)  # no cue flashes by


_words = st.text(alphabet="abcdefghij,.:;?", min_size=1, max_size=12)


@given(st.lists(_words, min_size=1, max_size=60))
def test_phrases_fit_two_lines_and_give_back_the_narration(words: list[str]) -> None:
    narration = " ".join(words)
    phrases = split_phrases(narration)
    assert " ".join(phrases) == narration
    for phrase in phrases:
        assert len(_lines(phrase)) <= 2
        assert all(len(line) <= 42 for line in _lines(phrase))


@given(st.floats(min_value=0, max_value=1000, allow_nan=False))
def test_ticks_round_up(seconds: float) -> None:
    ticks = ceil_ticks(seconds)
    assert ticks >= seconds - 1e-6
    assert ticks - seconds < 0.2 + 1e-6
    assert abs(ticks * 5 - round(ticks * 5)) < 1e-6


@pytest.mark.parametrize("scene", list(SCENES))
def test_every_beat_holds_its_phrases_and_records_their_timing(scene: str, tmp_path: Path) -> None:
    board = prepared_storyboard(scene, cwd=tmp_path, environ={})
    for beat in board.all_beats():
        if not beat.narration:
            assert beat.phrases == ()
            continue
        assert " ".join(p.text for p in beat.phrases) == " ".join(beat.narration.split())
        assert beat.phrases[0].start == 0
        for before, after in itertools.pairwise(beat.phrases):
            assert after.start == pytest.approx(before.start + before.duration, abs=1e-3)
        for phrase in beat.phrases:
            assert len(_lines(phrase.text)) <= 2
            assert all(len(line) <= 42 for line in _lines(phrase.text))
            # Held at least as long as reading at 15 characters a second, plus a pause.
            assert phrase.duration >= len(phrase.text) / 15 + 0.3
            assert phrase.spoken
        assert beat.duration >= sum(p.duration for p in beat.phrases) - 1e-6
        assert beat.duration >= beat.run_time


def test_storyboard_json_records_written_and_spoken_forms(tmp_path: Path) -> None:
    board = prepared_storyboard("OneHotEquivalence", cwd=tmp_path, environ={})
    data = board.to_dict()
    phrases = [p for beat in data["beats"] for p in beat["phrases"]]
    assert any(
        p["text"] == "The lookup E[3] copies row 3 directly."
        and p["spoken"] == "The lookup row 3 of E copies row 3 directly."
        for p in phrases
    )


def test_rephrased_stretches_beats_to_longer_phrases_only(tmp_path: Path) -> None:
    board = prepared_storyboard("SingleTokenLookup", cwd=tmp_path, environ={})
    holds = [[p.duration * 2 for p in beat.phrases] for beat in board.beats]
    longer = rephrased(board, holds)
    for old, new, times in zip(board.beats, longer.beats, holds, strict=True):
        assert [p.duration for p in new.phrases] == pytest.approx(times, abs=1e-3)
        assert new.duration >= max(old.duration, sum(times) - 1e-6)
        assert abs(new.duration * 5 - round(new.duration * 5)) < 1e-6
    shorter = rephrased(board, [[0.5 for _ in beat.phrases] for beat in board.beats])
    assert [b.duration for b in shorter.beats] == [b.duration for b in board.beats]
    with pytest.raises(ValueError, match="holds"):
        rephrased(board, [[1.0] for _ in board.beats])


def test_make_phrases_takes_given_holds() -> None:
    phrases = make_phrases("One. Two.", str.upper, holds=[1.5, 2.0])
    assert [(p.text, p.spoken, p.start, p.duration) for p in phrases] == [
        ("One.", "ONE.", 0.0, 1.5),
        ("Two.", "TWO.", 1.5, 2.0),
    ]


def test_an_author_can_correct_a_pronunciation(tmp_path: Path) -> None:
    board = prepared_storyboard("OneHotEquivalence", cwd=tmp_path, environ={})
    fixed = with_pronunciations(board, {"GPT-2": "G P T two", "E[3]": "E three"})
    pairs = [
        (old, new)
        for a, b in zip(board.beats, fixed.beats, strict=True)
        for old, new in zip(a.phrases, b.phrases, strict=True)
    ]
    changed = [(old.text, new.spoken) for old, new in pairs if old != new]
    assert (
        "V \u00d7 d per token, tens of millions for GPT-2, mostly times zero.",
        "V by d per token, tens of millions for G P T two, mostly times zero.",
    ) in changed
    assert (
        "The lookup E[3] copies row 3 directly.",
        "The lookup E three copies row 3 directly.",
    ) in changed
    for old, new in pairs:
        assert (new.text, new.start, new.duration) == (old.text, old.start, old.duration)
    assert with_pronunciations(board, {}) is board


def test_a_list_of_numbers_is_never_broken_across_cues() -> None:
    narration = (
        "Here P is sinusoidal: column 2i holds sin(pos / 10000^(2i/d)) and column 2i+1 "
        "its cosine, so row 0 is 0, 1, 0, -1, 0."
    )
    phrases = split_phrases(narration)
    assert " ".join(phrases) == narration
    assert any(phrase.endswith("row 0 is 0, 1, 0, -1, 0.") for phrase in phrases)
    # No cue starts or ends between two numbers of the list.
    for left, right in itertools.pairwise(phrases):
        assert not (left[-2:-1].isdigit() and left.endswith(",") and right[:1].isdigit())


def test_a_long_clause_breaks_before_a_conjunction_before_between_words() -> None:
    narration = (
        "GPT-2's embedding table has one row per vocabulary entry and one column per "
        "dimension: 50,257 rows of 768 numbers each."
    )
    phrases = split_phrases(narration)
    assert phrases[0] == "GPT-2's embedding table has one row per vocabulary entry"
    assert phrases[1].startswith("and one column per dimension")


def test_caption_lines_are_balanced() -> None:
    # Greedy wrapping would leave "3." alone on the second line; and "the" (or
    # "are") leans on "embedding": a line ending in it reads as cut off.
    assert caption_lines("Those 3 numbers are the embedding of token 3.") == (
        "Those 3 numbers",
        "are the embedding of token 3.",
    )
    # A number stays with the word before it.
    assert caption_lines("The two copies of ID 2 are no longer equal.") == (
        "The two copies of ID 2",
        "are no longer equal.",
    )


@given(st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=9), min_size=2, max_size=14))
def test_caption_lines_never_leave_a_word_alone(words: list[str]) -> None:
    lines = caption_lines(" ".join(words))
    assert " ".join(lines) == " ".join(words)
    assert all(len(line) <= 42 for line in lines)
    if len(lines) > 1:
        assert all(len(line.split()) >= 2 for line in lines), lines
    # Balanced: no line is more than its share plus a word longer than another.
    assert max(map(len, lines)) - min(map(len, lines)) <= 2 * 9 + 1 or len(lines) > 2


def test_a_caption_line_does_not_end_on_a_word_that_leans_on_the_next() -> None:
    # The frame review's cue: "do the / same" read as two fragments. (Either
    # "IDs / do" or the comma after "same" is a fine break; neither splits "the same".)
    lines = caption_lines("The other three IDs do the same, one after another.")
    assert len(lines) == 2
    assert any("do the same" in line for line in lines), lines
    assert caption_lines("Even columns hold sines of the position, and odd columns cosines.") == (
        "Even columns hold sines of the position,",
        "and odd columns cosines.",
    )
    # Punctuation ends a phrase: "same:" may end a line.
    assert caption_lines("The other 2 IDs do the same: each row lands beside its ID.") == (
        "The other 2 IDs do the same:",
        "each row lands beside its ID.",
    )


_OPERATORS = ("=", "\u00d7", "+", "\u2192", "\u2190", "\u2212", "\u00b7")


def _ends_on_an_operator(lines: tuple[str, ...] | list[str]) -> bool:
    """Whether a line but the last ends with an operator ("E holds V × d =": the oracle)."""
    return any(line.split()[-1] in _OPERATORS for line in lines[:-1])


def _opens_on_an_operator(lines: tuple[str, ...] | list[str]) -> bool:
    """Whether a line but the first opens with an operator ("= 38,597,376 of them.": the oracle)."""
    return any(line.split()[0] in _OPERATORS for line in lines[1:])


def test_a_caption_line_never_ends_or_opens_on_an_operator() -> None:
    # A 720p frame review (ParameterCount, count · end): "E holds V × d =" / "50,257 ...";
    # a later one: "E holds V × d = 50,257 × 768" / "= 38,597,376 of them." Either way
    # one side of the "=" is cut off from the other.
    lines = caption_lines("E holds V × d = 50,257 × 768 = 38,597,376 of them.")
    assert not _ends_on_an_operator(lines), lines
    assert not _opens_on_an_operator(lines), lines
    assert " ".join(lines) == "E holds V × d = 50,257 × 768 = 38,597,376 of them."
    assert _ends_on_an_operator(("E holds V × d =", "50,257 × 768 = 38,597,376 of them."))
    assert not _ends_on_an_operator(("E holds V × d", "= 50,257"))
    assert _opens_on_an_operator(("E holds V × d = 50,257 × 768", "= 38,597,376 of them."))
    assert not _opens_on_an_operator(("E holds V × d of them:", "50,257 × 768 = 38,597,376."))


@given(
    st.lists(
        st.one_of(
            st.sampled_from(["E", "holds", "the", "rows", "of", "ID", "values"]),
            st.integers(0, 99999).map(str),
            st.sampled_from(_OPERATORS),
        ),
        min_size=2,
        max_size=16,
    )
)
def test_no_caption_line_ends_on_an_operator(words: list[str]) -> None:
    lines = caption_lines(" ".join(words))
    assert " ".join(lines) == " ".join(words)
    assert not _ends_on_an_operator(lines), lines


@given(
    st.lists(
        st.one_of(
            # Words that lean on nothing: the oracle below need not know the rule's lists.
            st.sampled_from(["E", "holds", "ID", "matrix", "copies"]),
            st.integers(0, 99999).map(str),
            st.sampled_from(_OPERATORS),
        ),
        min_size=2,
        max_size=16,
    )
)
def test_no_caption_line_opens_on_an_operator_where_another_cut_fits(words: list[str]) -> None:
    lines = caption_lines(" ".join(words))
    # Whenever some cut into as many lines fits, leaves no word alone and neither
    # ends nor opens a line on an operator (plain enumeration: the oracle), the
    # chosen one opens none on an operator either.
    cuts = [
        [" ".join(words[a:b]) for a, b in itertools.pairwise([0, *edges, len(words)])]
        for edges in itertools.combinations(range(1, len(words)), len(lines) - 1)
    ]
    if any(
        all(len(line) <= CAPTION_WIDTH and len(line.split()) >= 2 for line in cut)
        and not _ends_on_an_operator(cut)
        and not _opens_on_an_operator(cut)
        for cut in cuts
    ):
        assert not _opens_on_an_operator(lines), lines


def _splits_a_list(lines: tuple[str, ...] | list[str]) -> bool:
    """Whether a line ends inside a list of numbers ("Rows 1," / "2, 4820, ...": the oracle)."""
    return any(
        re.fullmatch(r"-?\d+(\.\d+)?,", line.split()[-1]) is not None
        and re.match(r"-?\d", after) is not None
        for line, after in itertools.pairwise(lines)
    )


def test_a_caption_line_does_not_end_inside_a_list_of_numbers() -> None:
    # The frame review (issue 18): GPT-2's dim beat showed "Rows 1," alone on a line.
    assert caption_lines("Rows 1, 2, 4820, 4822, 50255 were not selected.") == (
        "Rows 1, 2, 4820, 4822, 50255",
        "were not selected.",
    )
    assert _splits_a_list(("Rows 1,", "2, 4820 were not selected."))
    assert not _splits_a_list(("Rows 1, 2", "were not selected."))


@given(
    st.lists(st.integers(0, 99999), min_size=2, max_size=6),
    st.lists(st.sampled_from(["rows", "were", "not", "selected", "by", "any", "ID"]), max_size=5),
)
def test_a_list_of_numbers_stays_on_one_line_whenever_it_fits(
    numbers: list[int], tail: list[str]
) -> None:
    text = " ".join(["Rows", ", ".join(map(str, numbers)), *tail])
    lines = caption_lines(text)
    assert " ".join(lines) == text
    # Whenever some break into as many lines fits, leaves no word alone and keeps the
    # list whole (plain enumeration), the chosen one keeps it whole too.
    whole = [
        cut
        for cut in _breaks(text.split(), len(lines))
        if all(len(line) <= 42 and len(line.split()) >= 2 for line in cut)
        and not _splits_a_list(cut)
    ]
    if whole:
        assert not _splits_a_list(lines), (lines, whole[0])


# Words a line may not end on when another break fits (the oracle's own list, a
# subset of the rule's: articles, prepositions, auxiliaries).
_LEANING = ["the", "a", "of", "to", "in", "do", "is", "its", "and"]
_CONTENT = ["row", "matrix", "vector", "IDs", "column", "value", "copy", "lands", "token"]


def _breaks(words: list[str], count: int) -> list[list[str]]:
    """Every way to cut ``words`` into ``count`` lines (the oracle: plain enumeration)."""
    found = []
    for cuts in itertools.combinations(range(1, len(words)), count - 1):
        edges = [0, *cuts, len(words)]
        found.append([" ".join(words[a:b]) for a, b in itertools.pairwise(edges)])
    return found


@given(st.lists(st.sampled_from(_LEANING + _CONTENT), min_size=3, max_size=12), st.integers(12, 30))
# Hypothesis found it on a fresh CI run: "the the / token row the" was taken for
# "the the token / row the", as if splitting "token row" were as bad as ending on "the".
@example(["the", "the", "token", "row", "the"], 13)
def test_caption_lines_avoid_a_leaning_end_whenever_another_break_fits(
    words: list[str], width: int
) -> None:
    lines = caption_lines(" ".join(words), width)
    assert " ".join(lines) == " ".join(words)

    def fine(cut: list[str]) -> bool:
        fits = all(len(line) <= width for line in cut)
        not_alone = len(cut) == 1 or all(len(line.split()) >= 2 for line in cut)
        return fits and not_alone

    def leaning(cut: list[str]) -> bool:
        return any(line.split()[-1] in _LEANING for line in cut[:-1])

    better = [cut for cut in _breaks(words, len(lines)) if fine(cut) and not leaning(cut)]
    if better and fine(list(lines)):
        assert not leaning(list(lines)), (lines, better[0])


def test_a_line_ends_on_a_leaning_word_only_after_every_other_bad_break() -> None:
    # A line that ends on "the" reads as cut off; one that splits the two-word
    # noun "token / row" still ends on a word of its own. Where only these two
    # breaks fit in 13 characters, the leaning end goes.
    assert caption_lines("the the token row the", 13) == ("the the token", "row the")
    # A word alone on a line is worse still: "matrix / of the row" would avoid the
    # leaning end only by leaving "matrix" alone.
    assert caption_lines("matrix of the row", 12) == ("matrix of", "the row")


# An independent list of words that open a clause of their own.
_OPENERS = {"and", "or", "but", "so", "because", "which", "while", "then", "where", "when"}


def _fragments(board_phrases: list[str]) -> list[str]:
    """Cues that continue a sentence after a comma or mid-clause (the oracle)."""
    found = []
    for before, after in itertools.pairwise(board_phrases):
        if before.endswith((".", "?", "!")):
            continue  # a new sentence
        if before.endswith((":", ";")) or after.split()[0] in _OPENERS:
            continue  # a whole clause
        found.append(after)
    return found


def _cases() -> list[tuple[str, dict[str, str]]]:
    cases = [(scene, {}) for scene in SCENES]
    cases += [(scene, example) for scene, spec in SCENES.items() for example in spec.examples]
    return cases


@pytest.mark.parametrize(
    ("scene", "options"), _cases(), ids=[f"{s}-{sorted(o.items())}" for s, o in _cases()]
)
def test_no_cue_line_is_a_lone_word_and_no_cue_is_a_trailing_fragment(
    scene: str, options: dict[str, str], tmp_path: Path
) -> None:
    board = prepared_storyboard(scene, options or None, cwd=tmp_path, environ={})
    for beat in board.all_beats():
        texts = [p.text for p in beat.phrases]
        assert not _fragments(texts), (beat.name, _fragments(texts))
        for text in texts:
            lines = caption_lines(text)
            if len(text.split()) > 1:
                assert all(len(line.split()) >= 2 for line in lines), (beat.name, lines)
            assert not _splits_a_list(lines), (beat.name, lines)
            assert not _ends_on_an_operator(lines), (beat.name, lines)


# A cue may open in lower case only with code (grad_fn=<...>, one_hot(3)).
_CODE = re.compile(r"[_(<=\[]")
# Plain-text maths a caption must not show: an exponent, or a subscript written
# with an underscore after one letter or "id" (w_t, e_t, id_t).
_PLAIN_MATHS = re.compile(r"\^|\b(?:[A-Za-z]|id)_\w")


def _not_alone(text: str) -> bool:
    """Whether a cue cannot read alone: it opens in lower case with a word that is not code."""
    first = text.split()[0]
    return first[0].islower() and not _CODE.search(first)


def test_the_cue_checks_can_fail() -> None:
    assert _not_alone("and fetches the wrong vector.")
    assert not _not_alone("grad_fn=<EmbeddingBackward0> is metadata.")
    assert not _not_alone("That fetches the wrong vector.")
    assert _PLAIN_MATHS.search("adds up w_t · e_t over the positions")
    assert _PLAIN_MATHS.search("Column 2i holds sin(pos / 10000^(2i/d))")
    assert not _PLAIN_MATHS.search("its weight wₜ, and grad_fn=<EmbeddingBackward0>")


@pytest.mark.parametrize(
    ("scene", "options"), _cases(), ids=[f"{s}-{sorted(o.items())}" for s, o in _cases()]
)
def test_every_cue_reads_alone_as_prose(
    scene: str, options: dict[str, str], tmp_path: Path
) -> None:
    """Issue 18: a cue is a whole phrase (a sentence or clause that reads alone, so it opens
    as a sentence does) and its maths is prose or Unicode, never w_t or 10000^(2i/d)."""
    board = prepared_storyboard(scene, options or None, cwd=tmp_path, environ={})
    for beat in board.all_beats():
        for phrase in beat.phrases:
            assert not _not_alone(phrase.text), (beat.name, phrase.text)
            assert not _PLAIN_MATHS.search(phrase.text), (beat.name, phrase.text)


def _caption_font() -> Any:
    """DejaVu Sans (the captions' font) through FreeType, or None where fontconfig is missing."""
    from PIL import ImageFont

    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{file}", "DejaVu Sans"], capture_output=True, text=True
        )
    except FileNotFoundError:
        return None
    return ImageFont.truetype(found.stdout, 48) if found.stdout else None


def test_every_cue_character_is_in_the_caption_font() -> None:
    """Unicode maths (wₜ, ∂, ←) is drawn, not shown as a missing-glyph box."""
    from PIL import Image, ImageDraw

    font = _caption_font()
    if font is None:
        pytest.skip("no fontconfig to find DejaVu Sans")

    def drawn(char: str) -> bytes:
        image = Image.new("L", (96, 96))
        ImageDraw.Draw(image).text((8, 8), char, font=font, fill=255)
        return image.tobytes()

    missing = drawn("\ue000")  # a private-use code point: the .notdef box
    assert drawn("\u209c") != missing  # the check tells a glyph from none
    used = {
        char
        for scene in SCENES
        for beat in prepared_storyboard(scene, None, environ={}).all_beats()
        for phrase in beat.phrases
        for char in phrase.text
        if ord(char) > 127
    }
    absent = sorted(c for c in used if drawn(c) == missing)
    assert not absent, absent
