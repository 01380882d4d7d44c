"""Where options come from: defaults, ``embedviz.toml``, ``EMBEDVIZ_*`` and flags.

Options reach a scene from, in rising priority: built-in defaults, an
``embedviz.toml`` in the working directory (top-level keys, then a table
named after the scene), ``EMBEDVIZ_*`` environment variables, and finally
command-line flags. A plain ``manim render scenes/...`` run therefore honours
the same options as the ``embedviz`` command.

This layer sits on top of the story layer: it reads the file and the
environment, and knows the scenes (a table in the file must be named after
one). What each option is, and how its value is checked, is declared in
:mod:`embedviz.story.options`.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Collection, Mapping
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from embedviz.core.errors import EmbedvizError
from embedviz.core.limits import MAX_DIGITS
from embedviz.story.options import (
    CONFIG_FILE_NAME,
    ENV_PREFIX,
    MAX_CONFIG_BYTES,
    OPTION_SPECS,
    OPTIONS,
    PATH_OPTIONS,
    SceneOptions,
    check_combination,
    convert_option,
    with_options,
    with_scene_defaults,
)
from embedviz.story.scenes import SCENES

__all__ = ["resolve_options"]


def _check_scene_tables(path: Path, data: Mapping[str, object], scenes: Collection[str]) -> None:
    """Refuse a table not named after a scene, and check every scene's table now."""
    for key, value in data.items():
        if not isinstance(value, dict):
            continue
        if key not in scenes:
            near = get_close_matches(key.lower(), [n.lower() for n in scenes], n=1)
            hint = next((f"; did you mean [{n}]?" for n in scenes if [n.lower()] == near), "")
            raise EmbedvizError(
                f"{path}: unknown table [{key}]; tables must be named after a scene "
                f"exactly{hint or ' (see embedviz scenes)'}"
            )
        # Check every scene's table now, not only when that scene renders.
        for name, item in value.items():
            convert_option(name, item, f"{path} [{key}]")


def _read_toml(path: Path) -> dict[str, Any]:
    """Parse a config file, refusing in one line what tomllib would choke on.

    Too big a file, too deep a nesting (tomllib recurses) and integers beyond
    Python's conversion limit are each refused with their own message.
    """
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError as error:
        raise EmbedvizError(f"{path}: cannot be read ({error.strerror})") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise EmbedvizError(
            f"{path}: more than {MAX_CONFIG_BYTES // 1_000_000} MB; a config file is a few lines"
        )
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise EmbedvizError(f"{path}: not valid TOML ({error})") from None
    except RecursionError:
        raise EmbedvizError(f"{path}: not valid TOML (nested too deeply)") from None
    except ValueError:  # an integer too long for Python to convert
        raise EmbedvizError(
            f"{path}: a whole number of more than {MAX_DIGITS} digits; embedviz takes at most "
            f"{MAX_DIGITS}"
        ) from None


def _from_config_file(path: Path, scene: str | None) -> dict[str, object]:
    data = _read_toml(path)
    merged: dict[str, object] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            continue  # a per-scene table, applied below
        merged[key] = value
    if scene is not None and isinstance(data.get(scene), dict):
        merged.update(data[scene])
    _check_scene_tables(path, data, SCENES)
    for name in PATH_OPTIONS:
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
        options = with_options(options, _from_config_file(config_path, scene), str(config_path))
    from_env = {spec.name: env[spec.env] for spec in OPTIONS if env.get(spec.env, "") != ""}
    for name, value in from_env.items():
        options = with_options(options, {name: value}, OPTION_SPECS[name].env)
    if overrides:
        for key, given in overrides.items():
            if given is not None:
                spec = OPTION_SPECS.get(key)
                options = with_options(options, {key: given}, spec.flag if spec else "option")
    if defaults:
        options = with_scene_defaults(options, defaults)
    check_combination(options)
    return options
