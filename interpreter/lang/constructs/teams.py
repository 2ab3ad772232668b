"""Partnerships: the seats of each team (told with the players in ``describe``).

A game played in partnerships at one player count and each for himself at the others
says when its teams hold: ``teams_when: "seats == 4"`` (a condition over ``seats`` and
the options, fixed when the game loads). Where it fails every seat is its own team.

>>> TEAMS.name, TEAMS.keys[0].type, TEAMS.keys[1].name
('teams', 'list[team]', 'teams_when')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import Field
from .home import Home

if TYPE_CHECKING:
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["TEAMS", "teams_at"]


def teams_at(tree: Mapping[str, Any], holds: Callable[[Any], bool]) -> list[list[int]] | None:
    """The partnerships in force (none: every seat its own team): ``teams`` when
    ``teams_when`` holds (``holds(when)`` works it out at the player count).

    >>> tree = {"teams": [[0, 2], [1, 3]], "teams_when": "seats == 4"}
    >>> teams_at(tree, lambda w: False), teams_at({"teams": [[0, 1]]}, lambda w: False)
    (None, [[0, 1]])
    """
    teams = tree.get("teams")
    if not teams:
        return None
    when = tree.get("teams_when", True)
    if when is False or (when is not True and not holds(when)):
        return None
    return [[int(p) for p in team] for team in teams]

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
// partnerships: "teams: seats 0 and 2, seats 1 and 3" (flat, so that LALR needs no look-ahead),
// held only when a condition holds: "... when seats == 4"
teams: "teams" ":" team_start (team_more | "," team_start)* teams_when? _NL
team_start: ("seat" | "seats") INT
team_more: ("," | "and") INT
teams_when: "when" formula
// the condition alone (a spec without teams: validate refuses it, the DSL still says it)
teams_only_when: "teams" "when" formula _NL
"""


def read_teams(b: Builder, st: Any) -> None:
    """Reads ``teams: seats 0 and 2, seats 1 and 3``."""
    teams: list[list[int]] = []
    b.put(b.tree, ("teams",), teams, st, "the list of teams")
    for c in st.children:
        tok = c.children[0]
        if c.data == "teams_when":
            b.put(b.tree, ("teams_when",), b.formula(tok), tok, "when the teams hold")
            continue
        if c.data == "team_start":
            b.mark(("teams", len(teams)), c)
            teams.append([])
        b.mark(("teams", len(teams) - 1, len(teams[-1])), tok)
        teams[-1].append(int(tok))


def read_only_when(b: Builder, st: Any) -> None:
    """Reads ``teams when COND`` (a condition without teams)."""
    f = st.children[0]
    b.put(b.tree, ("teams_when",), b.formula(f), f, "when the teams hold")


def _teams(out: t.Out, teams: list[Any], when: Any = True) -> None:
    """``teams: seats 0 and 2, seats 1 and 3`` (a team of one: ``seat 4``), then
    ``when …`` unless they always hold."""
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
    cond = t.cond(when)
    tail = "" if cond is True else f" when {t.formula(when)}"
    out.add(0, "teams: " + ", ".join(parts) + tail)


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The teams, on one line (right under the deck)."""
    when = tree.get("teams_when", True)
    if not tree.get("teams") and t.cond(when) is not True:
        out.blank()
        out.add(0, f"teams when {t.formula(when)}")
        return
    _teams(out, tree.get("teams") or [], when)


# ---------------------------------------------------------------- describe


def partnerships(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """The sentence of the teams, told with the players."""
    teams = tree.get("teams")
    if not teams:
        return []
    parts = [" and ".join(f"seat {q}" for q in team) for team in teams]
    when = tree.get("teams_when", True)
    only = ("" if when in (True, "true") else f" when {p.formula(when)} (otherwise each "
            "player plays for himself)")
    return p.wrap("Partnerships" + only + ": " + "; ".join(parts) + ". Partners share their "
                  "tricks (team_tricks).")


TEAMS: Home = Home(
    None,
    grammar=GRAMMAR,
    entries=("teams", "teams_only_when"),
    builds={"teams": read_teams, "teams_only_when": read_only_when},
    write=write,
    keys=(Field("teams", "list[team]", "partnerships, e.g. `[[0, 2], [1, 3]]` (every seat "
                "exactly once); gives `team`, `partner`, `team_tricks`", min_items=2,
                doc_type="list of seat lists",
                schema_doc="Partnerships: lists of seats (each seat in exactly one)."),
          Field("teams_when", "condition", "when the `teams` hold, over `seats` and the "
                "options (fixed when the game loads), e.g. `seats == 4`; where it fails each "
                "seat is its own team", default=True, omitted=True)),
)
