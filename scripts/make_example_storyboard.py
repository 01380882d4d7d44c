"""Write the translated example storyboards: SequenceLookup in German and in French.

Run from the repository root::

    .venv/bin/python scripts/make_example_storyboard.py

It writes ``examples/SequenceLookup.de.json`` and ``examples/SequenceLookup.fr.json``.
Each builds the default SequenceLookup storyboard with every word translated
(so that the labels filled from them, such as the question, are translated
too), then changes only what an author may change: the title, the summary,
the sentences of the audio descriptions, the narration of every beat, the
language tag,
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
        "page_shown": "Gezeigt:",
        "page_descriptions_track": "Beschreibungen ({language})",
        "page_steps_link": "{title} Schritt für Schritt, mit seinen Tabellen",
        "page_described_link": "Fassung mit Audiodeskription: {title}",
        "page_step_through": "Den Clip Schritt für Schritt durchgehen",
        "page_steps_title": "Schritt für Schritt: {title}",
        "page_skip_steps": "Zu den Schritten springen",
        "page_other_pages": "Weitere Seiten",
        "page_clip_on_gallery": "Der Clip in der Galerie",
        "page_the_transcript": "Das Transkript",
        "page_steps_intro": (
            "Ein Schritt pro Abschnitt: was er sagt, was er zeigt und seine Zahlen als Tabellen."
        ),
        "page_steps_keys": (
            "Weiter mit den Schaltflächen oder den Pfeiltasten; jeder Schritt verweist auf "
            "seine Stelle im Clip."
        ),
        "page_previous_step": "Vorheriger Schritt",
        "page_next_step": "Nächster Schritt",
        "page_step_of": "Schritt {number} von {total}: {name}",
        "page_watch_step": "Schritt {number} im Clip ansehen, ab {time}",
        "page_token_ids": "{title}: die Token-IDs",
        "page_input": "Eingabe",
        "page_id": "Kennung",
        "page_word_piece": "Wortteil",
        "page_output_now": (
            "{title}: die Ausgabe nach diesem Schritt, {filled} von {total} Zeilen gefüllt"
        ),
        "page_output_after": "{title}: die Ausgabe nach diesem Schritt",
        "page_matrix_now": "{title}: die Zeilen der Embedding-Matrix E in diesem Schritt",
        "page_row_marked": "Zeile {row} ({marks})",
        "page_mark_looked_up": "nachgeschlagen",
        "page_mark_faded": "blass",
        "page_mark_updated": "aktualisiert",
        "page_terms_of": "{title}: die Terme von Eintrag {column} des Produkts",
        "page_one_hot_entry": "One-hot-Eintrag",
        "page_printed": "{title}: der Tensor, den PyTorch ausgibt",
        "page_gradient": "{title}: der Gradient \u2202L/\u2202E",
        "page_loss_weights": "{title}: die Gewichte w_t des Verlusts",
        "page_added_weights": "{title}: die Gewichte, die in eine Gradientenzeile eingehen",
        "page_their_sum": "{title}: ihre Summe, eine Zeile des Gradienten",
        "page_positions": "{title}: die Positionsvektoren P",
        "page_learned_positions": "{title}: die gelernten Positionsvektoren P",
        "page_sums": "{title}: die Summen E[id] + P[pos]",
        "page_wrong_vector": "{title}: der falsche Vektor, den der Zählfehler holt",
        "page_one_hot": "{title}: der One-hot-Vektor",
        "page_product": "{title}: das Produkt one_hot @ E",
        "page_loss": "{title}: der Verlust",
        "page_values": "Werte",
        "page_entries": "Einträge",
        "page_entry": "Eintrag {index}",
        "page_before_step": "vor dem Schritt",
        "page_after_step": "nach dem Schritt",
        "page_without_description": "Der Clip ohne Audiodeskription",
        "page_described_intro": (
            "Nach jedem Schritt hält das Bild an, während beschrieben wird, was es zeigt: "
            "Werte, Code und Diagramme."
        ),
        "page_length": "Länge: {minutes} min {seconds} s",
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
        "rule": "Neben dem Ausgabeblock steht die Regel: {rule}.",
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
        "page_shown": "Affiché :",
        "page_descriptions_track": "Audiodescriptions ({language})",
        "page_steps_link": "{title} pas à pas, avec ses tableaux",
        "page_described_link": "Version audiodécrite : {title}",
        "page_step_through": "Parcourir le clip pas à pas",
        "page_steps_title": "Pas à pas : {title}",
        "page_skip_steps": "Aller aux étapes",
        "page_other_pages": "Autres pages",
        "page_clip_on_gallery": "Le clip dans la galerie",
        "page_the_transcript": "La transcription",
        "page_steps_intro": (
            "Une étape par temps du clip : ce qu'il dit, ce qu'il montre, et ses nombres en "
            "tableaux."
        ),
        "page_steps_keys": (
            "Avancez avec les boutons ou les flèches gauche et droite ; chaque étape renvoie à "
            "son moment dans le clip."
        ),
        "page_previous_step": "Étape précédente",
        "page_next_step": "Étape suivante",
        "page_step_of": "Étape {number} sur {total} : {name}",
        "page_watch_step": "Voir l'étape {number} dans le clip, à partir de {time}",
        "page_token_ids": "{title} : les IDs des jetons",
        "page_input": "Entrée",
        "page_id": "Identifiant",
        "page_word_piece": "morceau de mot",
        "page_output_now": (
            "{title} : la sortie après cette étape, {filled} lignes remplies sur {total}"
        ),
        "page_output_after": "{title} : la sortie après cette étape",
        "page_matrix_now": "{title} : les lignes de la matrice d'embedding E à cette étape",
        "page_row_marked": "ligne {row} ({marks})",
        "page_mark_looked_up": "recherchée",
        "page_mark_faded": "estompée",
        "page_mark_updated": "mise à jour",
        "page_terms_of": "{title} : les termes de l'entrée {column} du produit",
        "page_one_hot_entry": "entrée one-hot",
        "page_printed": "{title} : le tenseur qu'affiche PyTorch",
        "page_gradient": "{title} : le gradient \u2202L/\u2202E",
        "page_loss_weights": "{title} : les poids w_t de la perte",
        "page_added_weights": "{title} : les poids ajoutés dans une ligne du gradient",
        "page_their_sum": "{title} : leur somme, une ligne du gradient",
        "page_positions": "{title} : les vecteurs de position P",
        "page_learned_positions": "{title} : les vecteurs de position appris P",
        "page_sums": "{title} : les sommes E[id] + P[pos]",
        "page_wrong_vector": "{title} : le mauvais vecteur que l'erreur va chercher",
        "page_one_hot": "{title} : le vecteur one-hot",
        "page_product": "{title} : le produit one_hot @ E",
        "page_loss": "{title} : la perte",
        "page_values": "valeurs",
        "page_entries": "entrées",
        "page_entry": "entrée {index}",
        "page_before_step": "avant l'étape",
        "page_after_step": "après l'étape",
        "page_without_description": "Le clip sans audiodescription",
        "page_described_intro": (
            "Après chaque étape, l'image s'arrête pendant que l'on décrit ce qu'elle montre : "
            "valeurs, code et graphiques."
        ),
        "page_length": "Durée : {minutes} min {seconds} s",
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
        "rule": "À côté du bloc de sortie, la règle : {rule}.",
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
    """Return the default SequenceLookup with a translation's words, sentences, narration, holds.

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
        phrases = make_phrases(text, speak, language=translation.language)
        duration = max(beat.duration, ceil_ticks(sum(phrase.duration for phrase in phrases)))
        beats.append(replace(beat, narration=text, phrases=phrases, duration=duration))
    return replace(
        board,
        title=translation.title,
        summary=translation.summary,
        language=translation.language,
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
