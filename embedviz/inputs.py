"""Turning user input into scene options: text into IDs, a model folder into a table.

This layer sits beside the command line and the renderer, above the scene
data: it may use the Hugging Face ``tokenizers`` package, which
``embedviz.core`` and ``embedviz.story`` never import. Everything it produces
is plain options (IDs, token strings, a weights file and tensor name).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from embedviz.core.errors import EmbedvizError
from embedviz.core.model_dir import find_model_files
from embedviz.core.paths import require_file
from embedviz.core.weights import open_weights
from embedviz.story.model import Storyboard
from embedviz.story.options import SceneOptions, resolve_options
from embedviz.story.scenes import MAX_SEQUENCE_TOKENS, find_scene

__all__ = ["Tokenized", "prepare_options", "prepared_storyboard", "tokenize_text"]


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
        Options from :func:`embedviz.story.options.resolve_options`.
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
    """Resolve options, prepare text and model input, and build a storyboard.

    Parameters
    ----------
    scene
        Class name or alias.
    overrides
        Explicit options, as from command-line flags.
    **resolve_kwargs
        Passed to :func:`embedviz.story.options.resolve_options`.

    Returns
    -------
    Storyboard
        The scene data.
    """
    spec = find_scene(scene)
    options = resolve_options(overrides, scene=spec.name, defaults=spec.defaults, **resolve_kwargs)
    return spec.make(prepare_options(options))
