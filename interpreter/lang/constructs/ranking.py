"""The ranking: the rank order, top trumps and the suit they follow, the cut order, and
the cards that play by rules of their own (free, losing and kept cards)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...cards import RANKS
from ..declare import SOURCE, Construct, Derived, Field, words_of
from .home import Home

if TYPE_CHECKING:
    from ..describe import _Kit as DescribeKit
    from ..dslwrite import _Kit as DslKit

__all__ = ["RANKING"]

# ---------------------------------------------------------------- DSL


def _ranking(w: DslKit, ranking: Mapping[str, Any]) -> None:
    w.check(ranking, w.keys("ranking"), "in 'ranking'")
    if not ranking:
        return
    lines: list[str] = []
    ranks = ranking.get("ranks")
    if ranks is not None:
        lines.append("ranks from high to low: " + " ".join(w.rank(r) for r in ranks))
    tops = ranking.get("top_trumps") or []
    if tops:
        lines.append("top trumps from high to low: " + " ".join(w.card(str(c)) for c in tops))
    follow = ranking.get("top_trumps_follow")
    if follow is not None and (follow != "trump" or tops):
        what = {"trump": "the trump suit", "printed": "their printed suit"}.get(
            str(follow), w.word(follow, ("the", "their"))
        )
        lines.append(f"top trumps follow {what}")
    cut = ranking.get("cut_ranks")
    if cut is not None and [str(r) for r in cut] != [str(r) for r in ranks or []]:
        lines.append("cut order from high to low: " + " ".join(w.rank(r) for r in cut))
    for key, head in (("free_cards", "cards that may always be played: "),
                      ("losing_cards", "cards that never win: "),
                      ("kept_cards", "cards that stay with their owner: ")):
        if ranking.get(key):
            lines.append(head + " ".join(w.card(str(c)) for c in ranking[key]))
    if not lines:
        if "source" not in ranking:
            return
        lines.append("ranks from high to low: A K Q J 10 9 8 7 6 5 4 3 2")
    w.blank()
    w.add(0, lines[0])
    w.source(1, ranking)
    for line in lines[1:]:
        w.add(0, line)


def write(w: DslKit, tree: Mapping[str, Any]) -> None:
    """The ranking's lines, its source under the first."""
    _ranking(w, tree.get("ranking") or {})


# ---------------------------------------------------------------- describe


def describe(k: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Ranking": the rank order, top trumps, the cut order, the special cards."""
    r = tree.get("ranking") or {}
    in_decks: set[str] = set()
    for entry in tree.get("deck") or []:
        lo, hi = entry.get("players", [0, 0])
        if k.players is None or lo <= k.players <= hi:
            in_decks.update(entry.get("ranks", []))
    order = [x for x in r.get("ranks", []) if x in in_decks] or list(r.get("ranks", []))
    top = list(r.get("top_trumps") or [])
    pack = k.declared_pack(tree)
    lines = k.title("Ranking")
    if top:
        sep = ", " if any("@" in t for t in top) else " "
        lines += k.wrap(f"Top trumps (permanent trumps), high to low, above the whole trump suit: "
                        f"{sep.join(k.card(t, pack) for t in top)}.")
        follow, note = k.enum(r.get("top_trumps_follow", "trump"), ("trump", "printed"))
        if follow == "printed":
            lines += k.wrap("They follow, and are led as, their printed suit, but win as top "
                            f"trumps{note}.")
        else:
            lines += k.wrap("They belong to the trump suit whatever their printed suit: they "
                            f"follow trump leads and count as trumps when led{note}.")
        if note:
            lines += k.wrap("With 'printed' a top trump follows its printed suit but still wins "
                            "as a top trump; with 'trump' it belongs to the trump suit only.")
    taken = {t[:-1] for t in top if "@" not in t
             and all(f"{t[:-1]}{s}" in top for s in "CSHD")}
    plain = [x for x in order if x not in taken]
    in_trumps = [x for x in plain if f"{x}@trump" not in top]
    if top and in_trumps:
        lines += k.wrap(f"Below them the trump suit ranks {' '.join(in_trumps)}.")
    if plain:
        lines += k.wrap(f"Plain suits rank {' '.join(plain)} (high to low)"
                        + (f"; every {k.join_or(sorted(taken), 'and')} is a top trump." if taken else "."))
    else:  # every card is a top trump: their order alone ranks the cards
        lines += k.wrap("Every card is a top trump: the list above ranks them all.")
    cut = list(r.get("cut_ranks") or [])
    if cut and cut != list(r.get("ranks", [])):
        lines += k.wrap(f"For cutting, cards rank {' '.join(x for x in cut if x in in_decks)}.")
    lines += k.wrap("A trick is won by the highest trump in it, or else by the highest card of "
                    "the suit led.")
    free, losing = list(r.get("free_cards") or []), list(r.get("losing_cards") or [])
    if free:
        lines += k.wrap(f"{' '.join(k.card(c, pack) for c in free)} may always be played, whatever the "
                        "rules of the trick say.")
    if losing:
        one = len(losing) == 1
        lines += k.wrap(f"{' '.join(k.card(c, pack) for c in losing)} never win{'s' if one else ''} a "
                        f"trick: {'it belongs' if one else 'they belong'} to no suit and "
                        f"{'is' if one else 'are'} no trump (one led leaves the suit led to the "
                        "next card).")
    kept = list(r.get("kept_cards") or [])
    if kept:
        one = len(kept) == 1
        lines += k.wrap(f"{' '.join(k.card(c, pack) for c in kept)} never win{'s' if one else ''} a "
                        f"trick and stay{'s' if one else ''} with {'its' if one else 'their'} "
                        "owner: played to a trick, it goes into its player's won cards, not "
                        "the winner's.")
    return lines + k.cite(r, 2)


RANKING = Home(
    Construct("ranking", "section", "rank order, permanent trumps", (
        Field("ranks", "ranks", "the rank order, high to low", default=list(reversed(RANKS))),
        Field("top_trumps", "list[top_trump]", "permanent trumps, high to low", default=[]),
        Field("top_trumps_follow", "word", "which suit top trumps follow", default="trump",
              words=words_of(("trump", "the trump suit"), ("printed", "their printed suit"))),
        # special cards (the trick code: CardPlay; the order tables: order.strip_cards)
        Field("free_cards", "list[card]", "cards exempt from the trick duties: they may always "
              "be played (no trick rule and no `allow` refuses them)", default=[],
              omitted=True),
        Field("losing_cards", "list[card]", "cards that never win a trick: of no suit and no "
              "trump; one led leaves the suit led to the next card", default=[], omitted=True),
        Field("kept_cards", "list[card]", "cards that stay with their owner: they never win "
              "(as `losing_cards`) and go into their player's won cards (`tricks_won`, "
              "`card_points`), not the trick winner's", default=[], omitted=True),
        Field("cut_ranks", "ranks", "the order used when cutting",
              default=Derived("the ranking's ranks")),
        SOURCE,
    )),
    write=write,
    describe=describe,
    keys=(Field("ranking", "ranking", "rank order, permanent trumps",
                default=Derived("its keys' defaults"), doc_type="map", doc_default="see below"),),
)
