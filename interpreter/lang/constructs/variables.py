"""The variables: declared state, per player or not, kept for the match or reset each hand."""

from __future__ import annotations

from ..declare import SOURCE, Construct, Derived, Field
from .home import Home

__all__ = ["VARIABLES"]

VARIABLES = Home(
    Construct("variables", "section", "declared state variables with initial values", (
        Field("player", "var_map", "per player, kept for the whole match", default={}),
        Field("hand_player", "var_map", "per player, reset at each hand start", default={}),
        Field("hand", "var_map", "one value, reset at each hand start", default={}),
        Field("match", "var_map", "one value for the match", default={}),
        SOURCE,
    )),
    keys=(Field("variables", "variables", "declared state variables with initial values",
                default=Derived("its keys' defaults"), doc_type="map",
                doc_default="all empty"),),
)
