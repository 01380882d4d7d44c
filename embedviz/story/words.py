"""The UI words drawn on screen, in English: the one table a storyboard's words come from.

Everything a stage writes that is a word rather than a number, a symbol or
a per-beat label (a heading such as ``embedding matrix E``, a column header
such as ``bytes each``, the legend's ``value colour``) is a *word* with a
role. Which roles a layout draws is declared in
:data:`embedviz.story.model.LAYOUTS`; a storyboard carries them in
:attr:`~embedviz.story.model.Storyboard.words`, derived from this table
when it is built, and an author may translate them there (``language: de``
with German words). Math symbols and punctuation (``=``, ``×``, ``…``) are
not words and stay in the renderer.
"""

from __future__ import annotations

__all__ = ["ENGLISH_WORDS", "MAX_WORD_CHARS", "english_words"]

# The longest a word may be, in characters: it is drawn on one line, in a
# heading or a column header, and is shrunk to fit where it is longer.
MAX_WORD_CHARS = 48

# Role -> the English text. Roles are lower-case names; each layout draws a subset.
ENGLISH_WORDS: dict[str, str] = {
    # The grid, its chips and its output (every grid layout).
    "embedding_matrix": "embedding matrix E",
    "value_colour": "value colour",
    "token_ids": "token IDs",
    "token_id": "token ID",
    "output": "output",
    # zero_based: the one-based slip and the debugging trace.
    "counting_from_one": "counting from one",
    "slip_id": "ID",
    "slip_row_index": "row index",
    "no_such_row": "no such row",
    "debugging_trace": "debugging trace",
    "input_id": "input ID",
    "zero_based_row_index": "zero-based row index",
    "returned_vector": "returned vector",
    # parameter_count: the table's size, the memory table and the lookup's cost.
    "columns": "columns",
    "rows": "rows",
    "parameters": "parameters",
    "dtype": "dtype",
    "bytes_each": "bytes each",
    "total_bytes": "total bytes",
    "memory": "memory",
    "width": "width",
    "values_copied": "values copied,",
    "bytes": "bytes",
    "no_arithmetic": "no multiplications, no additions",
    # one_hot: the cost panel.
    "multiply_adds": "multiply-adds per token",
    "lookup": "lookup",
    "copies": "copies",
    # training_nudge.
    "gradient": "gradient \u2202L/\u2202E",
    # position_blindness: the three blocks and the notes on them.
    "token_vector": "token vector",
    "position_vector": "position vector",
    "sum": "sum",
    "learned_table": "a learned table",
    "identical": "identical",
    "different": "different",
}


def english_words(roles: tuple[str, ...] | frozenset[str]) -> dict[str, str]:
    """Return the English text of the given roles, in role order.

    Parameters
    ----------
    roles
        Word roles, each a key of :data:`ENGLISH_WORDS`.

    Returns
    -------
    dict
        Role -> English text, sorted by role.
    """
    return {role: ENGLISH_WORDS[role] for role in sorted(roles)}
