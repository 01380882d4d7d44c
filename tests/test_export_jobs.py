"""A course on a batch runner: `export --list-jobs` prints a command per clip, `--gather` joins.

The commands are run here one after another through a shell, as GNU parallel
or a Slurm array job runs each line; the gathered site must be the site a
single ``export`` of the same scenes makes.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

SCENES = ["ParameterCount", "OneHotEquivalence"]


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}


def _embedviz(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "embedviz", *args],
        cwd=cwd, env=_env(), capture_output=True, text=True, timeout=900,
    )  # fmt: skip


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_job_list_runs_on_a_batch_runner_and_gathers_into_the_site(tmp_path: Path) -> None:
    listed = _embedviz(tmp_path, "export", *SCENES, "-qt", "--theme", "light",
                       "--out", "course", "--list-jobs")  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == len(SCENES)
    jobs = tmp_path / "course.jobs"
    for number, (line, scene) in enumerate(zip(lines, SCENES, strict=True), start=1):
        words = shlex.split(line)
        # Each runs here, with this Python, with every option repeated.
        assert words[:3] == ["cd", str(tmp_path), "&&"]
        assert words[3:9] == [sys.executable, "-m", "embedviz", "export", scene, "--theme"]
        # Numbered, one folder per clip (the gallery lists them in teaching order).
        assert words[-2:] == ["--out", str(jobs / f"{number:02d}_{scene}")]
    assert not (tmp_path / "course").exists()
    assert not jobs.exists()  # listing renders nothing
    gather = shlex.split(listed.stderr.strip().split(": ", 2)[2])
    assert gather[-4:] == ["--gather", str(jobs), "--out", "course"]
    for line in reversed(lines):  # what `parallel < jobs.txt` does, in any order
        ran = subprocess.run(["bash", "-c", line], env=_env(), capture_output=True, text=True)
        assert ran.returncode == 0, ran.stderr[-2000:]
    gathered = subprocess.run(gather, cwd=tmp_path, env=_env(), capture_output=True, text=True)
    assert gathered.returncode == 0, gathered.stderr
    assert gathered.stdout == f"{Path('course') / 'index.html'} (2 clips)\n"
    site = tmp_path / "course"
    # The clips are the jobs' files, byte for byte.
    for number, scene in enumerate(SCENES, start=1):
        for path in (jobs / f"{number:02d}_{scene}" / scene).iterdir():
            assert _digest(site / scene / path.name) == _digest(path), path.name
    # The gallery is the one a single export of the same scenes writes.
    direct = _embedviz(tmp_path, "export", *SCENES, "-qt", "--theme", "light", "--out", "one")
    assert direct.returncode == 0, direct.stderr
    assert (site / "index.html").read_text() == (tmp_path / "one" / "index.html").read_text()
    listing = sorted(p.relative_to(site).as_posix() for p in site.rglob("*"))
    assert listing == sorted(p.relative_to(tmp_path / "one").as_posix()
                             for p in (tmp_path / "one").rglob("*"))  # fmt: skip
    # Listed again with nothing changed, no clip needs a job: the site keeps them.
    relisted = _embedviz(tmp_path, "export", *SCENES, "-qt", "--theme", "light",
                         "--out", "course", "--list-jobs")  # fmt: skip
    assert relisted.returncode == 0, relisted.stderr
    assert relisted.stdout == ""
    assert relisted.stderr.count("unchanged since it was exported") == len(SCENES)
    # A second gather replaces the site it made; an empty jobs folder is refused.
    again = subprocess.run(gather, cwd=tmp_path, env=_env(), capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    (tmp_path / "empty").mkdir()
    refused = _embedviz(tmp_path, "export", "--gather", "empty", "--out", "course")
    assert refused.returncode == 2
    assert refused.stderr == "embedviz: error: empty: no finished export jobs to gather\n"
    assert (site / "index.html").is_file()
