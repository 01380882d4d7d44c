"""The core, story and CLI layers must work without importing manim or torch."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

_SCRIPT = r"""
import json, sys

import embedviz, embedviz.core, embedviz.story, embedviz.cli
from embedviz.inputs import prepared_storyboard

boards = {
    name: len(prepared_storyboard(name, cwd=".", environ={}).beats)
    for name in ("SingleTokenLookup", "SequenceLookup")
}
status = embedviz.cli.main(["lookup"])
sys.stdout.flush()
heavy = sorted(
    name for name in sys.modules
    if name in ("manim", "torch") or name.startswith(("manim.", "torch."))
)
print("RESULT " + json.dumps({"boards": boards, "status": status, "heavy": heavy}))
"""


def test_core_story_and_cli_do_not_import_manim_or_torch(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    report = json.loads(lines[-1].removeprefix("RESULT "))
    assert report["heavy"] == []
    assert report["status"] == 0
    assert set(report["boards"]) == {"SingleTokenLookup", "SequenceLookup"}
    assert all(count > 0 for count in report["boards"].values())
    # The lookup printed its tensor before the report.
    assert lines[0].startswith("tensor([[")
    assert lines[-2].endswith("grad_fn=<EmbeddingBackward0>)")


def test_the_check_would_notice_a_heavy_import(tmp_path: Path) -> None:
    # Guard against a vacuous test: importing a stand-in "manim" is detected.
    (tmp_path / "manim").mkdir()
    (tmp_path / "manim" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "manim" / "utils.py").write_text("", encoding="utf-8")
    script = "import manim.utils\n" + _SCRIPT
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    env["PYTHONPATH"] = str(tmp_path)
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1].removeprefix("RESULT "))
    assert report["heavy"] == ["manim", "manim.utils"]


_EXPORT_SCRIPT = r"""
import json, sys

import embedviz.export.site, embedviz.export.media, embedviz.export.described
print(json.dumps(sorted(n for n in sys.modules if n == "scipy" or n.startswith("scipy."))))
"""


def test_the_export_modules_leave_scipy_until_sound_is_processed(tmp_path: Path) -> None:
    # scipy.signal costs about 0.7 s to import; a silent render or export never needs it.
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    imported = subprocess.run(
        [sys.executable, "-c", _EXPORT_SCRIPT], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert json.loads(imported) == []
    # Processing sound still finds it (the lazy import works).
    from embedviz.export.loudness import true_peak_dbtp

    assert true_peak_dbtp([0.0, 0.5, -0.25, 0.0]) >= 20 * math.log10(0.5)
