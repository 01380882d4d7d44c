"""No import cycle between embedviz's modules, counting imports inside functions.

Every ``import`` and ``from ... import`` statement anywhere in a module counts
(at the top, inside a function, a method or a ``try``), except those in an
``if TYPE_CHECKING:`` block, which never run. An edge goes to the module that
is named: ``from embedviz.story import model`` names the module
``embedviz.story.model``; ``from embedviz.story.model import Beat`` names
``embedviz.story.model``. A package's ``__init__`` is not an implicit
dependency of its submodules (as in grimp and import-linter), so re-exports
in an ``__init__`` are not cycles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "embedviz"


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, however deep, outside ``if TYPE_CHECKING:`` blocks."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield from _imports(ast.Module(body=[child], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _imports(node)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    # A package's own name is its __init__; a module's relative base is its package.
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Return module -> the embedviz modules it imports (anywhere but TYPE_CHECKING)."""
    files = {_module_name(path, root): path for path in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        targets: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _imports(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                base = _resolve(module, path.name == "__init__.py", node)
                # ``from package import module`` names that module, else the package.
                names = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base
                    for alias in node.names
                ]
            targets |= {name for name in names if name in files and name != module}
        graph[module] = targets
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def test_no_import_cycle_in_embedviz() -> None:
    cycles = find_cycles(import_graph())
    assert not cycles, "modules that import each other (directly or in a ring):\n" + "\n".join(
        " <-> ".join(cycle) for cycle in cycles
    )


def test_the_check_finds_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "sub" / "__init__.py").write_text("from pkg.sub.b import B\n", encoding="utf-8")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg.c import C\n"
        "def f():\n    from .sub import b\n",
        encoding="utf-8",
    )
    (package / "sub" / "b.py").write_text(
        "class B:\n    def g(self):\n        import pkg.a\n", encoding="utf-8"
    )
    (package / "c.py").write_text("import pkg.a\n", encoding="utf-8")
    graph = import_graph(package)
    assert graph["pkg.a"] == {"pkg.sub.b"}  # the TYPE_CHECKING import is left out
    assert graph["pkg.sub.b"] == {"pkg.a"}
    assert graph["pkg.sub"] == {"pkg.sub.b"}
    assert find_cycles(graph) == [["pkg.a", "pkg.sub.b"]]
