"""The players section: the allowed player counts.

>>> PLAYERS.name, [f.name for f in DECL.fields], PLAYERS.entries
('players', ['min', 'max', 'source'], ('players',))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...limits import MAX_CARDS, MAX_PLAYERS
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field
from ..dsl_nodes import is_token
from .home import Home
from .teams import partnerships

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["PLAYERS"]

DECL: Construct = Construct("players", "section", "the allowed player counts", (
    Field("min", "int", "fewest players", required=True, minimum=0,
          maximum=MAX_CARDS),
    Field("max", "int", "most players", required=True, maximum=MAX_CARDS),
    SOURCE,
))

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
players: "players" INT ("to" INT)? _end _sources?
"""


def read_players(b: Builder, st: Any) -> None:
    """Reads ``players 2 to 4`` (or ``players 4``)."""
    ints = [c for c in st.children if is_token(c, "INT")]
    value: dict[str, Any] = {"min": int(ints[0]), "max": int(ints[-1])}
    b.put(b.tree, ("players",), value, st, "the number of players")
    b.mark(("players", "min"), ints[0])
    b.mark(("players", "max"), ints[-1])
    b.citation(st, value, ("players",))


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """``players 2 to 4`` and its source."""
    players = tree.get("players")
    if players:
        t.check(players, t.keys(DECL), "in 'players'")
        out.blank()
        out.add(0, f"players {players['min']} to {players['max']}")
        t.source(out, 1, players)


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Players": the player counts, the partnerships."""
    sec = tree.get("players") or {}
    lines = ctx.title("Players")
    lines += p.wrap(f"{ctx.span(sec.get('min', '?'), sec.get('max', '?'))} players; play goes "
                    "clockwise (to the left).")
    lines += partnerships(ctx, tree)
    return lines + p.cite(sec, 2)


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """Between 2 and the most seats spelbok plays, min at most max."""
    p = tree["players"]
    lo, hi = p["min"], p["max"]
    if lo < 2:
        ck.err(("players", "min"), f"a game needs at least 2 players (min is {lo})")
    if hi > MAX_PLAYERS:
        ck.err(("players", "max"),
               f"spelbok supports at most {MAX_PLAYERS} players (max is {hi})")
    if lo > hi:
        ck.err(("players",), f"players.min ({lo}) is greater than players.max ({hi})")


PLAYERS: Home = Home(
    DECL,
    grammar=GRAMMAR,
    entries=("players",),
    builds={"players": read_players},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("players", "players", f"allowed player counts (2..{MAX_PLAYERS})",
                required=True, doc_type="`{min: int, max: int}` required"),),
)
