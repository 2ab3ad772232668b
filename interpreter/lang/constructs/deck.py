"""The deck: which cards of the pack, for which player counts.

>>> DECK.name, DECK_ENTRY.field("suits").default
('deck', ['C', 'S', 'H', 'D'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...cards import SUITS, Pack
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Derived, Field
from ..dsl_nodes import is_node, is_token
from .home import Home
from .pack import prose as pack_prose

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["DECK", "DECK_ENTRY", "entry_cards", "entry_size"]

DECK_ENTRY = Construct("deck_entry", "part", "the cards of the deck for some player counts", (
    Field("players", "range", "the player counts it serves",
          default=Derived("players.min..players.max")),
    Field("ranks", "ranks", "its ranks", required=True),
    Field("suits", "suits", "its suits", default=list(SUITS)),
    SOURCE,
), x_name="in a deck entry")

# ---------------------------------------------------------------- the cards


def entry_cards(entry: Mapping[str, Any], pack: Pack) -> list[int]:
    """The cards a deck entry holds, as ids of ``pack``: every copy of its grid cards,
    ascending, then the pack's extra cards (the deck the engine deals).

    >>> from spelbok.cards import FRENCH
    >>> [FRENCH.card_name(c) for c in entry_cards({"ranks": ["A", "K"], "suits": ["S"]}, FRENCH)]
    ['KS', 'AS']
    """
    suits = [pack.suit_index[s] for s in entry.get("suits", list(pack.letters))]
    ranks = [pack.rank_index[str(r).upper()] for r in entry["ranks"]]
    return pack.ids_of(suits, ranks) + pack.extra_ids([e[0] for e in pack.extras])


def entry_size(entry: Mapping[str, Any], pack: Pack | None = None) -> int:
    """How many cards a deck entry holds: ``len(entry_cards(entry, pack))``, counted from
    the entry alone (``pack``: its copies and extra cards; None, the French 52 or a pack
    the checks refused), so that the checks count a deck whose names may be wrong.

    >>> from spelbok.cards import FRENCH
    >>> entry = {"ranks": ["A", "K", "Q"], "suits": ["C", "S"]}
    >>> entry_size(entry) == len(entry_cards(entry, FRENCH)) == 6
    True
    """
    cards = len(entry.get("ranks", [])) * len(entry.get("suits", []))
    if pack is not None:  # copies of the pack, and its extra cards
        cards = (cards + len(pack.extras)) * pack.copies
    return cards


# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
deck: "deck" ("for" INT ("to" INT)? ("player" | "players"))? ":" rank+ deck_suits? _end _sources?
deck_suits: "of" suit+
"""


def read_deck(b: Builder, st: Any) -> None:
    """Reads ``deck for 3 to 4 players: A K Q … of ♠ ♥``, one entry."""
    deck = b.tree.setdefault("deck", [])
    if not deck:
        b.mark(("deck",), st)
    path = ("deck", len(deck))
    ints = [c for c in st.children if is_token(c, "INT")]
    entry: dict[str, Any] = {}
    deck.append(entry)
    b.mark(path, st)
    if ints:
        entry["players"] = [int(ints[0]), int(ints[-1])]
        b.mark_items((*path, "players"), [ints[0], ints[-1]])
    ranks = [c for c in st.children if is_node(c, "rank")]
    entry["ranks"] = b.ranks(ranks)
    b.mark_items((*path, "ranks"), ranks)
    for c in st.children:
        if is_node(c, "deck_suits"):
            entry["suits"] = [b.suit(s) for s in c.children]
            b.mark_items((*path, "suits"), c.children)
    b.citation(st, entry, path)


def _deck(out: t.Out, deck: list[Any], pack: Mapping[str, Any] | None = None) -> None:
    letters = [str(s.get("letter")).upper() for s in (pack or {}).get("suits") or []]
    if deck:
        out.blank()
    for entry in deck:
        t.check(entry, t.keys(DECK_ENTRY), "in a deck entry")
        line = "deck"
        players = entry.get("players")
        if isinstance(players, int) and not isinstance(players, bool):
            players = [players, players]
        if players:
            lo, hi = players
            line += f" for {lo} player" if lo == hi == 1 else (
                f" for {lo} players" if lo == hi else f" for {lo} to {hi} players"
            )
        line += ": " + " ".join(t.rank(r) for r in entry.get("ranks") or [])
        suits = entry.get("suits")
        every = letters or list(SUITS)  # the default: every suit of the pack
        if suits is not None and [str(s).upper() for s in suits] != every:
            line += " of " + t.suits(suits)
        out.add(0, line)
        t.source(out, 1, entry)


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The deck entries, one line each."""
    _deck(out, tree.get("deck") or [], tree.get("pack"))


# ---------------------------------------------------------------- describe


def _deck_cards(entry: Mapping[str, Any], ranking: Sequence[str]) -> list[str]:
    ranks = [r for r in ranking if r in entry.get("ranks", [])]
    ranks += [r for r in entry.get("ranks", []) if r not in ranks]
    return ranks


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Cards": the pack, the deck by player count, how a deal divides it."""
    lines = ctx.title("Cards")
    ranking = tree.get("ranking") or {}
    order = list(ranking.get("ranks") or [])
    pack = pack_prose(ctx, tree, lines)
    for entry in tree.get("deck") or []:
        lo, hi = entry.get("players", [0, 0])
        if ctx.players is not None and not lo <= ctx.players <= hi:
            continue
        ranks = _deck_cards(entry, order)
        suits = entry.get("suits", [])
        size = entry_size(entry, pack)
        shown = ctx.suits(suits)
        extra = ""
        if pack is not None:
            shown = " ".join(pack.symbols[pack.suit_index[s]] if s in pack.suit_index else s
                             for s in suits)
            extra = f", {pack.copies} of each" if pack.copies > 1 else ""
            if pack.extras:
                extra += f", and {p.or_([e[0] for e in pack.extras], 'and')}"
        lines += p.wrap(f"For {ctx.span(lo, hi)} players: {size} cards, {' '.join(ranks)} "
                        f"in each of {shown}{extra}.")
        lines += p.cite(entry, 4)
    if ctx.players is not None:
        lines += _deal_arithmetic(tree, ctx)
    return lines


def _deal_arithmetic(tree: Mapping[str, Any], ctx: DescribeKit) -> list[str]:
    n = ctx.players or 0
    entry = next((e for e in tree.get("deck") or []
                  if e.get("players", [0, 0])[0] <= n <= e.get("players", [0, 0])[1]), None)
    if entry is None:
        return []
    size = entry_size(entry, ctx.declared_pack(tree))  # its copies and extra cards too
    counted = ctx.hand_cards(n)
    if counted is None:
        return []
    each, widow, ups = counted
    left = size - each * n - widow - ups
    text = f"With {n} players: {each} cards each ({each * n} in all)"
    if widow:
        text += f", {widow} to the widow"
    if ups:
        text += f", {ups} turned up"
    text += f", {left} left in the stock (talon)." if left >= 0 else \
        f": {-left} cards more than the pack holds!"
    return p.wrap(text)


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """The entries cover each player count once, within players.min..max; no rank or
    suit twice in an entry."""
    lo, hi = tree["players"]["min"], tree["players"]["max"]
    deck = tree["deck"]
    if lo > hi:
        return
    cover: dict[int, list[int]] = {}
    for i, entry in enumerate(deck):
        a, b = entry["players"]
        at = ("deck", i, "players")
        if a > b:
            ck.err(at, f"the player range [{a}, {b}] is reversed (write [{b}, {a}])")
            a, b = b, a
        if a < lo or b > hi:
            ck.err(
                at,
                f"the deck entry for {ck.span(a, b)} players goes outside "
                f"players.min..players.max ({ck.span(lo, hi)})",
            )
        for n in range(max(a, lo), min(b, hi) + 1):
            cover.setdefault(n, []).append(i)
        ck.no_repeats(entry["ranks"], ("deck", i, "ranks"), "rank")
        ck.no_repeats(entry["suits"], ("deck", i, "suits"), "suit")
    reported: set[tuple[int, int]] = set()
    for n in range(lo, hi + 1):
        entries = cover.get(n, [])
        for j in entries[1:]:
            pair = (entries[0], j)
            if pair not in reported:
                reported.add(pair)
                ck.err(
                    ("deck", j, "players"),
                    f"deck entries overlap: {n} players is covered by entries "
                    f"{entries[0] + 1} and {j + 1}",
                )
    gaps = [n for n in range(lo, hi + 1) if n not in cover]
    if gaps and lo <= hi:
        runs: list[list[int]] = []
        for n in gaps:
            if runs and runs[-1][1] == n - 1:
                runs[-1][1] = n
            else:
                runs.append([n, n])
        text = ", ".join(ck.span(a, b) for a, b in runs)
        ck.err(("deck",), f"no deck entry for {text} players")


DECK = Home(
    None, parts=(DECK_ENTRY,),
    grammar=GRAMMAR,
    entries=("deck",),
    builds={"deck": read_deck},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("deck", "list[deck_entry]", "which cards, by player count", required=True,
                min_items=1, doc_type="list of deck entries, required"),),
)
