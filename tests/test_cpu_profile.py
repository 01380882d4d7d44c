"""The CPU profiler's summary adds up every worker's file (tests/cpu_profile.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cpu_profile import totals

HERE = Path(__file__).resolve().parent


def _write(prefix: Path) -> None:
    workers = {
        "gw0": {"tests/test_a.py::one": {"setup": 2.0, "call": 1.5, "teardown": 0.0}},
        "gw1": {
            "tests/test_a.py::two": {"call": 0.25},
            "tests/test_b.py::three[x]": {"setup": 0.0, "call": 4.0},
        },
    }
    for worker, seconds in workers.items():
        (prefix.parent / f"{prefix.name}.{worker}.json").write_text(json.dumps(seconds))


def test_totals_add_every_phase_of_every_worker(tmp_path: Path) -> None:
    _write(tmp_path / "run")
    (tmp_path / "other.gw0.json").write_text(json.dumps({"tests/test_c.py::x": {"call": 9.0}}))
    files, tests = totals(str(tmp_path / "run"))
    assert files == {"tests/test_a.py": 3.75, "tests/test_b.py": 4.0}
    assert tests == {
        "tests/test_a.py::one": 3.5,
        "tests/test_a.py::two": 0.25,
        "tests/test_b.py::three[x]": 4.0,
    }


def test_the_summary_lists_files_then_the_costliest_tests(tmp_path: Path) -> None:
    _write(tmp_path / "run")
    done = subprocess.run(
        [sys.executable, str(HERE / "cpu_profile.py"), str(tmp_path / "run"), "2"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n") == [
        "      7.8 CPU-s in all",
        "      4.0 tests/test_b.py",
        "      3.8 tests/test_a.py",
        "",
        "      4.0 tests/test_b.py::three[x]",
        "      3.5 tests/test_a.py::one",
        "",
    ]
    missing = subprocess.run(
        [sys.executable, str(HERE / "cpu_profile.py"), str(tmp_path / "none")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert (missing.returncode, missing.stdout) == (1, "")
