"""BatchLookup's table digits from the reveal on are as large as the frame allows (issue 18).

The batch solver kept the loosest rows whose numbers met the 24 px floor: the
default batch stood at 24.6 px at 720p, bound by the height of two slices of
four rows, with width for 25.5 px at tighter rows; GPT-2's batch at 18.7 px
with room for 19.7. In the arrangement it chooses, the solver now takes the
largest numbers at any of its pitches (the rows then grow into spare height),
and the column beside E keeps no room for the marks' lines, which went in
session 34. Read from the solver's plan, as the stage draws it.
"""

from __future__ import annotations

from typing import Any

import pytest
from boards import shared_board

from embedviz.render.batch_plan import batch_spec
from embedviz.render.design import px_for_font
from embedviz.render.metrics import digit_height
from embedviz.render.solve_batch import BATCH_PITCHES, solve_batch

GPT2 = {"ids": "4821,0,50256,17;33000,2,4821,0", "vocab": 50257, "dim": 768}
BATCH_3X6 = {"ids": "7,0,7,9,2,6;5,5,1,0,2,8;9,3,4,4,0,1", "vocab": 10, "dim": 5}


@pytest.mark.parametrize(
    ("overrides", "least"),
    [
        # On main: 24.6 px (the default IDs), 18.7 px (GPT-2's) and 18.2 px (3 x 6).
        ({}, 25.4),
        # Held at 18.7 by 5dba112 while its strips rose at the walking column's middle.
        (GPT2, 19.6),
        (BATCH_3X6, 18.8),
    ],
)
def test_the_batch_numbers_take_the_size_the_frame_allows(
    overrides: dict[str, Any], least: float
) -> None:
    """The numbers reach the size at which the frame still holds the layout, and the
    rows are no tighter than the tightest pitch tried (a row keeps its digits apart)."""
    plan = solve_batch(batch_spec(shared_board("BatchLookup", overrides)))
    assert px_for_font(plan.scale.data) >= least, px_for_font(plan.scale.data)
    pitch = plan.sizes.row_height / digit_height(plan.scale.data)
    assert pitch >= min(BATCH_PITCHES) - 1e-6, pitch
