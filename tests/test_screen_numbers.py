"""Every number drawn equals its storyboard string, which is the core's value rounded.

Each scene is played with ``skip_animations``; after every beat the test reads
back every number object on screen and checks it against the storyboard, and
checks every storyboard number against the oracles in ``tests/oracles``: values
recomputed from a table derived independently (PyTorch, numpy, or the weights
file read by hand), with the IDs taken from the options.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from oracles import assert_matches, expected, make_context

from embedviz.story.scenes import SCENES

# Every scene with its defaults, its own examples (long ID lists, large d, ...),
# and the light theme once.
CASES = [
    (name, overrides) for name, spec in SCENES.items() for overrides in ({}, *spec.examples)
] + [("SequenceLookup", {"theme": "light"})]
FRAME_HALF_WIDTH, FRAME_HALF_HEIGHT = 14.222 / 2, 4.0


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_every_number_on_screen_is_a_real_value(
    dry_run_cache: Any, scene: str, overrides: dict[str, Any]
) -> None:
    run = dry_run_cache(scene, overrides)
    assert len(run.checkpoints) == len(run.storyboard.all_beats())
    # A composite video is checked part by part, each against its own scene's
    # oracle; its parts use their defaults, with only the theme passed on.
    composite = bool(run.storyboard.parts)
    part_overrides = {k: v for k, v in overrides.items() if k == "theme"}
    contexts: list[Any] = []
    for part in run.storyboard.parts or (run.storyboard,):
        if part.layout == "transition":
            context = None
        else:
            context = make_context(part.scene, part_overrides if composite else overrides, part)
        contexts += [context] * len(part.beats)

    for checkpoint, context in zip(run.checkpoints, contexts, strict=True):
        beat = checkpoint.beat
        on_screen = Counter((kind, index, text) for kind, index, text, _ in checkpoint.numbers)
        in_story = Counter((cell.kind, cell.index, cell.text) for cell in beat.numbers)
        assert on_screen == in_story, f"beat {beat.name}: screen and storyboard differ"
        # A number drawn twice on purpose repeats a cell that is on screen too.
        for echo in checkpoint.echoes:
            assert in_story[echo], f"beat {beat.name}: {echo} echoes no number on screen"
        for kind, index, text, glyphs in checkpoint.numbers:
            assert glyphs == len(text.replace(" ", "")), f"{kind}{index} draws other glyphs"
        for cell in beat.numbers:
            assert context is not None, f"beat {beat.name} shows numbers between parts"
            where = f"beat {beat.name}: {cell.kind}{cell.index} {cell.text!r}"
            assert_matches(cell, context, where)
            value, text = expected(cell, context)
            if re.fullmatch(r"-?\d+\.\d{4}", text):
                # The string is the value rounded: within half a unit of the last place.
                assert abs(float(text) - value) <= 0.5e-4 + 1e-9, where


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_labels_and_captions_match_the_storyboard(
    dry_run_cache: Any, scene: str, overrides: dict[str, Any]
) -> None:
    run = dry_run_cache(scene, overrides)
    for checkpoint in run.checkpoints:
        beat = checkpoint.beat

        def with_digits(texts: list[str]) -> Counter[str]:
            return Counter(t for t in texts if re.search(r"\d", t))

        assert with_digits(checkpoint.labels) == with_digits(list(beat.labels.values())), beat.name
        # The narration is burned in phrase by phrase: the beat ends on its last phrase.
        last = beat.phrases[-1].text if beat.phrases else beat.narration
        captions = [t for t in checkpoint.texts if " ".join(t.split()) == last]
        assert len(captions) == 1, f"beat {beat.name}: the last phrase is not on screen once"
        others = [t for t in checkpoint.texts if t not in captions]
        assert not [t for t in others if re.search(r"\d", t)], "a plain Text shows digits"


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_text_stays_in_frame_and_does_not_overlap(
    dry_run_cache: Any, scene: str, overrides: dict[str, Any]
) -> None:
    run = dry_run_cache(scene, overrides)
    for checkpoint in run.checkpoints:
        boxes = checkpoint.boxes
        for text, ((left, bottom), (right, top)) in boxes:
            assert left > -FRAME_HALF_WIDTH, text
            assert right < FRAME_HALF_WIDTH, text
            assert bottom > -FRAME_HALF_HEIGHT, text
            assert top < FRAME_HALF_HEIGHT, text
        for i, (text_a, box_a) in enumerate(boxes):
            for text_b, box_b in boxes[i + 1 :]:
                overlap_x = min(box_a[1][0], box_b[1][0]) - max(box_a[0][0], box_b[0][0])
                overlap_y = min(box_a[1][1], box_b[1][1]) - max(box_a[0][1], box_b[0][1])
                assert overlap_x <= 0.01 or overlap_y <= 0.01, (
                    f"beat {checkpoint.beat.name}: {text_a!r} overlaps {text_b!r}"
                )
