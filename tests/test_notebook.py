"""Jupyter: `embedviz.notebook.show` and the example notebook, run in a real kernel."""

from __future__ import annotations

import base64
import itertools
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard

REPO = Path(__file__).resolve().parent.parent
NOTEBOOK = REPO / "examples" / "embedding_lookup.ipynb"


def test_example_notebook_is_committed_without_outputs() -> None:
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code)


def _code_cells() -> list[str]:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def _run_cell(source: str, namespace: dict[str, Any]) -> Any:
    """Run a cell's code as a kernel would; return the value of its last expression."""
    import ast

    tree = ast.parse(source)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    body = ast.Module(body=tree.body[:-1] if last else tree.body, type_ignores=[])
    exec(compile(body, "<cell>", "exec"), namespace)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)


def test_the_example_notebook_runs_without_torch(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The cells before the first scene: the core's print, then the PyTorch check.
    cells = _code_cells()
    core, check = next((c, d) for c, d in itertools.pairwise(cells) if "torch" in d)
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch raises ModuleNotFoundError
    namespace: dict[str, Any] = {}
    _run_cell(core, namespace)
    _run_cell(check, namespace)
    printed = capsys.readouterr().out
    assert "PyTorch is not installed, so the check is skipped" in printed
    assert "--index-url https://download.pytorch.org/whl/cpu" in printed


def test_the_example_notebook_lists_the_output_cells_of_a_lookup() -> None:
    cell = next(source for source in _code_cells() if "first_lookup" in source)
    board = prepared_storyboard("SingleTokenLookup", {}, environ={})
    shown = _run_cell(cell, {"board": board})
    # Each output cell is a copy of the looked-up row: the same texts as that row's
    # weight cells on screen, column by column.
    beat = next(b for b in board.beats if b.output is not None and b.output.filled)
    row = beat.highlight.row if beat.highlight else -1
    weights = {c.index[1]: c.text for c in beat.numbers if c.kind == "weight" and c.index[0] == row}
    assert shown, "the cell lists no output cells"
    assert [text for _, text in shown] == [weights[col] for col in sorted(weights)]
    assert [index[-1] for index, _ in shown] == sorted(weights)


def test_storyboard_table_has_a_row_per_beat() -> None:
    from embedviz.notebook import storyboard_table

    board = prepared_storyboard("SequenceLookup", {}, environ={})
    markup = storyboard_table(board)._repr_html_()
    assert markup.count("<tr>") == len(board.all_beats()) + 1
    for beat in board.all_beats():
        assert beat.name in markup


def test_cache_key_follows_the_storyboard() -> None:
    from embedviz.notebook import cache_key

    one = prepared_storyboard("SequenceLookup", {}, environ={})
    same = prepared_storyboard("SequenceLookup", {}, environ={})
    other = prepared_storyboard("SequenceLookup", {"ids": "2,3"}, environ={})
    assert cache_key(one, "l") == cache_key(same, "l")
    assert cache_key(one, "l") != cache_key(other, "l")
    assert cache_key(one, "l") != cache_key(one, "m")


@pytest.mark.slow
def test_show_renders_once_then_reuses_and_links_large_clips(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from IPython import display as ipython_display

    from embedviz import notebook

    shown: list[str] = []

    class Handle:
        def update(self, output: Any) -> None:
            shown.append(output.data)

    def display(output: Any, display_id: bool = False) -> Handle:
        assert display_id
        shown.append(output.data)
        return Handle()

    monkeypatch.setattr(notebook, "_ipython", lambda: object())
    monkeypatch.setattr(ipython_display, "display", display)
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    board = notebook.show("single", quality="l", cache_dir=cache, ids="4")
    assert board.scene == "SingleTokenLookup"
    # A progress bar counts the beats, then the video replaces it.
    beats = len(board.all_beats())
    progress = [re.search(r'<progress value="(\d+)" max="(\d+)"', markup) for markup in shown]
    assert [m.groups() for m in progress[:-1] if m] == [
        (str(n), str(beats)) for n in range(beats + 1)
    ]
    assert "<video" in shown[-1]
    clip, cached = notebook.render_clip(board, quality="l", cache_dir=cache)
    assert clip.reused
    assert cached == board
    assert [p.name for p in cache.iterdir()] == [clip.video.parent.name]
    embedded = notebook.clip_html(clip, board)
    assert 'src="data:video/mp4;base64,' in embedded
    assert 'kind="captions"' in embedded
    linked = notebook.clip_html(clip, board, embed_limit=0)
    assert f'src="cache/{clip.video.parent.name}/SingleTokenLookup.mp4"' in linked
    assert f'src="cache/{clip.video.parent.name}/SingleTokenLookup.en.vtt"' in linked
    vtt = clip.captions.read_text()
    assert vtt.count(" --> ") == _cues(board)


def _cues(board: Any) -> int:
    """One caption cue per phrase of the narration."""
    return sum(1 for beat in board.all_beats() for phrase in beat.phrases if phrase.text.strip())


def _kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A kernel spec for this interpreter (the venv's), found through JUPYTER_PATH."""
    pytest.importorskip("ipykernel")
    name = "embedviz-test"
    folder = tmp_path / "jupyter" / "kernels" / name
    folder.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "embedviz (test)",
        "language": "python",
    }
    (folder / "kernel.json").write_text(json.dumps(spec))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    )
    for variable in [v for v in os.environ if v.startswith("EMBEDVIZ_")]:
        monkeypatch.delenv(variable)
    return name


def _html_outputs(notebook: Any) -> list[str]:
    found = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/html" in data:
                found.append("".join(data["text/html"]))
    return found


@pytest.mark.slow
def test_example_notebook_runs_in_a_real_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    kernel = _kernel(tmp_path, monkeypatch)
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(NOTEBOOK, work / NOTEBOOK.name)
    notebook = nbformat.read(work / NOTEBOOK.name, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        kernel_name=kernel,
        timeout=900,
        resources={"metadata": {"path": str(work)}},
    )
    client.execute()  # raises CellExecutionError if any cell fails
    outputs = _html_outputs(notebook)
    # The cell that compares the core with PyTorch printed "identical: True".
    printed = [
        "".join(output.get("text", ""))
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream"
    ]
    assert any("identical: True" in text for text in printed)
    # show() left a captioned video (the progress bar was replaced by it).
    videos = [markup for markup in outputs if "<video" in markup and "<track" in markup]
    assert len(videos) == 1
    (video,) = videos
    assert "<progress" not in video
    track = re.search(r'<track kind="captions"[^>]* src="data:text/vtt;base64,([^"]+)"', video)
    assert track is not None
    vtt = base64.b64decode(track.group(1)).decode()
    assert vtt.startswith("WEBVTT")
    assert re.search(r'poster="data:image/png;base64,', video)
    board = prepared_storyboard("SingleTokenLookup", {}, environ={})
    assert vtt.count(" --> ") == _cues(board)
    # The storyboard table, and the %%manim cell's own video.
    assert any("embedviz-storyboard" in markup for markup in outputs)
    manim_videos = [m for m in outputs if "<video" in m and "<track" not in m]
    assert manim_videos, outputs
    assert list((work / "media" / "notebook").glob("SingleTokenLookup-*/SingleTokenLookup.mp4"))
    _plays_with_captions(video, tmp_path, narrated=vtt.count(" --> "))


_TRACK_STATE = """
const done = arguments[arguments.length - 1];
const video = document.querySelector('video');
const track = video.querySelector('track');
video.textTracks[0].mode = 'hidden';
const started = Date.now();
(function wait() {
  if ((track.readyState >= 2 && video.readyState >= 1) || Date.now() - started > 20000) {
    const cues = video.textTracks[0].cues;
    done({track: track.readyState, cues: cues ? cues.length : -1, video: video.readyState});
  } else {
    setTimeout(wait, 50);
  }
})();
"""


def _plays_with_captions(fragment: str, tmp_path: Path, narrated: int) -> None:
    """Open the notebook's video output in Chromium: the video and its track must load."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    chromium, driver_path = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
    if not chromium.exists() or not driver_path.exists():
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    page = tmp_path / "output.html"
    page.write_text(f'<!doctype html><html lang="en"><title>output</title>{fragment}</html>')
    options = webdriver.ChromeOptions()
    options.binary_location = str(chromium)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 f"--user-data-dir={tmp_path / 'profile'}"):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(driver_path)), options=options)
    try:
        driver.get(page.as_uri())
        driver.set_script_timeout(60)
        state = driver.execute_async_script(_TRACK_STATE)
    finally:
        driver.quit()
    assert state == {"track": 2, "cues": narrated, "video": state["video"]}
    assert state["video"] >= 1


@pytest.mark.slow
def test_show_with_a_voice_gives_a_clip_with_its_narration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import av

    from embedviz import notebook

    monkeypatch.setattr(notebook, "_ipython", lambda: None)
    cache = tmp_path / "cache"
    silent = notebook.show("single", quality="l", cache_dir=cache)
    board = notebook.show("single", quality="l", cache_dir=cache, voice="espeak")
    # The voiced board is timed to the speech and records its voice.
    assert board.voice is not None
    assert board.voice.startswith("espeak")
    assert board.duration >= silent.duration
    folders = [p for p in cache.iterdir() if not p.name.startswith(".")]
    assert len(folders) == 2  # the silent and the voiced render are cached apart
    clip, cached = notebook.render_clip(silent, quality="l", cache_dir=cache)
    assert clip.reused
    assert cached == silent
    voiced = next(p for p in folders if p / "SingleTokenLookup.mp4" != clip.video)
    with av.open(str(voiced / "SingleTokenLookup.mp4")) as container:
        assert len(container.streams.audio) == 1
        assert float(container.duration or 0) / 1e6 >= board.duration - 0.3
    vtt = (voiced / "SingleTokenLookup.en.vtt").read_text()
    assert vtt.count(" --> ") == _cues(board)
