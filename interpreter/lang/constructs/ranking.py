"""The ranking: the rank order, top trumps and the suit they follow, the cut order, and
the cards that play by rules of their own (free, losing and kept cards)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...cards import RANKS
from ..declare import SOURCE, Construct, Derived, Field, words_of
from .home import Home

if TYPE_CHECKING:
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
    keys=(Field("ranking", "ranking", "rank order, permanent trumps",
                default=Derived("its keys' defaults"), doc_type="map", doc_default="see below"),),
)
