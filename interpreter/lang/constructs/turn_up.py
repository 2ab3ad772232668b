"""The ``turn_up`` step: turn a card up (from the stock, or the dealer's last card), for trump.

>>> HOME.name, HOME.compile
('turn_up', 'spelbok.engine.deal:compile_turn_up')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field, words_of
from ..dsl_nodes import cond_at, is_node
from .home import Home

if TYPE_CHECKING:
    from ..compile_checks import Typer
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["HOME"]

DECL: Construct = Construct("turn_up", "step", "turn the top stock card up", body=(
    Field("trump", "condition", "its suit becomes trump", default=True),
    Field("from", "word", "where the card is turned from", default="stock", omitted=True,
          words=words_of(("stock", "the top card of the stock, to the turn-up zone"),
                         ("dealer", "the last card dealt to the dealer: shown to all, it "
                                    "stays in his hand"))),
    SOURCE,
))

GRAMMAR = r"""
turn_up: "turn" "up" "a" "card" turn_from? turn_for? _end _attrs?
turn_from: "from" "the" "hand" "of" "the" "dealer"  -> from_dealer
         | "from" ":" word                          -> from_word
turn_for: "for" "trump" cond?               -> turn_trump
        | "," "not" "for" "trump"           -> turn_no_trump
"""


def build(b: _Builder, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """Reads a ``turn up a card`` line."""
    turn: dict[str, Any] = {}
    step["turn_up"] = turn
    b.mark((*path, "turn_up"), st)
    for c in st.children:
        if is_node(c, "turn_trump"):
            conds = [x for x in c.children if is_node(x, "cond")]
            turn["trump"] = b.formula(conds[0].children[0]) if conds else True
            b.mark((*path, "turn_up", "trump"), cond_at(c.children, c))
        elif is_node(c, "turn_no_trump"):
            turn["trump"] = False
            b.mark((*path, "turn_up", "trump"), c)
        elif is_node(c, "from_dealer") or is_node(c, "from_word"):
            value = "dealer" if c.data == "from_dealer" else b.word(c.children[0])
            b.put(turn, (*path, "turn_up", "from"), value, c, "where the card is turned from")
    b.attrs(st, step, path)


def write(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``turn up a card [from …] for trump [if …]``."""
    t.check(step, t.keys(DECL), "in a turn_up step")
    body = step["turn_up"] or {}
    t.check(body, t.keys(DECL, body=True), "in 'turn_up'")
    trump = t.cond(body.get("trump", True))
    source = body.get("from", "stock")
    head = ("turn up a card" if source == "stock" else "turn up a card from the hand of the "
            "dealer" if source == "dealer" else f"turn up a card from: {t.word(source, ('for',))}")
    if trump is True:
        out.add(indent, f"{head} for trump")
    elif trump is False:
        out.add(indent, f"{head}, not for trump")
    else:
        out.add(indent, f"{head} for trump if {trump}")
    out.attrs(indent + 1, step, "turn-up")


def describe(ctx: _Ctx, step: Mapping[str, Any], number: str,
             sub: int) -> tuple[str, list[str], list[str]]:
    """The sentence of a turn-up."""
    u = step["turn_up"]
    trump = u.get("trump", True)
    source, note = ctx.enum(u.get("from", "stock"),
                            tuple(w.name for w in DECL.field("from").words))
    text = ("Turn up the next card of the stock" if source == "stock" else
            f"Turn up the last card dealt to the dealer for all to see{note}; it stays in his "
            "hand")
    if trump is True:
        text += "; its suit is trump."
    elif trump is False:
        text += " (it does not make trump)."
    else:
        text += f"; its suit is trump when {p.formula(trump)}{ctx.option_note(trump)}."
    return text, [], p.cite(u, sub)


def compile_check(c: Typer, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """Where the card comes from (a word or an option), whether it makes trump."""
    d = step["turn_up"]
    value = d.get("trump", True) if isinstance(d, dict) else True
    c.constant(d.get("from", "stock") if isinstance(d, dict) else "stock",
               (*path, "turn_up", "from"), tuple(w.name for w in DECL.field("from").words))
    if not isinstance(value, bool):  # a condition, e.g. on an option
        c.formula(value, (*path, "turn_up", "trump"), False)


HOME: Home = Home(DECL, grammar=GRAMMAR, builds={"turn_up": build}, write=write, describe=describe,
            compile="spelbok.engine.deal:compile_turn_up", compile_check=compile_check)
