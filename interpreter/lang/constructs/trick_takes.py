"""A trick rule of the ``tricks`` step: a card that takes the trick outright
(``takes_trick``), whatever else is played to it.

Its condition is read for each card of a complete trick, in play order, for the seat
that played it (``card``, ``card_rank``..., his ``hand``, his side's ``tricks``); the
first card that meets it takes the trick, in place of the card that beats the others.
A card that never wins otherwise (a free or kept card) may so win a trick on a
condition: "played to the last trick by a side that has won every trick, it takes
that trick".  The trick code applies it
(:meth:`spelbok.engine.trick_play.TrickPlay._finish`); this module gives the tricks
home its key, grammar, reading, writing, prose and checks.

>>> [f.name for f in FIELDS]
['takes_trick']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import Field

if TYPE_CHECKING:
    from ..compile_checks import Typer
    from ..dsl_build import _Builder

__all__ = ["FIELDS", "GRAMMAR", "READERS", "compile_check", "describe", "write"]

Path = tuple[Any, ...]

FIELDS: tuple[Field, ...] = (
    Field("takes_trick", "formula", "per-player condition on a card played (`card`...), "
          "read for each card of a complete trick in play order: the first card meeting "
          "it takes the trick, whatever else is played", default="false", omitted=True,
          schema_doc="A per-player condition on a card played (`card`, `card_rank`..., "
                     "read for its player: his `hand`, his side's `tricks`), read for "
                     "each card of a complete trick in play order: the first card that "
                     "meets it takes the trick, whatever else is played (false: none "
                     "does). E.g. `card == 'EX' and count(hand) == 0` (a card that "
                     "never wins takes the last trick)."),
)

GRAMMAR = r"""
// a card that takes the trick outright (tricks.takes_trick)
takes_trick: "a" "card" "takes" "the" "trick" "if" formula _NL
"""


def _read(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
          verbs: list[Any]) -> None:
    f = c.children[0]
    b.put(tricks, (*tp, "takes_trick"), b.formula(f), f, "the card that takes the trick")


#: The reader of its line, by grammar rule (the tricks home's reader calls it).
READERS: dict[str, Callable[..., None]] = {"takes_trick": _read}


def write(out: t.Out, ind: int, tr: Mapping[str, Any]) -> None:
    """Its line, when the step has one."""
    if tr.get("takes_trick", "false") not in (False, "false"):
        out.add(ind, f"a card takes the trick if {t.formula(tr['takes_trick'])}")


def describe(tr: Mapping[str, Any]) -> list[str]:
    """Its sentence (none without it)."""
    takes = tr.get("takes_trick", "false")
    if takes in (False, "false"):
        return []
    return [f"A card played where {p.formula(takes)} (read for its player once the trick "
            "is complete, the cards in play order) takes the trick, whatever else is "
            "played: the first such card."]


def compile_check(c: Typer, tr: Mapping[str, Any], path: Path) -> None:
    """A condition, read for each card's player."""
    takes = tr.get("takes_trick", "false")
    if takes not in (False, "false"):
        c.condition(takes, (*path, "takes_trick"), True)
