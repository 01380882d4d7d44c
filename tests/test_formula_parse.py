"""A typeset formula is parsed in memory: no temporary file beside Manim's shared SVG cache.

Manim's ``SVGMobject.generate_mobject`` writes the styled SVG to
``media/Tex/<hash>_.svg``, parses it and deletes it. Two processes that set
the same formula at once share that name: one deletes the other's file, and
the other fails (a CI run: ``FileNotFoundError: media/Tex/27e9f171ee3dd4ed_.svg``
in ``test_caption_subscripts``, with pytest-xdist's two workers).
:class:`~embedviz.render.formula.FormulaText` parses the styled tree from
memory; what it draws is what Manim's own parse draws.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np
import pytest
from manim import MathTypst, tempconfig

from embedviz.render.formula import FormulaText

# Not set anywhere else in the suite, so Manim's in-memory SVG cache cannot hand
# back an earlier parse.
SOURCE = "q_(271) + r^(828) = s_(1828)"


def _written_files(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every path an ElementTree is written to (file objects are not paths)."""
    written: list[str] = []
    write = ElementTree.ElementTree.write

    def spy(tree: Any, target: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(target, (str, Path)):
            written.append(str(target))
        return write(tree, target, *args, **kwargs)

    monkeypatch.setattr(ElementTree.ElementTree, "write", spy)
    return written


def test_a_formula_writes_no_file_beside_the_shared_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = _written_files(monkeypatch)
    with tempconfig({"media_dir": str(tmp_path)}):
        FormulaText(SOURCE, 30.0, "#ffffff")
    cached = sorted(p.name for p in (tmp_path / "Tex").iterdir())
    assert any(name.endswith(".svg") for name in cached), "the formula was not typeset here"
    assert written == [], f"a temporary SVG was written: {written}"
    # Manim's own parse does write one: the spy sees it (this test can fail).
    with tempconfig({"media_dir": str(tmp_path)}):
        MathTypst(SOURCE + " + t", font_size=30.0)
    assert [Path(p).name.endswith("_.svg") for p in written] == [True]


def test_the_in_memory_parse_draws_what_manims_parse_draws(tmp_path: Path) -> None:
    with tempconfig({"media_dir": str(tmp_path)}):
        ours = FormulaText(SOURCE + " - u", 30.0, "#ffffff")
        manims = MathTypst(SOURCE + " - u", font_size=30.0, color="#ffffff")
    ours_glyphs = [m for m in ours.submobjects if len(m.points)]
    manims_glyphs = [m for m in manims.submobjects if len(m.points)]
    assert len(ours_glyphs) == len(manims_glyphs) > 5
    # FormulaText scales about its centre so that its digits match the labels': undo that.
    scale = ours.natural_width / manims.width
    for a, b in zip(ours_glyphs, manims_glyphs, strict=True):
        here = (a.points - ours.get_center()) / scale
        there = b.points - manims.get_center()
        np.testing.assert_allclose(here, there, atol=1e-6)
