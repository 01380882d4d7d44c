"""Small functions in the story layer: none longer than 80 lines (issue 18's measured outcome).

A function's lines run from its ``def`` to its last line, docstring and
comments included; a nested function counts inside its parent too.
"""

from __future__ import annotations

import ast
from pathlib import Path

STORY = Path(__file__).resolve().parents[1] / "embedviz" / "story"
MAX_LINES = 80


def long_functions(root: Path, limit: int = MAX_LINES) -> list[str]:
    """Return ``path:line name (n lines)`` for every function longer than ``limit`` lines."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length})")
    return found


def test_no_story_function_is_longer_than_80_lines() -> None:
    offenders = long_functions(STORY)
    assert not offenders, "split these functions:\n" + "\n".join(offenders)


def test_the_check_counts_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{n} = {n}" for n in range(MAX_LINES))
    (tmp_path / "long.py").write_text(f"def f():\n{body}\n\ndef g():\n    pass\n", "utf-8")
    assert long_functions(tmp_path) == [f"long.py:1 f ({MAX_LINES + 1})"]
