"""Scene options: the one declaration of every option, and checking their values.

:class:`SceneOptions` declares each option once; every surface (flags,
``embedviz.toml``, ``EMBEDVIZ_*`` variables, the README's table) is derived
from it. This module checks and converts values and their combinations;
where they come from (the file, the environment, the flags) is merged by
:func:`embedviz.config.resolve_options`, above the story layer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal, get_args, get_origin, get_type_hints

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import IdList, parse_ids
from embedviz.core.limits import check_whole_number, parse_whole_number
from embedviz.core.paths import require_file, require_folder

__all__ = [
    "CONFIG_FILE_NAME",
    "ENV_PREFIX",
    "MAX_CONFIG_BYTES",
    "OPTIONS",
    "OPTION_NAMES",
    "OPTION_SPECS",
    "PATH_OPTIONS",
    "OptionSpec",
    "SceneOptions",
    "check_combination",
    "convert_option",
    "options_table",
    "with_options",
    "with_scene_defaults",
]

CONFIG_FILE_NAME = "embedviz.toml"
ENV_PREFIX = "EMBEDVIZ_"
# The largest embedviz.toml read; it holds a few options.
MAX_CONFIG_BYTES = 1_000_000


Init = Literal["torch", "normal"]
Theme = Literal["dark", "light"]
SpecialTokens = Literal["keep", "drop"]
Positions = Literal["sinusoidal", "learned"]


def _option(
    default: Any,
    help: str,
    *,
    shown_default: str | None = None,
    metavar: str | None = None,
    path: bool = False,
    derived: bool = False,
) -> Any:
    """Declare one option: its default and the words every surface shows for it."""
    return field(
        default=default,
        metadata={
            "help": help,
            "shown_default": shown_default,
            "metavar": metavar,
            "path": path,
            "derived": derived,
        },
    )


@dataclass(frozen=True)
class SceneOptions:
    """What a scene is built from: the one declaration of every option.

    Each field declares an option's name, type (a ``Literal`` lists its allowed
    values), default and help. :data:`OPTIONS` is derived from it, and the
    command line, ``embedviz.toml``, the ``EMBEDVIZ_*`` variables and the
    README's options table all come from :data:`OPTIONS`.

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
        The seed for a seeded table (negative seeds wrap as in PyTorch).
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

    ids: IdList | None = _option(
        None,
        "token IDs: '2,3,5,1', or a batch '2,3;5,1' (';' separates rows; '2,3;' is one row)",
        shown_default="the scene's own (`embedviz scenes` lists them)",
        metavar="IDS",
    )
    vocab: int | None = _option(
        None, "V, the rows of a seeded table", shown_default="6", metavar="V"
    )
    dim: int | None = _option(
        None, "d, the columns of a seeded table", shown_default="3", metavar="D"
    )
    seed: int = _option(
        123,
        "the seed; all randomness comes from it. As with torch.manual_seed, any whole number "
        "from -2**63 to 2**64-1, taken modulo 2**64 (--seed=-1 is seed 2**64-1)",
        metavar="SEED",
    )
    init: Init = _option(
        "torch",
        "torch reproduces torch.manual_seed(seed); nn.Embedding(V, d).weight; "
        "normal uses numpy.random.default_rng(seed)",
    )
    weights: str | None = _option(
        None, "a .npy or .safetensors table instead of a seed", metavar="FILE", path=True
    )
    tensor: str | None = _option(
        None,
        "which tensor of a .safetensors file to use",
        shown_default="a usual embedding name, or the only 2-D tensor",
        metavar="NAME",
    )
    theme: Theme = _option("dark", "colours; both use a colour-blind-safe palette")
    text: str | None = _option(
        None, "text to tokenise into the IDs (instead of --ids)", metavar="TEXT"
    )
    tokenizer: str | None = _option(
        None, "a Hugging Face tokenizer.json file", metavar="FILE", path=True
    )
    model: str | None = _option(
        None,
        "a local model folder (tokenizer.json and *.safetensors) as the table",
        metavar="FOLDER",
        path=True,
    )
    special_tokens: SpecialTokens = _option(
        "keep", "show the tokenizer's special tokens such as [CLS] (keep) or not (drop)"
    )
    max_tokens: int | None = _option(
        None, "keep only the first N tokens of --text", shown_default="all", metavar="N"
    )
    positions: Positions = _option(
        "sinusoidal", "PositionBlindness: sinusoidal or learned position vectors"
    )
    pieces: tuple[str, ...] | None = _option(
        None, "the token strings behind the IDs (from --text)", derived=True
    )

    def __post_init__(self) -> None:
        # One canonical form, so that equal options compare equal after a round trip.
        if self.pieces is not None and not isinstance(self.pieces, tuple):
            object.__setattr__(self, "pieces", tuple(self.pieces))
        if self.ids is not None:
            ids: Any = self.ids
            canonical = [list(row) if isinstance(row, list | tuple) else row for row in ids]
            object.__setattr__(self, "ids", canonical)

    def to_dict(self) -> dict[str, Any]:
        """Return the options as JSON-ready data.

        Returns
        -------
        dict
            One entry per option.
        """
        return asdict(self)


@dataclass(frozen=True)
class OptionSpec:
    """One option as every surface shows it, derived from :class:`SceneOptions`.

    Attributes
    ----------
    name
        The field name, e.g. ``max_tokens``.
    kind
        ``int``, ``str`` or ``ids``.
    choices
        The allowed values, or ``()`` for any.
    default
        The default value.
    help
        One line of help.
    shown_default
        How the default is described to people.
    metavar
        The placeholder in ``--help``.
    path
        Whether it names a file or folder (relative to ``embedviz.toml``).
    """

    name: str
    kind: Literal["int", "str", "ids"]
    choices: tuple[str, ...]
    default: object
    help: str
    shown_default: str
    metavar: str | None
    path: bool

    @property
    def flag(self) -> str:
        """The command-line flag, e.g. ``--max-tokens``."""
        return "--" + self.name.replace("_", "-")

    @property
    def env(self) -> str:
        """The environment variable, e.g. ``EMBEDVIZ_MAX_TOKENS``."""
        return ENV_PREFIX + self.name.upper()


def _declare() -> tuple[OptionSpec, ...]:
    hints = get_type_hints(SceneOptions)
    specs = []
    for item in fields(SceneOptions):
        meta = item.metadata
        if meta.get("derived"):
            continue
        hint = hints[item.name]
        args = [arg for arg in get_args(hint) if arg is not type(None)] or [hint]
        choices: tuple[str, ...] = ()
        kind: Literal["int", "str", "ids"]
        if item.name == "ids":
            kind = "ids"
        elif get_origin(hint) is Literal:
            kind, choices = "str", tuple(get_args(hint))
        elif args[0] is int:
            kind = "int"
        else:
            kind = "str"
        shown = meta.get("shown_default")
        if shown is None:
            shown = "none" if item.default is None else str(item.default)
        specs.append(
            OptionSpec(
                name=item.name,
                kind=kind,
                choices=choices,
                default=item.default,
                help=str(meta["help"]),
                shown_default=str(shown),
                metavar=meta.get("metavar"),
                path=bool(meta.get("path")),
            )
        )
    return tuple(specs)


OPTIONS: tuple[OptionSpec, ...] = _declare()
OPTION_SPECS: dict[str, OptionSpec] = {spec.name: spec for spec in OPTIONS}
# Options a user may set; ``pieces`` is derived from ``text``.
OPTION_NAMES = tuple(OPTION_SPECS)
PATH_OPTIONS = tuple(spec.name for spec in OPTIONS if spec.path)
# Whole numbers in ASCII digits only (an optional sign; seeds may be negative).
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def options_table() -> str:
    """Return the README's options table, generated from :data:`OPTIONS`.

    Returns
    -------
    str
        A Markdown table: flag, ``embedviz.toml`` key, environment variable,
        meaning (with allowed values) and default.
    """
    lines = [
        "| Option | `embedviz.toml` key | Variable | Meaning | Default |",
        "|---|---|---|---|---|",
    ]
    for spec in OPTIONS:
        meaning = spec.help.replace("|", "\\|")
        if spec.choices:
            meaning += "; one of " + ", ".join(f"`{choice}`" for choice in spec.choices)
        lines.append(
            f"| `{spec.flag}` | `{spec.name}` | `{spec.env}` | {meaning} | {spec.shown_default} |"
        )
    return "\n".join(lines) + "\n"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def convert_option(name: str, value: object, where: str) -> object:
    """Check one raw option value and convert it to its field's type.

    Parameters
    ----------
    name
        The option, e.g. ``max_tokens``.
    value
        As given: text from a flag or variable, or a TOML value.
    where
        Where it comes from, for messages.

    Returns
    -------
    object
        The value as the field holds it (IDs as lists, whole numbers as int).

    Raises
    ------
    EmbedvizError
        For an unknown option or a wrong value, in one line.
    """
    spec = OPTION_SPECS.get(name)
    if spec is None:
        raise EmbedvizError(
            f"{where}: unknown option {name!r} (known options: {', '.join(OPTION_NAMES)})"
        )
    if spec.kind == "ids":
        if isinstance(value, str):
            try:
                return parse_ids(value)
            except EmbedvizError as error:
                raise EmbedvizError(f"{where}: 'ids': {error}") from None
        if isinstance(value, list) and value:
            if all(_is_int(v) for v in value):
                return [check_whole_number(v, f"{where}: 'ids'") for v in value]
            if all(isinstance(row, list) and row and all(map(_is_int, row)) for row in value):
                return [[check_whole_number(v, f"{where}: 'ids'") for v in row] for row in value]
        raise EmbedvizError(
            f"{where}: 'ids' must be a string like \"2,3,5,1\" or a list of whole numbers, "
            f"not {value!r}"
        )
    if spec.kind == "int":
        if isinstance(value, str):
            if not _WHOLE_NUMBER.fullmatch(value.strip(" \t")):
                shown = repr(value) if len(value) <= 60 else repr(value[:60]) + "…"
                raise EmbedvizError(
                    f"{where}: '{name}' must be a whole number in ASCII digits 0-9, not {shown}"
                )
            return parse_whole_number(value.strip(" \t"), f"{where}: '{name}'")
        if not isinstance(value, int) or isinstance(value, bool):
            raise EmbedvizError(f"{where}: '{name}' must be a whole number, not {value!r}")
        return check_whole_number(value, f"{where}: '{name}'")
    if not isinstance(value, str):
        raise EmbedvizError(f"{where}: '{name}' must be a string, not {value!r}")
    if spec.choices and value not in spec.choices:
        allowed = " or ".join(repr(choice) for choice in spec.choices)
        raise EmbedvizError(f"{where}: '{name}' must be {allowed}, not {value!r}")
    return value


def with_options(options: SceneOptions, raw: Mapping[str, object], where: str) -> SceneOptions:
    """Return the options with raw values (from a file, a variable, a flag) applied.

    Parameters
    ----------
    options
        The options so far.
    raw
        Option name -> value as given (text, or TOML values).
    where
        Where the values come from, for messages (a file, a variable, a flag).

    Returns
    -------
    SceneOptions
        The options with each value checked and converted to its field's type.

    Raises
    ------
    EmbedvizError
        For an unknown option or a value of the wrong type, in one line naming ``where``.
    """
    changes = {name: convert_option(name, value, where) for name, value in raw.items()}
    return replace(options, **changes)  # type: ignore[arg-type]


def with_scene_defaults(options: SceneOptions, defaults: Mapping[str, object]) -> SceneOptions:
    """Fill in a scene's own defaults where nothing else set the option.

    A table file sets its own sizes, so size defaults give way to it.

    Parameters
    ----------
    options
        Options from every other source.
    defaults
        The scene's own defaults (:attr:`SceneSpec.defaults`).

    Returns
    -------
    SceneOptions
        The options, with each default applied where the option is still unset.
    """
    base = SceneOptions()
    fill = {
        name: value
        for name, value in defaults.items()
        if getattr(options, name) == getattr(base, name)
    }
    if options.weights is not None or options.model is not None:
        fill = {name: value for name, value in fill.items() if name not in ("vocab", "dim")}
    return with_options(options, fill, "scene defaults")


def check_combination(options: SceneOptions) -> None:
    """Refuse options that contradict each other or name missing files.

    Parameters
    ----------
    options
        Merged options.

    Raises
    ------
    EmbedvizError
        In one line, naming the options that clash or the missing file.
    """
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
