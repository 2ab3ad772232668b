"""Cards shown during the deal (``deal.shows``, a list of the part ``show``): as the cards
are dealt one at a time, the player who receives a card may show cards of his hand
that meet a condition, e.g. to name the trump, and a later, stronger show may
overcall it (the condition reads the variables the earlier shows set).

A show names its word, how many copies of one card it shows (``copies``), the
condition each shown card meets (``when``, read for the player with the card as
``card``, ``card_rank``, ``card_suit``) and its assignments (``then``, made for him with
``card`` the card shown).  The engine's part is :mod:`spelbok.engine.deal_shows`; this
module gives the deal step its key, part, grammar, reading, writing, prose and checks.

>>> FIELD.name, SHOW.name
('shows', 'show')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field
from ..dsl_nodes import is_node
from .shared import read_then

if TYPE_CHECKING:
    from ..checks import _Checker
    from ..compile_checks import Typer
    from ..dsl_build import _Builder

__all__ = ["FIELD", "GRAMMAR", "SHOW", "check", "compile_check", "describe", "read", "write"]

Path = tuple[Any, ...]

SHOW: Construct = Construct("show", "part", "cards a player may show as he is dealt a card "
                            "(to name the trump, to overcall an earlier show)", (
    Field("word", "token", "its word (notation: the word and the card, `declare 2H`)",
          required=True),
    Field("copies", "int", "how many copies of one card it shows", default=1, minimum=1),
    Field("when", "formula", "the condition each card shown meets, read for the player with "
          "the card as `card` (and `card_rank`, `card_suit`), after each card he is dealt",
          default="true"),
    Field("then", "assignments", "assignments, made for the player with `card` the card "
          "shown", default={}),
    SOURCE,
), x_name="in a show")

#: The key of a deal step that holds them.
FIELD: Field = Field("shows", "list[show]", "cards a player may show as the cards are dealt "
                     "(one at a time): after each card he is dealt he may make a show whose "
                     "condition holds, or pass, and after the last card each player in "
                     "turn has a last chance; the cards shown are known to all until "
                     "played", default=[], omitted=True)

GRAMMAR = r"""
// cards shown during the deal (deal.shows)
deal_show: "a" "player" "may" "show" INT ("copy" | "copies") "of" "a" "card" "as" word ("when" formula)? _NL _show_details?
_show_details: _INDENT (then_line | source_line)+ _DEDENT
"""


def read(b: _Builder, node: Any, deal: dict[str, Any], dp: Path) -> None:
    """``a player may show N copies of a card as WORD when …`` and its lines."""
    if "shows" not in deal:
        b.put(deal, (*dp, "shows"), [], node, "the shows of the deal")
    entries = deal["shows"]
    path = (*dp, "shows", len(entries))
    d: dict[str, Any] = {}
    entries.append(d)
    b.mark(path, node)
    copies = int(node.children[0])
    word = node.children[1]
    b.put(d, (*path, "word"), b.word(word), word, "the word of this show")
    if copies != 1:
        d["copies"] = copies
        b.mark((*path, "copies"), node)
    for c in node.children[2:]:
        if is_node(c, "formula"):
            b.put(d, (*path, "when"), b.formula(c), c, "the condition of a show")
        elif is_node(c, "then_line"):
            read_then(b, c, d, path)
    b.citation(node, d, path)


def write(out: t.Out, ind: int, deal: Mapping[str, Any]) -> None:
    """One line each, with its lines under it."""
    for d in deal.get("shows") or []:
        t.check(d, t.keys(SHOW), "in a show")
        n = int(d.get("copies", 1))
        when = t.formula(d.get("when", "true"))
        out.add(ind, f"a player may show {n} cop{'y' if n == 1 else 'ies'} of a card as "
                f"{t.word(d.get('word', ''), ('when',))}" + ("" if when == "true" else f" when {when}"))
        t.assignments(out, ind + 1, "then ", d.get("then") or {}, "then ")
        t.source(out, ind + 1, d)


def describe(deal: Mapping[str, Any]) -> str:
    """The sentences of the shows (empty without any)."""
    shows = deal.get("shows") or []
    if not shows:
        return ""
    said = []
    for d in shows:
        n = int(d.get("copies", 1))
        what = "a card" if n == 1 else f"{n} copies of a card"
        when = d.get("when", "true")
        s = f"{what} (write: {d.get('word', '')} and the card)"
        if when not in (True, "true"):
            s += f" where {p.formula(when)}"
        then = d.get("then") or {}
        if then:
            s += ", which sets " + ", ".join(f"{k} = {p.formula(v)}" for k, v in then.items())
        said.append(s)
    return (" The cards are dealt one at a time; after each card, the player who received "
            "it may show " + "; or ".join(said) + " (or pass), and after the last card each "
            "player in turn has a last chance to show. Cards shown are known to every "
            "player until played.")


def check(chk: _Checker, path: Path, deal: Mapping[str, Any]) -> None:
    """Shows deal one card at a time: no packets, widow or turn-up set aside; a show of
    several copies needs a pack with them."""
    shows = deal.get("shows") or []
    if not shows:
        return
    for key in ("widow", "turn_up_after"):
        if deal.get(key) not in (None, 0, "0"):
            chk.err((*path, key), f"a deal with shows cannot yet have '{key}'",
                    "deal the widow or the turn-up in another way (a move from the stock)")
    if [int(x) for x in deal.get("packets", [1])] != [1]:
        chk.err((*path, "packets"), "a deal with shows deals one card at a time",
                "remove 'packets'")
    copies = chk.cards.copies if chk.cards is not None else 1
    words: list[str] = []
    for i, d in enumerate(shows):
        w = str(d.get("word", ""))
        if w in words or w == "pass":
            chk.err((*path, "shows", i, "word"), f"'{w}' is already a word of this deal: a "
                    "show needs a word of its own ('pass' lets the deal go on)")
        words.append(w)
        if int(d.get("copies", 1)) > copies:
            chk.err((*path, "shows", i, "copies"), f"a show of {d.get('copies')} copies of a "
                    f"card, but the pack has {copies} of each")


def compile_check(c: Typer, deal: Mapping[str, Any], path: Path) -> None:
    """Each show's condition and assignments (per player)."""
    for i, d in enumerate(deal.get("shows") or []):
        here = (*path, "shows", i)
        when = d.get("when", "true")
        if when not in (True, "true"):
            c.condition(when, (*here, "when"), True)
        c.assigns(d.get("then") or {}, (*here, "then"), True)
