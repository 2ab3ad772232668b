"""Bots: players that choose actions from an :class:`~spelbok.engine.observe.Observation`.

A bot never sees the state: only its seat's view, the legal actions, the rules
(``obs.game``) and determinized samples of what it cannot see
(``obs.sample(rng)``).  Three bots ship:

* ``random``: a uniformly random legal action;
* ``greedy``: rules of thumb read from the rules (:mod:`spelbok.play.bots.greedy`);
* ``ismcts`` / ``ismcts:N``: information-set Monte Carlo tree search with N
  iterations per decision, 200 by default (:mod:`spelbok.play.bots.ismcts`).

The searching bots stop a decision's search when its time is spent
(``bot_time``, :data:`DEFAULT_BOT_TIME` seconds unless told otherwise), so no
spec stalls a simulation or the browser (:mod:`spelbok.play.bots.budget`).

>>> import spelbok
>>> from spelbok.play.bots import make_bot
>>> from spelbok.engine.observe import observe
>>> state = spelbok.load("example", players=2).new_state(seed=1)
>>> bot = make_bot("random", seed=1)
>>> bot.choose(observe(state)) in state.legal_actions()
True
>>> make_bot("ismcts:50", seed=2).name
'ismcts:50'
"""

from __future__ import annotations

import random
import re
from typing import Protocol

from ...engine.actions import Action
from ...engine.observe import Observation
from ...errors import SpelbokError, did_you_mean
from .budget import DEFAULT_BOT_TIME, MAX_BOT_TIME, Budget
from .greedy import GreedyBot
from .ismcts import DEFAULT_ITERATIONS, ISMCTSBot


class Bot(Protocol):
    """Anything with a ``name`` and a ``choose(obs) -> Action`` method."""

    name: str

    def choose(self, obs: Observation) -> Action: ...


class RandomBot:
    """Uniformly random legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action:
        return self.rng.choice(obs.legal)


BOT_NAMES = ["random", "greedy", "ismcts"]
"""The bot names :func:`make_bot` knows (``ismcts`` also as ``ismcts:N``)."""

#: The largest ismcts budget accepted (iterations per decision).
MAX_ITERATIONS = 1_000_000
# ASCII digits only: str.isdigit() also accepts '²', which int() refuses
_BUDGET_RE = re.compile(r"[0-9]{1,7}\Z")


def make_bot(spec: str, seed: int = 0, bot_time: float | None = DEFAULT_BOT_TIME) -> Bot:
    """A bot from its name: ``random``, ``greedy``, ``ismcts`` or ``ismcts:N``.

    ``bot_time``: the seconds one decision may take (None: no limit; see
    :mod:`spelbok.play.bots.budget`).  Raises SpelbokError for an unknown name
    (with a suggestion), a bad budget or a bad time.

    >>> make_bot("greedy", seed=3).name
    'greedy'
    >>> make_bot("gredy")
    Traceback (most recent call last):
    ...
    spelbok.errors.SpelbokError: unknown bot 'gredy' (did you mean 'greedy'?); choose one of random, greedy, ismcts, ismcts:N
    """
    if bot_time is not None and (not isinstance(bot_time, (int, float)) or isinstance(bot_time, bool)
                                 or not 0 < bot_time <= MAX_BOT_TIME):
        raise SpelbokError(f"a bot's time is more than 0 and at most {MAX_BOT_TIME:g} seconds, "
                           f"not {bot_time!r}")
    text = str(spec).strip().lower()
    name, sep, arg = text.partition(":")
    name = name.strip()
    arg = arg.strip()
    if name == "random" and not sep:
        return RandomBot(seed)
    if name == "greedy" and not sep:
        return GreedyBot(seed, bot_time=bot_time)
    if name == "ismcts":
        if not sep:
            return ISMCTSBot(DEFAULT_ITERATIONS, seed, bot_time=bot_time)
        if not _BUDGET_RE.match(arg) or not 1 <= int(arg) <= MAX_ITERATIONS:
            raise SpelbokError(
                f"bad bot '{spec}': the ismcts budget is a positive number of iterations "
                f"(at most {MAX_ITERATIONS}), e.g. ismcts:500"
            )
        return ISMCTSBot(int(arg), seed, bot_time=bot_time)
    if sep and name in ("random", "greedy"):
        raise SpelbokError(f"bad bot '{spec}': {name} takes no ':' parameter")
    hint = did_you_mean(name, BOT_NAMES)
    extra = f" (did you mean '{hint}'?)" if hint else ""
    raise SpelbokError(
        f"unknown bot '{spec}'{extra}; choose one of {', '.join(BOT_NAMES)}, ismcts:N"
    )


def parse_bots(text: str | list[str]) -> list[str]:
    """Split a comma-separated bot list and check every name (SpelbokError if bad).

    >>> parse_bots("random, greedy,ismcts:50")
    ['random', 'greedy', 'ismcts:50']
    """
    items = text.split(",") if isinstance(text, str) else list(text)
    names = [s.strip() for s in items if s.strip()]
    if not names:
        raise SpelbokError("no bot named; choose from " + ", ".join(BOT_NAMES))
    for n in names:
        make_bot(n)
    return [n.lower() for n in names]


__all__ = ["BOT_NAMES", "DEFAULT_BOT_TIME", "Bot", "Budget", "GreedyBot", "ISMCTSBot", "RandomBot", "make_bot", "parse_bots"]
