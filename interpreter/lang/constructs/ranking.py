"""The ranking: the rank order, top trumps and the suit they follow, the cut order, and
the cards that play by rules of their own (free, losing and kept cards)."""

from __future__ import annotations

from ...cards import RANKS
from ..declare import SOURCE, Construct, Derived, Field, words_of
from .home import Home

__all__ = ["RANKING"]

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
    keys=(Field("ranking", "ranking", "rank order, permanent trumps",
                default=Derived("its keys' defaults"), doc_type="map", doc_default="see below"),),
)
