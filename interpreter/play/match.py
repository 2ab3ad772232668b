"""Playing whole matches between bots.

Each seat's bot sees only :func:`~spelbok.engine.observe.observe` of its seat, never
the state.  Seeds: a match is fully determined by the game, the bot names, the
match seed and the bots' seeds; :func:`match_seed` and :func:`bot_seed` derive
those from one run seed and a match index, so that a batch of matches gives
the same results however it is split between processes.

>>> import spelbok
>>> from spelbok.play.bots import make_bot
>>> game = spelbok.load("example", players=2)
>>> final = play_match(game, [make_bot("greedy", 1), make_bot("random", 2)], seed=7)
>>> final.is_terminal and final.winners != []
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..engine.observe import observe
from ..errors import IllegalActionError, SpelbokError

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.game import Game
    from ..engine.state import State
    from .bots import Bot

StepHook = Callable[["State", int, "Action", int, int], None]
"""Called after each action: ``hook(state, seat, action, stock_before, hands_before)``
(the talon size and ``hands_played`` just before the action)."""


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a run seeded ``seed`` (stable across processes).

    >>> match_seed(1, 0) == match_seed(1, 0) != match_seed(1, 1)
    True
    """
    return random.Random(f"spelbok-match:{seed}:{index}").getrandbits(63)


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in match ``index`` of a run seeded ``seed``.

    >>> bot_seed(1, 0, 0) != bot_seed(1, 0, 1)
    True
    """
    return random.Random(f"spelbok-bot:{seed}:{index}:{seat}").getrandbits(63)


def play_match(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    record: bool = False,
    on_step: StepHook | None = None,
    max_decisions: int = 1_000_000,
) -> State:
    """Play one match to the end: seat ``i`` is played by ``bots[i]``.

    ``record=True`` keeps the event log as the match goes (``state.log`` is
    then free); ``on_step`` is called after every action.  A bot that returns
    an illegal action raises IllegalActionError naming the bot.

    >>> import spelbok
    >>> from spelbok.play.bots import make_bot
    >>> g = spelbok.load("example", players=3)
    >>> s = play_match(g, [make_bot("random", i) for i in range(3)], seed=1, record=True)
    >>> s.log[-1]["event"]
    'match_end'
    """
    if len(bots) != game.players:
        raise SpelbokError(f"{game.name} at {game.players} players needs {game.players} bots, "
                           f"got {len(bots)}")
    state = game._start({"seed": int(seed), "dealer": None}, record=record)
    steps = 0
    while not state.is_terminal:
        seat = state.current
        assert seat is not None
        bot = bots[seat]
        action = bot.choose(observe(state, seat))
        stock = len(state.stock)
        hands = state.hands_played
        try:
            state.apply(action)
        except IllegalActionError as e:
            raise IllegalActionError(f"bot '{bot.name}' at seat {seat}: {e}") from e
        if on_step is not None:
            on_step(state, seat, action, stock, hands)
        steps += 1
        if steps >= max_decisions:
            raise SpelbokError(f"match {seed} did not end within {max_decisions} decisions")
    return state


__all__ = ["StepHook", "bot_seed", "match_seed", "play_match"]
