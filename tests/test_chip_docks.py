"""A fetching chip stands docked against its row: beside it in E, and beside its copy as it travels.

A 720p frame review of the lookup beats (BatchLookup's lookup-0-0,
SequenceLookup's lookup-0) read the chip as waiting beside its row while the
row lifted as a strip and travelled, but docked far right of it in empty
space: nobody could tell which row it was with. Measured from the mobjects,
the chip stands 7 to 11 px (at 1280 px) from its outlined row when it
arrives; the still frames had caught it on its way home, well ahead of its
row's strip (BatchLookup: about 400 px ahead, on the row's centre line;
SequenceLookup: about 140 px, in its output row).

Each teaching-pace ``lookup`` beat is dry-run and sampled finely (and
LargeVocabLookup's lookups: ``lookup``, ``scroll_lookup`` and its rest's
``fill_rest``, whose strips of hidden rows lift off their bands). The bound
comes from the design, not the code under test: a chip may leave between
itself and what it stands with at most a row number's gap from its tag
(:func:`~embedviz.render.parts.chips.number_gap`) and one digit's column of
the labels' font: the ground a tag and its row number leave, read as one
glance.

- At its row: a chip level with its row's amber outline in E, left of the
  output block (not at home in the tag column), before any of its copy shows,
  stands at most that far right of the outline.
- With its copy: from the first sample its strip's box shows until the copy
  lands, the chip that fetched it stands level with it and at most that far
  right of its box. BatchLookup rides its chip at the strip's right end (as
  its corridor arrangement did); so do the sequence layouts (see
  :mod:`embedviz.render.parts.ride`): beside (the toy and GPT-2 sized
  cases) their strip turns up beside the output block's empty rows tightly
  enough that the chip riding there passes the chips waiting in the tags'
  column; in the corridor (MiniLM's 12 tokens) the chip rides where the rows
  it passes are empty (all the teaching-pace lookups there), else it leads.
  LargeVocabLookup docks its chip past the scroll bar, and closes the bar's
  gap while the strip is still hidden (see ``tests/test_ride_bar.py``): on
  main it led its copy home, up to 364 px right of it (41 samples).
- Riding, it covers no landed number of the output block (in the corridor it
  crosses the block's first column), and it passes every other chip at least
  a TAG_GAP clear, as far as a tag stands from the row it tags (a chip that
  rode at its strip's right end round a wide turn brushed, then covered, the
  next IDs' chips waiting in the tags' column).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from boards import minilm_options
from carry_plays import GPT2

# tests/chip_watch.py's DockWatch reads the chips, every fortieth of each LOOKUPS beat,
# in each scene's play that tests/carry_plays.py shares (carry_play_cache).
CASES: dict[str, tuple[str, Any]] = {
    "sequence": ("SequenceLookup", {}),
    "gpt2": ("SequenceLookup", GPT2),
    "minilm": ("SequenceLookup", minilm_options),
    "batch": ("BatchLookup", {}),
    "large_vocab": ("LargeVocabLookup", {}),
}


def _far(case: str, carry_play_cache: Any) -> tuple[int, int, list[str], list[str], list[str]]:
    """Return (docks sampled, samples with a copy, chips docked far, chips far from a copy,
    chips riding home over a landed number or too near another chip)."""
    scene_name, overrides = CASES[case]
    played = carry_play_cache(scene_name, overrides() if callable(overrides) else overrides)
    return played.docks


# Session 40: LargeVocab's rest beat plays its eight lookups down one corridor, one after
# another, about 9 s of motion: shared out with the beat's other step they once played in
# 2.5 s, and the last chip (row 50256's) was read 200 px right of its row's outline (rest
# s1 a0.925) and not again before its copy left. They play at most twice their pace now
# (vocab_motion.REST_SPEEDUP).


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_chip_docks_against_its_row_in_e(case: str, carry_play_cache: Any) -> None:
    at, _, far, _, _ = _far(case, carry_play_cache)
    assert at > 0, "no chip was sampled beside its row: the check would pass vacuously"
    assert not far, "chips standing off their rows:\n" + "\n".join(far[:20])


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_chip_stays_beside_its_travelling_copy(case: str, carry_play_cache: Any) -> None:
    _, travelling, _, far, _ = _far(case, carry_play_cache)
    assert travelling > 0, "no travelling copy was sampled: the check would pass vacuously"
    assert not far, "chips away from their travelling copies:\n" + "\n".join(far[:20])


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_chip_riding_home_passes_numbers_and_chips_clear(
    case: str, carry_play_cache: Any
) -> None:
    _, travelling, _, _, near = _far(case, carry_play_cache)
    assert travelling > 0, "no travelling copy was sampled: the check would pass vacuously"
    assert not near, "chips riding home over numbers or chips:\n" + "\n".join(near[:20])


def test_a_strip_drawn_only_at_its_right_end_is_read_as_its_copy() -> None:
    """A copy sliding out of E, its box shaded cell by cell, is read where it is drawn.

    Its box's left end is transparent (parts/strip_frame.py): read there
    (``get_stroke_opacity()``), 6 of the default SequenceLookup's 32 samples of a
    drawn copy went unchecked as if no copy showed.
    """
    from types import SimpleNamespace

    from chip_watch import _strip_box
    from manim import Rectangle, VGroup

    from embedviz.render.parts.strip_frame import FrameShade

    box = Rectangle(width=3.0, height=0.5)
    (left, bottom), (right, top) = box.get_corner([-1, -1, 0])[:2], box.get_corner([1, 1, 0])[:2]
    opaque = np.array([1.0, 0.75, 0.0, 1.0])
    shade = FrameShade(lefts=np.array([0.0, 1.0, 2.0]), stroke=opaque, fill=opaque, whole_at=1.0)
    shade.paint(box, (left, bottom, right, top), left, np.array([0.0, 0.0, 1.0]), 0.5)
    drawn = _strip_box(SimpleNamespace(strip=VGroup(box, VGroup(), VGroup())))
    assert drawn is not None
    assert drawn == pytest.approx([left + 2.0, bottom, right, top], abs=0.05)
