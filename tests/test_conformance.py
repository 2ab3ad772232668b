"""One conformance check over every shipped spec at every allowed player count."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.lang.loader import read_spec

SPECS = Path(__file__).resolve().parent.parent / "specs"
SHIPPED = sorted(p for p in SPECS.glob("*.yaml"))


def cases() -> list[tuple[Path, int]]:
    out = []
    for path in SHIPPED:
        tree = read_spec(path).tree
        for n in range(tree["players"]["min"], tree["players"]["max"] + 1):
            out.append((path, n))
    return out


@pytest.mark.parametrize("path, players", cases(), ids=lambda v: getattr(v, "stem", str(v)))
def test_random_matches_keep_every_invariant(path: Path, players: int) -> None:
    # 200 seeded random matches each; the bound on match length is tightened so
    # that uniformly random play (which rarely reaches a goal) ends quickly.
    game = spelbok.load(path, players=players, max_hands=12)
    rep = check_game(game, matches=200, seed=players, deep_every=11)
    assert rep.ok, rep.failures
    assert rep.matches == 200


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_full_length_matches_end_within_the_declared_bound(path: Path) -> None:
    tree = read_spec(path).tree
    for players in (tree["players"]["min"], tree["players"]["max"]):
        game = spelbok.load(path, players=players)
        rep = check_game(game, matches=3, seed=99, deep_every=97)
        assert rep.ok, rep.failures
        assert rep.hands <= 3 * game.program.max_hands
