"""Partnerships: the seats of each team (told with the players in ``describe``).

>>> TEAMS.name, TEAMS.keys[0].type
('teams', 'list[team]')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import Field
from .home import Home

if TYPE_CHECKING:
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["TEAMS"]

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
// partnerships: "teams: seats 0 and 2, seats 1 and 3" (flat, so that LALR needs no look-ahead)
teams: "teams" ":" team_start (team_more | "," team_start)* _NL
team_start: ("seat" | "seats") INT
team_more: ("," | "and") INT
"""


def read_teams(b: Builder, st: Any) -> None:
    """Reads ``teams: seats 0 and 2, seats 1 and 3``."""
    teams: list[list[int]] = []
    b.put(b.tree, ("teams",), teams, st, "the list of teams")
    for c in st.children:
        tok = c.children[0]
        if c.data == "team_start":
            b.mark(("teams", len(teams)), c)
            teams.append([])
        b.mark(("teams", len(teams) - 1, len(teams[-1])), tok)
        teams[-1].append(int(tok))


def _teams(out: t.Out, teams: list[Any]) -> None:
    """``teams: seats 0 and 2, seats 1 and 3`` (a team of one: ``seat 4``)."""
    if not teams:
        return
    parts: list[str] = []
    for team in teams:
        seats = [str(int(s)) for s in team]
        if not seats:
            raise ValueError("to_dsl: a team without seats")
        if len(seats) == 1:
            parts.append(f"seat {seats[0]}")
        else:
            parts.append(f"seats {', '.join(seats[:-1])} and {seats[-1]}")
    if not out.lines or not out.lines[-1].startswith("deck"):
        out.blank()
    out.add(0, "teams: " + ", ".join(parts))


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The teams, on one line (right under the deck)."""
    _teams(out, tree.get("teams") or [])


# ---------------------------------------------------------------- describe


def partnerships(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """The sentence of the teams, told with the players."""
    teams = tree.get("teams")
    if not teams:
        return []
    parts = [" and ".join(f"seat {q}" for q in team) for team in teams]
    return p.wrap("Partnerships: " + "; ".join(parts) + ". Partners share their tricks "
                  "(team_tricks).")


TEAMS: Home = Home(
    None,
    grammar=GRAMMAR,
    entries=("teams",),
    builds={"teams": read_teams},
    write=write,
    keys=(Field("teams", "list[team]", "partnerships, e.g. `[[0, 2], [1, 3]]` (every seat "
                "exactly once); gives `team`, `partner`, `team_tricks`", min_items=2,
                doc_type="list of seat lists",
                schema_doc="Partnerships: lists of seats (each seat in exactly one)."),),
)
