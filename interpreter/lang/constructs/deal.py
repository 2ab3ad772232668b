"""The ``deal`` step: deal cards from the shuffled deck (packets, a widow).

>>> HOME.name, HOME.compile
('deal', 'spelbok.engine.deal:compile_deal')
>>> [f.name for f in HOME.decl.body or ()]
['size', 'packets', 'to', 'widow', 'source']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field
from ..dsl_nodes import is_node
from .home import Home

if TYPE_CHECKING:
    from ..compile_checks import Typer
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["HOME"]

DECL: Construct = Construct("deal", "step", "deal cards from the shuffled deck", body=(
    Field("size", "formula", "cards per player (may differ per player)", required=True),
    Field("packets", "list[packet]", "packet sizes, repeated until every hand is full",
          default=[1], min_items=1),
    Field("to", "formula", "who receives cards (per-player condition)", default="not out"),
    Field("widow", "formula", "cards for a spare hand (the widow), dealt last in each round",
          default="0", omitted=True,
          schema_doc="Cards dealt to a spare hand (the widow), dealt last in each round of "
                     "packets."),
    SOURCE,
))

GRAMMAR = r"""
// the packets are spelled out in this rule (not a rule of their own) so that a ',' after a
// packet may go on with a packet or with ', and N cards to the widow'
deal: "deal" formula "cards" ("in" "packets" "of" packet (("," | "then") packet)*)? deal_to? widow? _end _attrs?
packet: INT
deal_to: "to" "players" "where" formula
widow: "," "and" formula ("card" | "cards")? "to" "the" "widow"
"""


def build(b: _Builder, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """Reads a ``deal`` line."""
    deal: dict[str, Any] = {}
    step["deal"] = deal
    b.mark((*path, "deal"), st)
    size = st.children[0]
    deal["size"] = b.formula(size, "size")
    b.mark((*path, "deal", "size"), size)
    packets = [c for c in st.children if is_node(c, "packet")]
    if packets:
        deal["packets"] = [int(c.children[0]) for c in packets]
        b.mark_items((*path, "deal", "packets"), packets)
    for c in st.children[1:]:
        if is_node(c, "deal_to"):
            f = c.children[0]
            deal["to"] = b.formula(f)
            b.mark((*path, "deal", "to"), f)
        elif is_node(c, "widow"):
            f = c.children[0]
            deal["widow"] = b.formula(f, "widow")
            b.mark((*path, "deal", "widow"), f)
    b.attrs(st, step, path)


def write(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``deal N cards in packets of …, and M cards to the widow``."""
    t.check(step, t.keys(DECL), "in a deal step")
    deal = step["deal"] or {}
    t.check(deal, t.keys(DECL, body=True), "in 'deal'")
    line = f"deal {t.formula(deal.get('size', '0'))} cards"
    packets = deal.get("packets")
    if packets is not None and list(packets) != [1]:
        line += " in packets of " + " then ".join(str(p) for p in packets)
    to = deal.get("to")
    if to is not None and t.formula(to) != "not out":
        line += f" to players where {t.formula(to)}"
    widow = deal.get("widow")
    if widow not in (None, 0, "0"):
        line += f", and {t.cards(widow)} to the widow"
    out.add(indent, line)
    out.attrs(indent + 1, step, "deal")


def describe(ctx: _Ctx, step: Mapping[str, Any], number: str,
             sub: int) -> tuple[str, list[str], list[str]]:
    """The sentence of a deal."""
    d = step["deal"]
    size = str(d.get("size"))
    count = f"{size} cards" if size.isdigit() else f"{p.formula(size)} cards (per player)"
    to = d.get("to", "not out")
    whom = "each player still in" if to == "not out" else f"each player where {p.formula(to)}"
    packets = [int(n) for n in d.get("packets", [1])]
    how = "one at a time" if packets == [1] else \
        f"in packets of {' then '.join(str(n) for n in packets)}"
    widow = d.get("widow")
    spare = ""
    if widow not in (None, "0", 0):
        n = str(widow)
        spare = (f" A spare hand (the widow) of {n if n.isdigit() else p.formula(n)} cards is "
                 "dealt too, last in each round.")
    text = (f"Shuffle and deal {count} to {whom}, {how}, starting at the dealer's left."
            f"{spare} The rest of the pack is the stock (talon).")
    return text, [], p.cite(d, sub)


def compile_check(c: Typer, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """The sizes are whole numbers (the widow's fixed for all), ``to`` a per-seat formula."""
    d = step["deal"]
    p = (*path, "deal")
    c.number(d.get("size", "0"), (*p, "size"), True)
    if d.get("to", "not out") != "not out":
        c.formula(d["to"], (*p, "to"), True)
    if d.get("widow") not in (None, 0, "0"):
        c.number(d["widow"], (*p, "widow"), False)


HOME: Home = Home(DECL, grammar=GRAMMAR, builds={"deal": build}, write=write, describe=describe,
            compile="spelbok.engine.deal:compile_deal", compile_check=compile_check)
