"""The README's commands work as written after the two setup commands."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
# Console scripts that the setup installs into .venv/bin/ and not onto PATH.
VENV_COMMANDS = ("embedviz", "manim", "python", "pytest", "ruff", "mypy", "pip")


def _command_lines() -> list[str]:
    """Every command line in the README's bash blocks and ``$`` lines of text blocks."""
    lines: list[str] = []
    for language, body in re.findall(r"```(\w*)\n(.*?)```", README.read_text("utf-8"), re.S):
        for line in body.splitlines():
            if language == "bash" and line.strip() and not line.lstrip().startswith("#"):
                lines.append(line)
            elif line.startswith("$ "):
                lines.append(line[2:])
    return lines


def test_the_readme_has_commands_to_check() -> None:
    assert any(".venv/bin/embedviz" in line for line in _command_lines())


def test_every_command_runs_from_the_venv_not_from_path() -> None:
    bare = re.compile(rf"(^|[;&|(]\s*|\b[A-Z_]+=\S+\s+)({'|'.join(VENV_COMMANDS)})\b")
    offending = [line for line in _command_lines() if bare.search(line)]
    assert not offending, f"use .venv/bin/<command>: {offending}"
