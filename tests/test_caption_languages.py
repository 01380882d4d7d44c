"""Caption lines in the storyboard's language: no line ends on a word that leans on the next.

Issue 18: "line breaks are balanced, with no single word alone on a line". A
French or German line that ends on "de", "une", "der" or "und" reads as cut off
just as an English "the" does; and French typography never starts a line with
the "?", ":" or "»" it sets off with a space.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from embedviz.export.documents import captions_vtt
from embedviz.story.contract import load_storyboard
from embedviz.story.leaning import leaning_for
from embedviz.story.phrases import caption_lines, split_phrases

REPO = Path(__file__).resolve().parent.parent

# The oracle's own lists (subsets of the rule's): articles, prepositions and
# conjunctions, as a grammar names them, and French words elided into one.
_LEANING = {
    "fr": ["le", "la", "les", "une", "de", "du", "des", "et", "que", "dans", "d'une", "qu'un"],
    "de": ["der", "die", "das", "eine", "einer", "und", "zu", "mit", "von", "jede", "ist", "wird"],
}
_CONTENT = {
    "fr": ["ligne", "matrice", "vecteur", "valeurs", "colonne", "copie", "l'ID", "d'entrée"],
    "de": ["Zeile", "Matrix", "Vektor", "Werte", "Spalte", "Kopie", "Eingabe", "landet"],
}
# Tags that look a list up (RFC 4647): a region or a variant falls back to the language.
_TAGS = {"fr": ["fr", "fr-CA", "FR-ca", "fr_BE"], "de": ["de", "de-AT", "de-CH-1996"]}


def _cuts(words: list[str], count: int) -> list[list[str]]:
    """Every way to cut ``words`` into ``count`` lines (the oracle: plain enumeration)."""
    found = []
    for cuts in itertools.combinations(range(1, len(words)), count - 1):
        edges = [0, *cuts, len(words)]
        found.append([" ".join(words[a:b]) for a, b in itertools.pairwise(edges)])
    return found


def _fine(cut: list[str], width: int) -> bool:
    fits = all(len(line) <= width for line in cut)
    return fits and (len(cut) == 1 or all(len(line.split()) >= 2 for line in cut))


def _leaning(cut: list[str], language: str) -> bool:
    return any(line.split()[-1].lower() in _LEANING[language] for line in cut[:-1])


_language = st.sampled_from(["fr", "de"])


@given(
    _language.flatmap(
        lambda language: st.tuples(
            st.just(language),
            st.sampled_from(_TAGS[language]),
            st.lists(
                st.sampled_from(_LEANING[language] + _CONTENT[language]), min_size=3, max_size=11
            ),
        )
    ),
    st.integers(12, 30),
)
def test_french_and_german_lines_avoid_a_leaning_end_whenever_another_break_fits(
    case: tuple[str, str, list[str]], width: int
) -> None:
    language, tag, words = case
    lines = caption_lines(" ".join(words), width, tag)
    assert " ".join(lines) == " ".join(words)
    better = [
        cut for cut in _cuts(words, len(lines)) if _fine(cut, width) and not _leaning(cut, language)
    ]
    if better and _fine(list(lines), width):
        assert not _leaning(list(lines), language), (tag, lines, better[0])


@given(
    st.sampled_from(["it", "nl", "pt-BR", "x-klingon"]),
    st.lists(
        st.sampled_from(["the", "of", "and", "row", "matrix", "vector", "IDs", "column"]),
        min_size=3,
        max_size=11,
    ),
    st.integers(12, 30),
)
def test_a_language_without_a_list_gets_only_the_balanced_breaks(
    tag: str, words: list[str], width: int
) -> None:
    # English words in an Italian caption are names, not function words: the
    # most balanced break wins, whatever word ends a line.
    lines = caption_lines(" ".join(words), width, tag)
    assert " ".join(lines) == " ".join(words)
    fine = [cut for cut in _cuts(words, len(lines)) if _fine(cut, width)]
    if fine:
        assert _fine(list(lines), width), lines
        assert max(map(len, lines)) == min(max(map(len, cut)) for cut in fine), lines


# French typography: a space (often a non-breaking one) before ? ! : ; and
# inside « », and elided words written against the next one.
_NBSP, _NNBSP = "\u00a0", "\u202f"
_CLOSING = {"?", "!", ":", ";", "»"}
_OPENING = {"«", "l'", "qu'"}


@given(
    st.lists(
        st.tuples(
            st.sampled_from(
                ["valeurs", "ligne", "la", "sortie", "embedding", *_CLOSING, *_OPENING]
            ),
            st.sampled_from([" ", " ", _NBSP, _NNBSP]),
        ),
        min_size=1,
        max_size=14,
    ),
    st.sampled_from(["fr", "fr-CA", "en", "it"]),
    st.integers(12, 42),
)
def test_french_punctuation_and_guillemets_stay_with_their_words(
    pieces: list[tuple[str, str]], tag: str, width: int
) -> None:
    text = "mot" + "".join(space + word for word, space in pieces)
    lines = caption_lines(text, width, tag)
    # No break at a non-breaking space: joining with spaces gives the text back.
    assert " ".join(lines) == text
    for line in lines[1:]:
        assert line.split(" ")[0] not in _CLOSING, lines
    for line in lines[:-1]:
        assert line.split(" ")[-1] not in _OPENING, lines
    cues = split_phrases(text)
    assert " ".join(cues) == text
    assert all(cue.split(" ")[0] not in _CLOSING for cue in cues), cues
    assert all(cue.split(" ")[-1] not in _OPENING for cue in cues[:-1]), cues


def test_a_long_sentence_splits_before_a_conjunction_of_its_language() -> None:
    narration = (
        "Die ID 3 wählt Zeile 3 aus; die Kopie landet in Ausgabezeile 1, "
        "und die Reihenfolge der Eingabe bleibt erhalten."
    )
    for tag in ("de", "de-AT"):
        cues = split_phrases(narration, tag)
        assert cues[-1] == "und die Reihenfolge der Eingabe bleibt erhalten.", cues
        assert not _fragments(list(cues), "de"), cues
    narration = (
        "Chaque ligne de sortie reçoit la ligne de la matrice que son ID désigne, "
        "et l'ordre des IDs d'entrée est conservé jusqu'à la fin."
    )
    cues = split_phrases(narration, "fr-CA")
    assert cues[-1].startswith("et l'ordre"), cues


def test_leaning_words_are_chosen_by_language_tag_lookup() -> None:
    assert leaning_for("fr-CA").leans("le")
    assert leaning_for("de-AT").leans("Der")
    assert not leaning_for("en").leans("der")
    assert not leaning_for("de").leans("the")
    # An elided word leans as the word it makes: "d'une" as "une", "l'ID" not.
    assert leaning_for("fr").leans("d\u2019une")
    assert leaning_for("fr").leans("qu'un")
    assert not leaning_for("fr").leans("l'ID")
    assert not leaning_for("fr").leans("d'entrée")
    assert not leaning_for("en").leans("students'")
    assert not leaning_for("pt-BR").leans("de")
    # German pronouns lean on their verb as French clitics do; "sich" may end a clause.
    assert all(leaning_for("de").leans(word) for word in ("er", "Sie", "wir", "man", "ihm"))
    assert not leaning_for("de").leans("sich")


def test_a_german_line_does_not_end_on_a_pronoun() -> None:
    """A pronoun goes down with its verb ("und wir | lesen" read as cut off)."""
    pronouns = {"ich", "du", "er", "sie", "es", "wir", "man"}
    cases = [
        ("Am Ende hat die Ausgabe vier Zeilen, und wir lesen jede davon ab.", range(27, 34)),
        ("Das Modell lernt die Werte, und man sieht nur, welche Zeile es gerade liest.", [42]),
    ]
    for text, widths in cases:
        for width in widths:
            lines = caption_lines(text, width, "de")
            assert len(lines) > 1
            assert all(line.split(" ")[-1] not in pronouns for line in lines[:-1]), lines


def _vtt_cues(vtt: str) -> list[list[str]]:
    """The cue texts of a WebVTT file, each as its lines (read back, not rebuilt)."""
    cues = []
    for block in vtt.strip().split("\n\n")[1:]:
        lines = block.split("\n")
        timing = next(number for number, line in enumerate(lines) if "-->" in line)
        cues.append(lines[timing + 1 :])
    return cues


# Cues of the shipped translations, each broken as a reader expects: the
# article, preposition or conjunction goes down with its words.
_EXPECTED = {
    "fr": [
        ["une ligne par entrée du vocabulaire,", "une colonne par dimension de l'embedding."],
        # "numéro de ligne" is one noun ("row number"): the comma is the phrase's end.
        ["L'ID 2 est un numéro de ligne,", "pas une quantité."],
        ["Chaque dimension de l'embedding", "donne une colonne."],
        ["combien de lignes aura la sortie,", "et combien de valeurs dans chaque ligne ?"],
    ],
    "de": [
        ["eine Zeile für jeden Eintrag", "des Vokabulars,"],
        ["Die ID 2 ist eine Zeilennummer", "und keine Menge."],
        ["Wie viele Zeilen hat die Ausgabe,", "und wie viele Werte stehen in jeder Zeile?"],
        ["und die Reihenfolge", "der Eingabe bleibt erhalten."],
    ],
}

# The oracle's conjunctions that open a clause: a cue may start with one.
_OPENERS = {
    "fr": {"et", "ou", "mais", "donc", "car", "quand"},
    "de": {"und", "oder", "aber", "weil"},
}


def _fragments(cues: list[str], language: str) -> list[str]:
    """Cues that continue a sentence after a comma or mid-clause (the oracle)."""
    found = []
    listing = False  # within a list that a colon opened ("6 × 3 Werten: eine Zeile …, eine …")
    for before, after in itertools.pairwise(cues):
        listing = (listing or ":" in before) and not before.endswith((".", "?", "!"))
        if before.endswith((".", "?", "!", ":", ";")) or after.split()[0] in _OPENERS[language]:
            continue  # a new sentence, or a whole clause
        if listing and before.endswith(","):
            continue  # the list's next item
        found.append(after)
    return found


def test_the_translated_examples_captions_end_no_line_on_a_leaning_word() -> None:
    for language, expected in _EXPECTED.items():
        board = load_storyboard(REPO / "examples" / f"SequenceLookup.{language}.json")
        assert board.language == language
        cues = _vtt_cues(captions_vtt(board))
        for cue in expected:
            assert cue in cues, (language, cue)
        # A cue is a whole phrase: a long sentence splits before its conjunction.
        for beat in board.beats:
            texts = [phrase.text for phrase in beat.phrases]
            assert not _fragments(texts, language), (language, beat.name, texts)
        for lines in cues:
            words = " ".join(lines).split()
            better = [
                cut
                for cut in _cuts(words, len(lines))
                if _fine(cut, 42) and not _leaning(cut, language)
            ]
            if better:
                assert not _leaning(lines, language), (language, lines, better[0])


def test_the_burned_in_caption_breaks_lines_in_the_storyboards_language(tmp_path: Path) -> None:
    from manim import tempconfig

    from embedviz.render.base import StoryboardScene
    from embedviz.render.parts.captions import Caption

    board = load_storyboard(REPO / "examples" / "SequenceLookup.de.json")
    shown: list[tuple[str, ...]] = []

    class Recording(StoryboardScene):  # type: ignore[misc]
        scene_name = "SequenceLookup"

        def _caption(self, text: str) -> Caption:
            caption: Any = super()._caption(text)
            shown.append(tuple(caption.lines))
            return caption

    settings = {
        "dry_run": True,
        "disable_caching": True,
        "media_dir": str(tmp_path),
        "pixel_width": 192,
        "pixel_height": 108,
        "frame_rate": 15,
    }
    with tempconfig(settings):
        Recording(storyboard=board, skip_animations=True).render()
    assert ("Die ID 2 ist eine Zeilennummer", "und keine Menge.") in shown
    # The picture's caption breaks where the WebVTT cue does.
    assert set(shown) <= {tuple(cue) for cue in _vtt_cues(captions_vtt(board))}, shown


def test_french_typography_survives_into_the_webvtt_captions(tmp_path: Path) -> None:
    """An author's non-breaking spaces (before ; ? and :) and « » reach the cues, unbroken."""
    data = json.loads((REPO / "examples" / "SequenceLookup.fr.json").read_text("utf-8"))
    for beat in data["beats"]:
        narration = beat["narration"].replace(" :", "\u00a0:").replace(" ;", "\u202f;")
        beat["narration"] = narration.replace(" ?", "\u202f?")
        if beat["name"] == "shape":
            beat["narration"] = beat["narration"].replace("l'embedding", "« l'embedding »")
            beat["duration"] += 1.0  # the four characters more need longer to read
    path = tmp_path / "SequenceLookup.fr.json"
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    board = load_storyboard(path)
    vtt = captions_vtt(board)
    cues = _vtt_cues(vtt)
    assert ["Chaque dimension de « l'embedding »", "donne une colonne."] in cues
    for lines in cues:
        for line in lines[1:]:
            assert not re.match(r"[?!:;»]", line), lines
        for line in lines[:-1]:
            assert not line.endswith("«"), lines
    # The narration's every word reaches the cues, non-breaking spaces and all.
    said = " ".join(" ".join(lines) for lines in cues)
    for beat in data["beats"]:
        assert beat["narration"] in said, beat["name"]
    assert "sortie, et combien de valeurs dans chaque ligne\u202f?" in said
