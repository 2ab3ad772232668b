"""The ranking: the rank order, top trumps and the suit they follow, the cut order, and
the cards that play by rules of their own (free, losing and kept cards).

>>> DECL.field("top_trumps_follow").default, RANKING.entries[:2]
('trump', ('ranks', 'suit_ranks'))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...cards import FRENCH, NO_TRUMP, RANKS, parse_card, rank_of, resolve_top_trump, suit_of
from ...cards import RANKS as _RANKS
from ...cards import SUITS as _SUITS
from ...errors import did_you_mean
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Derived, Field, words_of
from ..dsl_nodes import is_node
from . import combos, equal, trump_place
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["RANKING"]

DECL: Construct = Construct("ranking", "section", "rank order, permanent trumps", (
    Field("ranks", "ranks", "the rank order, high to low", default=list(reversed(RANKS))),
    Field("suit_ranks", "map[ranks]", "the rank order of particular suits, high to low, by "
          "suit letter, where it differs from `ranks` (e.g. `{C: [K, Q, J, A, 2, 3, 4, 5, 6, "
          "7, 8, 9, 10]}`)", default={}, omitted=True),
    Field("trump_ranks", "ranks", "the trump suit's rank order, high to low, where it "
          "differs from its order as a plain suit (top trumps stay above it)", default=[],
          omitted=True),
    Field("top_trumps", "list[top_trump]", "permanent trumps, high to low", default=[]),
    Field("top_trumps_follow", "word", "which suit top trumps follow", default="trump",
          words=words_of(("trump", "the trump suit"), ("printed", "their printed suit"))),
    *trump_place.FIELDS,
    # special cards (the trick code: CardPlay; the order tables: order.strip_cards)
    Field("free_cards", "list[card]", "cards exempt from the trick duties: they may always "
          "be played (no trick rule and no `allow` refuses them) and never must be (the "
          "duties read the hand without them; only a declaration's `binds` holds one back)",
          default=[],
          omitted=True),
    Field("losing_cards", "list[card]", "cards that never win a trick: of no suit and no "
          "trump; one led leaves the suit led to the next card", default=[], omitted=True),
    Field("kept_cards", "list[card]", "cards that stay with their owner: they never win "
          "(as `losing_cards`) and go into their player's won cards (`tricks_won`, "
          "`card_points`), not the trick winner's", default=[], omitted=True),
    combos.TRUMP_RANK,
    *equal.FIELDS,
    Field("cut_ranks", "ranks", "the order used when cutting",
          default=Derived("the ranking's ranks")),
    SOURCE,
))

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
ranks: "ranks" "from" "high" "to" "low" ":" rank+ _end _sources?
suit_ranks: "ranks" "of" suit+ "from" "high" "to" "low" ":" rank+ _end _sources?
trump_ranks: "trump" "ranks" "from" "high" "to" "low" ":" rank+ _end _sources?
top_trumps: "top" "trumps" ("from" "high" "to" "low")? ":" card+ _end _sources?
top_follow: "top" "trumps" "follow" follow_what _end _sources?
follow_what: "the" "trump" "suit"           -> follow_trump
           | "their" "printed" "suit"       -> follow_printed
           | word                           -> follow_word
cut_ranks: "cut" "order" "from" "high" "to" "low" ":" rank+ _end _sources?
// special cards (ranking.free_cards, ranking.losing_cards)
free_cards: "cards" "that" "may" "always" "be" "played" ":" card+ _end _sources?
losing_cards: "cards" "that" "never" "win" ":" card+ _end _sources?
kept_cards: "cards" "that" "stay" "with" "their" "owner" ":" card+ _end _sources?
""" + combos.RANK_GRAMMAR.lstrip("\n") + equal.GRAMMAR + trump_place.GRAMMAR


def _put(b: Builder, st: Any, key: str, value: Any, items: list[Any] | None = None) -> None:
    ranking = b.section("ranking", st)
    b.put(ranking, ("ranking", key), value, st, f"the ranking's '{key}'")
    if items:
        b.mark_items(("ranking", key), items)
    b.citation(st, ranking, ("ranking",))


def read_ranks(b: Builder, st: Any) -> None:
    """Reads ``ranks from high to low: …``."""
    items = [c for c in st.children if is_node(c, "rank")]
    _put(b, st, "ranks", b.ranks(items), items)


def read_suit_ranks(b: Builder, st: Any) -> None:
    """Reads ``ranks of C S from high to low: …`` (one order for each suit named)."""
    items = [c for c in st.children if is_node(c, "rank")]
    order = b.ranks(items)
    ranking = b.section("ranking", st)
    orders = ranking.setdefault("suit_ranks", {})
    for node in (c for c in st.children if is_node(c, "suit")):
        suit = b.suit(node)
        b.put(orders, ("ranking", "suit_ranks", suit), list(order), st,
              f"the rank order of the suit {suit}")
    b.citation(st, ranking, ("ranking",))


def read_trump_ranks(b: Builder, st: Any) -> None:
    """Reads ``trump ranks from high to low: …``."""
    items = [c for c in st.children if is_node(c, "rank")]
    _put(b, st, "trump_ranks", b.ranks(items), items)


def read_cut_ranks(b: Builder, st: Any) -> None:
    """Reads ``cut order from high to low: …``."""
    items = [c for c in st.children if is_node(c, "rank")]
    _put(b, st, "cut_ranks", b.ranks(items), items)


def read_top_trumps(b: Builder, st: Any) -> None:
    """Reads ``top trumps from high to low: …``."""
    items = [c for c in st.children if is_node(c, "card")]
    _put(b, st, "top_trumps", [b.card(c) for c in items], items)


def read_free_cards(b: Builder, st: Any) -> None:
    """Reads ``cards that may always be played: …``."""
    items = [c for c in st.children if is_node(c, "card")]
    _put(b, st, "free_cards", [b.card(c) for c in items], items)


def read_losing_cards(b: Builder, st: Any) -> None:
    """Reads ``cards that never win: …``."""
    items = [c for c in st.children if is_node(c, "card")]
    _put(b, st, "losing_cards", [b.card(c) for c in items], items)


def read_kept_cards(b: Builder, st: Any) -> None:
    """Reads ``cards that stay with their owner: …``."""
    items = [c for c in st.children if is_node(c, "card")]
    _put(b, st, "kept_cards", [b.card(c) for c in items], items)


def read_top_follow(b: Builder, st: Any) -> None:
    """Reads ``top trumps follow the trump suit`` (or their printed suit)."""
    what = st.children[0]
    value = {"follow_trump": "trump", "follow_printed": "printed"}.get(what.data)
    if value is None:
        value = b.word(what.children[0])
    _put(b, st, "top_trumps_follow", value)


def _ranking(out: t.Out, ranking: Mapping[str, Any]) -> None:
    t.check(ranking, t.keys(DECL), "in 'ranking'")
    if not ranking:
        return
    lines: list[str] = []
    ranks = ranking.get("ranks")
    if ranks is not None:
        lines.append("ranks from high to low: " + " ".join(t.rank(r) for r in ranks))
    orders = ranking.get("suit_ranks") or {}
    for order in _distinct(orders.values()):
        suits = [k for k, v in orders.items() if list(v) == order]
        lines.append(f"ranks of {t.suits(suits)} from high to low: "
                     + " ".join(t.rank(r) for r in order))
    if ranking.get("trump_ranks"):
        lines.append("trump ranks from high to low: "
                     + " ".join(t.rank(r) for r in ranking["trump_ranks"]))
    tops = ranking.get("top_trumps") or []
    if tops:
        lines.append("top trumps from high to low: " + " ".join(t.card(str(c), out) for c in tops))
    follow = ranking.get("top_trumps_follow")
    if follow is not None and (follow != "trump" or tops):
        what = {"trump": "the trump suit", "printed": "their printed suit"}.get(
            str(follow), t.word(follow, ("the", "their"))
        )
        lines.append(f"top trumps follow {what}")
    lines += trump_place.write(out, ranking)
    cut = ranking.get("cut_ranks")
    if cut is not None and [str(r) for r in cut] != [str(r) for r in ranks or []]:
        lines.append("cut order from high to low: " + " ".join(t.rank(r) for r in cut))
    for key, head in (("free_cards", "cards that may always be played: "),
                      ("losing_cards", "cards that never win: "),
                      ("kept_cards", "cards that stay with their owner: ")):
        if ranking.get(key):
            lines.append(head + " ".join(t.card(str(c), out) for c in ranking[key]))
    lines += combos.write_rank(ranking)
    lines += equal.write(out, ranking)
    if not lines:
        if "source" not in ranking:
            return
        lines.append("ranks from high to low: A K Q J 10 9 8 7 6 5 4 3 2")
    out.blank()
    out.add(0, lines[0])
    t.source(out, 1, ranking)
    for line in lines[1:]:
        out.add(0, line)


def _distinct(orders: Any) -> list[list[Any]]:
    """The distinct rank orders among ``orders``, in their first order."""
    out: list[list[Any]] = []
    for order in orders:
        if list(order) not in out:
            out.append(list(order))
    return out


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The ranking's lines, its source under the first."""
    _ranking(out, tree.get("ranking") or {})


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Ranking": the rank order, top trumps, the cut order, the special cards."""
    r = tree.get("ranking") or {}
    in_decks: set[str] = set()
    for entry in tree.get("deck") or []:
        lo, hi = entry.get("players", [0, 0])
        if ctx.players is None or lo <= ctx.players <= hi:
            in_decks.update(entry.get("ranks", []))
    order = [x for x in r.get("ranks", []) if x in in_decks] or list(r.get("ranks", []))
    top = list(r.get("top_trumps") or [])
    pack = ctx.declared_pack(tree)
    lines = ctx.title("Ranking")
    if top:
        sep = ", " if any("@" in t for t in top) else " "
        lines += p.wrap(f"Top trumps (permanent trumps), high to low, "
                        f"{trump_place.phrase(ctx, r)}: "
                        f"{sep.join(ctx.card(t, pack) for t in top)}.")
        follow, note = ctx.enum(r.get("top_trumps_follow", "trump"), ("trump", "printed"))
        if follow == "printed":
            lines += p.wrap("They follow, and are led as, their printed suit, but win as top "
                            f"trumps{note}.")
        else:
            lines += p.wrap("They belong to the trump suit whatever their printed suit: they "
                            f"follow trump leads and count as trumps when led{note}.")
        if note:
            lines += p.wrap("With 'printed' a top trump follows its printed suit but still wins "
                            "as a top trump; with 'trump' it belongs to the trump suit only.")
    taken = {t[:-1] for t in top if "@" not in t
             and all(f"{t[:-1]}{s}" in top for s in "CSHD")}
    lines += _order_lines(ctx, tree, order, top, taken, in_decks)
    cut = list(r.get("cut_ranks") or [])
    if cut and cut != list(r.get("ranks", [])):
        lines += p.wrap(f"For cutting, cards rank {' '.join(x for x in cut if x in in_decks)}.")
    lines += p.wrap("A trick is won by the highest trump in it, or else by the highest card of "
                    "the suit led.")
    free, losing = list(r.get("free_cards") or []), list(r.get("losing_cards") or [])
    if free:
        lines += p.wrap(f"{' '.join(ctx.card(c, pack) for c in free)} may always be played, whatever the "
                        "rules of the trick say.")
    if losing:
        one = len(losing) == 1
        lines += p.wrap(f"{' '.join(ctx.card(c, pack) for c in losing)} never win{'s' if one else ''} a "
                        f"trick: {'it belongs' if one else 'they belong'} to no suit and "
                        f"{'is' if one else 'are'} no trump (one led leaves the suit led to the "
                        "next card).")
    kept = list(r.get("kept_cards") or [])
    if kept:
        one = len(kept) == 1
        lines += p.wrap(f"{' '.join(ctx.card(c, pack) for c in kept)} never win{'s' if one else ''} a "
                        f"trick and stay{'s' if one else ''} with {'its' if one else 'their'} "
                        "owner: played to a trick, it goes into its player's won cards, not "
                        "the winner's.")
    lines += combos.describe_rank(r)
    lines += equal.describe(ctx, tree)
    lines += trump_place.describe(ctx, tree)
    return lines + p.cite(r, 2)


def _order_lines(ctx: DescribeKit, tree: Mapping[str, Any], order: list[str], top: list[str],
                 taken: set[str], in_decks: set[str]) -> list[str]:
    """The trump suit's order below the top trumps, and the plain suits' orders."""
    r = tree.get("ranking") or {}
    lines: list[str] = []
    them = trump_place.lead_in(r)
    plain = [x for x in order if x not in taken]
    orders = {k: [x for x in v if x in in_decks and x not in taken]
              for k, v in (r.get("suit_ranks") or {}).items()}
    trump_order = [x for x in r.get("trump_ranks") or [] if x in in_decks and x not in taken
                   and f"{x}@trump" not in top]
    if trump_order:
        lines += p.wrap((f"{them} the" if top else "The") + " trump suit ranks "
                        f"{' '.join(trump_order)} (high to low), whatever its order as a plain suit.")
    elif top and orders:
        lines += p.wrap(f"{them} the trump suit ranks in its order as a plain suit.")
    elif top:
        in_trumps = [x for x in plain if f"{x}@trump" not in top]
        if in_trumps:
            lines += p.wrap(f"{them} the trump suit ranks {' '.join(in_trumps)}.")
    if not plain and not any(orders.values()):  # every card is a top trump
        return lines + p.wrap("Every card is a top trump: the list above ranks them all.")
    note = f"; every {p.or_(sorted(taken), 'and')} is a top trump." if taken else "."
    others = [s for s in ctx_suits(tree) if s not in orders]
    if plain and (others or not orders):
        whose = (p.or_([ctx.suit_name(s) for s in others], "and").capitalize()
                 if orders else "Plain suits")
        lines += p.wrap(f"{whose} rank {' '.join(plain)} (high to low){note}")
    for each in _distinct(orders.values()):
        names = [ctx.suit_name(k) for k, v in orders.items() if v == each]
        lines += p.wrap(f"{p.or_(names, 'and').capitalize()} rank {' '.join(each)} (high to low)"
                        + (note if not others else "."))
    return lines


def ctx_suits(tree: Mapping[str, Any]) -> list[str]:
    """The suits of the decks, in the pack's order."""
    pack = tree.get("pack")
    letters = [x["letter"] for x in pack["suits"]] if pack else ["C", "S", "H", "D"]
    held = {x for e in tree.get("deck") or [] for x in e.get("suits", [])}
    return [x for x in letters if x in held]


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """The orders name each rank once and every rank of the deck; the top trumps
    and the special cards are cards of every deck."""
    ranking = tree["ranking"]
    ck.no_repeats(ranking["ranks"], ("ranking", "ranks"), "rank")
    ck.no_repeats(ranking["cut_ranks"], ("ranking", "cut_ranks"), "rank")
    _top_trump_repeats(ck, tree, ranking["top_trumps"])
    for field in ("ranks", "cut_ranks"):
        if field == "cut_ranks" and ranking["cut_ranks"] == ranking["ranks"]:
            continue  # same order: any problem was reported for ranks
        _every_rank(ck, tree, ranking[field], f"ranking.{field}", None)
    _suit_orders(ck, tree, ranking)
    for j, name in enumerate(ranking["top_trumps"]):
        for entry in tree["deck"]:
            a, b = entry["players"]
            where = f"{ck.span(a, b)} players"
            if "@" in name:
                rank = name.partition("@")[0]
                if rank not in entry["ranks"]:
                    ck.err(
                        ("ranking", "top_trumps", j),
                        f"the top trump '{name}' names the rank {rank}, which is not in "
                        f"the deck for {where}",
                    )
                    break
                continue
            pack = ck.cards
            card = parse_card(name) if pack is None else pack.parse_card(name)
            if card is None:
                continue
            if pack is None:
                rank, suit = _RANKS[rank_of(card)], _SUITS[suit_of(card)]
            elif card >= pack.copies * len(pack.letters) * len(pack.ranks):
                continue  # an extra card (of a suit or not): always in the deck
            else:
                rank, suit = pack.ranks[pack.rank[card]], pack.letters[pack.suit[card]]
            if rank not in entry["ranks"] or suit not in entry["suits"]:
                ck.err(
                    ("ranking", "top_trumps", j),
                    f"the top trump '{name}' is not in the deck for {where}",
                )
                break
    ck.enum(
        ("ranking", "top_trumps_follow"),
        ranking["top_trumps_follow"],
        "top_trumps_follow",
    )
    _special_cards(ck, tree, ranking)
    equal.check(ck, tree)
    trump_place.check(ck, tree)


def _every_rank(ck: Checker, tree: Mapping[str, Any], order: list[Any], name: str,
                at: tuple[Any, ...] | None) -> None:
    """Every rank of the decks is in ``order`` (reported at the deck's rank, or at ``at``
    when given: an order of one suit)."""
    ranks = set(order)
    missing: set[str] = set()
    for i, entry in enumerate(tree["deck"]):
        for j, rank in enumerate(entry["ranks"]):
            if rank not in ranks and rank not in missing:
                missing.add(rank)
                ck.err(at or ("deck", i, "ranks", j),
                       f"the rank '{rank}' is in the deck but not in {name}")


def _suit_orders(ck: Checker, tree: Mapping[str, Any], ranking: Mapping[str, Any]) -> None:
    """``suit_ranks`` names suits of the pack, and it and ``trump_ranks`` rank each rank
    of the decks once."""
    pack = tree.get("pack")
    suits = [x["letter"] for x in pack["suits"]] if pack else ["C", "S", "H", "D"]
    for suit, order in (ranking.get("suit_ranks") or {}).items():
        at: tuple[Any, ...] = ("ranking", "suit_ranks", suit)
        if suit not in suits:
            ck.err(at, f"'{suit}' is not a suit of the pack", did_you_mean(suit, suits))
            continue
        ck.no_repeats(order, at, "rank")
        _every_rank(ck, tree, order, f"the order of the suit {suit} (ranking.suit_ranks)", at)
    if ranking.get("trump_ranks"):
        at = ("ranking", "trump_ranks")
        ck.no_repeats(ranking["trump_ranks"], at, "rank")
        _every_rank(ck, tree, ranking["trump_ranks"], "ranking.trump_ranks", at)


def _top_trump_repeats(ck: Checker, tree: Mapping[str, Any], tops: list[str]) -> None:
    """A card has one place among the top trumps: two entries naming it under every
    trump of the decks (``JC`` twice, ``t21`` and ``T21``) are an error naming both
    places.  Entries that meet under some trumps only (``AH`` and ``A@trump`` when
    hearts are trumps) are not: the card then takes the first, higher place."""
    if tree.get("pack") and ck.cards is None:
        return  # a bad pack is reported already
    pack = ck.cards or FRENCH
    trumps = sorted({pack.suit_index[x] for e in tree["deck"] for x in e["suits"]
                     if x in pack.suit_index})
    # each entry's card under every trump, looked up once (a pairwise comparison was
    # quadratic: 5 000 entries took minutes)
    first: dict[tuple[int, ...], int] = {}
    for j, name in enumerate(tops):
        resolved = [resolve_top_trump(name, t, pack) for t in trumps or [NO_TRUMP]]
        if any(c is None for c in resolved):
            continue
        key = tuple(c for c in resolved if c is not None)
        i = first.setdefault(key, j)
        if i == j:
            continue
        file, line, col = ck.doc.locate(("ranking", "top_trumps", i))
        where = ":".join(str(x) for x in (file, line, col) if x is not None)
        card = pack.names[key[0]]
        first_name = f"'{tops[i]}', " if tops[i] != name else ""
        ck.err(("ranking", "top_trumps", j),
               f"the top trump '{name}'" + (f" ({card})" if card != name and "@" not in name else "")
               + f" is listed already as entry {i + 1} ({first_name}at {where}): a card "
               "has one place among the top trumps")


def _special_cards(ck: Checker, tree: Mapping[str, Any], ranking: dict[str, Any]) -> None:
    """``free_cards``, ``losing_cards`` and ``kept_cards`` name cards of every deck, once
    each: the spec's pack's cards (rank then suit, or an extra card's name)."""
    if tree.get("pack") and ck.cards is None:
        return  # a bad pack is reported already
    pack = ck.cards or FRENCH
    extras = pack.copies * len(pack.letters) * len(pack.ranks)  # the first extra's id
    for key in ("free_cards", "losing_cards", "kept_cards"):
        names = ranking.get(key) or []
        ck.no_repeats(names, ("ranking", key), "card")
        for j, name in enumerate(names):
            card = pack.parse_card(str(name))
            if card is None:
                ck.err(("ranking", key, j),
                       f"'{name}' is not a card" + ("" if pack.french else " of the pack"),
                       did_you_mean(str(name).upper(), sorted(set(pack.names))))
                continue
            if card >= extras:
                continue  # an extra card: every deck holds it
            rank, suit = pack.ranks[pack.rank[card]], pack.letters[pack.suit[card]]
            for entry in tree["deck"]:
                if rank not in entry["ranks"] or suit not in entry["suits"]:
                    a, b = entry["players"]
                    ck.err(("ranking", key, j), f"the card '{name}' of {key} is not in "
                           f"the deck for {ck.span(a, b)} players")
                    break


RANKING: Home = Home(
    DECL,
    grammar=GRAMMAR,
    entries=(
        "ranks", "suit_ranks", "trump_ranks", "top_trumps", "top_follow", "cut_ranks",
        "free_cards", "losing_cards", "kept_cards", "trump_rank", *equal.ENTRIES,
        *trump_place.ENTRIES),
    builds={
        "ranks": read_ranks, "suit_ranks": read_suit_ranks, "trump_ranks": read_trump_ranks,
        "top_trumps": read_top_trumps, "top_follow": read_top_follow,
        "cut_ranks": read_cut_ranks, "free_cards": read_free_cards,
        "losing_cards": read_losing_cards, "kept_cards": read_kept_cards,
        "trump_rank": combos.read_trump_rank, **equal.BUILDS,
        **trump_place.BUILDS},
    write=write,
    describe=describe,
    check=check,
    compile_check=combos.compile_check_ranking,
    keys=(Field("ranking", "ranking", "rank order, permanent trumps",
                default=Derived("its keys' defaults"), doc_type="map", doc_default="see below"),),
)
