"""From user input to a storyboard: the one entry point, :func:`prepared_storyboard`.

Options are merged from their sources (:func:`embedviz.config.resolve_options`),
text becomes IDs and a model folder becomes a table (:func:`prepare_options`),
the scene's builder makes the storyboard, and the files it was built from are
pinned by their SHA-256 (:func:`input_files`), so that ``verify`` notices a
changed file (:func:`verified_problems`).

This layer sits beside the command line and the renderer, above the scene
data: it may use the Hugging Face ``tokenizers`` package, which
``embedviz.core`` and ``embedviz.story`` never import.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from embedviz.config import resolve_options
from embedviz.core.errors import EmbedvizError
from embedviz.core.model_dir import find_model_files
from embedviz.core.paths import require_file
from embedviz.core.weights import open_weights
from embedviz.story.contract import verify_storyboard
from embedviz.story.model import InputFile, InputRole, Storyboard
from embedviz.story.options import SceneOptions
from embedviz.story.scenes import MAX_SEQUENCE_TOKENS, find_scene

__all__ = [
    "Tokenized",
    "file_sha256",
    "input_files",
    "input_problems",
    "prepare_options",
    "prepared_storyboard",
    "required_inputs",
    "text_problems",
    "tokenize_text",
    "verified_problems",
]


@dataclass(frozen=True)
class Tokenized:
    """Text split into token pieces and their IDs.

    Attributes
    ----------
    ids
        The token IDs, in order.
    pieces
        The token strings, e.g. ``em``, ``##bed``; special tokens such as
        ``[CLS]`` included unless dropped.
    total
        How many tokens the text had before ``max_tokens`` cut it.
    """

    ids: tuple[int, ...]
    pieces: tuple[str, ...]
    total: int


def tokenize_text(
    text: str,
    tokenizer_file: str | Path,
    *,
    special_tokens: str = "keep",
    max_tokens: int | None = None,
) -> Tokenized:
    """Tokenise text with a local ``tokenizer.json``.

    Parameters
    ----------
    text
        The text.
    tokenizer_file
        A Hugging Face ``tokenizers`` JSON file.
    special_tokens
        ``keep`` adds the tokenizer's special tokens (e.g. ``[CLS]``,
        ``[SEP]``) as the model would see them; ``drop`` leaves them out.
    max_tokens
        Keep only the first this-many tokens.

    Returns
    -------
    Tokenized
        IDs and pieces, without padding.

    Raises
    ------
    EmbedvizError
        If the tokenizer file cannot be read, or the text gives no tokens.
    """
    from tokenizers import Tokenizer

    path = require_file(tokenizer_file, "tokenizer file")
    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as error:  # the Rust side raises plain Exceptions
        detail = str(error).strip().splitlines()[0] if str(error).strip() else "unreadable"
        raise EmbedvizError(f"{path} is not a valid tokenizer.json ({detail})") from None
    # Model files often pad or truncate to a fixed length; a scene wants the text itself.
    tokenizer.no_padding()
    tokenizer.no_truncation()
    encoding = tokenizer.encode(text, add_special_tokens=special_tokens == "keep")
    ids = tuple(int(i) for i in encoding.ids)
    pieces = tuple(str(piece) for piece in encoding.tokens)
    if not ids or all(not piece.strip() for piece in pieces):
        raise EmbedvizError(f"the text {text!r} gives no tokens; nothing to look up")
    if special_tokens == "keep" and all(encoding.special_tokens_mask):
        raise EmbedvizError(f"the text {text!r} gives only special tokens; nothing to look up")
    total = len(ids)
    if max_tokens is not None:
        ids, pieces = ids[:max_tokens], pieces[:max_tokens]
    return Tokenized(ids, pieces, total)


def prepare_options(
    options: SceneOptions, *, legible_limit: int | None = MAX_SEQUENCE_TOKENS
) -> SceneOptions:
    """Resolve ``--model`` into a weights file and ``--text`` into IDs.

    Parameters
    ----------
    options
        Options from :func:`embedviz.config.resolve_options`.
    legible_limit
        Refuse text with more tokens than this unless ``max_tokens`` is set
        (``None`` for no limit, e.g. for a printout).

    Returns
    -------
    SceneOptions
        Options a scene builder takes: ``weights`` and ``tensor`` point at the
        model's embedding tensor, ``ids`` and ``pieces`` come from the text.

    Raises
    ------
    EmbedvizError
        For a model folder without an embedding tensor, a tokenizer whose IDs
        do not fit the table, text without tokens, or text longer than a
        scene shows (the message suggests ``--max-tokens``).
    """
    tokenizer = options.tokenizer
    if options.model is not None:
        files = find_model_files(options.model, options.tensor)
        options = replace(options, weights=str(files.weights), tensor=files.tensor)
        if tokenizer is None and files.tokenizer is not None:
            tokenizer = str(files.tokenizer)
    if options.text is None:
        return options
    if tokenizer is None:
        raise EmbedvizError(f"model folder {options.model} has no tokenizer.json; give --tokenizer")
    tokens = tokenize_text(
        options.text,
        tokenizer,
        special_tokens=options.special_tokens,
        max_tokens=options.max_tokens,
    )
    limit = legible_limit
    if options.max_tokens is None and limit is not None and len(tokens.ids) > limit:
        raise EmbedvizError(
            f"the text gives {len(tokens.ids)} tokens, more than the {limit} a scene shows "
            f"legibly; shorten it or pass --max-tokens {limit} to keep the first ones"
        )
    if options.weights is not None:
        vocab = open_weights(options.weights, options.tensor).shape[0]
        too_big = [token_id for token_id in tokens.ids if token_id >= vocab]
        if too_big:
            raise EmbedvizError(
                f"the tokenizer gives ID {too_big[0]}, but the table has only {vocab} rows: "
                "the tokenizer and the model do not match"
            )
    return replace(options, ids=list(tokens.ids), pieces=tokens.pieces)


def prepared_storyboard(
    scene: str, overrides: Mapping[str, Any] | None = None, **resolve_kwargs: Any
) -> Storyboard:
    """Resolve options, prepare text and model input, build a storyboard and pin its files.

    The one entry point from user input to a storyboard: the command line,
    the renderer, the exporter and the notebook helpers all build through it.

    Parameters
    ----------
    scene
        Class name or alias.
    overrides
        Explicit options, as from command-line flags.
    **resolve_kwargs
        Passed to :func:`embedviz.config.resolve_options` (``cwd``, ``environ``).

    Returns
    -------
    Storyboard
        The scene data, with the files it was built from in ``inputs``.
    """
    spec = find_scene(scene)
    options = resolve_options(overrides, scene=spec.name, defaults=spec.defaults, **resolve_kwargs)
    prepared = prepare_options(options)
    board = spec.make(prepared)
    pinned = input_files(prepared)
    return replace(board, inputs=pinned) if pinned else board


_HASHES: dict[tuple[str, int, int], str] = {}


def file_sha256(path: str | Path) -> str:
    """Return the SHA-256 of a file's bytes as hex (cached while it is unchanged).

    Parameters
    ----------
    path
        The file.

    Returns
    -------
    str
        64 lower-case hex digits.
    """
    file = Path(path)
    stat = file.stat()
    key = (str(file.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _HASHES:
        digest = hashlib.sha256()
        with file.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        _HASHES[key] = digest.hexdigest()
    return _HASHES[key]


def required_inputs(options: SceneOptions) -> tuple[tuple[InputRole, str], ...]:
    """Derive from the options which files a storyboard is built from, with their roles.

    This is the one answer to "which inputs must a storyboard list": files
    are pinned from it when a storyboard is made, and a loaded storyboard's
    list is checked against it, so a file cannot drop or redirect an entry.

    Parameters
    ----------
    options
        Prepared options (``weights`` already resolved from ``model``).

    Returns
    -------
    tuple of (role, path)
        The weights file (``--weights``, or the model folder's tensor file),
        then the tokenizer (``--tokenizer``, or the model folder's
        ``tokenizer.json`` when it tokenised ``--text``), where used.

    Raises
    ------
    EmbedvizError
        When the model folder cannot be read.
    """
    weights, tokenizer = options.weights, options.tokenizer
    if options.model is not None:
        files = find_model_files(options.model, options.tensor)
        weights = str(files.weights)
        if tokenizer is None and options.text is not None and files.tokenizer is not None:
            tokenizer = str(files.tokenizer)
    found: list[tuple[InputRole, str]] = []
    if weights is not None:
        found.append(("weights", weights))
    if tokenizer is not None:
        found.append(("tokenizer", tokenizer))
    return tuple(found)


def input_files(options: SceneOptions) -> tuple[InputFile, ...]:
    """Pin the files a storyboard is built from by their SHA-256.

    Parameters
    ----------
    options
        Prepared options (``weights`` already resolved from ``model``).

    Returns
    -------
    tuple of InputFile
        The files of :func:`required_inputs` that exist, in its order.
    """
    return tuple(
        InputFile(role, name, file_sha256(name))
        for role, name in required_inputs(options)
        if Path(name).is_file()
    )


def _listed_problems(board: Storyboard, required: tuple[tuple[InputRole, str], ...]) -> list[str]:
    """Compare the listed inputs with the required ones, entry by entry, and with the disk."""
    problems = []
    options = board.options
    if options.model is not None and required and options.weights != required[0][1]:
        problems.append(
            f"options 'weights': the file says {options.weights!r}, the model folder "
            f"{options.model} gives {required[0][1]!r}"
        )
    listed: dict[str, InputFile | None] = {}
    for entry in board.inputs:
        if entry.role in listed:
            problems.append(f"inputs: the {entry.role} file is listed twice")
        listed[entry.role] = entry
    for role, name in required:
        pinned = listed.pop(role, None)
        if pinned is None:
            problems.append(
                f"inputs: the {role} file {name} that the options read is not listed; "
                "write the storyboard again with 'embedviz storyboard SCENE --json'"
            )
        elif pinned.path != name:
            problems.append(
                f"inputs: the {role} entry names {pinned.path}, but the options read {name}"
            )
        elif not Path(name).is_file():
            problems.append(f"{role} file {name}: no longer exists")
        elif file_sha256(name) != pinned.sha256:
            problems.append(
                f"{role} file {name}: changed since the storyboard was made "
                f"(SHA-256 was {pinned.sha256[:12]}…, now {file_sha256(name)[:12]}…)"
            )
    for extra in sorted(filter(None, listed.values()), key=lambda item: item.role):
        problems.append(
            f"inputs: the {extra.role} entry {extra.path} is not a file that the options read"
        )
    return problems


def input_problems(board: Storyboard) -> tuple[list[str], bool]:
    """Compare a storyboard's listed inputs with those its options read, and with the disk.

    Which files must be listed is derived from the options
    (:func:`required_inputs`), never taken from the file: each must be listed
    once, with its role and path, and its SHA-256 must match the file's. A
    missing, extra, redirected or re-roled entry is named, and so is a changed
    or missing file.

    Parameters
    ----------
    board
        A loaded storyboard.

    Returns
    -------
    tuple
        One line per problem (each starting with ``inputs:``, ``options`` or
        the file's role), and whether a file is missing or the inputs cannot
        be found (then nothing can be rebuilt from them).
    """
    try:
        required = required_inputs(board.options)
    except EmbedvizError as error:
        return [f"inputs: cannot find the files the recorded options read: {error}"], True
    problems = _listed_problems(board, required)
    missing = any(problem.endswith(": no longer exists") for problem in problems)
    return problems, missing


def text_problems(board: Storyboard) -> list[str]:
    """Tokenise a storyboard's recorded text again and compare the IDs and pieces.

    The story layer rebuilds every number from the recorded IDs; this checks the
    IDs themselves against the recorded ``text`` and tokenizer (or model).

    Parameters
    ----------
    board
        A loaded storyboard (each part of a composite one is checked).

    Returns
    -------
    list of str
        One line per difference; empty when the IDs are the text's.
    """
    problems: list[str] = []
    for part in board.parts or (board,):
        options = part.options
        if options.text is None:
            continue
        try:
            fresh = prepare_options(replace(options, ids=None, pieces=None), legible_limit=None)
        except EmbedvizError as error:
            problems.append(f"cannot tokenise the recorded text again: {error}")
            continue
        for name in ("ids", "pieces"):
            said, given = getattr(options, name), getattr(fresh, name)
            if list(said or ()) != list(given or ()):
                problems.append(
                    f"options {name!r}: the file says {list(said or ())}, the tokenizer gives "
                    f"{list(given or ())} for the recorded text"
                )
    return problems


def verified_problems(board: Storyboard) -> list[str]:
    """Return every way a loaded storyboard differs from what embedviz would make.

    Parameters
    ----------
    board
        A loaded storyboard.

    Returns
    -------
    list of str
        The changed or missing input files (:func:`input_problems`), then the
        problems of :func:`embedviz.story.contract.verify_storyboard` and
        those of :func:`text_problems`; empty when the file is true to the core.
    """
    problems, missing = input_problems(board)
    if missing:
        return problems
    return [*problems, *verify_storyboard(board), *text_problems(board)]
