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
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.game import load
from ..errors import ArgumentError
from ..limits import short_repr
from .compiled.aec import Table
from .encoding import F32, I8, REWARDS, Encoding, Match


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


class SpelbokEnv(Table, AECEnv):
    """One spec, one player count: a PettingZoo AEC environment.  ``observe``, ``last``,
    ``step`` and ``agent_iter`` are :class:`spelbok.rl.compiled.aec.Table`'s (compiled)."""

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
        if reward not in REWARDS:
            raise ArgumentError(f"reward must be one of {', '.join(REWARDS)}, not {short_repr(reward, 40)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(f"render_mode must be 'human' or 'ansi', not {short_repr(render_mode, 40)}")
        game = load(spec, players=players, options=options, max_hands=max_hands)
        Table.__init__(self, [f"player_{p}" for p in range(game.players)], reward == "score",
                       render_mode == "human", np.frombuffer, F32, I8)
        AECEnv.__init__(self)
        self.game = game
        self.encoding = enc = Encoding(game)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"spelbok_{_slug(game.name)}"}
        self._next_seed = 0 if seed is None else seed
        n = enc.num_actions
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (enc.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}

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
        self.start(Match(self.encoding, self.game.new_state(seed=seed)))

    _dead_step = AECEnv._was_dead_step

    def render(self) -> str | None:
        """The table as ``spelbok play`` shows it to the agent to act (``ansi``: returned;
        ``human``: printed)."""
        m = self.match
        if m is None:
            return None
        assert isinstance(m, Match)
        text = m.render()
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
