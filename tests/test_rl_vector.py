"""The batched environment (spelbok.rl.vector): each row is what the single-match views
show, a step takes each match's action, ended matches are replaced by the next seed,
and a wrong call changes nothing."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")

import numpy as np  # noqa: E402
import spelbok  # noqa: E402
from spelbok.errors import ArgumentError, IllegalActionError  # noqa: E402
from spelbok.rl.encoding import Match  # noqa: E402
from spelbok.rl.vector import VectorEnv  # noqa: E402


@pytest.mark.parametrize(("name", "reward"), [
    ("knektpass", "score"), ("knektpass", "win"), ("bridge", "win"), ("hearts", "score"),
    ("euchre", "score"), ("schnapsen", "win"), ("oh-hell", "score"),
])
def test_each_row_is_the_match_it_steps(name: str, reward: str) -> None:
    """Beside the vector, the same matches are driven one by one through Match (the AEC
    environment's views): rows, seats, rewards and ends agree at every step, over the
    replacement of ended matches by the next seeds."""
    k = 3
    v = VectorEnv(name, num_envs=k, reward=reward, max_hands=2, seed=10)
    game, enc = v.game, v.encoding
    seeds = iter(range(10, 10_000))
    ref = [Match(enc, game.new_state(seed=next(seeds))) for _ in range(k)]
    obs, mask, seat = v.reset()
    assert obs.shape == (k, enc.size) and mask.shape == (k, enc.num_actions)
    rng = random.Random(4)
    ended = 0
    for _ in range(600):
        for i, m in enumerate(ref):
            assert seat[i] == m.st.current
            assert np.array_equal(obs[i], m.observation(int(seat[i])))
            assert np.array_equal(mask[i], m.mask())
        actions = [rng.choice(np.flatnonzero(row).tolist()) for row in mask]
        obs, mask, seat, rewards, terminated, truncated = v.step(np.array(actions))
        assert rewards.shape == (k, v.players)
        for i, m in enumerate(ref):
            m.apply(actions[i])
            want = m.hand_rewards() if reward == "score" else None
            if m.st.is_terminal:
                if reward == "win":
                    want = m.win_returns()
                assert terminated[i] != truncated[i]
                assert truncated[i] == m.st.limit_reached
                ref[i] = Match(enc, game.new_state(seed=next(seeds)))
                ended += 1
            else:
                assert not terminated[i] and not truncated[i]
            assert rewards[i].tolist() == (want or [0.0] * v.players)
    assert ended > 0


def test_an_illegal_action_changes_nothing() -> None:
    v = VectorEnv("euchre", num_envs=2, seed=1)
    obs, mask, seat = v.reset()
    legal = np.flatnonzero(mask[0]).tolist()
    bad = next(a for a in range(v.encoding.num_actions) if a not in np.flatnonzero(mask[1]))
    before = [m.st.clone() for m in v.matches]
    with pytest.raises(IllegalActionError, match="match 1"):
        v.step([legal[0], bad])
    with pytest.raises(IllegalActionError, match="match 0"):
        v.step([1.5, 0])
    assert all(m.st == b for m, b in zip(v.matches, before, strict=True))
    with pytest.raises(ArgumentError, match="3 actions for 2 matches"):
        v.step([0, 0, 0])


@pytest.mark.parametrize("bad", [0, -1, True, 2.0, 10**9])
def test_the_number_of_matches_is_checked(bad: object) -> None:
    with pytest.raises(ArgumentError, match="num_envs"):
        VectorEnv("example", num_envs=bad)  # type: ignore[arg-type]


def test_step_before_reset_and_a_bad_reward_are_errors() -> None:
    with pytest.raises(ArgumentError, match="reset"):
        VectorEnv("example", num_envs=2).step([0, 0])
    with pytest.raises(ArgumentError, match="reward"):
        VectorEnv("example", reward="points")


def test_reset_seeds_the_matches_in_turn() -> None:
    v = VectorEnv("example", num_envs=3, players=2)
    v.reset(seed=7)
    assert [m.st.seed for m in v.matches] == [7, 8, 9]
    v.reset()
    assert [m.st.seed for m in v.matches] == [10, 11, 12]
    assert spelbok.load("example", players=2).players == v.players
