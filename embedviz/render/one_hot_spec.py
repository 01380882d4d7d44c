"""What a one-hot frame must hold (:class:`OneHotSpec`), read from its storyboard.

Split out of :mod:`embedviz.render.solve_one_hot`, which lays the frame out.
"""

from __future__ import annotations

from dataclasses import dataclass

from embedviz.story.model import Storyboard, Window

__all__ = ["OneHotSpec"]


@dataclass(frozen=True)
class OneHotSpec:
    """What a one-hot frame must hold, read from its storyboard.

    Attributes
    ----------
    window
        The drawn part of E (and of the vector).
    token_id
        ``i``.
    value_chars, row_label_chars, id_chars
        The longest table value, row number and ID, in characters.
    margin_labels
        The labels in the left margin: each hidden range's (the vector's and E's).
    title, heading, legend_title
        Texts whose widths matter (``legend_title`` is None without a legend).
    vector_title, product_title, formula
        Typst sources, measured typeset.
    term_chars
        The widest term line (``+ 1 × (-0.4015)``), in characters.
    term_gaps
        The lines that stand for the hidden ranges of terms (``+ terms 5–50255: all 0``).
    cost_chars
        The widest cost line, in characters.
    cost_texts
        The costs' texts, measured at their size: the header, the GPT-2 row's
        name, the lookup's name, each product's value (``6 × 3 = 18``, its
        sizes' digits and its result) and the lookup's 0 with its phrase
        (``copies``, the count, the unit). Empty: measured as ``cost_chars``.
    chips_label
        The chip's heading.
    shape_chars
        The digits of the vector's shape beside its title (``50257 × 1``: 6).
    """

    window: Window
    token_id: int
    value_chars: int
    row_label_chars: int
    id_chars: int
    margin_labels: tuple[str, ...]
    title: str
    heading: str
    legend_title: str | None
    vector_title: str
    product_title: str
    formula: str
    term_chars: int
    cost_chars: int
    chips_label: str = ""
    term_gaps: tuple[str, ...] = ()
    shape_chars: int = 0
    cost_texts: tuple[str, ...] = ()

    @classmethod
    def from_board(cls, board: Storyboard) -> OneHotSpec:
        """Read what a one-hot storyboard shows (every beat's cells and labels)."""
        cells = {(c.kind, c.index): c for beat in board.beats for c in beat.numbers}
        labels = {role: text for beat in board.beats for role, text in beat.labels.items()}

        def widest(*kinds: str) -> int:
            return max([len(c.text) for (k, _), c in cells.items() if k in kinds] or [0])

        window = board.beats[0].window
        margin = [
            text
            for role, text in labels.items()
            if role.startswith(("one_hot_gap_", "row_gap_", "col_gap_"))
        ]
        sizes = " \u00d7 ".join(cells[("table_size", (axis,))].text for axis in (0, 1))
        costs = [
            f"{cells[('cost_size', (n, 0))].text} \u00d7 {cells[('cost_size', (n, 1))].text} = "
            f"{cells[('multiply_adds', (n,))].text}"
            for n in (0, 1)
        ]
        # As CostTable draws them: the sizes' digits and the result of each product.
        values = [
            (
                cells[("cost_size", (n, 0))].text + cells[("cost_size", (n, 1))].text,
                cells[("multiply_adds", (n,))].text,
            )
            for n in (0, 1)
        ]
        cost_texts = (
            board.word("multiply_adds"),
            labels.get("cost_gpt2", ""),
            board.word("lookup"),
            *[text for pair in values for text in pair],
            cells[("multiply_adds", (2,))].text,
            board.word("copies"),
            cells[("copy_count", (0,))].text,
            labels.get("copy_unit", ""),
        )
        names = max(len(labels.get("cost_gpt2", "")), len(board.word("lookup")), 8)
        # The lookup's row: its 0, then "copies 3 numbers" two characters on.
        copies = [c.text for (k, _), c in cells.items() if k == "copy_count"]
        copy_chars = 3 + len(board.word("copies")) + len(labels.get("copy_unit", ""))
        copy_chars += 2 + max(map(len, copies), default=1)
        return cls(
            window=window,
            token_id=board.single_id(),
            value_chars=widest("weight", "output", "product", "term_sum"),
            row_label_chars=max(widest("row_label"), 1),
            id_chars=widest("token_id"),
            margin_labels=tuple(margin),
            title=board.title,
            heading=f"{board.word('embedding_matrix')}  {sizes}",
            legend_title=board.word("value_colour")
            if any(k == "legend" for k, _ in cells)
            else None,
            vector_title=labels["one_hot_title"],
            product_title=labels["product_title"],
            formula=labels["product_formula"],
            term_chars=6 + widest("term_one_hot") + widest("term_weight"),
            chips_label=board.word("token_id"),
            term_gaps=tuple(t for role, t in labels.items() if role.startswith("term_gap_")),
            shape_chars=sum(len(c.text) for (k, _), c in cells.items() if k == "one_hot_size"),
            cost_texts=cost_texts,
            cost_chars=names
            + 2
            + max([*map(len, costs), len(board.word("multiply_adds")), copy_chars]),
        )
