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

from embedviz.story.words import max_chars, placeholders

__all__ = [
    "CHAPTER_PREFIX",
    "GAP_WORDS",
    "GRID_KINDS",
    "GRID_ROLES",
    "GRID_WORDS",
    "PAGE_WORDS",
    "SEQUENCE_KINDS",
    "SIZE_PAGE_WORDS",
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
# Words every layout with a window on the matrix uses: the labels of hidden
# ranges (templates, filled with the range) and the note on a half-precision file.
GAP_WORDS = {
    "gap_row": "row {first} hidden",
    "gap_rows": "rows {first}\u2013{last} hidden",
    "gap_column": "column {first} hidden",
    "gap_columns": "columns {first}\u2013{last} hidden",
    "dtype_note": "{dtype} values shown as float32",
}
# Words every grid layout draws: the matrix's title, the colour legend, the gaps.
GRID_WORDS = {
    "embedding_matrix": "embedding matrix E",
    "value_colour": "value colour",
    **GAP_WORDS,
}
# Words of the course page every clip has (transcript, table of numbers,
# snippet, gallery); see :mod:`embedviz.export.documents`.
PAGE_WORDS = {
    "page_narration": "Narration",
    "page_transcript": "Transcript: {title}",
    "page_back": "Back to the clip",
    "page_watch": "Watch the clip: {title}",
    "page_all_clips": "All clips",
    "page_numbers": "The numbers shown",
    "page_chapters": "Chapters",
    "page_chapters_of": "Chapters of {title}",
    "page_read_transcript": "Read the transcript of {title}, with the numbers shown",
    "page_looked_up": "{title}: the looked-up rows, in input order",
    "page_matrix_rows": "{title}: the rows of the embedding matrix shown",
    "page_matrix_view": (
        "{title}: the rows of the embedding matrix shown (view {number} of {count})"
    ),
    "page_position": "Position",
    "page_row": "Row",
    "page_dimension": "dimension {index}",
    "page_at_position": "position {position}",
    "page_id_at_position": "position {position} (ID {id})",
    "page_piece_at_position": "position {position} (ID {id}: {piece})",
    "page_row_number": "row {row}",
    # The audio descriptions: on the transcript, in the snippet, and the links to
    # the step-through page and the audio-described version.
    "page_shown": "Shown:",
    "page_descriptions_track": "Descriptions ({language})",
    "page_steps_link": "Step through {title}, beat by beat, with its tables",
    "page_described_link": "Audio-described version: {title}",
    "page_step_through": "Step through the clip, beat by beat",
    # The step-through page (embedviz.export.steps).
    "page_steps_title": "Step through: {title}",
    "page_skip_steps": "Skip to the steps",
    "page_other_pages": "Other pages",
    "page_clip_on_gallery": "The clip on the gallery",
    "page_the_transcript": "The transcript",
    "page_steps_intro": (
        "One step per beat: what it says, what it shows, and its numbers as tables."
    ),
    "page_steps_keys": (
        "Move with the buttons or the left and right arrow keys; each step links to its "
        "moment in the clip."
    ),
    "page_previous_step": "Previous step",
    "page_next_step": "Next step",
    "page_step_of": "Step {number} of {total}: {name}",
    "page_watch_step": "Watch step {number} in the clip, from {time}",
    "page_token_ids": "{title}: the token IDs",
    "page_input": "Input",
    "page_id": "ID",
    "page_word_piece": "word piece",
    "page_output_now": "{title}: the output after this step, {filled} of {total} rows filled",
    "page_output_after": "{title}: the output after this step",
    "page_matrix_now": "{title}: the rows of the embedding matrix E at this step",
    "page_row_marked": "row {row} ({marks})",
    "page_mark_looked_up": "looked up",
    "page_mark_faded": "faded",
    "page_mark_updated": "updated",
    "page_terms_of": "{title}: the terms of entry {column} of the product",
    "page_one_hot_entry": "one-hot entry",
    "page_printed": "{title}: the tensor PyTorch prints",
    "page_gradient": "{title}: the gradient \u2202L/\u2202E",
    "page_loss_weights": "{title}: the loss weights w_t",
    "page_added_weights": "{title}: the weights added into one gradient row",
    "page_their_sum": "{title}: their sum, a row of the gradient",
    "page_positions": "{title}: the position vectors P",
    "page_learned_positions": "{title}: the learned position vectors P",
    "page_sums": "{title}: the sums E[id] + P[pos]",
    "page_wrong_vector": "{title}: the wrong vector the slip fetches",
    "page_one_hot": "{title}: the one-hot vector",
    "page_product": "{title}: the product one_hot @ E",
    "page_loss": "{title}: the loss",
    "page_values": "values",
    "page_entries": "entries",
    "page_entry": "entry {index}",
    "page_before_step": "before the step",
    "page_after_step": "after the step",
    # The audio-described version's page (embedviz.export.described).
    "page_without_description": "The clip without audio description",
    "page_described_intro": (
        "After each step the picture holds while what it shows is described: its values, "
        "code and charts."
    ),
    "page_length": "Length: {minutes} min {seconds} s",
}
# Words of the page's table of a table's size (ParameterCount, LargeVocabLookup).
SIZE_PAGE_WORDS = {
    "page_size": "{title}: the size of the embedding matrix E",
    "page_quantity": "Quantity",
    "page_value": "Value",
    "page_rows_v": "rows, V (one per vocabulary entry)",
    "page_columns_d": "columns, d (one per dimension)",
    "page_parameters_vd": "parameters, V \u00d7 d",
}
# Word roles that name a chapter: ``chapter_<action>`` names each beat of that action.
CHAPTER_PREFIX = "chapter_"
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
        The words its clip shows, role -> English text (see
        :mod:`embedviz.story.words`): on screen, in its chapters (one
        ``chapter_<action>`` per action, unless it has none) and on its
        course page (``page_...``). A storyboard of this layout has exactly
        these roles in :attr:`~embedviz.story.model.Storyboard.words`.
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
            if not 0 < len(text) <= max_chars(role):
                raise ValueError(f"layout {self.name!r}: word {role!r} is empty or too long")
            placeholders(text)  # a malformed English template is a bug here
        chapters = {role for role in self.words if role.startswith(CHAPTER_PREFIX)}
        named = {CHAPTER_PREFIX + action for action in self.actions}
        if chapters and chapters != named:
            raise ValueError(f"layout {self.name!r}: chapters {sorted(chapters ^ named)} differ")

    def role_allowed(self, role: str) -> bool:
        """Return whether a label role is one this layout declares."""
        return any(re.fullmatch(pattern, role) for pattern in self.roles)


def layout(
    name: str,
    kinds: Sequence[str],
    actions: Sequence[str],
    roles: Sequence[str] = (),
    words: Mapping[str, str] | None = None,
    *,
    page: bool = True,
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
    page
        Whether its clip has a course page: then it has the
        :data:`PAGE_WORDS` too.

    Returns
    -------
    LayoutSpec
        The declaration.
    """
    every = {**(PAGE_WORDS if page else {}), **(words or {})}
    return LayoutSpec(name, frozenset(kinds), frozenset(actions), tuple(roles), every)
