"""The dealer: who deals first, where the deal passes, whether it skips players out."""

from __future__ import annotations

from ..declare import SOURCE, Construct, Derived, Field, words_of
from .home import Home

__all__ = ["DEALER"]

DEALER = Home(
    Construct("dealer", "section", "first dealer, rotation", (
        Field("first", "first_dealer", "the first dealer", default="cut_low",
              words=words_of(("cut_low", "the lowest cut"), ("cut_high", "the highest cut"),
                             ("random", "a random seat"))),
        Field("rotate", "word", "where the deal passes", default="left",
              words=words_of(("left", "to the left"), ("right", "to the right"),
                             ("none", "it stays"))),
        Field("skip_out", "condition", "the deal skips eliminated players", default=True),
        SOURCE,
    )),
    keys=(Field("dealer", "dealer", "first dealer, rotation",
                default=Derived("its keys' defaults"), doc_type="map",
                doc_default="see below"),),
)
