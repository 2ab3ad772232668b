"""The players section: the allowed player counts, and the way the turn goes round.

The play direction lives here, beside the counts, because it is a fact of the table
(where the players sit and who comes next), not of one step: the deal, every decision
in turn, the auction and each trick follow it, and the dealer's rotation follows it
unless it says otherwise.  Seats are numbered round the table to the left (seat 1 sits
at seat 0's left) whatever the direction; with ``direction: right`` the next player of
seat ``s`` is seat ``s - 1``.

>>> PLAYERS.name, [f.name for f in DECL.fields], PLAYERS.entries
('players', ['min', 'max', 'direction', 'source'], ('players',))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...errors import did_you_mean
from ...limits import MAX_CARDS, MAX_PLAYERS
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field, words_of
from ..dsl_nodes import is_node, is_token
from .home import Home
from .teams import partnerships

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["DIRECTION_DEFAULT", "FIRST_BIDDER", "PLAYERS", "direction_of"]

DECL: Construct = Construct("players", "section", "the allowed player counts", (
    Field("min", "int", "fewest players", required=True, minimum=0,
          maximum=MAX_CARDS),
    Field("max", "int", "most players", required=True, maximum=MAX_CARDS),
    Field("direction", "word", "where the turn passes: to the next seat to the left "
          "(clockwise) or to the right (counter-clockwise); the deal, decisions in turn, the "
          "auction and every trick follow it, and the dealer's `rotate` by default",
          default="left", omitted=True,
          words=words_of(("left", "clockwise: seat s is followed by seat s + 1"),
                         ("right", "counter-clockwise: seat s is followed by seat s - 1"))),
    SOURCE,
))

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
players: "players" INT ("to" INT)? players_turning? _end _sources?
players_turning: "," "turning" "to" "the" word
"""

#: The way the turn goes round when ``direction`` is absent.
DIRECTION_DEFAULT: str = DECL.field("direction").default

#: Forehand, the dealer's next seat, by play direction: an auction's default first bidder.
FIRST_BIDDER: dict[str, str] = {"left": "(dealer + 1) % seats",
                                "right": "(dealer + seats - 1) % seats"}


def direction_of(tree: Mapping[str, Any]) -> str:
    """The play direction of a (canonical or raw) spec tree: ``left`` or ``right``.

    >>> direction_of({"players": {"min": 2, "max": 3, "direction": "right"}}), direction_of({})
    ('right', 'left')
    """
    players = tree.get("players")
    value = players.get("direction") if isinstance(players, Mapping) else None
    return str(value) if value is not None else DIRECTION_DEFAULT


def read_players(b: Builder, st: Any) -> None:
    """Reads ``players 2 to 4`` (or ``players 4``)."""
    ints = [c for c in st.children if is_token(c, "INT")]
    value: dict[str, Any] = {"min": int(ints[0]), "max": int(ints[-1])}
    b.put(b.tree, ("players",), value, st, "the number of players")
    b.mark(("players", "min"), ints[0])
    b.mark(("players", "max"), ints[-1])
    for c in st.children:
        if is_node(c, "players_turning"):
            value["direction"] = b.word(c.children[-1])
            b.mark(("players", "direction"), c)
    b.citation(st, value, ("players",))


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """``players 2 to 4`` (``, turning to the right``) and its source."""
    players = tree.get("players")
    if players:
        t.check(players, t.keys(DECL), "in 'players'")
        out.blank()
        direction = players.get("direction", DIRECTION_DEFAULT)
        turning = "" if direction == DIRECTION_DEFAULT else f", turning to the {t.word(direction)}"
        out.add(0, f"players {players['min']} to {players['max']}{turning}")
        t.source(out, 1, players)


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Players": the player counts, the partnerships."""
    sec = tree.get("players") or {}
    lines = ctx.title("Players")
    way = ("counter-clockwise (to the right): each player's turn comes after the player on "
           "his left" if direction_of(tree) == "right" else "clockwise (to the left)")
    lines += p.wrap(f"{ctx.span(sec.get('min', '?'), sec.get('max', '?'))} players; play goes "
                    f"{way}.")
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
    direction = p.get("direction", DIRECTION_DEFAULT)
    if direction not in ("left", "right"):  # a fact of the table: never an option
        ck.err(("players", "direction"),
               f"unknown direction '{direction}': expected left or right",
               hint=did_you_mean(str(direction), ["left", "right"]))


PLAYERS: Home = Home(
    DECL,
    grammar=GRAMMAR,
    entries=("players",),
    builds={"players": read_players},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("players", "players", f"allowed player counts (2..{MAX_PLAYERS})",
                required=True, doc_type="`{min: int, max: int, direction: left\\|right}` required"),),
)
