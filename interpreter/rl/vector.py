"""Many matches of one spec stepped together: a batched environment for training loops
that act for every seat with one policy.

>>> from spelbok.rl.vector import VectorEnv
>>> v = VectorEnv("example", num_envs=4, players=2, max_hands=1, seed=0)
>>> obs, mask, seat = v.reset()
>>> obs.shape == (4, v.encoding.size), mask.shape == (4, v.encoding.num_actions)
(True, True)
>>> obs, mask, seat, rewards, terminated, truncated = v.step(mask.argmax(axis=1))
>>> rewards.shape, terminated.dtype.name
((4, 2), 'bool')

Each call works on all ``num_envs`` matches at once: one compiled loop over them and one
numpy array for each result, where the AEC environment (:mod:`spelbok.rl.pettingzoo`)
makes three Python calls, a dict and two arrays for every single step.  Row ``i`` of
``obs`` and ``mask`` is what the seat to act in match ``i`` (``seat[i]``) sees and may do,
the same vector and mask as the AEC environment's for that agent (``docs/rl.md``).

``step(actions)`` takes ``actions[i]`` in match ``i`` (every action is checked before any
is taken: an illegal one raises :class:`~spelbok.errors.IllegalActionError` and changes
nothing), and returns the new views with, for that step, ``rewards`` (one row of seats a
match: as the AEC environment's ``reward=``), ``terminated`` and ``truncated`` (a match
stopped by its bound on hands).  A match that ended is replaced at once by a new one
(the next seed), so its row of ``obs`` and ``mask`` already shows the new match.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..engine.game import load
from ..errors import ArgumentError
from ..limits import MAX_VECTOR_ENVS, short_repr
from .compiled.aec import step_matches, view_matches
from .compiled.tensor import Cursor
from .encoding import F32, I8, REWARDS, Encoding, Match

#: a fresh match over before anybody acts is skipped; this many in a row is an error
_EMPTY_MATCHES = 100


class VectorEnv:
    """``num_envs`` matches of ``spec`` at ``players`` (default: the spec's minimum) with
    ``options`` (readings); match ``i`` of the first :meth:`reset` has seed ``seed + i``
    and each new match the next seed after the last one used."""

    def __init__(
        self,
        spec: str | os.PathLike[str],
        num_envs: int = 8,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        *,
        reward: str = "win",
        max_hands: int | None = None,
    ) -> None:
        if reward not in REWARDS:
            raise ArgumentError(f"reward must be one of {', '.join(REWARDS)}, not {short_repr(reward, 40)}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) \
                or not 1 <= num_envs <= MAX_VECTOR_ENVS:
            raise ArgumentError(f"num_envs must be a whole number from 1 to {MAX_VECTOR_ENVS}, "
                                f"not {short_repr(num_envs, 40)}")
        self.game = load(spec, players=players, options=options, max_hands=max_hands)
        self.encoding = Encoding(self.game)
        self.num_envs = num_envs
        self.players = self.game.players
        self.reward_mode = reward
        self._next_seed = 0 if seed is None else seed
        self.matches: list[Cursor] = []  # (each a Match)

    def _new_match(self) -> Match:
        """A match with the next seed that has somebody to act."""
        for _ in range(_EMPTY_MATCHES):
            seed = self._next_seed
            self._next_seed += 1
            m = Match(self.encoding, self.game.new_state(seed=seed))
            if not m.st.is_terminal:
                return m
        raise ArgumentError(f"{_EMPTY_MATCHES} matches in a row ended before anybody acted")

    def _views(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        obs, masks, seats = view_matches(self.matches)
        enc = self.encoding
        return (np.frombuffer(obs, F32).reshape(self.num_envs, enc.size),
                np.frombuffer(masks, I8).reshape(self.num_envs, enc.num_actions),
                np.array(seats, dtype=np.int64))

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start ``num_envs`` new matches (seeds ``seed``, ``seed + 1``…; by default the
        ones after the last used): their observations, masks and seats to act."""
        if seed is not None:
            self._next_seed = seed
        self.matches = [self._new_match() for _ in range(self.num_envs)]
        return self._views()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          np.ndarray, np.ndarray]:
        """Take ``actions[i]`` (an action number) in each match ``i``: the new
        observations, masks and seats, and that step's rewards, terminations and
        truncations."""
        if not self.matches:
            raise ArgumentError("reset() the environment before stepping it")
        got = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
        n = self.players
        rewards = [0.0] * (self.num_envs * n)
        ended = step_matches(self.matches, got, self.reward_mode == "score", rewards)
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        for i in ended:
            if self.matches[i].st.limit_reached:
                truncated[i] = True
            else:
                terminated[i] = True
            self.matches[i] = self._new_match()
        obs, mask, seat = self._views()
        return (obs, mask, seat, np.array(rewards, dtype=np.float32).reshape(self.num_envs, n),
                terminated, truncated)


__all__ = ["VectorEnv"]
