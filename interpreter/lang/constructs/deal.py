"""The ``deal`` step: deal cards from the shuffled deck (packets, a widow).

>>> HOME.name, HOME.compile
('deal', 'spelbok.engine.deal:compile_deal')
>>> [f.name for f in HOME.decl.body or ()]
['size', 'packets', 'to', 'widow', 'widow_packets', 'widow_every', 'turn_up_after', 'shows', 'source']

The widow dealt card by card among the packets, and a turn-up dealt between
them, read and written back in the DSL:

>>> from spelbok.lang.dsl import parse_dsl
>>> def steps(line):
...     text = f'spelbok 1\\ngame "G"\\nplayers 4\\neach hand:\\n    {line}\\n'
...     return parse_dsl(text, "g.spel")[0]["hand"]
>>> steps("deal 18 cards in packets of 3, and 6 cards to the widow in packets of 1 "
...       "after every 3 packets")
[{'deal': {'size': 18, 'packets': [3], 'widow': 6, 'widow_packets': [1], 'widow_every': 3}}]
>>> steps("deal 5 cards in packets of 3 then 2, the turn-up after 1 round")
[{'deal': {'size': 5, 'packets': [3, 2], 'turn_up_after': 1}}]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field
from ..dsl_nodes import is_node
from . import deal_shows
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker
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
                     "packets (see widow_packets and widow_every for another order)."),
    Field("widow_packets", "list[packet]", "the widow's packet sizes, in turn (absent: the "
          "players' packets)", min_items=1,
          schema_doc="The sizes of the widow's packets, in turn: [1] deals it card by card. "
                     "Absent: the widow takes the players' packet sizes."),
    Field("widow_every", "int", "the widow gets its next packet after every this many "
          "packets dealt to the players (absent: last in each round)", minimum=1, schema_doc="The widow gets its next packet after every this many packets "
          "dealt to the players, counted across the rounds; what it still lacks when the "
          "players are served comes last. Absent: once in each round, after the players."),
    Field("turn_up_after", "int", "after this many rounds of packets one card is left for "
          "the turn-up (the turn_up step that follows turns it)", minimum=1,
          schema_doc="After this many rounds of packets the next card is set aside for the "
                     "turn-up, and the deal goes on with the cards after it; the turn_up "
                     "step that follows the deal turns that card. Absent: the turn-up is the "
                     "card after the deal."),
    deal_shows.FIELD,
    SOURCE,
))

GRAMMAR = r"""
// the packets are spelled out in this rule (not a rule of their own) so that a ',' after a
// packet may go on with a packet or with ', and N cards to the widow'
deal: "deal" formula "cards" ("in" "packets" "of" packet (("," | "then") packet)*)? deal_to? widow? deal_turn_up? _end _deal_attrs?
_deal_attrs: _INDENT (_attr | deal_show)+ _DEDENT
packet: INT
deal_to: "to" "players" "where" formula
widow: "," "and" formula ("card" | "cards")? "to" "the" "widow" widow_packets? widow_every?
widow_packets: "in" "packets" "of" packet ("then" packet)*
widow_every: "after" "every" INT ("packet" | "packets")
deal_turn_up: "," "the" "turn-up" "after" INT ("round" | "rounds")
""" + deal_shows.GRAMMAR


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
            _build_widow(b, c, deal, path)
        elif is_node(c, "deal_turn_up"):
            deal["turn_up_after"] = int(c.children[0])
            b.mark((*path, "deal", "turn_up_after"), c)
        elif is_node(c, "deal_show"):
            deal_shows.read(b, c, deal, (*path, "deal"))
    b.attrs(st, step, path)


def _build_widow(b: _Builder, node: Any, deal: dict[str, Any], path: tuple[Any, ...]) -> None:
    """The widow's own packets and its place among the players' packets."""
    for c in node.children[1:]:
        if is_node(c, "widow_packets"):
            packets = [x for x in c.children if is_node(x, "packet")]
            deal["widow_packets"] = [int(x.children[0]) for x in packets]
            b.mark_items((*path, "deal", "widow_packets"), packets)
        elif is_node(c, "widow_every"):
            deal["widow_every"] = int(c.children[0])
            b.mark((*path, "deal", "widow_every"), c)


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
    ordered = deal.get("widow_packets") is not None or deal.get("widow_every") is not None
    if widow not in (None, 0, "0") or ordered:  # (an order with no widow: 'and 0 cards')
        line += f", and {t.cards(widow if widow is not None else 0)} to the widow"
    if deal.get("widow_packets") is not None:
        line += " in packets of " + " then ".join(str(p) for p in deal["widow_packets"])
    if deal.get("widow_every") is not None:
        line += f" after every {int(deal['widow_every'])} packets"
    if deal.get("turn_up_after") is not None:
        n = int(deal["turn_up_after"])
        line += f", the turn-up after {n} round{'s' if n != 1 else ''}"
    out.add(indent, line)
    out.attrs(indent + 1, step, "deal")
    deal_shows.write(out, indent + 1, deal)


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
    side = (ctx.tree.get("players") or {}).get("direction", "left") \
        if isinstance(ctx.tree.get("players"), dict) else "left"
    text = (f"Shuffle and deal {count} to {whom}, {how}, starting at the dealer's {side}."
            f"{_widow_prose(d)}{_turn_up_prose(d)}{deal_shows.describe(d)} The rest of the "
            "pack is the stock (talon).")
    return text, [], p.cite(d, sub)


def _widow_prose(d: Mapping[str, Any]) -> str:
    """The widow's sentence: its size, its packets and where they come in the deal."""
    widow = d.get("widow")
    if widow in (None, "0", 0):
        return ""
    n = str(widow)
    own, every = d.get("widow_packets"), d.get("widow_every")
    sizes = None if own is None else [int(k) for k in own]
    packet = ("one card" if sizes == [1] else "a packet" if sizes is None else
              f"a packet of {' then '.join(str(k) for k in sizes)} in turn")
    if every is None:
        when = ", last in each round" + ("" if sizes is None else f", {packet} at a time")
    else:
        k = int(every)
        when = (f", {packet} after every {'packet' if k == 1 else f'{k} packets'} dealt to "
                "the players (what it still lacks when they are served comes last)")
    return f" A spare hand (the widow) of {n if n.isdigit() else p.formula(n)} cards is " \
           f"dealt too{when}."


def _turn_up_prose(d: Mapping[str, Any]) -> str:
    """The turn-up's place in the deal, when it comes between the packets."""
    after = d.get("turn_up_after")
    if after is None:
        return ""
    rounds = "the first round" if int(after) == 1 else f"{int(after)} rounds"
    return (f" After {rounds} of packets the next card is set aside for the turn-up, and the "
            "deal goes on with the cards after it.")


def check(chk: _Checker, path: tuple[Any, ...], step: dict[str, Any]) -> None:
    """A widow's order needs a widow; a turn-up set aside needs a turn-up from the stock
    right after the deal, to turn it."""
    d = step["deal"]
    here = (*path, "deal")
    deal_shows.check(chk, here, d)
    for key in ("widow_packets", "widow_every"):
        if key in d and d.get("widow") in (None, 0, "0"):
            chk.err((*here, key), f"'{key}' orders the widow's cards, but this deal has no "
                    "widow", hint="add 'widow: N' (its number of cards) or remove the key")
    if "turn_up_after" not in d:
        return
    steps: Any = chk.tree
    for k in path[:-1]:
        steps = steps[k]
    nxt = steps[path[-1] + 1] if isinstance(path[-1], int) and path[-1] + 1 < len(steps) \
        else None
    turn = nxt.get("turn_up") if isinstance(nxt, dict) else None
    if not isinstance(turn, dict) or turn.get("from", "stock") != "stock":
        chk.err((*here, "turn_up_after"), "'turn_up_after' sets a card aside for a turn-up, "
                "but the next step does not turn up a card from the stock",
                hint="put a 'turn_up' step right after this deal")


def compile_check(c: Typer, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """The sizes are whole numbers (the widow's fixed for all), ``to`` a per-seat formula."""
    d = step["deal"]
    p = (*path, "deal")
    c.number(d.get("size", "0"), (*p, "size"), True)
    if d.get("to", "not out") != "not out":
        c.formula(d["to"], (*p, "to"), True)
    if d.get("widow") not in (None, 0, "0"):
        c.number(d["widow"], (*p, "widow"), False)
    deal_shows.compile_check(c, d, p)


HOME: Home = Home(DECL, parts=(deal_shows.SHOW,), grammar=GRAMMAR, builds={"deal": build}, write=write, describe=describe,
            check=check, compile="spelbok.engine.deal:compile_deal",
            compile_check=compile_check)
