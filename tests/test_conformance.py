"""One conformance check over every shipped spec at every allowed player count."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.lang.loader import read_spec

SPECS = Path(__file__).resolve().parent.parent / "specs"
SHIPPED = sorted(p for p in SPECS.glob("*.yaml"))
#: decisions per spec and player count (about 60 matches of Knektpass at four)
BUDGET = 15_000


def cases() -> list[tuple[Path, int]]:
    out = []
    for path in SHIPPED:
        tree = read_spec(path).tree
        for n in range(tree["players"]["min"], tree["players"]["max"] + 1):
            out.append((path, n))
    return out


@pytest.mark.parametrize("path, players", cases(), ids=lambda v: getattr(v, "stem", str(v)))
def test_random_matches_keep_every_invariant(path: Path, players: int) -> None:
    # up to 200 seeded random matches each, as many as BUDGET decisions allow (a long
    # game plays fewer); the bound on match length is tightened so that uniformly
    # random play (which rarely reaches a goal) ends quickly.
    game = spelbok.load(path, players=players, max_hands=12)
    rep = check_game(game, matches=200, seed=players, deep_every=11, budget=BUDGET)
    assert rep.ok, rep.failures
    assert rep.matches == 200 or rep.decisions >= BUDGET
    # a game of long hands (two hundred decisions each: a card at a time dealt and asked
    # about, then the play) fits fewer matches in the budget, but as many hands
    assert rep.matches >= 10 or rep.hands >= 60, (rep.matches, rep.hands)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_full_length_matches_end_within_the_declared_bound(path: Path) -> None:
    tree = read_spec(path).tree
    for players in (tree["players"]["min"], tree["players"]["max"]):
        game = spelbok.load(path, players=players)
        rep = check_game(game, matches=3, seed=99, deep_every=97)
        assert rep.ok, rep.failures
        assert rep.hands <= 3 * game.program.max_hands


def test_a_decision_budget_stops_new_matches_but_never_the_first() -> None:
    game = spelbok.load("example", players=2)
    assert check_game(game, matches=50, seed=1, budget=1).matches == 1
    full = check_game(game, matches=4, seed=1)
    some = check_game(game, matches=4, seed=1, budget=full.decisions // 2)
    assert some.matches < 4 and some.decisions >= full.decisions // 2
