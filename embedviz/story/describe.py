"""Audio descriptions from the storyboard: what each beat shows that its narration leaves unsaid.

The narration speaks IDs, row numbers and shapes; the picture also shows
values, code, prints, charts, word pieces and colours that mean something.
:func:`describe` reads a built storyboard beat by beat, compares each beat's
screen (its cells and labels) with the one before, and writes one sentence
(:class:`~embedviz.story.model.Description`) for each thing a viewer who
cannot see the picture would miss: the values of each looked-up row as it
moves, printed tensors and their code, counts and memory figures, a bar
chart as data, word pieces, and what each colour means where it first
appears. Every number in a sentence is a cell the beat already holds, so
``verify`` derives the descriptions again from the core like every other
number (:func:`description_problems`), and every sentence is a template from
:mod:`embedviz.story.describe_words`, so an author can translate it.

Nothing here is drawn: the descriptions feed the descriptions track, the
audio-described video, the step-through page, the transcript and the slides'
alt text. Stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from embedviz.story.describe_words import DESCRIPTION_WORDS, fill_template
from embedviz.story.layouts.lookup import rule_in_corridor
from embedviz.story.model import Beat, Description, NumberCell, Slot, Storyboard

__all__ = [
    "describe",
    "description_coverage",
    "description_problems",
    "mentions",
    "printed_text",
]

# Cells that are the picture's furniture rather than its content: the grid's
# values (its table is in the transcript), its row and column numbers, the
# legend (described once as the colour key) and output row numbers.
_BACKGROUND = frozenset(
    {"weight", "row_label", "col_label", "legend", "position", "pe_col", "slice", "table_size"}
)
Cells = dict[tuple[str, tuple[int, ...]], NumberCell]


def mentions(text: str, shown: str) -> bool:
    """Return whether ``text`` says the number ``shown`` as a whole number, not part of one.

    Parameters
    ----------
    text
        Narration or a description.
    shown
        A number as drawn, e.g. ``0.2010`` or ``50,257``.

    Returns
    -------
    bool
        True when ``shown`` occurs in ``text`` with no digit, sign or decimal
        point joined to it (``0.2010`` is not in ``-0.2010``, ``3`` is not in
        ``3.5``).
    """
    pattern = rf"(?<![\w.\-\u2212]){re.escape(shown)}(?!\w|\.\d)"
    return re.search(pattern, text) is not None


@dataclass
class _Memory:
    """What earlier beats (of any part) have already explained."""

    colours: bool = False
    tags: bool = False


@dataclass
class _View:
    """One beat's screen, the screen before it, and what the storyboard is."""

    board: Storyboard
    beat: Beat
    before: Beat | None
    memory: _Memory
    found: list[Description] = field(default_factory=list)

    @cached_property
    def cells(self) -> Cells:
        """Every cell on screen after the beat, by kind and index."""
        return {(c.kind, c.index): c for c in self.beat.numbers}

    @cached_property
    def old(self) -> Cells:
        """Every cell on screen before the beat, by kind and index."""
        return {(c.kind, c.index): c for c in self.before.numbers} if self.before else {}

    def is_new(self, cell: NumberCell) -> bool:
        """Return whether the beat adds a cell or changes what it shows."""
        return self.old.get((cell.kind, cell.index)) != cell

    def all(self, kind: str) -> list[NumberCell]:
        """Every cell of a kind on screen after the beat, in index order."""
        return sorted((c for c in self.beat.numbers if c.kind == kind), key=lambda c: c.index)

    def new(self, kind: str) -> list[NumberCell]:
        """Return the cells of a kind that this beat adds or changes."""
        return [c for c in self.all(kind) if self.is_new(c)]

    def old_all(self, kind: str) -> list[NumberCell]:
        """Every cell of a kind on screen before the beat, in index order."""
        before = self.before.numbers if self.before else ()
        return sorted((c for c in before if c.kind == kind), key=lambda c: c.index)

    def had(self, kind: str) -> bool:
        """Whether the screen before the beat showed any cell of a kind."""
        return any(c.kind == kind for c in (self.before.numbers if self.before else ()))

    def cell(self, kind: str, *index: int) -> NumberCell | None:
        return self.cells.get((kind, tuple(index)))

    def new_label(self, role: str) -> str | None:
        """Return a label's text if the beat adds or changes it, else ``None``."""
        text = self.beat.labels.get(role)
        old = self.before.labels.get(role) if self.before else None
        return text if text is not None and text != old else None

    def said(self, shown: str) -> bool:
        """Whether the narration or a description found so far already says ``shown``."""
        return any(mentions(text, shown) for text in (self.beat.narration, *self.texts()))

    def texts(self) -> list[str]:
        return [d.text for d in self.found]


def _slot(name: str, cells: Sequence[NumberCell] = (), text: str | None = None) -> Slot:
    """Make a slot that lists ``cells`` (or says ``text``, which holds them)."""
    return Slot(name, text if text is not None else _listing(cells), tuple(cells))


def _maybe(name: str, cell: NumberCell | None, fallback: str) -> Slot:
    """Make a slot that says one cell, or ``fallback`` where the beat does not show it."""
    return _slot(name, [cell]) if cell is not None else Slot(name, fallback)


def _said(role: str, **slots: Slot | str) -> Description:
    """Make a description from an English template; the storyboard's own words replace it."""
    # Read, not displayed: runs of spaces (a print's column alignment) become one.
    filled = tuple(
        Slot(name, " ".join(slot.text.split()), slot.cells)
        if isinstance(slot, Slot)
        else Slot(name, " ".join(slot.split()))
        for name, slot in slots.items()
    )
    text = fill_template(DESCRIPTION_WORDS[role], {slot.name: slot.text for slot in filled})
    return Description(role, filled, text)


def _listing(cells: Sequence[NumberCell], gaps: Sequence[int] = ()) -> str:
    """List cells' texts with ``, `` and an ellipsis before each position in ``gaps``."""
    items: list[str] = []
    for number, cell in enumerate(cells):
        if number in gaps:
            items.append("\u2026")
        items.append(cell.text)
    if len(cells) in gaps:
        items.append("\u2026")
    return ", ".join(items)


def _along(view: _View, cells: Sequence[NumberCell], axis_size: int) -> Slot:
    """List cells along one axis (columns or rows), marking hidden runs with ``…``."""
    ordered = sorted(cells, key=lambda c: c.index[-1])
    where = [c.index[-1] for c in ordered]
    gaps = [n for n in range(1, len(where)) if where[n] > where[n - 1] + 1]
    if where and where[0] > 0:
        gaps.insert(0, 0)
    if where and where[-1] < axis_size - 1:
        gaps.append(len(where))
    return Slot("values", _listing(ordered, gaps), tuple(ordered))


def _row_values(view: _View, cells: Sequence[NumberCell], name: str = "values") -> Slot:
    """List the values of one row, column gaps marked, as a slot called ``name``."""
    slot = _along(view, cells, view.board.dim)
    return replace(slot, name=name)


def _rows_by_first(cells: Iterable[NumberCell]) -> dict[tuple[int, ...], list[NumberCell]]:
    """Group cells by their index without its last axis (a row, a position)."""
    groups: dict[tuple[int, ...], list[NumberCell]] = {}
    for cell in sorted(cells, key=lambda c: c.index):
        groups.setdefault(cell.index[:-1], []).append(cell)
    return groups


def _gap_labels(view: _View, family: str = "") -> str:
    """Join the texts of a family of gap labels on screen, rows before columns."""
    roles = [role for role in view.beat.labels if role.startswith(family) and "_gap_" in role]
    roles.sort(key=lambda role: (not role.startswith("row"), role))
    return "; ".join(view.beat.labels[role] for role in roles)


def _by_rows(view: _View, cells: Sequence[NumberCell], name: str = "values") -> Slot:
    """List a block of table values row by row, ``E[r] = …; …``, hidden columns as ``…``."""
    rows = _rows_by_first(cells)
    labels = {c.index[0]: c for c in view.all("row_label")}
    text = "; ".join(
        f"E[{row[0]}] = {_along(view, values, view.board.dim).text}" for row, values in rows.items()
    )
    shown = [labels[row[0]] for row in rows if row[0] in labels]
    return Slot(name, text, (*shown, *sorted(cells, key=lambda c: c.index)))


def _grid_gaps(view: _View) -> str:
    return "; ".join(filter(None, (_gap_labels(view, "row_gap_"), _gap_labels(view, "col_gap_"))))


# -- the grid, its colours and the chips -------------------------------------------------


def _grid(view: _View) -> Iterator[Description]:
    """Describe the matrix when it first appears, and each time the view scrolls."""
    weights = view.all("weight")
    if not weights:
        return
    rows = view.all("row_label")
    row_slot = replace(_along(view, rows, view.board.vocab_size), name="rows")
    if not view.had("weight"):
        columns = replace(_along(view, view.all("col_label"), view.board.dim), name="columns")
        yield _said("matrix", rows=row_slot, columns=columns)
        yield _said("matrix_values", values=_by_rows(view, weights))
        if _gap_labels(view, "row_gap_") or _gap_labels(view, "col_gap_"):
            yield _said("gaps", gaps=_grid_gaps(view))
    elif [c.index for c in rows] != [c.index for c in view.old_all("row_label")]:
        yield _said("view", rows=row_slot)
        if _grid_gaps(view):
            yield _said("gaps", gaps=_grid_gaps(view))


def _legend(view: _View) -> Iterator[Description]:
    """Say what the value colours mean, the first time the legend appears."""
    legend = view.new("legend")
    if len(legend) == 3 and not view.memory.colours:
        view.memory.colours = True
        low, zero, high = legend
        yield _said(
            "colour_key",
            high=_slot("high", [high]),
            low=_slot("low", [low]),
            zero=_slot("zero", [zero]),
        )


def _chips(view: _View) -> Iterator[Description]:
    """Read the token ID chips when they appear."""
    ids = view.new("token_id")
    if not ids or view.board.layout == "parameter_count":
        return
    if len(ids[0].index) > 1:
        groups = _rows_by_first(ids).values()
        yield _said("chips_batch", ids=_slot("ids", ids, "; ".join(_listing(g) for g in groups)))
    else:
        yield _said("chips", ids=_slot("ids", ids))


def _pieces(view: _View) -> Iterator[Description]:
    """Read the word pieces above the chips (text given with ``--text``)."""
    roles = sorted(role for role in view.beat.labels if role.startswith("piece_"))
    if roles and any(view.new_label(role) is not None for role in roles):
        pieces = [view.beat.labels[role] for role in sorted(roles, key=lambda r: int(r[6:]))]
        yield _said("pieces", pieces=", ".join(f"\u201c{piece}\u201d" for piece in pieces))


def _question(view: _View) -> Iterator[Description]:
    text = view.new_label("question")
    if text is not None:
        yield _said("question", question=text)


def _rule(view: _View) -> Iterator[Description]:
    """Read the lookup's rule when it appears (``out[t] = E[ids[t]]``), saying where it stands.

    A batch's card stands in a corner (``out[b, t] = E[ids[b, t]]``). A
    sequence's stands beside the output block, or between E and the block
    where the block is as tall as E: the storyboard's record that the stage
    places it by (:func:`~embedviz.story.layouts.lookup.rule_in_corridor`).
    """
    text = view.new_label("rule")
    if text is None:
        return
    if view.board.layout == "batch":
        role = "rule_card"
    else:
        role = "rule_corridor" if rule_in_corridor(view.beat) else "rule"
    yield _said(role, rule=readable_maths(text))


def _highlight(view: _View) -> Iterator[Description]:
    """Read the row in focus when it first takes the focus (unless it moves now)."""
    focus = view.beat.highlight
    if focus is None or (view.before and view.before.highlight == focus):
        return
    values = [c for c in view.all("weight") if c.index[0] == focus.row]
    output = {c.text for c in view.new("output")}
    if values and not all(c.text in output for c in values):
        row = view.cell("row_label", focus.row)
        yield _said(
            "highlight",
            row=_maybe("row", row, str(focus.row)),
            values=_row_values(view, values),
        )


def _dimmed(view: _View) -> Iterator[Description]:
    dimmed = view.beat.dimmed_rows
    if dimmed and (view.before is None or view.before.dimmed_rows != dimmed):
        rows = [c for c in view.all("row_label") if c.index[0] in dimmed]
        yield _said("dimmed", rows=_slot("rows", rows))


def _grid_gone(view: _View) -> Iterator[Description]:
    if view.had("weight") and not view.all("weight"):
        yield _said("grid_gone")


# -- the output block ----------------------------------------------------------------------


def _output_frame(view: _View) -> Iterator[Description]:
    """Describe an empty output block (or batch slice card) when it appears."""
    positions = view.new("position")
    if not positions or view.new("output"):
        return
    if len(positions[0].index) > 1:
        # A batch's reveal may stand several slices' empty cards at once: one sentence each.
        for card in sorted({cell.index[0] for cell in positions}):
            rows = [cell for cell in positions if cell.index[0] == card]
            number = _maybe("slice", view.cell("slice", card), str(card))
            yield _said("slice_frame", slice=number, positions=_slot("positions", rows))
    else:
        yield _said("output_frame", positions=_slot("positions", positions))


def _source_row(view: _View, position: tuple[int, ...]) -> NumberCell | None:
    """Find the cell that names the row an output position was copied from."""
    for kind in ("output_id", "token_id"):
        found = view.cell(kind, *position)
        if found is not None:
            return found
    return None


def _output_rows(view: _View) -> Iterator[Description]:
    """Each output row this beat fills: where it came from and its values."""
    for position, values in _rows_by_first(view.new("output")).items():
        source = _source_row(view, position)
        row = _maybe("row", source, "?")
        here = view.cell("position", *position)
        place = _maybe("position", here, str(position[-1]))
        if len(position) > 1:
            card = view.cell("slice", position[0])
            number = _maybe("slice", card, str(position[0]))
            yield _said(
                "slice_copy",
                row=row,
                values=_row_values(view, values),
                slice=number,
                position=place,
            )
        else:
            yield _said("row_copy", row=row, values=_row_values(view, values), position=place)
        if view.cell("output_id", *position) is not None and not view.memory.tags:
            view.memory.tags = True
            yield _said("row_tag")
        mark = view.cell("equal_to", *position)
        if mark is not None and len(position) > 1:
            yield _said("slice_repeat", slice=number, position=place, mark=_slot("mark", [mark]))
        elif mark is not None:
            yield _said("row_repeat", position=place, mark=_slot("mark", [mark]))


def _print(view: _View) -> Iterator[Description]:
    """Read the code line and PyTorch's print of its result."""
    code = view.new_label("code")
    printed = view.new("printed")
    # The call may be on screen from the start (SingleTokenLookup) and its
    # print come later: each is read when it appears.
    if code is not None and printed:
        yield _said("print", code=code, printed=_slot("printed", printed, printed_text(view.beat)))
    elif code is not None:
        yield _said("code", code=code)
    elif printed:
        code = view.beat.labels.get("code", "")
        yield _said(
            "print_below", code=code, printed=_slot("printed", printed, printed_text(view.beat))
        )


def printed_text(beat: Beat) -> str:
    """Return the print as the beat draws it: its punctuation labels and numbers in order.

    Parameters
    ----------
    beat
        A beat that shows a PyTorch-style print (labels ``printed_L_PPP``
        and ``printed`` cells).

    Returns
    -------
    str
        The print's lines on one line, single-spaced; elided lines
        (``printed_omitted``) as their label says.
    """
    numbers = iter(sorted((c for c in beat.numbers if c.kind == "printed"), key=lambda c: c.index))
    pieces: dict[int, dict[int, str]] = {}
    for role, text in beat.labels.items():
        found = re.fullmatch(r"printed_(\d+)_(\d+)", role)
        if found:
            pieces.setdefault(int(found.group(1)), {})[int(found.group(2))] = text
    lines = []
    for line in sorted(pieces):
        parts = []
        for number in range(max(pieces[line]) + 1):
            piece = pieces[line].get(number)
            parts.append(piece if piece is not None else next(numbers).text)
        lines.append("".join(parts).strip())
    omitted = beat.labels.get("printed_omitted")
    if omitted:
        lines.insert(max(len(lines) - 2, 1), omitted)
    # Read, not displayed: the spaces that align the columns are left out.
    return " ".join(" ".join(lines).split())


def _shape(view: _View) -> Iterator[Description]:
    sizes = view.new("output_size")
    if sizes and not all(view.said(c.text) for c in sizes):
        yield _said(
            "shape_label", shape=_slot("shape", sizes, " \u00d7 ".join(c.text for c in sizes))
        )


# -- zero_based ------------------------------------------------------------------------------


def _slip(view: _View) -> Iterator[Description]:
    wrong_id, index = view.cell("wrong_id", 0), view.cell("wrong_index", 0)
    if not view.new("wrong_id") or wrong_id is None or index is None:
        return
    counts = view.all("one_based_count")
    values = view.all("wrong_value")
    if values:
        rows = [c for c in view.all("row_label") if ("one_based_count", c.index) in view.cells]
        yield _said(
            "slip",
            counts=_slot("counts", counts),
            rows=_slot("rows", rows),
            id=_slot("id", [wrong_id]),
            index=_slot("index", [index]),
            values=_row_values(view, values),
        )
    else:
        yield _said("slip_nothing", id=_slot("id", [wrong_id]), index=_slot("index", [index]))


def _ordinal(view: _View) -> Iterator[Description]:
    for mark in view.new("ordinal"):
        row = view.cell("row_label", *mark.index)
        yield _said(
            "ordinal", row=_maybe("row", row, str(mark.index[0])), ordinal=_slot("ordinal", [mark])
        )


def _trace(view: _View) -> Iterator[Description]:
    token, index = view.cell("trace_id", 0), view.cell("trace_index", 0)
    if view.new("trace_id") and token is not None and index is not None:
        yield _said(
            "trace",
            id=_slot("id", [token]),
            index=_slot("index", [index]),
            values=_row_values(view, view.all("output")),
        )


def _check(view: _View) -> Iterator[Description]:
    for row in view.new("check_row"):
        yield _said("check", row=_slot("row", [row]))


# -- one_hot -------------------------------------------------------------------------------


def _one_hot(view: _View) -> Iterator[Description]:
    entries = view.new("one_hot")
    # The label's shape as drawn: one_hot(i) transposed, V rows by 1 column.
    rows, columns = view.cell("one_hot_size", 0), view.cell("one_hot_size", 1)
    title = view.beat.labels.get("one_hot_title")
    if not entries or rows is None or columns is None or title is None:
        return
    title = readable_maths(title)
    slot = replace(_along(view, entries, view.board.vocab_size), name="entries")
    yield _said(
        "one_hot",
        title=title,
        rows=_slot("rows", [rows]),
        columns=_slot("columns", [columns]),
        entries=slot,
    )
    gaps = _gap_labels(view, "one_hot_gap_")
    if gaps:
        yield _said("gaps", gaps=gaps)


def readable_maths(source: str) -> str:
    """Return a Typst formula as a reader sees it: no quotes, no spacing words.

    Parameters
    ----------
    source
        Typst maths, e.g. ``"one_hot"(3) thin E``.

    Returns
    -------
    str
        The formula as text, e.g. ``one_hot(3) E``.

    Examples
    --------
    >>> readable_maths('"one_hot"(3) thin E')
    'one_hot(3) E'
    """
    words = source.replace('"', "").split()
    return " ".join(w for w in words if w not in {"thin", "med", "thick", "quad", "wide"})


def _product_frame(view: _View) -> Iterator[Description]:
    rows, columns = view.cell("product_size", 0), view.cell("product_size", 1)
    title = view.new_label("product_title")
    if title is not None and rows is not None and columns is not None:
        yield _said(
            "product_frame",
            title=readable_maths(title),
            rows=_slot("rows", [rows]),
            columns=_slot("columns", [columns]),
        )


def _terms(view: _View) -> Iterator[Description]:
    weights = view.new("term_weight")
    if not weights:
        return
    column = weights[0].index[0]
    ones = {c.index: c for c in view.all("term_one_hot")}
    cells: list[NumberCell] = []
    items = []
    for weight in weights:
        one = ones[weight.index]
        cells += [one, weight]
        items.append(f"{one.text} \u00d7 {weight.text}")
    col = view.cell("col_label", column)
    yield _said(
        "terms",
        column=_maybe("column", col, str(column)),
        terms=_slot("terms", cells, ", ".join(items)),
    )
    # The hidden terms are the same in every column: said once, as they first show.
    gaps = _gap_labels(view, "term_gap_")
    if gaps and any(view.new_label(role) for role in view.beat.labels if "term_gap_" in role):
        yield _said("gaps", gaps=gaps)


def _term_sum(view: _View) -> Iterator[Description]:
    for total in view.new("term_sum"):
        col = view.cell("col_label", *total.index)
        yield _said(
            "term_sum", sum=_slot("sum", [total]), column=_maybe("column", col, str(total.index[0]))
        )


def _product(view: _View) -> Iterator[Description]:
    # Said as the row fills at once, or as its last entry comes from its column's sum.
    products, new = view.all("product"), view.new("product")
    whole = len(products) == len(view.beat.window.cols) > 1
    if len(new) > 1 or (new and (whole or not view.new("term_sum"))):
        token = view.cell("token_id", 0)
        yield _said(
            "product", id=_maybe("id", token, "?"), values=_row_values(view, view.all("product"))
        )


def _compare(view: _View) -> Iterator[Description]:
    values = view.new("output")
    token = view.cell("token_id", 0)
    if values and token is not None:
        yield _said("compare", id=_slot("id", [token]), values=_row_values(view, values))


def _cost(view: _View) -> Iterator[Description]:
    if not view.new("cost_size"):
        return
    names = ("rows", "columns", "gpt2_rows", "gpt2_columns", "adds", "gpt2_adds")
    keys: list[tuple[str, tuple[int, ...]]] = [
        ("cost_size", (r, c)) for r in (0, 1) for c in (0, 1)
    ]
    keys += [("multiply_adds", (n,)) for n in (0, 1)]
    cells = view.cells
    if all(key in cells for key in keys):
        slots = {name: _slot(name, [cells[key]]) for name, key in zip(names, keys, strict=True)}
        yield _said("cost", **slots)


def _copy_cost(view: _View) -> Iterator[Description]:
    count, adds = view.cell("copy_count", 0), view.cell("multiply_adds", 2)
    if view.new("copy_count") and count is not None and adds is not None:
        unit = view.beat.labels.get("copy_unit", "")
        yield _said(
            "copy_cost",
            adds=_slot("adds", [adds]),
            count=_slot("count", [count]),
            unit=unit or "values",
        )


# -- parameter_count -----------------------------------------------------------------------


def _block(view: _View) -> Iterator[Description]:
    corner = view.new("corner")
    rows, columns = view.cell("block_size", 0), view.cell("block_size", 1)
    if not corner or rows is None or columns is None:
        return
    yield _said(
        "block",
        rows=_slot("rows", [rows]),
        columns=_slot("columns", [columns]),
        corner=_by_rows(view, corner, "corner"),
    )


def _memory_rows(view: _View) -> Iterator[Description]:
    for size in view.new("dtype_bytes"):
        number = size.index[0]
        total, memory = view.cell("dtype_total", number), view.cell("dtype_memory", number)
        dtype = view.beat.labels.get(f"dtype_{number}")
        if total is None or memory is None or dtype is None:
            continue
        yield _said(
            "memory_row",
            dtype=dtype,
            size=_slot("size", [size]),
            total=_slot("total", [total]),
            memory=_slot("memory", [memory]),
        )


def _chart(view: _View) -> Iterator[Description]:
    widths = view.new("compare_dim")
    if not widths:
        return
    yield _said("chart", dtype=view.beat.labels.get("compare_dtype", "float32"))
    counts = {c.index: c for c in view.all("compare_count")}
    memories = {c.index: c for c in view.all("compare_memory")}
    longest = max(counts[w.index].value for w in widths)
    for width in widths:
        count, memory = counts[width.index], memories[width.index]
        share = f"{round(100 * count.value / longest)}%"
        yield _said(
            "chart_bar",
            width=_slot("width", [width]),
            count=_slot("count", [count]),
            memory=_slot("memory", [memory]),
            share=share,
        )
    current = [w for w in widths if w.value == view.board.dim]
    if current:
        yield _said("chart_current", width=_slot("width", current))


def _param_lookup(view: _View) -> Iterator[Description]:
    values = view.new("lookup_value")
    token, row = view.cell("token_id", 0), view.cell("lookup_row", 0)
    if values and token is not None and row is not None:
        yield _said(
            "param_lookup",
            id=_slot("id", [token]),
            row=_slot("row", [row]),
            values=_row_values(view, values),
        )


# -- training_nudge ------------------------------------------------------------------------


def _loss_weights(view: _View) -> Iterator[Description]:
    upstream = view.new("upstream")
    if upstream:
        groups = _rows_by_first(upstream)
        text = "; ".join(
            f"w_{position[0]} = {_along(view, cells, view.board.dim).text}"
            for position, cells in groups.items()
        )
        yield _said("loss_weights", weights=_slot("weights", upstream, text))


def _gathered(view: _View) -> Iterator[Description]:
    gathered = view.new("output")
    if gathered:
        lines = []
        for position, cells in _rows_by_first(gathered).items():
            token = view.cell("token_id", *position)
            row = f"E[{token.text}]" if token is not None else "E"
            lines.append(f"e_{position[0]} = {row} = {_along(view, cells, view.board.dim).text}")
        yield _said("gathered_rows", rows=_slot("rows", gathered, "; ".join(lines)))


def _loss(view: _View) -> Iterator[Description]:
    losses = view.new("loss")
    if len(losses) == 1 and losses[0].index == (0,):
        yield _said("loss_value", loss=_slot("loss", losses))
    elif losses:
        before = view.cell("loss", 0)
        yield _said(
            "loss_drop", before=_maybe("before", before, "?"), after=_slot("after", losses[-1:])
        )


def _gradient(view: _View) -> Iterator[Description]:
    grads = _rows_by_first(view.new("grad"))
    zero_rows: list[NumberCell] = []
    zero: NumberCell | None = None
    for row, cells in grads.items():
        label = view.cell("row_label", *row)
        if all(c.value == 0 for c in cells):
            zero_rows += [label] if label else []
            zero = zero or cells[0]
            continue
        yield _said(
            "gradient_row", row=_maybe("row", label, str(row[0])), values=_row_values(view, cells)
        )
    if zero is not None and zero_rows:
        yield _said("gradient_zero", rows=_slot("rows", zero_rows), zero=_slot("zero", [zero]))


def _accumulate(view: _View) -> Iterator[Description]:
    sums = view.new("sum")
    if not sums:
        return
    terms = view.new("term")
    text = "; ".join(
        f"w_{position[0]} = {_along(view, cells, view.board.dim).text}"
        for position, cells in _rows_by_first(terms).items()
    )
    row = sums[0].index[0]
    label = view.cell("row_label", row)
    yield _said(
        "accumulate",
        terms=_slot("terms", terms, text),
        sum=_row_values(view, sums, "sum"),
        row=_maybe("row", label, str(row)),
    )


def _updated(view: _View) -> Iterator[Description]:
    for row, cells in _rows_by_first(view.new("updated")).items():
        label = view.cell("row_label", *row)
        yield _said(
            "updated_row", row=_maybe("row", label, str(row[0])), values=_row_values(view, cells)
        )


def _marks(view: _View) -> Iterator[Description]:
    marked: dict[str, list[NumberCell]] = {}
    for role in sorted(view.beat.labels):
        if role.startswith("mark_") and view.new_label(role) is not None:
            label = view.cell("row_label", int(role[5:]))
            if label is not None:
                marked.setdefault(view.beat.labels[role], []).append(label)
    for mark, rows in marked.items():
        yield _said("marks", rows=_slot("rows", rows), mark=f"\u201c{mark}\u201d")


def _pairs(view: _View) -> Iterator[Description]:
    """Name the rows each repeated ID's letter marks (BatchLookup's ``pair_b_t`` labels)."""
    rows: dict[str, list[str]] = {}
    for role in sorted(view.beat.labels, key=_pair_key):
        if role.startswith("pair_") and view.new_label(role) is not None:
            b, t = role[5:].split("_")
            rows.setdefault(view.beat.labels[role], []).append(f"out[{b},{t}]")
    # One sentence per letter, its rows listed as the other listings are (with
    # commas, no English "and"), so that a translated template covers it all.
    for letter, at in sorted(rows.items()):
        yield _said("pairs", rows=", ".join(at), letter=f"\u201c{letter}\u201d")


def _pair_key(role: str) -> tuple[int, ...]:
    """Order ``pair_b_t`` roles by position (others first)."""
    if not role.startswith("pair_"):
        return (-1,)
    return tuple(int(n) for n in role[5:].split("_"))


# -- position_blindness --------------------------------------------------------------------


def _positions(view: _View) -> Iterator[Description]:
    for kind in ("sinusoid", "learned_position"):
        for position, cells in _rows_by_first(view.new(kind)).items():
            yield _said("position_row", position=str(position[0]), values=_row_values(view, cells))


def _sums(view: _View) -> Iterator[Description]:
    for kind in ("sum_sinusoid", "sum_learned"):
        for position, cells in _rows_by_first(view.new(kind)).items():
            here = view.cell("position", *position)
            yield _said(
                "sum_row",
                position=_maybe("position", here, str(position[0])),
                values=_row_values(view, cells),
            )


# -- anything else --------------------------------------------------------------------------


def _leftovers(view: _View) -> Iterator[Description]:
    """Numbers the beat adds that neither the narration nor another sentence says."""
    unsaid = [
        cell
        for cell in sorted(view.beat.numbers, key=lambda c: (c.kind, c.index))
        if cell.kind not in _BACKGROUND and view.is_new(cell) and not view.said(cell.text)
    ]
    unique: dict[str, NumberCell] = {}
    for cell in unsaid:
        unique.setdefault(cell.text, cell)
    if unique:
        yield _said("also_shown", values=_slot("values", list(unique.values())))


Describer = Callable[[_View], Iterator[Description]]
_OPENING: tuple[Describer, ...] = (_grid, _legend, _chips, _pieces, _question, _rule)
_LOOKUP: tuple[Describer, ...] = (_highlight, _dimmed, _output_frame, _output_rows)
_BY_LAYOUT: dict[str, tuple[Describer, ...]] = {
    "lookup": (*_OPENING, *_LOOKUP, _print, _shape),
    "batch": (*_OPENING, *_LOOKUP, _pairs, _shape),
    "large_vocab": (*_OPENING, *_LOOKUP, _shape),
    "zero_based": (*_OPENING, _highlight, _slip, _ordinal, _trace, _check),
    "one_hot": (
        *_OPENING,
        _highlight,
        _one_hot,
        _product_frame,
        _terms,
        _term_sum,
        _product,
        _compare,
        _cost,
        _copy_cost,
    ),
    "parameter_count": (_block, _memory_rows, _chart, _param_lookup),
    "training_nudge": (
        *_OPENING,
        _highlight,
        _gathered,
        _loss_weights,
        _loss,
        _gradient,
        _accumulate,
        _updated,
        _dimmed,
        _marks,
    ),
    "position_blindness": (*_OPENING, *_LOOKUP, _grid_gone, _positions, _sums),
}


def _describe_beat(view: _View) -> tuple[Description, ...]:
    for describer in (*_BY_LAYOUT.get(view.board.layout, ()), _leftovers):
        view.found.extend(describer(view))
    return tuple(view.found)


def _describe_part(board: Storyboard, memory: _Memory) -> Storyboard:
    if board.parts:
        # Each part is described as its scene alone is (a section plays on its own).
        return replace(board, parts=tuple(_describe_part(part, _Memory()) for part in board.parts))
    beats = []
    before: Beat | None = None
    for beat in board.beats:
        found = _describe_beat(_View(board, beat, before, memory))
        beats.append(replace(beat, descriptions=found))
        before = beat
    # The English sentences of the descriptions used; an author may translate them.
    return replace(board, beats=tuple(beats), description_words={})


def describe(board: Storyboard) -> Storyboard:
    """Return the storyboard with every beat's audio description derived from its cells.

    Parameters
    ----------
    board
        A built storyboard (a composite one has each part described as
        that scene alone is).

    Returns
    -------
    Storyboard
        The same scene; each beat's ``descriptions`` say what the picture
        shows after it and the narration does not, in English (the
        storyboard's ``description_words``).
    """
    return _describe_part(board, _Memory())


def description_problems(where: str, mine: Beat, core: Beat) -> list[str]:
    """List where a beat's descriptions differ from the core's, except in their words.

    The sentences are the author's to translate (and their spoken forms to
    correct); which descriptions a beat has and every slot, numbers included,
    are derived from the core.

    Parameters
    ----------
    where
        How to name the beat in a message, e.g. ``beat 'lookup-1'``.
    mine
        The beat from the file.
    core
        The same beat, built again from the core.

    Returns
    -------
    list of str
        One line per difference; empty when they agree.
    """
    ours = [(d.template, d.slots) for d in mine.descriptions]
    theirs = [(d.template, d.slots) for d in core.descriptions]
    if [t for t, _ in ours] != [t for t, _ in theirs]:
        return [
            f"{where}, descriptions: the file has {[t for t, _ in ours]}, "
            f"the core gives {[t for t, _ in theirs]}"
        ]
    problems = []
    for number, ((template, slots), (_, fresh)) in enumerate(zip(ours, theirs, strict=True)):
        for slot, right in zip(slots, fresh, strict=False):
            if slot != right:
                problems.append(
                    f"{where}, description {number} ({template}), slot {slot.name!r}: the "
                    f"file says {slot.text!r}, the core gives {right.text!r}"
                )
        if len(slots) != len(fresh) or [s.name for s in slots] != [s.name for s in fresh]:
            problems.append(f"{where}, description {number} ({template}): its slots differ")
    return problems


def description_coverage(board: Storyboard) -> tuple[int, int]:
    """Count the new numbers each beat shows, and how many its narration or descriptions say.

    Parameters
    ----------
    board
        A described storyboard.

    Returns
    -------
    tuple of int
        ``(said, shown)``: the cells outside the picture's furniture (grid
        values, row and column numbers, the legend) that a beat adds or
        changes, and how many of them the beat's narration or descriptions
        say.
    """
    said = shown = 0
    for part in board.parts or (board,):
        before: Beat | None = None
        for beat in part.beats:
            view = _View(part, beat, before, _Memory())
            texts = [beat.narration, *(d.text for d in beat.descriptions)]
            for cell in beat.numbers:
                if cell.kind in _BACKGROUND or not view.is_new(cell):
                    continue
                shown += 1
                said += any(mentions(text, cell.text) for text in texts)
            before = beat
    return said, shown
