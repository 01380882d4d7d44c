"""Every number drawn equals its storyboard string, which is the core's value rounded.

Each scene is played with ``skip_animations``; after every beat the test reads
back every number object on screen and checks it against the storyboard, and
checks every storyboard number against values recomputed here with plain
numpy indexing of the table.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np
import pytest

from embedviz.core.table import EmbeddingTable, TorchSeededTable
from embedviz.story.options import resolve_options
from embedviz.story.scenes import make_table

CASES = [
    ("SingleTokenLookup", {}),
    ("SingleTokenLookup", {"ids": "5", "vocab": 9, "dim": 4, "seed": 7}),
    ("SequenceLookup", {}),
    ("SequenceLookup", {"ids": "7,0,7,63", "vocab": 64, "dim": 5, "init": "normal"}),
    ("SequenceLookup", {"ids": "4821,0,50256", "vocab": 50257, "dim": 768}),
    ("SequenceLookup", {"ids": ",".join(str(i) for i in range(12)), "vocab": 40, "dim": 6}),
]
FRAME_HALF_WIDTH, FRAME_HALF_HEIGHT = 14.222 / 2, 4.0


def _ids(scene: str, overrides: dict[str, Any]) -> np.ndarray:
    default = [3] if scene == "SingleTokenLookup" else [2, 3, 5, 1]
    text = overrides.get("ids")
    if text is None:
        return np.array(default)
    return np.array([int(part) for part in text.split(",")])


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_every_number_on_screen_is_a_real_value(
    dry_run_cache: Any, scene: str, overrides: dict[str, Any]
) -> None:
    run = dry_run_cache(scene, overrides)
    options = resolve_options(overrides, environ={})
    table = make_table(options)
    # The scenes compute only the rows they show; the oracle builds the whole
    # table through the independent full-table path.
    full = table.materialise() if isinstance(table, TorchSeededTable) else table
    assert isinstance(full, EmbeddingTable)
    weight = np.asarray(full.weight)
    ids = _ids(scene, overrides)
    output = weight[ids]  # the oracle: plain numpy row indexing
    assert len(run.checkpoints) == len(run.storyboard.beats)

    for checkpoint in run.checkpoints:
        beat = checkpoint.beat
        on_screen = Counter((kind, index, text) for kind, index, text, _ in checkpoint.numbers)
        in_story = Counter((cell.kind, cell.index, cell.text) for cell in beat.numbers)
        assert on_screen == in_story, f"beat {beat.name}: screen and storyboard differ"
        for kind, index, text, glyphs in checkpoint.numbers:
            assert glyphs == len(text.replace(" ", "")), f"{kind}{index} draws other glyphs"

        for cell in beat.numbers:
            where = f"beat {beat.name}: {cell.kind}{cell.index} {cell.text!r}"
            if cell.kind in ("weight", "output", "printed"):
                if cell.kind == "weight":
                    value = weight[cell.index]
                elif cell.kind == "output":
                    value = output[cell.index]
                else:  # the print of a one-token lookup has shape (1, d)
                    value = output.reshape(-1, weight.shape[1])[cell.index]
                assert cell.value == float(value), where
                assert abs(float(cell.text) - float(value)) <= 0.5e-4 + 1e-9, where
                assert re.fullmatch(r"-?\d+\.\d{4}", cell.text), where
                assert cell.text == f"{float(value):.4f}", where
            else:
                expected = {
                    "row_label": lambda i: i[0],
                    "col_label": lambda i: i[0],
                    "token_id": lambda i: ids[i[0]],
                    "position": lambda i: i[0],
                    "table_size": lambda i: weight.shape[i[0]],
                    "output_size": lambda i: output.shape[i[0]],
                }[cell.kind](cell.index)
                assert cell.text == str(int(expected)), where
                assert cell.value == float(expected), where


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_labels_and_captions_match_the_storyboard(
    dry_run_cache: Any, scene: str, overrides: dict[str, Any]
) -> None:
    run = dry_run_cache(scene, overrides)
    for checkpoint in run.checkpoints:
        beat = checkpoint.beat

        def with_digits(texts: list[str]) -> Counter[str]:
            return Counter(t for t in texts if re.search(r"\d", t))

        assert with_digits(checkpoint.labels) == with_digits(list(beat.labels)), beat.name
        captions = [t for t in checkpoint.texts if " ".join(t.split()) == beat.narration]
        assert len(captions) == 1, f"beat {beat.name}: the narration is not on screen once"
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
