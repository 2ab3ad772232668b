"""The deck: which cards of the pack, for which player counts."""

from __future__ import annotations

from ...cards import SUITS
from ..declare import SOURCE, Construct, Derived, Field
from .home import Home

__all__ = ["DECK", "DECK_ENTRY"]

DECK_ENTRY = Construct("deck_entry", "part", "the cards of the deck for some player counts", (
    Field("players", "range", "the player counts it serves",
          default=Derived("players.min..players.max")),
    Field("ranks", "ranks", "its ranks", required=True),
    Field("suits", "suits", "its suits", default=list(SUITS)),
    SOURCE,
), x_name="in a deck entry")

DECK = Home(
    None, parts=(DECK_ENTRY,),
    keys=(Field("deck", "list[deck_entry]", "which cards, by player count", required=True,
                min_items=1, doc_type="list of deck entries, required"),),
)
