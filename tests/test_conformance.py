"""One conformance check over every shipped spec at every allowed player count."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from spelbok.analysis.conformance import check_game

from tests.budget import scaled
from tests.spec_cases import players

SPECS = Path(__file__).resolve().parent.parent / "specs"
SHIPPED = sorted(p for p in SPECS.glob("*.yaml"))
#: decisions per spec and player count (about 60 matches of Knektpass at four)
BUDGET = 15_000


def cases() -> list[tuple[Path, int]]:
    out = []
    for path in SHIPPED:
        lo, hi = players(path)
        for n in range(lo, hi + 1):
            out.append((path, n))
    return out


@pytest.mark.parametrize("path, players", cases(), ids=lambda v: getattr(v, "stem", str(v)))
def test_random_matches_keep_every_invariant(path: Path, players: int) -> None:
    # up to 200 seeded random matches each, as many as BUDGET decisions allow (a long
    # game plays fewer); the bound on match length is tightened so that uniformly
    # random play (which rarely reaches a goal) ends quickly.
    # A large pack's decisions cost more (longer hands): its budget and least number of
    # matches are scaled down (tests/budget.py: about as many cards played as on 36).
    game = spelbok.load(path, players=players, max_hands=12)
    budget = scaled(game, BUDGET)
    rep = check_game(game, matches=200, seed=players, deep_every=11, budget=budget)
    assert rep.ok, rep.failures
    assert rep.matches == 200 or rep.decisions >= budget
    # a game of long hands (two hundred decisions each: a card at a time dealt and asked
    # about, then the play) fits fewer matches in the budget, but as many hands
    assert rep.matches >= scaled(game, 10) or rep.hands >= scaled(game, 60), \
        (rep.matches, rep.hands)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_full_length_matches_end_within_the_declared_bound(path: Path) -> None:
    # three matches of a pack of up to 36 cards, fewer of a larger (tests/budget.py),
    # at least one; at each player count once (the fewest and the most, when they differ)
    for n in sorted(set(players(path))):
        game = spelbok.load(path, players=n)
        matches = scaled(game, 3)
        rep = check_game(game, matches=matches, seed=99, deep_every=97)
        assert rep.ok, rep.failures
        assert rep.matches == matches
        assert rep.hands <= matches * game.program.max_hands


def test_a_decision_budget_stops_new_matches_but_never_the_first() -> None:
    game = spelbok.load("example", players=2)
    assert check_game(game, matches=50, seed=1, budget=1).matches == 1
    full = check_game(game, matches=4, seed=1)
    some = check_game(game, matches=4, seed=1, budget=full.decisions // 2)
    assert some.matches < 4 and some.decisions >= full.decisions // 2
