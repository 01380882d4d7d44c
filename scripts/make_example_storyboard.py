"""Write ``examples/SequenceLookup.de.json``: the default SequenceLookup, narrated in German.

Run from the repository root::

    .venv/bin/python scripts/make_example_storyboard.py

It builds the default SequenceLookup storyboard, then changes only what an
author may change: the title, the UI words (headings and the legend's
title), the sentences of the audio descriptions, the narration of every
beat, the language tag,
the holds (German sentences are longer, so some beats stay on screen a little
longer), and the phrases: the German narration split into caption cues, with
the words a voice should say. Every number, label and ID stays as the core computed it, so
``embedviz verify examples/SequenceLookup.de.json`` passes. The tests check
that the committed file is exactly what this script writes.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from embedviz.story.model import Storyboard
from embedviz.story.phrases import ceil_ticks, make_phrases
from embedviz.story.scenes import build_storyboard

__all__ = ["TARGET", "german_storyboard", "main", "speak_german"]

TARGET = Path("examples/SequenceLookup.de.json")

TITLE = "Eine Folge von IDs wird zu einem Block von Vektoren"
# One sentence or two per beat, by beat name; written for this scene's
# default IDs 2, 3, 5, 1 and its 6 × 3 table.
NARRATION = {
    "intro": (
        "Die Embedding-Schicht speichert eine 6 × 3-Matrix: eine Zeile für jeden Eintrag "
        "des Vokabulars, eine Spalte für jede Dimension des Embeddings."
    ),
    "predict": (
        "4 Token-IDs gehen hinein, und jede wird zu einem Vektor aus 3 Werten. Überlegen Sie, "
        "bevor wir hinschauen: Wie viele Zeilen hat die Ausgabe, und wie viele Werte stehen "
        "in jeder Zeile?"
    ),
    "reveal": (
        "Für jede Eingabe-ID entsteht eine Ausgabezeile, also 4 Zeilen; jede Zeile hat "
        "3 Werte, so viele, wie das Embedding Dimensionen hat."
    ),
    "lookup-0": (
        "Die ID 2 ist eine Zeilennummer und keine Menge. Gezählt wird ab null, also ist "
        "Zeile 2 die dritte Zeile. Sie wird in die Ausgabezeile 0 kopiert."
    ),
    "lookup-1": (
        "Die ID 3 wählt Zeile 3 aus; die Kopie landet in Ausgabezeile 1, und die Reihenfolge "
        "der Eingabe bleibt erhalten."
    ),
    "lookup-2": (
        "Die ID 5 wählt Zeile 5 aus; die Kopie landet in Ausgabezeile 2, und die Reihenfolge "
        "der Eingabe bleibt erhalten."
    ),
    "lookup-3": (
        "Die ID 1 wählt Zeile 1 aus; die Kopie landet in Ausgabezeile 3, und die Reihenfolge "
        "der Eingabe bleibt erhalten."
    ),
    "dim": (
        "Die Zeilen 0 und 4 wurden nicht ausgewählt; bei diesem Nachschlagen spielen sie "
        "keine Rolle."
    ),
    "shape": (
        "Das Ergebnis ist 4 × 3: Die Zeilen stammen aus den Eingabe-IDs, die Spalten aus der "
        "Dimension des Embeddings."
    ),
}


# The words the lookup layout draws, by role (the English ones are in
# embedviz/story/words.py).
WORDS = {
    "embedding_matrix": "Embedding-Matrix E",
    "output": "Ausgabe",
    "token_ids": "Token-IDs",
    "value_colour": "Farbe des Werts",
}


# The sentences of this scene's audio descriptions, by role (the English ones are
# in embedviz/story/describe_words.py); the numbers in them stay the core's.
DESCRIPTION_WORDS = {
    "chips": "Token-ID-Chips in der Reihenfolge der Eingabe: {ids}.",
    "colour_key": (
        "Farbschlüssel: Jeder Wert ist nach Vorzeichen und Größe getönt, blau für positive "
        "und zinnoberrot für negative Werte, am kräftigsten bei {high} und {low}, am "
        "blassesten nahe {zero}."
    ),
    "dimmed": "Die Zeilen {rows} sind blass gezeichnet.",
    "matrix": "Die Embedding-Matrix E ist als Raster gezeichnet: Zeilen {rows}, Spalten {columns}.",
    "matrix_values": "Ihre Werte, Zeile für Zeile: {values}.",
    "output_frame": "Ein leerer Ausgabeblock erscheint, mit den Zeilennummern {positions}.",
    "question": "Auf dem Bildschirm steht die Frage: {question}",
    "row_copy": "Zeile {row} von E, {values}, wandert als ein Streifen in Ausgabezeile {position}.",
    "row_tag": (
        "Neben jeder Ausgabezeile zeigt ein bernsteinfarbenes Etikett die ID, aus der sie stammt."
    ),
}


def speak_german(text: str) -> str:
    """Return how a German voice should say a phrase: ``6 × 3`` is ``6 mal 3``."""
    return text.replace("\u00d7", "mal")


def german_storyboard() -> Storyboard:
    """Return the default SequenceLookup with German title, words, descriptions, narration, holds.

    Returns
    -------
    Storyboard
        Tagged ``de``; numbers, labels and IDs untouched.
    """
    board = build_storyboard("SequenceLookup", cwd=Path("/nonexistent"), environ={})
    assert [beat.name for beat in board.beats] == list(NARRATION), "the scene's beats changed"
    beats = []
    for beat in board.beats:
        text = NARRATION[beat.name]
        # One caption cue per phrase, each held for its reading time; the beat
        # is held at least as long as its German phrases need.
        phrases = make_phrases(text, speak_german)
        duration = max(beat.duration, ceil_ticks(sum(phrase.duration for phrase in phrases)))
        beats.append(replace(beat, narration=text, phrases=phrases, duration=duration))
    return replace(
        board,
        title=TITLE,
        language="de",
        words=WORDS,
        description_words=DESCRIPTION_WORDS,
        beats=tuple(beats),
    )


def main() -> int:
    """Write the example file.

    Returns
    -------
    int
        The exit status.
    """
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(german_storyboard().to_json() + "\n", encoding="utf-8")
    print(TARGET, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
