"""Write the translated example storyboards: SequenceLookup in German and in French.

Run from the repository root::

    .venv/bin/python scripts/make_example_storyboard.py

It writes ``examples/SequenceLookup.de.json`` and ``examples/SequenceLookup.fr.json``.
Each builds the default SequenceLookup storyboard with every word translated
(so that the labels filled from them, such as the question, are translated
too), then changes only what an author may change: the title, the summary,
the narration of every beat, the language tag,
the holds (German and French sentences are longer, so some beats stay on
screen a little longer), and the phrases: the narration split into caption
cues, with the words a voice should say (the spoken-maths rules of that
language, :func:`embedviz.story.spoken.speaker_for`). Every number, label and
ID stays as the core computed it, so ``embedviz verify examples/*.json``
passes. The tests check that the committed files are exactly what this
script writes.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from embedviz.inputs import prepared_storyboard
from embedviz.story.contract import rebuild
from embedviz.story.model import Storyboard
from embedviz.story.phrases import ceil_ticks, make_phrases
from embedviz.story.spoken import speaker_for

__all__ = [
    "FRENCH",
    "GERMAN",
    "TARGET",
    "Translation",
    "french_storyboard",
    "german_storyboard",
    "main",
    "translated_storyboard",
]


@dataclass(frozen=True)
class Translation:
    """What an author writes to translate the default SequenceLookup."""

    language: str  # the BCP 47 tag
    title: str
    summary: str
    # One sentence or two per beat, by beat name; written for this scene's
    # default IDs 2, 3, 5, 1 and its 6 × 3 table.
    narration: Mapping[str, str]
    # Every word of the lookup layout, by role (the English ones are in
    # embedviz/story/layouts/lookup.py): on screen, the labels (templates keep
    # their placeholders), the chapters and the course page.
    words: Mapping[str, str]

    @property
    def target(self) -> Path:
        """The example file, e.g. ``examples/SequenceLookup.de.json``."""
        return Path("examples") / f"SequenceLookup.{self.language}.json"


GERMAN = Translation(
    language="de",
    title="Eine Folge von IDs wird zu einem Block von Vektoren",
    summary="Eine Folge von IDs wird zu einem T \u00d7 d-Block von Zeilen, in Eingabereihenfolge.",
    narration={
        "intro": (
            "Die Embedding-Schicht speichert eine Matrix mit 6 × 3 Werten: eine Zeile für "
            "jeden Eintrag des Vokabulars, eine Spalte für jede Dimension des Embeddings."
        ),
        "predict": (
            "4 Token-IDs gehen hinein, und jede wird zu einem Vektor aus 3 Werten. Überlegen "
            "Sie, bevor wir hinschauen: Wie viele Zeilen hat die Ausgabe, und wie viele Werte "
            "stehen in jeder Zeile?"
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
            "Die ID 3 wählt Zeile 3 aus; die Kopie landet in Ausgabezeile 1, und die "
            "Reihenfolge der Eingabe bleibt erhalten."
        ),
        "lookup-rest": ("Die anderen 2 IDs machen es genauso: Jede Zeile landet neben ihrer ID."),
        "dim": (
            "Die Zeilen 0 und 4 wurden nicht ausgewählt; bei diesem Nachschlagen spielen sie "
            "keine Rolle."
        ),
        "shape": (
            "Das Ergebnis ist 4 × 3. Jede Eingabe-ID ergibt eine Zeile. Jede Dimension des "
            "Embeddings ergibt eine Spalte."
        ),
    },
    words={
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
        "chapter_lookup_many": "Die anderen IDs, zusammen",
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
    },
)

FRENCH = Translation(
    language="fr",
    title="Une suite d'IDs devient un bloc de vecteurs",
    summary="Une suite d'IDs devient un bloc de lignes T \u00d7 d, dans l'ordre de l'entrée.",
    narration={
        "intro": (
            "La couche d'embedding garde une matrice de 6 × 3 valeurs : une ligne par entrée "
            "du vocabulaire, une colonne par dimension de l'embedding."
        ),
        "predict": (
            "4 IDs de jetons entrent, et chacun devient un vecteur de 3 valeurs. Réfléchissez "
            "avant de regarder : combien de lignes aura la sortie, et combien de valeurs dans "
            "chaque ligne ?"
        ),
        "reveal": (
            "Chaque ID d'entrée donne une ligne de sortie, donc 4 lignes ; chaque ligne a "
            "3 valeurs, autant que l'embedding a de dimensions."
        ),
        "lookup-0": (
            "L'ID 2 est un numéro de ligne, pas une quantité. On compte à partir de zéro, donc "
            "la ligne 2 est la troisième. Elle est copiée dans la ligne de sortie 0."
        ),
        "lookup-1": (
            "L'ID 3 choisit la ligne 3 ; la copie arrive dans la ligne de sortie 1, et l'ordre "
            "de l'entrée est conservé."
        ),
        "lookup-rest": ("Les 2 autres IDs font de même : chaque ligne arrive à côté de son ID."),
        "dim": (
            "Les lignes 0 et 4 n'ont pas été choisies ; elles ne jouent aucun rôle dans cette "
            "recherche."
        ),
        "shape": (
            "Le résultat est 4 × 3. Chaque ID d'entrée donne une ligne. Chaque dimension de "
            "l'embedding donne une colonne."
        ),
    },
    words={
        "embedding_matrix": "Matrice d'embedding E",
        "output": "Sortie",
        "token_ids": "IDs des jetons",
        "value_colour": "Couleur de la valeur",
        "gap_row": "ligne {first} non affichée",
        "gap_rows": "lignes {first}\u2013{last} non affichées",
        "gap_column": "colonne {first} non affichée",
        "gap_columns": "colonnes {first}\u2013{last} non affichées",
        "dtype_note": "valeurs {dtype} affichées en float32",
        "question": "forme de la sortie ?  lignes \u00d7 valeurs",
        "chapter_intro": "La matrice d'embedding",
        "chapter_count_rows": "Les lignes se comptent à partir de 0",
        "chapter_predict": "Prédire la forme de la sortie",
        "chapter_reveal": "Une ligne de sortie par ID",
        "chapter_lookup": "Chercher l'ID {id}",
        "chapter_lookup_many": "Les autres IDs, ensemble",
        "chapter_print": "Le résultat, tel que PyTorch l'affiche",
        "chapter_grad_fn": "Ce qu'est grad_fn",
        "chapter_dim": "Les lignes qu'aucun ID ne choisit",
        "chapter_shape": "La forme de la sortie",
        "page_narration": "Texte lu",
        "page_transcript": "Transcription : {title}",
        "page_back": "Retour au clip",
        "page_watch": "Voir le clip : {title}",
        "page_all_clips": "Tous les clips",
        "page_numbers": "Les nombres affichés",
        "page_chapters": "Chapitres",
        "page_chapters_of": "Chapitres de {title}",
        "page_read_transcript": "Lire la transcription de {title}, avec les nombres affichés",
        "page_looked_up": "{title} : les lignes recherchées, dans l'ordre de l'entrée",
        "page_matrix_rows": "{title} : les lignes affichées de la matrice d'embedding",
        "page_matrix_view": (
            "{title} : les lignes affichées de la matrice d'embedding (vue {number} sur {count})"
        ),
        "page_position": "Rang",
        "page_row": "Ligne",
        "page_dimension": "composante {index}",
        "page_at_position": "rang {position}",
        "page_id_at_position": "rang {position} (ID {id})",
        "page_piece_at_position": "rang {position} (ID {id} : {piece})",
        "page_row_number": "ligne {row}",
    },
)

# The German example's path, as before the French one joined it.
TARGET = GERMAN.target


def translated_storyboard(translation: Translation) -> Storyboard:
    """Return the default SequenceLookup with a translation's words, narration and holds.

    Parameters
    ----------
    translation
        The author's text.

    Returns
    -------
    Storyboard
        Tagged with the translation's language; numbers and IDs untouched, the
        labels filled from the translated words.
    """
    english = prepared_storyboard("SequenceLookup", cwd=Path("/nonexistent"), environ={})
    # Built again with the translated words, so that every label on screen is translated too.
    board = rebuild(english, words=dict(translation.words))
    narration = translation.narration
    assert [beat.name for beat in board.beats] == list(narration), "the scene's beats changed"
    speak = speaker_for(translation.language)
    beats = []
    for beat in board.beats:
        text = narration[beat.name]
        # One caption cue per phrase, each held for its reading time; the beat
        # is held at least as long as its phrases need.
        phrases = make_phrases(text, speak)
        duration = max(beat.duration, ceil_ticks(sum(phrase.duration for phrase in phrases)))
        beats.append(replace(beat, narration=text, phrases=phrases, duration=duration))
    return replace(
        board,
        title=translation.title,
        summary=translation.summary,
        language=translation.language,
        beats=tuple(beats),
    )


def german_storyboard() -> Storyboard:
    """Return the default SequenceLookup narrated in German (``examples/SequenceLookup.de.json``).

    Returns
    -------
    Storyboard
        Tagged ``de``.
    """
    return translated_storyboard(GERMAN)


def french_storyboard() -> Storyboard:
    """Return the default SequenceLookup narrated in French (``examples/SequenceLookup.fr.json``).

    Returns
    -------
    Storyboard
        Tagged ``fr``.
    """
    return translated_storyboard(FRENCH)


def main() -> int:
    """Write the example files.

    Returns
    -------
    int
        The exit status.
    """
    for translation in (GERMAN, FRENCH):
        target = translation.target
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(translated_storyboard(translation).to_json() + "\n", encoding="utf-8")
        print(target, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
