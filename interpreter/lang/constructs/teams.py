"""Partnerships: the seats of each team."""

from __future__ import annotations

from ..declare import Field
from .home import Home

__all__ = ["TEAMS"]

TEAMS = Home(
    None,
    keys=(Field("teams", "list[team]", "partnerships, e.g. `[[0, 2], [1, 3]]` (every seat "
                "exactly once); gives `team`, `partner`, `team_tricks`", min_items=2,
                doc_type="list of seat lists",
                schema_doc="Partnerships: lists of seats (each seat in exactly one)."),),
)
