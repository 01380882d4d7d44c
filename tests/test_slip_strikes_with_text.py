"""ZeroBasedIndexing's struck slip comes and goes as one object (issue 18, a 720p review).

The slip ("counting from one", "ID 3 -> row index 2") is struck out as the count
from zero corrects it, leaves with the trace's first motion and comes back for
the diagnosis. A teacher's 720p frame review saw its text fade out first and its
two strike lines stay alone, bright, for half a second (trace, 21.0-21.5 s): two
bare lines floating under the title. A strike is drawn only over its text: at
every moment of the trace and the diagnosis it is as opaque as the text it
crosses, and while shown it is in the struck text's own dimmed ink, not brighter.
"""

from __future__ import annotations

from typing import Any

import pytest
from manim import VMobject

from embedviz.inputs import prepared_storyboard

ALPHAS = tuple(k / 40 for k in range(1, 41))
TOLERANCE = 0.05


def _opacity(part: VMobject, drawn: set[int], stroke: bool) -> float:
    """How opaque a part is drawn: its inks' largest opacity, 0 when not on screen."""
    inks = [m for m in part.get_family() if isinstance(m, VMobject) and len(m.points)]
    values = [
        float(m.get_stroke_opacity() if stroke else m.get_fill_opacity())
        for m in inks
        if id(m) in drawn
    ]
    return max(values, default=0.0)


@pytest.fixture(scope="module")
def samples() -> dict[str, Any]:
    """Play the scene dry, sampling the trace and diagnose beats finely."""
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("ZeroBasedIndexing", {}, environ={})
    pairs: list[tuple[str, int, float, str, float, float]] = []
    inks: dict[str, tuple[str, ...]] = {}

    def read(scene: Any, moment: Any) -> None:
        slip = scene.stage.slip
        drawn = {id(m) for top in scene.mobjects for m in top.get_family()}
        beat = moment.beat.name
        if beat == "zero-based" and moment.alpha == 1.0:
            texts = [slip.header, *slip.line]
            inks["text"] = tuple(m.get_fill_color().to_hex().lower() for m in texts)
            inks["strikes"] = tuple(s.get_stroke_color().to_hex().lower() for s in slip.strikes)
        if beat not in ("trace", "diagnose"):
            return
        struck = zip(("header", "line"), (slip.header, slip.line), slip.strikes, strict=True)
        for name, text, strike in struck:
            shown = _opacity(text, drawn, stroke=False)
            line = _opacity(strike, drawn, stroke=True)
            pairs.append((beat, moment.step, moment.alpha, name, shown, line))

    play_moments(board, read, alphas=ALPHAS)
    return {"pairs": pairs, "inks": inks}


def test_no_strike_shows_without_its_text(samples: dict[str, Any]) -> None:
    pairs = samples["pairs"]
    assert {p[0] for p in pairs} == {"trace", "diagnose"}
    # The samples see the slip both gone and shown, and come and go between.
    assert any(struck > 0.9 for *_, struck in pairs)
    assert any(struck == 0.0 for *_, struck in pairs)
    apart = [
        (beat, step, round(alpha, 3), name, round(shown, 2), round(struck, 2))
        for beat, step, alpha, name, shown, struck in pairs
        if abs(shown - struck) > TOLERANCE
    ]
    assert not apart, f"a strike and its text fade apart (text, strike opacity): {apart[:6]}"


def test_strikes_are_in_the_struck_texts_ink(samples: dict[str, Any]) -> None:
    """Struck, the slip's header is in ``wrong`` dimmed: its strikes are that ink, no brighter."""
    inks = samples["inks"]
    header = inks["text"][0]
    assert inks["strikes"] == (header, header), inks
