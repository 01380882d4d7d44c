"""The ``embedviz`` command line.

Every failure ends in one line on stderr and a non-zero exit status: 2 for
bad usage or input, 1 for a render that failed for another reason, 130 for
Ctrl-C and 143 for SIGTERM. Nothing already rendered is replaced unless the
new render finished, and nothing embedviz did not write is ever replaced.

A stop (Ctrl-C, SIGTERM) before publishing leaves every old output as it
was: "interrupted; nothing was replaced" (or "terminated; ..."). Publishing
itself cannot be stopped halfway (see :mod:`embedviz.export.publishing`): a
stop that arrives while or after it publishes is reported as "done; the stop
came after publishing", with the same exit status. Python warnings never
reach stderr, unless ``--verbose`` asks for every message.
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import json
import os
import shlex
import shutil
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from embedviz.core.errors import EmbedvizError
from embedviz.export.publishing import (
    Terminated,
    forget_stop_signals,
    late_stop,
    on_stop_signal,
    published,
)

if TYPE_CHECKING:
    from embedviz.export.voice import Voice

__all__ = ["main"]

FORMATS = ("mp4", "webm", "mov", "gif", "png")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"embedviz: error: {message} (see 'embedviz --help')", file=sys.stderr)
        raise SystemExit(2)


def _add_table_options(parser: argparse.ArgumentParser) -> None:
    """Add one flag per declared option (see :data:`embedviz.story.options.OPTIONS`)."""
    from embedviz.story.options import OPTIONS

    group = parser.add_argument_group("scene options (also from embedviz.toml / EMBEDVIZ_*)")
    for spec in OPTIONS:
        # Values stay strings here: the option declaration parses and checks them,
        # the same way for flags, embedviz.toml and the environment.
        group.add_argument(
            spec.flag,
            dest=spec.name,
            choices=spec.choices or None,
            metavar=None if spec.choices else spec.metavar,
            help=f"{spec.help} (default {spec.shown_default})",
        )


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    from embedviz.story.options import OPTION_NAMES

    return {name: getattr(args, name, None) for name in OPTION_NAMES}


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="embedviz",
        description="Animated, verified explainers of embedding lookups.",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    commands.add_parser("scenes", help="list the scenes, one line each")

    storyboard = commands.add_parser("storyboard", help="print a scene's beat-by-beat data")
    storyboard.add_argument(
        "scene", nargs="?", help="class name (SequenceLookup) or alias (sequence)"
    )
    storyboard.add_argument("--json", action="store_true", help="print the full JSON")
    storyboard.add_argument(
        "--from",
        dest="edited",
        metavar="FILE",
        help="print an edited storyboard file again as JSON, its labels filled from its "
        "(translated) words; its title, words, narration and timing kept",
    )
    storyboard.add_argument(
        "--schema",
        action="store_true",
        help="print the JSON Schema (draft 2020-12) of storyboard files instead",
    )
    _add_table_options(storyboard)

    verify = commands.add_parser(
        "verify", help="check storyboard files against the core (exit 0 when all are true)"
    )
    verify.add_argument("files", nargs="+", metavar="FILE", help="storyboard JSON files")

    lookup = commands.add_parser("lookup", help="print a lookup as PyTorch prints it")
    _add_table_options(lookup)

    render = commands.add_parser("render", help="render a scene to a video")
    render.add_argument("scene", nargs="?", help="class name (SequenceLookup) or alias (sequence)")
    render.add_argument(
        "--storyboard",
        metavar="FILE",
        help="render an edited storyboard file (checked against the core first)",
    )
    _add_quality_flags(render)
    render.add_argument("--format", choices=FORMATS, default="mp4", help="default mp4")
    render.add_argument(
        "-o",
        "--output-dir",
        help="the folder the file goes into (default media/renders/<quality>)",
    )
    render.add_argument(
        "--no-captions",
        dest="captions",
        action="store_false",
        help="leave the narration out of the picture (it is drawn by default)",
    )
    render.add_argument(
        "--save_sections",
        action="store_true",
        help="also write one clip per section (FullExplainer: one per concept), as manim does",
    )
    render.add_argument("--verbose", action="store_true", help="show Manim's own log messages")
    render.add_argument(
        "-j",
        dest="jobs",
        type=int,
        default=1,
        help="render ranges of beats in this many worker processes and join them (default 1)",
    )
    _add_cfr_flag(render)
    _add_table_options(render)

    sheet = commands.add_parser(
        "contact-sheet",
        help="one PNG with a frame at the middle of every beat's motion and at its end",
    )
    sheet.add_argument("scene", help="class name (SequenceLookup) or alias (sequence)")
    sheet.add_argument("-o", "--output", required=True, help="the PNG file to write")
    sheet.add_argument("--columns", type=int, default=4, help="tiles per row (default 4)")
    sheet.add_argument(
        "--tile-width", type=int, default=480, help="width of each tile in pixels (default 480)"
    )
    sheet.add_argument(
        "--frame-height",
        type=int,
        default=720,
        choices=(480, 720, 1080),
        help="the frame each tile is drawn at (default 720)",
    )
    _add_table_options(sheet)

    export = commands.add_parser(
        "export", help="export clips, captions and a gallery page for a course site"
    )
    export.add_argument("scenes", nargs="*", metavar="SCENE", help="class names or aliases")
    export.add_argument("--all", action="store_true", help="export every scene")
    export.add_argument(
        "--storyboard",
        metavar="FILE",
        action="append",
        help="export an edited storyboard file (repeatable; checked against the core first)",
    )
    export.add_argument(
        "--out",
        default="media/site",
        help="the site folder: created, or grown by these clips, keeping its others "
        "(default media/site)",
    )
    _add_quality_flags(export)
    export.add_argument("-j", dest="jobs", type=int, help="worker processes (default: CPUs)")
    _add_publishing_options(
        export,
        voice="speak the narration offline: the best installed voice (Piper when the "
        "'voice' extra is installed, else espeak-ng), or the one named",
        burn="also draw the narration into the picture (by default it is only in the "
        "clips' caption track), for players without track support",
        force="export into a folder that holds other files: replace only embedviz's own "
        "files there, keep every other file",
    )
    _add_site_options(export)
    _add_cfr_flag(export)
    batch = export.add_mutually_exclusive_group()
    batch.add_argument(
        "--list-jobs",
        action="store_true",
        help="render nothing; print one shell command per clip, each exporting its clip "
        "into OUT.jobs/NN_SCENE, for a batch runner (GNU parallel, Slurm, Ray)",
    )
    batch.add_argument(
        "--gather",
        metavar="JOBS",
        help="render nothing; make the site --out of the clips that --list-jobs' commands "
        "exported into the folder JOBS",
    )
    _add_table_options(export)

    slides = commands.add_parser(
        "slides", help="a slide deck, one slide per beat: offline HTML, PDF handout, manim-slides"
    )
    slides.add_argument("scene", nargs="?", help="class name (SequenceLookup) or alias (sequence)")
    slides.add_argument(
        "--storyboard",
        metavar="FILE",
        help="make the deck of an edited storyboard file (checked against the core first)",
    )
    _add_quality_flags(slides)
    slides.add_argument(
        "--out", help="the deck folder (default media/slides/<scene>); replaces only a deck"
    )
    _add_publishing_options(
        slides,
        voice="speak each slide's narration offline, as export --voice does",
        burn="also draw the narration into the videos (it is always text on the slide)",
        force="write the deck into a folder that holds other files, keeping them",
    )
    _add_cfr_flag(slides)
    slides.add_argument(
        "--autoplay",
        action="store_true",
        help="play each slide's clip as soon as the slide shows (by default a clip waits "
        "for its play button, WCAG 2.2.2)",
    )
    _add_table_options(slides)

    setup = commands.add_parser(
        "setup", help="fetch what an optional feature needs once (reveal.js for slides)"
    )
    setup.add_argument("feature", choices=("slides",), help="the feature to set up")
    setup.add_argument(
        "--from",
        dest="source",
        metavar="FILE.tgz",
        help="use this copy of the npm tarball instead of downloading it (checked by SHA-512)",
    )
    return parser


def _add_site_options(export: argparse.ArgumentParser) -> None:
    """Add the flags of a site that grows: remove a clip, rebuild, title and intro."""
    export.add_argument(
        "--remove",
        metavar="SCENE",
        action="append",
        help="take this clip out of the site: its files and its place in the gallery "
        "(repeatable); every other clip is kept",
    )
    export.add_argument(
        "--rebuild",
        action="store_true",
        help="render the named scenes even if unchanged (by default a clip whose storyboard "
        "and settings did not change since it was exported is kept as it is)",
    )
    export.add_argument(
        "--title",
        metavar="TEXT",
        help="the gallery's heading and page title; later exports keep it ('' for the default)",
    )
    intro = export.add_mutually_exclusive_group()
    intro.add_argument(
        "--intro",
        metavar="TEXT",
        help="a paragraph under the title; later exports keep it ('' for none)",
    )
    intro.add_argument(
        "--intro-file",
        metavar="FILE",
        help="the intro from a UTF-8 text file, paragraphs separated by blank lines",
    )
    export.add_argument(
        "--lang",
        metavar="TAG",
        help="the language of --title and --intro, a BCP 47 tag such as fr (default en)",
    )


def _intro_text(args: argparse.Namespace) -> str | None:
    """Return the intro that --intro or --intro-file gives, or None for the site's own."""
    if args.intro_file is None:
        given: str | None = args.intro
        return given
    path = Path(args.intro_file)
    try:
        with path.open("rb") as handle:
            data = handle.read(_INTRO_FILE_BYTES + 1)
    except OSError as error:
        raise EmbedvizError(f"--intro-file {path}: {error.strerror}") from None
    if len(data) > _INTRO_FILE_BYTES:
        raise EmbedvizError(f"--intro-file {path} is larger than {_INTRO_FILE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise EmbedvizError(f"--intro-file {path} is not UTF-8 text") from None


# An intro is a few paragraphs; the file may not be much more than the text allowed.
_INTRO_FILE_BYTES = 100_000


def _add_cfr_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cfr",
        action="store_true",
        help="constant frame rate: write a frame for every tick, as manim does; by default "
        "a still picture is written once for as long as it is held (variable frame rate)",
    )


def _add_publishing_options(
    parser: argparse.ArgumentParser, *, voice: str, burn: str, force: str
) -> None:
    """Add the voice, caption, logging and folder flags that export and slides share."""
    parser.add_argument(
        "--voice", nargs="?", const="auto", choices=("auto", "piper", "espeak"), help=voice
    )
    parser.add_argument(
        "--voice-model",
        metavar="FILE.onnx",
        help="speak with this Piper voice (its .onnx.json beside it); implies --voice",
    )
    parser.add_argument("--burn-captions", action="store_true", help=burn)
    parser.add_argument("--verbose", action="store_true", help="show Manim's own log messages")
    parser.add_argument("--force", action="store_true", help=force)


def _chosen_voice(args: argparse.Namespace, language: str) -> Voice | None:
    """Return the voice that --voice / --voice-model ask for, or None for a silent clip."""
    if not (args.voice or args.voice_model):
        return None
    from embedviz.export.voice import choose_voice

    # The storyboard's language tag chooses among the installed voices.
    return choose_voice(args.voice or "auto", args.voice_model, language)


def _add_quality_flags(parser: argparse.ArgumentParser) -> None:
    """Add ``-ql`` … ``-qk``, the same for render, export and slides (``-q l`` works too)."""
    from embedviz.quality import PRESETS

    sizes = ", ".join(
        f"-q{flag} {preset.folder}" + (" (default)" if flag == "m" else "")
        for flag, preset in PRESETS.items()
    )
    # One option with a value: argparse reads -ql as -q l, so both spellings work.
    parser.add_argument(
        "-q",
        dest="quality",
        choices=tuple(PRESETS),
        default="m",
        metavar="{" + ",".join(PRESETS) + "}",
        help=f"quality: {sizes}; -qt checks sound, captions and files, too small to read",
    )


def _cmd_scenes() -> int:
    from embedviz.story.scenes import SCENES

    width = max(len(spec.name) for spec in SCENES.values())
    for spec in SCENES.values():
        # The IDs as --ids takes them: "2,3,5,1", or a batch "2,3;5,1".
        rows: list[Any] = list(spec.default_ids or [])
        if rows and isinstance(rows[0], list):
            ids = ";".join(",".join(map(str, row)) for row in rows)
        else:
            ids = ",".join(map(str, rows))
        shown = f" Default IDs: {ids}." if ids else ""
        print(f"{spec.name:<{width}}  {spec.alias:<10}  {spec.summary}{shown}")
    return 0


def _given_options(args: argparse.Namespace) -> list[str]:
    from embedviz.story.options import OPTIONS

    return [spec.flag for spec in OPTIONS if getattr(args, spec.name, None) is not None]


def _load_checked(path: str) -> Any:
    """Load a storyboard file and refuse it unless it is true to the core."""
    from embedviz.inputs import verified_problems
    from embedviz.story.contract import load_storyboard

    board = load_storyboard(path)
    problems = verified_problems(board)
    if problems:
        more = (
            f" (and {len(problems) - 1} more; run 'embedviz verify')" if len(problems) > 1 else ""
        )
        raise EmbedvizError(f"{path}: refused: {problems[0]}{more}")
    return board


def _cmd_storyboard(args: argparse.Namespace) -> int:
    from embedviz.inputs import prepared_storyboard

    if args.schema:
        import json

        from embedviz.story.contract import json_schema

        if args.scene is not None or args.json or _given_options(args):
            raise EmbedvizError("--schema prints the schema of every storyboard; give nothing else")
        print(json.dumps(json_schema(), indent=2, ensure_ascii=False))
        return 0
    if args.edited is not None:
        return _print_refreshed(args)
    if args.scene is None:
        raise EmbedvizError("name a scene (see 'embedviz scenes'), or give --schema")
    board = prepared_storyboard(args.scene, _overrides(args))
    if args.json:
        print(board.to_json())
        return 0
    print(f"{board.scene}: {board.title} ({board.vocab_size} x {board.dim}, {board.source})")
    starts = iter(board.beat_start_times())
    for part in board.parts or (board,):
        if board.parts:
            print(f"-- {part.scene}: {part.title}")
        for beat in part.beats:
            print(f"{next(starts):6.1f}s  {beat.name:<12} {beat.narration}")
            # The audio description: what the picture shows and the narration does not say.
            for description in beat.descriptions:
                print(f"{'':21} shown: {description.text}")
    print(f"{board.duration:6.1f}s  end")
    return 0


def _print_refreshed(args: argparse.Namespace) -> int:
    """Print an edited storyboard file true to the core again (``storyboard --from FILE``)."""
    from embedviz.inputs import input_problems, text_problems
    from embedviz.story.contract import load_storyboard, refreshed

    if args.scene is not None or args.schema or _given_options(args):
        raise EmbedvizError("--from prints the file's storyboard; give no scene and no options")
    board = load_storyboard(args.edited)
    # Files and text that changed since would silently change the numbers: refuse them.
    problems = [*input_problems(board)[0], *text_problems(board)]
    if problems:
        raise EmbedvizError(f"{args.edited}: refused: {problems[0]}")
    print(refreshed(board).to_json())
    return 0


def _cmd_lookup(args: argparse.Namespace) -> int:
    from embedviz.config import resolve_options
    from embedviz.core.ids import validate_ids
    from embedviz.core.torch_format import format_torch_tensor
    from embedviz.inputs import prepare_options
    from embedviz.story.scenes import SCENES, make_table
    from embedviz.story.scenes.common import GRAD_FN

    # A printout has no legibility limit on the number of tokens.
    options = prepare_options(resolve_options(_overrides(args)), legible_limit=None)
    table = make_table(options)
    # Without --ids, the IDs SequenceLookup shows.
    ids = SCENES["SequenceLookup"].ids(options)
    output = table.lookup(validate_ids(ids, table.vocab_size))
    print(format_torch_tensor(output, grad_fn=GRAD_FN))
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from embedviz.inputs import verified_problems
    from embedviz.story.contract import UnreadableStoryboardError, read_storyboard
    from embedviz.story.problems import beat_labels, by_beat, core_problem

    status = 0
    for path in args.files:
        try:
            board, problems = read_storyboard(path)
        except UnreadableStoryboardError as error:
            print(f"embedviz: error: {error}", file=sys.stderr)
            status = 2
            continue
        if board is not None:
            # Compared with the core even when some beats' timing needs fixing:
            # every problem of the file is reported in this one run.
            problems += [core_problem(text, board.scene) for text in verified_problems(board)]
        if board is not None and not problems:
            print(f"{path}: ok ({board.scene}, {len(board.all_beats())} beats, {board.language})")
            continue
        status = max(status, 1)
        groups = by_beat(problems, beat_labels(board) if board is not None else [])
        beats = [label for label, _ in groups if label is not None]
        where = (
            f" in {len(beats)} {_plural(len(beats), 'beat')}: " + ", ".join(beats) if beats else ""
        )
        print(f"{path}: {len(problems)} {_plural(len(problems), 'problem')}{where}")
        for _, group in groups:
            for problem in group:
                print(f"{path}: {problem}")
    return status


def _cmd_contact_sheet(args: argparse.Namespace) -> int:
    from embedviz.export.folders import (
        check_mergeable,
        check_replaceable_file,
        check_writable,
        folder_lock,
        make_staging,
        record_files,
        signals_held,
    )
    from embedviz.export.publishing import publishing
    from embedviz.inputs import prepared_storyboard
    from embedviz.story.scenes import find_scene

    target = Path(args.output)
    if target.suffix.lower() != ".png":
        raise EmbedvizError(f"the contact sheet is a PNG; {args.output!r} does not end in .png")
    if target.is_dir():
        raise EmbedvizError(f"{args.output!r} is a folder; give a file name ending in .png")
    if args.columns < 1 or args.tile_width < 32:
        raise EmbedvizError("--columns must be at least 1 and --tile-width at least 32")
    folder = target.parent
    _check_output_place(folder)
    if folder.is_dir():
        check_mergeable(folder, "-o")  # a manifest that points outside is refused now
    # Only a sheet that embedviz wrote (its folder's manifest lists it) is replaced.
    check_replaceable_file(target, "-o")
    spec = find_scene(args.scene)
    board = prepared_storyboard(spec.name, _overrides(args))  # fail before manim starts

    from embedviz.render.moments import capture_tiles, contact_sheet

    height = int(args.frame_height)
    tiles = capture_tiles(board, pixel_width=height * 16 // 9, pixel_height=height)
    image = contact_sheet(tiles, columns=args.columns, tile_width=args.tile_width)
    staging: Path | None = None
    try:
        with signals_held():
            staging = make_staging(folder, ".embedviz-sheet-", "-o")
        sheet = staging / target.name
        image.save(sheet, format="PNG", optimize=True)
        os.chmod(sheet, 0o644)
        # Only a finished sheet replaces an earlier one, in one atomic rename.
        with publishing(folder_lock(folder), target):
            check_writable(folder, "-o")
            check_replaceable_file(target, "-o")
            record_files(folder, target.name)
            os.replace(sheet, target)
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    print(target)
    return 0


def _check_output_place(folder: Path) -> None:
    """Refuse, before any work, a place that has a file in the way or cannot be written."""
    from embedviz.export.folders import check_writable

    for ancestor in [folder, *folder.parents]:
        if os.path.lexists(ancestor) and not ancestor.is_dir():
            raise EmbedvizError(
                f"{ancestor} is a file, not a folder, so nothing can be written in {folder}; "
                "give -o another place"
            )
    existing = next(ancestor for ancestor in [folder, *folder.parents] if ancestor.is_dir())
    check_writable(existing, "-o")


def _output_stem(scene: str, options: dict[str, Any], captions: bool) -> str:
    """Name a render: the scene, plus a short stable suffix for non-default options.

    The default render keeps the plain name (``SequenceLookup``); any other
    options, wherever they came from, add the first 8 hex digits of a hash
    of the options that differ from the defaults, so different renders do
    not overwrite each other.
    """
    from dataclasses import asdict

    from embedviz.story.options import SceneOptions

    defaults = asdict(SceneOptions())
    changed = {key: value for key, value in options.items() if defaults.get(key) != value}
    if not captions:
        changed["captions"] = False
    if not changed:
        return scene
    text = json.dumps(changed, sort_keys=True, default=str, ensure_ascii=True)
    return f"{scene}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


def _output_folder(path: Path) -> Path:
    """Create the output folder, or refuse in one line when it is not a writable folder."""
    from embedviz.export.folders import check_writable

    if os.path.lexists(path) and not path.is_dir():
        raise EmbedvizError(
            f"-o {path} is a file, not a folder; give -o a folder (it is created if missing)"
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise EmbedvizError(f"-o {path}: cannot create this folder ({error.strerror})") from None
    check_writable(path, "-o")
    return path


def _section_videos(writer: Any, scene: str, suffix: str) -> list[tuple[str, Path]]:
    """List the section clips manim wrote, in order, as (file name, path)."""
    index = Path(writer.output_plan.section_index)
    folder = Path(writer.sections_output_dir)
    found = []
    for number, section in enumerate(json.loads(index.read_text(encoding="utf-8")), start=1):
        name = str(section["name"])
        if name == "autocreated":  # manim's name for a scene without sections
            name = f"{number:02d}_{scene}"
        found.append((f"{name}{suffix}", folder / str(section["video"])))
    return found


def _cmd_render(args: argparse.Namespace) -> int:
    from embedviz.export.folders import (
        check_mergeable,
        check_replaceable,
        check_replaceable_file,
        folder_lock,
        make_staging,
        publish_permissions,
        record_files,
        signals_held,
        swap_into_place,
        write_manifest,
    )
    from embedviz.export.media import quiet_logging
    from embedviz.export.publishing import publishing
    from embedviz.inputs import prepared_storyboard
    from embedviz.story.scenes import find_scene

    if args.storyboard is not None:
        if args.scene is not None or _given_options(args):
            raise EmbedvizError(
                "--storyboard renders the file as it is; give no scene and no scene options"
            )
        board = _load_checked(args.storyboard)
        spec = find_scene(board.scene)
        # Named after the file (SequenceLookup.de.json gives SequenceLookup.de.mp4).
        stem = _output_stem(Path(args.storyboard).name.removesuffix(".json"), {}, args.captions)
    else:
        if args.scene is None:
            raise EmbedvizError("name a scene to render, or give --storyboard FILE")
        spec = find_scene(args.scene)
        board = prepared_storyboard(spec.name, _overrides(args))  # fail before manim starts
        stem = _output_stem(spec.name, board.options.to_dict(), args.captions)
    if args.save_sections and args.format == "png":
        raise EmbedvizError("--save_sections needs a video format, not png")
    if args.jobs < 1:
        raise EmbedvizError(f"-j must be at least 1, not {args.jobs}")

    from embedviz.quality import PRESETS

    preset = PRESETS[args.quality]
    out_dir = (
        Path(args.output_dir) if args.output_dir else Path("media") / "renders" / preset.folder
    )
    out_dir = _output_folder(out_dir)
    check_mergeable(out_dir, "-o")  # a manifest that points outside is refused now
    final = out_dir / f"{stem}.{args.format}"
    check_replaceable_file(final, "-o")
    sections_target = out_dir / f"{stem}_sections"
    if args.save_sections:
        check_replaceable(sections_target, "-o")

    # Importing manim reads manim.cfg from the working directory.
    from embedviz.render.base import StoryboardScene

    quiet_logging(args.verbose)

    staging: Path | None = None
    try:
        # A signal that lands here is delivered once the folder's name is known.
        with signals_held():
            staging = make_staging(out_dir, ".embedviz-render-", "-o")
        settings: dict[str, Any] = {
            "media_dir": str(staging),
            **preset.settings(),
            "disable_caching": True,
            "verbosity": "INFO" if args.verbose else "ERROR",
            "progress_bar": "display" if args.verbose else "none",
            "save_sections": args.save_sections,
        }
        if args.format == "png":
            settings.update(write_to_movie=False, save_last_frame=True, format="png")
        else:
            settings.update(format=args.format)
        progress = _RenderProgress(board)
        scene_class = type(
            spec.name,
            (StoryboardScene,),
            {
                "scene_name": spec.name,
                "captions": args.captions,
                "constant_frame_rate": args.cfr,
                "after_beat": lambda _scene, beat: progress.beat_done(beat),
            },
        )
        produced, sections = _render_scene(scene_class, board, settings, args, staging)
        if not produced.is_file():
            raise EmbedvizError(f"manim finished but wrote no {args.format} file")
        publish_permissions(produced)
        if args.save_sections:
            clips = staging / "sections"
            clips.mkdir()
            for name, video in sections:
                os.replace(video, clips / name)
            write_manifest(clips)
            publish_permissions(clips)
        # Only a finished render replaces an earlier one, each in one atomic rename, one
        # run at a time in this folder, and no stop can cut publishing short.
        with publishing(folder_lock(out_dir), final):
            check_replaceable_file(final, "-o")
            if args.save_sections:
                swap_into_place(staging / "sections", sections_target, "-o")
            record_files(out_dir, final.name)
            os.replace(produced, final)
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    if args.save_sections:
        print(f"{sections_target}{os.sep} ({len(sections)} {_plural(len(sections), 'clip')})")
    print(final)
    return 0


def _render_scene(
    scene_class: type[Any],
    board: Any,
    settings: dict[str, Any],
    args: argparse.Namespace,
    staging: Path,
) -> tuple[Path, list[tuple[str, Path]]]:
    """Render in this process, or in ranges of beats with -j; return the file and sections."""
    from manim import tempconfig

    suffix = f".{args.format}"
    if args.jobs > 1 and args.format in ("mp4", "webm", "mov"):
        from embedviz.render.base import StoryboardScene
        from embedviz.render.parallel import render_in_parallel

        started = time.monotonic()
        # Each worker plays every beat before its range too: the beats are
        # reported here, once, when all ranges are done.
        quiet = type(
            scene_class.__name__, (scene_class,), {"after_beat": StoryboardScene.after_beat}
        )
        joined = render_in_parallel(
            quiet,
            board,
            settings,
            args.jobs,
            staging / "ranges",
            constant_frame_rate=args.cfr,
        )
        beats = len(board.all_beats())
        print(
            f"embedviz render: {board.scene}: {beats} {_plural(beats, 'beat')} in "
            f"{time.monotonic() - started:.1f} s, in ranges by {args.jobs} workers",
            file=sys.stderr,
            flush=True,
        )
        named = [
            (f"{number:02d}_{board.scene}" if name == "autocreated" else name, clip)
            for number, (name, clip) in enumerate(joined.sections, start=1)
        ]
        return joined.movie, [(f"{name}{suffix}", clip) for name, clip in named]
    with tempconfig(settings):
        scene = scene_class(storyboard=board)
        scene.render()
        writer = scene.renderer.file_writer
        produced = Path(writer.image_file_path if args.format == "png" else writer.movie_file_path)
        sections = _section_videos(writer, board.scene, suffix) if args.save_sections else []
    return produced, sections


class _RenderProgress:
    """Render progress on stderr: a line that counts beats in a terminal, else a line per scene.

    A composite scene (FullExplainer) reports each scene it plays; a log gets
    one line as each finishes, never a line per frame or per beat.
    """

    def __init__(self, board: Any) -> None:
        self.name = board.scene
        self.total = len(board.all_beats())
        self.done = 0
        self.tty = sys.stderr.isatty()
        self.part_started = time.monotonic()
        # After how many beats each scene ends, its label and its beats; a
        # transition's beat counts with the scene after it (or, last, before it).
        self.ends: dict[int, tuple[str, int]] = {}
        parts = board.parts or (board,)
        scenes = [part for part in parts if part.layout != "transition"] or list(parts)
        count = waiting = 0
        for part in parts:
            count += len(part.beats)
            waiting += len(part.beats)
            if part in scenes:
                number = f" {scenes.index(part) + 1}/{len(scenes)} {part.scene}"
                self.ends[count] = (self.name + (number if board.parts else ""), waiting)
                waiting = 0
        if waiting:
            label, beats = self.ends.pop(max(self.ends))
            self.ends[count] = (label, beats + waiting)

    def beat_done(self, beat: Any) -> None:
        """Count one finished beat, and report it."""
        self.done += 1
        now = time.monotonic()
        if self.tty:
            # \r and erase-to-end-of-line: one line, rewritten in place.
            end = "\n" if self.done == self.total else ""
            line = f"embedviz render: {self.name} beat {self.done}/{self.total} ({beat.name})"
            print(f"\r{line}\x1b[K", end=end, file=sys.stderr, flush=True)
        if self.done in self.ends:
            label, beats = self.ends[self.done]
            if not self.tty:
                took = f"{beats} {_plural(beats, 'beat')} in {now - self.part_started:.1f} s"
                print(f"embedviz render: {label}: {took}", file=sys.stderr, flush=True)
            self.part_started = now


def _plural(count: int, noun: str) -> str:
    return noun if count == 1 else f"{noun}s"


def _cmd_export(args: argparse.Namespace) -> int:
    from embedviz.export.folders import check_mergeable, check_replaceable
    from embedviz.export.site import ExportError, default_jobs, export_site
    from embedviz.inputs import prepared_storyboard
    from embedviz.story.scenes import SCENES, find_scene

    if args.gather is not None:
        return _gather(args)
    boards = {}
    site_only = bool(args.remove) or any(
        value is not None for value in (args.title, args.intro, args.intro_file, args.lang)
    )
    if args.storyboard:
        if args.all or args.scenes or _given_options(args):
            raise EmbedvizError(
                "--storyboard exports the files as they are; give no scenes, --all or options"
            )
        for path in args.storyboard:
            board = _load_checked(path)
            if board.scene in boards:
                raise EmbedvizError(f"{path}: a second storyboard of {board.scene}; give one each")
            boards[board.scene] = board
        names = list(boards)
    elif args.all and args.scenes:
        raise EmbedvizError("name the scenes to export, or give --all (not both)")
    elif not (args.all or args.scenes or site_only):
        raise EmbedvizError(
            "name the scenes to export, or give --all; --remove SCENE takes a clip out"
        )
    else:
        names = list(SCENES) if args.all else [find_scene(name).name for name in args.scenes]
    names = list(dict.fromkeys(names))
    if args.jobs is not None and args.jobs < 1:
        raise EmbedvizError(f"-j must be at least 1, not {args.jobs}")
    overrides = _overrides(args)
    # Bad options fail here, before any rendering.
    for name in names:
        boards[name] = boards.get(name) or prepared_storyboard(name, overrides)
    if args.list_jobs:
        return _list_jobs(args, boards)
    if args.force:
        check_mergeable(Path(args.out).resolve())
    else:
        keep = "; or add --force to keep those files and replace only embedviz's own"
        check_replaceable(Path(args.out).resolve(), "--out", keep)
    voice = _chosen_voice(args, boards[names[0]].language) if names else None
    try:
        clips = export_site(
            names,
            args.out,
            quality=args.quality,
            jobs=args.jobs or default_jobs(),
            overrides=overrides,
            voice=voice,
            burn_captions=args.burn_captions,
            verbose=args.verbose,
            force=args.force,
            boards=boards,
            constant_frame_rate=args.cfr,
            remove=[_clip_name(name) for name in args.remove or ()],
            title=args.title,
            intro=_intro_text(args),
            language=args.lang,
            rebuild=args.rebuild,
        )
    except ExportError as error:
        print(f"embedviz: error: export failed, {args.out} is unchanged: {error}", file=sys.stderr)
        return 2 if error.bad_input else 1
    print(f"{Path(args.out) / 'index.html'} ({len(clips)} {_plural(len(clips), 'clip')})")
    return 0


def _clip_name(name: str) -> str:
    """Return the folder of a clip named by class name or alias (a name it does not know, as is)."""
    from embedviz.story.scenes import find_scene

    try:
        return find_scene(name).name
    except EmbedvizError:
        return name


def _list_jobs(args: argparse.Namespace, boards: dict[str, Any]) -> int:
    """Print one shell command per clip that needs rendering, then how to gather them."""
    from embedviz.export.contents import render_settings
    from embedviz.export.site import unchanged_clips

    names = list(boards)
    if not args.rebuild:
        voice = _chosen_voice(args, boards[names[0]].language) if names else None
        settings = render_settings(
            args.quality, voice, args.burn_captions, constant_frame_rate=args.cfr
        )
        # A clip the site holds unchanged needs no job: gathering keeps it.
        for name in unchanged_clips(boards, args.out, settings):
            print(f"kept {name}: unchanged since it was exported (--rebuild renders it again)",
                  file=sys.stderr)  # fmt: skip
            names.remove(name)
    for number, name in enumerate(names, start=1):
        print(_job_command(args, name, number))
    jobs = f"{Path(args.out).resolve()}.jobs"
    then = [sys.executable, "-m", "embedviz", "export", "--gather", jobs, "--out", args.out]
    then += _site_flags(args)
    print(f"embedviz: then gather the clips: {shlex.join(then)}", file=sys.stderr)
    return 0


def _site_flags(args: argparse.Namespace) -> list[str]:
    """Return the flags that set the site's words, clips to remove and --force, as given."""
    flags = [flag for name in args.remove or () for flag in ("--remove", name)]
    for flag, value in (("--title", args.title), ("--intro", args.intro), ("--lang", args.lang)):
        if value is not None:
            flags += [flag, value]
    if args.intro_file is not None:
        flags += ["--intro-file", str(Path(args.intro_file).resolve())]
    return [*flags, "--force"] if args.force else flags


def _job_command(args: argparse.Namespace, scene: str, number: int) -> str:
    """Return the shell command that exports one clip of ``args`` into OUT.jobs/NN_SCENE.

    It runs in this folder (so relative paths and ``embedviz.toml`` mean the
    same) with this Python, and repeats every option given here. The number
    keeps the gallery's order when the clips are gathered.
    """
    from embedviz.story.options import OPTIONS

    command = [sys.executable, "-m", "embedviz", "export"]
    if args.storyboard:
        path = next(p for p in args.storyboard if _load_checked(p).scene == scene)
        command += ["--storyboard", str(Path(path).resolve())]
    else:
        command.append(scene)
        for spec in OPTIONS:
            value = getattr(args, spec.name, None)
            if value is not None:
                command += [spec.flag, str(value)]
    command += ["-q", args.quality]
    if args.jobs is not None:
        command += ["-j", str(args.jobs)]
    if args.voice or args.voice_model:
        command += ["--voice", args.voice or "auto"]
    if args.voice_model:
        command += ["--voice-model", str(Path(args.voice_model).resolve())]
    given_flags = (
        ("--burn-captions", args.burn_captions), ("--cfr", args.cfr), ("--rebuild", args.rebuild),
    )  # fmt: skip
    for flag, given in given_flags:
        if given:
            command.append(flag)
    command += ["--out", f"{Path(args.out).resolve()}.jobs/{number:02d}_{scene}"]
    return f"cd {shlex.quote(os.getcwd())} && {shlex.join(command)}"


def _gather(args: argparse.Namespace) -> int:
    from embedviz.export.site import gather_site

    if args.all or args.scenes or args.storyboard or _given_options(args):
        raise EmbedvizError("--gather only copies finished clips; give no scenes or options")
    clips = gather_site(
        args.gather,
        args.out,
        force=args.force,
        remove=[_clip_name(name) for name in args.remove or ()],
        title=args.title,
        intro=_intro_text(args),
        language=args.lang,
    )
    print(f"{Path(args.out) / 'index.html'} ({len(clips)} {_plural(len(clips), 'clip')})")
    return 0


def _cmd_slides(args: argparse.Namespace) -> int:
    from embedviz.export.slides import find_reveal, write_deck
    from embedviz.extras import require_module
    from embedviz.inputs import prepared_storyboard
    from embedviz.story.scenes import find_scene

    if args.storyboard is not None:
        if args.scene is not None or _given_options(args):
            raise EmbedvizError(
                "--storyboard makes the deck of the file as it is; give no scene and no "
                "scene options"
            )
        board = _load_checked(args.storyboard)
        spec = find_scene(board.scene)
    else:
        if args.scene is None:
            raise EmbedvizError("name a scene to make slides of, or give --storyboard FILE")
        spec = find_scene(args.scene)
        board = prepared_storyboard(spec.name, _overrides(args))  # fail before manim starts
    # The extra and reveal.js are checked before anything is rendered.
    require_module("manim_slides", "embedviz slides")
    find_reveal()
    voice = _chosen_voice(args, board.language)
    out = Path(args.out) if args.out else Path("media") / "slides" / spec.name

    def progress(done: int, total: int) -> None:
        # A progress line in a terminal only; logs get the final line alone.
        if sys.stderr.isatty():
            end = "\n" if done == total else ""
            print(f"\rembedviz slides: beat {done}/{total}", end=end, file=sys.stderr, flush=True)

    deck = write_deck(
        board,
        out,
        quality=args.quality,
        voice=voice,
        burn_captions=args.burn_captions,
        verbose=args.verbose,
        force=args.force,
        on_beat=progress,
        constant_frame_rate=args.cfr,
        autoplay=args.autoplay,
    )
    print(f"{deck} ({len(board.all_beats())} slides)")
    return 0


def _cmd_setup(args: argparse.Namespace) -> int:
    from embedviz.export.reveal_assets import REVEAL_VERSION, install_reveal

    folder, written = install_reveal(args.source)
    state = "set up" if written else "already set up"
    print(f"reveal.js {REVEAL_VERSION} {state}: {folder}")
    return 0


@contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    """Turn SIGTERM and Ctrl-C into exceptions that unwind while a command runs.

    Main thread only; see :func:`embedviz.export.publishing.on_stop_signal`.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    forget_stop_signals()
    previous = {
        signum: signal.signal(signum, on_stop_signal) for signum in (signal.SIGINT, signal.SIGTERM)
    }
    hook = sys.unraisablehook
    sys.unraisablehook = _quiet_about_stops
    try:
        yield
    finally:
        sys.unraisablehook = hook
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        # A stop belongs to its command; whatever runs next starts afresh.
        forget_stop_signals(keep_published=True)


def _quiet_about_stops(unraisable: Any) -> None:
    """Say nothing of a stop that Python dropped inside a finalizer or weakref callback.

    The stop is remembered (see :func:`embedviz.export.publishing.on_stop_signal`)
    and raised again before anything is published, so the user sees one line,
    not "Exception ignored in ..." and a traceback. Anything else is reported
    as usual.
    """
    if isinstance(unraisable.exc_value, (KeyboardInterrupt, Terminated)):
        return
    sys.__unraisablehook__(unraisable)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv
        Arguments without the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        The exit status.
    """
    with _sigterm_unwinds():
        try:
            args = _build_parser().parse_args(argv)
        except (KeyboardInterrupt, Terminated) as stop:
            return _stopped(stop)
        with _warnings_kept_off_stderr(bool(getattr(args, "verbose", False))):
            return _run(args)


@contextmanager
def _warnings_kept_off_stderr(verbose: bool) -> Iterator[None]:
    """Keep Python warnings (e.g. numpy's RuntimeWarning) off stderr: every error is one line.

    Only warnings that would be shown are affected; a filter that turns them
    into errors (as the tests' ``-W error`` does) still applies.
    """
    if verbose:
        yield
        return
    shown = warnings.showwarning

    def drop(*args: Any, **kwargs: Any) -> None:
        return None

    warnings.showwarning = drop
    try:
        yield
    finally:
        warnings.showwarning = shown


def _stopped(stop: BaseException | int) -> int:
    """Report a stop in one line, honestly, and return its exit status (130 or 143)."""
    if isinstance(stop, int):
        signum = stop
    else:
        signum = signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT
    if published():
        print("embedviz: done; the stop came after publishing", file=sys.stderr)
    elif signum == signal.SIGTERM:
        print("embedviz: terminated; nothing was replaced", file=sys.stderr)
    else:
        print("embedviz: interrupted; nothing was replaced", file=sys.stderr)
    return 128 + int(signum)


# What the file system answers for a place that cannot be written: the user's to fix.
_REFUSALS = frozenset(
    {errno.EACCES, errno.EPERM, errno.EROFS, errno.EEXIST, errno.ENOTDIR, errno.EISDIR,
     errno.ENOSPC, errno.EDQUOT}
)  # fmt: skip


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "scenes":
        return _cmd_scenes()
    if args.command == "storyboard":
        return _cmd_storyboard(args)
    if args.command == "lookup":
        return _cmd_lookup(args)
    if args.command == "verify":
        return _cmd_verify(args)
    if args.command == "export":
        return _cmd_export(args)
    if args.command == "slides":
        return _cmd_slides(args)
    if args.command == "contact-sheet":
        return _cmd_contact_sheet(args)
    if args.command == "setup":
        return _cmd_setup(args)
    return _cmd_render(args)


def _run(args: argparse.Namespace) -> int:
    try:
        status = _dispatch(args)
    except EmbedvizError as error:
        print(f"embedviz: error: {error}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, Terminated) as stop:
        return _stopped(stop)
    except BrokenPipeError:
        return 0
    except ModuleNotFoundError as error:
        # An optional extra (or a dependency) that is not installed: the command
        # that installs it, never a traceback.
        from embedviz.extras import missing_module_message

        print(f"embedviz: error: {missing_module_message(error)}", file=sys.stderr)
        return 2
    except RecursionError:
        print("embedviz: error: the input is nested too deeply", file=sys.stderr)
        return 2
    except Exception as error:  # a render that failed for another reason
        if isinstance(error, OSError) and error.errno in _REFUSALS:
            # The file system said no (a read-only folder, a file in the way): bad input.
            where = f"{error.filename}: " if error.filename else ""
            print(f"embedviz: error: {where}{error.strerror}", file=sys.stderr)
            return 2
        message = str(error).strip().splitlines()
        detail = message[0] if message else type(error).__name__
        print(f"embedviz: error: {type(error).__name__}: {detail}", file=sys.stderr)
        return 1
    late = late_stop()
    # A stop that came while publishing did not stop it: say so, with the stop's status.
    return status if late is None else _stopped(late)
