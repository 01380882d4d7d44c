"""Write ``examples/SequenceLookup.de.json``: the default SequenceLookup, narrated in German.

Run from the repository root::

    .venv/bin/python scripts/make_example_storyboard.py

It builds the default SequenceLookup storyboard with every word translated
(so that the labels drawn from them, such as the question, are German too),
then changes only what an author may change: the title, the summary, the
narration of every beat, the language tag,
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

from embedviz.inputs import prepared_storyboard
from embedviz.story.contract import rebuild
from embedviz.story.model import Storyboard
from embedviz.story.phrases import ceil_ticks, make_phrases

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


SUMMARY = "Eine Folge von IDs wird zu einem T \u00d7 d-Block von Zeilen, in Eingabereihenfolge."

# Every word of the lookup layout, by role (the English ones are in
# embedviz/story/layouts/lookup.py): on screen, the labels (templates keep
# their placeholders), the chapters and the course page.
WORDS = {
    "embedding_matrix": "Embedding-Matrix E",
    "output": "Ausgabe",
    "token_ids": "Token-IDs",
    "value_colour": "Farbe des Werts",
    "gap_row": "Zeile {first} nicht gezeigt",
    "gap_rows": "Zeilen {first}\u2013{last} nicht gezeigt",
    "gap_column": "Spalte {first} nicht gezeigt",
    "gap_columns": "Spalten {first}\u2013{last} nicht gezeigt",
    "dtype_note": "{dtype}-Werte als float32 gezeigt",
    "question": "Form der Ausgabe?  Zeilen \u00d7 Werte",
    "chapter_intro": "Die Embedding-Matrix",
    "chapter_count_rows": "Zeilen zählen ab 0",
    "chapter_predict": "Die Form der Ausgabe vorhersagen",
    "chapter_reveal": "Eine Ausgabezeile pro ID",
    "chapter_lookup": "ID {id} nachschlagen",
    "chapter_print": "Das Ergebnis, wie PyTorch es ausgibt",
    "chapter_grad_fn": "Was grad_fn ist",
    "chapter_dim": "Zeilen, die keine ID auswählt",
    "chapter_shape": "Die Form der Ausgabe",
    "page_narration": "Sprechertext",
    "page_transcript": "Transkript: {title}",
    "page_back": "Zurück zum Clip",
    "page_watch": "Clip ansehen: {title}",
    "page_all_clips": "Alle Clips",
    "page_numbers": "Die gezeigten Zahlen",
    "page_chapters": "Kapitel",
    "page_chapters_of": "Kapitel von {title}",
    "page_read_transcript": "Das Transkript von {title} lesen, mit den gezeigten Zahlen",
    "page_looked_up": "{title}: die nachgeschlagenen Zeilen, in Eingabereihenfolge",
    "page_matrix_rows": "{title}: die gezeigten Zeilen der Embedding-Matrix",
    "page_matrix_view": (
        "{title}: die gezeigten Zeilen der Embedding-Matrix (Ansicht {number} von {count})"
    ),
    "page_position": "Stelle",
    "page_row": "Zeile",
    "page_dimension": "Dimension {index}",
    "page_at_position": "Stelle {position}",
    "page_id_at_position": "Stelle {position} (ID {id})",
    "page_piece_at_position": "Stelle {position} (ID {id}: {piece})",
    "page_row_number": "Zeile {row}",
}


def speak_german(text: str) -> str:
    """Return how a German voice should say a phrase: ``6 × 3`` is ``6 mal 3``."""
    return text.replace("\u00d7", "mal")


def german_storyboard() -> Storyboard:
    """Return the default SequenceLookup with German title, summary, words, narration and holds.

    Returns
    -------
    Storyboard
        Tagged ``de``; numbers, labels and IDs untouched.
    """
    english = prepared_storyboard("SequenceLookup", cwd=Path("/nonexistent"), environ={})
    # Built again with the German words, so that every label on screen is German too.
    board = rebuild(english, words=WORDS)
    assert [beat.name for beat in board.beats] == list(NARRATION), "the scene's beats changed"
    beats = []
    for beat in board.beats:
        text = NARRATION[beat.name]
        # One caption cue per phrase, each held for its reading time; the beat
        # is held at least as long as its German phrases need.
        phrases = make_phrases(text, speak_german)
        duration = max(beat.duration, ceil_ticks(sum(phrase.duration for phrase in phrases)))
        beats.append(replace(beat, narration=text, phrases=phrases, duration=duration))
    return replace(board, title=TITLE, summary=SUMMARY, language="de", beats=tuple(beats))


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
