"""Per-test CPU seconds, subprocesses included, when EMBEDVIZ_PROFILE names a file.

On a shared two-core machine wall time says little; CPU time does. Each
test's setup, call and teardown is charged the user and system seconds of
its process and of the children it waited for (``RUSAGE_CHILDREN``: the
command line, manim, ffmpeg), so a session fixture's render is charged to
the first test that asks for it. Every pytest-xdist worker writes
``<EMBEDVIZ_PROFILE>.<worker>.json``: ``{test id: {phase: seconds}}``.
Without the variable nothing is registered (CI runs as before).
"""

from __future__ import annotations

import json
import os
import resource
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
