"""Any spec as a PettingZoo AEC environment.

>>> from spelbok.rl.pettingzoo import env
>>> e = env("example", players=2, max_hands=1)
>>> e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), int(e.action_space(e.agent_selection).n) == len(obs["action_mask"])
(['action_mask', 'observation'], True)

Agents are ``player_0``..``player_{N-1}`` (the seats).  Each observation is a dict:
``observation``, the float32 vector of :class:`spelbok.rl.encoding.Encoding` (fields in
``docs/rl.md``), and ``action_mask``, 1 for each legal action of the agent to act (all 0
for the others); both are new read-only arrays each time (nothing changes them later;
copy one to write into it).  Rewards (``reward=``):

- ``"win"`` (default): at the end of the match, +1 to each winner and -1 to every other
  seat; 0 before;
- ``"score"``: at the step that ends each hand (and the match), each seat's change of
  the spec's score (``end.score``) over that hand; its sign is the spec's (in a game
  won by the lowest score, a good hand has a negative reward).

The match ends with every agent terminated; a match stopped by its bound on hands
(``end.max_hands`` or ``max_hands=``) before the spec's end condition is truncated.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.game import load
from ..errors import ArgumentError
from .encoding import F32, I8, Encoding, Match

frombuffer = np.frombuffer

REWARDS = ("win", "score")


def env(
    spec: str | os.PathLike[str],
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    *,
    reward: str = "win",
    max_hands: int | None = None,
    render_mode: str | None = None,
) -> SpelbokEnv:
    """The AEC environment of ``spec`` (a path, a shipped name or spec text) at
    ``players`` (default: the spec's minimum) with ``options`` (readings).  ``seed`` is
    the first match's seed when ``reset()`` is given none (then 1 more each match)."""
    return SpelbokEnv(spec, players, options, seed, reward=reward, max_hands=max_hands,
                      render_mode=render_mode)


class SpelbokEnv(AECEnv):
    """One spec, one player count: a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "spelbok",
                                "is_parallelizable": False}

    def __init__(
        self,
        spec: str | os.PathLike[str],
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        *,
        reward: str = "win",
        max_hands: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ArgumentError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r:.40}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(f"render_mode must be 'human' or 'ansi', not {render_mode!r:.40}")
        self.game = load(spec, players=players, options=options, max_hands=max_hands)
        self.encoding = enc = Encoding(self.game)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"spelbok_{_slug(self.game.name)}"}
        self.possible_agents = [f"player_{p}" for p in range(self.game.players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self._next_seed = 0 if seed is None else seed
        n = enc.num_actions
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (enc.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match (``seed`` fixes its deals; ``options`` is unused: readings
        are chosen when the environment is made)."""
        if seed is None:
            seed = self._next_seed
        self._next_seed = seed + 1
        self.match = Match(self.encoding, self.game.new_state(seed=seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = False
        self._select()

    def _select(self) -> None:
        m = self.match
        assert m is not None
        seat = m.st.current
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        m = self.match
        assert m is not None, "reset() first"
        obs, mask = m.view(self._seat[agent])  # (compiled: Cursor.view)
        return {"observation": frombuffer(obs, F32), "action_mask": frombuffer(mask, I8)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation, reward so far, termination, truncation and
        info (AECEnv.last, with one look-up of the agent)."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, until the match is over (AECEnv.agent_iter, as a generator:
        the same agents, with fewer calls a step)."""
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        m = self.match
        assert m is not None
        m.apply(action)  # (compiled, as the legal numbers the mask is made of: Cursor)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # last step's rewards are spent
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        st = m.st
        got = m.hand_rewards() if self.reward_mode == "score" else None
        if st.is_terminal:
            if self.reward_mode == "win":
                got = m.win_returns()
            cut = st.limit_reached
            for a in self.agents:
                self.terminations[a] = not cut
                self.truncations[a] = cut
        else:
            self.agent_selection = self.possible_agents[st.current]  # type: ignore[index]
        if got is not None:
            for p, r in enumerate(got):
                self.rewards[self.possible_agents[p]] = r
            self._rewarded = True
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as ``spelbok play`` shows it to the agent to act (``ansi``: returned;
        ``human``: printed)."""
        if self.match is None:
            return None
        text = self.match.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _slug(name: str) -> str:
    """A game's name as an identifier: ``My Game!`` -> ``my_game``."""
    out = "".join(ch.lower() if ch.isalnum() else "_" for ch in name)
    return "_".join(part for part in out.split("_") if part) or "game"


__all__ = ["REWARDS", "SpelbokEnv", "env"]
