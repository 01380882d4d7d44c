"""CI's entry point: the README's test command first, then lint and types, all enforced."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CI = REPO / ".ci" / "run"
TEST_COMMAND = "bash scripts/bootstrap.sh --test && .venv/bin/python -m pytest"


def test_the_readme_test_command_is_ci_first_step_word_for_word() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"```bash\n{TEST_COMMAND}\n```" in readme
    commands = [
        line
        for line in CI.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith(("#", "echo", "set ", "cd ", "export ", "failed=()"))
    ]
    assert commands[0].startswith(TEST_COMMAND + " ||"), commands[0]
    assert [c.split(" ||")[0] for c in commands[1:4]] == [
        ".venv/bin/ruff check .",
        ".venv/bin/ruff format --check .",
        ".venv/bin/mypy",
    ]


def _fake_checkout(tmp_path: Path, failing: set[str]) -> Path:
    """A copy of .ci/run beside stand-ins for bootstrap, pytest, ruff and mypy."""
    root = tmp_path / "checkout"
    (root / ".ci").mkdir(parents=True)
    shutil.copy(CI, root / ".ci" / "run")
    (root / "scripts").mkdir()
    (root / ".venv" / "bin").mkdir(parents=True)
    log = root / "log"

    def tool(path: Path, name: str) -> None:
        status = 1 if name in failing else 0
        path.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\nexit {status}\n')
        path.chmod(path.stat().st_mode | stat.S_IXUSR)

    tool(root / "scripts" / "bootstrap.sh", "bootstrap")
    tool(root / ".venv" / "bin" / "python", "pytest")
    tool(root / ".venv" / "bin" / "ruff", "ruff")
    tool(root / ".venv" / "bin" / "mypy", "mypy")
    return root


@pytest.mark.parametrize(
    "failing", [set(), {"pytest"}, {"ruff"}, {"mypy"}, {"bootstrap"}], ids=repr
)
def test_ci_runs_every_step_and_fails_if_any_fails(tmp_path: Path, failing: set[str]) -> None:
    root = _fake_checkout(tmp_path, failing)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    result = subprocess.run(
        ["bash", str(root / ".ci" / "run")], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    ran = (root / "log").read_text().splitlines()
    expected = ["bootstrap --test", "pytest -m pytest", "ruff check .", "ruff format --check .",
                "mypy "]  # fmt: skip
    if "bootstrap" in failing:
        expected.remove("pytest -m pytest")
    assert [line.rstrip() for line in ran] == [line.rstrip() for line in expected]
    assert (result.returncode != 0) == bool(failing), result.stderr


def test_every_test_run_reports_its_ten_slowest_tests() -> None:
    import tomllib

    settings = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    addopts = settings["tool"]["pytest"]["ini_options"]["addopts"].split()
    # CI runs plain `pytest`, so the option must come from the configuration.
    assert "--durations=10" in addopts
