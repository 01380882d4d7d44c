"""Oracles for LargeVocabLookup: the parameter count it shows.

Its GPT-2-sized default table comes from ``SPEC.defaults``, which the shared
context applies like every other option.
"""

from __future__ import annotations

import oracles
from embedviz.story.model import NumberCell


def _param_count(cell: NumberCell, context: oracles.Context) -> tuple[float, str]:
    vocab, dim = context.weight.shape
    count = int(vocab) * int(dim)
    # Thousands separators, written out by hand.
    digits = str(count)
    groups = [digits[max(0, end - 3) : end] for end in range(len(digits), 0, -3)]
    return float(count), ",".join(reversed(groups))


KINDS = {"param_count": _param_count}
