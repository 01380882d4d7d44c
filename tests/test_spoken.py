"""Spoken maths: what a voice says for what the caption shows."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from embedviz.story.spoken import (
    SPOKEN_LANGUAGES,
    id_words,
    number_words,
    speaker_for,
    spoken_form,
)


@pytest.mark.parametrize(
    ("written", "spoken"),
    [
        ("4 × 3", "4 by 3"),
        ("-0.2010", "minus 0.201"),
        ("−0.2010", "minus 0.201"),
        ("E[2]", "row 2 of E"),
        ("∂L/∂E", "the gradient of L with respect to E"),
        ("x ≤ 3", "x less than or equal to 3"),
        ("ID 2 → row 2", "ID 2 to row 2"),
        ("ID 4821", "ID forty-eight twenty-one"),
        ("IDs 4821, 0 and 3290", "I D's forty-eight twenty-one, 0 and thirty-two ninety"),
        ("4 token IDs go in", "4 token I D's go in"),
        ("the piece ##ing", "the piece ing"),
        ("1.50 and 2.0", "1.5 and 2"),
        ("rows 6–4818 not shown", "rows 6 to 4818 not shown"),
        ("E ← E − 0.5 · ∂L/∂E", "E becomes E minus 0.5 times the gradient of L with respect to E"),
        ("Each 0 × E[k, 0] is 0", "Each 0 times E at row k, column 0 is 0"),
        ("output[b, t] equals E[ids[b, t]].", "output at b, t equals row ids at b, t of E."),
        ("∂L/∂e_t = w_t.", "the gradient of L with respect to e sub t equals w sub t."),
        ("one_hot(3) @ E", "one-hot of 3 times E"),
        ("grad_fn=<EmbeddingBackward0>", "grad F N equals Embedding Backward 0"),
        ("GPT-2 in bfloat16 takes 73.6 MiB", "G P T 2 in B float 16 takes 73.6 mebibytes"),
        ("a 50257 × 768 matrix", "a 50257 by 768 matrix"),
    ],
)
def test_spoken_form(written: str, spoken: str) -> None:
    assert spoken_form(written) == spoken


def test_plain_words_are_left_alone() -> None:
    text = "Nothing is multiplied or added: the layer walks to row 3 and copies it."
    assert spoken_form(text) == text


@pytest.mark.parametrize(
    ("n", "words"),
    [(4821, "forty-eight twenty-one"), (4805, "forty-eight oh five"), (4800, "forty-eight hundred"),
     (2000, "two thousand"), (1010, "ten ten"), (464, "464"), (50256, "50256")],
)  # fmt: skip
def test_ids_are_read_in_pairs(n: int, words: str) -> None:
    assert id_words(n) == words


@given(st.integers(min_value=0, max_value=99))
def test_number_words_are_words(n: int) -> None:
    words = number_words(n)
    assert words.replace("-", "").isalpha()
    assert ("-" in words) == (n > 20 and n % 10 != 0)


def test_number_words_refuses_large_numbers() -> None:
    with pytest.raises(ValueError, match="100"):
        number_words(100)


# -- German and French ---------------------------------------------------------------

GERMAN = [
    ("Eine 6 × 3-Matrix", "Eine 6 mal 3-Matrix"),
    ("-0.2010", "minus 0,201"),  # the decimal comma a German voice reads as "Komma"
    ("−0.2010 und 1.50", "minus 0,201 und 1,5"),
    ("E[2]", "Zeile 2 von E"),
    ("E[3, 0]", "E in Zeile 3, Spalte 0"),
    (
        "output[b, t] = E[ids[b, t]].",
        "output an Stelle b, t gleich Zeile ids an Stelle b, t von E.",
    ),
    ("∂L/∂E", "der Gradient von L nach E"),
    ("Jedes 0 × E[k, 0] ist 0", "Jedes 0 mal E in Zeile k, Spalte 0 ist 0"),
    ("4 Token-IDs gehen hinein", "4 Token-I Dees gehen hinein"),
    ("Die ID 2 → Zeile 2", "Die I D 2 zu Zeile 2"),
    ("Zeilen 6–4818 nicht gezeigt", "Zeilen 6 bis 4818 nicht gezeigt"),
    ("E ← E − 0.5 · ∂L/∂E", "E wird zu E minus 0,5 mal der Gradient von L nach E"),
    ("∂L/∂e_t = w_t.", "der Gradient von L nach e Index t gleich w Index t."),
    ("x ≤ 3, y ≠ 4", "x kleiner oder gleich 3, y ungleich 4"),
    ("GPT-2 in bfloat16 braucht 73.6 MiB", "G P T 2 in B float 16 braucht 73,6 Mebibyte"),
    ("grad_fn=<EmbeddingBackward0>", "grad F N gleich Embedding Backward 0"),
    ("one_hot(3) @ E", "one-hot von 3 mal E"),
    ("das Stück ##ung", "das Stück ung"),
]

FRENCH = [
    ("Une matrice 6 × 3", "Une matrice 6 par 3"),
    ("-0.2010", "moins 0,201"),
    ("E[2]", "la ligne 2 de E"),
    ("E[3, 0]", "E à la ligne 3, colonne 0"),
    ("output[b, t]", "output à la position b, t"),
    ("∂L/∂E", "le gradient de L par rapport à E"),
    ("Chaque 0 × E[k, 0] vaut 0", "Chaque 0 fois E à la ligne k, colonne 0 vaut 0"),
    ("4 IDs de jetons entrent", "4 I D de jetons entrent"),
    ("L'ID 2 → ligne 2", "L'I D 2 vers ligne 2"),
    ("lignes 6–4818 non affichées", "lignes 6 à 4818 non affichées"),
    ("E ← E − 0.5 · ∂L/∂E", "E devient E moins 0,5 fois le gradient de L par rapport à E"),
    ("∂L/∂e_t = w_t.", "le gradient de L par rapport à e indice t égale w indice t."),
    ("x ≥ 3, y ≈ 4", "x supérieur ou égal à 3, y environ 4"),
    ("GPT-2 en bfloat16 occupe 73.6 MiB", "G P T 2 en B float 16 occupe 73,6 mébioctets"),
    ("grad_fn=<EmbeddingBackward0>", "grad F N égale Embedding Backward 0"),
    ("one_hot(3) @ E", "one-hot de 3 fois E"),
]


@pytest.mark.parametrize(("written", "spoken"), GERMAN)
def test_german_spoken_form(written: str, spoken: str) -> None:
    assert spoken_form(written, "de") == spoken
    assert spoken_form(written, "de-AT") == spoken  # the primary subtag chooses the rules


@pytest.mark.parametrize(("written", "spoken"), FRENCH)
def test_french_spoken_form(written: str, spoken: str) -> None:
    assert spoken_form(written, "fr") == spoken
    assert speaker_for("fr-CA")(written) == spoken


def test_english_is_the_default_and_other_languages_are_spoken_as_written() -> None:
    assert SPOKEN_LANGUAGES == ("en", "de", "fr")
    assert spoken_form("4 × 3") == spoken_form("4 × 3", "en-GB") == "4 by 3"
    assert spoken_form("E[2] = 4 × 3", "it") == "E[2] = 4 × 3"
    assert speaker_for("zh")("E[2]") == "E[2]"


@pytest.mark.parametrize("language", ["de", "fr"])
def test_no_english_maths_words_are_left_in_german_or_french(language: str) -> None:
    # The English rules' own words (minus and gradient are German and French too).
    english = {"by", "times", "row", "of", "the", "with", "respect", "to", "equals", "over",
               "sub", "column", "at", "becomes", "sum", "about", "mebibytes"}  # fmt: skip
    for written, _ in GERMAN + FRENCH:
        said = spoken_form(written, language)
        assert not set(re.findall(r"[A-Za-zäöüéèàç]+", said)) & english, (written, said)
