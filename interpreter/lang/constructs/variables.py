"""The variables: declared state, per player or not, kept for the match or reset each hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..declare import SOURCE, Construct, Derived, Field
from .home import Home

if TYPE_CHECKING:
    from ..dslwrite import _Kit as DslKit

__all__ = ["VARIABLES"]

# ---------------------------------------------------------------- DSL


def _variables(w: DslKit, variables: Mapping[str, Any]) -> None:
    w.check(variables, w.keys("variables"), "in 'variables'")
    heads = {
        "player": "each player starts the match with",
        "hand_player": "each player starts each hand with",
        "hand": "each hand starts with",
        "match": "the match starts with",
    }
    first = True
    for scope, head in heads.items():
        table = variables.get(scope) or {}
        if not table:
            continue
        if first:
            w.blank()
            first = False
        inits = [f"{w.word(k)} = {w.literal(v)}" for k, v in table.items()]
        # one line per scope unless it gets long; several lines of one scope merge
        line = f"{head} " + ", ".join(inits)
        if len(line) <= w.WIDTH:
            w.add(0, line)
        else:
            for init in inits:
                w.add(0, f"{head} {init}")
    if isinstance(variables.get("source"), str):
        if first:
            w.blank()
        w.text(0, "source of the variables", variables["source"])


def write(w: DslKit, tree: Mapping[str, Any]) -> None:
    """The variables, a line a scope."""
    _variables(w, tree.get("variables") or {})


VARIABLES = Home(
    Construct("variables", "section", "declared state variables with initial values", (
        Field("player", "var_map", "per player, kept for the whole match", default={}),
        Field("hand_player", "var_map", "per player, reset at each hand start", default={}),
        Field("hand", "var_map", "one value, reset at each hand start", default={}),
        Field("match", "var_map", "one value for the match", default={}),
        SOURCE,
    )),
    write=write,
    keys=(Field("variables", "variables", "declared state variables with initial values",
                default=Derived("its keys' defaults"), doc_type="map",
                doc_default="all empty"),),
)
