"""A trick-rule family of the ``tricks`` step: a concealed card and a trump named during
a trick (``aside_turn``, ``new_trump``).

``aside_turn`` keeps a player whose hand is empty in the tricks while he has cards
laid aside face down (his ``discarded``): at his turn he can only make an announcement
(one that takes them back into his hand, a ``move`` from ``laid_aside``).  ``new_trump``
says how a trump named while a trick is in progress (an assignment to ``trump``, as an
announcement's steps make when a concealed trump is called for) treats the cards
already played to it: ``later``, they count as cards of no trump (a card of the new
trump suit among them wins only as a card of the suit led); ``whole_trick``, the whole
trick counts under the new trump.  The trick code plays them (``CardPlay``,
``engine.trick.renamed_trump``); this module gives the tricks home their keys, grammar,
reading, writing, prose and checks.

>>> [f.name for f in FIELDS]
['aside_turn', 'new_trump']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from ..declare import Field, words_of
from ..dsl_nodes import cond_at

if TYPE_CHECKING:
    from ..compile_checks import Typer
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["FIELDS", "GRAMMAR", "READERS", "compile_check", "describe", "write"]

Path = tuple[Any, ...]

FIELDS: tuple[Field, ...] = (
    Field("aside_turn", "condition", "a player whose hand is empty keeps his turn in the "
          "tricks while he has cards laid aside (`discarded`): at it he may only announce "
          "(an announcement that takes them back)", default="false", omitted=True),
    Field("new_trump", "word", "how a trump named during a trick treats the cards already "
          "played to it", default="later", omitted=True,
          words=words_of(("later", "they count as cards of no trump: only cards played "
                                   "after it are trumps"),
                         ("whole_trick", "the whole trick counts under the new trump"))),
)
_NEW: tuple[str, ...] = tuple(w.name for w in FIELDS[1].words)

GRAMMAR = r"""
// a concealed card and a trump named during a trick (tricks.aside_turn, new_trump)
aside_turn: "a" "player" "with" "cards" "laid" "aside" "keeps" "his" "turn" cond? _NL
new_trump: "a" "trump" "named" "during" "a" "trick" "counts" "from" "the" "next" "card" _NL -> new_trump_later
         | "a" "trump" "named" "during" "a" "trick" "counts" "for" "the" "whole" "trick" _NL -> new_trump_whole
         | "a" "trump" "named" "during" "a" "trick" "counts" ":" word _NL                 -> new_trump_word
"""


def _read_aside(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
                verbs: list[Any]) -> None:
    b.put(tricks, (*tp, "aside_turn"), b.flag(True, c.children, c), cond_at(c.children, c),
          "the rule on laid-aside cards")


def _read_new(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
              verbs: list[Any]) -> None:
    value = ("later" if kind == "new_trump_later" else "whole_trick"
             if kind == "new_trump_whole" else b.word(c.children[0]))
    b.put(tricks, (*tp, "new_trump"), value, c, "how a trump named during a trick counts")


#: The reader of each of its lines, by grammar rule (the tricks home's reader calls them).
READERS: dict[str, Callable[..., None]] = {
    "aside_turn": _read_aside,
    "new_trump_later": _read_new, "new_trump_whole": _read_new, "new_trump_word": _read_new,
}


def write(out: t.Out, ind: int, tr: Mapping[str, Any]) -> None:
    """Its lines, where they differ from the defaults."""
    aside = tr.get("aside_turn", False)
    if aside not in (False, "false"):
        out.add(ind, "a player with cards laid aside keeps his turn"
                + ("" if aside in (True, "true") else f" if {t.formula(aside)}"))
    new = tr.get("new_trump", "later")
    if "new_trump" in tr:
        out.add(ind, "a trump named during a trick counts " + (
            "from the next card" if new == "later" else "for the whole trick"
            if new == "whole_trick" else f": {t.word(new)}"))


def describe(ctx: _Ctx, tr: Mapping[str, Any]) -> list[str]:
    """Its sentences (none at the defaults)."""
    rules: list[str] = []
    aside = tr.get("aside_turn", False)
    if aside not in (False, "false"):
        when = "" if aside in (True, "true") else f" (when {aside})"
        rules.append("A player whose hand is empty keeps his turn while he has cards laid "
                     f"aside{when}: at it he may only announce (and take them back).")
    if "new_trump" in tr:
        new, note = ctx.enum(tr.get("new_trump", "later"), _NEW)
        rules.append("A trump named during a trick counts " + (
            "from the next card on: the cards already played to it are no trumps"
            if new == "later" else "for the whole trick, the cards already played too")
            + f"{note}.")
    return rules


def compile_check(c: Typer, t: Mapping[str, Any], p: Path) -> None:
    """Their values; a player kept in turn with an empty hand needs an announcement."""
    aside = t.get("aside_turn", False)
    c.constant(aside, (*p, "aside_turn"), (True, False))
    c.constant(t.get("new_trump", "later"), (*p, "new_trump"), _NEW)
    if aside not in (False, "false") and not t.get("announce"):
        c.error((*p, "aside_turn"), "a player kept in turn with an empty hand can only "
                "announce, but this step has no 'announce'",
                "add an announcement that takes his laid-aside cards back (a move from "
                "laid_aside)")
