"""Publishing is the last thing that can happen; one writer at a time (issue 22 §4, §9, §10).

- A stop signal is held for the whole of publishing, whichever thread it reaches,
  and one that arrives then is reported honestly: "done; the stop came after
  publishing". The test hook ``EMBEDVIZ_TEST_PAUSE_BEFORE_PUBLISH`` pauses a run
  just before it publishes, so the window is hit every time, not by a race.
- A stop during start-up (while Python imports numpy) ends in one line, 130/143.
- Runs that publish into one place take its lock: two exports into one ``--out``
  both succeed, and renders into one folder lose no manifest entry.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from embedviz.core.errors import EmbedvizError
from embedviz.export.folders import MANIFEST, folder_lock, record_files, site_lock
from embedviz.export.publishing import (
    PAUSE_VARIABLE,
    Terminated,
    late_stop,
    output_lock,
    published,
    publishing,
    signals_held,
)

REPO = Path(__file__).resolve().parent.parent
STOPS = [
    pytest.param(signal.SIGTERM, 143, "terminated", id="SIGTERM"),
    pytest.param(signal.SIGINT, 130, "interrupted", id="SIGINT"),
]
DONE = "embedviz: done; the stop came after publishing\n"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    env["PYTHONPATH"] = str(REPO)
    return {**env, **extra}


def _wait_for(condition: Callable[[], bool], what: str, process: Any = None) -> None:
    deadline = time.monotonic() + 300
    while not condition():
        if process is not None and process.poll() is not None:
            pytest.fail(f"the process ended ({process.returncode}) before {what}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.01)


@pytest.fixture
def command_handlers() -> Iterator[None]:
    """The stop handlers the command line installs while a command runs."""
    from embedviz.cli import _sigterm_unwinds

    with _sigterm_unwinds():
        yield


def _kill_from_another_thread(signum: int) -> None:
    """Send a stop to this process from a second thread, as a pool's thread would get it."""
    sent = threading.Event()

    def send() -> None:
        os.kill(os.getpid(), signum)
        sent.set()

    thread = threading.Thread(target=send)
    thread.start()
    sent.wait(10)
    thread.join()
    # Give the main thread many chances to run a handler, as it would mid-publish.
    for _ in range(1000):
        time.sleep(0)


@pytest.mark.usefixtures("command_handlers")
def test_a_stop_that_reaches_another_thread_waits_for_the_block_to_end() -> None:
    inside: list[str] = []

    def block() -> None:
        with signals_held():
            _kill_from_another_thread(signal.SIGTERM)
            inside.append("finished")

    with pytest.raises(Terminated):
        block()
    assert inside == ["finished"]


@pytest.mark.usefixtures("command_handlers")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_while_publishing_is_a_stop_after_publishing(tmp_path: Path, signum: int) -> None:
    steps: list[str] = []
    assert not published()
    with publishing(tmp_path / "lock", tmp_path):
        _kill_from_another_thread(signum)
        steps.append("published")
    assert steps == ["published"]
    assert published()
    assert late_stop() == signum
    assert not (tmp_path / "lock").exists()


@pytest.mark.usefixtures("command_handlers")
def test_a_failed_publish_delivers_the_stop(tmp_path: Path) -> None:
    def failing_publish() -> None:
        with publishing(tmp_path / "lock", tmp_path):
            _kill_from_another_thread(signal.SIGINT)
            raise EmbedvizError("the target gained a stranger")

    with pytest.raises(KeyboardInterrupt):
        failing_publish()
    assert not published()
    assert late_stop() is None


def test_outside_the_command_line_a_held_stop_is_delivered_after_the_block(
    tmp_path: Path,
) -> None:
    steps: list[str] = []

    def publish() -> None:
        with publishing(tmp_path / "lock", tmp_path):
            _kill_from_another_thread(signal.SIGINT)
            steps.append("published")

    # Python's own Ctrl-C handler, whatever a test before this one left installed
    # (the order of tests is random, and several install handlers of their own).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            publish()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert steps == ["published"]


# -- the output lock --------------------------------------------------------------------


def test_the_lock_is_nested_in_one_process_and_removed_after(tmp_path: Path) -> None:
    lock = tmp_path / ".embedviz-lock"
    with output_lock(lock, tmp_path):
        assert lock.is_file()
        with output_lock(lock, tmp_path):
            assert lock.is_file()
        assert lock.is_file()
    assert not lock.exists()


def test_a_link_at_the_lock_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").write_text("mine")
    (tmp_path / ".embedviz-lock").symlink_to(tmp_path / "elsewhere")
    with (
        pytest.raises(EmbedvizError, match="is a link") as error,
        output_lock(tmp_path / ".embedviz-lock", tmp_path),
    ):
        pass
    assert "\n" not in str(error.value)
    assert (tmp_path / "elsewhere").read_text() == "mine"


def _hold_lock(lock: str, ready: Any, release: Any) -> None:
    with output_lock(Path(lock), Path(lock).parent):
        ready.set()
        release.wait(30)


def test_a_second_run_waits_for_the_lock_and_says_so(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    ready, release = context.Event(), context.Event()
    holder = context.Process(target=_hold_lock, args=(str(tmp_path / "lock"), ready, release))
    holder.start()
    try:
        assert ready.wait(30)
        said: list[str] = []
        threading.Timer(1.5, release.set).start()
        started = time.monotonic()
        with output_lock(tmp_path / "lock", tmp_path / "site", say=said.append):
            waited = time.monotonic() - started
        assert waited >= 1.4
        assert said == [
            f"embedviz: waiting for another embedviz run to finish writing {tmp_path}/site"
        ]
    finally:
        release.set()
        holder.join(30)


def _record_many(folder: str, worker: int) -> None:
    for number in range(25):
        record_files(Path(folder), f"video-{worker}-{number}.mp4")


def test_concurrent_manifest_updates_lose_no_entry(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    workers = [
        context.Process(target=_record_many, args=(str(tmp_path), worker)) for worker in range(4)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    listed = json.loads((tmp_path / MANIFEST).read_text())["files"]
    assert sorted(listed) == sorted(f"video-{w}-{n}.mp4" for w in range(4) for n in range(25))
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST]


# -- whole runs -------------------------------------------------------------------------

# An export whose clips are a few bytes each, so that tests of publishing do not render.
# With BARRIER=N:FOLDER, each clip marks FOLDER and waits until N clips have marked it,
# so that concurrent exports reach publishing together; with SLOW_SWAP, naming the folder
# that a swap retires takes a while, as on a slow file system, so that two unserialised
# swaps would overlap.
FAKE_EXPORT = """
import os, sys, tempfile, time
from pathlib import Path
import embedviz.export.site as site

if os.environ.get("SLOW_SWAP"):
    make_folder = tempfile.mkdtemp

    def slow_mkdtemp(*args, **kwargs):
        if ".old-" in str(kwargs.get("prefix", "")):
            time.sleep(0.3)
        return make_folder(*args, **kwargs)

    tempfile.mkdtemp = slow_mkdtemp

def fake_clip(name, quality, out_dir, overrides=None, voice=None, **kwargs):
    staging = Path(out_dir)
    if os.environ.get("BARRIER"):
        wanted, marks = os.environ["BARRIER"].split(":", 1)
        (Path(marks) / str(os.getpid())).touch()
        deadline = time.monotonic() + 60
        while len(os.listdir(marks)) < int(wanted) and time.monotonic() < deadline:
            time.sleep(0.001)
    (staging / name).mkdir(parents=True, exist_ok=True)
    (staging / name / f"{name}.mp4").write_text(f"video of {name} by {os.getpid()}")
    return {"scene": name, "title": name, "summary": "s", "duration": 1.0, "folder": name,
            "language": "en", "seconds": 0.0, "chapters": ()}

site.export_clip = fake_clip
from embedviz.launch import run
sys.exit(run(sys.argv[1:]))
"""


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("driver") / "fake_export.py"
    path.write_text(FAKE_EXPORT)
    return path


def _fake_export(driver: Path, root: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(driver), "export", *args],
        cwd=root, env=_env(**env), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def _site_is_whole(site: Path) -> None:
    listed = set(json.loads((site / MANIFEST).read_text())["files"])
    files = {str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()}
    assert listed == files - {MANIFEST}
    assert "index.html" in listed


@pytest.mark.parametrize(("signum", "status", "word"), STOPS)
def test_a_stop_at_the_swap_is_reported_as_done_after_publishing(
    driver: Path, tmp_path: Path, signum: int, status: int, word: str
) -> None:
    first = _fake_export(driver, tmp_path, "single", "--out", "site")
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    gate = tmp_path.parent / f"{tmp_path.name}-gate"
    process = _fake_export(
        driver, tmp_path, "single", "sequence", "--out", "site", **{PAUSE_VARIABLE: str(gate)}
    )
    _wait_for(gate.exists, "the export to reach publishing", process)
    process.send_signal(signum)
    time.sleep(0.2)
    assert process.poll() is None  # held: publishing goes on
    gate.unlink()
    out, err = process.communicate(timeout=120)
    assert process.returncode == status, err
    assert err.endswith(DONE), err
    assert "Traceback" not in err
    assert out == f"{Path('site') / 'index.html'} (2 clips)\n"
    assert (tmp_path / "site" / "SequenceLookup" / "SequenceLookup.mp4").is_file()
    _site_is_whole(tmp_path / "site")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_two_exports_into_one_place_both_succeed(
    driver: Path, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # --rebuild: each run renders and swaps, though the clip is unchanged.
    args = ("single", "--rebuild", "--out", "site")
    for _ in range(3):
        barrier = f"2:{tmp_path_factory.mktemp('barrier')}"
        runs = [
            _fake_export(driver, tmp_path, *args, BARRIER=barrier, SLOW_SWAP="1") for _ in range(2)
        ]
        for run in runs:
            _, err = run.communicate(timeout=120)
            assert run.returncode == 0, err
            assert "Traceback" not in err
        _site_is_whole(tmp_path / "site")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_an_export_waits_for_the_run_that_holds_the_lock(driver: Path, tmp_path: Path) -> None:
    with output_lock(site_lock(tmp_path / "site"), tmp_path / "site"):
        process = _fake_export(driver, tmp_path, "single", "--out", "site")
        # It reads the site (which clips to keep) under the lock too, before rendering.
        _wait_for(lambda: any(tmp_path.glob(".site.new-*")), "the staging folder", process)
        time.sleep(2)
        assert process.poll() is None
        assert not (tmp_path / "site").exists()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "waiting for another embedviz run to finish writing" in err
    _site_is_whole(tmp_path / "site")


def _without_progress(err: str) -> str:
    """Stderr without render's one progress line per scene (it is not a terminal)."""
    return "".join(
        line for line in err.splitlines(keepends=True) if not line.startswith("embedviz render: ")
    )


def _render(root: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "embedviz", "render", "single", "-ql", "--format", "png",
         "-o", "out", *args],
        cwd=root, env=_env(**env), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "status", "word"), STOPS)
def test_a_stop_at_a_renders_publishing_is_reported_as_done(
    tmp_path: Path, signum: int, status: int, word: str
) -> None:
    gate = tmp_path / "gate"
    process = _render(tmp_path, **{PAUSE_VARIABLE: str(gate)})
    _wait_for(gate.exists, "the render to reach publishing", process)
    process.send_signal(signum)
    time.sleep(0.2)
    gate.unlink()
    out, err = process.communicate(timeout=120)
    assert process.returncode == status, err
    assert _without_progress(err) == DONE
    assert out == f"{Path('out') / 'SingleTokenLookup.png'}\n"
    assert json.loads((tmp_path / "out" / MANIFEST).read_text())["files"] == [
        "SingleTokenLookup.png"
    ]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        MANIFEST,
        "SingleTokenLookup.png",
    ]


@pytest.mark.slow
def test_four_renders_into_one_folder_publish_one_at_a_time_and_all_are_listed(
    tmp_path: Path,
) -> None:
    gates = [tmp_path / f"gate-{number}" for number in range(4)]
    runs = [
        _render(tmp_path, "--ids", str(number + 1), **{PAUSE_VARIABLE: str(gate)})
        for number, gate in enumerate(gates)
    ]
    passed: set[Path] = set()
    deadline = time.monotonic() + 600
    while len(passed) < 4 and time.monotonic() < deadline:
        waiting = [gate for gate in gates if gate.exists()]
        # The lock lets one run at a time reach the moment before publishing.
        assert len(waiting) <= 1
        for gate in waiting:
            time.sleep(0.1)
            assert [g for g in gates if g.exists()] == [gate]
            gate.unlink()
            passed.add(gate)
        if not waiting:
            if all(run.poll() is not None for run in runs):
                break
            time.sleep(0.01)
    assert len(passed) == 4
    printed = []
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        assert _without_progress(err) == ""
        printed.append(Path(out.strip()).name)
    listed = json.loads((tmp_path / "out" / MANIFEST).read_text())["files"]
    assert sorted(listed) == sorted(printed)
    assert len(set(printed)) == 4
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted([*printed, MANIFEST])


# -- start-up -------------------------------------------------------------------------------


def _importing_numpy(pid: int) -> bool:
    try:
        return "_multiarray_umath" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


@pytest.mark.parametrize(("signum", "status", "word"), STOPS)
def test_a_stop_during_start_up_is_one_line(
    tmp_path: Path, signum: int, status: int, word: str
) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "embedviz", "render", "single", "-ql", "-o", "out"],
        cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    # numpy is loaded while embedviz's modules are imported, long before any command runs.
    _wait_for(lambda: _importing_numpy(process.pid), "numpy to load", process)
    process.send_signal(signum)
    out, err = process.communicate(timeout=120)
    assert process.returncode == status, err
    assert err == f"embedviz: {word}; nothing was replaced\n"
    assert out == ""
    assert [p for p in tmp_path.rglob("*") if not p.is_dir()] == []


def test_folder_and_site_locks_are_where_the_docs_say(tmp_path: Path) -> None:
    assert folder_lock(tmp_path / "out") == tmp_path / "out" / ".embedviz-lock"
    assert site_lock(tmp_path / "site") == tmp_path / ".site.embedviz-lock"


def test_a_stopped_run_does_not_wait_for_threads_that_never_end(tmp_path: Path) -> None:
    """Once a render was interrupted and then hung on its worker threads until killed."""
    script = (
        "import sys, threading\n"
        "import embedviz.cli as cli\n"
        "def stuck(args):\n"
        "    threading.Thread(target=threading.Event().wait).start()  # never ends\n"
        "    raise KeyboardInterrupt\n"
        "cli._dispatch = stuck\n"
        "from embedviz.launch import run\n"
        "sys.exit(run(['scenes']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 130
    assert done.stderr == "embedviz: interrupted; nothing was replaced\n"
