"""A trick rule of the ``tricks`` step: cards played blind (``blind``).

While ``blind`` holds for the player to play (a per-player condition read at each of his
turns) he has no decision: the engine plays for him a card drawn at random among his
legal cards (``engine/blind.py``).  This module gives the tricks home its key, grammar,
reading, writing, prose and check.

>>> [f.name for f in FIELDS]
['blind']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import Field
from ..dsl_nodes import cond_at, is_node

if TYPE_CHECKING:
    from ..compile_checks import Typer
    from ..dsl_build import _Builder

__all__ = ["FIELDS", "GRAMMAR", "READERS", "compile_check", "describe", "write"]

Path = tuple[Any, ...]

FIELDS: tuple[Field, ...] = (
    Field("blind", "formula", "per-player condition, read at each of his turns: he plays "
          "blind (no decision: a card drawn at random among his legal cards is played for "
          "him)", default="false", omitted=True),
)

GRAMMAR = r"""
// cards played blind (tricks.blind)
blind: "a" "player" "plays" "blind" cond? _NL
"""


def _read(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
          verbs: list[Any]) -> None:
    conds = [x for x in c.children if is_node(x, "cond")]
    value = b.formula(conds[0].children[0]) if conds else "true"
    b.put(tricks, (*tp, "blind"), value, cond_at(c.children, c), "the rule on blind play")


#: The reader of its line, by grammar rule (the tricks home's reader calls it).
READERS: dict[str, Callable[..., None]] = {"blind": _read}


def write(out: t.Out, ind: int, tr: Mapping[str, Any]) -> None:
    """Its line, when a player may play blind."""
    blind = t.formula(tr.get("blind", "false"))
    if blind != "false":
        out.add(ind, "a player plays blind" + ("" if blind == "true" else f" if {blind}"))


def describe(tr: Mapping[str, Any]) -> list[str]:
    """Its sentence (none when nobody plays blind)."""
    blind = tr.get("blind", "false")
    if blind in ("false", False):
        return []
    who = "A player" if blind in ("true", True) else f"A player where {p.formula(blind)}"
    return [f"{who} plays blind: he has no choice, a card drawn at random among the cards "
            "he may play is played for him."]


def compile_check(c: Typer, tr: Mapping[str, Any], path: Path) -> None:
    """``blind`` is a per-player condition, in a trick play of single cards each played
    by its own player."""
    blind = tr.get("blind", "false")
    if blind in ("false", False):
        return
    c.formula(blind, (*path, "blind"), True)
    clash = ("dummy" if tr.get("dummy", "false") not in (False, "false") else
             "combos" if tr.get("combos") else
             "announce" if any(isinstance(a, Mapping) and a.get("any_turn") in (True, "true")
                               for a in tr.get("announce") or []) else None)
    if clash is not None:
        c.error((*path, "blind"), f"'blind' cannot be combined with '{clash}' in one "
                "tricks step", f"drop 'blind' or '{clash}'"
                + (" (any_turn)" if clash == "announce" else ""))
