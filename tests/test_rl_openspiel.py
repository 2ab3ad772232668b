"""Every shipped spec as an OpenSpiel game (needs the `rl` extra)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
import spelbok  # noqa: E402
from spelbok.rl.encoding import uncovered  # noqa: E402
from spelbok.rl.openspiel import register  # noqa: E402

from tests.spec_cases import CASES  # noqa: E402


@pytest.mark.parametrize(("path", "players"), CASES, ids=[f"{p.stem}-{n}" for p, n in CASES])
def test_random_sim(path: Path, players: int) -> None:
    assert uncovered(spelbok.load(str(path), players=players)) is None
    # a variant registers under its own file name
    short = register(str(path))
    game = pyspiel.load_game(short, {"players": players, "max_hands": 1})
    assert game.get_type().short_name == short and game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_register_is_idempotent_and_names_the_spec() -> None:
    assert register("knektpass") == register("knektpass") == "spelbok_knektpass"
    assert "spelbok_knektpass" in pyspiel.registered_names()


def test_resample_keeps_what_the_player_sees() -> None:
    register("knektpass")
    game = pyspiel.load_game("spelbok_knektpass", {"players": 4, "max_hands": 1})
    state = game.new_initial_state()
    state.apply_action(11)
    rng = np.random.RandomState(3)
    for _ in range(8):
        if state.is_terminal():
            break
        p = state.current_player()
        other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0., 1.))
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)
        assert other.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_is_mcts_plays_knektpass() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    register("knektpass")
    game = pyspiel.load_game("spelbok_knektpass", {"players": 3, "max_hands": 1})
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=rng)
    state = game.new_initial_state()
    state.apply_action(5)
    moves = 0
    while not state.is_terminal() and moves < 6:
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves >= 1


def test_a_state_pickles_by_its_rules() -> None:
    import pickle

    register("knektpass")
    game = pyspiel.load_game("spelbok_knektpass", {"max_hands": 1})
    state = game.new_initial_state()
    state.apply_action(3)
    for _ in range(3):
        if not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
    # a match of no registered game still pickles (as a plain object)
    from spelbok.rl.pettingzoo import env

    e = env("example", players=2)
    e.reset(seed=1)
    assert pickle.loads(pickle.dumps(e.match)).legal() == e.match.legal()
