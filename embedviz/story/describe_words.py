"""The sentences of the audio descriptions, in English: templates an author may translate.

A beat's descriptions (:class:`~embedviz.story.model.Description`) say what
the picture shows and the narration does not: the values of a row as it
moves, a printed tensor, a chart, word pieces, what a colour means. Each is
one template from this table, with named slots (``{values}``) filled with
text the core derived, such as ``1.2753, -0.2010, -0.1606``. A storyboard
carries the templates its beats use in
:attr:`~embedviz.story.model.Storyboard.description_words`, so that an author
translates the descriptions by translating these sentences; the slots,
being numbers, code and labels, stay as the core wrote them. Stdlib only.
"""

from __future__ import annotations

import string

__all__ = [
    "DESCRIPTION_WORDS",
    "MAX_DESCRIPTION_CHARS",
    "fill_template",
    "template_slots",
]

# The longest a template may be, in characters (it is one or two sentences).
MAX_DESCRIPTION_CHARS = 300

# Role -> the English template. Colour names are the palette's (Okabe-Ito, see
# embedviz.render.design): blue and vermillion for a value's sign, amber for a
# token ID (its chip, its row's outline, its tag), bluish green for a second
# table and for what is right.
DESCRIPTION_WORDS: dict[str, str] = {
    # The grid, its colours, the chips (every grid layout).
    "matrix": "The embedding matrix E is drawn as a grid: rows {rows}, columns {columns}.",
    "matrix_values": "Its values, row by row: {values}.",
    "gaps": "Gap labels stand for what is hidden: {gaps}.",
    "view": "The view moves: the grid now shows rows {rows}.",
    "colour_key": (
        "Colour key: each value is tinted by its sign and size, blue for positive and "
        "vermillion for negative, strongest at {high} and {low}, palest near {zero}."
    ),
    "chips": "Token ID chips, in input order: {ids}.",
    "chips_batch": "Token ID chips, one row per sequence: {ids}.",
    "pieces": "Above the chips, the word pieces of the text, in order: {pieces}.",
    "highlight": "Row {row} is outlined in amber, the colour of the ID chips; it holds {values}.",
    "dimmed": "Rows {rows} are drawn faded.",
    "question": "The question on screen reads: {question}",
    "rule": "Beside the output block, the rule reads: {rule}.",
    "rule_corridor": "Between the matrix E and the output block, the rule reads: {rule}.",
    "rule_card": "A card reads the rule: {rule}.",
    "grid_gone": "The matrix leaves the screen.",
    # The output block.
    "output_frame": "An empty output block appears, its rows numbered {positions}.",
    "slice_frame": "An empty card for slice {slice} appears, its rows numbered {positions}.",
    "row_copy": "Row {row} of E, {values}, moves as one strip into output row {position}.",
    "slice_copy": (
        "Row {row} of E, {values}, moves as one strip into slice {slice}, row {position}."
    ),
    "row_tag": "Beside each filled output row, an amber tag shows the ID it came from.",
    "row_repeat": "Output row {position} is tagged {mark}: it equals that earlier row.",
    "slice_repeat": ("Slice {slice}, row {position} is tagged {mark}: it equals that earlier row."),
    "pairs": "Rows {rows} share the letter {letter} in a ring: their values are equal.",
    "shape_label": "The output block is labelled {shape}.",
    # A printed tensor and its code.
    "print": "The code line reads {code}. Below it, PyTorch prints {printed}",
    "code": "The code line reads {code}.",
    "print_below": "Below the code line, {code}, PyTorch prints {printed}",
    # zero_based: the slip, the count and the trace.
    "slip": (
        "Grey counts {counts} run down rows {rows}. The slip panel reads ID {id}, "
        "row index {index}, and shows that row's values, {values}, crossed out."
    ),
    "slip_nothing": "The slip panel reads ID {id}, row index {index}, crossed out: no such row.",
    "ordinal": "Beside row {row}, a bluish-green mark reads {ordinal}.",
    "trace": (
        "The debugging trace reads: input ID {id}, zero-based row index {index}, "
        "returned vector {values}."
    ),
    "check": "Beside the returned vector, a bluish-green = E[{row}] and a check mark appear.",
    # one_hot: the vector, the terms of a column, the product and its cost.
    "one_hot": (
        "Beside the matrix stands {title}, a {rows} × {columns} column: the one-hot "
        "vector drawn on its side, entry k beside row k: {entries}."
    ),
    "terms": (
        "Entry {column} of the product is written out as one term per row, a one-hot entry "
        "times the value in column {column}: {terms}."
    ),
    "term_sum": "The terms add up to {sum}, which becomes entry {column} of the product.",
    "product_frame": "An empty row for the product {title} appears, {rows} × {columns}.",
    "product": "The product one_hot({id}) @ E now reads {values}.",
    "compare": "Below it, the lookup E[{id}] reads {values}: the same values, one for one.",
    "cost": (
        "A cost table: a {rows} × {columns} table costs {adds} multiply-adds per token; "
        "GPT-2's {gpt2_rows} × {gpt2_columns} costs {gpt2_adds}."
    ),
    "copy_cost": "The lookup's line reads {adds} multiply-adds; it copies {count} {unit}.",
    # parameter_count: the block, the memory table, the bar chart, the lookup.
    "block": (
        "A block stands for E: {rows} rows by {columns} columns. Its top-left corner shows "
        "the first real values: {corner}."
    ),
    "memory_row": (
        "The memory table gains a row: {dtype}, {size} bytes each, {total} bytes in all, {memory}."
    ),
    "chart": "A bar chart compares widths d at the same V, with their {dtype}:",
    "chart_bar": "d = {width}: {count} parameters, {memory}, a bar {share} of the longest.",
    "chart_current": "The current width, d = {width}, is drawn in bluish green.",
    "param_lookup": "ID {id} copies row {row}, whose first values are {values}.",
    # training_nudge: the toy loss, the gradient, the update.
    "loss_weights": "Under the loss, the fixed weights w_t, one row per position: {weights}.",
    "gathered_rows": "Beside E, each position's looked-up row e_t = E[id_t]: {rows}.",
    "loss_value": "The loss formula L = Σ_t w_t · e_t evaluates to {loss}.",
    "gradient_row": "Row {row} of the gradient ∂L/∂E fills with {values}.",
    "gradient_zero": "Rows {rows} of the gradient are all {zero}.",
    "accumulate": "Under the weights, {terms} add up to {sum}, which becomes gradient row {row}.",
    "updated_row": "Row {row} of E is replaced by its nudged values, {values}.",
    "marks": "Rows {rows} are marked {mark}.",
    "loss_drop": "The loss now reads {before} → {after}.",
    # position_blindness: position vectors and sums.
    "position_row": "Position vector P[{position}] reads {values}.",
    "sum_row": "Sum for position {position}, token vector plus position vector: {values}.",
    # Anything else a beat shows for the first time.
    "also_shown": "Also on screen: {values}.",
}

_FORMATTER = string.Formatter()


def template_slots(template: str) -> set[str]:
    """Return the names of a template's slots, e.g. ``{"row", "values"}``.

    Parameters
    ----------
    template
        A template such as ``Row {row} holds {values}.``

    Returns
    -------
    set of str
        Its placeholder names.

    Raises
    ------
    ValueError
        If the template is not well formed (an unmatched brace, an empty,
        positional or indexed placeholder, a conversion or a format spec).
    """
    names: set[str] = set()
    for _, name, spec, conversion in _FORMATTER.parse(template):
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(f"placeholder {{{name}}} must be a plain name such as {{values}}")
        names.add(name)
    return names


def fill_template(template: str, slots: dict[str, str]) -> str:
    """Fill a template's slots with their text.

    Parameters
    ----------
    template
        A template whose slots are exactly ``slots``' keys.
    slots
        Slot name -> text.

    Returns
    -------
    str
        The sentence, with runs of white space made single.
    """
    return " ".join(template.format_map(slots).split())
