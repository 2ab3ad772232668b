"""The players section: the allowed player counts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...limits import MAX_CARDS, MAX_PLAYERS
from ..declare import SOURCE, Construct, Field
from .home import Home
from .teams import partnerships

if TYPE_CHECKING:
    from ..describe import _Kit as DescribeKit
    from ..dslwrite import _Kit as DslKit

__all__ = ["PLAYERS"]

# ---------------------------------------------------------------- DSL


def write(w: DslKit, tree: Mapping[str, Any]) -> None:
    """``players 2 to 4`` and its source."""
    players = tree.get("players")
    if players:
        w.check(players, w.keys("players"), "in 'players'")
        w.blank()
        w.add(0, f"players {players['min']} to {players['max']}")
        w.source(1, players)


# ---------------------------------------------------------------- describe


def describe(k: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Players": the player counts, the partnerships."""
    p = tree.get("players") or {}
    lines = k.title("Players")
    lines += k.wrap(f"{k.span(p.get('min', '?'), p.get('max', '?'))} players; play goes clockwise "
                    "(to the left).")
    lines += partnerships(k, tree)
    return lines + k.cite(p, 2)


PLAYERS = Home(
    Construct("players", "section", "the allowed player counts", (
        Field("min", "int", "fewest players", required=True, minimum=0,
              maximum=MAX_CARDS),
        Field("max", "int", "most players", required=True, maximum=MAX_CARDS),
        SOURCE,
    )),
    write=write,
    describe=describe,
    keys=(Field("players", "players", f"allowed player counts (2..{MAX_PLAYERS})",
                required=True, doc_type="`{min: int, max: int}` required"),),
)
