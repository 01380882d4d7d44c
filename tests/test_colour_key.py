"""The value-colour key is the table's: the same table gets the same key in every scene.

A 720p review (lecture-hall frames) found the key reading ±3 in SequenceLookup
(``--ids 4821,0,50256``) but ±2 in BatchLookup and LargeVocabLookup for the
same GPT-2-sized table (``--vocab 50257 --dim 768``, the default seed): each
scene rounded up the largest value it happened to show.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from embedviz.core.cells import colour_scale, format_scale
from embedviz.core.colour_key import KEY_QUANTILE, key_rows, table_key
from embedviz.core.table import EmbeddingTable, FileTable, TorchSeededTable
from embedviz.inputs import prepared_storyboard
from embedviz.story.scenes import SCENES

GPT2 = {"vocab": 50257, "dim": 768}
# IDs per scene that takes them in another form than a sequence (the rest: the sequence).
ONE_ID = {"SingleTokenLookup", "ZeroBasedIndexing", "OneHotEquivalence", "ParameterCount"}
SEQUENCE = "4821,0,50256"
BATCH = "4821,0;50256,17"


def _ids(scene: str, sequence: str) -> str:
    if scene in ONE_ID:
        return sequence.split(",")[0]
    if scene == "BatchLookup":
        first, *rest = sequence.split(",")
        return f"{first},{rest[0]};{','.join(rest[1:]) or first},{first}"
    if scene == "PositionBlindness":
        return f"{sequence},{sequence.split(',')[0]}"  # it needs a repeat
    return sequence


def _keys(
    overrides: dict[str, Any], sequence: str, tmp_path: Path, defaults: bool = True
) -> dict[str, Any]:
    """Every scene's colour scale and key texts (the legend's cells), with IDs of
    ``sequence`` (and with its own default IDs where ``defaults``)."""
    keys: dict[str, Any] = {}
    for scene in SCENES:
        if scene == "FullExplainer":
            continue  # its parts are the scenes here
        for ids in (None, _ids(scene, sequence)) if defaults else (_ids(scene, sequence),):
            wanted = dict(overrides) if ids is None else {**overrides, "ids": ids}
            board = prepared_storyboard(scene, wanted, cwd=tmp_path, environ={})
            legend = sorted(
                {(c.index, c.text) for b in board.beats for c in b.numbers if c.kind == "legend"}
            )
            keys[f"{scene} {ids or 'default ids'}"] = (board.value_scale, legend)
    return keys


def _one_key(keys: dict[str, Any]) -> float:
    scales = {scale for scale, _ in keys.values()}
    assert len(scales) == 1, keys
    (scale,) = scales
    drawn = [(n, text) for _, legend in keys.values() for n, text in legend]
    assert drawn, "no scene drew a key"
    expected = {(0,): format_scale(-scale), (1,): "0", (2,): format_scale(scale)}
    assert all(expected[n] == text for n, text in drawn), keys
    return float(scale)


def test_a_gpt2_sized_table_has_one_key_in_every_scene(tmp_path: Path) -> None:
    """The review's case: ±3 in SequenceLookup, ±2 in BatchLookup and LargeVocabLookup."""
    assert _one_key(_keys(GPT2, SEQUENCE, tmp_path)) == 3.0


def test_the_default_table_keeps_its_key(tmp_path: Path) -> None:
    """The default 6 x 3 table (every value on screen, the largest -2.84) still reads ±3."""
    assert _one_key(_keys({}, "3,0,5", tmp_path)) == 3.0


def test_a_table_from_a_file_has_one_key_in_every_scene(tmp_path: Path) -> None:
    """Real weights are small: the key is read from the table (±0.2 here), in every scene."""
    weights = np.random.default_rng(7).normal(0.0, 0.06, size=(300, 16)).astype(np.float32)
    weights[299, 3] = 1.7  # one outlier the key does not follow (a value past it saturates)
    path = tmp_path / "table.npy"
    np.save(path, weights)
    keys = _keys({"weights": str(path)}, "299,0,150", tmp_path, defaults=False)
    assert _one_key(keys) == 0.2
    assert table_key(FileTable.open(path)) == 0.2


def test_the_key_of_a_read_table_is_its_rounded_percentile() -> None:
    values = np.linspace(-0.5, 0.5, 600, dtype=np.float32).reshape(100, 6)
    table = EmbeddingTable.from_array(values)
    expected = colour_scale([np.quantile(np.abs(values), KEY_QUANTILE)])
    assert table_key(table) == expected == 0.5
    assert table_key(EmbeddingTable.from_array(np.zeros((3, 2)))) == 1.0


def test_a_seeded_tables_key_reads_none_of_its_rows(computed_rows: Any) -> None:
    """A seeded table holds standard normal draws: its key is theirs (±3), computed from no row."""
    assert table_key(TorchSeededTable.create(50257, 768, 123)) == 3.0
    assert table_key(EmbeddingTable.from_seed(6, 3, 123, "normal")) == 3.0
    assert computed_rows.row_calls == []


@pytest.mark.parametrize("vocab", [1, 5, 256, 257, 50257])
def test_key_rows_spread_over_the_table(vocab: int) -> None:
    rows = key_rows(vocab)
    assert rows[0] == 0
    assert rows[-1] == vocab - 1
    assert len(rows) == min(vocab, 256) == len(set(rows))
