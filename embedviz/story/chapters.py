"""Chapter names for people, from a storyboard's words.

Each beat's chapter is named by the word ``chapter_<action>`` of its
storyboard (``Look up ID {id}``, ``Memory in {dtype}``), filled with the
beat's own verified facts: the token it is about, the slice it fills, the
format it prices. A translated storyboard therefore has translated chapters,
and no chapter is a beat's internal name. Stdlib only.
"""

from __future__ import annotations

from embedviz.story.model import Beat, Storyboard
from embedviz.story.vocabulary import CHAPTER_PREFIX
from embedviz.story.words import Words

__all__ = ["chapter_title", "chapter_values"]


def chapter_values(board: Storyboard, beat: Beat) -> dict[str, object]:
    """Return what a chapter's name may say about its beat, by placeholder.

    Parameters
    ----------
    board
        The storyboard the beat belongs to (not a composite).
    beat
        One of its beats.

    Returns
    -------
    dict
        ``id`` and ``row`` (the highlighted token, else the scene's one
        ID), ``position`` (the highlighted position), ``slice`` (the batch
        slice the beat last filled) and ``dtype`` (the number format a
        ``dtype`` beat prices, its name), where the beat has them.
    """
    values: dict[str, object] = {}
    if isinstance(board.ids, int):
        values.update(id=board.ids, row=board.ids)
    if beat.highlight is not None:
        focus = beat.highlight
        values.update(id=focus.token_id, row=focus.row)
        values["position"] = ", ".join(str(p) for p in focus.position)
    if beat.output is not None and beat.output.filled and len(beat.output.filled[-1]) == 2:
        values["slice"] = beat.output.filled[-1][0]
    if beat.action == "dtype":
        values["dtype"] = beat.name
    return values


def chapter_title(board: Storyboard, beat: Beat) -> str:
    """Return the name of a beat's chapter, in the storyboard's words.

    Parameters
    ----------
    board
        The storyboard the beat belongs to (a part, for a composite video).
    beat
        One of its beats.

    Returns
    -------
    str
        E.g. ``Look up ID 5`` for a ``lookup`` beat about ID 5.

    Raises
    ------
    EmbedvizError
        If the layout names no chapter for the beat's action, or the name
        needs a value the beat does not have.
    """
    return Words(board.words)(CHAPTER_PREFIX + beat.action, **chapter_values(board, beat))
