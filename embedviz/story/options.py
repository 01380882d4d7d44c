"""Scene options and where they come from.

Options reach a scene from, in rising priority: built-in defaults, an
``embedviz.toml`` in the working directory (top-level keys, then a table
named after the scene), ``EMBEDVIZ_*`` environment variables, and finally
command-line flags. A plain ``manim render scenes/...`` run therefore honours
the same options as the ``embedviz`` command.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import IdList, parse_ids
from embedviz.core.paths import require_file, require_folder

__all__ = [
    "CONFIG_FILE_NAME",
    "ENV_PREFIX",
    "OPTION_NAMES",
    "SceneOptions",
    "resolve_options",
]

CONFIG_FILE_NAME = "embedviz.toml"
ENV_PREFIX = "EMBEDVIZ_"


@dataclass(frozen=True)
class SceneOptions:
    """What a scene is built from.

    Attributes
    ----------
    ids
        Token IDs (a list, or a list of rows for a batch); ``None`` means
        the scene's own default.
    vocab
        ``V`` for a seeded table; ``None`` means 6, or the file's rows.
    dim
        ``d`` for a seeded table; ``None`` means 3, or the file's columns.
    seed
        The seed for a seeded table.
    init
        ``torch`` (PyTorch-compatible) or ``normal`` (numpy).
    weights
        A ``.npy`` or ``.safetensors`` file to use instead of a seed.
    tensor
        The tensor to read from a ``.safetensors`` file.
    theme
        ``dark`` (default) or ``light``.
    text
        Text to tokenise into the IDs (needs ``tokenizer`` or ``model``).
    tokenizer
        A Hugging Face ``tokenizer.json`` file.
    model
        A local model folder with ``tokenizer.json`` and ``*.safetensors``;
        its token-embedding tensor becomes the table.
    special_tokens
        ``keep`` (default: e.g. ``[CLS]`` and ``[SEP]`` are shown) or ``drop``.
    max_tokens
        Keep only the first this-many tokens of ``text``.
    positions
        The position vectors of PositionBlindness: ``sinusoidal`` (default)
        or ``learned`` (a seeded table, like ``nn.Embedding(context, d)``).
    pieces
        The token strings behind the IDs, filled in from ``text``; never set
        directly.
    """

    ids: IdList | None = None
    vocab: int | None = None
    dim: int | None = None
    seed: int = 123
    init: str = "torch"
    weights: str | None = None
    tensor: str | None = None
    theme: str = "dark"
    text: str | None = None
    tokenizer: str | None = None
    model: str | None = None
    special_tokens: str = "keep"
    max_tokens: int | None = None
    positions: str = "sinusoidal"
    pieces: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the options as JSON-ready data.

        Returns
        -------
        dict
            One entry per option.
        """
        return asdict(self)


# Options a user may set; ``pieces`` is derived from ``text``.
OPTION_NAMES = tuple(name for name in SceneOptions.__dataclass_fields__ if name != "pieces")
_INT_OPTIONS = ("vocab", "dim", "seed", "max_tokens")
_STR_OPTIONS = (
    "init",
    "weights",
    "tensor",
    "theme",
    "text",
    "tokenizer",
    "model",
    "special_tokens",
    "positions",
)
_PATH_OPTIONS = ("weights", "tokenizer", "model")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _convert(name: str, value: object, where: str) -> object:
    """Check one raw option value and convert it to its field's type."""
    if name == "ids":
        if isinstance(value, str):
            try:
                return parse_ids(value)
            except EmbedvizError as error:
                raise EmbedvizError(f"{where}: 'ids': {error}") from None
        if isinstance(value, list) and value:
            if all(_is_int(v) for v in value):
                return list(value)
            if all(isinstance(row, list) and row and all(map(_is_int, row)) for row in value):
                return [list(row) for row in value]
        raise EmbedvizError(
            f"{where}: 'ids' must be a string like \"2,3,5,1\" or a list of whole numbers, "
            f"not {value!r}"
        )
    if name in _INT_OPTIONS:
        if isinstance(value, str):
            try:
                return int(value.strip(), 10)
            except ValueError:
                raise EmbedvizError(
                    f"{where}: '{name}' must be a whole number, not {value!r}"
                ) from None
        if isinstance(value, bool) or not isinstance(value, int):
            raise EmbedvizError(f"{where}: '{name}' must be a whole number, not {value!r}")
        return value
    if name in _STR_OPTIONS:
        if not isinstance(value, str):
            raise EmbedvizError(f"{where}: '{name}' must be a string, not {value!r}")
        if name == "init" and value not in ("torch", "normal"):
            raise EmbedvizError(f"{where}: 'init' must be 'torch' or 'normal', not {value!r}")
        if name == "theme" and value not in ("dark", "light"):
            raise EmbedvizError(f"{where}: 'theme' must be 'dark' or 'light', not {value!r}")
        if name == "positions" and value not in ("sinusoidal", "learned"):
            raise EmbedvizError(
                f"{where}: 'positions' must be 'sinusoidal' or 'learned', not {value!r}"
            )
        if name == "special_tokens" and value not in ("keep", "drop"):
            raise EmbedvizError(
                f"{where}: 'special_tokens' must be 'keep' or 'drop', not {value!r}"
            )
        return value
    raise EmbedvizError(
        f"{where}: unknown option {name!r} (known options: {', '.join(OPTION_NAMES)})"
    )


def _apply(options: SceneOptions, raw: Mapping[str, object], where: str) -> SceneOptions:
    changes = {name: _convert(name, value, where) for name, value in raw.items()}
    return replace(options, **changes)  # type: ignore[arg-type]


def _from_config_file(path: Path, scene: str | None) -> dict[str, object]:
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise EmbedvizError(f"{path}: not valid TOML ({error})") from None
    except OSError as error:
        raise EmbedvizError(f"{path}: cannot be read ({error.strerror})") from None
    merged: dict[str, object] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            continue  # a per-scene table, applied below
        merged[key] = value
    if scene is not None and isinstance(data.get(scene), dict):
        merged.update(data[scene])
    for key, value in data.items():
        if isinstance(value, dict):
            if not key[:1].isupper():
                raise EmbedvizError(
                    f"{path}: unknown table [{key}]; tables must be named after a scene"
                )
            # Check every scene's table now, not only when that scene renders.
            for name, item in value.items():
                _convert(name, item, f"{path} [{key}]")
    for name in _PATH_OPTIONS:
        if isinstance(merged.get(name), str):
            # A relative path in the file is relative to the file, not the shell.
            given = Path(str(merged[name]))
            merged[name] = str(given if given.is_absolute() else path.parent / given)
    return merged


def resolve_options(
    overrides: Mapping[str, object] | None = None,
    *,
    scene: str | None = None,
    cwd: str | Path | None = None,
    environ: Mapping[str, str] | None = None,
    defaults: Mapping[str, object] | None = None,
) -> SceneOptions:
    """Merge defaults, ``embedviz.toml``, environment and explicit options.

    Parameters
    ----------
    overrides
        Options given explicitly (command-line flags); ``None`` values are
        ignored.
    scene
        The scene being built, which selects a ``[SceneName]`` table in the
        config file.
    cwd
        Where to look for ``embedviz.toml``; the working directory by
        default. ``EMBEDVIZ_CONFIG`` names another file.
    environ
        The environment; ``os.environ`` by default.
    defaults
        The scene's own defaults: they fill options that nothing else set
        (sizes give way to a table file).

    Returns
    -------
    SceneOptions
        The merged, type-checked options.

    Raises
    ------
    EmbedvizError
        For an unknown key, a wrong type, unreadable TOML, or a weights file
        that does not exist.
    """
    env = os.environ if environ is None else environ
    options = SceneOptions()
    config_path = (
        Path(env[f"{ENV_PREFIX}CONFIG"])
        if env.get(f"{ENV_PREFIX}CONFIG")
        else Path(cwd or os.getcwd()) / CONFIG_FILE_NAME
    )
    if env.get(f"{ENV_PREFIX}CONFIG") and not config_path.is_file():
        raise EmbedvizError(f"{ENV_PREFIX}CONFIG names {config_path}, which does not exist")
    if config_path.is_file():
        options = _apply(options, _from_config_file(config_path, scene), str(config_path))
    from_env = {
        name: env[ENV_PREFIX + name.upper()]
        for name in OPTION_NAMES
        if env.get(ENV_PREFIX + name.upper(), "") != ""
    }
    for name, value in from_env.items():
        options = _apply(options, {name: value}, f"{ENV_PREFIX}{name.upper()}")
    if overrides:
        explicit = {name: value for name, value in overrides.items() if value is not None}
        options = _apply(options, explicit, "option")
    if defaults:
        options = _apply_scene_defaults(options, defaults)
    _check_combination(options)
    return options


def _apply_scene_defaults(options: SceneOptions, defaults: Mapping[str, object]) -> SceneOptions:
    """Fill in a scene's own defaults where nothing else set the option.

    A table file sets its own sizes, so size defaults give way to it.
    """
    base = SceneOptions()
    fill = {
        name: value
        for name, value in defaults.items()
        if getattr(options, name) == getattr(base, name)
    }
    if options.weights is not None or options.model is not None:
        fill = {name: value for name, value in fill.items() if name not in ("vocab", "dim")}
    return _apply(options, fill, "scene defaults")


def _check_combination(options: SceneOptions) -> None:
    """Refuse options that contradict each other or name missing files."""
    if options.weights is not None and options.model is not None:
        raise EmbedvizError("--weights and --model both choose the table; give only one")
    if options.text is not None and options.ids is not None:
        raise EmbedvizError("--text and --ids both choose the token IDs; give only one")
    if options.weights is not None:
        require_file(options.weights, "weights file")
    if options.model is not None:
        require_folder(options.model, "model folder")
    if options.tokenizer is not None:
        require_file(options.tokenizer, "tokenizer file")
    if options.tensor is not None and options.weights is None and options.model is None:
        raise EmbedvizError("'tensor' chooses a tensor inside --weights or --model; give one")
    if options.text is not None and options.tokenizer is None and options.model is None:
        raise EmbedvizError("--text needs --tokenizer FILE or --model FOLDER to tokenise it")
    if options.max_tokens is not None and options.max_tokens < 1:
        raise EmbedvizError(f"'max_tokens' must be at least 1, not {options.max_tokens}")
    if options.max_tokens is not None and options.text is None:
        raise EmbedvizError("'max_tokens' limits --text; give --text too")
