"""Every shipped spec as an OpenSpiel game (needs the `rl` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
    state.apply_seed(11)
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
    state.apply_seed(5)
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
    state.apply_seed(3)
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


def _seed_tree(game: Any) -> dict[int, float]:
    """Every seed the chance nodes of ``game`` can draw, with its probability."""
    out: dict[int, float] = {}

    def walk(state: Any, p: float) -> None:
        if not state.is_chance_node():
            seed = state.match.st.seed
            assert seed not in out
            out[seed] = p
            return
        outcomes = state.chance_outcomes()
        assert abs(sum(q for _, q in outcomes) - 1.0) < 1e-12
        assert [a for a, _ in outcomes] == state.legal_actions()
        for a, q in outcomes:
            child = state.clone()
            child.apply_action(a)
            walk(child, p * q)

    walk(game.new_initial_state(), 1.0)
    return out


@pytest.mark.parametrize(("seeds", "base", "nodes"), [
    (64, 4, 3), (40, 4, 3), (7, 2, 3), (5, 16, 1), (12, 0, 1), (1, 16, 1)])
def test_the_chance_nodes_draw_every_seed_alike(seeds: int, base: int, nodes: int) -> None:
    """The seed drawn as digits: each seed below ``seeds`` once, all equally likely, also
    when ``seeds`` is not a power of ``base`` (the last branch weighted by what it holds)."""
    register("knektpass")
    game = pyspiel.load_game("spelbok_knektpass",
                             {"players": 3, "max_hands": 1, "seeds": seeds, "base": base})
    got = _seed_tree(game)
    assert sorted(got) == list(range(seeds))
    assert all(abs(p - 1.0 / seeds) < 1e-12 for p in got.values())
    state = game.new_initial_state()
    depth = 0
    while state.is_chance_node():
        assert len(state.chance_outcomes()) <= game.max_chance_outcomes()
        state.apply_action(state.chance_outcomes()[-1][0])
        depth += 1
    assert depth == nodes and state.match.st.seed == seeds - 1


def test_a_chance_node_lists_few_outcomes_once() -> None:
    """65536 seeds by default, drawn as four hexadecimal digits: a node's outcomes are 16,
    one shared tuple (not a list of every seed built at each call)."""
    register("knektpass")
    game = pyspiel.load_game("spelbok_knektpass", {"players": 3, "max_hands": 1})
    assert game.max_chance_outcomes() == 16 and game.max_chance_nodes_in_history() == 4
    state = game.new_initial_state()
    first = state.chance_outcomes()
    assert len(first) == 16 and first is state.chance_outcomes()
    assert first is state.clone().chance_outcomes()
    state.apply_seed(0xBEEF)
    assert state.history() == [0xB, 0xE, 0xE, 0xF] and state.match.st.seed == 0xBEEF
    assert state.chance_outcomes() == ()
    # the same seed, the same match as the engine's own
    engine = spelbok.load("knektpass", players=3, max_hands=1).new_state(seed=0xBEEF)
    assert state.match.st.hands == engine.hands
    # one node of every seed, as before, with base=0
    whole = pyspiel.load_game("spelbok_knektpass", {"players": 3, "base": 0})
    s = whole.new_initial_state()
    assert len(s.chance_outcomes()) == whole.max_chance_outcomes() == 65536
    s.apply_action(0xBEEF)
    assert s.match.st.seed == 0xBEEF and s.history() == [0xBEEF]


def test_a_seed_out_of_range_is_refused() -> None:
    register("knektpass")
    game = pyspiel.load_game("spelbok_knektpass", {"players": 3, "seeds": 40, "base": 4})
    state = game.new_initial_state()
    state.apply_action(2)  # 32..47: only 32..39 are seeds
    with pytest.raises(ValueError, match="not a digit"):
        state.apply_action(2)
    with pytest.raises(ValueError, match="0..39"):
        game.new_initial_state().apply_seed(40)
    with pytest.raises(ValueError, match="base"):
        pyspiel.load_game("spelbok_knektpass", {"base": 1})


def test_a_state_between_chance_nodes_pickles_and_replays() -> None:
    import pickle

    register("knektpass")
    game = pyspiel.load_game("spelbok_knektpass", {"players": 3, "max_hands": 1})
    state = game.new_initial_state()
    state.apply_action(3)
    state.apply_action(9)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.chance_outcomes() == state.chance_outcomes()
    assert str(state) == "chance: the seed, 2 of 4 digits drawn: 3 9"
    with pytest.raises(ValueError):
        state.apply_seed(1)
    for a in (0, 4):
        state.apply_action(a)
        again.apply_action(a)
    assert state.match.st.seed == again.match.st.seed == 0x3904
    replay = game.new_initial_state()
    for a in state.history():
        replay.apply_action(a)
    assert str(replay) == str(state)


@pytest.mark.parametrize("opponents", ["random", "greedy"])
def test_the_ismcts_example_plays_a_match(opponents: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """examples/openspiel_ismcts_knektpass.py, cheaply: two simulations a decision, two
    hands (greedy opponents exchange cards: their exchange goes in as picks and a stop);
    a seed replays the same match."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "examples" / "openspiel_ismcts_knektpass.py"
    spec = importlib.util.spec_from_file_location("openspiel_ismcts_knektpass", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    got = example.play_match(simulations=2, opponents=opponents, seed=3, max_hands=2)
    assert got["hands"] == 2 and got["decisions"] >= 1
    assert sorted(got["returns"]) in ([-1.0, -1.0, 1.0], [-1.0, 1.0, 1.0], [1.0, 1.0, 1.0])
    again = example.play_match(simulations=2, opponents=opponents, seed=3, max_hands=2)
    assert (again["scores"], again["decisions"]) == (got["scores"], got["decisions"])
    assert example.main(["--simulations", "2", "--max-hands", "1", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "final scores" in out and "winners: seat" in out and "IS-MCTS decisions" in out
