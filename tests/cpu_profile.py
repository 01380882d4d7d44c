"""Per-test CPU seconds, subprocesses included, when EMBEDVIZ_PROFILE names a file.

On a shared two-core machine wall time says little; CPU time does. Each
test's setup, call and teardown is charged the user and system seconds of
its process and of the children it waited for (``RUSAGE_CHILDREN``: the
command line, manim, ffmpeg), so a session fixture's render is charged to
the first test that asks for it. Every pytest-xdist worker writes
``<EMBEDVIZ_PROFILE>.<worker>.json``: ``{test id: {phase: seconds}}``.
Without the variable nothing is registered (CI runs as before).

``python tests/cpu_profile.py FILE [N]`` adds up the workers' files: the
total, each test file's seconds, then the N costliest tests (20 by default).
"""

from __future__ import annotations

import glob
import json
import os
import resource
import sys
from collections.abc import Generator
from typing import Any

import pytest


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


class CpuProfile:
    """The pytest plugin: per test id, per phase, CPU seconds."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.seconds: dict[str, dict[str, float]] = {}

    def _charge(self, item: pytest.Item, phase: str) -> Generator[None, Any, Any]:
        start = _cpu()
        result = yield
        self.seconds.setdefault(item.nodeid, {})[phase] = round(_cpu() - start, 3)
        return result

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, Any, Any]:
        return (yield from self._charge(item, "setup"))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, Any, Any]:
        return (yield from self._charge(item, "call"))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, Any, Any]:
        return (yield from self._charge(item, "teardown"))

    def pytest_sessionfinish(self) -> None:
        if not self.seconds:  # pytest-xdist's controller runs no test itself
            return
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(f"{self.path}.{worker}.json", "w") as out:
            json.dump(self.seconds, out, indent=1, sort_keys=True)


def register(config: pytest.Config, path: str | None) -> None:
    """Register the plugin on ``config`` where a profile file is asked for."""
    if path:
        config.pluginmanager.register(CpuProfile(path), "embedviz-cpu-profile")


def totals(path: str) -> tuple[dict[str, float], dict[str, float]]:
    """Return CPU seconds per test file and per test id, over every worker's file of ``path``."""
    files: dict[str, float] = {}
    tests: dict[str, float] = {}
    for name in sorted(glob.glob(glob.escape(path) + ".*.json")):
        with open(name) as handle:
            for test, phases in json.load(handle).items():
                seconds = sum(phases.values())
                tests[test] = tests.get(test, 0.0) + seconds
                module = test.split("::", 1)[0]
                files[module] = files.get(module, 0.0) + seconds
    return files, tests


def main(argv: list[str]) -> int:
    """Print a profile's total, its files by cost, then its ``N`` costliest tests."""
    if not argv or len(argv) > 2:
        print("usage: python tests/cpu_profile.py FILE [N]", file=sys.stderr)
        return 2
    files, tests = totals(argv[0])
    if not tests:
        print(f"no profile: {argv[0]}.*.json", file=sys.stderr)
        return 1
    print(f"{sum(files.values()):9.1f} CPU-s in all")
    for module, seconds in sorted(files.items(), key=lambda item: -item[1]):
        print(f"{seconds:9.1f} {module}")
    print()
    costliest = sorted(tests.items(), key=lambda item: -item[1])
    for test, seconds in costliest[: int(argv[1]) if len(argv) > 1 else 20]:
        print(f"{seconds:9.1f} {test}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
