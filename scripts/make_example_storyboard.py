"""Write the translated example storyboards: SequenceLookup in German and in French.

Run from the repository root::

    .venv/bin/python scripts/make_example_storyboard.py

It writes ``examples/SequenceLookup.de.json`` and ``examples/SequenceLookup.fr.json``.
Each builds the default SequenceLookup storyboard, then changes only what an
author may change: the title, the UI words (headings and the legend's
title), the sentences of the audio descriptions, the narration of every
beat, the language tag,
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

from embedviz.story.model import Storyboard
from embedviz.story.phrases import ceil_ticks, make_phrases
from embedviz.story.scenes import build_storyboard
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
    # One sentence or two per beat, by beat name; written for this scene's
    # default IDs 2, 3, 5, 1 and its 6 × 3 table.
    narration: Mapping[str, str]
    # The words the lookup layout draws, by role (the English ones are in
    # embedviz/story/words.py).
    words: Mapping[str, str]
    # The sentences of the scene's audio descriptions, by role (the English ones
    # are in embedviz/story/describe_words.py); the numbers in them stay the core's.
    description_words: Mapping[str, str]

    @property
    def target(self) -> Path:
        """The example file, e.g. ``examples/SequenceLookup.de.json``."""
        return Path("examples") / f"SequenceLookup.{self.language}.json"


GERMAN = Translation(
    language="de",
    title="Eine Folge von IDs wird zu einem Block von Vektoren",
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
        "lookup-2": (
            "Die ID 5 wählt Zeile 5 aus; die Kopie landet in Ausgabezeile 2, und die "
            "Reihenfolge der Eingabe bleibt erhalten."
        ),
        "lookup-3": (
            "Die ID 1 wählt Zeile 1 aus; die Kopie landet in Ausgabezeile 3, und die "
            "Reihenfolge der Eingabe bleibt erhalten."
        ),
        "dim": (
            "Die Zeilen 0 und 4 wurden nicht ausgewählt; bei diesem Nachschlagen spielen sie "
            "keine Rolle."
        ),
        "shape": (
            "Das Ergebnis ist 4 × 3: Die Zeilen stammen aus den Eingabe-IDs, die Spalten aus "
            "der Dimension des Embeddings."
        ),
    },
    words={
        "embedding_matrix": "Embedding-Matrix E",
        "output": "Ausgabe",
        "token_ids": "Token-IDs",
        "value_colour": "Farbe des Werts",
    },
    description_words={
        "chips": "Token-ID-Chips in der Reihenfolge der Eingabe: {ids}.",
        "colour_key": (
            "Farbschlüssel: Jeder Wert ist nach Vorzeichen und Größe getönt, blau für positive "
            "und zinnoberrot für negative Werte, am kräftigsten bei {high} und {low}, am "
            "blassesten nahe {zero}."
        ),
        "dimmed": "Die Zeilen {rows} sind blass gezeichnet.",
        "matrix": (
            "Die Embedding-Matrix E ist als Raster gezeichnet: Zeilen {rows}, Spalten {columns}."
        ),
        "matrix_values": "Ihre Werte, Zeile für Zeile: {values}.",
        "output_frame": "Ein leerer Ausgabeblock erscheint, mit den Zeilennummern {positions}.",
        "question": "Auf dem Bildschirm steht die Frage: {question}",
        "row_copy": (
            "Zeile {row} von E, {values}, wandert als ein Streifen in Ausgabezeile {position}."
        ),
        "row_tag": (
            "Neben jeder Ausgabezeile zeigt ein bernsteinfarbenes Etikett die ID, aus der sie "
            "stammt."
        ),
    },
)

FRENCH = Translation(
    language="fr",
    title="Une suite d'IDs devient un bloc de vecteurs",
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
        "lookup-2": (
            "L'ID 5 choisit la ligne 5 ; la copie arrive dans la ligne de sortie 2, et l'ordre "
            "de l'entrée est conservé."
        ),
        "lookup-3": (
            "L'ID 1 choisit la ligne 1 ; la copie arrive dans la ligne de sortie 3, et l'ordre "
            "de l'entrée est conservé."
        ),
        "dim": (
            "Les lignes 0 et 4 n'ont pas été choisies ; elles ne jouent aucun rôle dans cette "
            "recherche."
        ),
        "shape": (
            "Le résultat est 4 × 3 : les lignes viennent des IDs d'entrée, les colonnes de la "
            "dimension de l'embedding."
        ),
    },
    words={
        "embedding_matrix": "Matrice d'embedding E",
        "output": "Sortie",
        "token_ids": "IDs des jetons",
        "value_colour": "Couleur de la valeur",
    },
    description_words={
        "chips": "Les jetons d'ID, dans l'ordre de l'entrée : {ids}.",
        "colour_key": (
            "Légende des couleurs : chaque valeur est teintée selon son signe et sa taille, "
            "bleu pour les positives et vermillon pour les négatives, au plus fort à {high} "
            "et {low}, au plus pâle près de {zero}."
        ),
        "dimmed": "Les lignes {rows} sont estompées.",
        "matrix": (
            "La matrice d'embedding E est dessinée comme une grille : lignes {rows}, "
            "colonnes {columns}."
        ),
        "matrix_values": "Ses valeurs, ligne par ligne : {values}.",
        "output_frame": "Un bloc de sortie vide apparaît, ses lignes numérotées {positions}.",
        "question": "La question à l'écran : {question}",
        "row_copy": (
            "La ligne {row} de E, {values}, glisse d'un seul bloc vers la ligne de sortie "
            "{position}."
        ),
        "row_tag": (
            "À côté de chaque ligne de sortie, une étiquette ambre indique l'ID dont elle vient."
        ),
    },
)

# The German example's path, as before the French one joined it.
TARGET = GERMAN.target


def translated_storyboard(translation: Translation) -> Storyboard:
    """Return the default SequenceLookup with a translation's text, words, sentences and holds.

    Parameters
    ----------
    translation
        The author's text.

    Returns
    -------
    Storyboard
        Tagged with the translation's language; numbers, labels and IDs untouched.
    """
    board = build_storyboard("SequenceLookup", cwd=Path("/nonexistent"), environ={})
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
        language=translation.language,
        words=dict(translation.words),
        description_words=dict(translation.description_words),
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
