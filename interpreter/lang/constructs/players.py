"""The players section: the allowed player counts."""

from __future__ import annotations

from ...limits import MAX_CARDS, MAX_PLAYERS
from ..declare import SOURCE, Construct, Field
from .home import Home

__all__ = ["PLAYERS"]

PLAYERS = Home(
    Construct("players", "section", "the allowed player counts", (
        Field("min", "int", "fewest players", required=True, minimum=0,
              maximum=MAX_CARDS),
        Field("max", "int", "most players", required=True, maximum=MAX_CARDS),
        SOURCE,
    )),
    keys=(Field("players", "players", f"allowed player counts (2..{MAX_PLAYERS})",
                required=True, doc_type="`{min: int, max: int}` required"),),
)
