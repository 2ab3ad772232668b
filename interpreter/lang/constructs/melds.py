"""Melds: the table of named combinations of cards (the ``melds`` section and its
``meld`` part) and the ``declare_melds`` step that declares them; two homes, one
construct family.

>>> MELDS.name, DECLARE_MELDS.name, DECLARE_MELDS.group
('melds', 'declare_melds', 'step')
"""

from __future__ import annotations

from ..declare import SOURCE, Construct, Field, words_of
from .home import Home

__all__ = ["DECLARE_MELDS", "DECLARE_MELDS_STEP", "MELD", "MELDS"]

MELD = Construct("meld", "part", "a named combination of cards a player may declare", (
    Field("ranks", "ranks", "its ranks (with `in`)", default=[]),
    Field("spread", "word", "how the ranks spread over the suits", default="one_suit",
          words=words_of(("one_suit", "all of them in one suit: each suit may make one"),
                         ("every_suit", "each of them in every suit of the deck"))),
    Field("run", "int", "instead of `ranks`: at least this many cards in sequence (the "
          "ranking's order) in one suit; each such sequence makes one", default=0,
          omitted=True, minimum=0, maximum=13),
    Field("points", "formula", "per-player number: what the meld scores, each time it is "
          "made", required=True),
    SOURCE,
), x_name="in meld '{key}'")

#: The table of melds (a key of the top level).
MELDS = Home(
    None, parts=(MELD,),
    keys=(Field("melds", "names[meld]", "named combinations of cards (declared by a "
                "`declare_melds` step), see below", default={}, omitted=True,
                doc_type="map name → meld"),),
)

#: The step in which each player declares the melds of their hand.
DECLARE_MELDS_STEP = Construct(
    "declare_melds", "step", "each player declares the melds of their hand",
    body=(
        Field("show", "condition", "the declared cards are shown to every player", default=True),
        SOURCE,
    ),
    fields=(Field("for", "formula", "per-player condition: who declares", default="not out"),),
    schema_doc="Each player (`for`) declares the melds of the `melds` table in their hand: "
               "`meld_points` is what they score; with `show`, their cards become public.")
DECLARE_MELDS = Home(DECLARE_MELDS_STEP)
