"""What a layout may show: its number kinds, beat actions, label roles and words.

Each layout declares its vocabulary in its own small module under
:mod:`embedviz.story.layouts` (``LAYOUT = LayoutSpec(...)``), built from the
shared pieces here that every grid layout uses. The storyboard model checks a
storyboard against its layout's declaration, without knowing any layout
itself. Stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from embedviz.story.words import MAX_WORD_CHARS

__all__ = [
    "GRID_KINDS",
    "GRID_ROLES",
    "GRID_WORDS",
    "SEQUENCE_KINDS",
    "LayoutSpec",
    "layout",
]

# Number kinds every grid layout may show: the matrix, its labels and legend.
GRID_KINDS = ("col_label", "legend", "row_label", "table_size", "weight")
# Number kinds of a layout with input chips and an output block.
SEQUENCE_KINDS = ("output", "output_size", "position", "token_id")
# Label roles every grid layout may use: the labels of hidden ranges, the
# note on a half-precision file, and the token strings above chips.
GRID_ROLES = (r"row_gap_\d+", r"col_gap_\d+", "dtype_note", r"piece_\d+")
# Words every grid layout draws: the matrix's title and the colour legend.
GRID_WORDS = {"embedding_matrix": "embedding matrix E", "value_colour": "value colour"}
_NAME = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class LayoutSpec:
    """What one layout may show: its number kinds, beat actions, label roles and words.

    Attributes
    ----------
    name
        The layout's name, as a storyboard's ``layout`` field gives it
        (``lookup``, ``batch``, ...); its stage in :mod:`embedviz.render`
        draws it.
    kinds
        The number kinds its cells may have.
    actions
        The beat actions its stage animates.
    roles
        Regular expressions, one of which every label role must match.
    words
        The UI words its stage draws, role -> English text (see
        :mod:`embedviz.story.words`); a storyboard of this layout has
        exactly these roles in :attr:`~embedviz.story.model.Storyboard.words`.
    """

    name: str
    kinds: frozenset[str]
    actions: frozenset[str]
    roles: tuple[str, ...] = ()
    words: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for what, names in (
            ("layout", (self.name,)),
            ("kind", self.kinds),
            ("action", self.actions),
            ("word", self.words),
        ):
            bad = sorted(name for name in names if not _NAME.fullmatch(name))
            if bad:
                raise ValueError(
                    f"layout {self.name!r}: {what} {bad[0]!r} is not a lower-case name"
                )
        for role, text in self.words.items():
            if not 0 < len(text) <= MAX_WORD_CHARS:
                raise ValueError(f"layout {self.name!r}: word {role!r} is empty or too long")

    def role_allowed(self, role: str) -> bool:
        """Return whether a label role is one this layout declares."""
        return any(re.fullmatch(pattern, role) for pattern in self.roles)


def layout(
    name: str,
    kinds: Sequence[str],
    actions: Sequence[str],
    roles: Sequence[str] = (),
    words: Mapping[str, str] | None = None,
) -> LayoutSpec:
    """Declare a layout (a shorthand for :class:`LayoutSpec` from plain sequences).

    Parameters
    ----------
    name
        The layout's name.
    kinds, actions, roles
        Its number kinds, beat actions and label role patterns.
    words
        Its words, role -> English text.

    Returns
    -------
    LayoutSpec
        The declaration.
    """
    return LayoutSpec(name, frozenset(kinds), frozenset(actions), tuple(roles), dict(words or {}))
