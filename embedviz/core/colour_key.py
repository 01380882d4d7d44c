"""The value-colour key's range: one per table, the same in every scene that draws it.

A 720p review found the key reading ±3 in SequenceLookup but ±2 in BatchLookup
and LargeVocabLookup for the same GPT-2-sized table: each scene rounded up the
largest value *it* showed (:func:`~embedviz.core.cells.colour_scale`), and the
scenes show different rows. The key is now chosen from the table alone:

- a seeded table (``--init torch`` or ``normal``) holds standard normal draws;
  its key is that distribution's: ``|x|`` stays under 2.58 for 99 % of draws,
  rounded up to one significant digit, ±3. No row is computed for it (a
  GPT-2-sized seeded table computes only the rows a scene shows);
- any other table (weights from a file, a model, an array): the 99th
  percentile of ``|value|`` over up to :data:`KEY_ROWS` rows spread evenly
  over the table (all of a smaller one), rounded up the same way.

A value past the key's end takes its strongest colour
(:func:`~embedviz.render.design.value_colour` saturates).
"""

from __future__ import annotations

import numpy as np

from embedviz.core.cells import colour_scale
from embedviz.core.table import Table

__all__ = ["KEY_QUANTILE", "KEY_ROWS", "NORMAL_QUANTILE", "key_rows", "table_key"]

# The share of a table's values that stay within the key's ends.
KEY_QUANTILE = 0.99
# |x| of a standard normal x is under this with probability KEY_QUANTILE (x's 99.5th percentile).
NORMAL_QUANTILE = 2.5758293035489004
# The rows a table's key reads at most (a real model's 50257 rows: 256 of them).
KEY_ROWS = 256


def key_rows(vocab_size: int) -> list[int]:
    """Return the rows a table's key reads: up to :data:`KEY_ROWS`, first and last included."""
    if vocab_size <= KEY_ROWS:
        return list(range(vocab_size))
    spread = np.rint(np.linspace(0, vocab_size - 1, KEY_ROWS)).astype(np.int64)
    return sorted({int(r) for r in spread})


def table_key(table: Table) -> float:
    """Return the magnitude ``s`` the key reads at its ends (``-s``, ``0``, ``+s``).

    Parameters
    ----------
    table
        The table; a seeded one (its ``seeded`` attribute true) is not read.

    Returns
    -------
    float
        One significant digit, as :func:`~embedviz.core.cells.colour_scale`
        gives; 1 when every value read is zero or none is finite.
    """
    if getattr(table, "seeded", False):
        return colour_scale([NORMAL_QUANTILE])
    values = np.abs(table.rows(np.asarray(key_rows(table.vocab_size), dtype=np.int64)))
    values = values[np.isfinite(values)]
    if not values.size:
        return 1.0
    return colour_scale([float(np.quantile(values, KEY_QUANTILE))])
