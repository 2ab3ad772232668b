"""The deck: which cards of the pack, for which player counts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...cards import SUITS
from ..declare import SOURCE, Construct, Derived, Field
from .home import Home

if TYPE_CHECKING:
    from ..dslwrite import _Kit as DslKit

__all__ = ["DECK", "DECK_ENTRY"]

DECK_ENTRY = Construct("deck_entry", "part", "the cards of the deck for some player counts", (
    Field("players", "range", "the player counts it serves",
          default=Derived("players.min..players.max")),
    Field("ranks", "ranks", "its ranks", required=True),
    Field("suits", "suits", "its suits", default=list(SUITS)),
    SOURCE,
), x_name="in a deck entry")

# ---------------------------------------------------------------- DSL


def _deck(w: DslKit, deck: list[Any], pack: Mapping[str, Any] | None = None) -> None:
    letters = [str(s.get("letter")).upper() for s in (pack or {}).get("suits") or []]
    if deck:
        w.blank()
    for entry in deck:
        w.check(entry, w.keys("deck_entry"), "in a deck entry")
        line = "deck"
        players = entry.get("players")
        if isinstance(players, int) and not isinstance(players, bool):
            players = [players, players]
        if players:
            lo, hi = players
            line += f" for {lo} player" if lo == hi == 1 else (
                f" for {lo} players" if lo == hi else f" for {lo} to {hi} players"
            )
        line += ": " + " ".join(w.rank(r) for r in entry.get("ranks") or [])
        suits = entry.get("suits")
        every = letters or w.ALL_SUITS  # the default: every suit of the pack
        if suits is not None and [str(s).upper() for s in suits] != every:
            line += " of " + w.suits(suits)
        w.add(0, line)
        w.source(1, entry)


def write(w: DslKit, tree: Mapping[str, Any]) -> None:
    """The deck entries, one line each."""
    _deck(w, tree.get("deck") or [], tree.get("pack"))


DECK = Home(
    None, parts=(DECK_ENTRY,),
    write=write,
    keys=(Field("deck", "list[deck_entry]", "which cards, by player count", required=True,
                min_items=1, doc_type="list of deck entries, required"),),
)
