"""Card points: what the cards in a seat's tricks are worth (``card_points``)."""

from __future__ import annotations

from ...limits import MAX_VALUE
from ..declare import SOURCE, Construct, Field
from .home import Home

__all__ = ["POINTS"]

POINTS = Home(
    Construct("points", "section", "card points: what the cards in a seat's tricks are worth "
              "(`card_points`)", (
        Field("ranks", "points_by_rank", "points by rank (a rank not listed: 0)", default={}),
        Field("trumps", "points_by_rank", "points by rank of a trump, where they differ from "
              "`ranks`", default={}, omitted=True),
        Field("cards", "points_by_card", "points of single cards, instead of their rank's",
              default={}, omitted=True),
        Field("last_trick", "int", "points for winning the last trick of a hand", default=0,
              omitted=True, minimum=-MAX_VALUE, maximum=MAX_VALUE),
        SOURCE,
    )),
    keys=(Field("points", "points", "card points (by rank, by card, for trumps, the last "
                "trick); gives `card_points`", doc_type="map",
                schema_doc="Card points: by rank, by card, for trumps, for the last trick."),),
)
