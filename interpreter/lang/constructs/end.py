"""The end of the match: when it ends, who wins, the reported score, the most hands."""

from __future__ import annotations

from ...limits import MAX_HANDS
from ..declare import SOURCE, Construct, Field
from .home import Home

__all__ = ["DEFAULT_MAX_HANDS", "END"]

DEFAULT_MAX_HANDS = 1000
"""The bound on a match's hands when ``end.max_hands`` is absent (redeals count): the one
meaning of an absent ``max_hands`` (a safety bound, not "no bound"), read by the model's
users, the compiler and the checks."""

END = Home(
    Construct("end", "section", "when the match ends, who wins", (
        Field("when", "formula", "hand/match condition, checked after each hand", required=True),
        Field("winners", "formula", "per-player condition, evaluated when the match ends",
              required=True),
        Field("score", "formula", "per-player number reported as the seat's score",
              schema_doc="Per-player score reported for each seat (state.scores)."),
        Field("max_hands", "int", "the match ends after this many hands (redeals count); "
              "absent, the safety bound applies: play stops there as well",
              default=DEFAULT_MAX_HANDS, omitted=True, minimum=1, maximum=MAX_HANDS),
        SOURCE,
    )),
    keys=(Field("end", "end", "when the match ends, who wins", required=True,
                doc_type="map, required"),),
)
