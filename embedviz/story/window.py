"""Choosing the visible window of a large matrix.

Only a window of the V×d table is ever drawn: a few leading rows, the rows a
scene looks up (with a neighbour each when there are few of them) and the
last row, with every hidden range labelled exactly. The number of drawn
cells therefore depends on how many tokens a scene shows, never on V.
"""

from __future__ import annotations

from collections.abc import Iterable

from embedviz.story.model import Gap, Window
from embedviz.story.vocabulary import GAP_WORDS
from embedviz.story.words import Words

__all__ = [
    "MAX_FULL_COLS",
    "MAX_FULL_ROWS",
    "choose_window",
    "compact_window",
    "gap_label",
    "hidden_ranges",
    "labelled_window",
    "steady_rows",
    "unselected_rows",
]

MAX_FULL_ROWS = 8
MAX_FULL_COLS = 6
_HEAD_COLS = 4
_TAIL_COLS = 3
_HEAD_ROWS = 6
# The compact window, for layouts with several blocks beside the matrix.
_COMPACT_COLS = 4
_NARROW_COLS = 3
_NARROW_HEAD_ROWS = 3
_COMPACT_HEAD_COLS = 2
_COMPACT_HEAD_ROWS = 2
# A single looked-up row in the narrow window: rows up to _HEAD_EDGE, and the last
# _TAIL_EDGE rows, are near an edge of the table (:func:`steady_rows`); a table of at
# most _SHORT_TABLE rows keeps the usual window.
_HEAD_EDGE = 4
_TAIL_EDGE = 4
_SHORT_TABLE = 14


_ENGLISH = Words(GAP_WORDS)


def gap_label(first: int, last: int, noun: str, words: Words = _ENGLISH) -> str:
    """Label a hidden range, e.g. ``rows 6–4818 hidden``.

    Parameters
    ----------
    first, last
        The hidden range, inclusive.
    noun
        ``row`` or ``column``.
    words
        The storyboard's words (``gap_row``, ``gap_rows``, ``gap_column``,
        ``gap_columns``); English by default.

    Returns
    -------
    str
        The label, singular for a single hidden index.
    """
    if first == last:
        return words(f"gap_{noun}", first=first)
    return words(f"gap_{noun}s", first=first, last=last)


def hidden_ranges(
    shown: list[int], size: int, noun: str, words: Words = _ENGLISH
) -> tuple[Gap, ...]:
    """Label every hidden range around the shown indices.

    Parameters
    ----------
    shown
        The drawn indices, ascending.
    size
        How many indices there are (``V`` or ``d``).
    noun
        ``row`` or ``column``.
    words
        The storyboard's words for the labels; English by default.

    Returns
    -------
    tuple of Gap
        One gap per run of hidden indices, labelled exactly.
    """
    gaps = []
    previous = -1
    for index in [*shown, size]:
        if index - previous > 1:
            label = gap_label(previous + 1, index - 1, noun, words)
            gaps.append(Gap(previous + 1, index - 1, label))
        previous = index
    return tuple(gaps)


def choose_window(
    vocab_size: int,
    dim: int,
    focus_rows: Iterable[int],
    *,
    narrow: bool = False,
    steady: bool = False,
    words: Words = _ENGLISH,
) -> Window:
    """Pick the rows and columns to draw.

    Parameters
    ----------
    vocab_size
        ``V``.
    dim
        ``d``.
    focus_rows
        Rows the scene looks up; they are always drawn.
    narrow
        For layouts that show the grid, a corridor and the output block side
        by side at a readable size: every column when ``d <= 3``, else
        columns 0 and ``d - 1`` (three such blocks across the frame leave
        room for two readable columns of a real table); and only three
        leading rows.
    steady
        A ``narrow`` window (it implies it) that, with one focus row near the
        table's edges, keeps the row off the window's edge and the room under
        it short (:func:`steady_rows`), so that the close-up keeps one
        arrangement wherever the row is.
    words
        The storyboard's words for the gap labels; English by default.

    Returns
    -------
    Window
        All rows when ``V <= 8`` and all columns when ``d <= 6``. Otherwise
        the focus rows, and when there are at most four of them also the
        leading rows and the last row (with a neighbour for each of up to
        three focus rows); and the first four and last three columns. Hidden
        ranges become labelled gaps. With ``steady``, a single focus row
        near the table's edges draws the rows :func:`steady_rows` picks.
    """
    focus = sorted(set(focus_rows))
    narrow = narrow or steady
    if vocab_size <= MAX_FULL_ROWS:
        rows = list(range(vocab_size))
    else:
        if len(focus) <= 4:
            head = _NARROW_HEAD_ROWS if narrow else _HEAD_ROWS
            shown = set(range(head)) | set(focus) | {vocab_size - 1}
        else:
            # Many looked-up rows already fill the grid: show just those.
            shown = set(focus)
        if len(focus) <= 3:
            for row in focus:
                shown |= {r for r in (row - 1, row + 1) if 0 <= r < vocab_size}
        if steady and len(focus) == 1:
            shown = steady_rows(focus[0], vocab_size) or shown
        rows = sorted(shown)
    if narrow:
        cols = list(range(dim)) if dim <= _NARROW_COLS else [0, dim - 1]
    elif dim <= MAX_FULL_COLS:
        cols = list(range(dim))
    else:
        cols = list(range(_HEAD_COLS)) + list(range(dim - _TAIL_COLS, dim))
    return labelled_window(rows, cols, vocab_size, dim, words)


def steady_rows(row: int, vocab_size: int) -> set[int] | None:
    """Return a single row's narrow window near the table's edges, or None mid-table.

    Mid-table the window draws rows 0-2, the row with its neighbours and the
    last row: the row's run stands between two labelled hidden ranges, below
    the window's middle. Its output row stands level with it, under the
    legend, and only the row's lower neighbour, a hidden range and the last
    row stand under it. Near an edge the run would merge with the head or
    the last row, and the output row would leave most of its column empty
    on one side; there the window keeps the room under the row short, or
    gives it to the legend, drawing real rows only:

    - a row of the head (0-2) stands at the window's top: the last three rows
      mirror the head, and a hidden range splits the window near its middle
      (row 2's lower neighbour stays hidden in it);
    - rows 3 and 4, and the last four rows, stand with only a hidden range
      and the last row under them (their lower neighbour is drawn only when
      it is the last row); the upper neighbour is drawn when a hidden range
      still parts it from the head (row 4's, row 3, is not: as for row 5,
      a hidden range parts the head from the row).

    The window then draws fewer rows than mid-table (five or six), so
    that the print, which waits under the table, keeps its numbers at the
    data's floor.

    Parameters
    ----------
    row
        The looked-up row.
    vocab_size
        ``V``.

    Returns
    -------
    set of int or None
        The rows to draw; None for a mid-table row, or a table too short
        for its edges to stay apart (``V <= 14``): the window is then the
        usual one.
    """
    last = vocab_size - 1
    if vocab_size <= _SHORT_TABLE or _HEAD_EDGE < row < vocab_size - _TAIL_EDGE:
        return None
    shown = set(range(_NARROW_HEAD_ROWS)) | {row, last}
    if row < _NARROW_HEAD_ROWS:
        shown |= set(range(last - _NARROW_HEAD_ROWS + 1, vocab_size))
    if row - 1 > _NARROW_HEAD_ROWS:
        shown.add(row - 1)
    return shown


def labelled_window(
    rows: Iterable[int], cols: Iterable[int], vocab_size: int, dim: int, words: Words = _ENGLISH
) -> Window:
    """Make the window of the given rows and columns, each hidden range labelled.

    Parameters
    ----------
    rows, cols
        The drawn rows and columns, ascending.
    vocab_size, dim
        ``V`` and ``d``.
    words
        The storyboard's words for the gap labels; English by default.

    Returns
    -------
    Window
        The window, with ``row_gaps`` and ``col_gaps``.
    """
    rows, cols = list(rows), list(cols)
    return Window(
        rows=tuple(rows),
        cols=tuple(cols),
        row_gaps=hidden_ranges(rows, vocab_size, "row", words),
        col_gaps=hidden_ranges(cols, dim, "column", words),
    )


def compact_window(
    vocab_size: int, dim: int, focus_rows: Iterable[int], words: Words = _ENGLISH
) -> Window:
    """Pick a narrow window, for layouts that show several blocks beside the matrix.

    Parameters
    ----------
    vocab_size
        ``V``.
    dim
        ``d``.
    focus_rows
        Rows the scene looks up; they are always drawn.
    words
        The storyboard's words for the gap labels; English by default.

    Returns
    -------
    Window
        Every row when ``V <= 8``, else rows 0 and 1, the focus rows and the
        last row; every column when ``d <= 4``, else columns 0, 1 and
        ``d - 1``. Hidden ranges carry exact labels.
    """
    focus = set(focus_rows)
    if vocab_size <= MAX_FULL_ROWS:
        rows = list(range(vocab_size))
    else:
        rows = sorted(set(range(_COMPACT_HEAD_ROWS)) | focus | {vocab_size - 1})
    cols = list(range(dim)) if dim <= _COMPACT_COLS else [*range(_COMPACT_HEAD_COLS), dim - 1]
    return labelled_window(rows, cols, vocab_size, dim, words)


def unselected_rows(window: Window, listed: str, count: int, by: str = "") -> str:
    """Return the sentence that names the drawn rows no ID selected.

    Where rows are hidden, the list names only rows drawn, so the sentence says
    so: "Rows 1, 2 were not selected" over a 50257-row table would claim the
    hidden ones were. It opens with that ("Drawn but not selected:"), so a
    long list stays whole on the caption's second line.

    Parameters
    ----------
    window
        The part of the matrix drawn.
    listed
        The rows, as spoken ("1, 2 and 4820").
    count
        How many rows the list names.
    by
        Who did not select them (" by any sequence"), if said.

    Examples
    --------
    >>> unselected_rows(Window(rows=(0, 1, 2), cols=(0,)), "0 and 2", 2)
    'Rows 0 and 2 were not selected.'
    >>> gaps = (Gap(1, 8, "rows 1–8 hidden"),)
    >>> unselected_rows(Window(rows=(0, 9), cols=(0,), row_gaps=gaps), "9", 1, " by any sequence")
    'Drawn but not selected by any sequence: row 9.'
    """
    noun = "row" if count == 1 else "rows"
    if window.row_gaps:
        return f"Drawn but not selected{by}: {noun} {listed}."
    verb = "was" if count == 1 else "were"
    return f"{noun.capitalize()} {listed} {verb} not selected{by}."
