"""SingleTokenLookup: one token ID becomes one row, printed as PyTorch does."""

from __future__ import annotations

from collections.abc import Mapping

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import validate_ids
from embedviz.core.table import (
    Table,
)
from embedviz.core.torch_format import format_torch_tensor
from embedviz.story.model import Highlight, NumberCell, Storyboard
from embedviz.story.options import SceneOptions
from embedviz.story.printed import split_printed
from embedviz.story.scenes.common import (
    GRAD_FN,
    Recorder,
    SceneSpec,
    intro_sentence,
    lookup_row_sentence,
    make_table,
)
from embedviz.story.screen import int_cell
from embedviz.story.window import choose_window

__all__ = ["SPEC", "build_single_token_lookup"]


def _single_ids(options: SceneOptions, table: Table) -> int:
    checked = validate_ids(SPEC.ids(options), table.vocab_size)
    if checked.size != 1:
        raise EmbedvizError(
            f"SingleTokenLookup shows one token ID, but {checked.size} were given; "
            "use SequenceLookup for several"
        )
    return int(checked.ravel()[0])


def build_single_token_lookup(
    options: SceneOptions, *, legend: bool = True, words: Mapping[str, str] | None = None
) -> Storyboard:
    """Storyboard: one ID walks to its row; the row is printed as PyTorch does.

    Parameters
    ----------
    options
        ``ids`` must hold one ID (default 3).
    legend
        Whether the colour legend appears (only the first time in a longer video).
    words
        The words to label it with (e.g. a translation); English by default.

    Returns
    -------
    Storyboard
        The scene data.
    """
    table = make_table(options)
    token_id = _single_ids(options, table)
    output = table.lookup([token_id])
    told = SPEC.words(words)
    window = choose_window(table.vocab_size, table.dim, [token_id], steady=True, words=told)
    printed = format_torch_tensor(output, grad_fn=GRAD_FN)
    lines, omitted = split_printed(printed, output.shape)
    rec = Recorder(window, output.shape, told)
    screen = rec.screen
    focus = Highlight((0,), token_id, token_id)

    scale = screen.add_grid(table, window, title_size=True, legend=legend)
    screen.add(int_cell("token_id", (0,), token_id))
    # The call is on screen from the start: the scene shows what it returns.
    screen.labels["code"] = f"embedding_layer(torch.tensor([{token_id}]))"
    rec.beat("intro", "intro", intro_sentence(table), run_time=1.5)
    rec.beat(
        "zero-based",
        "count_rows",
        "Rows are numbered from 0, like positions in a Python list. "
        + lookup_row_sentence(token_id),
        run_time=3.2,  # the count rings each row in turn, slowly enough to follow
        highlight=focus,
    )
    rec.show_output_frame([])  # 1 × d: no row number ("0" by the tag "3" read "3 0")
    rec.fill_output((0,), output[0], token_id, chip_becomes_tag=True)
    rec.beat(
        "lookup",
        "lookup",
        f"The layer walks to row {token_id}: nothing is multiplied or added. It copies the "
        f"whole row out. Those {table.dim} numbers are the embedding of token {token_id}.",
        run_time=2.4,
        highlight=focus,
    )
    for line_number, line in enumerate(lines):
        for piece_number, (_, text, element) in enumerate(line.pieces):
            if element is None:
                screen.labels[f"printed_{line_number}_{piece_number:03d}"] = text
            else:
                # The number as PyTorch prints it (-9.5602e-01 in a wide-ranged row).
                screen.add(NumberCell("printed", element, text, float(output[element])))
    if omitted:
        # A long print is cut: one elision line stands for the lines left out.
        screen.labels["printed_omitted"] = "\u22ee"
    rec.beat(
        "print",
        "print",
        f"PyTorch prints the result inside double brackets. The outer pair means a "
        f"2-D tensor with a single row. The {table.dim} numbers inside are row {token_id} of E.",
        run_time=1.6,
        highlight=focus,
    )
    rec.beat(
        "grad-fn",
        "grad_fn",
        f"grad_fn=<{GRAD_FN}> is metadata that PyTorch attaches to the result. "
        f"What matters are the numbers: row {token_id} of the matrix.",
        run_time=1.0,
        highlight=focus,
    )
    return rec.finish(SPEC, options, table, token_id, scale, printed=printed)


SPEC = SceneSpec(
    name="SingleTokenLookup",
    alias="single",
    module="single_token",
    summary="One token ID walks to its zero-based row; the row is printed as PyTorch does.",
    build=build_single_token_lookup,
    title="One token ID, one row",
    default_ids=[3],
    order=10,
    examples=({"ids": "5", "vocab": 9, "dim": 4, "seed": 7},),
)
