"""Spoken maths: what a voice says for what the caption shows."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from embedviz.story.spoken import id_words, number_words, spoken_form


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
