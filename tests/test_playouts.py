"""Batched random playouts (engine/playouts.py, Game.playouts): the same matches as the
public-API loop for the same seeds, every move legal, arguments checked."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import spelbok
from spelbok.engine.playouts import legal, play_random, random_action, step
from spelbok.errors import ArgumentError

from tests.budget import scaled

SPECS = Path(__file__).resolve().parent.parent / "specs"
# every shipped game (each at its fewest players), a few hands per match
GAMES = sorted(p.stem for p in SPECS.glob("*.yaml"))


def _public_loop(game: spelbok.Game, n: int, seed: int) -> list[spelbok.State]:
    """The reference: n matches through the public API, one rng making every choice."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        st = game.new_state(seed=seed + i)
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
        out.append(st)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_same_matches_as_the_public_loop(name: str) -> None:
    game = spelbok.load(SPECS / f"{name}.yaml", max_hands=3)
    n, seed = scaled(game, 4), 11  # 4 matches, fewer of a large pack (tests/budget.py)
    got = game.playouts(n, seed=seed)
    want = _public_loop(game, n, seed)
    assert got.winners == [st.winners for st in want]
    assert got.scores == [st.scores for st in want]
    assert got.decisions == [len(st.actions) for st in want]
    assert got.hands == [st.hands_played for st in want]
    assert got.limit_reached == [st.limit_reached for st in want]
    assert got.total_decisions == sum(got.decisions) > 0
    assert sum(got.wins(game.players)) == sum(len(w) for w in got.winners)


@pytest.mark.parametrize("spec,players", [("knektpass", 4), ("knockout-whist", 4),
                                          ("oh-hell", 5), ("hearts", 4)])
def test_whole_matches_equal_the_public_loop(spec: str, players: int) -> None:
    # longer matches, more players: the final states are equal, action history included
    # (random Knektpass rarely ends before its bound of hands: 40 is enough here)
    game = spelbok.load(SPECS / f"{spec}.yaml", players=players, max_hands=40)
    for seed in (0, 7):
        st = game.new_state(seed=seed)
        play_random(st, random.Random(seed))
        assert st == _public_loop(game, 1, seed)[0]


@pytest.mark.parametrize("name", ["knektpass", "knockout-whist", "rams", "doppelkopf", "bridge"])
def test_every_move_is_legal(name: str) -> None:
    game = spelbok.load(SPECS / f"{name}.yaml", max_hands=2)
    rng = random.Random(3)
    for seed in range(3):
        st = game.new_state(seed=seed)
        while not st.is_terminal:
            listed = st.legal_actions()
            assert legal(st) == listed
            a = random_action(st, rng.getrandbits)
            assert a in listed
            assert st.is_legal(a)
            step(st, a)
        assert legal(st) == []


def test_a_hand_only() -> None:
    game = spelbok.load("knektpass", players=4)
    st = game.new_state(seed=2)
    done = play_random(st, random.Random(2), hand_only=True)
    assert st.hands_played == 1 and done == len(st.actions) > 0


def test_arguments_are_checked() -> None:
    game = spelbok.load("example", players=2)
    assert game.playouts(0).winners == []
    for bad in ({"n": -1}, {"n": 2.5}, {"n": 1, "seed": "x"}, {"n": 1, "policy": "greedy"},
                {"n": 3, "seed": 2**64 - 2}):
        with pytest.raises(ArgumentError):
            game.playouts(**bad)  # type: ignore[arg-type]
