"""The Manim plugin: public mobjects whose every number is the core table's."""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from embedviz.core.table import EmbeddingTable

REPO = Path(__file__).resolve().parent.parent
OWN_SCENE = REPO / "examples" / "own_scene.py"


def _torch_weight(vocab: int, dim: int, seed: int) -> np.ndarray:
    """The oracle: PyTorch's own nn.Embedding initialisation."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(seed)
    return torch.nn.Embedding(vocab, dim).weight.detach().numpy().astype(np.float64)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


# -- the public API refuses numbers that are not the table's ------------------------------


def test_walk_refuses_a_row_that_is_not_the_chips_id() -> None:
    from embedviz.plugin import EmbeddingGrid, TokenChip, walk_to_row

    grid = EmbeddingGrid(EmbeddingTable.from_seed(6, 3, seed=123))
    chip = TokenChip(3)
    with pytest.raises(ValueError, match="selects row 3, not row 4"):
        walk_to_row(chip, grid, 4)
    with pytest.raises(ValueError, match="out of range"):
        walk_to_row(TokenChip(6), grid)
    with pytest.raises(ValueError, match="negative"):
        TokenChip(-1)
    with pytest.raises(TypeError):
        TokenChip(2.0)  # type: ignore[arg-type]


def test_output_block_takes_its_width_from_the_table() -> None:
    from embedviz.plugin import EmbeddingGrid, OutputBlock

    grid = EmbeddingGrid(EmbeddingTable.from_seed(6, 3, seed=123))
    with pytest.raises(ValueError, match="have 3 values, not 4"):
        OutputBlock((2, 4), grid)
    assert OutputBlock((2, 3), grid).shape == (2, 3)


def test_large_table_window_draws_the_named_rows_with_exact_gaps() -> None:
    from embedviz.plugin import EmbeddingGrid

    table = EmbeddingTable.from_seed(1000, 40, seed=7, init="normal")
    grid = EmbeddingGrid(table, window=[500])
    assert 500 in grid.row_labels
    assert 999 in grid.row_labels
    gap_labels = [gap.label for gap in grid.window.row_gaps]
    assert "rows 6–498 hidden" in gap_labels
    weight = np.asarray(table.weight, dtype=np.float64)
    for (row, col), text in grid.cells.items():
        assert text.text == f"{weight[row, col]:.4f}"
    from embedviz.plugin import TokenChip, walk_to_row

    chip = TokenChip(300)
    with pytest.raises(ValueError, match="not drawn"):
        walk_to_row(chip, grid)


def test_copy_row_lands_the_tables_row_in_the_slot(tmp_path: Path) -> None:
    from manim import Scene, tempconfig

    from embedviz.plugin import EmbeddingGrid, OutputBlock, TokenChip, lookup

    table = EmbeddingTable.from_seed(6, 3, seed=123)
    oracle = _torch_weight(6, 3, 123)
    landed: list[Any] = []

    class Check(Scene):  # type: ignore[misc]
        def construct(self) -> None:
            grid = EmbeddingGrid(table)
            block = OutputBlock((2, 3), grid).next_to(grid, 2 * np.array([1, 0, 0]))
            chips = [TokenChip(5, position=0), TokenChip(0, "the", position=1)]
            self.add(grid, block, *chips)
            for slot, chip in enumerate(chips):
                self.play(lookup(chip, grid, block, slot))
            landed.extend(_numbers(self))
            assert block.filled == {0: 5, 1: 0}

    with tempconfig({"dry_run": True, "media_dir": str(tmp_path), "disable_caching": True}):
        Check(skip_animations=True).render()
    outputs = {cell.index: cell for cell in landed if cell.kind == "output"}
    assert sorted(outputs) == [(s, c) for s in (0, 1) for c in range(3)]
    for (slot, col), cell in outputs.items():
        row = (5, 0)[slot]
        assert cell.text == f"{oracle[row, col]:.4f}"
        assert abs(cell.value - oracle[row, col]) < 1e-6


def _numbers(scene: Any) -> list[Any]:
    from embedviz.render.base import screen_texts

    numbers, _, _ = screen_texts(scene)
    return [number.cell for number in numbers]


# -- the entry point --------------------------------------------------------------------


def _metadata(tmp_path: Path) -> Path:
    """Build the package's metadata from pyproject.toml into a folder of its own."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    shutil.copytree(REPO / "embedviz", source / "embedviz")
    out = tmp_path / "meta"
    out.mkdir()
    script = (
        "import sys; from setuptools import build_meta; "
        "print(build_meta.prepare_metadata_for_build_wheel(sys.argv[1]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(out)],
        cwd=source, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    return out


def test_pyproject_registers_the_plugin_module() -> None:
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["manim.plugins"] == {"embedviz": "embedviz.plugin"}
    plugin = importlib.import_module("embedviz.plugin")
    for name in ("EmbeddingGrid", "TokenChip", "OutputBlock", "walk_to_row", "copy_row"):
        assert name in plugin.__all__


def _installed_entry_point() -> bool:
    from importlib.metadata import entry_points

    return any(
        point.name == "embedviz" and point.value == "embedviz.plugin"
        for point in entry_points(group="manim.plugins")
    )


def test_manim_plugins_lists_embedviz(tmp_path: Path) -> None:
    env = _env()
    if not _installed_entry_point():
        # An install older than the entry point (CI installs afresh, so it has it):
        # build this tree's metadata and put it first on the path, as an install would.
        from importlib.metadata import PathDistribution

        meta = _metadata(tmp_path)
        (dist_info,) = meta.glob("embedviz-*.dist-info")
        points = PathDistribution(dist_info).entry_points.select(group="manim.plugins")
        assert [(point.name, point.value) for point in points] == [("embedviz", "embedviz.plugin")]
        env["PYTHONPATH"] = os.pathsep.join([str(meta), env["PYTHONPATH"]])
    manim = Path(sys.executable).with_name("manim")
    result = subprocess.run(
        [str(manim), "plugins", "-l"], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert "• embedviz" in result.stdout


# -- the example scene -------------------------------------------------------------------


def _load_own_scene() -> Any:
    spec = importlib.util.spec_from_file_location("own_scene", OWN_SCENE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_own_scene_draws_the_cores_numbers(tmp_path: Path) -> None:
    from manim import tempconfig

    module = _load_own_scene()
    oracle = _torch_weight(6, 3, 123)
    seen: list[Any] = []

    class Recording(module.TwoTokenLookup):  # type: ignore[misc,name-defined]
        def construct(self) -> None:
            super().construct()
            seen.extend(_numbers(self))

    with tempconfig({"dry_run": True, "media_dir": str(tmp_path), "disable_caching": True}):
        Recording(skip_animations=True).render()
    weights = [cell for cell in seen if cell.kind == "weight"]
    assert len(weights) == 6 * 3
    for cell in weights:
        row, col = cell.index
        assert cell.text == f"{oracle[row, col]:.4f}"
    outputs = {cell.index: cell.text for cell in seen if cell.kind == "output"}
    expected_ids = (4, 1)
    assert outputs == {
        (slot, col): f"{oracle[token, col]:.4f}"
        for slot, token in enumerate(expected_ids)
        for col in range(3)
    }
    chips = sorted((cell.index, cell.text) for cell in seen if cell.kind == "token_id")
    assert chips == [((0,), "4"), ((1,), "1")]


@pytest.mark.slow
def test_own_scene_renders_with_plain_manim(tmp_path: Path) -> None:
    import av

    manim = Path(sys.executable).with_name("manim")
    result = subprocess.run(
        [str(manim), "render", "-ql", "--disable_caching", "--media_dir", str(tmp_path / "media"),
         str(OWN_SCENE), "TwoTokenLookup"],
        cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    (movie,) = (tmp_path / "media").rglob("TwoTokenLookup.mp4")
    with av.open(str(movie)) as container:
        stream = container.streams.video[0]
        assert (stream.codec_context.width, stream.codec_context.height) == (854, 480)
        frames = sum(1 for _ in container.decode(stream))
    # Two 0.?s reveals, two 3.2 s lookups and a 0.5 s wait, at 15 frames per second.
    assert frames > 15 * 6
