"""Bots: players that choose actions from an :class:`~spelbok.observe.Observation`.

>>> import spelbok
>>> from spelbok.bots import make_bot
>>> from spelbok.observe import observe
>>> state = spelbok.load("knektpass", players=2).new_state(seed=1)
>>> bot = make_bot("random", seed=1)
>>> bot.choose(observe(state)) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Protocol

from ..actions import Action
from ..errors import SpelbokError
from ..observe import Observation


class Bot(Protocol):
    name: str

    def choose(self, obs: Observation) -> Action: ...


class RandomBot:
    """Uniformly random legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action:
        return self.rng.choice(obs.legal)


BOT_NAMES = ["random"]


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its name (``random``)."""
    name = spec.strip().lower()
    if name == "random":
        return RandomBot(seed)
    raise SpelbokError(f"unknown bot '{spec}'; choose one of {', '.join(BOT_NAMES)}")
