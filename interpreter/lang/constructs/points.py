"""Card points: what the cards in a seat's tricks are worth (``card_points``).

>>> [f.name for f in DECL.fields if not f.omitted]
['ranks', 'source']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...cards import FRENCH, Pack, normalize_rank
from ...errors import did_you_mean
from ...limits import MAX_VALUE
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field
from ..dsl_nodes import is_node, is_token
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["POINTS"]

DECL: Construct = Construct("points", "section", "card points: what the cards in a seat's tricks are worth "
          "(`card_points`)", (
    Field("ranks", "points_by_rank", "points by rank (a rank not listed: 0)", default={}),
    Field("trumps", "points_by_rank", "points by rank of a trump, where they differ from "
          "`ranks`", default={}, omitted=True),
    Field("cards", "points_by_card", "points of single cards, instead of their rank's",
          default={}, omitted=True),
    Field("last_trick", "int", "points for winning the last trick of a hand", default=0,
          omitted=True, minimum=-MAX_VALUE, maximum=MAX_VALUE),
    SOURCE,
))

# ---------------------------------------------------------------- values


def card_value(spec: Mapping[str, Any], pack: Pack = FRENCH) -> Callable[[int, bool], int]:
    """How the section values card ``c`` of ``pack`` (a trump or not): its ``cards``
    entry, else its rank's in ``trumps`` when it is a trump, else its rank's in ``ranks``
    (0 when not listed).  The engine's tables and :func:`points_range` read it.

    >>> value = card_value({"ranks": {"A": 11}, "trumps": {"J": 20}, "cards": {"7D": 5}})
    >>> from spelbok.cards import card_id
    >>> value(card_id("AS"), False), value(card_id("JC"), True), value(card_id("7D"), True)
    (11, 20, 5)
    """
    by_rank = {pack.normalize_rank(r): int(v) for r, v in (spec.get("ranks") or {}).items()}
    as_trump = {pack.normalize_rank(r): int(v) for r, v in (spec.get("trumps") or {}).items()}
    by_card = {pack.parse_card(str(k)): int(v) for k, v in (spec.get("cards") or {}).items()}

    def value(c: int, trump: bool) -> int:
        rank = pack.ranks[pack.rank[c]] if pack.rank[c] >= 0 else "none"
        v = as_trump[rank] if trump and rank in as_trump else by_rank.get(rank, 0)
        return by_card.get(pack.face[c], v)

    return value


def points_range(tree: Mapping[str, Any], players: int) -> tuple[int, int] | None:
    """The least and the most card points a seat can take with ``players`` seats (None:
    no card points): every card of the deck that can count less than 0, or more, each
    counted at its lowest or its highest (as a trump or not), and the last trick.

    >>> tree = {"points": {"cards": {"QS": 13, "JD": -10}}, "deck": [{"players": [4, 4],
    ...         "ranks": ["A", "K", "Q", "J"], "suits": ["S", "D"]}]}
    >>> points_range(tree, 4)
    (-10, 13)
    """
    from ...cards import pack_of
    from .deck import entry_cards

    spec = tree.get("points")
    entry = next((e for e in tree.get("deck") or () if e["players"][0] <= players
                  <= e["players"][1]), None)
    if not isinstance(spec, Mapping) or entry is None:
        return None
    pack = pack_of(tree.get("pack"))
    value = card_value(spec, pack)
    both = [(value(c, False), value(c, True)) for c in entry_cards(entry, pack)]
    last = int(spec.get("last_trick") or 0)
    return (sum(min(0, *v) for v in both) + min(0, last),
            sum(max(0, *v) for v in both) + max(0, last))


# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
// card points: "points of ranks: A 11, 10 10, K 4" (or "none"), "points of trumps: J 20, 9 14",
// "points of cards: Q♠ 13", "the last trick scores 10 points"
points_ranks: "points" "of" "ranks" ":" (rank_points ("," rank_points)* | "none") _end _sources?
points_trumps: "points" "of" "trumps" ":" rank_points ("," rank_points)* _end _sources?
points_cards: "points" "of" "cards" ":" card_points ("," card_points)* _end _sources?
points_last: "the" "last" "trick" "scores" points_value ("point" | "points") _end _sources?
// (the terminals themselves, not rank and card: after a deck's rank, a number is no rank;
// a declared pack's rank or card is quoted, "R" 4, "1O" 11)
rank_points: (RANK | TEXT) points_value
card_points: (CARD | TEXT) points_value
points_value: INT | neg_int
"""


def _points_table(b: Builder, st: Any, key: str) -> None:
    """``points of ranks|trumps|cards: K 4, …``: a map of points, each key located."""
    from ..yamlio import key_path

    points = b.section("points", st)
    table: dict[str, int] = {}
    b.put(points, ("points", key), table, st, f"the points of {key}")
    for c in st.children:
        if not (is_node(c, "rank_points") or is_node(c, "card_points")):
            continue
        what, amount = c.children
        text = str(what)
        if is_node(c, "card_points"):
            name = b.card(c)
        elif is_token(what, "TEXT"):  # a declared pack's rank
            name = b.string(what).strip().upper()
        else:
            name = normalize_rank(b.letters(what)) or text
        if name in table:
            raise b.fail(f"the points of {name} are given twice", what)
        table[name] = b.value(amount)
        b.mark(key_path(("points", key, name)), what)
        b.mark(("points", key, name), amount)
    b.citation(st, points, ("points",))


def read_points_ranks(b: Builder, st: Any) -> None:
    """Reads ``points of ranks: A 11, 10 10`` (or ``none``)."""
    _points_table(b, st, "ranks")


def read_points_trumps(b: Builder, st: Any) -> None:
    """Reads ``points of trumps: J 20, 9 14``."""
    _points_table(b, st, "trumps")


def read_points_cards(b: Builder, st: Any) -> None:
    """Reads ``points of cards: Q♠ 13``."""
    _points_table(b, st, "cards")


def read_points_last(b: Builder, st: Any) -> None:
    """Reads ``the last trick scores 10 points``."""
    points = b.section("points", st)
    amount = next(c for c in st.children if is_node(c, "points_value"))
    b.put(points, ("points", "last_trick"), b.value(amount), amount,
          "the points of the last trick")
    b.citation(st, points, ("points",))


def _points(out: t.Out, points: Any) -> None:
    """``points of ranks: A 11, 10 10``, ``points of trumps: …``, ``points of cards: …``,
    ``the last trick scores 10 points``; the section's source under its first line."""
    if not isinstance(points, Mapping):
        return
    t.check(points, t.keys(DECL), "in 'points'")

    def table(key: str, show: Any) -> str:
        items = (points.get(key) or {}).items()
        for k, v in items:
            if isinstance(v, bool) or not isinstance(v, int) or show(str(k)) is None:
                raise ValueError(f"to_dsl: cannot write {k!r}: {v!r} in points.{key}")
        return ", ".join(f"{show(str(k))} {v}" for k, v in items)

    def rank(k: str) -> str | None:  # a declared pack's rank is quoted ("R", "1")
        return t.rank(k) if k.strip() else None

    def card(k: str) -> str | None:  # as is a declared pack's card ("1O", "JK")
        return t.card(k, out) if k.strip() else None

    out.blank()
    out.add(0, "points of ranks: " + (table("ranks", rank) or "none"))
    t.source(out, 1, points)
    if points.get("trumps"):
        out.add(0, "points of trumps: " + table("trumps", rank))
    if points.get("cards"):
        out.add(0, "points of cards: " + table("cards", card))
    last = points.get("last_trick", 0)
    if last:
        if isinstance(last, bool) or not isinstance(last, int):
            raise ValueError(f"to_dsl: cannot write points.last_trick {last!r}")
        out.add(0, f"the last trick scores {last} point{'s' if abs(last) != 1 else ''}")


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The card points' lines."""
    _points(out, tree.get("points"))


# ---------------------------------------------------------------- describe


def _points_list(table: Mapping[str, Any], show: Any = str) -> str:
    return ", ".join(f"{show(key)} {v}" for key, v in table.items())


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Card points": what the cards in a player's tricks are worth (``card_points``)."""
    sec = tree.get("points")
    if not isinstance(sec, Mapping):
        return []
    lines = ctx.title("Card points")
    ranks = sec.get("ranks") or {}
    text = ("The cards in the tricks a player wins count points (card_points): "
            + (f"{_points_list(ranks)}, any other card 0." if ranks else "no card by its rank."))
    lines += p.wrap(text)
    if sec.get("trumps"):
        lines += p.wrap(f"As trumps: {_points_list(sec['trumps'])} (the other trumps as above).")
    if sec.get("cards"):
        lines += p.wrap(f"Single cards: {_points_list(sec['cards'], ctx.card)}, whatever the trump.")
    if sec.get("last_trick"):
        lines += p.wrap(f"Winning the last trick of a hand scores {sec['last_trick']} more.")
    return lines + p.cite(sec, 2)


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """Card points name ranks of the deck and cards of the deck, in the spec's pack."""
    points = tree.get("points")
    if not isinstance(points, dict) or (tree.get("pack") and ck.cards is None):
        return  # a bad pack is reported already
    pack = ck.cards or FRENCH
    ranks = {str(r) for e in tree["deck"] for r in e["ranks"]}
    # the deck's cards by first-copy id: the grid cards of its entries, and the extras
    cards = {pack.parse_card(f"{r}{s}") for e in tree["deck"] for r in e["ranks"]
             for s in e["suits"]} | {pack.parse_card(x[0]) for x in pack.extras}
    rank_words = "2..10, J, Q, K, A" if pack.french else " ".join(pack.ranks)
    for field in ("ranks", "trumps"):
        for key in points.get(field) or {}:
            at = ("points", field, key)
            if pack.normalize_rank(key) is None:
                ck.err(at, f"'{key}' in points.{field} is not a rank ({rank_words})",
                       did_you_mean(key.upper(), sorted(ranks)), key=True)
            elif pack.normalize_rank(key) not in ranks:
                ck.err(at, f"points.{field} gives points to the rank {key}, which is not "
                       "in the deck", did_you_mean(key, sorted(ranks)), key=True)
    example = "e.g. QS, 10H" if pack.french else f"e.g. {pack.names[len(pack.ranks) - 1]}"
    for key in points.get("cards") or {}:
        at = ("points", "cards", key)
        if pack.parse_card(key) is None:
            ck.err(at, f"'{key}' in points.cards is not a card (write rank then suit, "
                   f"{example})", key=True)
        elif pack.parse_card(key) not in cards:
            ck.err(at, f"points.cards gives points to {key}, which is not in the deck",
                   key=True)


POINTS: Home = Home(
    DECL,
    grammar=GRAMMAR,
    entries=("points_ranks", "points_trumps", "points_cards", "points_last"),
    builds={
        "points_ranks": read_points_ranks, "points_trumps": read_points_trumps,
        "points_cards": read_points_cards, "points_last": read_points_last},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("points", "points", "card points (by rank, by card, for trumps, the last "
                "trick); gives `card_points`", doc_type="map",
                schema_doc="Card points: by rank, by card, for trumps, for the last trick."),),
)
