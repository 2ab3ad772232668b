"""The deck: which cards of the pack, for which player counts.

An entry's cards are its ranks in each of its suits, less the single cards its
``without`` names (``deck for 3 players: A K Q J 10 9 8 7 6 5 4 3 2 without 2C``).

>>> DECK.name, DECK_ENTRY.field("suits").default
('deck', ['C', 'S', 'H', 'D'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...cards import FRENCH, SUITS, Pack
from ...errors import did_you_mean
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

__all__ = ["DECK", "DECK_ENTRY", "entries_for", "entry_cards", "entry_size"]

DECK_ENTRY: Construct = Construct("deck_entry", "part", "the cards of the deck for some player counts", (
    Field("players", "range", "the player counts it serves",
          default=Derived("players.min..players.max")),
    Field("ranks", "ranks", "its ranks", required=True),
    Field("suits", "suits", "its suits", default=list(SUITS)),
    Field("without", "list[card]", "single cards of its ranks and suits taken out of it "
          "(every copy of each), e.g. `[2B]`", default=[], omitted=True),
    Field("when", "condition", "the entry serves only when this holds: a condition over "
          "options, fixed when the game loads, so that entries for the same player count "
          "are readings of the deck (exactly one must hold)", default=True, omitted=True),
    SOURCE,
), x_name="in a deck entry")

# ---------------------------------------------------------------- the cards


def entries_for(deck: Any, n: int, holds: Callable[[int, Any], bool]) -> list[int]:
    """The indexes of the deck entries that serve ``n`` players: covering ``n``, their
    ``when`` holding (``holds(i, when)``, asked only of an entry with one); one when the
    spec is right.

    >>> deck = [{"players": [2, 2]}, {"players": [3, 3], "when": "short"},
    ...         {"players": [3, 3], "when": "not short"}]
    >>> entries_for(deck, 3, lambda i, w: w == "short"), entries_for(deck, 2, lambda i, w: 0)
    ([1], [0])
    """
    out = []
    for i, e in enumerate(deck if isinstance(deck, list) else ()):
        lo, hi = e["players"]
        when = e.get("when", True)
        if lo <= n <= hi and (when is True or (when is not False and holds(i, when))):
            out.append(i)
    return out



def entry_cards(entry: Mapping[str, Any], pack: Pack) -> list[int]:
    """The cards a deck entry holds, as ids of ``pack``: every copy of its grid cards but
    those it is ``without``, ascending, then the pack's extra cards (the deck the engine
    deals).

    >>> from spelbok.cards import FRENCH
    >>> entry = {"ranks": ["A", "K", "2"], "suits": ["S"], "without": ["2S"]}
    >>> [FRENCH.card_name(c) for c in entry_cards(entry, FRENCH)]
    ['KS', 'AS']
    """
    suits = [pack.suit_index[s] for s in entry.get("suits", list(pack.letters))]
    ranks = [pack.rank_index[str(r).upper()] for r in entry["ranks"]]
    out = {pack.parse_card(str(c)) for c in entry.get("without") or []}
    return [c for c in pack.ids_of(suits, ranks) if pack.face[c] not in out] + \
        pack.extra_ids([e[0] for e in pack.extras])


def entry_size(entry: Mapping[str, Any], pack: Pack | None = None) -> int:
    """How many cards a deck entry holds: ``len(entry_cards(entry, pack))``, counted from
    the entry alone (``pack``: its copies and extra cards; None, the French 52 or a pack
    the checks refused), so that the checks count a deck whose names may be wrong.

    >>> from spelbok.cards import FRENCH
    >>> entry = {"ranks": ["A", "K", "Q"], "suits": ["C", "S"], "without": ["QS"]}
    >>> entry_size(entry) == len(entry_cards(entry, FRENCH)) == 5
    True
    """
    cards = len(entry.get("ranks", [])) * len(entry.get("suits", []))
    cards -= len({str(c).upper() for c in entry.get("without") or []})
    if pack is not None:  # copies of the pack, and its extra cards
        cards = (cards + len(pack.extras)) * pack.copies
    return cards


# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
deck: "deck" ("for" INT ("to" INT)? ("player" | "players"))? ":" rank+ deck_suits? deck_without? deck_when? _end _sources?
deck_when: "when" formula
deck_suits: "of" suit+
deck_without: "without" card+
"""


def read_deck(b: Builder, st: Any) -> None:
    """Reads ``deck for 3 to 4 players: A K Q … of ♠ ♥ without 2♠``, one entry."""
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
        elif is_node(c, "deck_without"):
            entry["without"] = [b.card(x) for x in c.children]
            b.mark_items((*path, "without"), c.children)
        elif is_node(c, "deck_when"):
            entry["when"] = b.formula(c.children[0])
            b.mark((*path, "when"), c.children[0])
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
        if entry.get("without"):
            line += " without " + " ".join(t.card(str(c), out) for c in entry["without"])
        when = entry.get("when", True)
        if when is not True:
            line += f" when {t.formula(when)}"
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
        without = entry.get("without") or []
        if pack is not None:
            shown = " ".join(pack.symbols[pack.suit_index[s]] if s in pack.suit_index else s
                             for s in suits)
            extra = f", {pack.copies} of each" if pack.copies > 1 else ""
            if pack.extras:
                extra += f", and {p.or_([e[0] for e in pack.extras], 'and')}"
        if without:
            shown_out = [ctx.card(str(c), pack) for c in without]
            extra += f", without {p.or_(shown_out, 'and')}"
        when = entry.get("when", True)
        reading = "" if when is True else f" when {p.formula(str(when))}"
        lines += p.wrap(f"For {ctx.span(lo, hi)} players{reading}: {size} cards, "
                        f"{' '.join(ranks)} in each of {shown}{extra}.")
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
    dealt = ctx.seats_dealt(n)  # (a seat sitting the hand out is dealt nothing: sit_out)
    left = size - each * dealt - widow - ups
    text = f"With {n} players: {each} cards each ({each * dealt} in all)"
    if dealt < n:
        text += f" to the {dealt} who play the hand"
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
    suit twice in an entry; the cards it is without are its own, each once."""
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
        if not tree.get("pack") or ck.cards is not None:  # else a bad pack is reported
            _without(ck, ck.cards or FRENCH, entry, ("deck", i, "without"))
    reported: set[tuple[int, int]] = set()
    for n in range(lo, hi + 1):
        entries = cover.get(n, [])
        plain = [i for i in entries if deck[i].get("when", True) is True]
        if plain and len(entries) > len(plain):  # readings of the deck beside a plain entry
            plain = entries
        for j in plain[1:]:
            pair = (plain[0], j)
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


def _without(ck: Checker, pack: Pack, entry: Mapping[str, Any], at: tuple[Any, ...]) -> None:
    """Each card an entry is without is a card of its ranks and suits, named once."""
    grid = pack.copies * len(pack.letters) * len(pack.ranks)  # the first extra card's id
    seen: dict[int, int] = {}
    for j, name in enumerate(entry.get("without") or []):
        card = pack.parse_card(str(name))
        if card is None or card >= grid:
            what = "an extra card, in every deck" if card is not None else "not a card"
            ck.err((*at, j), f"'{name}' is {what}: a deck entry is without cards of its "
                   "own ranks and suits", did_you_mean(str(name).upper(), [
                       f"{r}{x}" for x in entry["suits"] for r in entry["ranks"]]))
        elif pack.ranks[pack.rank[card]] not in entry["ranks"] or \
                pack.letters[pack.suit[card]] not in entry["suits"]:
            ck.err((*at, j), f"the card '{name}' is not in this deck entry (its ranks "
                   f"{' '.join(entry['ranks'])} of {' '.join(entry['suits'])}), so it "
                   "cannot be taken out")
        elif card in seen:
            ck.err((*at, j), f"the card '{name}' is listed twice (entry {seen[card] + 1} "
                   "names it too)")
        else:
            seen[card] = j


DECK: Home = Home(
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
