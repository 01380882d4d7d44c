"""PositionBlindness: a lookup knows which token, not where; position vectors fix that.

The same ID at two positions selects the same row twice, so the two output
rows are identical: nothing in a lookup records order. Adding a position
vector ``P[pos]`` to the token vector at position ``pos`` makes the two rows
differ. ``P`` is sinusoidal by default (the original Transformer's waves);
``positions="learned"`` uses a trained table instead, shown as initialised.

The choice of ``P`` is a parameter of :func:`build_position_blindness`, not
yet a scene option: :class:`~embedviz.story.options.SceneOptions` has no
field for it.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from embedviz.core.cells import DEFAULT_DECIMALS
from embedviz.core.errors import EmbedvizError
from embedviz.core.positions import add_positions, learned_positions, sinusoidal_positions
from embedviz.core.table import Table
from embedviz.story.model import Highlight, NumberKind, Storyboard
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.batch import MAX_GRID_LINES
from embedviz.story.scenes.common import Recorder, SceneSpec, make_table, sequence_ids
from embedviz.story.screen import int_cell, value_cell
from embedviz.story.spoken import number_words
from embedviz.story.window import compact_window, gap_label

__all__ = [
    "LEARNED_CONTEXT",
    "MAX_POSITION_TOKENS",
    "POSITION_KINDS",
    "SPEC",
    "build_position_blindness",
    "learned_seed",
]

# Three blocks side by side leave room for this many rows at a readable size.
MAX_POSITION_TOKENS = 8
# A learned table covers a fixed context; the scene shows its first T rows.
LEARNED_CONTEXT = 16
# The cell kinds of P and of the sums, per kind of position vector.
POSITION_KINDS: dict[str, tuple[NumberKind, NumberKind]] = {
    "sinusoidal": ("sinusoid", "sum_sinusoid"),
    "learned": ("learned_position", "sum_learned"),
}
_SEED_MODULUS = 2**64
# Typst maths, typeset by the renderer. The frequency has a line of its own, so
# that the sines and cosines need neither a fraction nor a raised exponent: its
# exponent is the one script left, and the renderer sets it at a readable size.
# pos · 10000^(-2i/d) is pos / 10000^(2i/d), the core's angle.
_SINE_LABEL = 'P["pos", 2i] = sin("pos" dot omega_i)'
_COSINE_LABEL = 'P["pos", 2i+1] = cos("pos" dot omega_i)'
_FREQUENCY_LABEL = "omega_i = 10000^(-2i \\/ d)"


def learned_seed(seed: int) -> int:
    """Return the seed of the learned position table for a scene's seed.

    It is ``seed + 1`` (wrapping at ``2**64``): with the token table's own
    seed, the two tables would start with the same values.

    Parameters
    ----------
    seed
        The scene's seed (the token table's).

    Returns
    -------
    int
        The position table's seed, as given to ``torch.manual_seed``.
    """
    return (seed + 1) % _SEED_MODULUS


def _sequence_ids(options: SceneOptions, table: Table) -> list[int]:
    values = sequence_ids(
        SPEC.ids(options), table.vocab_size, scene="PositionBlindness", limit=MAX_POSITION_TOKENS,
        example="2,3,2,1",
    )  # fmt: skip
    if len(set(values)) == len(values):
        raise EmbedvizError(
            "PositionBlindness needs an ID that appears twice, such as 2 in 2,3,2,1; "
            "no ID repeats in " + ",".join(str(v) for v in values)
        )
    return values


def _repeat(ids: list[int]) -> tuple[int, int, int]:
    """Return the first repeated ID and its first two positions."""
    seen: dict[int, int] = {}
    for position, token_id in enumerate(ids):
        if token_id in seen:
            return token_id, seen[token_id], position
        seen[token_id] = position
    raise AssertionError("validated to hold a repeat")


def build_position_blindness(
    options: SceneOptions,
    *,
    legend: bool = True,
    positions: str | None = None,
    words: Mapping[str, str] | None = None,
) -> Storyboard:
    """Storyboard: equal IDs get equal rows; adding position vectors separates them.

    Parameters
    ----------
    options
        ``ids`` holds one sequence of 2 to 8 IDs in which some ID repeats
        (default ``[2, 3, 2, 1]``).
    legend
        Whether the colour legend appears (only the first time in a longer video).
    words
        The words to label it with (e.g. a translation); English by default.
    positions
        Overrides ``options.positions``.
        ``sinusoidal`` (default): ``P[pos, 2i] = sin(pos · ω_i)``, ``P[pos, 2i+1] =
        cos(pos · ω_i)``, ``ω_i = 10000^(-2i/d)``. ``learned``: the first T rows of a
        ``16 × d`` table seeded like ``torch.nn.Embedding(16, d)`` after
        ``torch.manual_seed(seed + 1)`` (see :func:`learned_seed`).

    Returns
    -------
    Storyboard
        The scene data; its ``layout`` is ``position_blindness``.

    Raises
    ------
    EmbedvizError
        For bad IDs, a batch, more than 8 IDs, no repeated ID, an unknown
        ``positions``, or a bad table.
    """
    positions = positions or options.positions
    if positions not in POSITION_KINDS:
        raise EmbedvizError(f"positions must be 'sinusoidal' or 'learned', not {positions!r}")
    sum_kind = POSITION_KINDS[positions][1]
    table = make_table(options)
    ids = _sequence_ids(options, table)
    count, dim = len(ids), table.dim
    output = table.lookup(ids)
    pe = _position_vectors(positions, count, dim, options.seed)
    sums = add_positions(output, pe)
    token_id, first, second = _repeat(ids)
    told = SPEC.words(words)
    window = compact_window(table.vocab_size, dim, ids, told)
    lines = len(window.rows) + len(window.row_gaps)
    if lines > MAX_GRID_LINES:
        raise EmbedvizError(
            f"these {len(set(ids))} distinct IDs need {lines} matrix rows on screen, but "
            f"PositionBlindness draws at most {MAX_GRID_LINES}; use fewer distinct IDs"
        )
    rec = Recorder(window, output.shape, told)
    scale = rec.screen.add_grid(table, window, title_size=True, legend=legend)
    _same_rows(rec, ids, output)
    _arrange(rec, positions, dim)
    _positions(rec, positions, pe)
    _add(rec, sum_kind, sums)
    rec.beat(
        "differ",
        "differ",
        f"Now the sums at positions {first} and {second} differ: same token row, different "
        f"position rows. The two copies of ID {token_id} are no longer equal.",
        run_time=1.2,
        highlight=Highlight((second,), token_id, token_id),
        min_hold=2.0,
    )
    return rec.finish(SPEC, options, table, tuple(ids), scale)


def _add(rec: Recorder, sum_kind: NumberKind, sums: npt.NDArray[np.float32]) -> None:
    """Add row by row; the sums are of the unrounded values, shown to a few decimals."""
    for position in range(sums.shape[0]):
        for col in rec.window.cols:
            rec.screen.add(value_cell(sum_kind, (position, col), sums[position, col]))
    # A sum's last digit may differ from the sum of the two rounded numbers shown above it.
    rec.screen.labels["sum_note"] = rec.words("sum_note", places=DEFAULT_DECIMALS)
    rec.beat(
        "add",
        "add",
        "The two are added row by row, token vector plus position vector. These sums are "
        "what the model's next layers receive. Each sum adds the unrounded values and is shown "
        f"to {DEFAULT_DECIMALS} decimals.",
        run_time=3.2,
    )


def _position_vectors(positions: str, count: int, dim: int, seed: int) -> npt.NDArray[np.float32]:
    """Return P for the first ``count`` positions: sinusoidal, or a learned table's rows."""
    if positions == "sinusoidal":
        return sinusoidal_positions(count, dim)
    return learned_positions(LEARNED_CONTEXT, dim, learned_seed(seed))[:count]


def _same_rows(rec: Recorder, ids: list[int], output: npt.NDArray[np.float32]) -> None:
    """Look the IDs up: the repeated ID gets the same row twice."""
    screen, count = rec.screen, len(ids)
    token_id, first, second = _repeat(ids)
    for position, value in enumerate(ids):
        screen.add(int_cell("token_id", (position,), value))
    listing = ", ".join(str(i) for i in ids)
    rec.beat(
        "intro",
        "intro",
        f"The input {listing} holds ID {token_id} twice, at positions {first} and "
        f"{second}. Watch what the lookup gives each copy.",
        run_time=1.5,
    )
    rec.show_output_frame([(t,) for t in range(count)])
    for position in range(count):
        # Each chip becomes its row's tag: one ID, one object.
        rec.fill_output((position,), output[position], ids[position], chip_becomes_tag=True)
    # The repeat is shown equal by a bracket in the next beat, not by a mark.
    rec.screen.remove_kind("equal_to")
    rec.beat(
        "lookup",
        "lookup_all",
        _lookup_sentence(ids),
        run_time=1.1 * count,
        min_hold=0.8,
    )
    rec.beat(
        "same",
        "same",
        f"Positions {first} and {second} both hold ID {token_id}, so both get row "
        f"{token_id}: identical vectors. The lookup encodes which token, not where.",
        run_time=1.2,
        highlight=Highlight((first,), token_id, token_id),
        min_hold=1.5,
    )


def _arrange(rec: Recorder, positions: str, dim: int) -> None:
    """Clear the matrix; bring P and the sums, empty, with P's definition (or its size).

    The definition is what "one vector per position, whatever token sits
    there" says: P's rows depend on the position alone. It stands where the
    sums' band would otherwise be empty until P's values come.
    """
    screen = rec.screen
    # The matrix has done its job; the rows and their position vectors take the stage.
    # The colour legend stays: the token vectors, P and the sums are coloured by value.
    for kind in ("weight", "row_label", "col_label", "table_size"):
        screen.remove_kind(kind)
    for key in [k for k in screen.labels if k.startswith(("row_gap_", "col_gap_"))]:
        del screen.labels[key]
    if positions == "sinusoidal":
        screen.labels["formula_0"] = _SINE_LABEL
        if dim > 1:
            screen.labels["formula_1"] = _COSINE_LABEL
        # The last line; formula_ labels are drawn in the order of their keys.
        screen.labels["formula_2"] = _FREQUENCY_LABEL
    else:
        screen.add(int_cell("pe_size", (0,), LEARNED_CONTEXT), int_cell("pe_size", (1,), dim))
        # P draws its first T rows of LEARNED_CONTEXT: the rest are a hidden range, labelled.
        count = len([key for key in screen.numbers if key[0] == "position"])
        if count < LEARNED_CONTEXT:
            screen.labels["pe_gap"] = gap_label(count, LEARNED_CONTEXT - 1, "row", rec.words)
    rec.beat(
        "arrange",
        "arrange",
        "To tell the copies apart, the model adds a position vector to each row. "
        "There is one vector per position, whatever token sits there.",
        run_time=2.4,
    )


def _lookup_sentence(ids: list[int]) -> str:
    """Say that the first ID fetches its row, as before, and the others do the same."""
    rest = len(ids) - 1
    others = "The other ID does" if rest == 1 else f"The other {number_words(rest)} IDs do"
    return f"As before, ID {ids[0]} selects its row of E. {others} the same, one after another."


def _positions(rec: Recorder, positions: str, pe: npt.NDArray[np.float32]) -> None:
    """Show the position vectors P: sinusoidal with their formula, or a learned table."""
    screen, window = rec.screen, rec.window
    pe_kind = POSITION_KINDS[positions][0]
    count, dim = pe.shape
    for position in range(count):
        for col in window.cols:
            screen.add(value_cell(pe_kind, (position, col), pe[position, col]))
    for col in window.cols:
        screen.add(int_cell("pe_col", (col,), col))
    if positions == "sinusoidal":
        # At pos = 0 every sine is 0 and every cosine is 1.
        first_row = ", ".join("01"[c % 2] for c in range(min(dim, 4)))
        narration = (
            "Here P is sinusoidal. Even columns hold sines of the position, and odd "
            f"columns cosines. So row 0 is {first_row}{', ...' if dim > 4 else ''}."
        )
    else:
        narration = (
            f"Here P is learned. It is a second table with one row per position, up to "
            f"{LEARNED_CONTEXT}. It starts random like E and is trained along with it."
        )
    rec.beat("positions", "positions", narration, run_time=2.4, min_hold=1.5)


SPEC = SceneSpec(
    name="PositionBlindness",
    alias="position",
    module="position_blindness",
    summary="The same ID gets the same row at any position; adding position vectors fixes it.",
    build=build_position_blindness,
    title="The lookup knows which token, not where",
    layout="position_blindness",
    default_ids=[2, 3, 2, 1],
    order=80,
    examples=(
        {"ids": "5,1,4,1,5,9,2,6", "vocab": 10, "dim": 6},
        {"ids": "4821,0,4821", "vocab": 50257, "dim": 768},
        {"ids": "0,0", "vocab": 3, "dim": 1, "theme": "light"},
        {"positions": "learned"},
    ),
)
