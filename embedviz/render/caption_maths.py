"""Which runs of a burned-in caption are maths: a small, conservative tokenizer.

The narration is plain text (it is spoken, and written to WebVTT and the
transcripts as it is). The burned-in caption sets its symbols in the one
maths voice (:func:`embedviz.render.design.maths`), so it must find them:

- a symbol letter standing alone (``E``, ``L``, ``V``, ``d``, ``B``, ``T``,
  ``P``, and the indices ``b``, ``t``, ``k``, ``i``), never a letter inside a
  word, after an apostrophe (``L'ID``) or beside a hyphen (``2-D``);
- an indexed name (``E[3]``, ``E[k, 0]``, ``ids[b, t]``, ``out[b, t]``,
  ``E[ids[b, t]]``), a call of a known function (``one_hot(3)``), a letter with
  Unicode subscripts (``wₜ``, ``w₀``), a derivative (``∂L/∂E``);
- a whole formula: such operands and numbers joined by an operator set off by
  spaces (``E ← E − 0.5 · ∂L/∂E``, ``V × d = 50,257 × 768``, ``0 × E[k, 0]``),
  as long as one operand is not a plain number (``6 × 3`` stays words).

Words (``ID``, ``PyTorch``, ``a``, ``A``, ``I``) and code (``grad_fn=<...>``,
which has no space round its ``=``) are never caught. Each run is cut into
:class:`MathsPiece` s, one per colour: the colour of the object a symbol names
where the theme has one (:data:`embedviz.render.design.COLOUR_MEANINGS`: the
gradient for ``∂L/∂E`` and the weights ``wₜ``, the accent for the position
table ``P``, the output's colour for ``out[b, t]``, amber text for ``ids``),
else the caption's text colour.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["MathsPiece", "maths_pieces", "typst_source"]

# Letters that are symbols when they stand alone (``a``, ``A`` and ``I`` are words).
SYMBOLS = "BEdLPTVbikt"
# Functions whose calls are maths (``one_hot(3)``); other ``name(...)`` stay words.
FUNCTIONS = ("one_hot",)
# Operators that join operands into one formula, and how Typst writes them.
OPERATORS = {"×": "times", "=": "=", "←": "<-", "→": "->", "−": "-", "+": "+", "·": "dot"}
# The theme colour (a :class:`~embedviz.render.design.Theme` field) an indexed or
# subscripted name's object has; any other name is in the caption's text colour.
NAMED = {"P": "accent", "output": "output", "out": "output", "ids": "id_ink", "w": "gradient"}

_SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜ"
_INDEX = r"\[(?:[\w ,]|\[[\w ,]*\])*\]"  # E[3], E[k, 0], E[ids[b, t]]: one level of nesting
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_OPERAND = re.compile(
    r"(?<![\w'’\-./\[(])(?:"
    r"(?P<grad>∂[A-Za-z]/∂[A-Za-z](?:" + _INDEX + r")?)"
    r"|(?P<call>(?:" + "|".join(FUNCTIONS) + r")\([\w ,]*\))"
    r"|(?P<indexed>(?P<head>[A-Za-z][A-Za-z_]*)" + _INDEX + r")"
    r"|(?P<sub>(?P<base>[A-Za-z])[" + _SUBSCRIPTS + r"]+)"
    r"|(?P<symbol>[" + SYMBOLS + r"])"
    r"|(?P<number>" + _NUMBER + r")"
    r")(?![\w'’\-(\[]|\.\w)"
)
_TYPST = {"∂": "partial ", "/": " \\/ ", "\n": " "}
_JOIN = re.compile(r"\s+(?:" + "|".join(map(re.escape, OPERATORS)) + r")\s+")


@dataclass(frozen=True)
class MathsPiece:
    """A stretch of a caption set as maths, in one colour.

    Attributes
    ----------
    start, end
        Where it is in the text (``text[start:end]``).
    text
        The characters, as the narration writes them.
    role
        The :class:`~embedviz.render.design.Theme` field that colours it.
    run
        The whole formula it is part of (a formula of several colours is
        several pieces), as written.
    """

    start: int
    end: int
    text: str
    role: str
    run: str


def _role(match: re.Match[str]) -> str:
    if match["grad"]:
        return "gradient"
    name = match["head"] or match["base"] or match["symbol"] or ""
    return NAMED.get(name, "text")


def maths_pieces(text: str) -> list[MathsPiece]:
    """Return the maths in ``text``, in reading order, cut where the colour changes.

    A formula may run over a line break (a newline): its pieces keep to the
    text's characters, so a caller cutting lines cuts them where the lines are.

    Parameters
    ----------
    text
        A caption's text (lines may be joined by newlines).

    Returns
    -------
    list of MathsPiece
        Non-overlapping, in order.
    """
    operands = list(_OPERAND.finditer(text))
    chains: list[list[re.Match[str]]] = []
    for operand in operands:
        joined = chains and _JOIN.fullmatch(text, chains[-1][-1].end(), operand.start())
        if joined:
            chains[-1].append(operand)
        else:
            chains.append([operand])
    pieces: list[MathsPiece] = []
    for chain in chains:
        if all(m["number"] for m in chain):
            continue  # "6 × 3", "0.5": numbers are words' business
        run = text[chain[0].start() : chain[-1].end()]
        # Each operand colours itself and the operator after it; a number takes
        # the colour before it (the text colour at the start).
        roles: list[str] = []
        for m in chain:
            roles.append(roles[-1] if m["number"] and roles else _role(m))
        start = chain[0].start()
        for index, (m, role) in enumerate(zip(chain, roles, strict=True)):
            last = index + 1 == len(chain)
            if not last and roles[index + 1] == role:
                continue
            end = m.end() if last else chain[index + 1].start()
            piece = text[start:end].rstrip()
            pieces.append(MathsPiece(start, start + len(piece), piece, role, run))
            start = end
    return pieces


def typst_source(text: str) -> str:
    r"""Write a piece of narration maths in Typst's maths syntax.

    ``∂L/∂E`` becomes ``partial L \/ partial E``, ``wₜ`` ``w_t``, ``one_hot(3)``
    ``"one_hot"(3)``, ``50,257`` ``50","257`` (a comma inside a number is not
    a separator), ``×`` ``times``.

    Parameters
    ----------
    text
        A :class:`MathsPiece`'s text.

    Returns
    -------
    str
        Typst maths.
    """
    out: list[str] = []
    for token in re.finditer(
        r"(?P<number>" + _NUMBER + r")|(?P<name>[A-Za-z][A-Za-z_]+)"
        r"|(?P<sub>[" + _SUBSCRIPTS + r"]+)|(?P<char>.)",
        text,
        re.DOTALL,
    ):
        if token["number"]:
            out.append(token["number"].replace(",", '","'))
        elif token["name"]:
            out.append(f'"{token["name"]}"')
        elif token["sub"]:
            base = "".join(_subscript_base(c) for c in token["sub"])
            out.append(f"_{base}" if len(base) == 1 else f"_({base})")
        else:
            char = token["char"]
            out.append(_TYPST.get(char, OPERATORS.get(char, char)))
    return "".join(out).strip()


def _subscript_base(char: str) -> str:
    """Return the character a Unicode subscript stands for (``ₜ`` → ``t``)."""
    return chr(int(unicodedata.decomposition(char).split()[1], 16))
